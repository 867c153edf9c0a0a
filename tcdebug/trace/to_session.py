"""Turn TORCH_TRACE records into session events (the vocabulary `Session.apply` knows).

`TraceConverter.events(records)` yields typed events (`tcdebug.model.events`) as the log streams by, so a UI
can show the first compile long before a large log is read; `apply_event(session, ev)` folds one
in. Stage events carry a loader (the payload's file offsets) instead of the text.

Compile keys (see the BRIEF's convention): Dynamo's id, `_N` for restart attempt N (`0/0_1`),
`#N` for the N-th run of one id in a log (`0/0#2`: two processes appended to one log, or the
same process starting the id again). Records without a compile id (torch.export, AOTInductor)
form compiles `-/-`, `-/-#2`, ... as tlparse lists them under `[-/-]`.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar, overload

from tcdebug.analysis.compile_phases import PhaseCollector, parse_event
from tcdebug.model import records
from tcdebug.model import stages as stage_catalog
from tcdebug.model.events import (
    CacheResult,
    CompileEnd,
    CompileStart,
    CompileTimes,
    Event,
    GraphBreak,
    Note,
    Recompile,
    StageEvent,
    StagesNotLogged,
    SymbolChains,
    TraceInfo,
)
from tcdebug.model.payloads import UNMADE, ChainStep, SharedValues
from tcdebug.model.session import LOADED, Change, Frame, Kernel, Session
from tcdebug.model.trace_format import (
    AOT_MODES,
    FX_GRAPH_KEYS,
    Subgraphs,
    aot_graph_id,
    ddp_split_reason,
    inductor_part,
    is_compiled_autograd_capture,
    with_attempt,
)
from tcdebug.textsafe import safe_line
from tcdebug.torchtext import cache_keys
from tcdebug.torchtext.aoti_kernels import split_cpp_kernels
from tcdebug.torchtext.dynamo_text import (
    compile_outcome,
    compiled_autograd_reasons,
    earlier_attempt_reason,
    is_torch_file,
    recompile_reasons,
    restart_outcome,
    split_graph_break,
    symbol_created,
    user_frames,
)
from tcdebug.torchtext.output_code import split_output_code
from tcdebug.torchtext.runtime_text import execution_order
from tcdebug.trace.reader import PayloadRef, Record, TraceStats
from tcdebug.trace.record_text import FAILING, export_problem, export_report, shape_line

NOT_IN_TRACE = "not in TORCH_TRACE logs"
# Stages a trace holds only sometimes (bytecode: resume functions only) or never: the catalogue's
# `StageKind.maybe_untraced`.
MAYBE_MISSING = stage_catalog.MAYBE_UNTRACED

GLOBAL_ID = "-/-"
# The symbolic-shapes records that are also steps of a symbol's specialization chain (`w`, `S`).
CHAIN_RECORDS = frozenset({"create_symbol", "guard_added", "symbolic_shape_specialization"})
SHAPES_STAGE = "trace_symbolic_shapes"  # symbols, specializations and guards added (`records.SHAPES`)
EXPORT_REPORT_STAGE = "draft_export_report"  # draft export's problems (`records.DRAFT_EXPORT`)
MAX_SHAPE_LINES = 2000
# The part of a backward's stages while the compile has several subgraphs and the backward's
# output code has not named its AOT graph yet: such stages wait in `_CompileState.pending`.
_UNPLACED = "backward?"
# The FX graphs Dynamo and AOTAutograd log as events of their own: their meta holds the sizes.
_FX_GRAPHS = frozenset(FX_GRAPH_KEYS.values())
_BIG_METRIC = 200
# Compilation metrics that say nothing about this compile (or repeat what the session shows).
_METRICS_LEFT_OUT = {
    "compile_id",
    "frame_key",
    "co_name",
    "co_filename",
    "co_firstlineno",
    "stack_trace",
    "start_time",
    "start_time_us",
    "end_time_us",
    "log_format_version",
    "python_version",
    "pytorch_version",
    "recompile_reason",
    "config_suppress_errors",
    "config_inline_inbuilt_nn_modules",
    "inline_inbuilt_nn_modules_candidate",
    "specialize_float",
    "is_runtime",
}  # metric strings longer than this (configs) are left out


class LazyKernel(Kernel):
    """A kernel whose source is re-split from its output code (read from the log) when used."""

    def __init__(
        self,
        ref: PayloadRef,
        index: int,
        kernel: Kernel,
        splitter: Callable[[str], list[Kernel]] = split_output_code,
    ) -> None:
        self._ref = ref
        self._index = index
        self._splitter = splitter
        self._source: str | None = None
        super().__init__(
            name=kernel.name,
            language=kernel.language,
            source="",
            kind=kernel.kind,
            provenance=kernel.provenance,
            meta=kernel.meta,
        )

    @property
    def source(self) -> str:
        if self._source is not None:
            return self._source
        try:
            kernels = _split_cached(self._ref, self._splitter)
        except OSError as exc:
            return f"<could not read kernel {self.name}: {exc}>"
        return kernels[self._index].source if self._index < len(kernels) else ""

    @source.setter
    def source(self, value: str) -> None:
        self._source = value or None


_split_memo: dict[tuple[PayloadRef, Callable[[str], list[Kernel]]], list[Kernel]] = {}


def _split_cached(ref: PayloadRef, splitter: Callable[[str], list[Kernel]]) -> list[Kernel]:
    """The kernels of one output code; only the last one split is kept."""
    if (ref, splitter) not in _split_memo:
        _split_memo.clear()
        _split_memo[(ref, splitter)] = splitter(ref.read())
    return _split_memo[(ref, splitter)]


_T = TypeVar("_T")


class _MadeAtFirstUse(Generic[_T]):
    """A container attribute made at its first use, its value in the slot `_<name>`: most
    compiles never use most of `_CompileState`'s, and a log of 100,000 compiles holds a state
    per compile."""

    def __init__(self, factory: Callable[[], _T]) -> None:
        self.factory = factory
        self.slot = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_" + name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> _MadeAtFirstUse[_T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> _T | _MadeAtFirstUse[_T]:
        if obj is None:
            return self
        value: _T | None = getattr(obj, self.slot)
        if value is None:
            value = self.factory()
            setattr(obj, self.slot, value)
        return value

    def __set__(self, obj: object, value: _T) -> None:
        setattr(obj, self.slot, value)


class _CompileState:
    """What the converter tracks of one compile while it reads the log."""

    __slots__ = (
        "started_s", "aot_mode", "keys", "inductor_part", "status", "error", "elapsed_s", "ended",
        "base", "attempt", "shape_records", "_key_attempts", "_artifact_counts", "_cache",
        "_subgraphs", "_pending", "_break_reasons", "_shapes", "_problems", "_chains",
    )  # fmt: skip

    key_attempts = _MadeAtFirstUse[dict[str, int]](dict)  # artifact stage key -> attempt
    artifact_counts = _MadeAtFirstUse[dict[str, int]](dict)
    cache = _MadeAtFirstUse[dict[str, dict[str, int]]](dict)  # cache -> result -> count
    subgraphs = _MadeAtFirstUse[Subgraphs](Subgraphs)  # its AOTAutograd graphs (DDP's bucket split)
    pending = _MadeAtFirstUse[list[StageEvent]](list)  # stages of a backward not placed yet
    break_reasons = _MadeAtFirstUse[list[str]](list)
    shapes = _MadeAtFirstUse[list[str]](list)  # symbolic-shapes lines (`records.SHAPES`)
    problems = _MadeAtFirstUse[list[tuple[str, str]]](list)  # draft export's (kind, text)
    chains = _MadeAtFirstUse[dict[str, list[ChainStep]]](dict)  # per symbol: its specialization chain

    def __init__(self, started_s: float) -> None:
        self.started_s = started_s
        self.aot_mode = ""  # "inference" or "training"
        self.keys: set[str] = set()
        self.inductor_part: str | None = None  # the graph Inductor is compiling now, None between compiles
        self.status = "compiling"
        self.error = ""
        self.elapsed_s = 0.0
        self.ended = False
        self.base = ""  # Dynamo's id with the attempt, without the run (`0/0_1`); "" for `-/-`
        self.attempt = 0
        self.shape_records = 0
        self._key_attempts = self._artifact_counts = self._cache = self._subgraphs = None
        self._pending = self._break_reasons = self._shapes = self._problems = self._chains = None

    @property
    def cached(self) -> bool:
        """Whether a compile cache answered for it (without making `cache`)."""
        return bool(self._cache)

    def take_pending(self) -> list[StageEvent]:
        """The backward's stages held so far, none held after."""
        pending, self._pending = self._pending, None
        return pending or []


