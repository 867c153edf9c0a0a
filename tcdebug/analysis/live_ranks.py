"""The ranks of a live `tcdebug torchrun …` job: one session per rank, and where they diverge.

Every rank's compiles arrive in one live session, keyed `0/0@r1` (see `tcdebug.debuggee.rank`).
`rank_sessions` splits it into one session per rank with Dynamo's own ids (`0/0`), the shape a
multi-rank TORCH_TRACE gives (`Session.ranks`, labels "0", "1"), so the ranks screen, `--dump`'s
`OUT/ranks/N/` and `tcdebug.trace.rank_logs.divergences` work on it unchanged.

`update` is called after every event: it flags a divergence the moment it is known, never
before. Inductor's records (collective schedules, cache answers, the graph execution order, runtime
estimates, tensor metadata) are compared once every rank has ended. A compile id missing on a rank counts only once that rank has gone past it (it compiled
a later id, or ended); graphs, recompile reasons and graph-break counts are compared once the
compile has ended on each rank that has it. Stdlib only (the UI process runs it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from tcdebug.model.events import Event, event_type
from tcdebug.model.session import (
    DIED,
    EXECUTION_ORDER,
    EXECUTION_ORDER_BY_RANK,
    FAILED,
    FINISHED,
    PAUSED,
    RUNNING,
    Compile,
    ProcessInfo,
    Session,
    Stage,
)
from tcdebug.trace.rank_logs import Divergence, divergences
from tcdebug.trace.rank_records import parity, record_divergences

RANK_SUFFIX = "@r"
LAUNCHER = "tcdebug.debuggee.torchrun"  # the target's module: torchrun, its workers under tcdebug
_STATE_EVENTS = frozenset({"process", "stage", "resumed"})  # a rank's status changes: no new divergence
_EVENTS = frozenset(
    {"compile_end", "compile_start", "process_end", "process_exit", "graph_break", "recompile"}
)


def rank_of_id(compile_id: str) -> int | None:
    """1 for `0/0@r1`; None for an id of no rank."""
    _, sep, tail = compile_id.rpartition(RANK_SUFFIX)
    return int(tail) if sep and tail.isdigit() else None


def core_id(compile_id: str) -> str:
    """`0/0` for `0/0@r1`."""
    head, sep, tail = compile_id.rpartition(RANK_SUFFIX)
    return head if sep and tail.isdigit() else compile_id


def rank_processes(session: Session) -> dict[int, ProcessInfo]:
    """The ranks of the job, by rank number, lowest first (the latest process of a restarted rank)."""
    found: dict[int, ProcessInfo] = {}
    for info in session.processes.values():
        if info.rank is not None:
            found[info.rank] = info
    return dict(sorted(found.items()))


def is_rank_job(session: Session) -> bool:
    return bool(rank_processes(session))


def rank_state(info: ProcessInfo, session: Session) -> str:
    """`running`, `paused at dynamo_graph of 0/0`, `finished (exit code 0)`, `failed (exit code 1:
    …)`, `died`: how the rank stands now."""
    if info.exit_code is not None:
        what = f"exit code {info.exit_code}" + (f": {info.error}" if info.error else "")
        return f"{'finished' if info.exit_code == 0 else 'failed'} ({what})"
    if info.ended:
        return "died (no exit code reached tcdebug: killed, or os._exit)"
    pause = session.pauses.get(info.pid)
    if pause is not None:
        return f"paused at {pause[1]} of {core_id(pause[0])}"
    return "running" if info.stepping else "running free"


def _copy_stage(st: Stage, load_text: bool) -> Stage:
    if not load_text:
        return replace(st, kernels=[replace(k, meta=dict(k.meta)) for k in st.kernels], meta=dict(st.meta))
    kernels = [replace(k, meta={n: v for n, v in k.meta.items() if n != "file"}) for k in st.kernels]
    text = st.get_text() if st.captured else st.text
    return replace(st, text=text, file="", loader=None, kernels=kernels, meta=dict(st.meta))


def _copy_compile(comp: Compile, load_text: bool = False) -> Compile:
    stages = {key: _copy_stage(st, load_text) for key, st in comp.stages.items()}
    return replace(
        comp, compile_id=core_id(comp.compile_id), stages=stages, graph_breaks=list(comp.graph_breaks)
    )


def rank_sessions(session: Session, *, load_text: bool = False) -> dict[str, Session]:
    """One session per rank ("0", "1", …), compile ids without `@r<rank>`; empty if no ranks.

    `load_text`: the stages hold their text (not a loader of a dump file), ready to be written
    elsewhere."""
    out: dict[str, Session] = {}
    for rank, info in rank_processes(session).items():
        s = Session(
            script=session.script,
            argv=list(session.argv),
            origin=session.origin,
            torch_version=session.torch_version,
            python=session.python,
            device=info.device or session.device,
        )
        s.rank, s.rank_label = rank, str(rank)
        s.main_pid = info.pid
        s.processes = {info.pid: replace(info, main=True)}
        s.output = [chunk for chunk in session.output if chunk.rank == rank]
        for comp in session.compiles.values():
            if rank_of_id(comp.compile_id) == rank:
                copy = _copy_compile(comp, load_text)
                s.compiles[copy.compile_id] = copy
        order = session.extra.get(EXECUTION_ORDER_BY_RANK, {}).get(str(rank))
        if isinstance(order, list):
            s.extra[EXECUTION_ORDER] = list(order)
        s.exit_code = info.exit_code
        s.error = info.error
        s.extra["rank_status"] = rank_state(info, session)
        if info.exit_code is not None:
            s.state = FAILED if info.exit_code else FINISHED
        elif info.ended:
            s.state, s.error = DIED, "the rank ended without an exit code (killed, or os._exit)"
        else:
            s.state = PAUSED if info.pid in session.pauses else RUNNING
        out[str(rank)] = s
    return out


def _order(comp: Compile) -> tuple[int, int, int, int]:
    return (comp.run, comp.frame_id, comp.frame_compile_id, comp.attempt)


def _past(s: Session, info: ProcessInfo, comp: Compile) -> bool:
    """Rank `s` has gone past compile `comp` of another rank: it ended, or compiled a later id."""
    if info.ended or info.exit_code is not None:
        return True
    return any(_order(c) > _order(comp) for c in s.compiles.values())


def find_divergences(session: Session, sessions: dict[str, Session] | None = None) -> list[Divergence]:
    """Every divergence known now (see the module doc)."""
    sessions = rank_sessions(session) if sessions is None else sessions
    if len(sessions) < 2:
        return []
    infos = {str(rank): info for rank, info in rank_processes(session).items()}
    ended = {
        label: replace(s, compiles={cid: c for cid, c in s.compiles.items() if c.status != "compiling"})
        for label, s in sessions.items()
    }
    out: list[Divergence] = []

    def settled(label: str, cid: str) -> bool:
        """A rank's compile gets no more stages (Inductor compiles a backward lazily, after the
        compile ended) once the rank has gone past it."""
        comp, info = sessions[label].compiles.get(cid), infos.get(label)
        return comp is None or (info is not None and _past(sessions[label], info, comp))

    for div in divergences(ended, settled):
        if div.kind == "compile_ids":
            missing = div.groups.get("not compiled", [])
            have = div.groups.get("compiled", [])
            comp = ended[have[0]].compiles[div.compile_id] if have else None
            if comp is None or not all(
                div.compile_id not in sessions[label].compiles and _past(sessions[label], infos[label], comp)
                for label in missing
            ):
                continue
        out.append(div)
    out.extend(_graph_break_divergences(ended))
    out.extend(_ended_ranks(session, infos))
    if infos and all(info.ended or info.exit_code is not None for info in infos.values()):
        # Inductor's records (collective schedules, cache answers, the execution order, runtime
        # estimates, tensor metadata) are compared as a log's once every rank has ended: before, a rank's sequence
        # may only be shorter for now.
        order = list(ended)
        out.extend(record_divergences(ended, order))
        for label in order:
            out.extend(parity(ended[label], label))
    return out


def _graph_break_divergences(sessions: dict[str, Session]) -> list[Divergence]:
    out = []
    ids = sorted({cid for s in sessions.values() for cid in s.compiles})
    for cid in ids:
        counts = {
            label: len(s.compiles[cid].graph_breaks) for label, s in sessions.items() if cid in s.compiles
        }
        if len(counts) > 1 and len(set(counts.values())) > 1:
            groups: dict[str, list[str]] = {}
            for label, n in counts.items():
                groups.setdefault(f"{n} graph break{'s' if n != 1 else ''}", []).append(label)
            first = next(iter(counts.values()))
            out.append(
                Divergence(
                    "graph_breaks",
                    cid,
                    "breaks differently: " + "; ".join(f"{_ranks(ls)}: {g}" for g, ls in groups.items()),
                    ranks=[label for label, n in counts.items() if n != first],
                    groups=groups,
                )
            )
    return out


def _ended_ranks(session: Session, infos: dict[str, ProcessInfo]) -> list[Divergence]:
    """A rank that failed or died while others still run. (One that finished cleanly is flagged
    only by the compiles the others go on to make: `compile_ids`.)"""
    gone = {label: i for label, i in infos.items() if (i.ended and i.exit_code is None) or i.exit_code}
    running = [label for label, i in infos.items() if not i.ended and i.exit_code is None]
    if not gone or not running:
        return []
    return [
        Divergence(
            "rank_ended",
            "-",
            f"rank {label} {rank_state(info, session)} while {_ranks(running)} went on",
            ranks=[label],
            groups={"ended": [label], "running": running},
        )
        for label, info in gone.items()
    ]


def _ranks(labels: list[str]) -> str:
    return f"rank{'s' if len(labels) > 1 else ''} {', '.join(labels)}"


@dataclass
class LiveRanks:
    """Keeps `session.ranks` and `session.divergences` of a live job up to date; remembers every
    divergence once flagged (a rank that later ends does not unflag what was seen). A divergence
    flagged while a rank was still compiling that id is completed in place once it has ended
    (`ranks 0, 3: graph A` becomes `ranks 0, 2, 3: graph A`); only its first sighting is new."""

    session: Session
    seen: dict[tuple[str, str, str], Divergence] | None = None

    def update(self, event: Event | Mapping[str, object]) -> list[Divergence]:
        """Fold in the effect of `event` (already applied); return the divergences new now."""
        kind = event_type(event)
        if kind == "hello" and self.session.argv[:1] == [LAUNCHER]:
            self.session.argv = ["torchrun", *self.session.argv[1:]]  # the launcher, as typed
            self.session.script = "torchrun"
        if (kind not in _EVENTS and kind not in _STATE_EVENTS) or not is_rank_job(self.session):
            return []
        if self.seen is None:
            self.seen = {}
        sessions = rank_sessions(self.session)
        new = []
        found = find_divergences(self.session, sessions) if kind in _EVENTS else []
        known = list(self.session.divergences)
        for div in found:
            key = (div.kind, div.compile_id, div.detail if div.kind == "rank_ended" else "")
            old = self.seen.get(key)
            if old is None:
                new.append(div)
            elif old != div and old in known:  # a rank that was still compiling is in it now
                known[known.index(old)] = div
            self.seen[key] = div
        self.session.divergences = [*known, *new]
        for s in sessions.values():
            s.ranks = sessions
            s.divergences = self.session.divergences
        self.session.ranks = sessions
        return new


def _involved(div: Divergence) -> list[str]:
    labels = [label for group in div.groups.values() for label in group]
    return labels or [str(r) for r in div.ranks]


def divergence_notes(session: Session) -> dict[str, list[str]]:
    """Compile key -> what differs, for the timeline's warning rows: every rank's version of a
    diverging compile in a live job (`0/0@r1`), or the shown rank's compile in a trace."""
    notes: dict[str, list[str]] = {}
    live = is_rank_job(session)
    for div in session.divergences:
        if not isinstance(div, Divergence) or div.compile_id in ("", "-"):
            continue
        for label in _involved(div):
            if live:
                key = f"{div.compile_id}{RANK_SUFFIX}{label}"
            elif not session.rank_label or session.rank_label == label:
                key = div.compile_id
            else:
                continue
            if key in session.compiles and div.detail not in notes.get(key, []):
                notes.setdefault(key, []).append(div.detail)
    return notes


