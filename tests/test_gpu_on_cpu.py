"""The GPU stages on a machine without CUDA: said plainly, never missing silently."""

from __future__ import annotations

import pytest
from conftest import SAMPLES, DumpRun, SharedDumps, share_dump

from tcdebug.dump.loader import load_dump


def _has_cuda() -> bool:
    import subprocess
    import sys

    code = "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120).returncode == 0


pytestmark = [pytest.mark.slow, pytest.mark.skipif(_has_cuda(), reason="checks the CPU-only behaviour")]


@pytest.fixture(scope="module")
def cpu_cudagraphs(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("cpu_cudagraphs")


share_dump("cpu_cudagraphs", "cpu_cudagraphs", str(SAMPLES / "cudagraphs.py"))


def test_reduce_overhead_on_cpu_says_no_cuda_device(cpu_cudagraphs: DumpRun) -> None:
    assert cpu_cudagraphs.returncode == 0, cpu_cudagraphs.stderr
    session = load_dump(cpu_cudagraphs.out)
    for cid in ("0/0", "1/0"):
        stage = session.compiles[cid].stages["cudagraph.inference"]
        assert not stage.captured and stage.reason == "no CUDA device"
        assert stage.get_text() == "not captured: no CUDA device"
    assert "not captured (no CUDA device)" in cpu_cudagraphs.stdout
    assert "cuda graphs:" not in cpu_cudagraphs.stdout
    # the sample itself still ran to the end
    assert "mutating input: total[0]" in session.output_text()


def test_cpu_kernels_carry_inductor_provenance(cpu_cudagraphs: DumpRun) -> None:
    session = load_dump(cpu_cudagraphs.out)
    kernels = session.compiles["0/0"].stages["kernel_source.inference"].kernels
    assert kernels and all(k.kind == "cpp" for k in kernels)
    # the post-grad FX nodes fused into each kernel, by the lines Inductor wrote for each node (torch's
    # kernel table needs provenance tracking, which renames kernels, so tcdebug leaves it off)
    comp = session.compiles["0/0"]
    fused = {
        name
        for k in kernels
        for name in comp.provenance.trail([f"kernel_source.inference|{k.name}"]).names("inductor_post_grad_graph.inference")
    }
    assert "relu" in fused, fused
    assert all(not k.configs and k.chosen_config is None for k in kernels)  # nothing to autotune on CPU