class TraceConverter:
    """Folds records of one log into session events; keeps only small per-compile state."""

    def __init__(self, stats: TraceStats) -> None:
        self.stats = stats
        self.compiles: dict[str, _CompileState] = {}
        self.rank: int | None = None
        # runs: a run is one process (pid), split again when it starts an id a second time
        self._generation: dict[int, int] = {}  # pid -> how often it restarted its ids
        self._started: set[tuple[int, int, str]] = set()  # (pid, generation, base) with a dynamo_start
        self._keys: dict[tuple[int, int, str], str] = {}  # (pid, generation, base) -> compile key
        self._uses: dict[str, int] = {}  # base -> how many runs used it
        # (pid, generation, frame id) -> the function its dynamo_start named: Dynamo gives a frame
        # (a code object) one id, so its compiles share it
        self._frames: dict[tuple[int, int, str], tuple[str, str, int]] = {}
        self._run: tuple[int, int] = (0, 0)  # the run of the last record with a compile id
        self._global: str | None = None  # the open `-/-` compile
        self._globals = 0
        self.phases = PhaseCollector()  # compile time per phase (tcdebug.analysis.compile_phases)
        self.log_keys = cache_keys.LogKeys()  # hash details of the cache keys looked up so far

    def events(self, records: Iterator[Record]) -> Iterator[Event]:
        for record in records:
            if self.rank is None and record.rank is not None:
                self.rank = record.rank
                yield TraceInfo(rank=record.rank)
            if record.key == "chromium_event":  # most records of a log: `convert` without a generator
                try:
                    times = self._chromium(record)
                except Exception:
                    self.stats.failed += 1
                    continue
                if times is not None:
                    yield times
                continue
            try:  # a record of a shape torch never writes is skipped and counted, never fatal
                converted = list(self.convert(record))
            except Exception:
                self.stats.failed += 1
                continue
            yield from converted
        for cid, st in self.compiles.items():
            yield from self._place_pending(st)
            if not st.ended:
                if st.status != "compiling":  # e.g. an export that failed: no metrics follow
                    yield self._end(cid, st, {})
                if st.base:
                    yield from self._not_captured(cid, st)

    # ----- compile keys --------------------------------------------------------------
    def compile_key(self, record: Record) -> str | None:
        """The session key of the compile `record` belongs to (None: a global record)."""
        return self._key(record, record.compile_id)

    def _key(self, record: Record, cid: str | None) -> str | None:
        """`compile_key`, given `record.compile_id` (chromium events compute it once)."""
        if cid is None:
            return None
        base = with_attempt(cid, record.attempt)
        pid = record.pid
        gen = self._generation.get(pid, 0)
        if record.key == "dynamo_start":
            if (pid, gen, base) in self._started:  # the same process starts this id again
                gen = self._generation[pid] = gen + 1
            self._started.add((pid, gen, base))
        self._run = (pid, gen)
        run = (pid, gen, base)
        key = self._keys.get(run)
        if key is None:
            n = self._uses[base] = self._uses.get(base, 0) + 1
            key = self._keys[run] = base if n == 1 else f"{base}#{n}"
        return key

    def _global_key(self, record: Record) -> str | None:
        """The `-/-` compile an id-less record belongs to, opening one when it starts a compile."""
        kind = records.lookup(record.key, record.name)
        if not kind.global_record:
            return None
        if kind.handler == records.EXPORT_START and self._global is not None:
            self._global = None  # torch.export starts: a new compile
        if self._global is None:
            if kind.handler == records.COMPILE_END:
                return None  # metrics of nothing we saw
            self._globals += 1
            self._global = GLOBAL_ID if self._globals == 1 else f"{GLOBAL_ID}#{self._globals}"
        return self._global

    def convert(self, record: Record) -> Iterator[Event]:
        kind = records.lookup(record.key, record.name)
        if kind.handler == records.LINK:
            yield self._link(record)
            return
        if kind.handler == records.COMPILE_TIMES:
            times = self._chromium(record)
            if times is not None:
                yield times
        if kind.handler in (records.IGNORED, records.COMPILE_TIMES):
            return
        if kind.handler == records.TORCH_VERSION:
            yield TraceInfo(torch_version=str(_json(record.payload).get("pytorch_version", "")))
            return
        if kind.handler == records.RUNTIME:  # runtime data: never a compile
            yield from self._runtime(record)
            return
        cid = self.compile_key(record)
        if cid is None:
            cid = self._global_key(record)
            if cid is None:
                return  # a global record tcdebug does not show
        st0 = self.compiles.get(cid)
        if st0 is not None and kind.opens_inductor:
            current = st0.inductor_part
            if current is None or (kind.handler != records.OUTPUT_CODE and self._output_code_in(st0)):
                st0.inductor_part = self._next_part(st0)
        st = self.compiles.get(cid)
        if st is None:
            st = self.compiles[cid] = _CompileState(record.time_s)
            if record.compile_id is not None:
                st.base, st.attempt = cid.partition("#")[0], record.attempt
                yield from self._restarted(cid, st)
            if kind.handler != records.COMPILE_START:  # else its own start opens it, named
                yield self._open(cid, record)
        if cid.startswith(GLOBAL_ID):
            yield from self._global_record(cid, st, record, kind)
            return
        for ev in self._dispatch(cid, st, record, kind):
            if isinstance(ev, StageEvent) and ev.part == _UNPLACED:
                st.pending.append(ev)  # until its output code names the subgraph
            else:
                yield ev

    def _chromium(self, record: Record) -> CompileTimes | None:
        """A chromium event: a `compile_times` event when it ends a compile's outermost phase."""
        cid = record.compile_id
        if cid is None:
            return None
        event = record.chromium if record.chromium is not None else parse_event(record.payload)
        done = self.phases.feed(event, self._key(record, cid))
        if done is not None and done in self.compiles:
            return CompileTimes(compile_id=done, times=self.phases.times(done))
        return None

    def _dispatch(self, cid: str, st: _CompileState, record: Record, kind: records.RecordKind) -> Iterator[Event]:
        """One handler per record kind (`tcdebug.model.records`)."""
        handler = kind.handler
        if handler == records.COMPILE_START:
            yield self._start(cid, record)
        elif handler == records.STAGE and kind.stage in AOT_MODES and AOT_MODES[kind.stage] == stage_catalog.INFERENCE:
            st.aot_mode = stage_catalog.INFERENCE
            yield self._stage(cid, st, kind.stage, record)
        elif handler == records.STAGE and kind.stage in _FX_GRAPHS:
            st.aot_mode = st.aot_mode or AOT_MODES.get(kind.stage, "")
            yield self._stage(cid, st, kind.stage, record, meta=_graph_meta(record))
        elif handler == records.STAGE:  # an event key or artifact name
            yield self._stage(cid, st, kind.stage, record)
        elif handler == records.OUTPUT_CODE:
            output = self._output_code(cid, st, record)
            yield from self._place_pending(st, output.part)
            yield output
        elif handler == records.GRAPH_DUMP_FILE:
            yield self._graph_dump(cid, st, record)
        elif handler == records.GUARDS:
            ev = self._stage(cid, st, kind.stage, record, meta={"guard_count": record.line_counts})
            ref = record.ref
            if ref is not None:  # as the live capture shows it: without the leading blank line
                ev.loader = ref.read_from_first_line
            yield ev
        elif handler == records.COMPILE_END:
            yield from self._metrics(cid, st, record)
        elif handler == records.BACKWARD_END:
            yield from self._place_pending(st)
            st.inductor_part = None  # the backward's Inductor compile is over
            yield self._end(cid, st, {"backward": _metrics_dict(record.meta)})
        elif handler in (records.SHAPES, records.DRAFT_EXPORT):
            if record.key in CHAIN_RECORDS:
                yield from self._symbol_step(cid, st, record)
            yield from self._shapes(cid, st, record)
        elif kind.carrier == stage_catalog.ARTIFACT:
            yield from self._artifact(cid, st, record, kind)
        elif handler == records.DDP_SPLIT:  # as the live capture shows it: a break of the compile
            key = record.key
            reason = ddp_split_reason(record.payload or "")
            yield GraphBreak(compile_id=cid, reason=reason, user_stack=[], ddp_split=True)
            if record.ref is not None:
                yield self._stage(cid, st, f"trace_{key}", record, title=key.replace("_", " "))
        elif record.ref is not None:  # PAYLOAD, and the records of `-/-` compiles in a Dynamo compile
            key = record.key
            yield self._stage(cid, st, f"trace_{key}", record, title=key.replace("_", " "))

    def _symbol_step(self, cid: str, st: _CompileState, record: Record) -> Iterator[Event]:
        """A step of a symbol's specialization chain, as the live capture records it
        (`tcdebug.capture.symbol_chain`): the compile's chains so far, sent whole."""
        md = record.meta if isinstance(record.meta, dict) else {}
        user = _chain_user(md.get("user_stack"))
        steps: list[tuple[str, str, str]] = []
        if record.key == "create_symbol":
            text = symbol_created(md)
            steps.append((str(md.get("symbol", "")), "created", text))
        elif record.key == "symbolic_shape_specialization":
            symbol = str(md.get("symbol", ""))
            steps.append(
                (symbol, "specialized", f"{symbol} = {md.get('value', '?')} ({md.get('reason', '')})")
            )
        else:  # guard_added
            text = f"{md.get('prefix', 'guard')}: {md.get('expr', '')}"
            symbols = md.get("symbol_to_sources")
            steps += [(str(sym), "guard", text) for sym in (symbols if isinstance(symbols, dict) else {})]
        changed = False
        for symbol, step, text in steps:
            chain = st.chains.setdefault(symbol, []) if symbol else None
            if chain is not None and len(chain) < _MAX_CHAIN_STEPS:
                chain.append(ChainStep(step=step, text=text, user=user))
                changed = True
        if changed:
            yield SymbolChains(compile_id=cid, chains={k: list(v) for k, v in st.chains.items()})

    def _open(self, cid: str, record: Record) -> CompileStart:
        ev = CompileStart(compile_id=cid, rank=record.rank)
        if record.compile_id is None:
            ev.function, ev.filename, ev.firstlineno = _caller(record)
        return ev

    def _restarted(self, cid: str, st: _CompileState) -> Iterator[Event]:
        """Attempt N started: attempt N-1 of the same run was restarted (it has no metrics)."""
        if st.attempt < 1:
            return
        prev_key = self._attempt_key(st, st.attempt - 1)
        prev = self.compiles.get(prev_key) if prev_key else None
        if prev_key and prev is not None and not prev.ended:
            prev.status = "restarted"
            prev.ended = True
            ev = self._end(prev_key, prev, {})
            yield ev

    def _attempt_key(self, st: _CompileState, attempt: int) -> str | None:
        """The key of another attempt of `st`'s compile in the same run."""
        stem = st.base.rsplit("_", 1)[0] if st.attempt else st.base
        return self._keys.get((*self._run, with_attempt(stem, attempt)))

    def _restart_breaks(self, cid: str, st: _CompileState, reasons: Any) -> Iterator[Event]:
        """The attempt that restarted gets its reason. A reason that is a graph break's (torch
        restarts its analysis on a graph break in inlined code) and that no earlier attempt logged
        becomes a graph break of that attempt; a restart for another cause (a scalar tensorified,
        `fail_and_restart_analysis` without a reason) is no graph break."""
        if not st.attempt or not isinstance(reasons, list):
            return
        logged = [r for a in range(st.attempt) for r in self._breaks_of(st, a)]
        prev_key = self._attempt_key(st, st.attempt - 1) or cid
        prev = self.compiles.get(prev_key)
        error, breaks = restart_outcome(reasons, logged)
        if prev is not None and error and not prev.error:
            prev.error = error
            yield self._end(prev_key, prev, {})
        for text in breaks:
            yield GraphBreak(compile_id=prev_key, reason=text, user_stack=[])

    def _breaks_of(self, st: _CompileState, attempt: int) -> list[str]:
        key = self._attempt_key(st, attempt)
        other = self.compiles.get(key) if key else None
        return other.break_reasons if other is not None else []

    def _global_record(
        self, cid: str, st: _CompileState, record: Record, kind: records.RecordKind
    ) -> Iterator[Event]:
        """A record of torch.export or AOTInductor (no compile id)."""
        if kind.handler == records.EXPORT_START:
            return  # the start marker ("start!")
        if kind.handler == records.EXPORTED_PROGRAM:
            yield self._stage(
                cid, st, "exported_program", record, title="Exported program", language="python"
            )
            st.status = "ok" if st.status == "compiling" else st.status
            yield self._end(cid, st, {})
            self._global = None
            return
        if kind.handler == records.DATA_DEPENDENT_ERROR:
            yield self._data_dependent_error(cid, st, record)
            return
        if kind.handler == records.COMPILE_END:
            yield from self._metrics(cid, st, record)
            self._global = None
            return
        yield from self._dispatch(cid, st, record, kind)
        if kind.carrier == stage_catalog.ARTIFACT and kind.name == records.EXPORT_FAILED:
            # the graph traced up to an export's error: that export is over
            if st.status == "compiling":
                st.status = "failed"
                st.error = st.error or "export failed (make_fx_fail_partial: the graph traced so far)"
            yield self._end(cid, st, {})
            self._global = None

    def _data_dependent_error(self, cid: str, st: _CompileState, record: Record) -> StageEvent:
        md = record.meta if isinstance(record.meta, dict) else {}
        expr = str(md.get("expr", "?"))
        st.status = "failed"
        st.error = f"data-dependent guard: could not guard on {expr}"
        lines = [f"Could not guard on data-dependent expression {expr}"]
        if md.get("unhinted_expr") and md["unhinted_expr"] != expr:
            lines.append(f"(unhinted: {md['unhinted_expr']})")
        stack = md.get("stack")
        frames: list[Any] = stack if isinstance(stack, list) else []
        user = [f for f in frames if isinstance(f, dict) and not is_torch_file(str(f.get("filename", "")))]
        if user:
            lines.append("")
            lines.append("User stack (most recent call last):")
            for frame in user:
                lines.append(
                    f'  File "{frame.get("filename", "?")}", line {frame.get("line", "?")}, in {frame.get("name", "?")}'
                )
                if frame.get("loc"):
                    lines.append(f"    {frame['loc']}")
        ev = self._stage(
            cid, st, "data_dependent_error", record, title="Data-dependent error", meta={"expr": expr}
        )
        ev.text = "\n".join(lines) + "\n"
        ev.loader = None
        return ev

    def _runtime(self, record: Record) -> Iterator[Event]:
        """A compiled graph ran (`inductor_graph_execution`), or the order graphs ran in."""
        data: Any = _json(record.payload)
        if record.name == records.GRAPH_EXECUTED and data.get("graph"):
            yield TraceInfo(executed=[str(data["graph"])])
        elif record.name == records.EXECUTION_ORDER:
            order = execution_order(record.payload)
            if order is not None:
                yield TraceInfo(execution_order=order)

    def _shapes(self, cid: str, st: _CompileState, record: Record) -> Iterator[Event]:
        """A symbol, specialization or guard: a line of the compile's symbolic shapes stage; a
        problem draft export worked around: a line of its report, and the export's error."""
        key = record.key
        st.shape_records += 1
        if len(st.shapes) < MAX_SHAPE_LINES:
            st.shapes.append(shape_line(key, record.meta))
            more = ""
        else:
            more = f"\n({st.shape_records - MAX_SHAPE_LINES} more records not shown)"
        if len(st.shapes) < MAX_SHAPE_LINES or st.shape_records % MAX_SHAPE_LINES == 0:
            yield self._text_stage(
                cid, st, SHAPES_STAGE, record, "Symbolic shapes", "\n".join(st.shapes) + more + "\n"
            )
        problem = export_problem(key, record.meta)
        if problem is None or (key == "guard_added" and not cid.startswith(GLOBAL_ID)):
            return  # a guard evaluated is a problem of an export only (as tlparse reports it)
        st.problems.append(problem)
        kind, _ = problem
        expr = str(record.meta.get("expr") or record.meta.get("op") or "") if isinstance(record.meta, dict) else ""
        yield Note(text=safe_line(f"draft export {cid}: {kind}: {expr}"))
        if kind in FAILING and st.status in ("compiling", "ok"):
            st.status = "failed"
            st.error = st.error or f"draft export: {kind}: {expr}"
        yield self._text_stage(cid, st, EXPORT_REPORT_STAGE, record, "Draft export report", export_report(st.problems))

    def _text_stage(self, cid: str, st: _CompileState, stage_id: str, record: Record, title: str, text: str) -> StageEvent:
        """A stage tcdebug writes from records' fields (no payload of its own)."""
        ev = self._stage(cid, st, stage_id, record, title=title)
        ev.meta.pop("md5", None)
        ev.text = text
        ev.loader = None
        return ev

    def _link(self, record: Record) -> Note:
        md = record.meta if isinstance(record.meta, dict) else {}
        where = f" ({record.compile_id})" if record.compile_id else ""
        text = f"link{where}: {md.get('name', '?')}: {md.get('url', '')}"
        return Note(text=safe_line(text))  # one line, whatever the log holds

    # ----- per event kind ------------------------------------------------------------
    def _start(self, cid: str, record: Record) -> CompileStart:
        stack = record.meta.get("stack") if isinstance(record.meta, dict) else None
        frame = stack[-1] if isinstance(stack, list) and stack and isinstance(stack[-1], dict) else {}
        start = CompileStart(
            compile_id=cid,
            function=str(frame.get("name", "")),
            filename=str(frame.get("filename", "")),
            firstlineno=int(frame.get("line") or 0),
            rank=record.rank,
            stack=user_frames(stack),
        )
        if start.function and record.compile_id is not None:
            frame_key = (*self._run, _frame_id(record.compile_id))
            self._frames[frame_key] = (start.function, start.filename or "", start.firstlineno or 0)
        return start

    def _frame_named(self, cid: str, st: _CompileState, record: Record) -> Iterator[Event]:
        """A frame compile that logged no `dynamo_start` (Dynamo refused it before it began: the
        recompile limit) and whose metrics name no function: named from its frame's other
        compiles, and the session says so."""
        if record.compile_id is None or (*self._run, st.base) in self._started:
            return
        frame = _frame_id(record.compile_id)
        known = self._frames.get((*self._run, frame))
        if known is None:
            return
        function, filename, line = known
        yield CompileStart(
            compile_id=cid, function=function, filename=filename, firstlineno=line, rank=record.rank
        )
        yield Note(
            text=safe_line(
                f"{cid}: the log has no dynamo_start for it; its function, {function}, is inferred from "
                f"the other compiles of frame {frame} (Dynamo's id of the code object)"
            )
        )

    def _output_code(self, cid: str, st: _CompileState, record: Record) -> StageEvent:
        code = record.payload or ""
        named = aot_graph_id(code)
        if named is not None:
            part = st.subgraphs.part_of(named)
        else:
            part = self._part(st)
            if part == _UNPLACED:
                part = self._guess_backward(st)
        st.inductor_part = part
        kernels = split_output_code(code)
        assert record.ref is not None
        lazy: list[Kernel] = [LazyKernel(record.ref, i, k) for i, k in enumerate(kernels)]
        record.payload = None  # the log holds it; the stage reads it back when shown
        md = record.meta if isinstance(record.meta, dict) else {}
        meta = {"path": md.get("filename", ""), "kernel_count": len(kernels)}
        return self._stage(cid, st, stage_catalog.OUTPUT_CODE, record, part=part, meta=meta, kernels=lazy)

    def _graph_dump(self, cid: str, st: _CompileState, record: Record) -> StageEvent:
        """Generated code Inductor dumps as a file: AOTInductor's C++ wrapper and kernels."""
        md = record.meta if isinstance(record.meta, dict) else {}
        name = str(md.get("name", "graph_dump"))
        language = {"cpp": "cpp", "python": "python", "py": "python"}.get(str(md.get("type", "")), "text")
        meta: dict[str, Any] = {"path": str(md.get("filename", "")), "artifact": name}
        part = self._part(st)
        dump = records.lookup(record.key, name)
        if dump.stage == stage_catalog.OUTPUT_CODE and record.ref is not None:
            kernels = split_cpp_kernels(record.ref.read())
            lazy: list[Kernel] = [
                LazyKernel(record.ref, i, k, split_cpp_kernels) for i, k in enumerate(kernels)
            ]
            meta["kernel_count"] = len(kernels)
            return self._stage(
                cid,
                st,
                dump.stage,
                record,
                part=part,
                title="AOTInductor kernel code",
                language=language,
                meta=meta,
                kernels=lazy,
            )
        if dump.stage and dump.stage != stage_catalog.OUTPUT_CODE:  # named as logs always named it
            return self._stage(
                cid,
                st,
                "aoti_wrapper_code",
                record,
                part=part,
                title="AOTInductor wrapper code",
                language=language,
                meta=meta,
            )
        stage_id = "graph_dump_" + re.sub(r"\W", "_", name)
        return self._stage(cid, st, stage_id, record, part=part, title=name, language=language, meta=meta)

    def _metrics(self, cid: str, st: _CompileState, record: Record) -> Iterator[Event]:
        md = record.meta if isinstance(record.meta, dict) else {}
        failed, error = compile_outcome(md)
        if error:
            st.error = error
        st.status = "failed" if failed else "ok"
        st.elapsed_s = float(md.get("entire_frame_compile_time_s") or 0.0)
        start = CompileStart(compile_id=cid, rank=record.rank)
        if md.get("co_name"):  # `-/-` compiles (export, AOTInductor) have none: keep what they have
            start.function = str(md["co_name"])
            start.filename = str(md.get("co_filename") or "")
            start.firstlineno = int(md.get("co_firstlineno") or 0)
        yield start
        if st.base and not md.get("co_name"):
            yield from self._frame_named(cid, st, record)
        yield from self._restart_breaks(cid, st, md.get("restart_reasons"))
        yield self._end(cid, st, _metrics_dict(md))
        if st.base:
            yield from self._not_captured(cid, st)

    def _end(self, cid: str, st: _CompileState, metrics: dict[str, Any]) -> CompileEnd:
        st.ended = True
        if st.cached:
            metrics["cache"] = {k: dict(v) for k, v in st.cache.items()}
        return CompileEnd(compile_id=cid, status=st.status, error=st.error, elapsed_s=st.elapsed_s, metrics=metrics)

    def _artifact(self, cid: str, st: _CompileState, record: Record, kind: records.RecordKind) -> Iterator[Event]:
        name = record.name
        handler = kind.handler
        if handler == records.RECOMPILE:
            yield Recompile(compile_id=cid, reason=recompile_reasons(record.payload))
            return
        if handler == records.CA_RECOMPILE:  # why compiled autograd's cache missed
            yield Recompile(compile_id=cid, reason=compiled_autograd_reasons(record.payload))
            return
        if handler == records.GRAPH_BREAK:
            reason, stack = split_graph_break(record.payload or "")
            st.break_reasons.append(record.payload or "")
            yield GraphBreak(compile_id=cid, reason=reason, user_stack=stack)
            return
        cache = records.pattern_groups(kind, name) if handler == records.CACHE_RESULT else {}
        if cache:
            counts = st.cache.setdefault(cache["cache"], {})
            counts[cache["result"]] = counts.get(cache["result"], 0) + 1
            if st.ended:  # a lazy backward compile: keep the compile's metrics current
                yield self._end(cid, st, {})
            if cache["cache"] == "fx_graph" and record.ref is not None:
                ev = self._artifact_stage(cid, st, record, kind)
                yield ev
                yield from self._place_pending(st)
                yield from self._cache_result(cid, st, record, cache["cache"], cache["result"], ev.part)
                st.inductor_part = None  # the FX graph cache result closes one Inductor compile
                return
            yield from self._cache_result(cid, st, record, cache["cache"], cache["result"])
        if handler == records.BYTECODE and record.ref is not None:
            yield self._stage(cid, st, kind.stage, record, meta={"artifact": name})
            return
        if record.ref is not None:  # an artifact without a payload has nothing to show
            if self._output_code_in(st) and not name.startswith(records.INDUCTOR_AFTER_OUTPUT):
                st.inductor_part = None  # the Inductor compile is over
            yield self._artifact_stage(cid, st, record, kind)

    def _cache_result(
        self, cid: str, st: _CompileState, record: Record, cache: str, result: str, part: str | None = None
    ) -> Iterator[CacheResult]:
        """The verdict of an FX graph or AOTAutograd lookup, as the live capture makes it
        (`tcdebug.torchtext.cache_keys`); a miss is explained by the keys looked up earlier in
        this log. `part`: the FX graph lookup's, as its stage is placed."""
        if cache not in cache_keys.CACHES:
            return
        payload = record.payload
        if payload is None and record.ref is not None:
            payload = record.ref.read()
        lookup = cache_keys.Lookup.read(payload)
        if cache != "fx_graph":
            part = ""
        elif not part or part == _UNPLACED:
            part = self._part(st)
            part = self._guess_backward(st) if part == _UNPLACED else part
            part = (self.log_keys.part_of(cache, lookup.key) if result == "hit" else "") or part
        explanation = self.log_keys.add(cache, result, lookup, part)
        yield CacheResult(compile_id=cid, verdict=lookup.verdict(cache, result, part, explanation))

    @staticmethod
    def _output_code_in(st: _CompileState) -> bool:
        """Has the graph Inductor is compiling now logged its output code?"""
        part = st.inductor_part
        return part is not None and stage_catalog.stage_key(stage_catalog.OUTPUT_CODE, part) in st.keys

    def _artifact_stage(
        self, cid: str, st: _CompileState, record: Record, kind: records.RecordKind
    ) -> StageEvent:
        """An artifact as a stage: in the part of the Inductor compile that logs it, else of the
        AOTAutograd graph open now (`subgraph_1` in a compile DDP split)."""
        name = record.name
        stage_id = stage_catalog.artifact_stage_id(name)
        encoding = record.meta.get("encoding", "") if isinstance(record.meta, dict) else ""
        part = st.inductor_part
        if part is None:
            opened = st.subgraphs.on_opener(stage_id) if kind.part == records.SUBGRAPH else st.subgraphs.current
            part = stage_catalog.graph_part("", opened)
        return self._stage(
            cid,
            st,
            stage_id,
            record,
            part=part,
            title=f"Artifact {name}",
            language="json" if encoding == "json" else ("python" if "graph" in name else "text"),
            meta={"artifact": name, "encoding": encoding},
        )

    def _not_captured(self, cid: str, st: _CompileState) -> Iterator[Event]:
        if is_compiled_autograd_capture(cid):
            return  # compiled autograd's capture: no frame, so no source, bytecode or IR
        logged = {stage_catalog.split_key(k)[0] for k in st.keys}
        reasons: dict[str, str] = {}
        for stage_id in MAYBE_MISSING:
            if stage_id not in logged:
                logged.add(stage_id)
                st.keys.add(stage_id)
                reasons[stage_id] = self._in_earlier_attempt(st, stage_id) or NOT_IN_TRACE
        if reasons:
            yield StagesNotLogged(compile_id=cid, reasons=reasons)

    def _in_earlier_attempt(self, st: _CompileState, stage_id: str) -> str:
        """Where an earlier attempt of this compile logged `stage_id` (the original bytecode)."""
        for attempt in range(st.attempt - 1, -1, -1):
            key = self._attempt_key(st, attempt)
            other = self.compiles.get(key) if key else None
            if key and other is not None and stage_id in other.keys:
                return earlier_attempt_reason(key)
        return ""

    # ----- helpers -------------------------------------------------------------------
    def _part(self, st: _CompileState) -> str:
        return st.inductor_part if st.inductor_part is not None else self._next_part(st)

    def _next_part(self, st: _CompileState) -> str:
        """The part the next Inductor compile of this frame builds. A backward of a compile with
        several subgraphs is `_UNPLACED` until its output code's AOT id names its subgraph."""
        current = st.subgraphs.current
        base = inductor_part(st.aot_mode, st.keys, current)
        if base == "backward":
            return "backward" if st.subgraphs.count == 1 else _UNPLACED
        return stage_catalog.graph_part(base, current)

    def _guess_backward(self, st: _CompileState) -> str:
        """A backward whose output code names no AOT graph: the last subgraph with no backward
        stage yet (autograd runs the subgraphs' backwards last to first). Inferred."""
        placed = {stage_catalog.split_key(key)[1] for key in st.keys}
        for n in range(st.subgraphs.count - 1, -1, -1):
            part = stage_catalog.graph_part("backward", n)
            if part not in placed:
                return part
        return "backward"

    def _place_pending(self, st: _CompileState, part: str | None = None) -> Iterator[StageEvent]:
        """The held stages of a backward, now that its part is known (`part`), or, at the end of
        its compile without output code, the inferred one (said so in each stage's meta)."""
        pending = st.take_pending()
        if not pending:
            return
        inferred = part is None or part == _UNPLACED
        placed = self._guess_backward(st) if inferred else part
        assert placed is not None
        if st.inductor_part == _UNPLACED:
            st.inductor_part = placed
        for ev in pending:
            old_key = ev.key
            st.keys.discard(old_key)
            attempt = st.key_attempts.pop(old_key, None)
            ev.part = placed
            if attempt is not None:
                st.key_attempts[ev.key] = attempt
            st.keys.add(ev.key)
            if inferred:
                ev.meta["subgraph_inferred"] = True
            yield ev
        for key in [k for k in st.artifact_counts if k.endswith("." + _UNPLACED)]:
            del st.artifact_counts[key]

    def _stage(
        self,
        cid: str,
        st: _CompileState,
        stage_id: str,
        record: Record,
        *,
        part: str | None = None,
        title: str = "",
        language: str = "",
        meta: dict[str, Any] | None = None,
        kernels: list[Kernel] | None = None,
    ) -> StageEvent:
        artifact = stage_id.startswith("artifact_")
        if part is None and stage_id in stage_catalog.GRAPH_OPENERS:
            part = stage_catalog.graph_part("", st.subgraphs.on_opener(stage_id))
        if part is None:
            part = self._part(st) if stage_id in stage_catalog.INDUCTOR_STAGES else ""
        key = stage_catalog.stage_key(stage_id, part)
        if artifact and st.key_attempts.get(key) == record.attempt:
            # the same artifact twice in one attempt: keep both (a restart replaces instead)
            n = st.artifact_counts[key] = st.artifact_counts.get(key, 1) + 1
            stage_id = f"{stage_id}_{n}"
            key = stage_catalog.stage_key(stage_id, part)
        if artifact:
            st.key_attempts[key] = record.attempt
        st.keys.add(key)
        full_meta = {"line": record.lineno, "attempt": record.attempt, **(meta or {})}
        if record.envelope.get("has_payload"):
            full_meta["md5"] = record.envelope["has_payload"]
        if not record.md5_ok:  # shown as torch wrote it, flagged as tlparse does
            full_meta["md5_mismatch"] = True
        return StageEvent(
            compile_id=cid,
            stage=stage_id,
            part=part,
            title=title,
            language=language,
            elapsed_s=max(0.0, record.time_s - st.started_s),
            meta=full_meta,
            loader=record.ref.read if record.ref is not None else None,
            lazy_kernels=kernels,
        )


