"""The app at 80x24, as over SSH: layout, focus, footer, help legend, kernels first, the diff.

Opened on the committed dump of samples/mlp.py (no compile needed), through the real pilot.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import DATA, ROOT
from hypothesis import given, settings
from hypothesis import strategies as st
from pilot import header_text, main_screen
from rich.text import Text

from tcdebug.dump.loader import load_dump
from tcdebug.model.session import Compile, Session, Stage
from tcdebug.screens.app import READ_ONLY_MESSAGE, TcdebugApp, screenshot_dir
from tcdebug.screens.content import guards_source_first
from tcdebug.screens.diff_screen import DiffScreen, changed_spans, normalise, unified_lines
from tcdebug.screens.help_screen import HelpScreen, help_sections
from tcdebug.screens.widgets.highlight import plain_lines
from tcdebug.screens.widgets.key_footer import KeyFooter
from tcdebug.screens.widgets.timeline import GLYPHS, Ref, expected_stages
from tcdebug.torchtext.stage_text import FUSION_LOG_MARKER, full_text

SIZE = (80, 24)


def open_app() -> TcdebugApp:
    return TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)


def footer_keys(app: TcdebugApp) -> list[str]:
    return app.screen.query_one(KeyFooter).shown_keys()


def timeline_labels(app: TcdebugApp) -> list[str]:
    timeline = main_screen(app).timeline
    return [str(label) for label in timeline.labels()]


async def test_timeline_fits_its_rows_and_names_stages_shortly():
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = main_screen(app)
        labels = timeline_labels(app)
        assert "   post_grad (fwd)" in labels and "   post_grad (bwd)" in labels
        assert not any("inductor_post_grad_graph" in label for label in labels)
        timeline, pane = screen.timeline, screen.query_one("#stage-pane")
        # As wide as the widest stage row, plus border and scrollbar; the stage view gets the rest.
        assert timeline.size.width == timeline.content_width + 2  # outer width minus the border
        assert timeline.outer_size.width <= 30 and pane.outer_size.width >= 50
        widest = max(len(label) for label in labels if not label.startswith("  ↻"))
        assert timeline.content_width == widest


async def test_t_hides_the_timeline_and_z_zooms_the_stage_view():
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = main_screen(app)
        code = screen.code
        narrow = code.outer_size.width
        await pilot.press("t")
        assert not screen.timeline.display
        assert code.outer_size.width == 78 and screen.focused is code
        await pilot.press("t")
        assert code.outer_size.width == narrow and screen.focused is screen.timeline
        await pilot.press("z")
        await pilot.pause()
        assert code.outer_size.width == 80  # no timeline, no border
        assert not screen.query_one("#status-bar").display
        await pilot.press("z")
        await pilot.pause()
        assert code.outer_size.width == narrow


async def test_sideways_scroll_and_search_work_while_the_timeline_has_the_focus():
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/0", "dynamo_graph"))
        await pilot.pause()
        screen = main_screen(app)
        assert screen.focused is screen.timeline
        await pilot.press("shift+right")
        await pilot.pause()
        assert screen.code.scroll_offset.x > 0
        await pilot.press("shift+left", "shift+left")
        await pilot.pause()
        assert screen.code.scroll_offset.x == 0
        await pilot.press("slash", *"relu", "enter")
        assert screen.code.matches and screen.code.search_term == "relu"


async def test_the_focused_pane_has_a_heavy_border_and_a_highlighted_title():
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = main_screen(app)
        timeline, pane = screen.timeline, screen.query_one("#stage-pane")
        assert timeline.styles.border_top[0] == "heavy" and pane.styles.border_top[0] == "round"
        await pilot.press("tab")
        await pilot.pause()
        assert screen.focused is screen.code
        assert timeline.styles.border_top[0] == "round" and pane.styles.border_top[0] == "heavy"


async def test_read_only_footer_has_no_stepping_keys_but_they_still_explain():
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/0", "kernel_source.inference"))
        await pilot.pause()
        keys = footer_keys(app)
        assert not {"n", "c", "g", "b"} & set(keys)
        assert {"/", "]", "?", "q", "d", "z"} <= set(keys)
        assert keys.index("d") < keys.index("?") < keys.index("q")
        app.jump_to(Ref("0/0", "dynamo_graph"))
        await pilot.pause()
        assert "]" not in footer_keys(app)  # no kernels here
        await pilot.press("c")
        await pilot.pause()
        assert any(READ_ONLY_MESSAGE in n.message for n in app._notifications)


async def test_help_has_a_legend_of_every_glyph_the_timeline_paints():
    source = (ROOT / "screens" / "widgets" / "timeline.py").read_text(encoding="utf-8")
    code = source.split("# Long stage ids", 1)[1]  # past the legend itself
    painted = {ch for literal in re.findall(r'"([^"\n]*)"', code) for ch in literal if ord(ch) > 127}
    painted -= {"·"}
    legend = "".join(glyph for glyph, _ in GLYPHS)
    assert painted and painted <= set(legend), painted - set(legend)
    assert {"…", "✓", "↻", "⚠", "⊘", "●", "▶", "✗", "⠋"} <= set(legend)
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        svg = app.export_screenshot()
        app.screen.query_one("#help-glyphs").scroll_visible(animate=False, top=True)
        await pilot.pause()
        svg += app.export_screenshot()
        app.screen.query_one("#help-body").scroll_end(animate=False)  # the legend's end
        await pilot.pause()
        svg += app.export_screenshot()
        for glyph, _meaning in GLYPHS:
            assert glyph.split()[0] in svg
        rows = [row for section, rows in help_sections(TcdebugApp.BINDINGS) for row in rows if section == "glyphs"]
        assert [(glyph, meaning) for glyph, _, meaning in rows] == list(GLYPHS)


async def test_capital_b_clears_every_breakpoint():
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        app.breakpoints.update({"guards", "kernel_source"})
        await pilot.press("B")
        await pilot.pause()
        assert app.breakpoints == set()
        assert any("all breakpoints cleared" in n.message for n in app._notifications)


async def test_ctrl_s_saves_into_the_screenshot_folder_and_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("TCDEBUG_SCREENSHOT_DIR", raising=False)
    assert screenshot_dir() == str(tmp_path / "home" / ".cache" / "tcdebug" / "screenshots")
    monkeypatch.setenv("TCDEBUG_SCREENSHOT_DIR", str(tmp_path / "shots"))
    monkeypatch.chdir(tmp_path)
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        [saved] = list((tmp_path / "shots").glob("*.svg"))
        assert any(str(saved) in n.message for n in app._notifications)
    assert not list(tmp_path.glob("*.svg"))  # nothing in the current folder


async def test_kernel_source_opens_on_its_first_kernel_and_w_reaches_call_and_imports():
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/0", "kernel_source.inference"))
        await pilot.pause()
        code = main_screen(app).code
        top = round(code.scroll_offset.y)
        assert code.lines[top].startswith("cpp_fused_relu_0 = async_compile")
        assert "· 1 kernel\n] next kernel · W call()" in header_text(app)
        assert "1 kernels" not in header_text(app)
        assert main_screen(app).query_one("#stage-header").size.height == 3  # the hints line shows
        await pilot.press("W")
        assert code.lines[round(code.scroll_offset.y)].lstrip().startswith("def call(")
        await pilot.press("W")
        assert code.scroll_offset.y == 0 and "import" in "\n".join(code.lines[:12])
        await pilot.press("W")
        assert round(code.scroll_offset.y) == top


async def test_ir_header_counts_the_lines_shown_with_the_fusion_log():
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/0", "inductor_ir_post_fusion.inference"))
        await pilot.pause()
        code, header = main_screen(app).code, header_text(app)
        assert f"{len(code.lines)} lines" in header
        fusion_at = int(re.search(r"fusion log from line (\d+)", header).group(1))
        assert code.lines[fusion_at - 1] == FUSION_LOG_MARKER
        assert code.text.count(FUSION_LOG_MARKER) == 1


async def test_guard_sources_come_first_on_their_own_line():
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/1", "guards"))
        await pilot.pause()
        lines = main_screen(app).code.lines
        match = next(i for i, line in enumerate(lines) if "TENSOR_MATCH" in line)
        assert "  # " not in lines[match]
        assert lines[match - 1].lstrip("| ").startswith("# nn/modules/linear.py:")


def _two_compiles(old: str, new: str) -> Session:
    session = Session(script="f.py")
    for cid, text in (("0/0", old), ("0/1", new)):
        comp = Compile(compile_id=cid, function="f")
        comp.stages["dynamo_graph"] = Stage("dynamo_graph", text=text, language="python")
        session.compiles[cid] = comp
    return session


OLD_GRAPH = 'x: "f32[8, 64]" = L_x_\ny = torch.relu(x)  # id 0x7f3a12345678\nreturn (y,)\n'
NEW_GRAPH = 'x: "f32[s77, 64]" = L_x_\ny = torch.relu(x)  # id 0x7f3a87654321\nreturn (y,)\n'


async def test_diff_is_unified_at_80_columns_and_i_ignores_names_and_addresses():
    session = _two_compiles(OLD_GRAPH, NEW_GRAPH.replace("s77", "s0"))
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        app.jump_to(Ref("0/1", "dynamo_graph"))
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        diff = app.screen
        assert isinstance(diff, DiffScreen) and not diff.side_by_side
        assert diff.view.display and not diff.split.display
        assert '-x: "f32[8, 64]" = L_x_' in diff.view.lines
        assert '+x: "f32[s0, 64]" = L_x_' in diff.view.lines
        await pilot.press("i")
        assert "-1 +1" in str(diff.query_one("#diff-title").render())  # only the 8 → s? remains
        assert not any("0x7f3a" in line for line in diff.view.lines)
        await pilot.press("s")
        assert diff.side_by_side and diff.split.display


async def test_side_by_side_uses_the_full_width_and_both_halves_scroll_together():
    long_old = "a = " + "x" * 150 + " + 8"
    long_new = "a = " + "x" * 150 + " + s77"
    session = _two_compiles(long_old + "\n", long_new + "\n")
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=(160, 24)) as pilot:
        app.jump_to(Ref("0/1", "dynamo_graph"))
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        diff = app.screen
        assert isinstance(diff, DiffScreen) and diff.side_by_side
        split = diff.split
        assert split.half == (160 - 3) // 2
        row = split.render_line(1)  # the changed line (row 0 names the compiles)
        assert row.cell_length == 160
        await pilot.press("shift+right", "shift+right", "shift+right", "shift+right")
        await pilot.pause()
        text = split.render_line(1).text
        left, right = text[: split.half], text[split.half + 3 :]
        assert left.rstrip().endswith("+ 8") and right.rstrip().endswith("+ s77")


def test_unified_diff_marks_the_change_inside_the_line_and_points_at_far_changes():
    lines = unified_lines(OLD_GRAPH, NEW_GRAPH, "0/0", "0/1")
    minus = next(line for line in lines if line.plain.startswith('-x: "f32'))
    [changed] = [s for s in minus.spans if "on dark_red" in str(s.style)]
    assert minus.plain[changed.start : changed.end] == "8"
    far_old = "g(" + "a, " * 40 + "grad_mode=false)"
    far_new = "g(" + "a, " * 40 + "grad_mode=true)"
    far = unified_lines(far_old, far_new, "0/0", "0/1")
    pointer = next(line for line in far if line.plain.lstrip().startswith("↳ col"))
    assert isinstance(pointer, Text) and "false" in pointer.plain and "true" in pointer.plain


def test_normalise_keeps_real_changes():
    assert normalise("f32[s0, 64] f32[s77, 64] u3 0x7f3a12345678") == "f32[s?, 64] f32[s?, 64] u? 0x?"
    assert normalise("f32[8, 64]") == "f32[8, 64]"
    assert normalise("Guard latency = 117.75 us") == "Guard latency = ? us"


def test_pending_rows_only_for_the_aot_graphs_that_can_still_come():
    comp = Compile(compile_id="0/0", function="f", status="compiling")
    comp.stages["dynamo_graph"] = Stage("dynamo_graph", text="g", meta={"aot_mode": "inference"})
    pending = expected_stages(comp)
    assert "aot_inference" in pending and not {"aot_joint", "aot_forward", "aot_backward"} & set(pending)
    comp.stages["dynamo_graph"].meta["aot_mode"] = "training"
    pending = expected_stages(comp)
    assert {"aot_joint", "aot_forward"} <= set(pending) and "aot_inference" not in pending
    del comp.stages["dynamo_graph"].meta["aot_mode"]  # a torch where it cannot be read: both kinds
    assert {"aot_forward", "aot_inference"} <= set(expected_stages(comp))


@pytest.mark.slow
def test_the_target_says_which_aot_graphs_will_come(mlp_dump):
    session = load_dump(mlp_dump.out)
    modes = {cid: c.stages["dynamo_graph"].meta.get("aot_mode") for cid, c in session.compiles.items()}
    assert modes == {"0/0": "inference", "0/1": "training"}  # no_grad inference, then a training step


@pytest.mark.slow
def test_the_dump_ir_after_fusion_file_holds_the_fusion_log(mlp_dump):
    files = list(mlp_dump.out.glob("compiles/*/inductor_ir_post_fusion.*.txt"))
    assert files and all(FUSION_LOG_MARKER in f.read_text() for f in files)
    session = load_dump(mlp_dump.out)
    stage = session.compiles["0/0"].stages["inductor_ir_post_fusion.inference"]
    assert full_text(stage).count(FUSION_LOG_MARKER) == 1  # loaded back: shown once


def test_every_binding_of_every_screen_and_widget_has_an_id_and_a_description():
    import importlib
    import pkgutil

    from textual.binding import Binding

    import tcdebug.screens as screens_pkg

    checked = 0
    for info in pkgutil.walk_packages(screens_pkg.__path__, "tcdebug.screens."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == info.name and "BINDINGS" in vars(value):
                for binding in vars(value)["BINDINGS"]:
                    assert isinstance(binding, Binding), (value, binding)
                    assert binding.id and binding.description, (value.__name__, binding.key)
                    checked += 1
    assert checked > 40


_lines = st.lists(st.sampled_from(["a", "b", "x: f32[8, 64]", "x: f32[s0, 64]", "", "  # c"]), max_size=12)


@settings(max_examples=200, deadline=None)
@given(old=_lines, new=_lines)
def test_unified_diff_rebuilds_both_texts(old: list[str], new: list[str]) -> None:
    lines = unified_lines("\n".join(old), "\n".join(new), "a", "b", context=10**6)
    if plain_lines("\n".join(old)) == plain_lines("\n".join(new)):
        assert "identical" in lines[0].plain
        return
    body = [t.plain for t in lines[2:] if not t.plain.startswith(("@@", "  ↳"))]
    assert [line[1:] for line in body if line[:1] in " -"] == plain_lines("\n".join(old))
    assert [line[1:] for line in body if line[:1] in " +"] == plain_lines("\n".join(new))


@settings(max_examples=300, deadline=None)
@given(a=st.text(max_size=40), b=st.text(max_size=40))
def test_changed_spans_leave_the_same_unchanged_characters(a: str, b: str) -> None:
    left, right = changed_spans(a, b)

    def kept(text: str, spans: list[tuple[int, int]]) -> str:
        return "".join(ch for i, ch in enumerate(text) if not any(s <= i < e for s, e in spans))

    assert kept(a, left) == kept(b, right)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="| +-#:ab \n", max_size=80))
def test_guard_sources_first_keeps_every_guard_line(text: str) -> None:
    out = guards_source_first(text).split("\n")
    for line in text.split("\n"):
        if "  # " not in line:
            assert line in out


async def test_the_footer_follows_the_stage_without_remounting_keys_it_already_has():
    """`]` (next kernel) shows on kernel stages only. Moving away hides it and moving back shows
    it again in place: the footer shows exactly the keys the screen's bindings say, in order."""
    app = open_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        screen = main_screen(app)
        footer = app.screen.query_one(KeyFooter)

        def wanted() -> list[str]:
            return [app.get_key_display(binding) for binding, _, _ in footer._shown()]

        async def show(ref: Ref) -> list[str]:
            screen.select(ref)
            for _ in range(20):
                await pilot.pause()
                if footer.shown_keys() == wanted():
                    break
            return footer.shown_keys()

        kernels, guards = Ref("0/1", "kernel_source.backward"), Ref("0/1", "guards")
        assert "]" in await show(kernels)
        mounted = set(footer.query_children())
        assert "]" not in await show(guards)
        assert "]" in await show(kernels)
        assert footer.shown_keys() == wanted()
        assert set(footer.query_children()) == mounted  # shown and hidden in place, none remounted
