"""Bad input gives a one-line error, a non-zero exit code, and keeps what was captured."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT, SCRIPTS, run_tcdebug

from tcdebug.dump.loader import load_dump
from tcdebug.dump.writer import DumpWriter
from tcdebug.model.events import Output, TargetExited
from tcdebug.model.session import DIED, Session
from tcdebug.process.controller import TargetController


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("tcdebug: error:")]


def test_missing_script(tmp_path):
    proc = run_tcdebug("--dump", str(tmp_path / "out"), "no/such/script.py")
    assert proc.returncode == 2
    assert _error_lines(proc.stderr) == ["tcdebug: error: no such script: no/such/script.py"]


def test_syntax_error(tmp_path):
    out = tmp_path / "out"
    proc = run_tcdebug("--dump", str(out), str(SCRIPTS / "syntax_error.py"))
    assert proc.returncode == 1
    [line] = _error_lines(proc.stderr)
    assert "SyntaxError" in line and "syntax_error.py:1" in line
    assert json.loads((out / "session.json").read_text())["error"].startswith("SyntaxError")


def test_exception_in_user_code_keeps_what_was_captured(tmp_path):
    out = tmp_path / "out"
    proc = run_tcdebug("--dump", str(out), str(SCRIPTS / "raises.py"))
    assert proc.returncode == 1
    [line] = _error_lines(proc.stderr)
    assert line == "tcdebug: error: ValueError: boom from user code (tests/scripts/raises.py:11)"
    session = load_dump(out)
    assert session.compiles["0/0"].stages["dynamo_graph"].captured  # the compile before the error
    output = (out / "output.txt").read_text()
    assert "before the error" in output and "Traceback" in output


def test_backend_failure(tmp_path):
    out = tmp_path / "out"
    proc = run_tcdebug("--dump", str(out), str(SCRIPTS / "backend_fails.py"))
    assert proc.returncode == 1
    [line] = _error_lines(proc.stderr)
    assert "backend exploded on purpose" in line
    session = load_dump(out)
    comp = session.compiles["0/0"]
    assert comp.stages["dynamo_graph"].captured  # Dynamo got that far before the backend failed
    assert comp.status == "failed" and "backend exploded" in comp.error


@pytest.mark.parametrize("how", ["-m"])
def test_module_runs_like_python_m(tmp_path, how):
    proc = run_tcdebug("--dump", str(tmp_path / "out"), how, "pkg.entry", "a", "b", cwd=SCRIPTS)
    assert proc.returncode == 0, proc.stderr
    assert "module entry __main__ ['a', 'b']" in (tmp_path / "out" / "output.txt").read_text()


def test_missing_module(tmp_path):
    proc = run_tcdebug("--dump", str(tmp_path / "out"), "-m", "no_such_module_here")
    assert proc.returncode == 1
    assert _error_lines(proc.stderr) == ["tcdebug: error: no module named no_such_module_here"]


def test_script_runs_as_python_would(tmp_path):
    proc = run_tcdebug("--dump", str(tmp_path / "out"), str(SCRIPTS / "argv_echo.py"), "3", "--flag")
    assert proc.returncode == 3  # the script's own exit code
    # Other lines may be torch's own warnings (e.g. about a missing NumPy) on stderr.
    [line] = [ln for ln in (tmp_path / "out" / "output.txt").read_text().splitlines() if ln.startswith("{")]
    info = json.loads(line)
    assert info["argv"] == [str(SCRIPTS / "argv_echo.py"), "3", "--flag"]
    assert info["name"] == "__main__"
    assert info["path0"] == str(SCRIPTS)


def test_killed_target_keeps_the_session(tmp_path):
    events: queue.Queue = queue.Queue()
    session = Session()
    writer = DumpWriter(session, tmp_path / "out")
    controller = TargetController(
        [str(SCRIPTS / "hangs_after_compile.py")], mode="run", on_event=events.put, cwd=ROOT
    )
    controller.start()
    deadline = time.monotonic() + 120
    killed = False
    try:
        while time.monotonic() < deadline:
            event = events.get(timeout=deadline - time.monotonic())
            session.apply(event)
            writer.on_event(event)
            if isinstance(event, Output) and "now sleeping" in event.text and not killed:
                controller._signal(signal.SIGKILL)
                killed = True
            if isinstance(event, TargetExited):
                break
    finally:
        writer.finish()
        controller.close(timeout=1)
    assert killed
    assert session.state == DIED
    assert session.status_line == "target died: the target process was killed by SIGKILL"
    reloaded = load_dump(tmp_path / "out")
    assert reloaded.compiles["0/0"].stages["dynamo_graph"].captured
    assert "now sleeping" in (tmp_path / "out" / "output.txt").read_text()
    # The controller's threads end with it: the one accepting forked children was left blocked
    # in accept() when closing its listening socket did not wake it.
    mine = {"tcdebug-children", "tcdebug-channel", "tcdebug-tree", "tcdebug-wait"}
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(t.name in mine for t in threading.enumerate()):
        time.sleep(0.05)
    assert not [t.name for t in threading.enumerate() if t.name in mine]


def test_a_python_without_torch_gets_a_one_line_error(tmp_path):
    """tcdebug never installs torch itself; a Python without it is told so, in one line."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    proc = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "tcdebug", "--dump", str(tmp_path / "out"), "samples/mlp.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 1
    [line] = _error_lines(proc.stderr)
    assert "torch cannot be imported" in line and "install torch first" in line
    assert (tmp_path / "out" / "session.json").exists()
