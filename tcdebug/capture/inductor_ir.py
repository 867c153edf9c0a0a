"""`inductor_ir_pre_fusion` / `inductor_ir_post_fusion`: the scheduler's IR, from the
artifact loggers of `torch._inductor.debug`. Fusion decisions come from the `fusion`
artifact logger and are attached to the post-fusion stage."""

from __future__ import annotations

import logging

from tcdebug.capture.base import CaptureContext, artifact_logger_handler

STAGES = ("inductor_ir_pre_fusion", "inductor_ir_post_fusion")

PRE = "torch._inductor.debug.__ir_pre_fusion"
POST = "torch._inductor.debug.__ir_post_fusion"
FUSION = "torch._inductor.scheduler.__fusion"


def install(ctx: CaptureContext) -> None:
    torch = ctx.torch
    from torch._inductor import debug as inductor_debug  # noqa: F401 - the loggers live there

    if not hasattr(inductor_debug, "ir_pre_fusion_log"):
        raise RuntimeError("this torch has no ir_pre_fusion artifact logger")
    rec = ctx.recorder
    fusion_lines: list[str] = []

    def current_cid() -> str | None:
        try:
            cid = torch._guards.CompileContext.current_compile_id()
        except Exception:  # noqa: BLE001
            cid = None
        return str(cid) if cid is not None else rec.current

    def on_fusion(record: logging.LogRecord) -> None:
        fusion_lines.append(record.getMessage())

    def on_ir(stage_id: str):  # noqa: ANN202
        def handle(record: logging.LogRecord) -> None:
            cid = current_cid()
            if cid is None:
                return
            meta = {}
            if stage_id == "inductor_ir_post_fusion" and fusion_lines:
                meta["fusion_log"] = "\n".join(fusion_lines)
                fusion_lines.clear()
            if stage_id == "inductor_ir_pre_fusion":
                fusion_lines.clear()
            rec.stage(cid, stage_id, record.getMessage(), part=rec.inductor_part(cid), meta=meta)

        return handle

    for name, handler in (
        (PRE, artifact_logger_handler(on_ir("inductor_ir_pre_fusion"))),
        (POST, artifact_logger_handler(on_ir("inductor_ir_post_fusion"))),
        (FUSION, artifact_logger_handler(on_fusion)),
    ):
        log = logging.getLogger(name)
        log.setLevel(logging.DEBUG)
        log.propagate = False
        log.addHandler(handler)
        ctx.options.artifact_handlers.append((name, handler))
