"""The one-line header: script, torch version and device, and the session state."""

from __future__ import annotations

import os

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Static

from tcdebug import session as model
from tcdebug.textsafe import safe_line

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def display_path(path: str) -> str:
    """A script path as short as it can be: relative to the working directory when inside it."""
    if not path or not os.path.isabs(path):
        return path
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def state_text(session: model.Session, *, busy: bool, read_only: bool, frame: int = 0) -> Text:
    """The right-hand part: the state, with a spinner while the target works."""
    if read_only:
        recorded = session.extra.get("recorded_state") or ""
        label = f"{session.origin}: {recorded}" if recorded else session.origin
        return Text(safe_line(label), "bold cyan")
    line = session.status_line.splitlines()[0] if session.status_line else ""
    if busy:
        return Text(safe_line(f"{SPINNER[frame % len(SPINNER)]} {line}…"), "bold yellow")
    style = {
        model.PAUSED: "bold green",
        model.FINISHED: "bold",
        model.FAILED: "bold red",
        model.DIED: "bold red",
        model.STOPPED: "bold",
    }.get(session.state, "")
    return Text(safe_line(line), style)


class StatusBar(Horizontal):
    """Shows `session.status_line`; call `update_from` after every change to the session."""

    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        dock: top;
        background: $panel;
        #status-info { width: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
        #status-state { width: auto; max-width: 70%; text-wrap: nowrap; text-overflow: ellipsis; padding: 0 1; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._frame = 0
        self._timer: Timer | None = None
        self._busy = False
        self._session: model.Session | None = None
        self._read_only = False

    def compose(self) -> ComposeResult:
        yield Static(id="status-info")
        yield Static(id="status-state")

    def update_from(
        self, session: model.Session, *, busy: bool, read_only: bool, breakpoints: set[str] | frozenset[str]
    ) -> None:
        self._session, self._busy, self._read_only = session, busy, read_only
        info = Text.assemble((" tcdebug ", "bold reverse"), " ")
        info.append(safe_line(display_path(session.script)) or "(no script)", "bold")
        if session.torch_version:
            info.append(safe_line(f" · torch {session.torch_version}"))
        device = session.shown_device()
        if device:
            info.append(safe_line(f" · {device}"))
        if breakpoints:
            info.append(" · ")
            info.append("● " + ",".join(sorted(breakpoints)), "red")
        self.query_one("#status-info", Static).update(info)
        self._paint_state()
        if busy and self._timer is None:
            self._timer = self.set_interval(0.12, self._tick)
        elif not busy and self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        self._frame += 1
        self._paint_state()

    def _paint_state(self) -> None:
        if self._session is None:
            return
        text = state_text(self._session, busy=self._busy, read_only=self._read_only, frame=self._frame)
        self.query_one("#status-state", Static).update(text)

    @property
    def state_plain(self) -> str:
        if self._session is None:
            return ""
        return state_text(self._session, busy=self._busy, read_only=self._read_only, frame=self._frame).plain
