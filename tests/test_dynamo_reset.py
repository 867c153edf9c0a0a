"""torch._dynamo.reset() restarts torch's compile ids: the second compile is 0/0 again. Both
compiles are in the session, each with its own stages, keyed as TORCH_TRACE logs key them
(0/0, then 0/0#2), live and from the log alike."""

from __future__ import annotations

import json
from pathlib import PurePosixPath

import pytest
from conftest import SCRIPTS, DumpRun, SharedDumps, share_dump

from tcdebug.dump.loader import load_dump
from tcdebug.model.session import Session
from tcdebug.trace import load_trace_session

RESET = str(SCRIPTS / "dynamo_reset.py")


# torch writes its log of the same run (TORCH_TRACE) beside the dump
share_dump("reset_dump", "reset", RESET, env={"TORCH_TRACE": "{dir}/trace"}, fixture="reset_run")


@pytest.fixture(scope="module")
def reset_run(shared_dumps: SharedDumps) -> DumpRun:
    run = shared_dumps.get("reset_dump")
    assert run.returncode == 0, run.stderr
    return run


@pytest.fixture(scope="module")
def live(reset_run: DumpRun) -> Session:
    return load_dump(reset_run.out)


def test_a_compile_after_a_reset_keeps_its_own_stages(live: Session) -> None:
    assert {cid: c.function for cid, c in live.compiles.items()} == {"0/0": "first", "0/0#2": "second"}
    first, second = live.compiles["0/0"], live.compiles["0/0#2"]
    for comp, op, other in ((first, "relu", "sigmoid"), (second, "sigmoid", "relu")):
        assert comp.status == "ok"
        graph = comp.stages["dynamo_graph"].get_text()
        assert op in graph and other not in graph, comp.compile_id
        kernels = comp.stages["kernel_source.inference"]
        assert kernels.captured and op in kernels.get_text() and other not in kernels.get_text()
        assert op in comp.stages["inductor_ir_pre_fusion.inference"].get_text()


def test_the_log_of_the_same_run_keys_the_compiles_alike(live: Session, reset_run: DumpRun) -> None:
    logged = load_trace_session(reset_run.out.parent / "trace")
    assert {cid: c.function for cid, c in logged.compiles.items()} == {
        cid: c.function for cid, c in live.compiles.items()
    }


def test_torch_logs_every_record_of_the_run_where_torch_trace_is_set(reset_run: DumpRun) -> None:
    """With TORCH_TRACE set, torch's log under tcdebug holds every record torch makes, those tcdebug
    does not read included (tcdebug.capture.trace_records keeps out), each naming torch's own line."""
    logs = list((reset_run.out.parent / "trace").glob("*.log"))
    assert len(logs) == 1
    headers = [line for line in logs[0].read_text().splitlines() if line[:1] in "VIWE" and "] {" in line]
    keys = {next(iter(json.loads(line.split("] ", 1)[1]))) for line in headers}
    assert {"describe_tensor", "describe_storage", "dynamo_start", "artifact"} <= keys
    assert 'before_post_grad_graph"' in logs[0].read_text()
    # torch names a file relative to the first sys.path entry holding it: "torch/..." beside a
    # venv's site-packages, "site-packages/torch/..." where the stdlib folder holds site-packages.
    callers = {PurePosixPath(line.split("] ", 1)[0].split()[-1].rsplit(":", 1)[0]) for line in headers}
    assert callers and all("torch" in c.parts and "tcdebug" not in c.parts for c in callers), callers
