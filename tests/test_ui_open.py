"""`tcdebug open` on a recorded dump: browsing, search, kernels, palette, help, output."""

from __future__ import annotations

import gc

from conftest import DATA
from pilot import header_text, main_screen, shown_text, status_text, wait_until
from textual.command import CommandList

from tcdebug.dump.loader import load_dump
from tcdebug.model.events import CompileStart
from tcdebug.screens.app import READ_ONLY_MESSAGE, TcdebugApp
from tcdebug.screens.help_screen import HelpScreen, keys_table
from tcdebug.screens.messages import TargetEvent
from tcdebug.screens.output_screen import OutputScreen
from tcdebug.screens.widgets.timeline import Ref, Timeline

MLP_DUMP = DATA / "mlp_cpu"


def open_app() -> TcdebugApp:
    return TcdebugApp(load_dump(MLP_DUMP), read_only=True)


async def test_opens_on_the_first_stage_and_walks_the_timeline():
    app = open_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert main_screen(app).selected == Ref("0/0", "source")
        assert "def forward(self, x" in shown_text(app)
        assert status_text(app) == "dump: finished"
        await pilot.press("down", "down")
        assert main_screen(app).selected == Ref("0/0", "dynamo_graph")
        assert "relu" in shown_text(app)
        assert "Dynamo FX graph" in header_text(app)
        # Stepping has nothing to drive: it says so.
        await pilot.press("n")
        await pilot.pause()
        assert app.session.state == "loaded"
        assert any(READ_ONLY_MESSAGE in n.message for n in app._notifications)


async def test_an_app_run_inside_another_program_freezes_none_of_its_objects():
    """Only `tcdebug`'s own process freezes its heap after the first paint (`owns_process`); an app
    run by another program (this test) leaves the garbage collector as it found it."""
    before = gc.get_freeze_count()
    app = open_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: main_screen(app).selected is not None, 10, "the first stage")
        await pilot.pause()
    assert gc.get_freeze_count() == before
    try:
        owned = open_app()
        owned.owns_process = True
        async with owned.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: gc.get_freeze_count() > before, 10, "the heap frozen")
    finally:
        gc.unfreeze()


async def test_search_finds_next_and_previous_matches():
    app = open_app()
    async with app.run_test(size=(100, 30)) as pilot:
        app.jump_to(Ref("0/1", "aot_backward"))
        await pilot.pause()
        await pilot.press("slash", *"aten", "enter")
        code = main_screen(app).code
        total = len(code.matches)
        assert total > 3 and all("aten" in code.lines[m.line][m.start : m.end] for m in code.matches)
        first = code.match_index
        await pilot.press("down")
        assert code.match_index == (first + 1) % total
        await pilot.press("up", "up")
        assert code.match_index == (first - 1) % total
        assert main_screen(app).query_one("#search-count").render().plain == f"{code.match_index + 1}/{total}"
        await pilot.press("escape", "escape")
        assert code.search_term == ""


async def test_kernels_of_a_cpu_kernel_source_stage():
    app = open_app()
    async with app.run_test(size=(100, 30)) as pilot:
        app.jump_to(Ref("0/1", "kernel_source.backward"))
        await pilot.pause()
        assert "cpp_fused" in shown_text(app)
        names = [k.name for k in app.session.compiles["0/1"].stages["kernel_source.backward"].kernels]
        assert names and all(n.startswith("cpp_fused") for n in names)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert main_screen(app).selected == Ref("0/1", "kernel_source.backward", kernel=names[0])
        assert 'extern "C"' in shown_text(app)
        assert names[0] in header_text(app)


async def test_long_lines_scroll_sideways_and_highlighting_arrives():
    app = open_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.jump_to(Ref("0/0", "dynamo_graph"))
        code = main_screen(app).code
        # pygments runs in a worker; the colours arrive as a message.
        await wait_until(pilot, lambda: code.is_highlighted, timeout=30, what="the highlight worker")
        assert code.max_scroll_x > 0
        code.focus()
        await pilot.press("shift+right")
        await pilot.pause()
        assert code.scroll_offset.x > 0


async def test_palette_jumps_to_a_stage():
    app = open_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"0/1 guards")
        commands = app.screen.query_one(CommandList)
        await wait_until(pilot, lambda: commands.option_count > 0, timeout=30, what="palette hits")
        await pilot.pause(0.3)  # the palette settles on the best hit
        await pilot.press("enter")
        await pilot.pause()
        assert main_screen(app).selected == Ref("0/1", "guards")
        assert "TENSOR_MATCH" in shown_text(app)


async def test_help_lists_every_binding_with_its_id():
    app = open_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        ids = {binding_id for _, binding_id, _ in keys_table(TcdebugApp.BINDINGS) if binding_id}
        assert {
            "step",
            "continue",
            "breakpoint",
            "output",
            "help",
            "quit",
            "search",
            "command_palette",
        } <= ids
        await pilot.press("escape")
        assert app.screen is main_screen(app)


