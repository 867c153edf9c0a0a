"""`source` and `bytecode_before`: the user's frame as Dynamo starts on it."""

from __future__ import annotations

import dis
import functools
import inspect
import io
import linecache
import os
import re
import sys
from types import CodeType, FrameType
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext
from tcdebug.capture.calls import CallLog
from tcdebug.model.payloads import Frame
from tcdebug.process.our_frames import is_ours
from tcdebug.torchtext.dynamo_text import is_torch_file

STAGES = ("source", "bytecode_before")
COMPILE_CODE = patches.frame_local(
    "torch._dynamo.convert_frame",
    "_compile",
    "code",
    unit="frame",
    breaks="source, bytecode_before: not captured; compiles are not named by their function",
)
COMPILE_BACKEND = patches.frame_local(
    "torch._dynamo.convert_frame",
    "_compile",
    "compiler_fn",
    unit="frame",
    breaks="why (`w`): the compile's backend is not named",
)


def find_compile_frame(torch: Any) -> FrameType | None:
    """The running `convert_frame._compile` frame: its locals hold the code being compiled."""
    target = COMPILE_CODE.get().__code__
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_code is target:
            return frame
        frame = frame.f_back
    return None


def backend_name(compiler_fn: Any) -> str:
    """`aot_eager`, `eager`, a custom backend's function name (the `__name__` Dynamo's own
    messages use); "" when torch does not say."""
    name = getattr(compiler_fn, "compiler_name", None)
    if not isinstance(name, str):
        name = getattr(compiler_fn, "__name__", None)
    return name if isinstance(name, str) else ""


@functools.lru_cache(maxsize=8)  # the frame unit and the provenance unit list the same code
def dis_listing(code: CodeType, title: str) -> str:
    buf = io.StringIO()
    buf.write(f"# {title}: {code.co_name}  ({code.co_filename}:{code.co_firstlineno})\n")
    buf.write(f"# args: {', '.join(code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]) or '-'}\n")
    buf.write(f"# locals: {', '.join(code.co_varnames) or '-'}\n\n")
    dis.dis(code, file=buf, depth=0)
    return buf.getvalue()


_DEF_LINE = re.compile(r"^(\s*def\s)|(\s*async\s+def\s)|(.*(?<!\w)lambda(:|\s))|^(\s*@)")  # inspect's


def source_lines(code: CodeType) -> tuple[list[str], int]:
    """`inspect.getsourcelines(code)`, reading a file on disk straight from linecache: inspect
    first maps the file to its module (`inspect.getmodule`), which walks every loaded module,
    a tenth of a second with torch loaded, only to hand linecache the module's loader, which a
    file on disk does not need. Where the code's first line is not a `def`, decorator or lambda
    (inspect then searches upwards, differently across Python versions) inspect does it all."""
    lnum = code.co_firstlineno - 1
    if lnum >= 0 and os.path.isfile(code.co_filename):
        linecache.checkcache(code.co_filename)
        lines = linecache.getlines(code.co_filename)
        if lnum < len(lines) and _DEF_LINE.match(lines[lnum]):
            return inspect.getblock(lines[lnum:]), lnum + 1
    return inspect.getsourcelines(code)


@functools.lru_cache(maxsize=8)
def source_text(code: CodeType) -> tuple[str, int]:
    """The frame's source under a `# File:` header line; returns (text, line offset).

    Line i (1-based) of the text is line i + offset of the file.
    """
    try:
        lines, start = source_lines(code)
    except (OSError, TypeError) as exc:
        return f"# source not available for {code.co_name}: {exc}\n", 0
    start = max(start, 1)
    end = start + len(lines) - 1
    header = f"# File: {code.co_filename}, lines {start}-{end}, in {code.co_name}\n"
    return header + "".join(lines), start - 2


def call_sites(frame: FrameType | None, code: CodeType) -> list[Frame]:
    """The user's frames that led to the compiled code, outermost first, that code last: the live
    compile's stack for the stack trie. Read from Python's own stack (the log's `dynamo_start`
    stack names its files by torch's intern table); torch's frames and tcdebug's are left out, as
    a log's stack leaves out torch's, and only the user's lines are read."""
    sites: list[Frame] = []
    while frame is not None:
        fcode = frame.f_code
        filename = fcode.co_filename
        if not is_ours(filename) and not is_torch_file(filename):
            line = frame.f_lineno or 0
            sites.append(Frame(file=filename, line=line, name=fcode.co_name, code=_line_text(filename, line, frame)))
        frame = frame.f_back
    sites.reverse()
    return [*sites, Frame(file=code.co_filename, line=code.co_firstlineno, name=code.co_name)]


def _line_text(filename: str, line: int, frame: FrameType) -> str:
    """The stripped text of a line of a user's frame, "" where it cannot be read (a loader of the
    user's that fails must not cost the compile its start)."""
    try:
        return linecache.getline(filename, line, frame.f_globals).strip()
    except Exception:  # noqa: BLE001
        return ""


def install(ctx: CaptureContext) -> None:
    torch = ctx.torch
    COMPILE_CODE.require()
    rec = ctx.recorder

    def on_start(cid: str, md: dict[str, Any], payload: str | None) -> None:
        frame = find_compile_frame(torch)
        code = COMPILE_CODE.read_local(frame)
        stack = (md.get("dynamo_start") or {}).get("stack") or []
        if isinstance(code, CodeType):
            try:
                sites = call_sites(frame, code)
            except Exception:  # noqa: BLE001 - the compile is still named and started
                sites = []
            rec.compile_start(
                cid,
                function=code.co_name,
                filename=code.co_filename,
                firstlineno=code.co_firstlineno,
                stack=sites,
            )
            rec.state(cid).backend = backend_name(COMPILE_BACKEND.read_local(frame))
            calls = ctx.options.shared(CallLog)
            if calls is not None:
                calls.saw_compile(code)  # which frame of a decorated function Dynamo compiles
            rec.code_objects[cid] = code
            text, first = source_text(code)
            rec.stage(
                cid,
                "source",
                text,
                meta={"filename": code.co_filename, "line_offset": first, "function": code.co_name},
            )
            rec.stage(cid, "bytecode_before", dis_listing(code, "original bytecode"))
        else:
            last = stack[-1] if stack else {}
            rec.compile_start(
                cid,
                function=str(last.get("name", "?")),
                filename="",
                firstlineno=last.get("line", 0),
            )
            rec.not_captured(cid, "source", "could not find the frame Dynamo is compiling")
            rec.not_captured(cid, "bytecode_before", "could not find the frame Dynamo is compiling")

    ctx.handler.on("dynamo_start", on_start)
