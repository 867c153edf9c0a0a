"""`tcdebug torchrun` on two GPUs (nccl, Inductor): both ranks, Triton kernels, DDP's bucket split; the
live app in a terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pty_app import Pty
from test_gpu_ranks_trace import _two_gpus

from tcdebug.process import proctree

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.usefixtures("contained_tmpdir"),  # torchrun's leftovers stay in the test's folder
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
    assert "no CUDA device" not in proc.stdout  # the launcher never touches CUDA; its ranks did
    for rank in ("0", "1"):
        index = json.loads((out / "ranks" / rank / "session.json").read_text())
        assert index["device"].startswith("cuda"), index["device"]
        stages = [s for c in index["compiles"] for s in c["stages"]]
        kernels = [s for s in stages if s["id"] == "kernel_source" and s["status"] == "captured"]
        assert kernels and all(s["language"] == "python" for s in kernels)  # Triton
        # each of the split's two subgraphs keeps its own forward and backward kernels
        assert sorted(s["part"] for s in kernels) == ["backward", "backward_1", "forward", "forward_1"]
        [split] = [gb["reason"] for c in index["compiles"] for gb in c["graph_breaks"]]
        assert split.startswith("DDPOptimizer split")
    root = json.loads((out / "session.json").read_text())
    assert not [d for d in root["divergences"] if d["kind"] == "graph"]  # cuda:0 vs cuda:1 normalised


def _job_processes(script: str) -> list[str]:
    """Command lines of live processes running `script` (a rank, the launcher)."""
    found = []
    for p in proctree.all_processes():
        try:
            cmdline = Path(f"/proc/{p.pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if script in cmdline and p.state != "Z":
            found.append(f"{p.pid}: {cmdline}")
    return found


def test_the_app_in_a_terminal_steps_both_gpu_ranks_and_q_leaves_no_rank(tmp_path: Path) -> None:
    """`tcdebug torchrun` live on two GPUs (nccl) in a real pty: both ranks pause at their first
    stage, `n` steps them, `q` exits 0, and no rank or launcher process is left."""
    script = str(ROOT / "samples" / "ddp.py")
    args = ["torchrun", "--nproc-per-node", "2", script, "--steps", "1"]
    app = Pty(args, size=(100, 30), cwd=tmp_path, env={"PYTHONPATH": str(ROOT)})
    try:
        app.wait_text(b"0/0@r1", 300)  # rank 1's compile
        app.wait_text(b"paused at source of 0/0@r", 60)  # the header may be painted a frame later
        for stage in (b"bytecode_before", b"dynamo_graph"):
            app.press(b"n")
            app.wait_text(b"paused at " + stage + b" of 0/0@r", 120, new=True)
        app.press(b"q")
        assert app.wait_exit(65) == 0
    finally:
        app.close()
    deadline = time.monotonic() + 10
    while _job_processes(script) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _job_processes(script) == []
