"""Helpers for pilot tests of the real app (imported by the UI tests)."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.pilot import Pilot

from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.main_screen import MainScreen


async def wait_until(
    pilot: Pilot, condition: Callable[[], bool], timeout: float = 120.0, what: str = ""
) -> None:
    """Let the app run until `condition()` holds; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what or condition}")
        await pilot.pause(0.05)


def main_screen(app: TcdebugApp) -> MainScreen:
    return app.main_screen


def shown_text(app: TcdebugApp) -> str:
    """The text the stage view shows now."""
    return main_screen(app).code.text


def header_text(app: TcdebugApp) -> str:
    return str(main_screen(app).query_one("#stage-header").render())


def status_text(app: TcdebugApp) -> str:
    return main_screen(app).query_one("StatusBar").state_plain  # type: ignore[attr-defined]
