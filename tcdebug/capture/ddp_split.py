"""DDPOptimizer's graph splits: Dynamo's DDP optimizer (`torch._dynamo.backends.distributed`)
splits a DDP module's graph at gradient-bucket boundaries, so each bucket's all-reduce can start
while the backward still runs. Each split arrives as torch's `optimize_ddp_split_graph` record
(the split graph, one `submod_N` per bucket); tcdebug lists it with the compile's graph breaks,
its reason saying it was DDPOptimizer's split, not a Dynamo graph break."""

from __future__ import annotations

from typing import Any

from tcdebug.capture.base import CaptureContext
from tcdebug.model.events import GraphBreak
from tcdebug.model.trace_format import ddp_split_reason

STAGES: tuple[str, ...] = ()


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder

    def on_split(cid: str, md: dict[str, Any], payload: str | None) -> None:
        rec.emit(
            GraphBreak(compile_id=cid, reason=ddp_split_reason(payload or ""), user_stack=[], ddp_split=True)
        )

    ctx.handler.on("optimize_ddp_split_graph", on_split)
