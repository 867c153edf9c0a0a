"""Every benchmark runs end to end in its tiny `--quick` mode (the numbers are not checked)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow

BENCH = ROOT / "benchmarks"


BENCHMARKS = [
    "capture_overhead",
    "capture_instructions",
    "ui_start",
    "stage_latency",
    "memory_scale",
    "big_log",
    "small_logs",
    "app_scale",
    "live_latency",
    "gpu_overhead",
    "big_output",
    "scale_compiles",
]


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_runs_quick(name: str, tmp_path) -> None:
    out = tmp_path / "result.json"
    # gpu_overhead's quick run also checks --serial-compile (no compile pool in any variant)
    extra = ["--serial-compile"] if name == "gpu_overhead" else []
    proc = subprocess.run(
        [sys.executable, str(BENCH / f"{name}.py"), "--quick", *extra, "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=600 if name == "capture_instructions" else 120,  # under valgrind: about 40 times slower
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "TORCHINDUCTOR_COMPILE_THREADS"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["checks"], "a benchmark must check at least one target"
    assert "|" in result["markdown"] and result["title"] in result["markdown"]
    if extra:
        assert "TORCHINDUCTOR_COMPILE_THREADS=1 for every variant (--serial-compile)" in result["markdown"]
    if name == "capture_instructions" and shutil.which("valgrind"):
        # python's process and tcdebug's target counted to the script's end, tcdebug's parent to its exit
        counts = result["data"]["pure_python.py"]
        assert counts["python"]["parent"] is None and counts["python"]["script"] > 10**7
        assert counts["tcdebug --dump"]["script"] > counts["python"]["script"] > 0
        assert counts["tcdebug --dump"]["parent"] > 10**8
    # Whatever the timings, the UI process must never import torch.
    for check, met in result["checks"].items():
        if "torch" in check:
            assert met, check


def test_run_all_writes_the_results_table(tmp_path) -> None:
    out = tmp_path / "RESULTS.md"
    proc = subprocess.run(
        [sys.executable, str(BENCH / "run_all.py"), "--quick", "--only", "ui_start", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = out.read_text()
    assert "| load average" in text and "torch" in text and "first frame, median" in text


@pytest.mark.parametrize("name", ["capture_overhead", "gpu_overhead"])
def test_side_by_side_pins_each_run_to_its_half(name: str, tmp_path) -> None:
    """`--side-by-side`: python and tcdebug start together each round, each on one half of the
    CPUs, the halves swapped every round (here a one-op compile, on the CPU)."""
    out = tmp_path / "result.json"
    proc = subprocess.run(
        [sys.executable, str(BENCH / f"{name}.py"), "--quick", "--side-by-side", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(out.read_text())
    runs = result["data"]["tiny.py"]
    assert len(runs["python"]) == len(runs["tcdebug --dump"]) == 2
    assert "side-by-side" in result["title"] and "swapped every round" in result["markdown"]
    sys.path.insert(0, str(BENCH))
    try:
        from capture_overhead import cpu_halves, pinned
    finally:
        sys.path.remove(str(BENCH))
    first, second = cpu_halves()
    assert first and second and not set(first) & set(second)
    # the trampoline really pins what it starts
    shown = subprocess.run(
        pinned([sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"], second),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.stdout.strip() == str(sorted(second))
