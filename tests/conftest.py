"""Shared fixtures: real `torch.compile` runs on the CPU, each run once per test session."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SCRIPTS = Path(__file__).resolve().parent / "scripts"
DATA = Path(__file__).resolve().parent / "data"


def pytest_configure(config: pytest.Config) -> None:
    """The suite's processes start as from a terminal. Started where Ctrl-C is ignored (a
    background job of a non-interactive shell ignores SIGINT), every tcdebug the tests start
    would inherit the ignoring, and the tests that press Ctrl-C on one would wait in vain."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@dataclass
class DumpRun:
    out: Path
    returncode: int
    stdout: str
    stderr: str


def run_tcdebug(
    *args: str, cwd: Path | None = None, timeout: float = 600, env: dict | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tcdebug", *args],
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def path_report(text: str) -> dict:
    """The JSON line `tests/scripts/show_path.py` prints, from a run's output."""
    line = next(line for line in text.splitlines() if line.startswith("PATH_REPORT "))
    return json.loads(line.split(" ", 1)[1])


def dump_run(tmp_path_factory: pytest.TempPathFactory, name: str, *script: str) -> DumpRun:
    out = tmp_path_factory.mktemp(name) / "out"
    proc = run_tcdebug("--dump", str(out), *script)
    return DumpRun(out, proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture(scope="session")
def mlp_dump(tmp_path_factory: pytest.TempPathFactory) -> DumpRun:
    return dump_run(tmp_path_factory, "mlp", str(SAMPLES / "mlp.py"))


@pytest.fixture(scope="session")
def graph_breaks_dump(tmp_path_factory: pytest.TempPathFactory) -> DumpRun:
    return dump_run(tmp_path_factory, "graph_breaks", str(SAMPLES / "graph_breaks.py"))


@pytest.fixture(scope="session")
def dynamic_dump(tmp_path_factory: pytest.TempPathFactory) -> DumpRun:
    return dump_run(tmp_path_factory, "dynamic", str(SAMPLES / "dynamic_shapes.py"))


@pytest.fixture(scope="session")
def transformer_dump(tmp_path_factory: pytest.TempPathFactory) -> DumpRun:
    """samples/transformer_block.py: a training compile with many fused kernels (about a minute)."""
    return dump_run(tmp_path_factory, "transformer", str(SAMPLES / "transformer_block.py"))
