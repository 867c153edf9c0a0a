"""`dynamo_graph` and the AOTAutograd graphs: readable FX graphs from the structured trace."""

from __future__ import annotations

from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext
from tcdebug.model.stages import DYNAMO_GRAPH
from tcdebug.model.trace_format import FX_GRAPH_KEYS

STAGES = tuple(FX_GRAPH_KEYS.values())
GRAPH_BEING_COMPILED = patches.declare(
    "torch._functorch._aot_autograd.logging_utils",
    "graph_being_compiled",
    unit="graphs",
    breaks="AOT and Inductor stages of split graphs (DDPOptimizer): parts placed by order",
    kind=patches.READS,
)


def aot_mode(torch: Any) -> str:
    """What AOTAutograd will build for the graph Dynamo is handing over: "training" (joint,
    forward, backward) or "inference", by AOTAutograd's own rule (grad mode on and a graph input
    that requires grad). Read from the tracing Dynamo frame; "" when it cannot be read. Inferred,
    so the UI only uses it to leave out pending rows for graphs that will not come."""
    try:
        from torch._dynamo.symbolic_convert import InstructionTranslator

        tx = InstructionTranslator.current_tx()
        nodes = list(tx.output.graph.nodes) if tx is not None else None
    except Exception:  # noqa: BLE001 - private API: without it, the UI shows both possibilities
        return ""
    if nodes is None:
        return ""
    if not torch.is_grad_enabled():
        return "inference"
    for node in nodes:
        if node.op == "placeholder":
            value = node.meta.get("example_value")
            if isinstance(value, torch.Tensor) and value.requires_grad:
                return "training"
    return "inference"


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder
    torch = ctx.torch
    # the AOTAutograd graph being compiled (`['1_backward']`): which subgraph Inductor builds;
    # without it, the recorder infers the part from the stages so far
    if not GRAPH_BEING_COMPILED.missing():
        rec.aot_graph_name = lambda: GRAPH_BEING_COMPILED.get(None)

    def make(key: str, stage_id: str):  # noqa: ANN202
        def on_graph(cid: str, md: dict[str, Any], payload: str | None) -> None:
            meta = {}
            sizes = (md.get(key) or {}).get("sizes") if isinstance(md.get(key), dict) else None
            if sizes:
                meta["sizes"] = sizes
            if stage_id == DYNAMO_GRAPH:
                mode = aot_mode(torch)
                if mode:
                    meta["aot_mode"] = mode  # inferred, see aot_mode
            rec.stage(cid, stage_id, payload or "", meta=meta)

        return on_graph

    for key, stage_id in FX_GRAPH_KEYS.items():
        ctx.handler.on(key, make(key, stage_id))
