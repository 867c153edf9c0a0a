"""Typed messages that carry work from threads into the app's message loop."""

from __future__ import annotations

from typing import Any

from textual.message import Message


class TargetEvent(Message):
    """One event from the target (a protocol dict), posted from a controller reader thread."""

    def __init__(self, event: dict[str, Any]) -> None:
        super().__init__()
        self.event = event


class TargetClosed(Message):
    """The controller finished closing the target (posted from the quit worker)."""


class TraceEvents(Message):
    """A batch of session events read from a TORCH_TRACE log by the streaming worker."""

    def __init__(self, events: list[dict[str, Any]], *, done: bool = False, stats: Any = None) -> None:
        super().__init__()
        self.events = events
        self.done = done
        self.stats = stats
