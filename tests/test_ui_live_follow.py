"""`f` in a live, paused session: samples/mlp.py runs for real, the app pauses at the training
compile's forward kernels, and the relu of line 18 is followed down to the C++ lines computing it."""

from __future__ import annotations

import pytest
from pilot import main_screen, wait_until
from test_ui_live import MLP, _paused
from test_ui_trail import _highlighted_id, _move_to

from tcdebug.screens.app import build_live_app
from tcdebug.screens.trail_screen import TrailScreen
from tcdebug.screens.widgets.timeline import Ref

pytestmark = pytest.mark.slow


async def test_follow_relu_live_while_paused_down_to_its_kernel_lines():
    app = build_live_app([MLP])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: _paused(app) == ("0/0", "source"), what="pause at source")
        app.jump_to(Ref("0/0", "kernel_source", item="pending"))
        await pilot.pause()
        await pilot.press("b", "c")  # break on kernel sources: 0/0's inference kernels first
        await wait_until(pilot, lambda: _paused(app) == ("0/0", "kernel_source.inference"), what="0/0")
        await pilot.press("c")
        where = ("0/1", "kernel_source.forward")
        await wait_until(pilot, lambda: _paused(app) == where, what="the training forward's kernels")
        # Still paused: go to the source, find the relu line, press f.
        app.jump_to(Ref("0/1", "source"))
        await pilot.pause()
        await pilot.press("slash", *"torch.relu", "enter", "escape")
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, TrailScreen), what="the trail")
        screen = app.screen
        assert isinstance(screen, TrailScreen)
        assert _highlighted_id(screen, "#trail-from").split("\x1f")[1].startswith("dynamo_graph|")
        await _move_to(pilot, screen, "#trail-from", "dynamo_graph|relu")
        await pilot.pause()
        # The trail panel lists each stage captured so far, down to the lines inside the kernel.
        rows = screen.query_one("#trail-stages")
        texts = [str(rows.get_option_at_index(k).prompt) for k in range(rows.option_count)]
        headers = [t.split()[0] for t in texts if not t.startswith(" ")]
        assert headers[:2] == ["source", "bytecode_before"]
        for key in (
            "dynamo_graph",
            "aot_forward",
            "inductor_ir_post_fusion.forward",
            "kernel_source.forward",
        ):
            assert key in headers, (key, headers)
        assert "aot_backward" in headers  # the joint graph's backward is known before its kernels
        assert any("↳ op1" in t and "lines of op1 computing relu" in t for t in texts), "\n".join(texts)  # under cpp_fused_relu_0
        # enter on the kernel-lines row: the stage view jumps there with those lines marked.
        await _move_to(pilot, screen, "#trail-stages", "kernel_source.forward|cpp_fused_relu_0/op1")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is app.main_screen, what="the jump")
        main = main_screen(app)
        assert main.selected is not None and (main.selected.compile_id, main.selected.key) == where
        code = main.code
        marked = sorted(code.marked)
        assert any("clamp_min" in code.lines[n] for n in marked)
        assert not any("#include" in code.lines[n] for n in marked)  # not the whole kernel
        relu_line = next(n for n in marked if "clamp_min" in code.lines[n])
        top = round(code.scroll_offset.y)
        assert top <= relu_line < top + code.scrollable_content_region.height  # scrolled to it
        assert _paused(app) == where  # following never stepped the target
        await pilot.press("q")
    assert app.controller is not None and not app.controller.alive
