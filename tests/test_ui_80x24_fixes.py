"""What an 80x24 terminal showed wrong, each through the real pilot on committed dumps and logs: the
kernel view's key hint, a sideways scroll surviving a jump, the re-run editor in a dump or a log,
resume functions and recompile reasons on the timeline, the trail's kernel rows, the re-run form's
hidden fields, a log opening on an empty stage, the footer's Help and Quit, the ranks screen."""

from __future__ import annotations

from pathlib import Path

from conftest import DATA
from pilot import header_text, main_screen, screen_lines, wait_until
from textual.widgets import OptionList

from tcdebug.dump.loader import load_dump
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.diff_screen import DiffScreen
from tcdebug.screens.ranks_screen import RanksScreen
from tcdebug.screens.rerun_screen import RerunScreen
from tcdebug.screens.trail_screen import TrailScreen, trail_name
from tcdebug.screens.widgets.key_footer import KeyFooter
from tcdebug.screens.widgets.timeline import Ref, row_name, short_recompile_reason
from tcdebug.trace import load_trace_session, new_trace_session

SIZE = (80, 24)


def log(name: str) -> Path:
    return next((DATA / "traces" / name).glob("*.log"))


def footer_keys(app: TcdebugApp) -> list[str]:
    return app.screen.query_one(KeyFooter).shown_keys()


async def test_the_kernel_view_names_the_wrapper_key_as_it_is_bound():
    app = TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/0", "kernel_source.inference"))
        await pilot.pause()
        assert "] next kernel · W call(), imports" in header_text(app)
        assert "w call()" not in header_text(app)
        code = main_screen(app).code
        await pilot.press("W")
        assert code.lines[round(code.scroll_offset.y)].lstrip().startswith("def call(")


async def test_a_jump_from_the_trail_starts_the_marked_lines_at_column_0():
    """A `/` match far right scrolls the stage view sideways; enter on a trail row jumps to the
    same stage with lines marked: they show from their start, not their tails."""
    app = TcdebugApp(load_dump(DATA / "gpu_mlp"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/1", "kernel_source.backward"))
        await pilot.pause()
        code = main_screen(app).code
        await pilot.press("slash", *"xnumel", "enter", "escape")
        await pilot.press("shift+right", "shift+right")
        await pilot.pause()
        assert code.scroll_offset.x > 0
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, TrailScreen), 20)
        screen = app.screen
        stages = screen.query_one("#trail-stages", OptionList)
        wanted = next(
            i
            for i in range(stages.option_count)
            if (stages.get_option_at_index(i).id or "").startswith("kernel_source.backward\x1f")
            and not stages.get_option_at_index(i).disabled
        )
        stages.focus()
        stages.highlighted = wanted
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is app.main_screen, 20)
        await pilot.pause()
        assert code.marked and code.scroll_offset.x == 0
        first = min(code.marked)
        top = round(code.scroll_offset.y)
        assert top <= first < top + code.scrollable_content_region.height


async def test_the_rerun_editor_of_a_dump_says_reruns_need_a_live_session():
    app = TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/1"))
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RerunScreen)
        text = " ".join(" ".join(screen_lines(app)).split())
        assert "F5 runs it" not in text
        assert "re-runs need a live session" in text and "tcdebug samples/mlp.py and r here" in text
        assert "tcdebug --dump OUT --rerun 'x=8,64' samples/mlp.py" in text
        assert "Press F2" not in text and "checking guards needs a live session" in text


async def test_the_rerun_editor_of_a_log_says_plainly_what_to_do():
    app = TcdebugApp(load_trace_session(log("mlp")), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/0"))
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RerunScreen)
        text = " ".join(" ".join(screen_lines(app)).split())
        assert "Only functions returned by torch.compile" not in text
        assert "A TORCH_TRACE log records no calls, and re-runs need a live session" in text
        assert "tcdebug SCRIPT" in text


async def test_every_field_of_the_rerun_form_is_on_an_80x24_screen():
    app = TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/1"))
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RerunScreen)
        form = screen.query_one("#rerun-form")
        for selector in (
            "#dyn-0-0",
            "#dyn-0-1",
            "#rerun-dynamic",
            "#rerun-backend",
            "#rerun-mode",
            "#rerun-fullgraph",
        ):
            widget = screen.query_one(selector)
            assert form.region.contains_region(widget.region), selector  # on screen, not scrolled away
        text = "\n".join(screen_lines(app))
        for label in ("dyn d0", "dyn d1", "mode", "fullgraph"):
            assert label in text, label
        await pilot.resize_terminal(160, 48)  # room: full-height fields again
        await pilot.pause()
        assert not screen.has_class("-narrow")


