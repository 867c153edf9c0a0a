"""`inductor_pre_grad_graph`: the FX graph Inductor hands to AOTAutograd, after its pre-grad passes
(torch's `after_pre_grad_graph` artifact, logged once per Inductor compile)."""

from __future__ import annotations

from typing import Any

from tcdebug.capture.base import CaptureContext, stage_route

STAGES = ("inductor_pre_grad_graph",)


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder

    def on_graph(cid: str, md: dict[str, Any], payload: str | None) -> None:
        rec.stage(cid, "inductor_pre_grad_graph", payload or "")

    ctx.handler.on(stage_route("inductor_pre_grad_graph"), on_graph)
