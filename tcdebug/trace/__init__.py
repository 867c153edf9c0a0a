"""Open TORCH_TRACE logs post-mortem (`tcdebug open LOG_OR_FOLDER`), one session per rank.

Stdlib only: the UI process reads traces without importing torch.
"""

from __future__ import annotations

from pathlib import Path

from tcdebug.session import Session
from tcdebug.trace.ranks import Divergence, divergences, find_trace_logs, rank_of_file
from tcdebug.trace.reader import PayloadRef, Record, TraceStats, read_records
from tcdebug.trace.to_session import (
    NOT_IN_TRACE,
    apply_event,
    finish_session,
    iter_trace_events,
    new_trace_session,
)

__all__ = [
    "NOT_IN_TRACE",
    "Divergence",
    "PayloadRef",
    "Record",
    "TraceStats",
    "apply_event",
    "divergences",
    "find_trace_logs",
    "iter_trace_events",
    "load_log",
    "load_rank_sessions",
    "load_trace_session",
    "read_records",
]


def load_log(path: str | Path) -> Session:
    """One log file, read in one streaming pass (payloads stay in the file)."""
    session = new_trace_session(path)
    stats = TraceStats()
    for ev in iter_trace_events(path, stats):
        apply_event(session, ev)
    if session.rank is None:
        session.rank = rank_of_file(Path(path))
    if session.rank is not None:
        for comp in session.compiles.values():
            comp.rank = session.rank if comp.rank is None else comp.rank
    finish_session(session, stats)
    return session


def load_rank_sessions(path: str | Path) -> dict[int, Session]:
    """Every log at `path` keyed by rank (logs without a rank get 0, 1, ... in name order).

    Two logs of one rank (two runs into one folder): the newest wins, with a note.
    """
    logs = find_trace_logs(path)
    sessions: dict[int, Session] = {}
    dropped: list[str] = []
    unranked = 0
    for log in sorted(logs, key=lambda p: p.stat().st_mtime):
        session = load_log(log)
        rank = session.rank
        if rank is None:
            while unranked in sessions:
                unranked += 1
            rank = unranked
        if rank in sessions:
            dropped.append(f"{sessions[rank].script} (rank {rank}: a newer log replaces it)")
        sessions[rank] = session
    for session in sessions.values():
        session.notes.extend(f"ignored {d}" for d in dropped)
    return dict(sorted(sessions.items()))


def load_trace_session(path: str | Path, rank: int | None = None) -> Session:
    """The session of `rank` (default: the lowest) of the TORCH_TRACE log(s) at `path`.

    With several ranks, every returned session shares `ranks` (rank -> Session) and
    `divergences`, so a UI can switch ranks and show where they differ.
    """
    sessions = load_rank_sessions(path)
    if rank is not None and rank not in sessions:
        raise ValueError(f"no rank {rank} here (ranks: {', '.join(map(str, sessions))})")
    found = divergences(sessions)
    if len(sessions) > 1:
        for r, session in sessions.items():
            session.ranks = sessions
            session.divergences = found
            session.rank = r
            session.notes.extend(f"ranks diverge: {d.summary}" for d in found)
    chosen = sessions[rank if rank is not None else min(sessions)]
    return chosen
