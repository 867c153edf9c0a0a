"""Compile times leave out the time the compile spent paused at a pause point: a phase torch
timed around a pause is as long as under `--dump`, and the paused time is reported on its own."""

from __future__ import annotations

import queue
import time

from conftest import ROOT, SCRIPTS, run_tcdebug

from tcdebug.analysis.summary import summary_text
from tcdebug.analysis.why import explain
from tcdebug.dump.loader import load_dump
from tcdebug.model import events
from tcdebug.model.session import Session
from tcdebug.process.controller import TargetController

SCRIPT = SCRIPTS / "pause_in_phase.py"
HOLD_S = 3.0  # the test stays paused this long inside AOTAutograd
HELD_STAGE = "aot_inference"


def _stepped_session() -> Session:
    """Step through the script, answering every pause at once but the one at HELD_STAGE."""
    got: queue.Queue[events.Event] = queue.Queue()
    session = Session()
    controller = TargetController([str(SCRIPT)], mode="step", on_event=got.put, cwd=str(ROOT))
    controller.start()
    held = False
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            event = got.get(timeout=max(0.1, deadline - time.monotonic()))
            session.apply(event)
            if isinstance(event, events.StageEvent) and event.paused:
                if event.stage == HELD_STAGE and not held:
                    held = True
                    time.sleep(HOLD_S)
                controller.step()
            elif event.type == "ready":
                controller.ask_to_quit()
            elif isinstance(event, events.TargetExited):
                break
    finally:
        controller.close(timeout=2)
    assert held, "the run never paused at " + HELD_STAGE
    return session


def test_time_paused_inside_a_phase_is_left_out_and_reported(tmp_path):
    proc = run_tcdebug("--dump", str(tmp_path / "out"), str(SCRIPT), timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    plain = load_dump(tmp_path / "out").compiles["0/0"].times
    stepped_session = _stepped_session()
    stepped = stepped_session.compiles["0/0"].times
    assert plain["phases"] and stepped["phases"], (plain, stepped)
    # no phase (nor the compile) grew by the hold: the pause counts in none of them
    margin = HOLD_S - 1.0
    for phase, secs in stepped["phases"].items():
        assert secs < plain["phases"].get(phase, 0.0) + margin, (phase, plain, stepped)
    assert stepped["wall_s"] < plain["wall_s"] + margin, (plain, stepped)
    # and the paused time is said, per compile and for the whole run
    assert "paused_s" not in plain
    assert HOLD_S - 0.1 <= stepped["paused_s"] < HOLD_S + 5
    paused = f"paused {stepped['paused_s']:.1f} s"
    [time_part] = [p for p in explain(stepped_session, "0/0") if p.title == "Compile time"]
    assert f"({paused} at tcdebug's pause points, not counted in any phase)" in time_part.lines
    assert f"compiles ({paused} at pause points, not counted)" in summary_text(stepped_session)
