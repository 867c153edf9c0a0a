"""`bytecode_after`: the transformed code object Dynamo installed for the frame."""

from __future__ import annotations

from types import CodeType

from tcdebug.capture.base import BYTECODE_HOOK, CaptureContext
from tcdebug.capture.frame import dis_listing

STAGES = ("bytecode_after",)


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder

    def hook(code: CodeType, new_code: CodeType) -> None:
        cid = rec.current
        if cid is None:
            return None
        rec.defer_bytecode_after(cid, {"text": dis_listing(new_code, "transformed bytecode")})
        return None

    ctx.options.bytecode_hooks.append(BYTECODE_HOOK.get()(hook))
