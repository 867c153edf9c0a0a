"""`ca_graph_pre_reordering` / `ca_graph`: compiled autograd's capture of a backward (`!N`).

Under `torch._dynamo.config.compiled_autograd`, each `.backward()` whose autograd graph is not in
compiled autograd's cache is traced into an FX graph, logged as `compiled_autograd_graph` (and, in
newer torch, as traced before its nodes are reordered), then handed to Dynamo, which compiles it as
`!N/F/C`. The capture has no Dynamo frame: it is a compile of its own in the session, keyed as
torch keys it in TORCH_TRACE logs. When compiled autograd's cache missed, torch says why
(`compiled_autograd_compile_reasons`): that is the capture's recompile reason.
"""

from __future__ import annotations

import linecache
import os
import sys
import sysconfig
from typing import Any

from tcdebug.capture.base import CaptureContext, stage_route
from tcdebug.model.events import Recompile
from tcdebug.model.trace_format import is_compiled_autograd_capture
from tcdebug.process.our_frames import is_ours
from tcdebug.torchtext.dynamo_text import compiled_autograd_reasons

STAGES = ("ca_graph_pre_reordering", "ca_graph")
REASONS = "artifact:compiled_autograd_compile_reasons"


def _library_dirs(torch_root: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(torch's folder and the standard library's, the site-packages folders inside them)."""
    paths = sysconfig.get_paths()
    stdlib = paths.get("stdlib", "")
    libraries = tuple(p for p in (torch_root, stdlib and os.path.join(stdlib, "")) if p)
    packages = tuple(os.path.join(p, "") for p in {paths.get("purelib", ""), paths.get("platlib", "")} if p)
    return libraries, packages


def backward_call(
    torch_root: str, libraries: tuple[str, ...], packages: tuple[str, ...]
) -> dict[str, Any] | None:
    """The innermost frame of the user's code on the stack (not torch's, the standard library's or
    tcdebug's; `_library_dirs` gives the folders): the line whose backward compiled autograd is
    capturing."""
    frame: Any = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        library = filename.startswith(libraries) and not (
            filename.startswith(packages) and not filename.startswith(torch_root)
        )
        if not library and not is_ours(filename) and not filename.startswith("<"):
            code = linecache.getline(filename, frame.f_lineno).strip()
            return {"file": filename, "line": frame.f_lineno, "name": frame.f_code.co_name, "code": code}
        frame = frame.f_back
    return None


def install(ctx: CaptureContext) -> None:
    torch = ctx.torch
    from torch._dynamo import compiled_autograd  # noqa: F401 - raises on a torch without it

    rec = ctx.recorder
    torch_root = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
    libraries, packages = _library_dirs(torch_root)
    started: set[str] = set()
    calls: dict[str, dict[str, Any]] = {}
    rec.fork_resets += [started.clear, calls.clear]  # a forked child's captures are its own

    def start(cid: str) -> bool:
        """Open the capture's compile once, without making it the compile in flight: records
        without a compile id still belong to the Dynamo compile that runs the backward."""
        if not is_compiled_autograd_capture(cid):
            return False
        if cid not in started:
            started.add(cid)
            rec.compile_start(cid, current=False)
            call = backward_call(torch_root, libraries, packages)
            if call is not None:
                calls[cid] = call
        return True

    def on_reasons(cid: str, md: dict[str, Any], payload: str | None) -> None:
        if start(cid):
            rec.emit(Recompile(compile_id=cid, reason=compiled_autograd_reasons(payload)))

    def on_traced(cid: str, md: dict[str, Any], payload: str | None) -> None:
        if start(cid):
            rec.stage(cid, "ca_graph_pre_reordering", payload or "")

    def on_graph(cid: str, md: dict[str, Any], payload: str | None) -> None:
        if not start(cid):
            return
        call = calls.pop(cid, None)
        rec.stage(cid, "ca_graph", payload or "", meta={"backward_call": call} if call else None)
        rec.compile_end(cid, status="ok", metrics={})

    ctx.handler.on(REASONS, on_reasons)
    ctx.handler.on(stage_route("ca_graph_pre_reordering"), on_traced)
    ctx.handler.on("compiled_autograd_graph", on_graph)
