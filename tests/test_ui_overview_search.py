"""The overview (`O`) and the search across every stage (`ctrl+f`), through the real pilot at 80x24,
on the committed dumps and logs (no compile needed)."""

from __future__ import annotations

from conftest import DATA
from pilot import main_screen, screen_lines, wait_until
from textual.widgets import Input, OptionList

from tcdebug.analysis.why import overview, top_reasons
from tcdebug.dump.loader import load_dump
from tcdebug.model.session import Compile, Session, Stage
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.messages import TraceEvents
from tcdebug.screens.overview_screen import OverviewScreen
from tcdebug.screens.search_screen import CHUNK, MAX_HITS, SearchScreen, search_stages, stage_snapshot
from tcdebug.screens.widgets.timeline import Ref
from tcdebug.trace import TraceStats, iter_trace_events, new_trace_session

SIZE = (80, 24)
TRACE = next((DATA / "traces" / "graph_breaks").glob("*.log"))


def option_texts(screen: OverviewScreen | SearchScreen, selector: str) -> list[str]:
    options = screen.query_one(selector, OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


# ----- the overview ---------------------------------------------------------------------------
def test_the_summary_top_reasons_and_the_overview_are_one_analysis():
    """The `--dump` summary's top reasons are the overview's first rows, written as text."""
    session = load_dump(DATA / "graph_breaks_cpu")
    sections = overview(session, 3)
    lines = top_reasons(session)
    assert lines[0] == "top reasons:"
    for section in sections:
        assert f"  {section.title}:" in lines
    [types] = [s for s in sections if s.kind == "break_types"]
    assert [f"    {r.count}x {r.text}" for r in types.rows] == lines[-len(types.rows) :]
    assert {r.compile_ids[0] for r in types.rows} == {"0/0", "1/0", "2/0"}
    assert len(overview(session, None)[0].rows) == len(session.compiles)  # every compile in the app


async def test_o_lists_top_reasons_and_enter_jumps_to_the_break():
    app = TcdebugApp(load_dump(DATA / "graph_breaks_cpu"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("O")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        rows = option_texts(screen, "#overview-rows")
        assert rows[0].startswith("most expensive compiles (4)")
        assert "graph break types (3)" in rows
        data_dependent = next(i for i, row in enumerate(rows) if "Data-dependent branching" in row)
        assert rows[data_dependent].endswith("→ 2/0")
        options = screen.query_one(OptionList)
        options.highlighted = data_dependent
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.main_screen
        assert main_screen(app).selected == Ref("2/0", item="break:0")
        assert "Data-dependent branching" in main_screen(app).code.text


async def test_the_overview_follows_a_log_as_it_is_read():
    """Opened before any compile arrived, it fills in as the log's events are applied."""
    app = TcdebugApp(new_trace_session(TRACE), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("O")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        assert option_texts(screen, "#overview-rows") == ["No compiles yet."]
        stats = TraceStats()
        events = list(iter_trace_events(TRACE, stats, children=False))
        app.post_message(TraceEvents(events, done=True, stats=stats))
        await wait_until(
            pilot,
            lambda: "graph break types (3)" in option_texts(screen, "#overview-rows"),
            20,
            "the overview",
        )
        assert any("Data-dependent branching" in line for line in screen_lines(app))


# ----- search across stages -------------------------------------------------------------------
def test_search_finds_every_line_with_compile_stage_line_and_column():
    session = load_dump(DATA / "graph_breaks_cpu")
    result = search_stages(stage_snapshot(session), "item")
    assert result is not None and not result.capped
    keys = {(hit.compile_id, hit.key.split(".")[0]) for hit in result.hits}
    assert ("1/0", "source") in keys and ("0/0", "bytecode_before") in keys
    for hit in result.hits:  # the line and the column point at the match, in the text the view shows
        stage = session.compiles[hit.compile_id].stages[hit.key]
        from tcdebug.screens.content import shown_text

        line = shown_text(stage).split("\n")[hit.line - 1]
        assert line == hit.text and line[hit.column : hit.column + 4].lower() == "item"
    assert search_stages(stage_snapshot(session), "ITEM").hits == []  # capitals: case-sensitive


def test_search_of_a_big_session_stops_at_the_cap_and_when_cancelled():
    session = Session(origin="dump")
    big = "\n".join(f"buf{i} = add(x, y)  # node {i}" for i in range(5000))
    for n in range(50):
        comp = Compile(compile_id=f"{n}/0", function="f", status="ok")
        comp.stages["inductor_ir_post_fusion.inference"] = Stage(
            "inductor_ir_post_fusion", part="inference", text=big
        )
        session.compiles[comp.compile_id] = comp
    stages = stage_snapshot(session)
    result = search_stages(stages, "add(")
    assert result is not None and result.capped and len(result.hits) == MAX_HITS
    assert result.stages == 1  # it stopped in the first stage
    calls = []
    assert (
        search_stages(stages, "no such text", should_stop=lambda: calls.append(1) or len(calls) > 3) is None
    )
    assert len(calls) == 4  # checked before each stage and after each piece of its text: stopped at once
    pauses = []
    result = search_stages(stages[:1], "node 4999", pause=lambda: pauses.append(1))
    assert result is not None and [(h.line, h.column) for h in result.hits] == [(5000, 23)]
    assert len(pauses) == len(big) // CHUNK + 1  # the UI thread gets the GIL between pieces


def test_search_lines_and_columns_hold_across_pieces_and_odd_cases():
    text = "".join(f"line {i} {'İx' if i % 7 == 0 else 'ab'} mark{i % 5}\n" for i in range(40000))
    stage = Stage("dynamo_graph", text=text)
    result = search_stages([("0/0", stage)], "mark3", limit=100_000)
    assert result is not None
    expected = [(n + 1, line.find("mark3")) for n, line in enumerate(text.split("\n")) if "mark3" in line]
    assert [(h.line, h.column) for h in result.hits] == expected


async def test_ctrl_f_searches_every_stage_and_enter_marks_the_line():
    app = TcdebugApp(load_dump(DATA / "graph_breaks_cpu"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+f")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SearchScreen) and isinstance(screen.focused, Input)
        await pilot.press(*"y.sum() > 0")
        await wait_until(pilot, lambda: bool(screen.hits), 20, "search results")
        assert len(screen.hits) == len(search_stages(stage_snapshot(app.session), "y.sum() > 0").hits)
        status = str(screen.query_one("#search-all-status").render())
        assert "matching lines in" in status
        rows = option_texts(screen, "#search-all-results")
        first = screen.hits[0]
        assert rows[0].startswith(f"{first.compile_id} {first.key}:{first.line}  ")
        # the last hit: the deepest line, in a later compile
        await pilot.press("enter")  # the box: to the results
        assert isinstance(screen.focused, OptionList)
        await pilot.press("end", "enter")
        await pilot.pause()
        hit = screen.hits[-1]
        main = main_screen(app)
        assert app.screen is main and main.selected == Ref(hit.compile_id, hit.key)
        code = main.code
        assert code.marked == {hit.line - 1}
        top = code.scroll_offset.y
        assert top <= hit.line - 1 < top + code.scrollable_content_region.height
        assert code.search_term == "y.sum() > 0" and code.matches[code.match_index].line == hit.line - 1
        # ctrl+f again: the last search is kept
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert isinstance(app.screen, SearchScreen) and app.screen.query_one(Input).value == "y.sum() > 0"


async def test_a_new_keystroke_replaces_the_running_search():
    app = TcdebugApp(load_dump(DATA / "graph_breaks_cpu"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+f")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await pilot.press(*"tor")
        await pilot.press(*"ch._dynamo_nothing")
        await wait_until(pilot, lambda: screen.term == "torch._dynamo_nothing" and not screen.searching, 20)
        await pilot.pause(0.3)
        assert screen.hits == [] and "no matches" in str(screen.query_one("#search-all-status").render())


async def test_a_hostile_session_shows_as_visible_text_in_the_overview_and_the_search(tmp_path):
    from hostile import hostile_dump
    from test_hostile_ui import FN, screen_text

    app = TcdebugApp(load_dump(hostile_dump(tmp_path / "dump")), read_only=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await pilot.press("O")
        await pilot.pause()
        assert isinstance(app.screen, OverviewScreen)
        text = screen_text(app)  # no raw control reaches the terminal
        assert f"recompile {FN}" in text and "[@click=app.quit]" in text
        await pilot.press("escape", "ctrl+f", *"graph")
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await wait_until(pilot, lambda: bool(screen.hits), 20, "search results")
        await pilot.pause()
        text = screen_text(app)
        assert f"graph {FN}" in text
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert app.screen is app.main_screen and app.is_running  # nothing clicked app.quit
