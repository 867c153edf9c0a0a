"""Live runs on a CUDA device: real Triton kernels and CUDA graphs (skipped without CUDA).

`pytest -m gpu` on a GPU box. The recorded dumps under tests/data/gpu_* come from the
same commands: `tcdebug --dump OUT samples/{mlp,cudagraphs,transformer_block}.py`.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SAMPLES, DumpRun, dump_run

from tcdebug.dump.loader import load_dump
from tcdebug.model import session as model


def _has_cuda() -> bool:
    if not (shutil.which("nvidia-smi") or Path("/dev/nvidiactl").exists()):
        return False  # no driver: skip without paying for a torch import
    code = "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"
    try:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


pytestmark = [
    pytest.mark.gpu,
    pytest.mark.slow,
    pytest.mark.skipif(not _has_cuda(), reason="needs a CUDA device"),
]


@pytest.fixture(scope="module")
def cudagraphs_dump(tmp_path_factory: pytest.TempPathFactory) -> DumpRun:
    return dump_run(tmp_path_factory, "gpu_cudagraphs", str(SAMPLES / "cudagraphs.py"))


def test_mlp_dump_on_cuda_has_triton_kernels(tmp_path_factory: pytest.TempPathFactory) -> None:
    run = dump_run(tmp_path_factory, "gpu_mlp", str(SAMPLES / "mlp.py"))
    assert run.returncode == 0, run.stderr
    assert "no CUDA device" not in run.stdout
    session = load_dump(run.out)
    assert session.device.startswith("cuda")
    for key, comp in (("kernel_source.inference", "0/0"), ("kernel_source.backward", "0/1")):
        kernels = session.compiles[comp].stages[key].kernels
        assert kernels and all(k.name.startswith("triton_") for k in kernels), key
        assert all(k.chosen_config and k.chosen_config in k.configs for k in kernels), key
        assert all(k.meta["triton"]["heuristic"] == k.kind for k in kernels), key


def test_cudagraphs_dump_records_rerecords_and_skips(cudagraphs_dump: DumpRun) -> None:
    assert cudagraphs_dump.returncode == 0, cudagraphs_dump.stderr
    session = load_dump(cudagraphs_dump.out)
    recorded = session.compiles["0/0"].stages["cudagraph.inference"]
    assert recorded.meta["recordings"] == 2
    assert "static input data pointer changed" in recorded.meta["rerecord_reasons"][0]
    symbols = [k.meta["symbol"] for k in recorded.kernels]
    assert "triton_poi_fused_addmm_relu_0" in symbols
    assert all(len(k.meta["grid"]) == 3 and min(k.meta["grid"]) >= 1 for k in recorded.kernels)
    skipped = session.compiles["1/0"].stages["cudagraph.inference"]
    assert skipped.meta["skipped"] and "mutated inputs" in skipped.meta["skip_reasons"][0]
    assert "cuda graphs: 2" in cudagraphs_dump.stdout


@pytest.mark.skipif(importlib.util.find_spec("textual") is None, reason="needs textual")
async def test_pilot_pauses_at_cudagraph_stage() -> None:
    from pilot import shown_text, status_text, wait_until

    from tcdebug.screens.app import build_live_app

    app = build_live_app([str(SAMPLES / "cudagraphs.py")], mode="continue", breakpoints=["cudagraph"])

    def paused() -> tuple[str, str] | None:
        return app.session.paused_at if app.session.state == model.PAUSED else None

    async with app.run_test(size=(140, 40)) as pilot:
        await wait_until(
            pilot, lambda: paused() == ("0/0", "cudagraph.inference"), timeout=300, what="recording"
        )
        assert "CUDA graph 0: recording #1" in shown_text(app)
        assert "triton_poi_fused_addmm_relu_0" in shown_text(app) and "grid (" in shown_text(app)
        assert status_text(app) == "paused at cudagraph.inference of 0/0"
        await pilot.press("c")  # the swapped weight makes Inductor record the graph again: a second pause

        def rerecorded() -> bool:
            stage = app.session.stage("0/0", "cudagraph.inference")
            return (
                paused() == ("0/0", "cudagraph.inference")
                and stage is not None
                and stage.meta["recordings"] == 2
            )

        await wait_until(pilot, rerecorded, timeout=300, what="the re-recording")
        await pilot.pause()
        assert "re-recorded because: static input data pointer changed" in shown_text(app)
        await pilot.press("c")
        await wait_until(
            pilot, lambda: paused() == ("1/0", "cudagraph.inference"), timeout=300, what="the skip"
        )
        assert "skipping cudagraphs due to mutated inputs" in shown_text(app)
        await pilot.press("c")
        await wait_until(pilot, lambda: app.session.state == model.FINISHED, timeout=300, what="the end")
        await pilot.press("q")
    assert not app.controller.alive


def test_samples_run_with_plain_python_on_cuda() -> None:
    proc = subprocess.run(
        [sys.executable, str(SAMPLES / "cudagraphs.py")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert proc.returncode == 0, proc.stderr
    assert "inference on cuda" in proc.stdout
    assert "skipping cudagraphs due to mutated inputs" in proc.stderr  # torch's own warning


def test_a_script_hiding_its_gpus_sees_none(tmp_path_factory: pytest.TempPathFactory) -> None:
    """tcdebug never initializes CUDA before the script: `CUDA_VISIBLE_DEVICES` set by the script
    before its `import torch` hides the GPUs as under python, and the device shown is the CPU."""
    script = str(Path(__file__).parent / "scripts" / "hides_gpus.py")
    plain = subprocess.run([sys.executable, script], capture_output=True, text=True, timeout=300)
    assert "CUDA_SEEN False" in plain.stdout, plain.stderr[-2000:]
    run = dump_run(tmp_path_factory, "gpu_hidden", script)
    assert run.returncode == 0, run.stderr
    assert "CUDA_SEEN False" in (run.out / "output.txt").read_text()
    session = load_dump(run.out)
    assert session.device == "cpu" and sorted(session.compiles) == ["0/0"]


@pytest.mark.skipif(importlib.util.find_spec("textual") is None, reason="needs textual")
async def test_event_breakpoints_pause_at_the_cudagraph_rerecord_and_skip() -> None:
    """`--break cudagraph_rerecord` and `--break cudagraph_skip` stop the script when Inductor
    re-records the graph (the swapped weight) and when it skips CUDA graphs (the mutated input),
    each with the reason and the script's line."""
    from pilot import status_text, wait_until

    from tcdebug.model.events import EventPause
    from tcdebug.screens.app import build_live_app

    script = SAMPLES / "cudagraphs.py"
    source = script.read_text().splitlines()
    swap_loop = next(i for i, line in enumerate(source, 1) if "after swapping" in line) - 1
    app = build_live_app([str(script)], mode="continue", breakpoints=["cudagraph_rerecord", "cudagraph_skip"])

    def event() -> EventPause | None:
        if app.session.state != model.PAUSED:
            return None
        return app.session.paused_events.get(app.session.paused_pid or 0)

    seen: list[EventPause] = []
    async with app.run_test(size=(80, 24)) as pilot:
        while len(seen) < 4:
            await wait_until(
                pilot,
                lambda: event() is not None or app.session.state == model.FINISHED,
                timeout=300,
                what="a cudagraph event",
            )
            current = event()
            if current is None:
                break
            seen.append(current)
            assert current.kind in status_text(app)
            await pilot.press("c")
            await wait_until(pilot, lambda c=current: event() is not c, timeout=300, what="going on")
        await wait_until(pilot, lambda: app.session.state == model.FINISHED, timeout=300, what="the end")
    kinds = {e.kind: e for e in seen}
    assert set(kinds) == {"cudagraph_rerecord", "cudagraph_skip"}, [(e.kind, e.detail) for e in seen]
    rerecord, skip = kinds["cudagraph_rerecord"], kinds["cudagraph_skip"]
    assert "static input data pointer changed" in rerecord.detail and rerecord.compile_id == "0/0"
    assert rerecord.user is not None and rerecord.user.file.endswith("cudagraphs.py")
    assert rerecord.user.line == swap_loop
    assert "mutated inputs" in skip.detail and skip.compile_id == "1/0"
    assert skip.user is not None and skip.user.file.endswith("cudagraphs.py"), skip.user
