"""Graph breaks, recompile reasons and the end of each compile (compilation metrics)."""

from __future__ import annotations

import ast
from typing import Any

from tcdebug.capture.base import CaptureContext
from tcdebug.errors import headline

STAGES: tuple[str, ...] = ()
_METRIC_KEYS = (
    "co_name",
    "entire_frame_compile_time_s",
    "backend_compile_time_s",
    "inductor_compile_time_s",
    "code_gen_time_s",
    "guard_count",
    "shape_env_guard_count",
    "graph_op_count",
    "graph_node_count",
    "graph_input_count",
    "fail_type",
    "fail_reason",
    "restart_reasons",
    "cache_size",
    "accumulated_cache_size",
    "num_graph_breaks",
    "cudagraph_skip_reason",
    "dynamo_time_before_restart_s",
)


def split_graph_break(payload: str) -> tuple[str, list[str]]:
    """Dynamo's graph-break text -> (reason, user stack frames, innermost last).

    The payload is "Graph break in user code at F:L / Graph Break Reason: ... /
    User code traceback: <frames> / <Python traceback>". Frames of tcdebug and runpy
    (which run the user's script) are left out.
    """
    text = payload.strip()
    head, _, rest = text.partition("User code traceback:")
    loc = ""
    first = head.splitlines()[0] if head else ""
    if first.startswith("Graph break in user code at "):
        loc = first[len("Graph break in user code at ") :].strip()
    _, found, reason = head.partition("Graph Break Reason:")
    reason = (reason if found else head).strip()
    stack_text = rest.split("Traceback (most recent call last):")[0]
    frames: list[list[str]] = []
    for line in stack_text.splitlines():
        if line.lstrip().startswith('File "'):
            frames.append([line.rstrip()])
        elif frames and line.strip():
            frames[-1].append(line.rstrip())
    kept = [
        "\n".join(f)
        for f in frames
        if "/tcdebug/" not in f[0] and "<frozen runpy>" not in f[0] and "runpy.py" not in f[0]
    ]
    if not kept and loc:
        path, _, lineno = loc.rpartition(":")
        kept = [f'  File "{path}", line {lineno}']
    return reason, kept


def parse_recompile_reasons(payload: str) -> str:
    text = (payload or "").strip()
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    if isinstance(value, (list, tuple)):
        return "\n".join(str(v) for v in value)
    return str(value)


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder

    def on_graph_break(cid: str, md: dict[str, Any], payload: str | None) -> None:
        reason, stack = split_graph_break(payload or "")
        rec.send("graph_break", compile_id=cid, reason=reason, user_stack=stack)

    def on_recompile(cid: str, md: dict[str, Any], payload: str | None) -> None:
        rec.send("recompile", compile_id=cid, reason=parse_recompile_reasons(payload or ""))

    def on_metrics(cid: str, md: dict[str, Any], payload: str | None) -> None:
        metrics = md.get("compilation_metrics") or {}
        kept = {k: metrics.get(k) for k in _METRIC_KEYS if metrics.get(k) not in (None, [], "")}
        failed = bool(metrics.get("fail_type")) and not metrics.get("has_guarded_code", True)
        error = ""
        if metrics.get("fail_type"):
            error = f"{metrics.get('fail_type')}: {str(metrics.get('fail_reason') or '').strip()}".strip(": ")
        rec.compile_end(cid, status="failed" if failed else "ok", error=headline(error), metrics=kept)

    ctx.handler.on("artifact:dynamo_graph_break_reason", on_graph_break)
    ctx.handler.on("artifact:recompile_reasons", on_recompile)
    ctx.handler.on("compilation_metrics", on_metrics)
