"""`$TCDEBUG_SKIP_UNITS` (for benchmarks/gpu_overhead.py --attribute): a switched-off capture unit's
stages are marked not captured, with the reason, and the rest is captured as usual."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow


def test_a_switched_off_unit_leaves_its_stages_not_captured(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {**os.environ, "TCDEBUG_SKIP_UNITS": "guards"}
    proc = subprocess.run(
        [sys.executable, "-m", "tcdebug", "--dump", str(out), str(ROOT / "benchmarks" / "scripts" / "tiny.py")],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    index = json.loads((out / "session.json").read_text())
    stages = {s["id"]: s for s in index["compiles"][0]["stages"]}
    assert stages["dynamo_graph"]["status"] == "captured"
    guards = stages.get("guards")
    assert guards is None or guards["status"] != "captured"
    assert "guards: switched off (TCDEBUG_SKIP_UNITS)" in index["notes"]


def test_every_unit_and_the_trace_handler_can_be_switched_off_together(monkeypatch: pytest.MonkeyPatch) -> None:
    from tcdebug.capture.setup import UNITS, skipped_units

    monkeypatch.setenv("TCDEBUG_SKIP_UNITS", "*, trace")
    assert skipped_units() == {unit.rsplit(".", 1)[-1] for unit in UNITS} | {"trace"}
    monkeypatch.setenv("TCDEBUG_SKIP_UNITS", "*")
    assert "trace" not in skipped_units()
