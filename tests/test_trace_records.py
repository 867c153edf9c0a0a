"""Torch builds only the structured-trace records tcdebug reads (`tcdebug.capture.trace_records`),
while tcdebug's dispatcher is the only one listening; with another listener, every record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import SCRIPTS

from tcdebug.capture import trace_records

ROUTED = {"dynamo_output_graph", "artifact:inductor_post_grad_graph", "artifact:routed_by_hand"}


def _filter_run(tmp_path: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, str(SCRIPTS / "trace_record_filter.py")],
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **os.environ,
            "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "cache"),
            "TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1",
        },
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_torch_builds_only_the_routed_records_and_every_record_once_another_handler_listens(
    tmp_path: Path,
) -> None:
    """Real Inductor compiles (forward and backward) with the dispatcher routing two keys: torch
    builds those and interned strings, and one first record (torch's own lazy handler, without a
    folder, leaves the logger on it, as under python); the routed graphs arrive printed. An
    unrouted artifact's payload function never runs. With a second handler on the logger, torch
    builds every record again, its own function is back in every module, and the second handler's
    records name torch's files as their callers, all but the one that found it."""
    run = _filter_run(tmp_path)
    assert run["installed"] and run["skipped"] > 100
    built = set(run["phase1_built"])
    assert len(built - ROUTED - trace_records.ALWAYS_BUILT) <= 1, built
    assert not {"describe_tensor", "artifact:before_post_grad_graph", "aot_joint_graph"} & built
    assert run["phase1_received"] == {"dynamo_output_graph": 1, "artifact:inductor_post_grad_graph": 2}
    assert run["phase1_graph_is_printed"]

    assert run["phase2"]["payloads_run"] == ["routed_by_hand"]
    assert "artifact:not_routed_by_hand" not in run["phase2"]["built"]

    everything = set(run["phase3_built"])
    assert {
        "describe_tensor",
        "artifact:before_post_grad_graph",
        "aot_joint_graph",
        "dynamo_start",
    } <= everything
    assert run["restored"] and not run["filter_active"]
    assert run["phase3_first_path"].endswith("trace_records.py")
    paths = run["phase3_paths"]
    assert paths and all(f"{os.sep}torch{os.sep}" in path for path in paths), paths


def _dump_run(tmp_path: Path, **env: str) -> tuple[dict, dict]:
    tmp_path.mkdir()
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "tcdebug", "--dump", str(out), str(SCRIPTS / "trace_filter_in_place.py")],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    [line] = [ln for ln in (out / "output.txt").read_text().splitlines() if ln.startswith("{")]
    seen = json.loads(line)
    return seen, json.loads((out / "session.json").read_text())


def test_a_tcdebug_run_puts_the_filter_in_and_the_skip_switch_keeps_it_out(tmp_path: Path) -> None:
    """`tcdebug --dump` installs the filter as a capture unit (no note: nothing failed);
    `TCDEBUG_SKIP_UNITS=trace_filter` leaves torch's own function, and a note says so."""
    seen, index = _dump_run(tmp_path / "on")
    assert seen == {"filter_file": True, "same_everywhere": True}
    assert not [note for note in index["notes"] if note.startswith("trace_filter:")]
    seen, index = _dump_run(tmp_path / "off", TCDEBUG_SKIP_UNITS="trace_filter")
    assert seen == {"filter_file": False, "same_everywhere": True}
    assert "trace_filter: switched off (TCDEBUG_SKIP_UNITS)" in index["notes"]