def other_rank_compile(session: Session, compile_id: str) -> str | None:
    """For `d` on a rank's compile that diverges: the same compile id of a rank that differs."""
    rank = rank_of_id(compile_id)
    if rank is None:
        return None
    cid = core_id(compile_id)
    for div in session.divergences:
        if not isinstance(div, Divergence) or div.compile_id != cid:
            continue
        for group in div.groups.values():
            if str(rank) in group:
                continue
            for label in group:
                other = f"{cid}{RANK_SUFFIX}{label}"
                if other in session.compiles:
                    return other
    return None


def _position(
    session: Session, pause: tuple[str, str]
) -> tuple[tuple[int, int, int, int], tuple[float, ...]]:
    from tcdebug.model import stages as stage_catalog

    comp = session.compiles.get(pause[0])
    order = _order(comp) if comp is not None else (0, 0, 0, 0)
    return order, tuple(stage_catalog.sort_key(pause[1]))


def lockstep_plan(session: Session) -> tuple[list[int], list[str]]:
    """Lockstep `n`: (pids of the ranks to step now, labels of the ranks still running).

    Ranks that run free (the palette's `run rank N free`) and ranks that ended are left out.
    Every other rank must pause first. Then the ranks behind the furthest one step (they catch
    up); when all wait at the same stage of the same compile id, all step together."""
    live = {
        r: i for r, i in rank_processes(session).items() if not i.ended and i.exit_code is None and i.stepping
    }
    running = [str(r) for r, i in live.items() if i.pid not in session.pauses]
    if running:
        return [], running
    positions = {i.pid: _position(session, session.pauses[i.pid]) for i in live.values()}
    if not positions:
        return [], []
    furthest = max(positions.values())
    behind = [pid for pid, pos in positions.items() if pos < furthest]
    return (behind or list(positions)), []


def pg_timeout_text(session: Session) -> str:
    """`30 min`: the process-group timeout the ranks' torch.distributed uses by default."""
    values = {i.pg_timeout_s for i in rank_processes(session).values() if i.pg_timeout_s}
    if not values:
        return "torch.distributed's default (30 min for gloo, 10 min for NCCL)"
    secs = max(values)
    return (
        f"{secs / 60:g} min (torch.distributed's default; a timeout given to init_process_group overrides it)"
    )


def tagged_output(session: Session) -> str:
    """The job's output with each rank's lines marked `[rank N] ` (the launcher's stay as written)."""
    out: list[str] = []
    at_start = True
    last: int | None = None
    for chunk in session.output:
        if chunk.rank is not None and chunk.rank != last and not at_start:
            out.append("\n")  # another rank's text: never glued to a half line
            at_start = True
        for piece in chunk.text.splitlines(keepends=True):
            if chunk.rank is not None and at_start:
                out.append(f"[rank {chunk.rank}] ")
            out.append(piece)
            at_start = piece.endswith("\n")
        last = chunk.rank
    return "".join(out)
