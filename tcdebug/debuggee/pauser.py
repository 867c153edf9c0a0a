"""Pause points: block the compiling thread until the controller says go on.

Commands arrive on the channel reader thread (`tcdebug.debuggee.command_reader`), which
calls `resume`, `set_breakpoints` or `stop` here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from tcdebug.model import event_breaks, protocol


class StopRequested(BaseException):
    """Raised at a pause point when the controller asked to stop the run."""


class Pauser:
    def __init__(self, mode: str, breakpoints: set[str]) -> None:
        self.mode = mode
        self.breakpoints = set(breakpoints)
        self.event_breaks = event_breaks.event_breaks(self.breakpoints)
        self._cond = threading.Condition()
        self._waiting = False
        self._released = False
        self.stop_requested = False
        self.enabled = True  # off while tcdebug itself runs compiled code (e.g. re-run checks)

    def should_pause(self, stage_id: str) -> bool:
        if not self.enabled or self.stop_requested:
            return False
        if self.mode == protocol.MODE_STEP:
            return True
        if self.mode == protocol.MODE_CONTINUE:
            return stage_id in self.breakpoints
        return False

    def pause_point(self, stage_id: str, announce: Callable[[bool], None]) -> float:
        """Announce a stage (with whether we pause) and wait if pausing. Returns seconds waited.
        Once the controller asked to stop (or left), every pause point raises `StopRequested`."""
        if self.stop_requested:
            raise StopRequested()
        with self._cond:
            paused = self.should_pause(stage_id)
            self._released = False
            self._waiting = paused
        announce(paused)
        if not paused:
            return 0.0
        return self._wait()

    def _wait(self) -> float:
        """Block until the next command releases the pause (or a stop ends it). Seconds waited."""
        start = time.perf_counter()
        with self._cond:
            while not self._released:
                self._cond.wait()
            self._waiting = False
        if self.stop_requested:
            raise StopRequested()
        return time.perf_counter() - start

    def resume(self, mode: str, breakpoints: list[str] | None = None) -> None:
        with self._cond:
            self.mode = mode
            if breakpoints is not None:
                self._set(breakpoints)
            self._released = True
            self._cond.notify_all()

    def set_breakpoints(self, breakpoints: list[str]) -> None:
        with self._cond:
            self._set(breakpoints)

    def _set(self, breakpoints: list[str]) -> None:
        self.breakpoints = set(breakpoints)
        self.event_breaks = event_breaks.event_breaks(self.breakpoints)

    def wants_event(self, kind: str) -> bool:
        """Is there a breakpoint on this event kind, so a unit should work out its facts?"""
        return self.enabled and not self.stop_requested and any(b.kind == kind for b in self.event_breaks)

    def event_break(self, facts: event_breaks.EventFacts) -> event_breaks.EventBreak | None:
        """The event breakpoint that stops at this event, if any (none once `g` ran the script free)."""
        if not self.enabled or self.stop_requested or self.mode == protocol.MODE_RUN:
            return None
        return event_breaks.first_match(list(self.event_breaks), facts)

    def event_pause(self, announce: Callable[[], None]) -> float:
        """Announce an event a breakpoint matched and wait for the next command. Seconds waited."""
        with self._cond:
            self._released = False
            self._waiting = True
        announce()
        return self._wait()

    def stop(self) -> None:
        with self._cond:
            self.stop_requested = True
            self._released = True
            self._cond.notify_all()

    @property
    def waiting(self) -> bool:
        return self._waiting
