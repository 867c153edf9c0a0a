"""Guard provenance: for each guard Dynamo installed, the user stack it recorded (`Guard.user_stack`).

The guard tree text names only the innermost frame torch finds interesting, which for a module is
often torch's own code (`nn/modules/linear.py:134`). This unit keeps, per guard, the innermost frame
of the user's code (outside torch and tcdebug) and a few frames around it, and sends them as one
`guard_provenance` event per compile, after Dynamo built the guards (`CheckFunctionManager`)."""

from __future__ import annotations

import os
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext, current_compile_key
from tcdebug.model.events import GuardProvenance
from tcdebug.model.payloads import Frame, GuardOrigin
from tcdebug.process.our_frames import is_ours

STAGES: tuple[str, ...] = ()
MAX_GUARDS = 2000

CHECK_FUNCTION_MANAGER_INIT = patches.declare(
    "torch._dynamo.guards",
    "CheckFunctionManager.__init__",
    unit="guard_provenance",
    breaks="guards: the line of your code that installed each guard",
)


def _frames(stack: Any) -> list[Frame]:
    return [
        Frame(file=str(fs.filename), line=int(fs.lineno or 0), name=str(fs.name), code=str(fs.line or ""))
        for fs in stack or []
    ]


def provenance(guards: Any, torch_dir: str) -> list[GuardOrigin]:
    out = []
    for guard in list(guards or [])[:MAX_GUARDS]:
        frames = _frames(getattr(guard, "user_stack", None))
        if not frames:
            continue
        user = [f for f in frames if not f.file.startswith(torch_dir) and not is_ours(f.file)]
        try:
            kind = guard.create_fn_name()
        except Exception:  # noqa: BLE001
            kind = ""
        out.append(
            GuardOrigin(
                source=str(getattr(guard, "name", "")),
                kind=kind,
                user=user[-1] if user else None,  # the innermost frame of the user's code
                innermost=frames[-1],
            )
        )
    return out


def install(ctx: CaptureContext) -> None:
    torch = ctx.torch
    original = CHECK_FUNCTION_MANAGER_INIT.get()
    torch_dir = os.path.dirname(torch.__file__) + os.sep
    rec = ctx.recorder

    def init(self: Any, f_code: Any, output_graph: Any = None, *args: Any, **kwargs: Any) -> None:
        original(self, f_code, output_graph, *args, **kwargs)
        try:
            cid = current_compile_key(torch, rec)
            found = provenance(getattr(output_graph, "guards", None), torch_dir)
            if cid is not None and found:
                rec.emit(GuardProvenance(compile_id=cid, guards=found))
        except Exception:  # noqa: BLE001 - capture never breaks the compile
            pass

    patches.wrap(CHECK_FUNCTION_MANAGER_INIT, lambda _original: init)