# ----- payload parsing ---------------------------------------------------------------
def _caller(record: Record) -> tuple[str, str, int]:
    """(what compiled, file, line) for an id-less record: the user's call from its stack."""
    stack = record.envelope.get("stack")
    if not isinstance(stack, list) and isinstance(record.meta, dict):
        stack = record.meta.get("stack")
    frames = [f for f in stack if isinstance(f, dict)] if isinstance(stack, list) else []
    names = {str(f.get("name", "")) for f in frames}
    if any("aoti" in n or n == "aot_compile" for n in names):
        what = "AOTInductor"
    elif record.key == "export" or any(n in ("export", "_export", "draft_export") for n in names):
        what = "torch.export"
    else:
        what = "(no compile id)"
    user = [f for f in frames if not is_torch_file(str(f.get("filename", "")))]
    frame = user[-1] if user else {}
    line = frame.get("line")
    return what, str(frame.get("filename", "")), line if isinstance(line, int) else 0


def _json(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text or "")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


_MAX_CHAIN_STEPS = 40
_NOT_USERS = ("/torch/", "/site-packages/", "/dist-packages/", "/lib/python")


def _chain_user(stack: Any) -> Frame | None:
    """The user's line in a record's `user_stack`: its innermost frame outside torch and installed
    packages (a log does not say where torch lives), else its innermost frame."""
    frames = [
        Frame(
            file=str(f.get("filename", "")),
            line=int(f.get("line", 0) or 0),
            name=str(f.get("name", "")),
            code=str(f.get("loc", "") or ""),
        )
        for f in (stack if isinstance(stack, list) else [])
        if isinstance(f, dict) and isinstance(f.get("line", 0), int)
    ]
    users = [f for f in frames if not any(part in f.file.replace("\\", "/") for part in _NOT_USERS)]
    found = users or frames
    return found[-1] if found else None


