"""`kernel_source`: Inductor's output code, split into its kernels.

On GPU, `triton_kernel_info` artifacts add autotune configs and kernel metadata.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import Any

from tcdebug.capture.base import CaptureContext
from tcdebug.kernels import split_output_code

STAGES = ("kernel_source",)
_AOT_ID = re.compile(r"# AOT ID: \['\d+_(forward|backward|inference)'\]")


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder
    kernel_info: dict[str, dict[str, Any]] = {}

    def on_kernel_info(cid: str, md: dict[str, Any], payload: str | None) -> None:
        try:
            info = json.loads(payload or "{}")
        except ValueError:
            return
        if isinstance(info, dict):
            kernel_info.update({k: v for k, v in info.items() if isinstance(v, dict)})

    def on_output_code(cid: str, md: dict[str, Any], payload: str | None) -> None:
        code = payload or ""
        m = _AOT_ID.search(code[:500])
        part = m.group(1) if m else rec.inductor_part(cid)
        kernels = split_output_code(code)
        for kernel in kernels:
            info = kernel_info.get(kernel.name)
            if info:
                kernel.meta["triton_kernel_info"] = info
        meta = {
            "path": (md.get("inductor_output_code") or {}).get("filename", ""),
            "kernel_count": len(kernels),
        }
        rec.stage(cid, "kernel_source", code, part=part, kernels=[asdict(k) for k in kernels], meta=meta)

    ctx.handler.on("inductor_output_code", on_output_code)
    ctx.handler.on("artifact:triton_kernel_info", on_kernel_info)
