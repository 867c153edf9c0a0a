"""`A` in the real app: the live target compares a compile with eager after the script ends
(samples/relu_bug.py under `--accuracy`), a dump shows the comparison it holds, and where nothing
can be compared the key says why in one line."""

from __future__ import annotations

from conftest import SAMPLES, DumpRun
from pilot import wait_until

from tcdebug.dump.loader import load_dump
from tcdebug.screens.accuracy_screen import AccuracyScreen
from tcdebug.screens.app import TcdebugApp, build_live_app
from tcdebug.screens.widgets.timeline import Ref


def _report(app: TcdebugApp) -> str:
    screen = app.screen
    assert isinstance(screen, AccuracyScreen)
    return str(screen.query_one("#accuracy-report").render())


async def test_live_key_a_names_inductor_the_relu_line_and_kernel() -> None:
    app = build_live_app([str(SAMPLES / "relu_bug.py")], mode="run", accuracy=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.target_ready, timeout=400, what="the script to end")
        app.jump_to(Ref("0/0"))
        await pilot.pause()
        await pilot.press("A")
        await wait_until(pilot, lambda: isinstance(app.screen, AccuracyScreen), what="the accuracy screen")
        comp = app.session.compiles["0/0"]
        await wait_until(
            pilot, lambda: comp.accuracy is not None and comp.accuracy.done, timeout=400, what="the answer"
        )
        await pilot.pause()
        text = _report(app)
        assert "Inductor differs beyond tolerance" in text
        assert "first diverging node of inductor_post_grad_graph.inference: relu" in text
        assert "relu_bug.py:" in text and "torch.relu(h)" in text
        assert "kernel: cpp_fused" in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, AccuracyScreen)


async def test_a_on_a_dump_shows_its_comparison(relu_accuracy_dump: DumpRun) -> None:
    app = TcdebugApp(load_dump(relu_accuracy_dump.out), read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        app.jump_to(Ref("0/0"))
        await pilot.pause()
        await pilot.press("A")
        await pilot.pause()
        text = _report(app)
        assert "Inductor: DIFFERS beyond tolerance" in text and "kernel: cpp_fused" in text


async def test_a_says_why_when_nothing_was_compared(mlp_dump: DumpRun) -> None:
    app = TcdebugApp(load_dump(mlp_dump.out), read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.jump_to(Ref("0/0"))
        await pilot.pause()
        await pilot.press("A")
        await pilot.pause()
        assert not isinstance(app.screen, AccuracyScreen)
        assert any("--accuracy" in n.message for n in app._notifications)
