"""`dynamo_graph` and the AOTAutograd graphs: readable FX graphs from the structured trace."""

from __future__ import annotations

from typing import Any

from tcdebug.capture.base import CaptureContext

STAGES = ("dynamo_graph", "aot_joint", "aot_forward", "aot_backward", "aot_inference")

# structured-trace key -> stage id
TRACE_KEYS = {
    "dynamo_output_graph": "dynamo_graph",
    "aot_joint_graph": "aot_joint",
    "aot_forward_graph": "aot_forward",
    "aot_backward_graph": "aot_backward",
    "aot_inference_graph": "aot_inference",
}


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder

    def make(key: str, stage_id: str):  # noqa: ANN202
        def on_graph(cid: str, md: dict[str, Any], payload: str | None) -> None:
            meta = {}
            sizes = (md.get(key) or {}).get("sizes") if isinstance(md.get(key), dict) else None
            if sizes:
                meta["sizes"] = sizes
            rec.stage(cid, stage_id, payload or "", meta=meta)

        return on_graph

    for key, stage_id in TRACE_KEYS.items():
        ctx.handler.on(key, make(key, stage_id))
