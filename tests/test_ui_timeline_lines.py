"""The timeline widget (Line API) fed a TORCH_TRACE log event by event, as the app streams one.

Each partial sync must show exactly the rows a full build of the session shows: the streaming
path (`note_changes` + `sync(only_noted=True)`) rebuilds only the compiles it was told about.
"""

from __future__ import annotations

from conftest import DATA
from textual.app import App, ComposeResult

from tcdebug.model.events import Event
from tcdebug.screens.widgets.timeline import Ref, Timeline, TimelineState, build_rows
from tcdebug.trace import apply_event, find_trace_logs, iter_trace_events, new_trace_session


class TimelineApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Timeline(id="timeline")


def _streamed(name: str) -> list[list[Event]]:
    """The events of one recorded log, in batches of 7 (the app's reader batches them too)."""
    [log] = find_trace_logs(DATA / "traces" / name)
    events = list(iter_trace_events(log))
    return [events[i : i + 7] for i in range(0, len(events), 7)]


async def test_streamed_rows_match_a_full_build_after_every_batch(monkeypatch):
    from tcdebug.screens.widgets import timeline as timeline_module

    [log] = find_trace_logs(DATA / "traces" / "graph_breaks")
    session = new_trace_session(log)
    app = TimelineApp()
    async with app.run_test(size=(60, 20)) as pilot:
        timeline = app.query_one(Timeline)
        timeline.sync(session, TimelineState())
        timeline.focus()
        checked = 0
        full_builds: list[int] = []
        monkeypatch.setattr(timeline_module, "build_rows", lambda *a: full_builds.append(1) or build_rows(*a))
        batches = _streamed("graph_breaks")
        for batch in batches:
            for event in batch:
                apply_event(session, event)
            timeline.note_changes({getattr(event, "compile_id", None) or None for event in batch})
            timeline.sync(session, TimelineState(), only_noted=True)
            full = build_rows(session, TimelineState())  # this module's own: not counted
            assert timeline.refs() == [row.ref for row in full]
            assert [str(label) for label in timeline.labels()] == [str(row.label) for row in full]
            assert timeline.content_width == max(
                (row.label.cell_len for row in full if row.ref.item in ("", "pending", "artifacts")),
                default=0,
            )
            checked += 1
        assert checked > 10 and len(session.compiles) >= 4
        # The streaming path rebuilt every compile's rows only for a batch with a change it could
        # not place (the log's trace_info event, which names no compile).
        unplaced = [batch for batch in batches if any(not getattr(event, "compile_id", None) for event in batch)]
        assert len(full_builds) == len(unplaced) == 1
        # The cursor stayed where the user put it while rows came in, and moves over them.
        await pilot.press("home")
        assert timeline.highlighted_ref == timeline.refs()[0]
        await pilot.press("down", "down")
        assert timeline.highlighted_ref == timeline.refs()[2]
        await pilot.press("up", "up", "up")  # wraps around, as the OptionList did
        assert timeline.highlighted_ref == timeline.refs()[-1]


async def test_an_unknown_change_falls_back_to_a_full_build():
    [log] = find_trace_logs(DATA / "traces" / "graph_breaks")
    session = new_trace_session(log)
    app = TimelineApp()
    async with app.run_test(size=(60, 20)):
        timeline = app.query_one(Timeline)
        timeline.sync(session, TimelineState())
        for batch in _streamed("graph_breaks"):
            for event in batch:
                apply_event(session, event)
        # Nothing noted, but the caller says "something else changed" (None): every row rebuilt.
        timeline.note_changes([None])
        timeline.sync(session, TimelineState(), only_noted=True)
        assert timeline.refs() == [row.ref for row in build_rows(session, TimelineState())]
        assert Ref(next(iter(session.compiles))) in timeline.refs()


async def test_a_click_selects_a_row_and_a_click_on_a_compile_folds_it():
    from pilot import main_screen

    from tcdebug.dump.loader import load_dump
    from tcdebug.screens.app import TcdebugApp

    app = TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = main_screen(app)
        timeline = screen.timeline
        refs = timeline.refs()
        await pilot.click(timeline, offset=(3, 4))  # the border is row 0: the 4th row
        await pilot.pause()
        assert timeline.highlighted_ref == refs[3] and screen.selected == refs[3]
        rows = timeline.row_count
        await pilot.click(timeline, offset=(3, 1))  # the compile's own row: folds it
        await pilot.pause()
        assert timeline.highlighted_ref == Ref("0/0") and timeline.row_count < rows
