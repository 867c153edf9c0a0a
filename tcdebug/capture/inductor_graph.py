"""`inductor_post_grad_graph`: the FX graph after Inductor's post-grad passes."""

from __future__ import annotations

from typing import Any

from tcdebug.capture.base import CaptureContext, stage_route

STAGES = ("inductor_post_grad_graph",)


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder

    def on_graph(cid: str, md: dict[str, Any], payload: str | None) -> None:
        rec.stage(cid, "inductor_post_grad_graph", payload or "", part=rec.inductor_part(cid))

    ctx.handler.on(stage_route("inductor_post_grad_graph"), on_graph)
