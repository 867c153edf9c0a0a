"""The session model: everything tcdebug knows about one run, as plain dataclasses.

It is fed by typed events (`tcdebug.model.events`) from a live target, and
rebuilt from a dump (`tcdebug.dump`) or a TORCH_TRACE log (`tcdebug.trace`).
The UI and `--dump` render only from it.
"""

from __future__ import annotations

import copy
import itertools
import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from tcdebug.analysis.provenance_index import ProvenanceIndex
from tcdebug.model import events as ev_types
from tcdebug.model import schema
from tcdebug.model import stages as stage_catalog
from tcdebug.model.payloads import Accuracy as Accuracy
from tcdebug.model.payloads import AutotuneTable as AutotuneTable
from tcdebug.model.payloads import CacheVerdict as CacheVerdict
from tcdebug.model.payloads import CallInfo as CallInfo
from tcdebug.model.payloads import ChainStep as ChainStep
from tcdebug.model.payloads import EntryCheck as EntryCheck
from tcdebug.model.payloads import Frame as Frame
from tcdebug.model.payloads import GuardOrigin as GuardOrigin
from tcdebug.model.payloads import GuardResult as GuardResult
from tcdebug.model.payloads import Kernel as Kernel
from tcdebug.model.payloads import Plain
from tcdebug.model.payloads import Rerun as Rerun
from tcdebug.model.trace_format import CA_CAPTURE_NAME, is_compiled_autograd_capture
from tcdebug.textsafe import safe_line

_PROVENANCE_LOAD = threading.Lock()

# Session states, as the header shows them.
STARTING = "starting"
RUNNING = "running"
PAUSED = "paused"
FINISHED = "finished"
FAILED = "failed"  # the user's script raised, or a compile failed fatally
DIED = "died"  # the target process vanished
STOPPED = "stopped"  # the user stopped the run
LOADED = "loaded"  # opened from a dump or a trace: nothing to step


class _Nothing(Mapping[str, Any]):
    """The empty mapping compiles share (see `Compile`): read-only, and one instance, which
    copies and pickles of it are too."""

    __slots__ = ()

    def __getitem__(self, key: str) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __reduce__(self) -> str:
        return "NOTHING"

    def __repr__(self) -> str:
        return "{}"


NOTHING: Mapping[str, Any] = _Nothing()


@dataclass(eq=False, repr=False, slots=True)
class Stage(Plain):
    """A stage of a compile. session.json holds it as it is (`tcdebug.model.schema`): `stage_id`
    as `id`, plus its `key`; `loader` never (it reads the text from a dump file or a log). Slots:
    a log of many compiles holds several of these per compile."""

    JSON_EXTRA: ClassVar[dict[str, Any]] = {"key": str}  # written from the property, checked when read

    stage_id: str = field(metadata={"json": "id"})
    part: str = ""  # "", "forward", "backward" or "inference"
    title: str = ""
    language: str = "text"
    status: str = "captured"  # "captured" or "not_captured"
    reason: str = ""  # why it was not captured
    text: str | None = None
    file: str = ""  # path relative to the dump folder
    elapsed_s: float = 0.0  # seconds since the compile started
    kernels: list[Kernel] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    loader: Callable[[], str] | None = field(
        default=None, repr=False, compare=False, metadata={"wire": False}
    )

    @property
    def key(self) -> str:
        return stage_catalog.stage_key(self.stage_id, self.part)

    @property
    def captured(self) -> bool:
        return self.status == "captured"

    def get_text(self) -> str:
        """The stage text, read lazily from its dump file or log when not in memory."""
        if self.text is None and self.loader is not None:
            try:
                return self.loader()
            except OSError as exc:
                return f"<could not read {self.file or 'stage text'}: {exc}>"
        if not self.captured and not self.text:
            return f"not captured: {self.reason}"
        return self.text or ""


@dataclass(eq=False, repr=False)
class GraphBreak(Plain):
    """A graph break of a compile: its reason and the user's stack."""

    compile_id: str
    reason: str
    user_stack: list[str] = field(default_factory=list)


# `Session.extra` keys of a log's runtime data: the graphs that ran, in order, and the execution order
# torch logged (compile ids).
GRAPH_EXECUTIONS = "graph_executions"
EXECUTION_ORDER = "execution_order"
EXECUTION_ORDER_BY_RANK = "execution_order_by_rank"  # a live torchrun job: each rank's, by rank


