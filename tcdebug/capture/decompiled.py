"""`bytecode_after_python`: the code Dynamo installed for the frame, decompiled to Python.

`depyf` (the field's decompiler) is an optional dependency (`pip install 'tcdebug[decompile]'`):
without it, or when it cannot decompile a code object, the stage says
`not decompilable: <reason>`. Sent right after `bytecode_after` (after the guards), never paused at.
"""

from __future__ import annotations

import time
from types import CodeType
from typing import Any

from tcdebug.capture.base import BYTECODE_HOOK, CaptureContext
from tcdebug.model import stages as stage_catalog
from tcdebug.model.events import StageEvent

STAGES = ("bytecode_after_python",)
STAGE = "bytecode_after_python"


def decompiler() -> tuple[Any, str]:
    """(depyf.decompile, "") or (None, why not)."""
    try:
        import depyf
    except ImportError:
        return None, "depyf is not installed (pip install depyf)"
    except Exception as exc:  # noqa: BLE001 - a broken install: say so, never fail the compile
        return None, f"depyf could not be imported: {type(exc).__name__}: {exc}"
    return depyf.decompile, ""


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder
    pending: dict[str, tuple[CodeType, CodeType]] = {}
    decompile, missing = decompiler()

    def hook(code: CodeType, new_code: CodeType) -> None:
        if rec.current is not None:
            pending[rec.current] = (code, new_code)
        return None

    def send(
        cid: str,
        *,
        status: str,
        reason: str = "",
        text: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        # A view of `bytecode_after`, not a step of the pipeline: sent without a pause point.
        st = rec.state(cid)
        kind = stage_catalog.kind(STAGE)
        rec.emit(
            StageEvent(
                compile_id=cid,
                stage=STAGE,
                part="",
                title=kind.title,
                language=kind.language,
                status=status,
                reason=reason,
                text=text,
                meta=meta or {},
                elapsed_s=round(time.perf_counter() - st.started - st.paused_s, 6),
                paused=False,
            )
        )

    def on_guards(cid: str, md: dict[str, Any], payload: str | None) -> None:
        codes = pending.pop(cid, None)
        if codes is None:
            return
        if decompile is None:
            send(cid, status="not_captured", reason=f"not decompilable: {missing}")
            return
        code, new_code = codes
        try:
            text = (
                f"# {new_code.co_name}: Dynamo's transformed code, decompiled by depyf\n{decompile(new_code)}"
            )
            if code.co_name.startswith("torch_dynamo_resume_in_"):
                # a resume function: the code it resumes, before what Dynamo made of it
                resumed = decompile(code)
                text = f"# the resumed code ({code.co_name}), decompiled by depyf\n{resumed}\n\n{text}"
        except Exception as exc:  # noqa: BLE001 - depyf gives up on some bytecode
            reason = f"not decompilable: {type(exc).__name__}: {str(exc)[:300]}"
            send(cid, status="not_captured", reason=reason)
            return
        send(cid, status="captured", text=text, meta={"decompiler": "depyf"})

    ctx.options.bytecode_hooks.append(BYTECODE_HOOK.get()(hook))
    ctx.handler.on("dynamo_cpp_guards_str", on_guards)
