"""Live sessions through the real pilot: a real target, real torch.compile on the CPU."""

from __future__ import annotations

import os
import signal

import pytest
from conftest import SAMPLES, SCRIPTS
from pilot import header_text, main_screen, shown_text, status_text, wait_until

from tcdebug.model import session as model
from tcdebug.model import stages as stage_catalog
from tcdebug.screens.app import build_live_app
from tcdebug.screens.widgets.timeline import Ref

MLP = str(SAMPLES / "mlp.py")

# What each stage of samples/mlp.py must show when the app pauses there.
EXPECTED = {
    "source": "def forward(self, x",
    "bytecode_before": "LOAD_ATTR",
    "dynamo_graph": "relu",
    "aot_joint": "aten.",
    "aot_forward": "aten.relu",
    "aot_backward": "aten.",
    "aot_inference": "aten.relu",
    "inductor_post_grad_graph": "aten.",
    "inductor_ir_pre_fusion": "BEFORE FUSION",
    "inductor_ir_post_fusion": "AFTER FUSION",
    "kernel_source": "cpp_fused",
    "guards": "TENSOR_MATCH",
    "bytecode_after": "__compiled_fn",
}


def _paused(app) -> tuple[str, str] | None:
    return app.session.paused_at if app.session.state == model.PAUSED else None


def _done(app) -> bool:
    return app.session.state not in (model.STARTING, model.RUNNING, model.PAUSED)


async def test_step_through_every_stage_of_mlp():
    app = build_live_app([MLP])
    seen: list[tuple[str, str]] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: _paused(app) is not None, what="the first pause")
        while not _done(app):
            where = _paused(app)
            assert where is not None
            compile_id, key = where
            stage_id = key.partition(".")[0]
            seen.append(where)
            # The view follows the pause point and shows the stage's text.
            assert main_screen(app).selected is not None and main_screen(app).selected.key == key
            # a stage this map does not name (one added to the catalogue): its own first line
            want = EXPECTED.get(stage_id) or app.session.stage(compile_id, key).get_text().split("\n", 1)[0]
            assert want and want in shown_text(app), f"{key} of {compile_id}"
            assert "paused here" in header_text(app)
            assert status_text(app) == f"paused at {key} of {compile_id}"
            await pilot.press("n")
            await wait_until(
                pilot,
                lambda where=where: _done(app) or (_paused(app) not in (None, where)),
                what=f"step from {key}",
            )
        assert app.session.state == model.FINISHED, app.session.status_line
        assert "the script finished" in [n.message for n in app._notifications]
        await pilot.press("q")
    # Training compiles the backward lazily, at .backward(): its Inductor stages come last.
    assert seen[0] == ("0/0", "source") and seen[-1] == ("0/1", "kernel_source.backward")
    by_compile = {cid: [k for c, k in seen if c == cid] for cid, _ in seen}
    assert set(by_compile) == {"0/0", "0/1"}
    views = stage_catalog.expected(stage_catalog.VIEW)
    pauses = [k for k in stage_catalog.expected_keys("inference") if stage_catalog.split_key(k)[0] not in views]
    assert by_compile["0/0"] == pauses  # every stage but views (bytecode as Python), in pipeline order
    assert "aot_backward" in by_compile["0/1"] and "kernel_source.backward" in by_compile["0/1"]
    assert app.controller is not None and not app.controller.alive


async def test_breakpoint_on_kernel_source_then_continue():
    app = build_live_app([MLP])
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: _paused(app) == ("0/0", "source"), what="pause at source")
        # b on a stage breaks on every stage of its kind; the palette can also set it.
        app.jump_to(Ref("0/0", "kernel_source", item="pending"))
        await pilot.pause()
        await pilot.press("b")
        assert app.breakpoints == {"kernel_source"}
        await pilot.press("c")
        await wait_until(
            pilot, lambda: _paused(app) == ("0/0", "kernel_source.inference"), what="the breakpoint"
        )
        assert "cpp_fused" in shown_text(app)
        assert "kernel_source" in status_text(app)
        await pilot.press("c")
        await wait_until(
            pilot, lambda: (_paused(app) or ("", ""))[1] == "kernel_source.forward", what="0/1 forward"
        )
        assert _paused(app) == ("0/1", "kernel_source.forward")
        await pilot.press("q")
    assert not app.controller.alive


async def test_quit_mid_compile_ends_the_target():
    app = build_live_app([MLP])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: _paused(app) is not None, what="the first pause")
        pid = app.controller.pid
        assert pid is not None
        await pilot.press("n")  # the target is compiling again
        await pilot.press("q")
    assert not app.controller.alive
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


async def test_script_that_raises_shows_one_line_error_and_keeps_compiles():
    app = build_live_app([str(SCRIPTS / "raises.py")], mode="run")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: _done(app), what="the script to fail")
        assert app.session.state == model.FAILED
        state = status_text(app)
        assert state.startswith("failed: ") and "\n" not in state
        assert app.session.compiles, "the compile before the exception is kept"
        await pilot.press("o")
        await pilot.pause()
        assert "Traceback" in app.screen.query_one("CodeView").text
        await pilot.press("q")
    assert app.exit_code() == 1


async def test_target_killed_mid_run_is_reported_and_app_stays_usable():
    app = build_live_app([MLP])
    async with app.run_test(size=(100, 30)) as pilot:
        for key in ("source", "bytecode_before"):
            await wait_until(pilot, lambda key=key: _paused(app) == ("0/0", key), what=key)
            await pilot.press("n")
        await wait_until(pilot, lambda: _paused(app) == ("0/0", "dynamo_graph"), what="dynamo_graph")
        os.kill(app.controller.pid, signal.SIGKILL)
        await wait_until(pilot, lambda: app.session.state == model.DIED, what="the death to be noticed")
        assert status_text(app).startswith("target died: ")
        assert "SIGKILL" in status_text(app) or "killed" in status_text(app)
        # What was captured stays browsable.
        assert app.session.compiles["0/0"].stages["source"].captured
        await pilot.press("n")  # nothing to step: a warning, not a crash
        await pilot.press("q")
    assert app.exit_code() != 0
