"""Issue 13, live capture: what tcdebug shows is what torch ran (tests/scripts/live_capture.py, one run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SAMPLES, SCRIPTS, DumpRun, SharedDumps, dump_run, run_tcdebug, share_dump

import tcdebug
from tcdebug.dump.loader import load_dump
from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import Session

pytestmark = pytest.mark.slow
OUR_DIR = str(Path(tcdebug.__file__).resolve().parent)


def ours_in(text: str) -> bool:
    """A tcdebug frame in a text: its package's files (the checkout's own path may say tcdebug)."""
    return OUR_DIR in text or re.search(r"tcdebug[/\\](capture|target|screens)[/\\]", text) is not None


RERUN_SPECS = ["inp=4,8", "a=6", "ng=4,8", "a=7", "input=2,3,8,8"]
share_dump(
    "live_dump", "live_capture", *[a for spec in RERUN_SPECS for a in ("--rerun", spec)], str(SCRIPTS / "live_capture.py")
)


@pytest.fixture(scope="module")
def live_dump(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("live_dump")


@pytest.fixture(scope="module")
def live(live_dump: DumpRun) -> Session:
    assert live_dump.returncode == 0, live_dump.stderr[-3000:]
    return load_dump(live_dump.out)


def _compile(session: Session, function: str):
    found = [c for c in session.ordered_compiles() if c.function == function]
    assert found, [c.function for c in session.ordered_compiles()]
    return found[0]


def test_forward_and_backward_kernels_of_one_name_keep_their_own_files(
    live: Session, live_dump: DumpRun
) -> None:
    comp = _compile(live, "mul")
    fwd, bwd = comp.stages["kernel_source.forward"], comp.stages["kernel_source.backward"]
    (fk,) = [k for k in fwd.kernels if k.name == "cpp_fused_mul_0"]
    (bk,) = [k for k in bwd.kernels if k.name == "cpp_fused_mul_0"]
    assert fk.meta["file"] != bk.meta["file"]
    assert "/kernels/forward/" in fk.meta["file"] and "/kernels/backward/" in bk.meta["file"]
    # each kernel, read back from the dump, is the one in its own stage's output code
    assert fk.source != bk.source
    assert fk.source.strip() in fwd.get_text() and bk.source.strip() in bwd.get_text()
    assert fk.source.strip() not in bwd.get_text()


def test_backward_kernels_lead_to_their_post_grad_nodes(live: Session) -> None:
    for function in ("mul", "inner"):
        comp = _compile(live, function)
        graph = comp.stages["inductor_post_grad_graph.backward"].get_text()
        kernels = comp.stages["kernel_source.backward"].kernels
        assert kernels
        for kernel in kernels:
            trail = comp.provenance.trail([f"kernel_source.backward|{kernel.name}"])
            nodes = trail.names("inductor_post_grad_graph.backward")
            assert nodes, (function, kernel.name)
            assert all(f"{node} = " in graph or f"{node}: " in graph for node in nodes), nodes


def test_no_two_kernels_share_a_file(live: Session) -> None:
    files = [k.meta.get("file") for c in live.compiles.values() for s in c.stages.values() for k in s.kernels]
    assert files and len(files) == len(set(files))


def test_no_tcdebug_frame_in_any_stage(live: Session, live_dump: DumpRun) -> None:
    bn = _compile(live, "inner")  # torch.nn.Sequential is compiled through Dynamo's wrap_inline
    for key in ("aot_forward", "aot_joint", "inductor_post_grad_graph.forward"):
        assert "No stacktrace found for following nodes" in bn.stages[key].get_text(), key
    for comp in live.compiles.values():
        for stage in comp.stages.values():
            assert not ours_in(stage.get_text()), (comp.compile_id, stage.key)
            for kernel in stage.kernels:
                assert not ours_in(kernel.source)
    for gb in live.graph_breaks():
        assert not any(ours_in(line) for line in gb.user_stack)


def test_tracebacks_of_compiled_functions_have_no_tcdebug_frame(live: Session) -> None:
    out = live.output_text()
    assert "boom inside a compiled function" in out
    assert not ours_in(out), out


def test_calls_are_still_recorded_once_per_call(live: Session) -> None:
    calls = {c.function: c for c in live.calls}
    assert calls["mul"].count == 1 and calls["Sequential.forward"].count == 1


def test_aot_eager_backward_says_why_inductor_stages_are_missing(live: Session) -> None:
    comp = _compile(live, "sin_cos")
    assert comp.stages["aot_backward"].captured
    inductor = [*stage_catalog.expected(stage_catalog.INDUCTOR)]  # once per Inductor compile
    inductor += [f"{s}.{part}" for s in stage_catalog.INDUCTOR_STAGES for part in ("forward", "backward")]
    for key in inductor:
        stage = comp.stages[key]
        assert not stage.captured
        assert stage.reason == "backend aot_eager does not run Inductor", (key, stage.reason)


def test_script_errors_print_without_tcdebug_frames(tmp_path) -> None:
    proc = run_tcdebug("--dump", str(tmp_path / "out"), str(SCRIPTS / "raises.py"))
    output = (tmp_path / "out" / "output.txt").read_text()
    assert "boom from user code" in output and "Traceback" in output
    assert not ours_in(output) and "runpy" not in output, output
    assert proc.returncode != 0


# ----- re-runs replay the call's exact form (the last part of tests/scripts/live_capture.py) -------
@pytest.fixture(scope="module")
def forms(live: Session) -> Session:
    return live


def _rerun_of(session: Session, spec: str):
    found = [r for r in session.reruns if r.spec == spec]
    assert len(found) == 1, [(r.spec, r.error) for r in session.reruns]
    return found[0]


def test_keywords_through_a_args_kwargs_wrapper_stay_keywords(forms: Session) -> None:
    (comp,) = [c for c in forms.ordered_compiles() if c.function == "wrapper"]  # the frame Dynamo compiles
    rerun = _rerun_of(forms, "inp=4,8")
    assert [c.compile_id for c in rerun.checks] == [comp.compile_id]  # the wrapper's cache entry is checked
    assert all(c.passed for c in rerun.checks), [c.reason for c in rerun.checks]
    assert rerun.status == "ok" and rerun.produced == [] and rerun.reused == comp.compile_id
    call = next(c for c in forms.calls if c.function == "Masked.forward")
    assert comp.compile_id in call.compile_ids


def test_a_torch_nn_container_is_checked_on_the_frame_dynamo_compiles(forms: Session) -> None:
    # torch.nn.Sequential is compiled through Dynamo's wrap_inline `inner(*args, **kwargs)`
    (comp,) = [c for c in forms.ordered_compiles() if c.function == "inner"]
    rerun = _rerun_of(forms, "input=2,3,8,8")
    assert [c.compile_id for c in rerun.checks] == [comp.compile_id]
    assert rerun.checks[0].passed and rerun.produced == [] and rerun.reused == comp.compile_id


def test_an_argument_passed_twice_is_one_tensor_again(forms: Session) -> None:
    call = next(c for c in forms.calls if c.function == "tied")
    assert {i["name"]: i.get("alias_of") for i in call.inputs} == {"a": None, "b": "a"}
    rerun = _rerun_of(forms, "a=6")
    assert rerun.checks and rerun.checks[0].passed, [c.reason for c in rerun.checks]
    tied = next(c for c in forms.ordered_compiles() if c.function == "tied")  # a=7 below adds another
    assert rerun.produced == [] and rerun.reused == tied.compile_id
    # a new size for a is the new size of b too: the entry's size guard fails and the call recompiles
    other = _rerun_of(forms, "a=7")
    assert not other.checks[0].passed and "size mismatch" in other.checks[0].reason
    assert other.status == "ok" and other.produced, other.error


def test_grad_mode_of_the_call_is_replayed_for_check_and_call(forms: Session) -> None:
    call = next(c for c in forms.calls if c.function == "infer")
    assert call.grad_enabled is False and call.state["grad_enabled"] is False
    rerun = _rerun_of(forms, "ng=4,8")
    assert rerun.checks and all(c.passed for c in rerun.checks), [c.reason for c in rerun.checks]
    assert not any("GLOBAL_STATE" in g.reason for c in rerun.checks for g in c.guards)
    assert rerun.status == "ok" and rerun.produced == []
    assert rerun.reused == rerun.checks[0].compile_id  # the verdict names the entry


def _has_cuda() -> bool:
    from test_gpu_live import _has_cuda as has_cuda

    return has_cuda()


@pytest.mark.gpu
def test_every_backward_triton_kernel_gets_fx_node_provenance(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """On the GPU every backward Triton kernel leads to the post-grad nodes it computes: through torch's
    kernel table when provenance tracking is on, else (tcdebug's default: tracking renames kernels)
    through the lines Inductor wrote for each node."""
    if not _has_cuda():
        pytest.skip("needs a CUDA device")
    run = dump_run(tmp_path_factory, "gpu_transformer_provenance", str(SAMPLES / "transformer_block.py"))
    assert run.returncode == 0, run.stderr[-3000:]
    session = load_dump(run.out)
    assert session.device.startswith("cuda")
    backward = [
        k
        for c in session.compiles.values()
        for s in c.stages.values()
        if s.key == "kernel_source.backward"
        for k in s.kernels
    ]
    assert backward and all(k.name.startswith("triton_") for k in backward)
    assert not backward_kernels_without_nodes(session)
    files = [k.meta["file"] for c in session.compiles.values() for s in c.stages.values() for k in s.kernels]
    assert len(files) == len(set(files))


def backward_kernels_without_nodes(session: Session) -> list[str]:
    """The backward kernels whose trail (`f`) reaches no node of the post-grad backward graph."""
    missing = []
    for comp in session.compiles.values():
        for stage in comp.stages.values():
            if stage.key != "kernel_source.backward":
                continue
            for kernel in stage.kernels:
                trail = comp.provenance.trail([f"{stage.key}|{kernel.name}"])
                if not trail.names("inductor_post_grad_graph.backward"):
                    missing.append(f"{comp.compile_id} {kernel.name}")
    return missing
