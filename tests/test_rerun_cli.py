"""`tcdebug --dump OUT --rerun SPEC samples/mlp.py`: real re-runs after the script, on the CPU.

One target run serves every spec below, in order (the cache grows as they go):
  #1 x=8,64                 same shapes: entry 0/1 passes, nothing recompiles
  #2 x=16,64;@dynamic=false 8 -> 16 under dynamic=False: 0/1's size guard fails, 0/2 is static
  #3 x=32,64                automatic dynamic: the batch changed again, 0/3 is symbolic
  #4 x=16,32                the Linear rejects 32 features: the model's error, the target lives on
  #5 y=3                    no such argument
  #6 x=16,64,2              rank change
  #7 x=100000,100000        too large: refused before allocating
  #8 x=4,64                 ... the session is intact: this one reuses the symbolic 0/3
  #9 x=8,64:float16         a dtype the model cannot take: its own error again
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import SAMPLES, SCRIPTS, DumpRun, SharedDumps, run_tcdebug, share_dump

from tcdebug.dump.loader import load_dump
from tcdebug.model.session import Session

SPECS = [
    "x=8,64",
    "x=16,64;@dynamic=false",
    "x=32,64",
    "x=16,32",
    "y=3",
    "x=16,64,2",
    "x=100000,100000",
    "x=4,64",
    "x=8,64:float16",
]
share_dump("rerun_dump", "rerun", *[a for spec in SPECS for a in ("--rerun", spec)], str(SAMPLES / "mlp.py"))


@pytest.fixture(scope="session")
def rerun_dump(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("rerun_dump")


@pytest.fixture(scope="session")
def rerun_session(rerun_dump: DumpRun) -> Session:
    assert rerun_dump.returncode == 0, rerun_dump.stderr[-3000:]
    return load_dump(rerun_dump.out)


def _rerun(session: Session, number: int):
    rerun = session.rerun(number)
    assert rerun is not None, [r.spec for r in session.reruns]
    assert rerun.spec == SPECS[number - 1]
    return rerun


def _graph(session: Session, compile_id: str) -> str:
    return session.compiles[compile_id].stages["dynamo_graph"].get_text()


def test_every_spec_is_recorded_and_the_script_result_is_kept(rerun_session):
    assert [r.rerun_id for r in rerun_session.reruns] == list(range(1, len(SPECS) + 1))
    assert rerun_session.exit_code == 0
    assert [c.function for c in rerun_session.calls] == ["MLP.forward"]
    call = rerun_session.calls[0]
    assert call.inputs[0]["name"] == "x" and call.inputs[0]["shape"] == [8, 64]
    assert call.inputs[0]["dtype"] == "float32" and call.inputs[0]["device"] == "cpu"
    assert call.grad_enabled is True  # the last call of mlp.py is the training step
    assert rerun_session.call_for("0/0") is call


def test_same_shapes_reuse_the_entry_and_do_not_recompile(rerun_session):
    rerun = _rerun(rerun_session, 1)
    assert rerun.status == "ok" and rerun.produced == [] and rerun.reused == "0/1"
    by_id = {c.compile_id: c for c in rerun.checks}
    assert by_id["0/1"].passed and by_id["0/1"].reason == ""
    assert all(g.passed for g in by_id["0/1"].guards)
    # 0/0 was compiled under no_grad: its global-state guard fails, in Dynamo's words.
    assert not by_id["0/0"].passed and "GLOBAL_STATE changed: grad_mode" in by_id["0/0"].reason
    assert [g.kind for g in by_id["0/0"].guards if not g.passed][0] == "GLOBAL_STATE"


def test_batch_8_to_16_under_dynamic_false_fails_the_size_guard_and_recompiles_static(rerun_session):
    rerun = _rerun(rerun_session, 2)
    assert rerun.status == "ok" and rerun.dynamic == "false"
    assert rerun.produced == ["0/2"] and rerun.reused == ""
    check = next(c for c in rerun.checks if c.compile_id == "0/1")
    assert not check.passed
    assert check.reason == "0/1: tensor 'x' size mismatch at index 0. expected 8, actual 16"
    failing = [g for g in check.guards if not g.passed]
    assert len(failing) == 1 and failing[0].kind == "TENSOR_MATCH" and failing[0].source == "x"
    assert failing[0].reason == "tensor 'x' size mismatch at index 0. expected 8, actual 16"
    assert "size=[8, 64]" in failing[0].text
    # The new compile streams in like any other, with Dynamo's recompile reason.
    comp = rerun_session.compiles["0/2"]
    assert "size mismatch at index 0. expected 8, actual 16" in comp.recompile_reason
    graph = _graph(rerun_session, "0/2")
    assert '"f32[16, 64]' in graph and "Sym(" not in graph


def test_automatic_dynamic_makes_the_batch_symbolic(rerun_session):
    rerun = _rerun(rerun_session, 3)
    assert rerun.status == "ok" and rerun.dynamic == "none" and rerun.produced == ["0/3"]
    assert all(not c.passed for c in rerun.checks)
    assert {c.compile_id for c in rerun.checks} == {"0/0", "0/1", "0/2"}
    graph = _graph(rerun_session, "0/3")
    symbol = re.search(r'"Sym\((s\d+)\)"', graph)
    assert symbol, graph[:2000]
    assert f'"f32[{symbol.group(1)}, 64]' in graph
    assert "expected 16, actual 32" in rerun_session.compiles["0/3"].recompile_reason


def test_a_shape_the_model_rejects_shows_the_models_error(rerun_session):
    rerun = _rerun(rerun_session, 4)
    assert rerun.status == "failed"
    assert "the model rejects these inputs" in rerun.error
    assert "mat1 and mat2 shapes cannot be multiplied (16x32 and 64x128)" in rerun.error
    assert any("size mismatch at index 1. expected 64, actual 32" in c.reason for c in rerun.checks)


def test_bad_inputs_give_clear_messages_and_the_target_survives(rerun_session):
    assert (
        _rerun(rerun_session, 5).error == "no compiled function takes y (compiled functions: MLP.forward(x))"
    )
    rank = _rerun(rerun_session, 6)
    assert rank.status == "failed" and "3 sizes for a tensor with 2 dims (8, 64)" in rank.error
    big = _rerun(rerun_session, 7)
    assert big.status == "failed" and "over the re-run limit" in big.error and big.checks == []
    last = _rerun(rerun_session, 8)  # after all of that the target still re-runs
    assert last.status == "ok" and last.produced == [] and last.reused == "0/3", last.error
    assert next(c for c in last.checks if c.compile_id == "0/3").passed
    half = _rerun(rerun_session, 9)
    assert half.status == "failed" and "mat1 and mat2 must have the same dtype" in half.error
    assert "dtype mismatch. expected float32, actual float16" in "\n".join(
        g.reason for c in half.checks for g in c.guards
    )


def test_summary_and_session_json(rerun_dump, rerun_session):
    out = rerun_dump.stdout
    assert "re-runs: 9" in out
    assert "#1 MLP.forward [x=8,64] dynamic=none: ok, reused 0/1 (no recompile)" in out
    assert "#2 MLP.forward [x=16,64;@dynamic=false] dynamic=false: ok, recompiled 0/2" in out
    assert (
        "guards of 0/1 fails (1 of " in out
        and "tensor 'x' size mismatch at index 0. expected 8, actual 16" in out
    )
    assert "error: no compiled function takes y" in out
    index = json.loads((rerun_dump.out / "session.json").read_text())
    guards = index["reruns"][1]["checks"][0]["guards"]
    assert guards and all({"text", "passed", "reason"} <= set(g) for g in guards)
    assert index["reruns"][1]["produced"] == ["0/2"]
    assert index["calls"][0]["function"] == "MLP.forward"


def test_bad_spec_is_refused_before_the_script_starts(tmp_path):
    proc = run_tcdebug(
        "--dump", str(tmp_path / "o"), "--rerun", "x=16,-2", str(SAMPLES / "mlp.py"), timeout=60
    )
    assert proc.returncode == 2
    assert "--rerun 'x=16,-2': x: size 1 is negative (-2)" in proc.stderr
    assert not (tmp_path / "o").exists()


# ----- one tensor passed twice stays one tensor -------------------------------------------------
ALIAS_SPECS = ["a=16,4", "labels=2,32", "a=16,4;b=8,4", "a=16,4;b=4,4", "base=4,3;row=3"]
share_dump(
    "alias_dump",
    "rerun-alias",
    *[a for spec in ALIAS_SPECS for a in ("--rerun", spec)],
    str(SCRIPTS / "aliased_args.py"),
    fixture="alias_session",
)


@pytest.fixture(scope="session")
def alias_session(shared_dumps: SharedDumps) -> Session:
    run = shared_dumps.get("alias_dump")
    assert run.returncode == 0, run.stderr[-3000:]
    return load_dump(run.out)


def test_an_aliased_argument_passed_twice_is_one_tensor_in_the_rerun(alias_session):
    """`cf(x, x)` re-run with a=16: b is the same new tensor, so the call recompiles and returns
    (a new `a` beside the old-sized `b` would make the model raise)."""
    call = next(c for c in alias_session.calls if c.function == "f")
    assert [i.get("alias_of") for i in call.inputs] == [None, "a"]
    rerun = alias_session.rerun(1)
    assert rerun.spec == "a=16,4"
    assert rerun.status == "ok", rerun.error
    assert rerun.produced and not rerun.error
    assert [i["shape"] for i in rerun.inputs] == [[16, 4], [16, 4]]
    # the guard check was given the aliased pair: the old entry fails on the size of a, not on aliasing
    assert rerun.checks and not rerun.checks[0].passed and "size mismatch" in rerun.checks[0].reason


def test_a_keyword_alias_changes_with_the_name_the_spec_gives(alias_session):
    """`cg(ids, labels=ids)` (a language model's `model(ids, labels=ids)`) re-run by the alias's name."""
    rerun = alias_session.rerun(2)
    assert rerun.spec == "labels=2,32" and rerun.function == "g"
    assert rerun.status == "ok", rerun.error
    assert rerun.produced
    assert [i["shape"] for i in rerun.inputs] == [[2, 32], [2, 32]]


def test_restating_an_aliases_recorded_size_yields_and_two_sizes_are_one_error(alias_session):
    same = alias_session.rerun(3)  # the editor sends every tensor: b=8,4 is b as recorded
    assert same.status == "ok", same.error
    assert [i["shape"] for i in same.inputs] == [[16, 4], [16, 4]]
    conflict = alias_session.rerun(4)
    assert conflict.status == "failed" and not conflict.produced
    one_size = "a and b are one tensor in the recorded call: give it one size"
    assert conflict.error == f"{one_size}, not a=16,4, b=4,4"


def test_views_of_one_tensor_are_views_of_one_new_tensor(alias_session):
    """`h(m, m[1])`: the re-run's `row` is a view of its `base` again (h raises otherwise)."""
    rerun = alias_session.rerun(5)
    assert rerun.function == "h"
    assert rerun.status == "ok", rerun.error
