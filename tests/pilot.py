"""Helpers for pilot tests of the real app (imported by the UI tests)."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from textual.app import App
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


def screen_lines(app: App[Any]) -> list[str]:
    """What the terminal shows now, as plain lines (the app's own screenshot path, as text)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, legacy_windows=False, safe_box=False
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text().splitlines()


def column_text(lines: list[str], header: str, label: str) -> str:
    """Every line of the table whose header line holds `header`, cut to the column under `label`
    (from the label to the table's right border), joined without blanks: a wrapped cell reads whole."""
    top = next(i for i, line in enumerate(lines) if header in line and label in line)
    x = lines[top].index(label)
    cells = []
    for line in lines[top + 1 :]:
        if line.lstrip().startswith("╰"):
            break
        cells.append(line[x : line.rindex("│")])
    return "".join("".join(cells).split())
