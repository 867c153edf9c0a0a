"""The re-run flow in the real app, as docs/reruns-and-guards.md's example walks it on
samples/dynamic_shapes.py, at 80x24: g, select 2/0, r, 8,64 → 16,64, F2 (the size guard fails), F5 (2/1 pauses at its source
and the stage view shows it), n through it, d on its dynamo_graph (8 became a symbol)."""

from __future__ import annotations

import re

from conftest import SAMPLES
from pilot import header_text, main_screen, shown_text, wait_until
from textual.widgets import Input

from tcdebug.model import session as model
from tcdebug.screens.app import build_live_app
from tcdebug.screens.diff_screen import DiffScreen
from tcdebug.screens.rerun_screen import RerunScreen
from tcdebug.screens.widgets.guard_view import GuardView
from tcdebug.screens.widgets.timeline import Ref


async def test_double_the_batch_see_the_guard_fail_step_the_recompile_and_diff():
    app = build_live_app([str(SAMPLES / "dynamic_shapes.py")])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session.state == model.PAUSED, what="the first pause")
        await pilot.press("g")  # run to the end of the script
        await wait_until(pilot, lambda: app.target_ready, timeout=240, what="the script to end")
        assert app.session.compiles["2/0"].function == "normalize"

        app.jump_to(Ref("2/0"))
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, RerunScreen)
        shape = editor.query_one("#shape-0", Input)
        assert shape.value == "8,64"
        shape.value = "16,64"
        await pilot.press("f2")  # check the guards first: nothing runs
        await wait_until(
            pilot, lambda: bool(app.session.reruns) and app.session.reruns[-1].status == "checked"
        )
        check = app.session.reruns[-1]
        [entry] = check.checks
        assert entry.compile_id == "2/0" and not entry.passed
        assert "size mismatch at index 0. expected 8, actual 16" in entry.reason
        assert [g.kind for g in entry.guards if not g.passed] == ["TENSOR_MATCH"]
        guard_view = editor.query_one(GuardView)
        await wait_until(pilot, lambda: "expected 8, actual 16" in guard_view.text, what="the guard view")

        await pilot.press("f5")  # run: the recompile streams in and pauses at its first stage
        await wait_until(pilot, lambda: app.session.paused_at == ("2/1", "source"), timeout=120, what="2/1")
        # The editor steps aside so the main screen shows the pause, and the stage view follows it.
        await wait_until(pilot, lambda: app.screen is main_screen(app), what="the editor to close")
        try:
            await wait_until(
                pilot, lambda: main_screen(app).selected == Ref("2/1", "source"), what="the view at 2/1"
            )
        except AssertionError as exc:
            main = main_screen(app)
            raise AssertionError(
                f"{exc}: shows {main.selected}, follow={main.follow}, cursor={main.timeline.highlighted_ref}"
            ) from None
        assert "paused here" in header_text(app) and "def normalize" in shown_text(app)
        assert "expected 8, actual 16" in app.session.compiles["2/1"].recompile_reason
        while app.session.paused_at and app.session.paused_at[1] != "dynamo_graph":
            where = app.session.paused_at
            await pilot.press("n")
            # Between two pauses the target runs (`paused_at` is None): wait for the next pause itself.
            await wait_until(pilot, lambda where=where: app.session.paused_at not in (where, None), what="a step")
            assert main_screen(app).selected == Ref(*app.session.paused_at)  # the view follows
        assert "Sym(s" in shown_text(app)  # automatic dynamic: the batch became a symbol

        await pilot.press("d")  # dynamo_graph of 2/1 against 2/0: 8 became a symbol (s77 in 2.13)
        await pilot.pause()
        diff = app.screen
        assert isinstance(diff, DiffScreen) and diff.other_id == "2/0"
        assert not diff.side_by_side  # unified at 80 columns
        removed = [line for line in diff.view.lines if line.startswith("-") and "f32[8, 64]" in line]
        added = [
            line for line in diff.view.lines if line.startswith("+") and re.search(r"f32\[s\d+, 64\]", line)
        ]
        assert removed and added
        await pilot.press("escape")
        await pilot.press("g")
        await wait_until(pilot, lambda: app.session.reruns[-1].status == "ok", timeout=120, what="the re-run")
        assert app.session.reruns[-1].produced == ["2/1"]
        await pilot.press("q")
