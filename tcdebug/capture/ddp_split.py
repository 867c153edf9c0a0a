"""DDPOptimizer's graph splits: Dynamo's DDP optimizer (`torch._dynamo.backends.distributed`)
splits a DDP module's graph at gradient-bucket boundaries, so each bucket's all-reduce can start
while the backward still runs. Each split arrives as torch's `optimize_ddp_split_graph` record
(the split graph, one `submod_N` per bucket); tcdebug lists it with the compile's graph breaks,
its reason saying it was DDPOptimizer's split, not a Dynamo graph break."""

from __future__ import annotations

import re
from typing import Any

from tcdebug.capture.base import CaptureContext
from tcdebug.events import GraphBreak

STAGES: tuple[str, ...] = ()


def split_reason(payload: str) -> str:
    names = sorted(set(re.findall(r"\b(submod_\d+)\b", payload)), key=lambda n: int(n.split("_")[1]))
    parts = f" ({', '.join(names)})" if names else ""
    n = len(names) or "several"
    return (
        f"DDPOptimizer split (not a Dynamo graph break): {n} subgraphs{parts} at DDP gradient-bucket "
        "boundaries, one per bucket, so each bucket's all-reduce overlaps the backward "
        "(DistributedDataParallel with torch._dynamo.config.optimize_ddp); each subgraph's AOTAutograd "
        "and Inductor stages are its own: `subgraph N` is submod_N, subgraph 0 has the plain parts"
    )


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder

    def on_split(cid: str, md: dict[str, Any], payload: str | None) -> None:
        rec.emit(
            GraphBreak(compile_id=cid, reason=split_reason(payload or ""), user_stack=[], ddp_split=True)
        )

    ctx.handler.on("optimize_ddp_split_graph", on_split)