@dataclass(eq=False, repr=False, slots=True)
class Compile(Plain):
    """One compile (Dynamo's frame/compile id): its function, status, stages and findings.
    Slotted, its provenance index made at first use: a log of 100,000 compiles holds them all."""

    compile_id: str  # Dynamo's "frame/compile", e.g. "0/1"
    function: str = ""
    filename: str = ""
    firstlineno: int = 0
    status: str = "compiling"  # "compiling", "ok" or "failed"
    error: str = ""
    recompile_reason: str = ""
    graph_breaks: Sequence[GraphBreak] = ()
    stages: dict[str, Stage] = field(default_factory=dict)
    elapsed_s: float = 0.0
    metrics: dict[str, Any] = field(default_factory=dict)
    rank: int | None = None
    process: str = ""  # the process that compiled it, readable: "main", "worker 1", "pid 1234"
    pid: int | None = None  # its pid (live runs and dumps of them)
    # What most compiles lack starts as a shared empty tuple or mapping, replaced (never changed in
    # place) by what the session learns: a log of 100,000 compiles holds them all.
    times: Mapping[str, Any] = field(default_factory=lambda: NOTHING)  # phase times, see tcdebug.analysis.compile_phases
    autotune_tables: Sequence[AutotuneTable] = ()  # max-autotune choices
    guard_provenance: Sequence[GuardOrigin] = ()  # user frame per guard
    stack: Sequence[Frame] = ()  # the user's frames that led to it (call sites)
    accuracy: Accuracy | None = None  # the comparison with eager (`A`, `--accuracy`), when asked
    symbol_chains: Mapping[str, list[ChainStep]] = field(default_factory=lambda: NOTHING)  # per symbol, its specialization
    caches: Sequence[CacheVerdict] = ()  # each compile cache's answer, in order
    provenance_index: ProvenanceIndex | None = field(default=None, repr=False)  # made by `provenance`
    # A dump's provenance.json, read into `provenance_index` at the first use of `provenance`:
    # opening a dump of a big model does not parse every compile's index up front.
    provenance_loader: Callable[[ProvenanceIndex], None] | None = field(
        default=None, repr=False, compare=False
    )
    # run, frame, frame compile and attempt numbers, read from `compile_id` at the first ask
    _numbers: tuple[int, int, int, int] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def provenance(self) -> ProvenanceIndex:
        """Which lines of every stage hold the same op (`tcdebug.analysis.provenance_index`)."""
        index = self.provenance_index
        if index is None or self.provenance_loader is not None:
            with _PROVENANCE_LOAD:  # highlight workers and the UI thread may ask at once
                index = self.provenance_index
                if index is None:
                    index = self.provenance_index = ProvenanceIndex()
                loader = self.provenance_loader
                if loader is not None:
                    try:
                        loader(index)
                    finally:
                        self.provenance_loader = None
        return index

    @provenance.setter
    def provenance(self, index: ProvenanceIndex) -> None:
        self.provenance_loader = None
        self.provenance_index = index

    @property
    def is_ca_capture(self) -> bool:
        """Compiled autograd's capture of a backward (`!N`): no Dynamo frame; its reason is a
        cache miss of compiled autograd, not a recompile of a frame."""
        return is_compiled_autograd_capture(self.compile_id)

    @property
    def shown_name(self) -> str:
        """The function compiled, as rows and titles show it; compiled autograd's capture
        compiles no function of a frame and is shown as what it is."""
        if not self.function and self.is_ca_capture:
            return CA_CAPTURE_NAME
        return self.function

    @property
    def numbers(self) -> tuple[int, int, int, int]:
        """The run, frame, frame compile and attempt numbers of `compile_id` (see below)."""
        numbers = self._numbers
        if numbers is None:
            numbers = self._numbers = id_numbers(self.compile_id)
        return numbers

    @property
    def frame_id(self) -> int:
        """The frame number; `-` (export, AOTInductor) and bad ids give -1."""
        return self.numbers[1]

    @property
    def frame_compile_id(self) -> int:
        """The compile's number in its frame; -1 as `frame_id`."""
        return self.numbers[2]

    @property
    def attempt(self) -> int:
        """Dynamo's restart attempt: 1 for `0/0_1`, 0 for `0/0`."""
        return self.numbers[3]

    @property
    def run(self) -> int:
        """The run of this id in one TORCH_TRACE log: 2 for `0/0#2`, else 1."""
        return self.numbers[0]

    def ordered_stages(self) -> list[Stage]:
        stages = self.stages
        return [stages[key] for key in sorted(stages, key=stage_catalog.sort_key)]

    @property
    def label(self) -> str:
        return f"{self.compile_id} {self.function}".strip()


@dataclass(eq=False, repr=False)
class ProcessInfo(Plain):
    """A process of the script: the main one (the target) or one it forked."""

    pid: int
    label: str = ""  # "main", "worker 1", a multiprocessing name, or "pid 1234"
    ppid: int = 0
    main: bool = False
    stepping: bool = False  # pauses at its stages (else it runs free)
    ended: bool = False
    # A rank of a `tcdebug torchrun` job (tcdebug.debuggee.rank): its rank, how it ended, and the
    # default process-group timeout its torch.distributed uses.
    rank: int | None = None
    world_size: int | None = None
    exit_code: int | None = None
    error: str = ""
    pg_timeout_s: float | None = None
    device: str = ""  # `cuda (NAME)` once it initialized CUDA, `cpu` at its end otherwise; "" not known


# A chunk of output grows to about this many characters, then the next write starts another:
# `str +=` on an attribute copies the whole string, so an unbounded chunk makes output quadratic.
OUTPUT_CHUNK_CHARS = 64 * 1024


@dataclass(eq=False, repr=False)
class OutputChunk(Plain):
    """Text the script wrote to stdout or stderr."""

    stream: str  # "stdout" or "stderr"
    text: str
    rank: int | None = None  # written by this rank of a `tcdebug torchrun` job


