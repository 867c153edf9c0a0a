"""Dynamo restarting its analysis makes an attempt: torch keys a graph break at top level's compile
`0/0` (restarted) then `0/0_1`. The live capture keys it as torch does, and a dump of the run says
what tcdebug reads from torch's TORCH_TRACE log of the same run: the same ids, statuses, breaks."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import SCRIPTS, DumpRun, SharedDumps, share_dump, share_process

from tcdebug.dump.loader import load_dump
from tcdebug.model.session import Session
from tcdebug.trace import load_trace_session

SCRIPT = str(SCRIPTS / "restart_break.py")
RESETS = str(SCRIPTS / "reset_restart.py")
IDS = ["0/0", "0/0_1", "1/0"]

# torch writes its log of the same run (TORCH_TRACE) beside the dump
share_dump("restart_dump", "restart", SCRIPT, env={"TORCH_TRACE": "{dir}/trace"}, fixture="restart_run")
share_dump("resets_dump", "resets", RESETS, env={"TORCH_TRACE": "{dir}/trace"}, fixture="resets_run")
# the script under plain python, with torch's own text logs of breaks and guards
share_process(
    "restart_plain", sys.executable, SCRIPT, env={"TORCH_LOGS": "graph_breaks,guards"}, fixture="plain_run"
)


@pytest.fixture(scope="module")
def restart_run(shared_dumps: SharedDumps) -> DumpRun:
    run = shared_dumps.get("restart_dump")
    assert run.returncode == 0, run.stderr
    return run


@pytest.fixture(scope="module")
def resets_run(shared_dumps: SharedDumps) -> DumpRun:
    run = shared_dumps.get("resets_dump")
    assert run.returncode == 0, run.stderr
    return run


@pytest.fixture(scope="module")
def plain_run(shared_dumps: SharedDumps) -> subprocess.CompletedProcess:
    run = shared_dumps.process("restart_plain")
    assert run.returncode == 0, run.stderr
    return run


@pytest.fixture(scope="module")
def live(restart_run: DumpRun) -> Session:
    return load_dump(restart_run.out)


@pytest.fixture(scope="module")
def logged(restart_run: DumpRun) -> Session:
    return load_trace_session(restart_run.out.parent / "trace")


def _outline(session: Session) -> list[tuple[str, str, str, str, int]]:
    return [
        (c.compile_id, c.status, c.error, c.function, c.firstlineno) for c in session.ordered_compiles()
    ]


def test_a_restart_is_an_attempt_live(live: Session) -> None:
    assert [c.compile_id for c in live.ordered_compiles()] == IDS
    first, kept, resume = (live.compiles[cid] for cid in IDS)
    assert first.status == "restarted" and first.error == "restarted: Failed to trace builtin operator"
    assert first.function == kept.function == "f" and first.firstlineno == kept.firstlineno == 6
    assert resume.function.startswith("torch_dynamo_resume_in_f") and resume.status == "ok"
    # the graph Dynamo kept, its guards and code are the restart's (attempt 1)
    for stage in ("dynamo_graph", "guards", "bytecode_after"):
        assert first.stages[stage].reason == "Dynamo restarted its analysis: the next attempt is 0/0_1"
    assert "sin" in kept.stages["dynamo_graph"].get_text() and kept.stages["guards"].captured
    assert kept.metrics["restart_reasons"][0].startswith("Failed to trace builtin operator")
    # the source Dynamo read once for the frame stays with the attempt that read it
    assert first.stages["source"].captured
    assert kept.stages["source"].reason == "in 0/0 (logged by the attempt that restarted)"
    (brk,) = live.graph_breaks()
    assert brk.compile_id == "0/0" and "print" in brk.reason
    assert any("restart_break.py" in line and "line 8" in line for line in brk.user_stack)


def test_the_log_of_the_same_run_says_the_same(live: Session, logged: Session) -> None:
    assert _outline(logged) == _outline(live)
    assert [(b.compile_id, b.reason) for b in logged.graph_breaks()] == [
        (b.compile_id, b.reason) for b in live.graph_breaks()
    ]
    for cid in ("0/0_1", "1/0"):  # the graph and guards of each compile, where torch logged them
        for stage in ("dynamo_graph", "guards"):
            assert logged.compiles[cid].stages[stage].captured and live.compiles[cid].stages[stage].captured
            assert logged.compiles[cid].stages[stage].get_text().strip() == (
                live.compiles[cid].stages[stage].get_text().strip()
            ), (cid, stage)
    assert "dynamo_graph" not in logged.compiles["0/0"].stages


def test_torch_logs_of_a_plain_run_name_the_same_attempts(
    live: Session, plain_run: subprocess.CompletedProcess
) -> None:
    """torch's own text logs: the break under `[0/0]`, the guards of the graph kept under `[0/0_1]`."""
    tagged = re.findall(r"\] \[(\d+/\d+(?:_\d+)?)\] \[__(\w+)\]", plain_run.stderr)
    assert sorted({cid for cid, _ in tagged}) == sorted(live.compiles)
    assert {cid for cid, log in tagged if log == "graph_breaks"} == {"0/0"}
    assert {cid for cid, log in tagged if log == "guards"} == {"0/0_1", "1/0"}


def test_attempts_after_a_reset_are_keyed_as_the_log_keys_them(resets_run: DumpRun) -> None:
    """`torch._dynamo.reset()` numbers ids afresh: the `#N` of a run's compile goes on each of its
    attempts, counted per id with its attempt, as the TORCH_TRACE reader counts them."""
    live = load_dump(resets_run.out)
    logged = load_trace_session(resets_run.out.parent / "trace")
    assert _outline(live) == _outline(logged)
    assert {cid: c.function for cid, c in live.compiles.items() if c.function in ("f", "g")} == {
        "0/0": "g",  # the first run: no restart
        "0/0#2": "f",  # the second run: restarted, then its attempt 1, the first keyed `0/0_1`
        "0/0_1": "f",
        "0/0#3": "f",  # the third run: restarted, then the second compile keyed `0/0_1`
        "0/0_1#2": "f",
    }
    assert [live.compiles[cid].status for cid in ("0/0", "0/0#2", "0/0_1", "0/0#3", "0/0_1#2")] == [
        "ok", "restarted", "ok", "restarted", "ok"
    ]
    assert [(b.compile_id, b.reason) for b in live.graph_breaks()] == [
        (b.compile_id, b.reason) for b in logged.graph_breaks()
    ]
