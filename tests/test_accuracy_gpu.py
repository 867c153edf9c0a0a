"""`--accuracy` with Triton: samples/relu_bug.py on a CUDA device, where Inductor's
`triton.inject_relu_bug_TESTING_ONLY = "accuracy"` miscompiles the relu.

`test_gpu_*` run live on a GPU box (`pytest -m gpu`); the CPU test reads the dump recorded there with
the same command, `tcdebug --accuracy --dump tests/data/gpu_accuracy samples/relu_bug.py`, and skips
while no recording is in tests/data.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA, SAMPLES, dump_run
from test_gpu_live import _has_cuda

from tcdebug.analysis.accuracy_report import locate
from tcdebug.dump.loader import load_dump
from tcdebug.model.session import Session

RECORDED = DATA / "gpu_accuracy"
RELU_LINE = next(
    i
    for i, line in enumerate((SAMPLES / "relu_bug.py").read_text().splitlines(), 1)
    if "torch.relu(h)" in line
)


def check_triton_relu(session: Session, folder: Path) -> None:
    comp = session.compiles["0/0"]
    acc = comp.accuracy
    assert session.device.startswith("cuda")
    assert acc is not None and acc.status == "diverged" and acc.layer == "inductor", acc
    assert acc.node is not None and acc.node.name == "relu" and acc.node.line == RELU_LINE
    kernels = locate(comp).kernels
    assert [k for k in kernels if k.startswith("triton_") and "relu" in k], kernels
    repro = (folder / "compiles" / "0-0" / "repro.py").read_text()
    assert "inject_relu_bug_TESTING_ONLY = 'accuracy'" in repro


@pytest.mark.skipif(not RECORDED.is_dir(), reason="no recording from a GPU box in tests/data/gpu_accuracy")
def test_recorded_triton_relu_is_named() -> None:
    check_triton_relu(load_dump(RECORDED), RECORDED)


@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.skipif(not _has_cuda(), reason="needs a CUDA device")
def test_gpu_accuracy_names_the_triton_relu_and_its_repro_fails(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    run = dump_run(tmp_path_factory, "gpu_accuracy", "--accuracy", str(SAMPLES / "relu_bug.py"))
    assert run.returncode == 0, run.stderr
    check_triton_relu(load_dump(run.out), run.out)
    result = subprocess.run(
        [sys.executable, "repro.py"],
        cwd=run.out / "compiles" / "0-0",
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode != 0 and "AccuracyError: Bad accuracy detected" in result.stderr
