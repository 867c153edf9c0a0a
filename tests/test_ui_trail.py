"""`f`: follow an op through the compile in the app (a real dump of samples/mlp.py)."""

from __future__ import annotations

import pytest
from pilot import main_screen, wait_until
from textual.widgets import OptionList

from tcdebug.dump.loader import load_dump
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.help_screen import keys_table
from tcdebug.screens.trail_screen import TrailScreen
from tcdebug.screens.widgets.code_view import CodeView
from tcdebug.screens.widgets.timeline import Ref

pytestmark = pytest.mark.slow


def _highlighted_id(screen: TrailScreen, list_id: str) -> str:
    option = screen.query_one(list_id, OptionList).highlighted_option
    assert option is not None
    return option.id or ""


async def _move_to(pilot, screen: TrailScreen, list_id: str, wanted: str) -> None:
    """Press down in `list_id` until the highlighted option's id ends with `wanted`."""
    screen.query_one(list_id, OptionList).focus()
    for _ in range(60):
        if _highlighted_id(screen, list_id).endswith(wanted):
            return
        await pilot.press("down")
    raise AssertionError(f"{wanted} not in {list_id}")


async def test_follow_relu_from_the_source_line_to_the_kernels_and_jump(mlp_dump):
    app = TcdebugApp(load_dump(mlp_dump.out), read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        app.jump_to(Ref("0/1", "source"))
        await pilot.pause()
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, TrailScreen))
        screen = app.screen
        assert isinstance(screen, TrailScreen)
        # The source stage lists line 18 and, under it, the Dynamo nodes it produced.
        await _move_to(pilot, screen, "#trail-from", "dynamo_graph|relu")
        await pilot.pause()
        trail = screen.trail
        assert trail is not None
        assert trail.names("aot_forward") == ["relu"]
        assert "le" in trail.names("aot_backward")
        assert trail.names("kernel_source.forward") == ["cpp_fused_relu_0", "cpp_fused_relu_0/op1"]
        assert trail.names("kernel_source.backward") == [
            "cpp_fused_sum_threshold_backward_0",
            "cpp_fused_sum_threshold_backward_0/op3",
        ]
        # Moving through the trail marks each stage's lines in the preview.
        await _move_to(pilot, screen, "#trail-stages", "inductor_ir_post_fusion.forward|op1")
        await pilot.pause()
        preview = screen.query_one("#trail-preview", CodeView)
        assert any(preview.lines[n].startswith("op1: SchedulerNode") for n in preview.marked)
        await _move_to(pilot, screen, "#trail-stages", "kernel_source.forward|cpp_fused_relu_0")
        await pilot.pause()
        assert any("clamp_min" in preview.lines[n] for n in preview.marked)
        # enter jumps there: the main stage view shows the kernel code with the lines marked.
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is app.main_screen)
        main = main_screen(app)
        assert main.selected == Ref("0/1", "kernel_source.forward")
        code = main.code
        marked = sorted(code.marked)
        assert marked and code.lines[marked[0]].startswith("cpp_fused_relu_0 = async_compile")
        top = round(code.scroll_offset.y)
        assert top <= marked[0] < top + code.scrollable_content_region.height


async def test_follow_backwards_from_a_backward_kernel(mlp_dump):
    app = TcdebugApp(load_dump(mlp_dump.out), read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        app.jump_to(Ref("0/1", "kernel_source.backward"))
        await pilot.pause()
        await pilot.press("slash", *"cpp_fused_sum_threshold_backward_0(", "enter", "escape")
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, TrailScreen))
        screen = app.screen
        assert isinstance(screen, TrailScreen)
        assert _highlighted_id(screen, "#trail-from").endswith("cpp_fused_sum_threshold_backward_0")
        trail = screen.trail
        assert trail is not None
        assert trail.names("source") == ["mlp.py:18"]
        assert "relu" in trail.names("dynamo_graph") and "where" in trail.names("aot_backward")
        # f on a trail row follows from there: the Dynamo relu node alone.
        await _move_to(pilot, screen, "#trail-stages", "dynamo_graph|relu")
        await pilot.press("f")
        await pilot.pause()
        assert screen.from_key == "dynamo_graph"
        assert screen.trail.names("dynamo_graph") == ["relu"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.main_screen)


