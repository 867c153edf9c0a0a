"""The one-line header: what it shows at every width, and that a new state repaints the bar
without a layout of the whole screen (the state changes twice per step: running, then paused)."""

from __future__ import annotations

import time

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.screen import Screen

from tcdebug.model import session as model
from tcdebug.screens.widgets.status_bar import SPINNER_PERIOD_S, StatusBar, status_line

INFO = Text.assemble(
    (" tcdebug ", "bold reverse"), " ", ("samples/mlp.py", "bold"), " · torch 2.13.0+cpu · cpu"
)


def test_the_state_sits_right_and_the_info_gives_way_with_an_ellipsis():
    line = status_line(INFO, Text("paused at 0/0 source", "bold green"), 80)
    assert line.cell_length == 80
    assert (
        line.plain == " tcdebug  samples/mlp.py · torch 2.13.0+cpu · cpu" + " " * 9 + " paused at 0/0 source "
    )
    narrow = status_line(INFO, Text("paused at 0/0 source", "bold green"), 40)
    assert narrow.plain == " tcdebug  samples… paused at 0/0 source "


def test_a_long_state_takes_at_most_seventy_percent_and_is_cut_with_an_ellipsis():
    line = status_line(INFO, Text("failed: RuntimeError: " + "x" * 200, "bold red"), 100)
    assert line.cell_length == 100
    assert line.plain[:30] == " tcdebug  samples/mlp.py · to…"
    assert line.plain[30:] == " failed: RuntimeError: " + "x" * 45 + "… "


def test_tiny_widths_never_overflow():
    for width in range(0, 12):
        assert status_line(INFO, Text("paused", "bold"), width).cell_length <= max(width, 0)


class BarApp(App[None]):
    def compose(self) -> ComposeResult:
        yield StatusBar(id="status-bar")


async def test_a_new_state_repaints_the_bar_without_a_layout_of_the_screen(monkeypatch):
    layouts: list[int] = []
    original = Screen._refresh_layout

    def counted(self: Screen, *args: object, **kwargs: object) -> None:
        layouts.append(1)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    session = model.Session(script="samples/mlp.py", torch_version="2.13.0+cpu", device="cpu")
    app = BarApp()
    async with app.run_test(size=(80, 5)) as pilot:
        bar = app.query_one(StatusBar)
        bar.update_from(session, busy=False, read_only=False, breakpoints={"guards"})
        await pilot.pause()
        monkeypatch.setattr(Screen, "_refresh_layout", counted)
        for state, paused_at, busy in (
            (model.RUNNING, None, True),
            (model.PAUSED, ("0/0", "dynamo_graph"), False),
            (model.RUNNING, None, True),
            (model.FINISHED, None, False),
        ):
            session.state, session.paused_at = state, paused_at
            bar.update_from(session, busy=busy, read_only=False, breakpoints={"guards"})
            await pilot.pause()
            shown = bar.render_line(0).text
            assert shown.rstrip().endswith(bar.state_plain), (shown, bar.state_plain)
            assert shown.startswith(" tcdebug  samples/mlp.py")
        assert layouts == []
        bar.update_from(session, busy=False, read_only=False, breakpoints=set())
        await pilot.pause()
        assert "guards" not in bar.render_line(0).text and layouts == []


async def test_the_spinner_turns_while_the_target_is_quiet_and_waits_while_events_move_the_bar():
    session = model.Session(script="samples/mlp.py", state=model.RUNNING)
    app = BarApp()
    async with app.run_test(size=(80, 5)) as pilot:
        bar = app.query_one(StatusBar)
        bar.update_from(session, busy=True, read_only=False, breakpoints=set())
        first = bar.state_plain
        await pilot.pause(SPINNER_PERIOD_S * 4)  # quiet: the spinner turns
        assert bar.state_plain != first and bar.state_plain[1:] == first[1:]
        turned = bar.state_plain
        # Events keep coming, more often than the spinner's period, for three periods.
        start = last = time.monotonic()
        longest = 0.0
        while last - start < SPINNER_PERIOD_S * 3:
            bar.update_from(session, busy=True, read_only=False, breakpoints=set())
            await pilot.pause(0.01)
            now = time.monotonic()
            longest, last = max(longest, now - last), now
        if longest >= SPINNER_PERIOD_S:
            pytest.skip(f"the host paused the test for {longest:.2f} s: no gap-free stream of updates")
        assert bar.state_plain == turned
        assert bar.render_line(0).text.rstrip().endswith(turned)
