"""`cudagraph`: CUDA graph capture under mode="reduce-overhead" (needs a CUDA device)."""

from __future__ import annotations

from tcdebug.capture.base import CaptureContext

STAGES = ("cudagraph",)


def install(ctx: CaptureContext) -> None:
    if not ctx.torch.cuda.is_available():
        ctx.recorder.mark_unavailable("cudagraph", "no CUDA device")
        return
