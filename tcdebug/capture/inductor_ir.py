"""`inductor_ir_pre_fusion` / `inductor_ir_post_fusion`: the scheduler's IR, from the
artifact loggers of `torch._inductor.debug`. Fusion decisions come from the `fusion`
artifact logger and are attached to the post-fusion stage."""

from __future__ import annotations

import logging
import re
from typing import Any

from tcdebug.capture.base import CaptureContext, artifact_logger_handler

STAGES = ("inductor_ir_pre_fusion", "inductor_ir_post_fusion")

PRE = "torch._inductor.debug.__ir_pre_fusion"
POST = "torch._inductor.debug.__ir_post_fusion"
FUSION = "torch._inductor.scheduler.__fusion"


LOOP_BODY_CHECKS = 8  # loop bodies printed both ways before the cheap way is trusted
_DEL_SUFFIX = re.compile(r";[^\n]*")


def _block_text(block: Any, name: str) -> str:
    """What `LoopBodyBlock.debug_str(name)` prints, from the graph's code alone: torch builds a
    throwaway `GraphModule` (copying attributes, compiling its code) per block only to read
    its `.code`, which is `graph.python_code(root_module="self").src`."""
    code = block.graph.python_code(root_module="self").src
    return _DEL_SUFFIX.sub("", code.strip().replace("def forward(", f"def {name}("))


def print_loop_bodies_cheaply(block_class: Any) -> None:
    """Print the IR's loop bodies (`LoopBodyBlock.debug_str`) without a GraphModule per block:
    about half of the IR stages' cost, which a plain run does not pay. The first
    `LOOP_BODY_CHECKS` blocks are printed both ways; if any text differs, or the cheap way
    fails, torch's own printing is used from then on, so the stage is always torch's text."""
    original = block_class.debug_str
    state = {"checked": 0, "trusted": True}

    def debug_str(self: Any, name: str = "block") -> str:
        if not state["trusted"]:
            return original(self, name)
        try:
            text = _block_text(self, name)
        except Exception:  # noqa: BLE001 - torch's own way, from now on
            state["trusted"] = False
            return original(self, name)
        if state["checked"] < LOOP_BODY_CHECKS:
            state["checked"] += 1
            torch_text = original(self, name)
            if torch_text != text:
                state["trusted"] = False
                return torch_text
        return text

    debug_str.__wrapped__ = original  # type: ignore[attr-defined]
    block_class.debug_str = debug_str


def install(ctx: CaptureContext) -> None:
    torch = ctx.torch
    from torch._inductor import debug as inductor_debug  # noqa: F401 - the loggers live there

    if not hasattr(inductor_debug, "ir_pre_fusion_log"):
        raise RuntimeError("this torch has no ir_pre_fusion artifact logger")
    rec = ctx.recorder
    fusion_lines: list[str] = []
    try:
        from torch._inductor.loop_body import LoopBodyBlock

        if callable(getattr(LoopBodyBlock, "debug_str", None)):
            print_loop_bodies_cheaply(LoopBodyBlock)
    except ImportError:
        pass  # an older torch: its own printing

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
