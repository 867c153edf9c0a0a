"""`tcdebug doctor`: what the capture can do with the torch of this environment.

The report comes from a child process (`python -m tcdebug.capture.install_check`), which imports torch and
installs every capture unit as a run would; this side never imports torch, so the app's help screen
shows the same report. The words for what is unavailable are the capture's own
(`capture.patches.unavailable_reason`), as in a run's `not captured` notes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tcdebug.textsafe import safe_line

CHILD_MODULE = "tcdebug.capture.install_check"
TIMEOUT_S = 600.0  # importing torch and Inductor on a busy machine


class DoctorError(Exception):
    """The child gave no report (no torch, a crash): one line."""


@dataclass
class DoctorReport:
    """The child's report, checked for shape, and what it means."""

    data: dict[str, Any]
    text: str = ""
    core_missing: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """0 when every core stage is available, 1 otherwise."""
        return 1 if self.core_missing else 0


def run_child(
    python: str | None = None, env: dict[str, str] | None = None, cancelled: Callable[[], bool] | None = None
) -> dict[str, Any]:
    """Run the child with `python` (this interpreter) and return its JSON object. `cancelled`: asked
    every quarter second; when it says so the child is killed at once (the app quitting while the
    doctor's screen waits must not wait for torch to import)."""
    try:
        proc = subprocess.Popen(
            [python or sys.executable, "-m", CHILD_MODULE],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env if env is not None else dict(os.environ),
            stdin=subprocess.DEVNULL,
        )
    except OSError as exc:
        raise DoctorError(f"the doctor's child process did not run: {exc}") from exc
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        try:
            stdout, stderr = proc.communicate(timeout=0.25)
            break
        except subprocess.TimeoutExpired:
            if (cancelled is not None and cancelled()) or time.monotonic() > deadline:
                proc.kill()
                proc.communicate()
                why = "it was cancelled" if cancelled is not None and cancelled() else f"no report in {TIMEOUT_S} s"
                raise DoctorError(f"the doctor's child process did not finish: {why}") from None
    done = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise DoctorError(f"the doctor's child process failed (exit {done.returncode}): {tail}")
    try:
        data = json.loads(lines[-1])
    except ValueError as exc:
        raise DoctorError(f"the doctor's child process wrote no report: {exc}") from exc
    if not isinstance(data, dict):
        raise DoctorError("the doctor's child process wrote no report")
    if "error" in data:
        raise DoctorError(str(data["error"]))
    return data


def _rows(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    rows = data.get(key)
    return [row for row in rows if isinstance(row, dict)] if isinstance(rows, list) else []


def format_report(data: dict[str, Any]) -> DoctorReport:
    """The report as text for a terminal (every line through `safe_line`)."""
    out: list[str] = []
    build = "CUDA build" if data.get("cuda_built") else "CPU build"
    out.append(f"tcdebug doctor: torch {data.get('torch', '?')} ({build}), Python {data.get('python', '?')}")
    out.append("")
    out.append("capture units:")
    for unit in _rows(data, "units"):
        reason = str(unit.get("reason") or "")
        out.append(f"  {unit.get('unit', '?'):<18} {reason or 'installs'}")
    out.append("")
    out.append("stages:")
    core_missing: list[str] = []
    for stage in _rows(data, "stages"):
        reason = str(stage.get("reason") or "")
        name = str(stage.get("stage", "?"))
        if reason and stage.get("core"):
            core_missing.append(name)
        core = " (core)" if stage.get("core") else ""
        out.append(f"  {name:<26} {reason or 'available'}{core if reason else ''}")
    privates = _rows(data, "privates")
    missing = [p for p in privates if p.get("missing")]
    out.append("")
    out.append("features:")
    if not missing:
        out.append("  every feature is available")
    for p in missing:
        out.append(f"  {p.get('breaks', '?')}: not on this torch: {p.get('missing')}")
    written = sorted({str(p.get("written_for", "?")) for p in privates})
    out.append("")
    out.append(
        f"private torch APIs: {len(privates) - len(missing)} of {len(privates)} present "
        f"(written against torch {', '.join(written)})"
    )
    for p in privates:
        state = "missing" if p.get("missing") else "present"
        out.append(f"  {state:<8} {p.get('name', '?')}  [{p.get('unit', '?')}, {p.get('kind', '?')}]")
    notes = (
        [str(n) for n in data.get("notes", []) if isinstance(n, str)]
        if isinstance(data.get("notes"), list)
        else []
    )
    left = data.get("not_restored") or []
    if notes or left:
        out.append("")
        out.extend(f"note: {n}" for n in notes)
        if left:
            out.append(f"note: not restored after the check: {', '.join(map(str, left))}")
    out.append("")
    if core_missing:
        out.append(f"result: core stages unavailable on this torch: {', '.join(core_missing)}")
    else:
        out.append("result: every core stage is available")
    text = "\n".join(safe_line(line) for line in out) + "\n"
    return DoctorReport(data=data, text=text, core_missing=core_missing)


def doctor(
    python: str | None = None, env: dict[str, str] | None = None, cancelled: Callable[[], bool] | None = None
) -> DoctorReport:
    """Run the child and format its report."""
    return format_report(run_child(python, env, cancelled))
