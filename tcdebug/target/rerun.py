"""Re-running compiled functions with changed inputs (filled in by the re-run feature)."""

from __future__ import annotations

from typing import Any


class RerunService:
    def __init__(self, torch: Any, recorder: Any, pauser: Any, ctx: Any) -> None:
        self.torch = torch
        self.recorder = recorder
        self.pauser = pauser
        self.ctx = ctx

    def handle(self, msg: dict[str, Any]) -> None:
        self.recorder.send("error", message="re-run is not available yet")
