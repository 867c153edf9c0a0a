"""Two ranks on two GPUs (cuda:0, cuda:1): their graphs differ only in the device index, which is no
divergence. `pytest -m gpu tests/test_gpu_ranks_trace.py` on a box with two GPUs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_gpu_live import _has_cuda

from tcdebug import trace

ROOT = Path(__file__).resolve().parent.parent


def _two_gpus() -> bool:
    if not _has_cuda():
        return False
    code = "import torch, sys; sys.exit(0 if torch.cuda.device_count() >= 2 else 1)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120).returncode == 0


pytestmark = [
    pytest.mark.gpu,
    pytest.mark.slow,
    pytest.mark.skipif(not _two_gpus(), reason="needs two CUDA devices"),
]


def test_ranks_on_cuda_0_and_cuda_1_do_not_diverge(tmp_path: Path) -> None:
    env = dict(os.environ, TORCH_TRACE=str(tmp_path), TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")
    script = ROOT / "tests" / "scripts" / "traces" / "ranks_dup.py"
    run = subprocess.run(
        [sys.executable, str(script), "--cuda"], env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-3000:]
    sessions = trace.load_rank_sessions(tmp_path)
    assert list(sessions) == ["0", "1"]
    graphs = {label: s.compiles["0/0"].stages["dynamo_graph"].get_text() for label, s in sessions.items()}
    assert "cuda:0" in graphs["0"] and "cuda:1" in graphs["1"]
    assert trace.divergences(sessions) == []
