"""Open TORCH_TRACE logs post-mortem (`tcdebug open LOG_OR_FOLDER`), one session per rank.

Stdlib only: the UI process reads traces without importing torch.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

from tcdebug.model.session import Session
from tcdebug.trace.log_events import iter_trace_events
from tcdebug.trace.rank_logs import (
    Divergence,
    divergences,
    find_trace_logs,
    label_folder,
    normalise,
    rank_label,
    rank_of_file,
    scan_trace_logs,
)
from tcdebug.trace.rank_records import parity
from tcdebug.trace.reader import PayloadRef, Record, TraceStats, first_record_time, read_records
from tcdebug.trace.to_session import (
    NOT_IN_TRACE,
    apply_event,
    finish_session,
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
    "scan_trace_logs",
    "iter_trace_events",
    "label_folder",
    "load_log",
    "load_rank_sessions",
    "load_trace_session",
    "normalise",
    "read_records",
]


def load_log(path: str | Path, new_compile: Callable[[str], object] | None = None) -> Session:
    """One log file, read in one streaming pass (payloads stay in the file). `new_compile` is
    called with each compile's id as the session gets it."""
    session = new_trace_session(path)
    stats = TraceStats()
    compiles = session.compiles
    count = 0
    for ev in iter_trace_events(path, stats):
        apply_event(session, ev)
        if new_compile is not None and len(compiles) != count:
            for compile_id in itertools.islice(reversed(compiles), len(compiles) - count):
                new_compile(compile_id)  # (an event adds one compile: this is the one just added)
            count = len(compiles)
    named = rank_of_file(Path(path))
    if named is not None:  # the file's name gives the rank, as tlparse reads it
        if session.rank is not None and session.rank != named:
            session.record_rank = session.rank
            session.notes.append(
                f"{Path(path).name}: rank {named} by its file name; its records say rank {session.rank}"
            )
        session.rank = named
    if session.rank is not None:
        for comp in session.compiles.values():
            comp.rank = session.rank if comp.rank is None or named is not None else comp.rank
    finish_session(session, stats)
    return session


def load_rank_sessions(path: str | Path, new_compile: Callable[[str], object] | None = None) -> dict[str, Session]:
    """Every log at `path`, keyed by its entry label (see `rank_label`), in rank order.

    Each log is its own entry: a second log of rank 1 (a restarted rank, two jobs into one folder)
    is "1 (2)", ordered by when its log starts. Logs without a rank get 0, 1, ... in name order.
    `new_compile`: see `load_log`, where `path` holds one log (else not called).
    """
    logs, skipped = scan_trace_logs(path)
    loaded = [(log, load_log(log, new_compile if len(logs) == 1 else None)) for log in logs]
    for _, session in loaded:
        session.notes.extend(skipped)
    used = {s.rank for _, s in loaded if s.rank is not None}
    free = (n for n in range(len(loaded) + len(used) + 1) if n not in used)
    numbered: list[tuple[int, float, str, Session]] = []
    for log, session in loaded:
        rank = session.rank if session.rank is not None else next(free)
        start = first_record_time(log)
        numbered.append((rank, start if start is not None else float("inf"), log.name, session))
    numbered.sort(key=lambda item: item[:3])
    sessions: dict[str, Session] = {}
    count: dict[int, int] = {}
    for rank, _, _, session in numbered:
        n = count[rank] = count.get(rank, 0) + 1
        label = rank_label(rank, n)
        if len(numbered) > 1:  # a lone log without a rank keeps none
            session.rank = rank
        session.rank_label = label
        sessions[label] = session
    for rank, n in count.items():
        if n > 1:
            names = ", ".join(
                f"{Path(s.script).name} ({s.rank_label})" for s in sessions.values() if s.rank == rank
            )
            for session in sessions.values():
                session.notes.append(f"rank {rank} has {n} logs, each shown as its own entry: {names}")
    return sessions


def load_trace_session(
    path: str | Path, rank: int | str | None = None, new_compile: Callable[[str], object] | None = None
) -> Session:
    """The session of `rank` (a rank or an entry label like "1 (2)"; default: the first) of the
    TORCH_TRACE log(s) at `path`. `new_compile`: see `load_rank_sessions`.

    With several logs, every returned session shares `ranks` (label -> Session) and
    `divergences`, so a UI can switch ranks and show where they differ.
    """
    sessions = load_rank_sessions(path, new_compile)
    if rank is not None and str(rank) not in sessions:
        raise ValueError(f"no rank {rank} here (ranks: {', '.join(sessions)})")
    found = divergences(sessions)
    if len(sessions) == 1:  # one rank: only its own collectives can disagree
        for label, session in sessions.items():
            session.notes.extend(f"collectives parity: {d.summary}" for d in parity(session, label))
    if len(sessions) > 1:
        for session in sessions.values():
            session.ranks = sessions
            session.divergences = found
            session.notes.extend(f"ranks diverge: {d.summary}" for d in found)
    return sessions[str(rank) if rank is not None else next(iter(sessions))]
