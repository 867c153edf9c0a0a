"""Inductor's records for the multi-rank analyses, live: each graph's collective schedule
(`inductor_collective_schedule`) and its runtime estimates with tensor metadata
(`inductor_runtime_and_tensor_meta`), kept as the artifact stages a TORCH_TRACE log gives, and the
order compiled graphs ran in (`graph_execution`), so that `tcdebug.trace.rank_records` compares
the ranks of a live job as it compares a log's."""

from __future__ import annotations

from typing import Any

from tcdebug.capture.base import CaptureContext
from tcdebug.model import records
from tcdebug.model.events import ExecutionOrder
from tcdebug.model.stages import artifact_stage_id
from tcdebug.torchtext.runtime_text import execution_order

ARTIFACTS = (records.COLLECTIVE_SCHEDULE, records.RUNTIME_AND_TENSOR_META)
STAGES: tuple[str, ...] = ()  # none of the catalogue's: these are `artifact_<name>` stages


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder

    def keep(name: str) -> Any:
        def on_artifact(cid: str, md: dict[str, Any], payload: str | None) -> None:
            if payload is None:
                return
            artifact = md.get("artifact")
            encoding = str(artifact.get("encoding", "")) if isinstance(artifact, dict) else ""
            rec.stage(
                cid,
                artifact_stage_id(name),
                payload,
                part=rec.inductor_part(cid),
                language="json" if encoding == "json" else "text",
                meta={"artifact": name, "encoding": encoding},
            )

        return on_artifact

    for name in ARTIFACTS:
        ctx.handler.on(f"artifact:{name}", keep(name))

    def on_execution_order(cid: str | None, md: dict[str, Any], payload: str | None) -> None:
        order = execution_order(payload)
        if order is not None:
            rec.emit(ExecutionOrder(order=order))

    ctx.handler.on(f"artifact:{records.EXECUTION_ORDER}", on_execution_order)