# A graph's node sizes repeat across its nodes and its frame's compiles: one tuple per shape.
_SHAPES: SharedValues[tuple[Any, ...], tuple[Any, ...]] = SharedValues(lambda shape: shape)


def _graph_meta(record: Record) -> dict[str, Any]:
    """The graph's node sizes, their names interned and their shapes shared (kept per compile,
    repeated across them)."""
    md = record.meta if isinstance(record.meta, dict) else {}
    sizes = md.get("sizes")
    if not isinstance(sizes, dict):
        return {}
    return {"sizes": {sys.intern(k) if type(k) is str else k: _shape(v) for k, v in sizes.items()}}


def _shape(value: Any) -> Any:
    """A list of sizes as a shared tuple (session.json writes it as the list); anything else as it is."""
    if type(value) is not list or not all(type(v) in (int, str) for v in value):
        return value
    return _SHAPES.get(tuple(value))


def _frame_id(compile_id: str) -> str:
    """The frame part of Dynamo's compile id: `0` of `0/3`, `!0/1` of compiled autograd's `!0/1/2`."""
    return compile_id.rpartition("/")[0]


def _metrics_dict(md: Any) -> dict[str, Any]:
    """Compilation metrics worth showing: times, counts, reasons; not the config dumps."""
    if not isinstance(md, dict):
        return {}
    out: dict[str, Any] = {}
    known = _METRIC_NAMES.known  # the shared table's own lookup: this runs for 30 keys a compile
    for k, v in md.items():
        name = known(k, UNMADE)
        if name is UNMADE:
            name = _METRIC_NAMES.get(k)
        if name is None or v is None:
            continue
        kind = type(v)
        if kind is str:
            if not v or len(v) > _BIG_METRIC:
                continue
        elif kind is not int and kind is not float and kind is not bool:
            if name != "restart_reasons" or v == []:
                continue
        out[name] = v
    return out


