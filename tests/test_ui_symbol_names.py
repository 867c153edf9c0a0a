"""Size symbols named by their origins in the diff screen and the re-run editor, as `S` names them
(a real dump of samples/dynamic_shapes.py: compile 0/1 turned the batch of 0/0 into `s77`)."""

from __future__ import annotations

import pytest
from pilot import wait_until

from tcdebug.dump.loader import load_dump
from tcdebug.model.payloads import ProvSymbol
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.diff_screen import DiffScreen
from tcdebug.screens.rerun_screen import RerunScreen
from tcdebug.screens.widgets.timeline import Ref
from tcdebug.torchtext import symbol_names

pytestmark = pytest.mark.slow

ORIGIN = "s77 = L['x'].size()[0] [2, int_oo]"


def _shown(app: TcdebugApp, selector: str) -> str:
    widget = app.screen.query_one(selector)
    assert widget.display, f"{selector} is hidden"
    return str(widget.render())


async def test_diff_names_the_symbols_it_shows_and_i_still_ignores_them(dynamic_dump):
    app = TcdebugApp(load_dump(dynamic_dump.out), read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        app.jump_to(Ref("0/1", "dynamo_graph"))
        await pilot.pause()
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen), what="the diff")
        screen = app.screen
        assert isinstance(screen, DiffScreen) and screen.other_id == "0/0"
        assert "s77" in screen.shown_text
        assert _shown(app, "#diff-symbols") == f"symbols  0/1: {ORIGIN}"  # only 0/1 has it
        await pilot.press("i")  # names ignored: the diff says s?, the legend still names s77
        await pilot.pause()
        assert "s77" not in screen.shown_text and "s?" in screen.shown_text
        legend = _shown(app, "#diff-symbols")
        assert ORIGIN in legend and "shown as s?/u? while names are ignored" in legend
        await pilot.press("i")
        await pilot.pause()
        assert "s77" in screen.shown_text and "ignored" not in _shown(app, "#diff-symbols")
        await pilot.press("left_square_bracket")  # 0/1 against itself is skipped: back to 0/0
        await pilot.press("left_curly_bracket")  # another stage: its legend follows its text
        await pilot.pause()
        assert ("s77" in screen.shown_text) == app.screen.query_one("#diff-symbols").display


async def test_rerun_editor_names_the_symbols_of_the_frame(dynamic_dump):
    app = TcdebugApp(load_dump(dynamic_dump.out), read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        app.jump_to(Ref("0/1"))
        await pilot.pause()
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, RerunScreen), what="the re-run editor")
        assert _shown(app, "#rerun-symbols") == f"symbols  0/1: {ORIGIN}"
        assert _shown(app, "#symbols-0") == "d0=s77"  # next to x's dims
        assert not app.screen.query("#symbols-1")  # temperature is a float: no dims
        await pilot.press("escape")
        app.jump_to(Ref("2/0"))  # normalize: static, no symbol, no legend
        await pilot.pause()
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, RerunScreen), what="the re-run editor")
        assert not app.screen.query_one("#rerun-symbols").display


def test_symbol_names_merge_one_origin_and_keep_two():
    a = {"s77": ProvSymbol(sources=["L['x'].size()[0]"], range="[2, int_oo]")}
    b = {"s77": ProvSymbol(sources=["L['y'].size()[1]"]), "s3": ProvSymbol(sources=[])}
    same = symbol_names.named([("0/0", "f32[s77]", a), ("0/1", "s77 + 1", a)])
    assert symbol_names.legend(same, 2) == ORIGIN
    two = symbol_names.named([("0/0", "s77", a), ("0/1", "s77 s3 s770", b)])
    assert symbol_names.legend(two, 2) == (
        "0/1: s3 = origin unknown · 0/0: s77 = L['x'].size()[0] [2, int_oo] · 0/1: s77 = L['y'].size()[1]"
    )
    assert symbol_names.symbol_for_dim(b, "y", 1) == "s77" and symbol_names.symbol_for_dim(b, "y", 0) == ""
