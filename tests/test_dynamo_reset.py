"""torch._dynamo.reset() restarts torch's compile ids: the second compile is 0/0 again. Both
compiles are in the session, each with its own stages, keyed as TORCH_TRACE logs key them
(0/0, then 0/0#2), live and from the log alike."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SCRIPTS, run_tcdebug

from tcdebug.dump import load_dump
from tcdebug.session import Session
from tcdebug.trace import load_trace_session

RESET = str(SCRIPTS / "dynamo_reset.py")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Session:
    out = tmp_path_factory.mktemp("reset") / "out"
    proc = run_tcdebug("--dump", str(out), RESET)
    assert proc.returncode == 0, proc.stderr
    return load_dump(out)


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


def test_the_log_of_the_same_run_keys_the_compiles_alike(live: Session, tmp_path: Path) -> None:
    env = {**os.environ, "TORCH_TRACE": str(tmp_path / "trace"), "TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"}
    proc = subprocess.run(
        [sys.executable, RESET], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    logged = load_trace_session(tmp_path / "trace")
    assert {cid: c.function for cid, c in logged.compiles.items()} == {
        cid: c.function for cid, c in live.compiles.items()
    }
