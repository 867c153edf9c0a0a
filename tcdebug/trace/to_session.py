"""Turn TORCH_TRACE records into session events (the vocabulary `Session.apply` knows).

`iter_trace_events(path)` yields events as the log streams by, so a UI can show the first
compile long before a large log is read; `apply_event(session, ev)` folds one in. Stage events
carry a loader (the payload's file offsets) instead of the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tcdebug import stages as stage_catalog
from tcdebug.compile_times import PhaseCollector, parse_event
from tcdebug.dynamo_text import compile_outcome, recompile_reasons, split_graph_break
from tcdebug.kernels import split_output_code
from tcdebug.session import LOADED, Kernel, Session
from tcdebug.trace.reader import PayloadRef, Record, TraceStats, read_records

NOT_IN_TRACE = "not in TORCH_TRACE logs"
# Stages a trace holds only sometimes (bytecode: resume functions only) or never.
MAYBE_MISSING = (
    "source",
    "bytecode_before",
    "bytecode_after",
    "inductor_ir_pre_fusion",
    "inductor_ir_post_fusion",
)

# Event keys (or artifact names) that are pipeline stages.
_GRAPH_STAGES = {
    "dynamo_output_graph": "dynamo_graph",
    "aot_joint_graph": "aot_joint",
    "aot_forward_graph": "aot_forward",
    "aot_backward_graph": "aot_backward",
    "aot_inference_graph": "aot_inference",
    "inductor_post_grad_graph": "inductor_post_grad_graph",
    "ir_pre_fusion": "inductor_ir_pre_fusion",
    "ir_post_fusion": "inductor_ir_post_fusion",
}
_IGNORED = {
    "chromium_event",
    "describe_tensor",
    "describe_storage",
    "describe_source",
    "create_symbol",
    "create_unbacked_symbol",
    "expression_created",
    "guard_added",
    "guard_added_fast",
    "symbolic_shape_specialization",
    "link",
    "dump_file",
}
# Records that open an Inductor compile (the FX graph cache artifact closes it).
_INDUCTOR_START = {
    "fx_graph_runnable",
    "before_post_grad_graph",
    "inductor_post_grad_graph",
    "inductor_output_code",
}
_CACHE_RE = re.compile(r"^(?P<cache>\w+?)_cache_(?P<result>hit|miss|bypass)$")
_AOT_ID = re.compile(r"# AOT ID: \['\d+_(forward|backward|inference)'\]")
_BYTECODE_RE = re.compile(r"_(ORIGINAL|MODIFIED)_BYTECODE$")
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

    def __init__(self, ref: PayloadRef, index: int, kernel: Kernel) -> None:
        self._ref = ref
        self._index = index
        self._source: str | None = None
        super().__init__(
            name=kernel.name,
            language=kernel.language,
            source="",
            kind=kernel.kind,
            provenance=kernel.provenance,
            meta=kernel.meta,
        )

    @property  # type: ignore[override]
    def source(self) -> str:
        if self._source is not None:
            return self._source
        try:
            kernels = _split_cached(self._ref)
        except OSError as exc:
            return f"<could not read kernel {self.name}: {exc}>"
        return kernels[self._index].source if self._index < len(kernels) else ""

    @source.setter
    def source(self, value: str) -> None:
        self._source = value or None


_split_memo: dict[PayloadRef, list[Kernel]] = {}


def _split_cached(ref: PayloadRef) -> list[Kernel]:
    """The kernels of one output code; only the last one split is kept."""
    if ref not in _split_memo:
        _split_memo.clear()
        _split_memo[ref] = split_output_code(ref.read())
    return _split_memo[ref]


@dataclass
class _CompileState:
    started_s: float
    aot_mode: str = ""  # "inference" or "training"
    keys: set[str] = field(default_factory=set)
    key_attempts: dict[str, int] = field(default_factory=dict)  # artifact stage key -> attempt
    artifact_counts: dict[str, int] = field(default_factory=dict)
    cache: dict[str, dict[str, int]] = field(default_factory=dict)
    inductor_part: str | None = None  # the graph Inductor is compiling now, None between compiles
    status: str = "compiling"
    error: str = ""
    elapsed_s: float = 0.0
    ended: bool = False


class TraceConverter:
    """Folds records of one log into session events; keeps only small per-compile state."""

    def __init__(self, stats: TraceStats) -> None:
        self.stats = stats
        self.compiles: dict[str, _CompileState] = {}
        self.rank: int | None = None
        self.phases = PhaseCollector()  # compile time per phase (tcdebug.compile_times)

    def events(self, records: Iterator[Record]) -> Iterator[dict[str, Any]]:
        for record in records:
            if self.rank is None and record.rank is not None:
                self.rank = record.rank
                yield {"type": "trace_info", "rank": record.rank}
            yield from self.convert(record)
        for cid, st in self.compiles.items():
            if not st.ended:
                yield from self._not_captured(cid, st)

    def convert(self, record: Record) -> Iterator[dict[str, Any]]:
        key, name, cid = record.key, record.name, record.compile_id
        if key == "chromium_event" and cid is not None:
            done = self.phases.feed(parse_event(record.payload), cid)
            if done is not None and done in self.compiles:
                yield {"type": "compile_times", "compile_id": done, "times": self.phases.times(done)}
        if key in _IGNORED:
            return
        st0 = self.compiles.get(cid) if cid is not None else None
        if st0 is not None and (name in _INDUCTOR_START or key in _INDUCTOR_START):
            current = st0.inductor_part
            if current is None or (key != "inductor_output_code" and f"kernel_source.{current}" in st0.keys):
                st0.inductor_part = self._next_part(st0)
        if name == "torch_version":
            yield {"type": "trace_info", "torch_version": _json(record.payload).get("pytorch_version", "")}
            return
        if cid is None:
            return  # a global record tcdebug does not show (e.g. a chromium event)
        st = self.compiles.get(cid)
        if st is None:
            st = self.compiles[cid] = _CompileState(record.time_s)
            yield {"type": "compile_start", "compile_id": cid, "rank": record.rank}
        if key == "dynamo_start":
            yield self._start(cid, record)
        elif key in ("dynamo_output_graph", "aot_joint_graph", "aot_forward_graph", "aot_backward_graph"):
            st.aot_mode = st.aot_mode or ("training" if key.startswith("aot_") else "")
            yield self._stage(cid, st, _GRAPH_STAGES[key], record, meta=_graph_meta(record))
        elif key == "aot_inference_graph":
            st.aot_mode = "inference"
            yield self._stage(cid, st, "aot_inference", record)
        elif key == "inductor_post_grad_graph" or (key == "artifact" and name in _GRAPH_STAGES):
            yield self._stage(cid, st, _GRAPH_STAGES[name], record)
        elif key == "inductor_output_code":
            yield self._output_code(cid, st, record)
        elif key == "dynamo_cpp_guards_str":
            ev = self._stage(cid, st, "guards", record, meta={"guard_count": record.line_counts})
            ref = record.ref
            if ref is not None:  # as the live capture shows it: without the leading blank line
                ev["_loader"] = lambda: ref.read().lstrip("\n")
            yield ev
        elif key == "compilation_metrics":
            yield from self._metrics(cid, st, record)
        elif key in ("bwd_compilation_metrics", "aot_autograd_backward_compilation_metrics"):
            yield self._end(cid, st, {"backward": _metrics_dict(record.meta)})
        elif key == "artifact":
            yield from self._artifact(cid, st, record)
        elif record.ref is not None:
            yield self._stage(cid, st, f"trace_{key}", record, title=key.replace("_", " "))

    # ----- per event kind ------------------------------------------------------------
    def _start(self, cid: str, record: Record) -> dict[str, Any]:
        stack = record.meta.get("stack") if isinstance(record.meta, dict) else None
        frame = stack[-1] if isinstance(stack, list) and stack and isinstance(stack[-1], dict) else {}
        return {
            "type": "compile_start",
            "compile_id": cid,
            "function": str(frame.get("name", "")),
            "filename": str(frame.get("filename", "")),
            "firstlineno": int(frame.get("line") or 0),
            "rank": record.rank,
        }

    def _output_code(self, cid: str, st: _CompileState, record: Record) -> dict[str, Any]:
        code = record.payload or ""
        m = _AOT_ID.search(code[:500])
        part = st.inductor_part = m.group(1) if m else self._part(st)
        kernels = split_output_code(code)
        assert record.ref is not None
        lazy = [LazyKernel(record.ref, i, k) for i, k in enumerate(kernels)]
        record.payload = None  # the log holds it; the stage reads it back when shown
        md = record.meta if isinstance(record.meta, dict) else {}
        meta = {"path": md.get("filename", ""), "kernel_count": len(kernels)}
        return self._stage(cid, st, "kernel_source", record, part=part, meta=meta, kernels=lazy)

    def _metrics(self, cid: str, st: _CompileState, record: Record) -> Iterator[dict[str, Any]]:
        md = record.meta if isinstance(record.meta, dict) else {}
        failed, error = compile_outcome(md)
        if error:
            st.error = error
        st.status = "failed" if failed else "ok"
        st.elapsed_s = float(md.get("entire_frame_compile_time_s") or 0.0)
        yield {
            "type": "compile_start",
            "compile_id": cid,
            "function": str(md.get("co_name") or ""),
            "filename": str(md.get("co_filename") or ""),
            "firstlineno": int(md.get("co_firstlineno") or 0),
            "rank": record.rank,
        }
        yield self._end(cid, st, _metrics_dict(md))
        yield from self._not_captured(cid, st)

    def _end(self, cid: str, st: _CompileState, metrics: dict[str, Any]) -> dict[str, Any]:
        st.ended = True
        if st.cache:
            metrics["cache"] = {k: dict(v) for k, v in st.cache.items()}
        return {
            "type": "compile_end",
            "compile_id": cid,
            "status": st.status,
            "error": st.error,
            "elapsed_s": st.elapsed_s,
            "metrics": metrics,
        }

    def _artifact(self, cid: str, st: _CompileState, record: Record) -> Iterator[dict[str, Any]]:
        name = record.name
        if name == "recompile_reasons":
            yield {"type": "recompile", "compile_id": cid, "reason": recompile_reasons(record.payload)}
            return
        if name == "dynamo_graph_break_reason":
            reason, stack = split_graph_break(record.payload or "")
            yield {"type": "graph_break", "compile_id": cid, "reason": reason, "user_stack": stack}
            return
        cache = _CACHE_RE.match(name)
        if cache:
            counts = st.cache.setdefault(cache["cache"], {})
            counts[cache["result"]] = counts.get(cache["result"], 0) + 1
            if st.ended:  # a lazy backward compile: keep the compile's metrics current
                yield self._end(cid, st, {})
            if cache["cache"] == "fx_graph" and record.ref is not None:
                yield self._artifact_stage(cid, st, record)
                st.inductor_part = None  # the FX graph cache result closes one Inductor compile
                return
        bytecode = _BYTECODE_RE.search(name)
        if bytecode and record.ref is not None:
            stage_id = "bytecode_before" if bytecode.group(1) == "ORIGINAL" else "bytecode_after"
            yield self._stage(cid, st, stage_id, record, meta={"artifact": name})
            return
        if record.ref is not None:  # an artifact without a payload has nothing to show
            yield self._artifact_stage(cid, st, record)

    def _artifact_stage(self, cid: str, st: _CompileState, record: Record) -> dict[str, Any]:
        name = record.name
        stage_id = "artifact_" + re.sub(r"\W", "_", name)
        encoding = record.meta.get("encoding", "") if isinstance(record.meta, dict) else ""
        return self._stage(
            cid,
            st,
            stage_id,
            record,
            part=st.inductor_part or "",
            title=f"Artifact {name}",
            language="json" if encoding == "json" else ("python" if "graph" in name else "text"),
            meta={"artifact": name, "encoding": encoding},
        )

    def _not_captured(self, cid: str, st: _CompileState) -> Iterator[dict[str, Any]]:
        for stage_id in MAYBE_MISSING:
            if not any(stage_catalog.split_key(k)[0] == stage_id for k in st.keys):
                st.keys.add(stage_id)
                yield {
                    "type": "stage",
                    "compile_id": cid,
                    "stage": stage_id,
                    "status": "not_captured",
                    "reason": NOT_IN_TRACE,
                }

    # ----- helpers -------------------------------------------------------------------
    def _part(self, st: _CompileState) -> str:
        return st.inductor_part if st.inductor_part is not None else self._next_part(st)

    def _next_part(self, st: _CompileState) -> str:
        """The part the next Inductor compile of this frame builds."""
        if st.aot_mode == "inference":
            return "inference"
        if st.aot_mode == "training":
            return "backward" if "kernel_source.forward" in st.keys else "forward"
        return ""

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
    ) -> dict[str, Any]:
        artifact = stage_id.startswith("artifact_")
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
        ev: dict[str, Any] = {
            "type": "stage",
            "compile_id": cid,
            "stage": stage_id,
            "part": part,
            "elapsed_s": max(0.0, record.time_s - st.started_s),
            "meta": full_meta,
            "_loader": record.ref.read if record.ref is not None else None,
        }
        if title:
            ev["title"] = title
        if language:
            ev["language"] = language
        if kernels is not None:
            ev["_kernels"] = kernels
        return ev


# ----- payload parsing ---------------------------------------------------------------
def _json(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text or "")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _graph_meta(record: Record) -> dict[str, Any]:
    md = record.meta if isinstance(record.meta, dict) else {}
    return {"sizes": md["sizes"]} if isinstance(md.get("sizes"), dict) else {}


def _metrics_dict(md: Any) -> dict[str, Any]:
    """Compilation metrics worth showing: times, counts, reasons; not the config dumps."""
    if not isinstance(md, dict):
        return {}
    out: dict[str, Any] = {}
    for k, v in md.items():
        if v is None or v == [] or v == "" or k.endswith("_config") or k in _METRICS_LEFT_OUT:
            continue
        if isinstance(v, str) and len(v) > _BIG_METRIC:
            continue
        if isinstance(v, (int, float, str, bool)) or k == "restart_reasons":
            out[k] = v
    return out


# ----- public API ----------------------------------------------------------------------
def iter_trace_events(path: str | Path, stats: TraceStats | None = None) -> Iterator[dict[str, Any]]:
    """Session events for the log at `path`, produced while it streams (see `apply_event`)."""
    stats = stats if stats is not None else TraceStats()
    converter = TraceConverter(stats)
    yield from converter.events(read_records(path, stats))


def apply_event(session: Session, ev: dict[str, Any]) -> None:
    """`Session.apply`, plus what only trace events carry: loaders, lazy kernels, trace info."""
    kind = ev.get("type")
    if kind == "trace_info":
        if ev.get("torch_version"):
            session.torch_version = ev["torch_version"]
        if ev.get("rank") is not None and session.rank is None:
            session.rank = ev["rank"]
        return
    session.apply(ev)
    if kind == "stage":
        stage = session.stage(ev["compile_id"], stage_catalog.stage_key(ev["stage"], ev.get("part", "")))
        if stage is not None:
            stage.loader = ev.get("_loader")
            if ev.get("_kernels") is not None:
                stage.kernels = ev["_kernels"]


def new_trace_session(path: str | Path) -> Session:
    return Session(script=str(path), argv=[], origin="trace", state=LOADED)


def finish_session(session: Session, stats: TraceStats) -> None:
    """Record what was skipped, as notes and in `trace_stats`."""
    session.trace_stats = stats.as_dict()
    for problem in stats.problems():
        session.notes.append(f"{Path(session.script).name}: {problem}")
    for comp in session.compiles.values():
        if comp.status == "compiling":
            comp.status = "failed"
            comp.error = comp.error or "the log ends before this compile finished"