async def test_resume_functions_and_recompile_reasons_read_apart_on_the_timeline():
    app = TcdebugApp(load_dump(DATA / "graph_breaks_cpu"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        timeline = main_screen(app).timeline
        width = timeline.scrollable_content_region.width
        shown = [label.plain[:width] for label in timeline.labels() if label.plain.startswith("▾ ")]
        for cid, line in (("1/0", 8), ("2/0", 9), ("3/0", 11)):  # what each row shows names its line
            assert any(row.startswith(f"▾ {cid} resume normalize:{line} ") for row in shown), shown
        assert "torch_dynamo_resume_i…" not in "\n".join(screen_lines(app))
    assert row_name(load_dump(DATA / "graph_breaks_cpu").compiles["3/0"]) == "resume normalize:11"
    app = TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "↻ grad_mode changed" in "\n".join(screen_lines(app))
    reason = "0/1: tensor 'x' size mismatch at index 0. expected 8, actual 16\n0/0: GLOBAL_STATE changed: grad_mode"
    assert short_recompile_reason(reason) == "x size mismatch at index 0. expected 8, actual 16 (+1)"


async def test_the_trail_rows_of_one_kernel_differ_where_their_items_do():
    app = TcdebugApp(load_dump(DATA / "gpu_mlp"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/1", "kernel_source.backward"))
        await pilot.pause()
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, TrailScreen), 20)
        await pilot.pause()
        screen = app.screen
        left = screen.query_one("#trail-from", OptionList).region
        rows = [
            line[left.x + 1 : left.right - 1].strip()
            for line in screen_lines(app)[left.y + 1 : left.bottom - 1]
        ]
        rows = [row for row in rows if row]
        assert len(rows) == 8 and len(set(rows)) == len(rows), rows
        assert any(row.startswith("↳ op3") for row in rows)
    assert (
        trail_name("cpp_fused_sum_threshold_backward_0/op3", {"cpp_fused_sum_threshold_backward_0"})
        == "↳ op3"
    )
    assert trail_name("cpp_fused_sum_threshold_backward_0", set()) == "cpp_fused_s…d_backward_0"


async def test_a_log_opens_on_the_first_stage_with_something_to_read():
    path = log("ranks")
    session = load_trace_session(path)
    assert not session.compiles["0/0"].stages["source"].captured  # the log has no source
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert main_screen(app).selected == Ref("0/0", "dynamo_graph")
    app = TcdebugApp(new_trace_session(path), read_only=True, stream_trace=str(path))  # as `tcdebug open`
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: main_screen(app).selected is not None, 30, "a stage shown")
        await wait_until(pilot, lambda: main_screen(app).selected == Ref("0/0", "dynamo_graph"), 30)


async def test_the_footer_keeps_help_and_quit_and_the_way_back():
    app = TcdebugApp(load_trace_session(DATA / "traces" / "ranks"), read_only=True)  # both ranks' logs
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("2/1", "kernel_source.inference"))
        await pilot.pause(0.3)
        keys = footer_keys(app)
        assert keys[-2:] == ["?", "q"] and "R" in keys, repr(keys)
        await pilot.press("d")  # the diff screen: more keys than 80 columns hold
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)
        keys = footer_keys(app)
        assert keys[-3:] == ["esc", "?", "q"] and keys[:2] == ["s", "i"], keys
        assert screen_lines(app)[-1].rstrip().endswith("? Help q Quit")
        await pilot.press("escape", "R")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RanksScreen)
        keys = footer_keys(app)
        # the screen's own keys first, the app's (o, r) left out for room, Help and Quit last
        assert keys[:2] == ["tab", "esc"] and keys[-2:] == ["?", "q"] and "o" not in keys, keys
        assert screen_lines(app)[-1].rstrip().endswith("? Help q Quit")


async def test_every_kernel_view_opens_with_the_same_name_and_fused_nodes_header():
    """On the CPU Inductor writes a kernel's source-node comment at the call site, and the call before
    it (an `extern_kernels.mm`) has one of its own: that one is not the kernel's. Each kernel's view
    starts with its name and its fused nodes, or says they were not recorded."""
    session = load_trace_session(log("mlp"))
    stage = session.compiles["0/1"].stages["kernel_source.backward"]
    assert [k.provenance for k in stage.kernels] == [[], []]  # not mm_2's nodes for cpp_fused_sum_1
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        for kernel in stage.kernels:
            app.jump_to(Ref("0/1", "kernel_source.backward", kernel=kernel.name))
            await pilot.pause()
            lines = main_screen(app).code.lines
            assert lines[:2] == [f"// {kernel.name} · cpp", "// fused FX nodes: not recorded"], lines[:3]
    dumped = load_dump(DATA / "mlp_cpu").compiles["0/1"].stages["kernel_source.backward"]
    app = TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        for kernel in dumped.kernels:
            app.jump_to(Ref("0/1", "kernel_source.backward", kernel=kernel.name))
            await pilot.pause()
            lines = main_screen(app).code.lines
            assert lines[0] == f"// {kernel.name} · cpp" and lines[1].startswith("// fused FX nodes: ")


async def test_where_a_text_box_takes_q_and_the_footer_offers_f1_and_ctrl_q():
    from tcdebug.screens.help_screen import HelpScreen
    from tcdebug.screens.search_screen import SearchScreen

    app = TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("slash")  # the stage's search box: ? and q go into it
        await pilot.pause()
        assert footer_keys(app)[-2:] == ["f1", "^q"]
        assert screen_lines(app)[-1].rstrip().endswith("f1 Help ^q Quit")
        await pilot.press("escape", "ctrl+f")
        await pilot.pause()
        assert isinstance(app.screen, SearchScreen)
        assert footer_keys(app)[-2:] == ["f1", "^q"]
        await pilot.press("q")  # typed, not quit
        assert app.screen.query_one("#search-all-input").value == "q"
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("escape")
        await pilot.pause()
        app.jump_to(Ref("0/1"))
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RerunScreen)
        assert footer_keys(app)[-3:] == ["esc", "f1", "^q"]


async def test_a_jump_to_the_stage_on_show_starts_at_column_0():
    """The palette or the overview jumping to the stage already on show: no sideways scroll is left."""
    app = TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/0", "guards"))
        await pilot.pause()
        code = main_screen(app).code
        await pilot.press("shift+right", "shift+right")
        await pilot.pause()
        assert code.scroll_offset.x > 0
        app.jump_to(Ref("0/0", "guards"))
        await pilot.pause()
        assert code.scroll_offset.x == 0
