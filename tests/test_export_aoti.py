"""`tcdebug samples/export_aoti.py`: step through a live torch.export and AOTInductor compile
(the real pilot, a real target, real export and AOTInductor on the CPU)."""

from __future__ import annotations

import pytest
from conftest import SAMPLES, SCRIPTS, run_tcdebug
from pilot import main_screen, shown_text, wait_until

from tcdebug.dump.loader import load_dump
from tcdebug.model import session as model
from tcdebug.screens.app import build_live_app
from tcdebug.torchtext import export_text as aoti

pytestmark = pytest.mark.slow

# What the view must show when the app pauses at each stage of the sample.
EXPECTED = {
    ("-/-", "source"): "def forward(self, x)",
    ("-/-", "export_program"): "ExportedProgram",
    ("-/-", "guards"): "s77: VR[2, 64]",
    ("-/-#2", "aot_inference"): "aten.",
    ("-/-#2", "inductor_post_grad_graph.inference"): "aten.",
    ("-/-#2", "inductor_ir_pre_fusion.inference"): "BEFORE FUSION",
    ("-/-#2", "inductor_ir_post_fusion.inference"): "AFTER FUSION",
    ("-/-#2", "kernel_source.inference"): 'extern "C"',
    ("-/-#2", "aoti_wrapper"): "AOTInductorModel",
}


def _paused(app) -> tuple[str, str] | None:
    return app.session.paused_at if app.session.state == model.PAUSED else None


def _done(app) -> bool:
    return app.session.state not in (model.STARTING, model.RUNNING, model.PAUSED)


async def test_step_through_export_and_aoti():
    app = build_live_app([str(SAMPLES / "export_aoti.py")])
    seen: list[tuple[str, str]] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: _paused(app) is not None, timeout=300, what="the first pause")
        while not _done(app):
            where = _paused(app)
            assert where is not None
            seen.append(where)
            assert main_screen(app).selected is not None and main_screen(app).selected.key == where[1]
            if where in EXPECTED:
                assert EXPECTED[where] in shown_text(app), where
            await pilot.press("n")
            await wait_until(
                pilot,
                lambda where=where: _done(app) or (_paused(app) not in (None, where)),
                timeout=300,
                what=f"step from {where}",
            )
        assert app.session.state == model.FINISHED, app.session.status_line
        session = app.session
        await pilot.press("q")
    assert set(EXPECTED) <= set(seen), seen
    export, compiled = session.compiles["-/-"], session.compiles["-/-#2"]
    assert export.function == "torch.export Small" and compiled.function == "AOTInductor"
    assert export.status == compiled.status == "ok"
    # no Dynamo frame: those stages say why, and nothing is filed under a Dynamo compile id
    assert "no Dynamo frame" in export.stages["dynamo_graph"].reason
    assert "no Dynamo frame" in compiled.stages["bytecode_after"].reason
    assert set(session.compiles) == {"-/-", "-/-#2"}
    kernels = compiled.stages["kernel_source.inference"].kernels
    assert [k.name for k in kernels] == ["cpp_fused_0", "cpp_fused_mul_relu_1"]
    assert all(k.source.startswith('extern "C"') for k in kernels)
    assert all(k.name in compiled.stages["aoti_wrapper"].get_text() for k in kernels)


def test_frameless_ids_and_kernel_split() -> None:
    assert [aoti.frameless_id(n) for n in (1, 2, 3)] == ["-/-", "-/-#2", "-/-#3"]
    code = 'head\nextern "C"  void  k_0(float* a)\n{\n}\nextern "C"  void  k_1(float* b)\n{ x; }\n'
    assert [(k.name, k.source.splitlines()[-1]) for k in aoti.split_cpp_kernels(code)] == [
        ("k_0", "}"),
        ("k_1", "{ x; }"),
    ]
    text = "ExportedProgram:\nGraph signature:\n    # inputs\n    x: USER_INPUT\nRange constraints: {s0: VR[2, 64], s1: VR[1, 8]}\n"
    constraints = aoti.export_constraints(text)
    assert "  s0: VR[2, 64]\n  s1: VR[1, 8]" in constraints and "x: USER_INPUT" in constraints


def test_an_export_after_a_compile_is_captured(tmp_path) -> None:
    """The capture goes in at the script's first compile, before its export imports
    `torch.export._trace`: the export's records reach tcdebug all the same."""
    out = tmp_path / "out"
    proc = run_tcdebug("--dump", str(out), str(SCRIPTS / "compile_then_export.py"), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    session = load_dump(out)
    exports = [c for c in session.compiles.values() if c.function.startswith("torch.export")]
    assert [c.function for c in exports] == ["torch.export Small"]
    assert "ExportedProgram" in exports[0].stages["export_program"].get_text()
    assert "0/0" in session.compiles