async def test_output_pane_shows_the_scripts_output():
    app = open_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OutputScreen)
        assert "one training step" in app.screen.query_one("CodeView").text
        await pilot.press("o")
        assert app.screen is main_screen(app)


async def test_breakpoints_toggle_in_read_only_mode_without_a_target():
    app = open_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.jump_to(Ref("0/0", "guards"))
        await pilot.pause()
        await pilot.press("b")
        assert app.breakpoints == {"guards"}
        await pilot.press("b")
        assert app.breakpoints == set()


async def test_d_diffs_a_stage_against_the_other_compile_of_its_frame():
    from tcdebug.screens.diff_screen import DiffScreen

    app = open_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app.jump_to(Ref("0/1", "guards"))
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)
        assert app.screen.compile_id == "0/1" and app.screen.other_id == "0/0"
        await pilot.press("escape")
        assert app.screen is main_screen(app)


async def test_r_in_a_read_only_session_explains_that_reruns_need_the_target():
    from tcdebug.screens.rerun_screen import RerunScreen

    app = open_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app.jump_to(Ref("0/0"))
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RerunScreen)
        await pilot.press("f5")
        await pilot.pause()
        assert any("read-only" in n.message for n in app._notifications)


async def test_left_folds_a_compile_and_right_opens_it_again():
    app = open_app()
    async with app.run_test(size=(100, 30)) as pilot:
        app.jump_to(Ref("0/0"))
        await pilot.pause()
        timeline = main_screen(app).timeline
        timeline.focus()
        assert Ref("0/0", "guards") in timeline.refs()
        await pilot.press("left")
        assert Ref("0/0", "guards") not in timeline.refs() and timeline.highlighted_ref == Ref("0/0")
        assert Ref("0/1", "guards") in timeline.refs()
        await pilot.press("right")
        assert Ref("0/0", "guards") in timeline.refs()
        # Jumping to a stage inside a folded compile opens it.
        await pilot.press("left")
        app.jump_to(Ref("0/0", "guards"))
        await pilot.pause()
        assert timeline.highlighted_ref == Ref("0/0", "guards")


def test_cached_rows_equal_fresh_rows_in_every_state():
    """The timeline reuses a compile's rows while its signature holds; they must equal a rebuild."""
    from tcdebug.screens.widgets.timeline import RowCache, TimelineState, build_rows

    session = load_dump(DATA / "graph_breaks_cpu")
    cache: RowCache = {}
    kernel_stage = next(
        (c.compile_id, s.key) for c in session.ordered_compiles() for s in c.ordered_stages() if s.kernels
    )
    states = [
        TimelineState(),
        TimelineState(paused_at=("0/0", "guards"), live=True),
        TimelineState(breakpoints=frozenset({"guards"})),
        TimelineState(collapsed=frozenset({"0/0"})),
        TimelineState(expanded_kernels=frozenset({kernel_stage})),
        TimelineState(),
    ]
    for state in states * 2:
        cached = build_rows(session, state, cache)
        fresh = build_rows(session, state)
        assert [(r.ref, r.label) for r in cached] == [(r.ref, r.label) for r in fresh]
    # A change inside one compile shows up at once.
    session.compiles["0/0"].stages["guards"].kernels = []
    session.compiles["0/0"].status = "failed"
    session.compiles["0/0"].error = "boom"
    assert [(r.ref, r.label) for r in build_rows(session, TimelineState(), cache)] == [
        (r.ref, r.label) for r in build_rows(session, TimelineState())
    ]


async def test_ir_after_fusion_shows_inductors_fusion_log():
    app = open_app()
    async with app.run_test(size=(100, 30)) as pilot:
        app.jump_to(Ref("0/1", "inductor_ir_post_fusion.forward"))
        await pilot.pause()
        text = shown_text(app)
        assert text.startswith("AFTER FUSION")
        assert "# ===== Inductor fusion log =====" in text and "fuse_nodes_once" in text
        assert "fusion log from line" in header_text(app)


async def test_a_repaint_queued_while_the_app_shuts_down_paints_nothing():
    """An app ending removes its screens' widgets while its message loop may still run a queued
    repaint or target event (`run_test` ends the app from outside its loop): they paint nothing,
    rather than query a timeline that is gone (NoMatches)."""
    app = open_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        main = main_screen(app)
        assert main.can_paint
    with app._context():  # as the app's loop runs a call (`run_test` ends the app from outside it)
        assert main.is_mounted and not main.query(Timeline)  # the widgets are gone, the flag stays
        assert not main.can_paint
        main._refresh_pending = True
        main._refresh_if_pending()  # a repaint queued before the end, run late
        app.on_target_event(TargetEvent(CompileStart(compile_id="9/0", function="late")))
    assert app.session.compiles["9/0"].function == "late"  # the session still takes the event
