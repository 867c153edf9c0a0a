"""The one-line header: script, torch version and device, and the session state."""

from __future__ import annotations

import os
import time

from rich.text import Text
from textual import events
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Static

from tcdebug.model import session as model
from tcdebug.textsafe import safe_line

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
SPINNER_PERIOD_S = 0.12


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


def _same_text(a: Text, b: Text | None) -> bool:
    """Same characters and styles (`Text.__eq__` leaves out the base style)."""
    return b is not None and a.plain == b.plain and a.style == b.style and a.spans == b.spans


STATE_MAX_SHARE = 0.7  # of the bar's width, padding included


def status_line(info: Text, state: Text, width: int) -> Content:
    """The bar's one line at `width` cells: `info` cut with an ellipsis where it meets the state,
    the state right-aligned with a space either side, at most `STATE_MAX_SHARE` of the width.
    Each part is converted as a widget of its own converts it (a base style stays Textual's)."""
    state_width = min(state.cell_len + 2, int(width * STATE_MAX_SHARE))
    line = Content.from_rich_text(info).truncate(max(width - state_width, 0), ellipsis=True, pad=True)
    right = Content.from_rich_text(state).truncate(max(state_width - 2, 0), ellipsis=True)
    return line + Content(" ") + right + Content(" ") if state_width >= 2 else line


class StatusBar(Static):
    """Shows `session.status_line`; call `update_from` after every change to the session.

    One widget that cuts its own line: a new state never needs a layout of the screen (two
    widgets, one as wide as the state, needed one whenever the state's width changed)."""

    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        dock: top;
        background: $panel;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self._frame = 0
        self._timer: Timer | None = None
        self._busy = False
        self._session: model.Session | None = None
        self._read_only = False
        self._info = Text()  # the texts on show
        self._state = Text()
        self._updated = 0.0  # when `update_from` last ran (monotonic)

    def update_from(
        self, session: model.Session, *, busy: bool, read_only: bool, breakpoints: set[str] | frozenset[str]
    ) -> None:
        self._session, self._busy, self._read_only = session, busy, read_only
        self._updated = time.monotonic()
        info = Text.assemble((" tcdebug ", "bold reverse"), " ")
        info.append(safe_line(display_path(session.script)) or "(no script)", "bold")
        if session.torch_version:
            info.append(safe_line(f" · torch {session.torch_version}"))
        device = session.shown_device()
        if device:
            info.append(safe_line(f" · {device}"))
        if session.stance != "default":
            info.append(safe_line(f" · stance {session.stance}"), "yellow")
        if session.cold:
            info.append(" · ")
            info.append("cold", "bold cyan")
        if breakpoints:
            info.append(" · ")
            info.append("● " + ",".join(sorted(breakpoints)), "red")
        info_changed = not _same_text(info, self._info)
        if info_changed:
            self._info = info
        self._paint_state(force=info_changed)
        if busy and self._timer is None:
            self._timer = self.set_interval(SPINNER_PERIOD_S, self._tick)
        elif not busy and self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        """The next spinner frame, when nothing else changed the bar for a whole frame: while
        the target streams events the state text moves anyway, and a frame of the spinner
        among them delays their repaints."""
        if time.monotonic() - self._updated < SPINNER_PERIOD_S:
            return
        self._frame += 1
        self._paint_state()

    def _paint_state(self, *, force: bool = False) -> None:
        """Repaint the bar if the state's text changed (or `force`: the info did)."""
        if self._session is None:
            return
        text = state_text(self._session, busy=self._busy, read_only=self._read_only, frame=self._frame)
        if not _same_text(text, self._state):
            self._state = text
            force = True
        if force:
            self._paint()

    def on_resize(self, event: events.Resize) -> None:
        self._paint()

    def _paint(self) -> None:
        self.update(status_line(self._info, self._state, self.size.width), layout=False)

    @property
    def info_plain(self) -> str:
        return self._info.plain

    @property
    def state_plain(self) -> str:
        if self._session is None:
            return ""
        return state_text(self._session, busy=self._busy, read_only=self._read_only, frame=self._frame).plain
