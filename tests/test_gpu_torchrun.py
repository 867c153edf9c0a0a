"""`tcdebug torchrun` on two GPUs (nccl, Inductor): both ranks, Triton kernels, DDP's bucket split; the
live app in a terminal."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from test_gpu_ranks_trace import _two_gpus

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
        [split] = [gb["reason"] for c in index["compiles"] for gb in c["graph_breaks"]]
        assert split.startswith("DDPOptimizer split")
    root = json.loads((out / "session.json").read_text())
    assert not [d for d in root["divergences"] if d["kind"] == "graph"]  # cuda:0 vs cuda:1 normalised


def _screen_until(master: int, proc: subprocess.Popen, out: bytearray, wanted: bytes, timeout: float) -> bool:
    """Read the terminal into `out` until `wanted` shows after what was read so far, or `timeout`."""
    start = len(out)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                out += os.read(master, 65536)
            except OSError:
                return False
        if wanted in out[start:]:
            return True
    return False


def _job_processes(script: str) -> list[str]:
    """Command lines of live processes running `script` (a rank, the launcher)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if script in cmdline and state != "Z":
            found.append(f"{name}: {cmdline}")
    return found


def test_the_app_in_a_terminal_steps_both_gpu_ranks_and_q_leaves_no_rank(tmp_path: Path) -> None:
    """`tcdebug torchrun` live on two GPUs (nccl) in a real pty: both ranks pause at their first
    stage, `n` steps them, `q` exits 0, and no rank or launcher process is left."""
    script = str(ROOT / "samples" / "ddp.py")
    master, slave = pty.openpty()
    os.set_blocking(master, False)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "tcdebug", "torchrun", "--nproc-per-node", "2", script, "--steps", "1"]
    proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path, env=env)
    os.close(slave)
    out = bytearray()
    try:
        assert _screen_until(master, proc, out, b"0/0@r1", 300), bytes(out[-3000:])  # rank 1's compile
        assert b"paused at source of 0/0@r" in out, bytes(out[-3000:])
        for stage in (b"bytecode_before", b"dynamo_graph"):
            os.write(master, b"n")
            assert _screen_until(master, proc, out, b"paused at " + stage + b" of 0/0@r", 120), bytes(out[-3000:])
        os.write(master, b"q")
        _screen_until(master, proc, out, b"\0never", 60)  # read on while it exits: a full pty would block it
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    deadline = time.monotonic() + 10
    while _job_processes(script) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _job_processes(script) == []