async def test_follow_back_from_a_line_inside_a_kernel(mlp_dump):
    """A line computing relu's gradient leads to line 18, and not to the sum fused beside it."""
    app = TcdebugApp(load_dump(mlp_dump.out), read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        app.jump_to(Ref("0/1", "kernel_source.backward"))
        await pilot.pause()
        await pilot.press("slash", *"blendv", "enter", "escape")
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, TrailScreen))
        screen = app.screen
        assert isinstance(screen, TrailScreen)
        assert _highlighted_id(screen, "#trail-from").endswith("cpp_fused_sum_threshold_backward_0/op3")
        trail = screen.trail
        assert trail is not None
        assert trail.names("source") == ["mlp.py:18"]
        assert sorted(trail.names("inductor_post_grad_graph.backward")) == ["full_default", "le", "where"]
        preview = screen.query_one("#trail-preview", CodeView)
        await _move_to(
            pilot, screen, "#trail-stages", "kernel_source.backward|cpp_fused_sum_threshold_backward_0/op3"
        )
        await pilot.pause()
        marked = [preview.lines[n] for n in sorted(preview.marked)]
        assert any("blendv" in line for line in marked)
        assert not any("sum_masked_reduce" in line for line in marked)


async def test_follow_is_a_key_in_help_and_the_palette(mlp_dump):
    assert ("f", "follow") in {(key, binding_id) for key, binding_id, _ in keys_table(TcdebugApp.BINDINGS)}
    app = TcdebugApp(load_dump(mlp_dump.out), read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.jump_to(Ref("0/0", "guards"))
        await pilot.pause()
        await pilot.press("f")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TrailScreen)  # guards have no ops: it says so, no crash
        assert "no provenance for guards" in str(screen.query_one("#trail-title").render())
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.press(*"follow op")
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TrailScreen))


async def test_symbols_screen_explains_a_dynamic_size(dynamic_dump):
    from tcdebug.screens.symbols_screen import SymbolsScreen

    session = load_dump(dynamic_dump.out)
    cid = next(c.compile_id for c in session.ordered_compiles() if c.provenance.symbols)
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        app.jump_to(Ref(cid, "dynamo_graph"))
        await pilot.pause()
        await pilot.press("S")
        await wait_until(pilot, lambda: isinstance(app.screen, SymbolsScreen))
        detail = str(app.screen.query_one("#symbols-detail").render())
        assert "L['x'].size()[0]" in detail
        assert "range    [" in detail and "hint     " in detail
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.main_screen)


async def test_follow_in_a_trace_log_says_what_the_log_lacks():
    from conftest import DATA

    from tcdebug.trace import load_trace_session

    app = TcdebugApp(load_trace_session(DATA / "traces" / "mlp_provenance"), read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        app.jump_to(Ref("0/1", "dynamo_graph"))
        await pilot.pause()
        await pilot.press("slash", *"relu:", "enter", "escape")
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, TrailScreen))
        screen = app.screen
        assert _highlighted_id(screen, "#trail-from").endswith("dynamo_graph|relu")
        assert screen.trail.names("kernel_source.forward") == ["cpp_fused_relu_0"]
        rows = screen.query_one("#trail-stages", OptionList)
        texts = [str(rows.get_option_at_index(k).prompt) for k in range(rows.option_count)]
        assert any("inferred" in t for t in texts)  # the source line came from a `# File:` comment
        assert any("no Inductor IR" in t for t in texts)


async def test_the_trail_names_the_symbols_on_its_lines(dynamic_dump):
    session = load_dump(dynamic_dump.out)
    cid = next(c.compile_id for c in session.ordered_compiles() if "s77" in c.provenance.symbols)
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        app.jump_to(Ref(cid, "dynamo_graph"))
        await pilot.pause()
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, TrailScreen))
        rows = app.screen.query_one("#trail-stages", OptionList)
        texts = [str(rows.get_option_at_index(k).prompt) for k in range(rows.option_count)]
        assert any(t.startswith("symbol s77: L['x'].size()[0] · range [2, int_oo]") for t in texts), texts