@dataclass(eq=False, repr=False)
class Session(Plain):
    """What one run (or its dump, or a TORCH_TRACE log) holds: its compiles, output and events."""

    script: str = ""
    argv: list[str] = field(default_factory=list)
    origin: str = "live"  # "live", "dump" or "trace"
    torch_version: str = ""
    python: str = ""
    device: str = ""
    cold: bool = False  # `--cold`: run with every compile cache and automatic-dynamic PGO off
    state: str = STARTING
    paused_at: tuple[str, str] | None = None  # (compile_id, stage key)
    paused_pid: int | None = None  # the process paused at `paused_at`; None: the main one
    pauses: dict[int, tuple[str, str]] = field(default_factory=dict)  # every paused process (0: main)
    # the compiler event a process (0: main) waits at, where an event breakpoint stopped it
    paused_events: dict[int, ev_types.EventPause] = field(default_factory=dict)
    # event kind -> why this torch cannot give it
    unavailable_events: dict[str, str] = field(default_factory=dict)
    # each change of stance, and each call a stance acted on
    stance_events: list[ev_types.StanceEvent] = field(default_factory=list)
    processes: dict[int, ProcessInfo] = field(default_factory=dict)  # by pid, the main one first
    main_pid: int | None = None
    exit_code: int | None = None
    error: str = ""
    compiles: dict[str, Compile] = field(default_factory=dict)
    reruns: list[Rerun] = field(default_factory=list)
    calls: list[CallInfo] = field(default_factory=list)
    rerun_prior_state: str = ""  # the state to return to when a re-run ends
    output: list[OutputChunk] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    # TORCH_TRACE logs (tcdebug.trace): the rank shown, every rank log's session by label (this
    # one included, so not compared or repr'd), where ranks diverge, and skipped-input counts.
    rank: int | None = None
    rank_label: str = ""  # the entry in `ranks`: "1", or "1 (2)" for a second log of rank 1
    record_rank: int | None = None  # the rank a log's records say, where its file name says another
    ranks: dict[str, Session] = field(default_factory=dict, repr=False, compare=False)
    divergences: list[Any] = field(default_factory=list)
    trace_stats: dict[str, int] = field(default_factory=dict)
    # `same_frame`'s index, not data: (frame, run prefix) -> compile ids, and how far into which
    # `compiles` dict it has read (compiles are only ever added, so it reads on from there)
    _frame_index: dict[tuple[int, str], list[str]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _frame_indexed: tuple[int, int] = field(default=(0, 0), init=False, repr=False, compare=False)

    # ----- queries -------------------------------------------------------------
    def compile(self, compile_id: str) -> Compile:
        comp = self.compiles.get(compile_id)
        if comp is None:
            comp = self.compiles[compile_id] = Compile(compile_id)
        return comp

    def ordered_compiles(self) -> list[Compile]:
        """By rank, then process (the main one first), then Dynamo's frame and compile numbers."""
        return sorted(self.compiles.values(), key=self.order_key)

    def order_key(self, c: Compile) -> tuple[Any, ...]:
        """A compile's place in `ordered_compiles`."""
        run, frame_id, frame_compile_id, attempt = c.numbers
        return (c.rank or 0, run, self.is_child(c), c.pid or 0, frame_id, frame_compile_id, attempt, c.compile_id)

    def is_child(self, comp: Compile) -> bool:
        """Compiled in a process the script forked, not in its main process."""
        return comp.pid is not None and comp.pid != self.main_pid

    def compile_processes(self) -> list[int | None]:
        """The processes that compiled something, in timeline order (None: the main process)."""
        seen: list[int | None] = []
        for comp in self.ordered_compiles():
            key = comp.pid if self.is_child(comp) else None
            if key not in seen:
                seen.append(key)
        return seen

    def process_label(self, pid: int | None) -> str:
        """`worker 1 (pid 4321)`, `pid 4321` or `main process (pid 4300)`, safe to show (the
        label is the script's own, e.g. a multiprocessing process name)."""
        if pid is None or pid == self.main_pid:
            return "main process" + (f" (pid {self.main_pid})" if self.main_pid else "")
        info = self.processes.get(pid)
        label = safe_line(info.label)[:60] if info else f"pid {pid}"
        return label if label == f"pid {pid}" else f"{label} (pid {pid})"

    def graph_breaks(self) -> list[GraphBreak]:
        return [gb for c in self.ordered_compiles() for gb in c.graph_breaks]

    def recompiles(self) -> list[Compile]:
        """Dynamo's recompiles: compiled autograd's captures (`!N`) carry the reason of a cache
        miss of its own, not of a frame's guards."""
        return [c for c in self.ordered_compiles() if c.recompile_reason and not c.is_ca_capture]

    def stage(self, compile_id: str, key: str) -> Stage | None:
        comp = self.compiles.get(compile_id)
        return comp.stages.get(key) if comp else None

    def call_for(self, compile_id: str) -> CallInfo | None:
        """The recorded last call of the function compile `compile_id` belongs to."""
        for call in self.calls:
            if compile_id in call.compile_ids:
                return call
        return None

    def rerun(self, rerun_id: int) -> Rerun | None:
        return next((r for r in self.reruns if r.rerun_id == rerun_id), None)

    def rerun_by_token(self, token: str) -> Rerun | None:
        return next((r for r in reversed(self.reruns) if token and r.token == token), None)

    def same_frame(self, compile_id: str) -> list[Compile]:
        """Every compile of the frame `compile_id` belongs to (itself included), in order."""
        comp = self.compiles.get(compile_id)
        if comp is None:
            return []
        # The footer asks on every selection: an index by frame, so a session of 100,000 compiles
        # answers without a pass over all of them. Rank and pid are set after a compile starts,
        # so they are compared here, not indexed.
        compiles, (indexed_of, indexed) = self.compiles, self._frame_indexed
        if indexed_of != id(compiles) or indexed > len(compiles):
            self._frame_index, indexed = {}, 0
        if indexed < len(compiles):
            index = self._frame_index
            for cid, indexed_comp in itertools.islice(compiles.items(), indexed, None):
                index.setdefault((indexed_comp.frame_id, cid[:1]), []).append(cid)
            self._frame_indexed = (id(compiles), len(compiles))
        same = []
        for cid in self._frame_index.get((comp.frame_id, compile_id[:1]), ()):
            c = compiles.get(cid)
            if c is not None and c.rank == comp.rank and c.pid == comp.pid:
                same.append(c)
        return sorted(same, key=self.order_key)

    def output_text(self) -> str:
        return "".join(chunk.text for chunk in self.output)

    @property
    def status_line(self) -> str:
        if self.state == PAUSED and self.paused_at:
            cid, key = self.paused_at
            event = self.paused_events.get(self.paused_pid or 0)
            if event is not None:
                return f"paused at {event_pause_line(event)}"
            return f"paused at {key} of {cid}"
        if self.state in (DIED, FAILED) and self.error:
            return f"{'target died' if self.state == DIED else 'failed'}: {self.error}"
        if self.state == FINISHED and self.exit_code:
            return f"finished (exit code {self.exit_code})"
        if self.state == LOADED and self.trace_stats.get("skipped"):
            return f"loaded ({self.trace_stats['skipped']} bad trace records skipped, see notes)"
        return self.state

    # ----- feeding -------------------------------------------------------------
    def apply(self, event: ev_types.Event | dict[str, Any]) -> Change:
        """Fold one event into the model and say what changed. A dict (tests, scripts) is read
        as the channel reads it (`tcdebug.model.events.event_from_wire`, which raises `EventError`)."""
        event = ev_types.as_event(event)
        handler = _HANDLERS.get(type(event))
        change = handler(self, event) if handler is not None else None
        return change if change is not None else Change(event)

    def _on_hello(self, ev: ev_types.Hello) -> None:
        self.torch_version = ev.torch_version
        self.python = ev.python
        self.device = ev.device
        if ev.script is not None:
            self.script = ev.script
        if ev.argv is not None:
            self.argv = list(ev.argv)
        self.state = RUNNING
        if ev.pid is not None:
            self.main_pid = ev.pid
            self.processes[ev.pid] = ProcessInfo(ev.pid, "main", main=True, stepping=ev.mode != "run")

    def _on_torch_imported(self, ev: ev_types.TorchImported) -> None:
        if ev.torch_version:
            self.torch_version = ev.torch_version
        if ev.cold:
            self.cold = True
        info = self.processes.get(ev.pid) if ev.pid is not None else None
        if ev.device:
            if info is not None:
                info.device = ev.device
            if info is None or info.main:  # a rank's or a child's device is its own, not the session's
                self.device = ev.device
        if info is not None and isinstance(ev.pg_timeout_s, float):
            info.pg_timeout_s = ev.pg_timeout_s

    def shown_device(self) -> str:
        """The device to show for the whole session: the main process's, or, where it never used
        CUDA but its ranks or children did (a torchrun launcher), theirs, saying whose."""
        if self.device.startswith("cuda"):
            return self.device
        for p in self.processes.values():
            if p.device.startswith("cuda") and not p.main:
                return f"{p.device} ({'ranks' if p.rank is not None else 'child processes'})"
        return self.device

    def _on_process(self, ev: ev_types.Process) -> Change | None:
        pid = ev.pid
        if pid is None:
            return None
        self.processes[pid] = ProcessInfo(
            pid,
            str(ev.label or f"pid {pid}"),
            ppid=int(ev.ppid or 0),
            stepping=bool(ev.stepping),
            rank=ev.rank,
            world_size=ev.world_size,
            pg_timeout_s=ev.pg_timeout_s if isinstance(ev.pg_timeout_s, float) else None,
        )
        return Change(ev, process=pid, rank=ev.rank)

    def _on_process_exit(self, ev: ev_types.ProcessExit) -> Change | None:
        info = self.processes.get(ev.pid)  # type: ignore[arg-type]
        if info is not None and ev.exit_code is not None:
            info.exit_code = ev.exit_code
            info.error = str(ev.error or "")
            return Change(ev, process=ev.pid, rank=info.rank)
        return None

    def _on_process_end(self, ev: ev_types.ProcessEnd) -> Change:
        info = self.processes.get(ev.pid)  # type: ignore[arg-type]
        if info is not None:
            info.ended = True
        self._unpause(ev.pid)
        return Change(ev, process=ev.pid, rank=info.rank if info else None)

    def _pause_key(self, ev: ev_types.Event) -> int:
        pid = ev.pid
        return pid if isinstance(pid, int) and pid != self.main_pid else 0

    def _unpause(self, pid: Any) -> None:
        """Process `pid` (0 or None: the main one) no longer waits; show another that does."""
        self.pauses.pop(pid or 0, None)
        self.paused_events.pop(pid or 0, None)
        if self.pauses:
            key, self.paused_at = next(reversed(self.pauses.items()))
            self.paused_pid = key or None
        else:
            self.paused_at = self.paused_pid = None
            if self.state == PAUSED:
                self.state = RUNNING

    def _compile_change(self, ev: ev_types.Event, compile_id: str) -> tuple[Compile, bool]:
        """The compile `ev` is about, and whether it is new."""
        added = compile_id not in self.compiles
        return self.compile(compile_id), added

    def _on_compile_start(self, ev: ev_types.CompileStart) -> Change:
        comp, added = self._compile_change(ev, ev.compile_id)
        # interned: a frame compiles several times, and a file holds many frames
        if ev.function is not None:
            comp.function = sys.intern(ev.function)
        if ev.filename is not None:
            comp.filename = sys.intern(ev.filename)
        if ev.firstlineno is not None:
            comp.firstlineno = ev.firstlineno
        if ev.stack is not None:
            comp.stack = list(ev.stack)
        comp.status = "compiling"
        if ev.rank is not None:
            comp.rank = ev.rank
        pid = ev.pid if ev.pid is not None else self.main_pid
        if isinstance(pid, int):
            comp.pid = pid
            info = self.processes.get(pid)
            comp.process = "main" if pid == self.main_pid else (info.label if info else f"pid {pid}")
        return Change(ev, compile_id=comp.compile_id, added=added, rank=comp.rank)

    def _on_stage(self, ev: ev_types.StageEvent) -> Change:
        comp, added = self._compile_change(ev, ev.compile_id)
        stage = stage_from_event(ev)
        new_stage = stage.key not in comp.stages
        comp.stages[stage.key] = stage
        mark_skipped(comp, stage)
        if ev.loader is not None:
            stage.loader = ev.loader
        if ev.lazy_kernels is not None:
            stage.kernels = ev.lazy_kernels
        key = self._pause_key(ev)
        if ev.update:
            pass  # a re-sent stage: the process may be paused elsewhere, or running
        elif ev.paused:
            self.pauses.pop(key, None)
            self.pauses[key] = (comp.compile_id, stage.key)
            self.state = PAUSED
            self.paused_at = (comp.compile_id, stage.key)
            self.paused_pid = key or None
        elif key in self.pauses or (self.state == PAUSED and not self.pauses):
            self._unpause(key)
        return Change(
            ev,
            compile_id=comp.compile_id,
            stage_key=stage.key,
            added=added or new_stage,
            paused=ev.paused,
            rank=ev.rank,
        )

    def _on_event_pause(self, ev: ev_types.EventPause) -> Change:
        """An event breakpoint stopped a process: it waits at the compile's latest stage so far
        (the compile's row when it has none yet), and the status line names the event."""
        comp, added = self._compile_change(ev, ev.compile_id)
        stage_key = next(reversed(comp.stages), "") if comp.stages else ""
        key = self._pause_key(ev)
        if not ev.paused:
            return Change(ev, compile_id=comp.compile_id, added=added, rank=ev.rank)
        self.pauses.pop(key, None)
        self.pauses[key] = (comp.compile_id, stage_key)
        self.paused_events[key] = ev
        self.state = PAUSED
        self.paused_at = (comp.compile_id, stage_key)
        self.paused_pid = key or None
        return Change(
            ev, compile_id=comp.compile_id, stage_key=stage_key, added=added, paused=True, rank=ev.rank
        )

    @property
    def stance(self) -> str:
        """torch.compiler.set_stance's stance in effect: the last one set."""
        return next((ev.stance for ev in reversed(self.stance_events) if ev.action == "set"), "default")

    def _on_stance(self, ev: ev_types.StanceEvent) -> Change:
        if not ev.after and self.compiles:
            ev.after = next(reversed(self.compiles))
        self.stance_events.append(ev)
        return Change(ev, compile_id=ev.compile_id, rank=ev.rank)

    def _on_symbol_chains(self, ev: ev_types.SymbolChains) -> Change:
        comp, added = self._compile_change(ev, ev.compile_id)
        comp.symbol_chains = dict(ev.chains)
        return Change(ev, compile_id=comp.compile_id, added=added, rank=ev.rank)

    def _on_events_unavailable(self, ev: ev_types.EventsUnavailable) -> None:
        self.unavailable_events.update(ev.kinds)

    def _on_resumed(self, ev: ev_types.Resumed) -> None:
        self._unpause(self._pause_key(ev))

    def _on_graph_break(self, ev: ev_types.GraphBreak) -> Change:
        comp, added = self._compile_change(ev, ev.compile_id)
        gb = GraphBreak(ev.compile_id, ev.reason, list(ev.user_stack))
        if gb not in comp.graph_breaks:
            _grown(comp, "graph_breaks").append(gb)
        return Change(ev, compile_id=comp.compile_id, added=added, rank=ev.rank)

    def _on_recompile(self, ev: ev_types.Recompile) -> Change:
        comp, added = self._compile_change(ev, ev.compile_id)
        comp.recompile_reason = ev.reason
        return Change(ev, compile_id=comp.compile_id, added=added, rank=ev.rank)

    def _on_compile_end(self, ev: ev_types.CompileEnd) -> Change:
        comp, added = self._compile_change(ev, ev.compile_id)
        comp.status = ev.status
        comp.error = ev.error or comp.error
        if ev.elapsed_s is not None:
            comp.elapsed_s = ev.elapsed_s
        comp.metrics.update(ev.metrics)
        return Change(ev, compile_id=comp.compile_id, added=added, rank=ev.rank)

    def _on_compile_times(self, ev: ev_types.CompileTimes) -> Change:
        comp, added = self._compile_change(ev, ev.compile_id)
        comp.times = dict(ev.times)
        return Change(ev, compile_id=comp.compile_id, added=added, rank=ev.rank)

    def _on_autotune(self, ev: ev_types.Autotune) -> Change:
        comp, added = self._compile_change(ev, ev.compile_id)
        _grown(comp, "autotune_tables").append(ev.table)
        return Change(ev, compile_id=comp.compile_id, added=added, rank=ev.rank)

    def _on_cache_result(self, ev: ev_types.CacheResult) -> Change:
        comp, added = self._compile_change(ev, ev.compile_id)
        _grown(comp, "caches").append(ev.verdict)
        for stage in comp.stages.values():
            mark_skipped(comp, stage)
        return Change(ev, compile_id=comp.compile_id, added=added, rank=ev.rank)

    def _on_guard_provenance(self, ev: ev_types.GuardProvenance) -> Change:
        comp, added = self._compile_change(ev, ev.compile_id)
        comp.guard_provenance = list(ev.guards)
        return Change(ev, compile_id=comp.compile_id, added=added, rank=ev.rank)

    def _on_output(self, ev: ev_types.Output) -> Change:
        stream, text, rank = ev.stream, ev.text, ev.rank
        last = self.output[-1] if self.output else None
        if last is not None and last.stream == stream and last.rank == rank and len(last.text) < OUTPUT_CHUNK_CHARS:
            last.text += text  # a copy of at most OUTPUT_CHUNK_CHARS: appending stays linear
        else:
            self.output.append(OutputChunk(stream, text, rank))
        return Change(ev, output=True, rank=rank)

    def _on_script_end(self, ev: ev_types.ScriptEnd) -> None:
        self.exit_code = ev.exit_code
        self.error = ev.error or ""
        self.paused_at = self.paused_pid = None
        self.pauses.clear()
        if ev.stopped:
            self.state = STOPPED
        else:
            self.state = FAILED if self.error else FINISHED

    def _on_target_died(self, ev: ev_types.TargetDied) -> None:
        if self.state in (FINISHED, STOPPED):
            return
        self.state = DIED
        self.paused_at = self.paused_pid = None
        self.pauses.clear()
        self.error = ev.error
        if self.exit_code is None:
            self.exit_code = ev.exit_code

    def _on_accuracy(self, ev: ev_types.AccuracyEvent) -> Change:
        comp = self.compiles.get(ev.accuracy.compile_id)
        if comp is None:
            self.notes.append(f"accuracy of unknown compile {ev.accuracy.compile_id}: {ev.accuracy.summary}")
            return Change(ev)
        comp.accuracy = ev.accuracy
        return Change(ev, compile_id=comp.compile_id)

    def _on_rerun(self, ev: ev_types.RerunEvent) -> Change:
        rerun = ev.rerun
        change = Change(ev, rerun=rerun)
        # While a re-run calls the function the target runs again (and may pause);
        # afterwards the session returns to the state the script left it in.
        if rerun.status == "running" and self.state not in (STARTING, RUNNING, PAUSED):
            self.rerun_prior_state = self.state
            self.state = RUNNING
        elif rerun.done and self.rerun_prior_state and self.state in (RUNNING, PAUSED):
            self.state, self.rerun_prior_state = self.rerun_prior_state, ""
            self.paused_at = None
        for i, old in enumerate(self.reruns):
            if old.rerun_id == rerun.rerun_id:
                self.reruns[i] = rerun
                return change
        self.reruns.append(rerun)
        return change

    def _on_calls(self, ev: ev_types.Calls) -> None:
        self.calls = list(ev.calls)

    def _on_provenance(self, ev: ev_types.Provenance) -> Change:
        comp, added = self._compile_change(ev, ev.compile_id)
        if ev.reset:
            comp.provenance = ProvenanceIndex()
        comp.provenance.add(ev.items, ev.links, ev.notes, ev.symbols)
        return Change(ev, compile_id=comp.compile_id, added=added, rank=ev.rank)

    def _on_note(self, ev: ev_types.Note) -> None:
        self.notes.append(ev.text)

    def _on_stages_not_logged(self, ev: ev_types.StagesNotLogged) -> Change:
        """Each stage a shared not-captured one, as a not-captured `StageEvent` of it would add."""
        comp, added = self._compile_change(ev, ev.compile_id)
        for stage_id, reason in ev.reasons.items():
            stage = _not_captured_stage(stage_id or "unknown", "", "not_captured", reason)
            added = stage.key not in comp.stages or added
            comp.stages[stage.key] = stage
            mark_skipped(comp, stage)
        return Change(ev, compile_id=comp.compile_id, added=added, rank=ev.rank)

    def _on_trace_info(self, ev: ev_types.TraceInfo) -> None:
        if ev.torch_version:
            self.torch_version = ev.torch_version
        if ev.rank is not None and self.rank is None:
            self.rank = ev.rank
        if ev.executed:  # runtime data of a log, never a compile
            self.extra.setdefault(GRAPH_EXECUTIONS, []).extend(ev.executed)
        if ev.execution_order is not None:
            self.extra[EXECUTION_ORDER] = list(ev.execution_order)


    def _on_execution_order(self, ev: ev_types.ExecutionOrder) -> None:
        if ev.rank is None:
            self.extra[EXECUTION_ORDER] = list(ev.order)
        else:
            self.extra.setdefault(EXECUTION_ORDER_BY_RANK, {})[str(ev.rank)] = list(ev.order)


SKIPPED = "skipped: "  # a stage's reason where a cache hit skipped the work that makes it


def skipping_hit(comp: Compile, stage: Stage) -> CacheVerdict | None:
    """The cache hit that skipped this stage of the compile: an AOTAutograd hit skips every
    Inductor stage but the output code it loads; an FX graph hit those of its part."""
    if not comp.caches:  # most compiles: nothing to look up
        return None
    kind = stage_catalog.kind(stage.stage_id) if stage.stage_id in stage_catalog.STAGE_IDS else None
    if kind is None or not kind.inductor or stage.stage_id == stage_catalog.OUTPUT_CODE:
        return None
    for verdict in comp.caches:
        if verdict.result != "hit":
            continue
        if verdict.cache == "aotautograd" or (verdict.cache == "fx_graph" and verdict.part == stage.part):
            return verdict
    return None


def mark_skipped(comp: Compile, stage: Stage) -> None:
    """A stage torch never reported because a cache hit skipped it says so (`skipped: ...`)."""
    if stage.captured or stage.reason.startswith(SKIPPED):
        return
    verdict = skipping_hit(comp, stage)
    if verdict is None:
        return
    reason = f"{SKIPPED}{verdict.headline()}"
    if is_placeholder(stage):  # shared: this compile gets its own
        own = copy.copy(stage)
        own.kernels, own.meta = [], {}
        stage = comp.stages[stage.key] = own
    stage.reason = reason


class Change(NamedTuple):
    """What one applied event changed, so that the UI never reads the event's fields again. One per
    event: a tuple, cheaper to make than a frozen dataclass."""

    event: ev_types.Event  # the event applied
    compile_id: str = ""  # the compile it added or updated ("" for none)
    stage_key: str = ""  # the stage it added or updated (a stage event)
    added: bool = False  # the compile (or, for a stage event, the stage) is new
    paused: bool = False  # a process now waits at (compile_id, stage_key)
    rerun: Rerun | None = None  # the re-run's new state (a rerun event), parsed once
    output: bool = False  # output of the script arrived
    process: int | None = None  # the process that connected, exited or ended
    rank: int | None = None  # the torchrun rank it concerns

    @property
    def kind(self) -> str:
        return self.event.type


_Handler = Callable[[Session, Any], "Change | None"]
_HANDLERS: dict[type[ev_types.Event], _Handler] = {
    ev_types.Hello: Session._on_hello,
    ev_types.TorchImported: Session._on_torch_imported,
    ev_types.Process: Session._on_process,
    ev_types.ProcessExit: Session._on_process_exit,
    ev_types.ProcessEnd: Session._on_process_end,
    ev_types.CompileStart: Session._on_compile_start,
    ev_types.StageEvent: Session._on_stage,
    ev_types.Resumed: Session._on_resumed,
    ev_types.EventPause: Session._on_event_pause,
    ev_types.EventsUnavailable: Session._on_events_unavailable,
    ev_types.StanceEvent: Session._on_stance,
    ev_types.SymbolChains: Session._on_symbol_chains,
    ev_types.GraphBreak: Session._on_graph_break,
    ev_types.Recompile: Session._on_recompile,
    ev_types.CompileEnd: Session._on_compile_end,
    ev_types.CompileTimes: Session._on_compile_times,
    ev_types.Autotune: Session._on_autotune,
    ev_types.GuardProvenance: Session._on_guard_provenance,
    ev_types.CacheResult: Session._on_cache_result,
    ev_types.Output: Session._on_output,
    ev_types.ScriptEnd: Session._on_script_end,
    ev_types.TargetDied: Session._on_target_died,
    ev_types.RerunEvent: Session._on_rerun,
    ev_types.AccuracyEvent: Session._on_accuracy,
    ev_types.Calls: Session._on_calls,
    ev_types.Provenance: Session._on_provenance,
    ev_types.Note: Session._on_note,
    ev_types.TraceInfo: Session._on_trace_info,
    ev_types.StagesNotLogged: Session._on_stages_not_logged,
    ev_types.ExecutionOrder: Session._on_execution_order,
}


def frame_text(frame: Frame | None) -> str:
    """`file:line` (with the code on that line where known), or "" for none."""
    if frame is None or not frame.file:
        return ""
    where = f"{os.path.basename(frame.file)}:{frame.line}"
    return f"{where} {frame.code.strip()}" if frame.code.strip() else where


def event_pause_line(ev: ev_types.EventPause) -> str:
    """One line for a pause at a compiler event: the kind, registry id, compile and the user's line."""
    head = ev.kind + (f" {ev.registry_id}" if ev.registry_id else "")
    where = frame_text(ev.user) or frame_text(ev.caller)
    line = f"{head} in {ev.compile_id}"
    return f"{line} at {where}" if where else line


def stance_line(ev: ev_types.StanceEvent) -> str:
    """One line for a change of stance or a call a stance acted on, with the user's line."""
    where = frame_text(ev.user)
    if ev.action == "set":
        text = f"stance set to {ev.stance}"
    elif not ev.guard.strip() and ev.stance == "force_eager":
        text = f"force_eager: calls of {ev.function or 'a compiled function'} run eagerly (nothing compiled)"
    else:
        did = "ran eagerly" if ev.action == "ran_eager" else "failed"
        guard = ev.guard.strip().splitlines()[0] if ev.guard.strip() else "no failing guard found"
        text = f"{ev.stance}: a call of {ev.function or 'a compiled function'} {did} (failing guard: {guard})"
    return f"{text} at {where}" if where else text


def _id_core(compile_id: str) -> str:
    """Dynamo's own id: without the `@pid` and `#run` suffixes."""
    return compile_id.partition("@")[0].partition("#")[0]


def _grown(comp: Compile, name: str) -> list[Any]:
    """The compile's list `name`, made its own list first where it is still the shared empty one."""
    items = getattr(comp, name)
    if not isinstance(items, list):
        items = list(items)
        setattr(comp, name, items)
    return items


def id_numbers(compile_id: str) -> tuple[int, int, int, int]:
    """The run, frame, frame compile and attempt numbers of a session key: (2, 0, 1, 1) for
    `0/1_1#2`. A `-` part (export, AOTInductor) or a bad one gives -1; no `#run` gives run 1."""
    _, _, run_text = compile_id.partition("#")
    run_text = run_text.partition("@")[0]
    core = _id_core(compile_id)
    parts = core.lstrip("!").split("/")
    if compile_id.startswith("!") and len(parts) == 3:
        parts = parts[1:]  # !ca/frame/compile
    numbers = []
    for index in (0, 1):
        try:
            numbers.append(int(parts[index].partition("_")[0]))
        except (IndexError, ValueError):
            numbers.append(-1)
    _, _, attempt = core.rpartition("/")[2].partition("_")
    return (
        int(run_text) if run_text.isdigit() else 1,
        numbers[0],
        numbers[1],
        int(attempt) if attempt.isdigit() else 0,
    )


# ----- stages to and from events and session.json ----------------------------------------
# Not-captured stages that hold nothing but their reason (five per compile of a TORCH_TRACE
# log): one shared instance per (stage id, part, reason), never changed in place (`mark_skipped`
# replaces it). Bounded: ids and reasons come from the catalogue, tcdebug's own words, or a log.
_PLACEHOLDERS: dict[tuple[str, str, str], Stage] = {}
_MAX_PLACEHOLDERS = 4096


def is_placeholder(stage: Stage) -> bool:
    """A shared not-captured stage (see `stage_from_event`): replaced, never changed."""
    return _PLACEHOLDERS.get((stage.stage_id, stage.part, stage.reason)) is stage


def _placeholder(ev: ev_types.StageEvent) -> Stage | None:
    """The not-captured stage of an event that carries only its reason (shared, see
    `_not_captured_stage`), else None."""
    if (
        ev.status == "captured"
        or ev.text is not None
        or ev.file
        or ev.elapsed_s
        or ev.kernels
        or ev.meta
        or ev.title
        or ev.language
        or ev.loader is not None
        or ev.lazy_kernels is not None
    ):
        return None
    return _not_captured_stage(ev.stage or "unknown", ev.part, ev.status, ev.reason)


def _not_captured_stage(stage_id: str, part: str, status: str, reason: str) -> Stage:
    """The shared stage of this id, part and reason; once the table is full, one of its own."""
    key = (stage_id, part, reason)
    stage = _PLACEHOLDERS.get(key)
    if stage is None:
        kind = stage_catalog.kind(stage_id)
        stage = Stage(
            stage_id=stage_id, part=part, title=kind.title, language=kind.language,
            status=status, reason=reason,
        )  # fmt: skip
        if len(_PLACEHOLDERS) < _MAX_PLACEHOLDERS:
            _PLACEHOLDERS[key] = stage
    return stage


def stage_from_event(ev: ev_types.StageEvent) -> Stage:
    shared = _placeholder(ev)
    if shared is not None:
        return shared
    stage_id = ev.stage or "unknown"
    kind = stage_catalog.kind(stage_id)
    return Stage(
        stage_id=stage_id,
        part=ev.part,
        title=ev.title or kind.title,
        language=ev.language or kind.language,
        status=ev.status,
        reason=ev.reason,
        text=ev.text,
        file=ev.file,
        elapsed_s=float(ev.elapsed_s),
        kernels=list(ev.kernels),
        meta=dict(ev.meta),
    )


def stage_to_dict(stage: Stage, *, with_text: bool = True) -> dict[str, Any]:
    """The stage as session.json holds it (`schema.to_json`); `with_text=False` leaves out its
    text and its kernels' sources (their files hold them)."""
    d = schema.to_json(stage, omit=("kernels",))
    d = {"id": d.pop("id"), "key": d.pop("key"), **d}
    d["elapsed_s"] = round(stage.elapsed_s, 6)
    if with_text:
        d["text"] = stage.get_text()
    else:
        d.pop("text", None)
    # The index's copy: a live kernel's metadata changes later (autotuned at its first launch).
    if with_text:
        d["kernels"] = [schema.to_json(k) for k in stage.kernels]
    else:
        d["kernels"] = [copy.deepcopy(schema.to_json(k, omit=("source",))) for k in stage.kernels]
    return d
