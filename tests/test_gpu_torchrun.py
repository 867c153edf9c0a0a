"""`tcdebug torchrun` on two GPUs (nccl, Inductor): both ranks, Triton kernels, DDP's bucket split."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_gpu_ranks_trace import _two_gpus

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.slow,
    pytest.mark.skipif(not _two_gpus(), reason="needs two CUDA devices"),
]


def test_ddp_on_two_gpus_dumps_both_ranks_with_triton_kernels(tmp_path: Path) -> None:
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "tcdebug", "--dump", str(out), "torchrun", "--nproc-per-node", "2"]
    proc = subprocess.run(
        [*cmd, str(ROOT / "samples" / "ddp.py"), "--steps", "1"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    for rank in ("0", "1"):
        index = json.loads((out / "ranks" / rank / "session.json").read_text())
        assert index["device"].startswith("cuda"), index["device"]
        stages = [s for c in index["compiles"] for s in c["stages"]]
        kernels = [s for s in stages if s["stage_id"] == "kernel_source" and s["status"] == "captured"]
        assert kernels and all(s["language"] == "python" for s in kernels)  # Triton
        [split] = [gb["reason"] for c in index["compiles"] for gb in c["graph_breaks"]]
        assert split.startswith("DDPOptimizer split")
    root = json.loads((out / "session.json").read_text())
    assert not [d for d in root["divergences"] if d["kind"] == "graph"]  # cuda:0 vs cuda:1 normalised
