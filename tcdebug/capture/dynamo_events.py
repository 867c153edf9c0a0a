"""Graph breaks, recompile reasons and the end of each compile (compilation metrics)."""

from __future__ import annotations

from types import CodeType
from typing import Any

from tcdebug.capture.base import CaptureContext
from tcdebug.capture.frame import COMPILE_CODE, find_compile_frame
from tcdebug.model.events import CompileEnd, GraphBreak, Recompile
from tcdebug.torchtext.dynamo_text import (
    compile_outcome,
    recompile_reasons,
    restart_outcome,
    split_graph_break,
)

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
    # cumulative phase times (µs): where compile time went when no chromium events came
    "dynamo_cumulative_compile_time_us",
    "aot_autograd_cumulative_compile_time_us",
    "inductor_cumulative_compile_time_us",
    "inductor_code_gen_cumulative_compile_time_us",
    "triton_compile_time_us",
    "pre_grad_pass_time_us",
    "post_grad_pass_time_us",
    "joint_graph_pass_time_us",
)


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder
    torch = ctx.torch

    breaks: dict[str, list[str]] = {}  # compile key -> the graph-break payloads it logged
    rec.fork_resets.append(breaks.clear)

    def on_graph_break(cid: str, md: dict[str, Any], payload: str | None) -> None:
        reason, stack = split_graph_break(payload or "", hide_runner_frames=True)
        breaks.setdefault(cid, []).append(payload or "")
        rec.emit(GraphBreak(compile_id=cid, reason=reason, user_stack=stack))

    def restart_breaks(cid: str, reasons: Any) -> None:
        """The attempt `cid` restarted gets the cause its metrics name (`restart_outcome`), as the
        TORCH_TRACE reader gives it."""
        prev = rec.state(cid).restarted_from
        earlier: list[str] = []
        key = prev
        while key:
            earlier.append(key)
            key = rec.state(key).restarted_from
        error, new_breaks = restart_outcome(reasons, [r for k in earlier for r in breaks.get(k, [])])
        if not prev:
            return
        before = rec.state(prev)
        if error:
            rec.emit(CompileEnd(compile_id=prev, status="restarted", error=error, elapsed_s=before.elapsed_s))
        for text in new_breaks:
            breaks.setdefault(prev, []).append(text)
            rec.emit(GraphBreak(compile_id=prev, reason=text, user_stack=[]))

    def on_recompile(cid: str, md: dict[str, Any], payload: str | None) -> None:
        rec.emit(Recompile(compile_id=cid, reason=recompile_reasons(payload)))

    started: set[str] = set()  # compiles Dynamo logged a `dynamo_start` for
    rec.fork_resets.append(started.clear)  # a forked child's compiles are its own

    def on_start(cid: str, md: dict[str, Any], payload: str | None) -> None:
        started.add(cid)

    def on_metrics(cid: str, md: dict[str, Any], payload: str | None) -> None:
        metrics = md.get("compilation_metrics") or {}
        kept = {k: metrics.get(k) for k in _METRIC_KEYS if metrics.get(k) not in (None, [], "")}
        failed, error = compile_outcome(metrics)
        limit = getattr(torch._dynamo.config, "recompile_limit", None)
        if isinstance(limit, int):  # the hints' "near its recompile limit" (tcdebug.analysis.hints)
            kept["recompile_limit"] = limit
        restarted = bool(rec.state(cid).restarted_from)  # started by `Recording.restart`
        if cid not in started and not restarted and md.get("frame_id") is not None:  # a Dynamo frame's compile
            started.add(cid)
            start_unannounced(cid)
        if restarted:
            restart_breaks(cid, metrics.get("restart_reasons"))
        rec.compile_end(cid, status="failed" if failed else "ok", error=error, metrics=kept)

    def start_unannounced(cid: str) -> None:
        """A compile that ends without a `dynamo_start` (a frame refused at Dynamo's recompile
        limit; torch's metrics then name no function): its code, read from the `_compile` frame
        that logs the metrics, else nothing."""
        try:
            frame = find_compile_frame(torch)
        except Exception:  # noqa: BLE001 - a torch without `_compile`: the compile stays unnamed
            frame = None
        code = COMPILE_CODE.read_local(frame)
        if isinstance(code, CodeType):
            rec.compile_start(
                cid,
                current=False,
                function=code.co_name,
                filename=code.co_filename,
                firstlineno=code.co_firstlineno,
            )

    ctx.handler.on("dynamo_start", on_start)
    ctx.handler.on("artifact:dynamo_graph_break_reason", on_graph_break)
    ctx.handler.on("artifact:recompile_reasons", on_recompile)
    ctx.handler.on("compilation_metrics", on_metrics)