def _metric_name(key: str) -> str | None:
    """The key kept (one copy: every compile has these keys), None where it is left out."""
    if not isinstance(key, str) or key.endswith("_config") or key in _METRICS_LEFT_OUT:
        return None
    return sys.intern(key) if type(key) is str else key


# a log's keys are a few hundred: a hostile one is not kept whole
_METRIC_NAMES: SharedValues[str, str | None] = SharedValues(_metric_name, limit=4096)


# ----- public API ----------------------------------------------------------------------
def apply_event(session: Session, ev: Event) -> Change:
    """`Session.apply` (which also takes what only trace events carry: loaders, lazy kernels,
    trace info)."""
    return session.apply(ev)


def new_trace_session(path: str | Path) -> Session:
    return Session(script=str(path), argv=[], origin="trace", state=LOADED)


def finish_session(session: Session, stats: TraceStats) -> None:
    """Record what was skipped, as notes and in `trace_stats`."""
    session.trace_stats = stats.as_dict()
    for problem in stats.problems():
        session.notes.append(f"{Path(session.script).name}: {problem}")
    for comp in session.compiles.values():
        graph = comp.stages.get(stage_catalog.CA_GRAPH)
        if comp.status == "compiling" and comp.is_ca_capture and graph is not None and graph.captured:
            comp.status = "ok"  # it has no compile end: Dynamo compiles its graph as `!N/F/C`
        elif comp.status == "compiling":
            comp.status = "failed"
            comp.error = comp.error or "the log ends before this compile finished"
