"""The target's bookkeeping: compiles in flight, stage events, pause points.

Capture units call `Recorder.stage(...)` etc.; the recorder turns that into typed events
(`tcdebug.model.events`) on the channel and blocks at pause points until the controller answers.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tcdebug.capture.recording import CompileState
from tcdebug.debuggee.pauser import Pauser
from tcdebug.model import protocol, trace_format
from tcdebug.model import stages as stage_catalog
from tcdebug.model.event_breaks import EventFacts
from tcdebug.model.events import CompileEnd, CompileStart, Event, EventPause, StageEvent
from tcdebug.model.payloads import Kernel
from tcdebug.model.trace_format import with_attempt
from tcdebug.torchtext.dynamo_text import earlier_attempt_reason, restarted_reason

ALWAYS = stage_catalog.ALWAYS_STAGES  # sent for every compile: `not captured` with the reason when missing
# Stages whose facts keep arriving after they were sent (`update_stage`): Triton kernels are
# loaded, autotuned and mapped to FX nodes only after Inductor logged the output code.
UPDATABLE = stage_catalog.UPDATABLE
MODE_ORDER = (stage_catalog.TRAINING, stage_catalog.INFERENCE)  # the order the no-AOTAutograd rows go out


class Recorder:
    def __init__(self, channel: protocol.Channel, pauser: Pauser) -> None:
        self.channel = channel
        self.pauser = pauser
        self.compiles: dict[str, CompileState] = {}
        self.unavailable: dict[str, str] = {}  # stage id -> why this torch cannot give it
        self.current: str | None = None
        self._lock = threading.RLock()
        self.stage_count = 0
        self.code_objects: dict[str, Any] = {}  # compile id -> original code object
        self.sent: dict[tuple[str, str], StageEvent] = {}  # (compile id, key) -> last sent, UPDATABLE only
        self.finalizers: list[Callable[[], None]] = []  # run by finalize_all, before the stages close
        self.fork_resets: list[Callable[[], None]] = []  # run by reset_for_child (capture units' own state)
        # torch's name of the AOTAutograd graph being compiled (`['1_backward']`), set by the graphs unit
        self.aot_graph_name: Callable[[], object] | None = None
        self._keys: dict[str, str] = {}  # torch's compile id -> its key, where they differ
        self._uses: dict[str, int] = {}  # id with its attempt (`0/0_1`) -> how many compiles had it
        self._attempts: dict[str, int] = {}  # torch's compile id -> its latest restart attempt
        # (start, end) of each wait at a pause point, in µs of time.time_ns() (torch's chromium
        # events' clock): compile_times leaves them out of the phases they fell in.
        self.pauses: list[tuple[float, float]] = []

    def reset_for_child(self) -> None:
        """In a forked child: the parent's compiles are not this process's, and a lock another
        thread held at the fork would never be released here."""
        self._lock = threading.RLock()
        self.compiles = {}
        self.current = None
        self.sent = {}
        self._keys, self._uses, self._attempts = {}, {}, {}
        self.pauses = []
        for reset in self.fork_resets:
            reset()

    # ----- helpers -------------------------------------------------------------
    def emit(self, event: Event) -> None:
        self.channel.send(event.to_wire())

    def key(self, compile_id: str, *, starting: bool = False) -> str:
        """The session's key of torch's compile id, as TORCH_TRACE logs key it. Dynamo restarting
        its analysis makes an attempt (`restart`): the id's records go to `0/0_1` from then on.
        torch numbers compiles afresh after `torch._dynamo.reset()`: a compile that starts
        (`starting`) with the id of one that has ended is another compile, keyed `0/0#2` (then
        `#3`, ...; its attempts `0/0_1#2`, numbered by how many compiles had that attempt's id);
        the id's later records go to it. A compile that starts again before its end keeps its key."""
        with self._lock:
            key = self._keys.get(compile_id, compile_id)
            if starting:
                st = self.compiles.get(key)
                if st is not None and st.ended:
                    self._attempts.pop(compile_id, None)
                    self._uses.setdefault(compile_id, 1)  # its first compile was keyed `compile_id`
                    key = self._keys[compile_id] = self._next_use(compile_id)
            return key

    def _next_use(self, base: str) -> str:
        """The key of one more compile keyed `base` (an id with its attempt)."""
        n = self._uses[base] = self._uses.get(base, 0) + 1
        return base if n == 1 else f"{base}#{n}"

    def restart(self, compile_id: str, attempt: int) -> None:
        """Dynamo restarted its analysis: attempt `attempt` of torch's `compile_id` began (see
        `Recording.restart`). Its start names the frame attempt 0 named; the source and original
        bytecode stay with the attempt that read them, as in torch's logs."""
        with self._lock:
            if attempt <= self._attempts.get(compile_id, 0):
                return
            self._attempts[compile_id] = attempt
            prev = self._keys.get(compile_id, compile_id)
            new = self._keys[compile_id] = self._next_use(with_attempt(compile_id, attempt))
            st = self.state(prev)
            current = self.current in (None, prev)
        info, backend = st.info, st.backend
        if not st.ended:
            for stage_id in ALWAYS:  # its graph, guards and code are the next attempt's
                self.not_captured(prev, stage_id, restarted_reason(new))
            st.finalized = True
            self.compile_end(prev, status="restarted", metrics={})
        self.compile_start(new, current=current, **info)
        st = self.state(new)
        st.backend, st.restarted_from = backend, prev
        if prev in self.code_objects:
            self.code_objects[new] = self.code_objects[prev]
        for stage_id in (stage_catalog.SOURCE, stage_catalog.BYTECODE_BEFORE):
            holder = prev
            while holder and stage_id not in self.state(holder).captured:
                holder = self.state(holder).restarted_from
            if holder:
                self.not_captured(new, stage_id, earlier_attempt_reason(holder))

    def state(self, compile_id: str) -> CompileState:
        with self._lock:
            st = self.compiles.get(compile_id)
            if st is None:
                st = self.compiles[compile_id] = CompileState(compile_id, time.perf_counter())
            return st

    def mark_unavailable(self, stage_id: str, reason: str) -> None:
        self.unavailable[stage_id] = reason

    # ----- compile life cycle --------------------------------------------------
    def compile_start(self, compile_id: str, *, current: bool = True, **info: Any) -> None:
        with self._lock:
            self.compiles.pop(compile_id, None)  # a compile that starts again begins anew
            self.state(compile_id).info = dict(info)
            if current:
                self.current = compile_id
        self.emit(CompileStart(compile_id=compile_id, **info))

    def stage(
        self,
        compile_id: str,
        stage_id: str,
        text: str,
        *,
        part: str = "",
        language: str | None = None,
        kernels: list[Kernel] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        """Send a captured stage, then pause there if the controller asked to."""
        st = self.state(compile_id)
        if not part and stage_id in stage_catalog.GRAPH_OPENERS:
            part = stage_catalog.graph_part("", st.subgraphs.current)
        key = stage_catalog.stage_key(stage_id, part)
        kind = stage_catalog.kind(stage_id)
        with self._lock:
            st.keys.add(key)
            st.captured.add(key)
            st.aot_mode = trace_format.AOT_MODES.get(stage_id, st.aot_mode)
        elapsed = time.perf_counter() - st.started - st.paused_s
        event = StageEvent(
            compile_id=compile_id,
            stage=stage_id,
            part=part,
            title=kind.title + stage_catalog.part_suffix(part),
            language=language or kind.language,
            status="captured",
            text=text,
            elapsed_s=round(elapsed, 6),
            kernels=kernels or [],
            meta=meta or {},
        )
        self.stage_count += 1
        if stage_id in UPDATABLE:
            self.sent[(compile_id, key)] = event
        waited = self.pauser.pause_point(stage_id, lambda paused: self.emit(replace(event, paused=paused)))
        st.paused_s += waited
        if waited > 0:
            end = time.time_ns() / 1000
            self.pauses.append((end - waited * 1e6, end))

    def wants_event(self, kind: str) -> bool:
        return self.pauser.wants_event(kind)

    def event_point(self, facts: EventFacts, make: Callable[[str], EventPause]) -> bool:
        """A compiler event happens now: if an event breakpoint matches `facts`, send the event
        `make(spec)` builds and wait there, in torch's own thread, like a stage's pause. True if it paused."""
        brk = self.pauser.event_break(facts)
        if brk is None:
            return False
        event = make(brk.spec)
        st = self.state(event.compile_id) if event.compile_id else None
        waited = self.pauser.event_pause(lambda: self.emit(event))
        if st is not None:
            st.paused_s += waited
        end = time.time_ns() / 1000
        self.pauses.append((end - waited * 1e6, end))
        return True

    def update_stage(self, compile_id: str, key: str, **changes: Any) -> bool:
        """Re-send a captured stage with some fields changed (e.g. kernels autotuned at the
        first run), without pausing there again. False if that stage was never sent."""
        event = self.sent.get((compile_id, key))
        if event is None:
            return False
        event = self.sent[(compile_id, key)] = replace(event, **changes)
        self.emit(replace(event, paused=False, update=True))
        return True

    def not_captured(self, compile_id: str, stage_id: str, reason: str, *, part: str = "") -> None:
        st = self.state(compile_id)
        key = stage_catalog.stage_key(stage_id, part)
        with self._lock:
            if key in st.keys:
                return
            st.keys.add(key)
        kind = stage_catalog.kind(stage_id)
        self.emit(
            StageEvent(
                compile_id=compile_id,
                stage=stage_id,
                part=part,
                title=kind.title + stage_catalog.part_suffix(part),
                language=kind.language,
                status="not_captured",
                reason=reason,
                paused=False,
            )
        )

    def open_subgraph_stage(self, compile_id: str, stage_id: str) -> None:
        """A per-graph stage's record arrived (`stages.GRAPH_OPENERS`): it may open the compile's
        next AOTAutograd graph. Called once per record, before the units that read it."""
        with self._lock:
            self.state(compile_id).subgraphs.on_opener(stage_id)

    def subgraph_part(self, compile_id: str) -> str:
        """The part of a per-graph stage now: "" in the compile's first AOTAutograd graph,
        `subgraph_N` in its N-th after that."""
        return stage_catalog.graph_part("", self.state(compile_id).subgraphs.current)

    def inductor_part(self, compile_id: str, code: str | None = None) -> str:
        """Which graph Inductor is compiling now: forward, backward or inference, with its
        subgraph (`backward_1`) when the compile has several. Read from torch: the output code's
        AOT id comment (`code`), else the name AOTAutograd gives the graph it is compiling;
        inferred from the stages so far when neither is there."""
        st = self.state(compile_id)
        named = trace_format.aot_graph_id(code) if code else None
        if named is None and self.aot_graph_name is not None:
            try:
                named = trace_format.parse_aot_graph_name(self.aot_graph_name())
            except Exception:  # noqa: BLE001 - a torch without it: inferred below
                named = None
        with self._lock:
            if named is not None:
                return st.subgraphs.part_of(named)
            current = st.subgraphs.current
            base = trace_format.inductor_part(st.aot_mode, st.keys, current)
            return stage_catalog.graph_part(base, current if base != "backward" else 0)

    def defer_bytecode_after(self, compile_id: str, fields: dict[str, Any]) -> None:
        """Dynamo installs the new bytecode before it logs the guards; show guards first."""
        self.state(compile_id).pending_bytecode = fields

    def flush_bytecode_after(self, compile_id: str) -> None:
        st = self.state(compile_id)
        pending, st.pending_bytecode = st.pending_bytecode, None
        if pending:
            self.stage(compile_id, stage_catalog.BYTECODE_AFTER, **pending)

    def compile_end(self, compile_id: str, *, status: str, error: str = "", metrics: dict[str, Any]) -> None:
        self.flush_bytecode_after(compile_id)
        st = self.state(compile_id)
        st.ended = True
        self.finalize(compile_id, final=False, failed=status == "failed", error=error)
        st.elapsed_s = round(time.perf_counter() - st.started - st.paused_s, 6)
        self.emit(
            CompileEnd(compile_id=compile_id, status=status, error=error, elapsed_s=st.elapsed_s, metrics=metrics)
        )

    def finalize(self, compile_id: str, *, final: bool, failed: bool = False, error: str = "") -> None:
        """Mark every expected stage that never arrived as not captured, with the reason."""
        st = self.state(compile_id)
        if st.finalized:
            return
        if final:
            st.finalized = True
        if trace_format.is_compiled_autograd_capture(compile_id):
            self._finalize_capture(compile_id, st)
            return
        if failed:
            why = (
                f"the compile failed before this stage: {error}"
                if error
                else "the compile failed before this stage"
            )
            for stage_id in ALWAYS:
                self.not_captured(compile_id, stage_id, self.unavailable.get(stage_id, why))
            return
        has_graph = stage_catalog.DYNAMO_GRAPH in st.captured
        for stage_id in ALWAYS:
            if stage_id in st.keys:
                continue
            reason = self.unavailable.get(stage_id)
            if reason is None:
                reason = stage_catalog.missing_reason(stage_id, has_graph=has_graph)
            self.not_captured(compile_id, stage_id, reason)
        if not has_graph:
            return
        if st.aot_mode == "":
            no_aot = (
                f"backend {st.backend} did not run AOTAutograd, or the graph had no ops"
                if st.backend and st.backend != "inductor"
                else "the backend did not run AOTAutograd (e.g. backend='eager'), or the graph had no ops"
            )
            for mode in MODE_ORDER:  # one row per mode: its first graph
                self.not_captured(compile_id, stage_catalog.marked_missing(mode)[0], no_aot)
            return
        parts = ["inference"] if st.aot_mode == stage_catalog.INFERENCE else ["forward", "backward"]
        subgraphs = stage_catalog.subgraph_parts([""], st.subgraphs.count)
        for graph in subgraphs:
            for stage_id in stage_catalog.marked_missing(st.aot_mode):
                self.not_captured(compile_id, stage_id, stage_catalog.missing_reason(stage_id), part=graph)
        # Only stages torch reported count: the forward's own `not captured` marks must not make
        # an aot_eager backward look like an Inductor compile that never ran.
        ran_inductor = any(stage_catalog.split_key(k)[0] in stage_catalog.INDUCTOR_PRODUCED for k in st.captured)
        no_inductor = (
            f"backend {st.backend} does not run Inductor"
            if st.backend and st.backend != "inductor"
            else "the backend did not run Inductor (e.g. backend='aot_eager')"
        )
        for stage_id in stage_catalog.expected(stage_catalog.INDUCTOR):  # once per Inductor compile
            reason = self.unavailable.get(stage_id, stage_catalog.NOT_REPORTED)
            for graph in subgraphs:
                self.not_captured(compile_id, stage_id, reason if ran_inductor else no_inductor, part=graph)
        for part in stage_catalog.subgraph_parts(parts, st.subgraphs.count):
            backward = stage_catalog.part_base(part) == "backward"
            if backward and not final:
                continue  # compiled lazily at the first .backward()
            for stage_id in stage_catalog.INDUCTOR_STAGES:
                if not ran_inductor:
                    reason = no_inductor
                elif backward and stage_catalog.stage_key(stage_catalog.OUTPUT_CODE, part) not in st.captured:
                    reason = "the backward was never run, so Inductor never compiled it"
                else:
                    reason = self.unavailable.get(stage_id, stage_catalog.NOT_REPORTED)
                self.not_captured(compile_id, stage_id, reason, part=part)

    def _finalize_capture(self, compile_id: str, st: CompileState) -> None:
        """Compiled autograd's capture (`!N`) has no Dynamo frame: only its graph is expected."""
        for stage_id in stage_catalog.marked_missing(stage_catalog.CA_CAPTURE):
            if stage_id not in st.keys:
                reason = self.unavailable.get(stage_id, stage_catalog.NOT_REPORTED)
                self.not_captured(compile_id, stage_id, reason)

    def finalize_all(self) -> None:
        for finalizer in self.finalizers:
            finalizer()
        for compile_id in list(self.compiles):
            self.flush_bytecode_after(compile_id)
            self.finalize(compile_id, final=True)
