"""The suite's shared background runs (`conftest.SharedDumps`) start from the session's
environment, never from a test's: a run starts between tests or while a test waits, and a test's
`monkeypatch.setenv` for its own children (`TCDEBUG_TREAT_AS_MISSING`, say) reaching the
graph-break zoo's run would leave every compile unnamed."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, SharedRun, _Running

VAR = "TCDEBUG_SET_BY_ONE_TEST"


def test_a_shared_run_starts_without_what_a_test_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(VAR, "this test only")
    argv = (sys.executable, "-c", f"import os; print(os.environ.get({VAR!r}, 'unset'))")
    running = _Running(SharedRun("env", argv, {}, ROOT, False, ""), tmp_path, 0)
    deadline = time.monotonic() + 60
    while not running.poll():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert running.result is not None and running.result.stdout.strip() == "unset"
