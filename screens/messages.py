"""Typed messages that carry work from threads into the app's message loop."""

from __future__ import annotations

from typing import Any

from textual.message import Message

from tcdebug.model.events import Event


class TargetEvent(Message):
    """One typed event from the target (`tcdebug.model.events`), posted from a controller reader thread;
    the app folds it into the session, which says what changed (`tcdebug.model.session.Change`)."""

    def __init__(self, event: Event) -> None:
        super().__init__()
        self.event = event


class TargetClosed(Message):
    """The controller finished closing the target (posted from the quit worker)."""


class TraceEvents(Message):
    """A batch of session events read from a TORCH_TRACE log by the streaming worker."""

    def __init__(self, events: list[Event], *, done: bool = False, stats: Any = None) -> None:
        super().__init__()
        self.events = events
        self.done = done
        self.stats = stats
