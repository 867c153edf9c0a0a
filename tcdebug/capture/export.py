"""Live `torch.export` and AOTInductor compiles: the exported program, its constraints, the
AOTInductor wrapper and kernels.

Neither has a Dynamo frame id (tlparse shows `[-/-]`): the trace records they log carry no
`frame_id`. `FramelessCompiles` gives each such compile its own key (`tcdebug.torchtext.export_text.frameless_id`)
and the dispatcher routes their records there. `torch.export` logs its start and its program
only through `dtrace_structured` (off unless TORCH_DTRACE): those two records are let through,
and nothing else of the detailed trace (it is slow).
"""

from __future__ import annotations

import copy
import sys
from types import FrameType
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext
from tcdebug.capture.frame import source_text
from tcdebug.capture.kernel_source import KernelStages
from tcdebug.torchtext import export_text as aoti

STAGES = ("export_program", "aoti_wrapper")
EXPORT_RECORDS = ("export", "exported_program")
_EXPORT = "export_program: not captured (torch.export logs it only under TORCH_DTRACE)"
DTRACE_STRUCTURED = patches.declare("torch._logging", "dtrace_structured", unit="export", breaks=_EXPORT)
DTRACE_STRUCTURED_IN_EXPORT = patches.declare(
    "torch.export._trace", "dtrace_structured", unit="export", breaks=_EXPORT, kind=patches.REPLACES
)
EXPORT_MOD = patches.frame_local(
    "torch.export._trace",
    "_export",
    "mod",
    unit="export",
    breaks="export_program: the exported module's source is not shown",
)
# Records that begin an AOTInductor compile when none is open (the first one it logs).
AOTI_START = (
    "artifact:before_pre_grad_graph",
    "aot_inference_graph",
    "artifact:inductor_post_grad_graph",
    "graph_dump",
)
NO_FRAME = "{what} has no Dynamo frame: no bytecode, no Dynamo graph"


class FramelessCompiles:
    """The export / AOTInductor compile in flight, keyed `-/-`, `-/-#2`, ..."""

    def __init__(self, ctx: CaptureContext) -> None:
        self.ctx = ctx
        self.rec = ctx.recorder
        self.count = 0
        self.open: str | None = None
        self.kind = ""  # "export" or "aoti"
        self.saved_current: str | None = None

    def route(self, key: str, md: dict[str, Any]) -> str | None:
        """The compile a record without a frame id belongs to (opening one when it starts one)."""
        if key == "export" and self.open is None:
            return self.start("export", "torch.export")
        if key in AOTI_START and self.open is None:
            return self.start("aoti", "AOTInductor")
        return self.open

    def start(self, kind: str, label: str) -> str:
        self.count += 1
        cid = aoti.frameless_id(self.count)
        self.saved_current = self.rec.current
        module = _exporting_module()
        function = f"{label} {type(module).__name__}" if module is not None else label
        code = (
            getattr(getattr(type(module), "forward", None), "__code__", None) if module is not None else None
        )
        self.rec.compile_start(
            cid,
            function=function,
            filename=code.co_filename if code is not None else "",
            firstlineno=code.co_firstlineno if code is not None else 0,
        )
        self.open, self.kind = cid, kind
        what = "torch.export (non-strict)" if kind == "export" else "AOTInductor (an exported program)"
        for stage_id in ("bytecode_before", "dynamo_graph", "bytecode_after"):
            self.rec.not_captured(cid, stage_id, NO_FRAME.format(what=what))
        if kind == "aoti":
            self.rec.not_captured(
                cid, "source", "AOTInductor compiles an exported program, not Python source"
            )
            self.rec.not_captured(cid, "guards", "AOTInductor adds no guards: see the export's constraints")
        elif code is not None:
            text, first = source_text(code)
            meta = {"filename": code.co_filename, "line_offset": first, "function": code.co_name}
            self.rec.stage(cid, "source", text, meta=meta)
        else:
            self.rec.not_captured(cid, "source", "could not find the module torch.export is exporting")
        return cid

    def end(self, cid: str, *, send_end: bool) -> None:
        if cid != self.open:
            return
        if send_end:
            self.rec.compile_end(cid, status="ok", metrics={})
        self.rec.finalize(cid, final=True)
        self.open = None
        self.rec.current = self.saved_current


def _exporting_module() -> Any:
    """The module `torch.export.export` is working on (its `mod` argument), from the stack."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if "/torch/export/" in frame.f_code.co_filename.replace("\\", "/"):
            value = EXPORT_MOD.read_local(frame)
            if value is not None and hasattr(type(value), "forward"):
                return value
        frame = frame.f_back
    return None


def _let_export_records_through(torch: Any) -> None:
    """`torch.export` logs its start and program with `dtrace_structured` only, which sends a
    record only under `TORCH_DTRACE`: those two records go to `trace_structured` instead. The
    export modules take the function by name from `torch._logging` when they are imported, so the
    package's name is replaced (without importing `torch.export._trace`: a script that never
    exports does not pay for its imports), and the module's, where it is imported already."""
    trace_structured = torch._logging.trace_structured

    def make(original: Any) -> Any:
        def dtrace_structured(name: str, *args: Any, **kwargs: Any) -> Any:
            if name in EXPORT_RECORDS:
                return trace_structured(name, *args, **kwargs)
            return original(name, *args, **kwargs)

        return dtrace_structured

    original = patches.wrap(DTRACE_STRUCTURED, make)
    trace_mod: Any = sys.modules.get("torch.export._trace")
    if trace_mod is not None and getattr(trace_mod, "dtrace_structured", None) is original:
        patches.replace(DTRACE_STRUCTURED_IN_EXPORT, DTRACE_STRUCTURED.get(), owner=trace_mod)


def install(ctx: CaptureContext) -> None:
    torch = ctx.torch
    rec = ctx.recorder
    tracker = FramelessCompiles(ctx)
    ctx.handler.frameless = tracker.route
    _let_export_records_through(torch)

    def on_program(cid: str, md: dict[str, Any], payload: str | None) -> None:
        text = payload or ""
        rec.stage(cid, "export_program", text)
        rec.stage(cid, "guards", aoti.export_constraints(text), language="text")
        tracker.end(cid, send_end=True)

    def on_graph_dump(cid: str, md: dict[str, Any], payload: str | None) -> None:
        name = (md.get("graph_dump") or {}).get("name", "")
        path = (md.get("graph_dump") or {}).get("filename", "")
        code = payload or ""
        if name == "inductor_aot_wrapper_code":
            rec.stage(cid, "aoti_wrapper", code, language="cpp", meta={"path": path})
        elif name == "inductor_aot_kernel_code":
            kernels = aoti.split_cpp_kernels(code)
            stages = ctx.options.shared(KernelStages)
            if stages is not None:
                stages.add(cid, "kernel_source.inference", kernels)
            meta = {"path": path, "kernel_count": len(kernels)}
            rec.stage(
                cid,
                "kernel_source",
                code,
                part="inference",
                language="cpp",
                kernels=[copy.deepcopy(k) for k in kernels],
                meta=meta,
            )

    def on_metrics(cid: str, md: dict[str, Any], payload: str | None) -> None:
        if tracker.open == cid and tracker.kind == "aoti":
            tracker.end(cid, send_end=False)  # the events unit sent compile_end

    ctx.handler.on("export", lambda cid, md, payload: None)  # routing it opens the compile
    ctx.handler.on("exported_program", on_program)
    ctx.handler.on("graph_dump", on_graph_dump)
    ctx.handler.on("compilation_metrics", on_metrics)
