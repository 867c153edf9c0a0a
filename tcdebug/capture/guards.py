"""`guards`: the guard tree Dynamo installed, each guard with the source that caused it."""

from __future__ import annotations

from typing import Any

from tcdebug.capture.base import CaptureContext, stage_route
from tcdebug.model.trace_format import count_guards

STAGES = ("guards",)


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder

    def on_guards(cid: str, md: dict[str, Any], payload: str | None) -> None:
        text = payload or ""
        rec.stage(cid, "guards", text.lstrip("\n"), meta={"guard_count": count_guards(text)})
        rec.flush_bytecode_after(cid)

    ctx.handler.on(stage_route("guards"), on_guards)
