"""DDPOptimizer's bucket split: one Dynamo compile runs AOTAutograd and Inductor once per
subgraph (`submod_0`, `submod_1`), and each subgraph keeps its own stages, live and from a
TORCH_TRACE log of the same run (real Inductor on the CPU, gloo with one rank)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import SCRIPTS, SharedDumps, run_tcdebug, share_dump

from tcdebug.dump.loader import load_dump
from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import Compile, Session
from tcdebug.model.trace_format import aot_graph_id
from tcdebug.screens.widgets.timeline import TimelineState, build_rows

PARTS = ("forward", "forward_1", "backward", "backward_1")


@dataclass
class SplitRun:
    session: Session  # the live capture's dump, loaded
    traced: Compile  # the compile from the log
    stdout: str
    log: Path  # torch's TORCH_TRACE log of the run
    out: Path  # the live dump

    @property
    def live(self) -> Compile:
        return self.session.compiles["0/0"]


# torch writes its log of the same compiles (TORCH_TRACE) beside the dump
share_dump(
    "ddp_split_dump", "ddp_split", str(SCRIPTS / "ddp_split.py"), env={"TORCH_TRACE": "{dir}/trace"}, fixture="split_run"
)


@pytest.fixture(scope="module")
def split_run(shared_dumps: SharedDumps) -> SplitRun:
    """One run: `tcdebug --dump` of the script, with TORCH_TRACE set, so torch writes its log of the
    same compiles; then `tcdebug open LOG --dump` of that log."""
    live = shared_dumps.get("ddp_split_dump")
    assert live.returncode == 0, live.stderr[-3000:]
    root = live.out.parent
    [log] = (root / "trace").iterdir()
    traced = run_tcdebug("open", str(log), "--dump", str(root / "traced"))
    assert traced.returncode == 0, traced.stderr[-3000:]
    return SplitRun(load_dump(live.out), load_dump(root / "traced").compiles["0/0"], live.stdout, log, live.out)


def aot_ids(comp: Compile) -> dict[str, tuple[int, str] | None]:
    return {part: aot_graph_id(comp.stages[f"kernel_source.{part}"].get_text()) for part in PARTS}


def test_each_subgraph_keeps_its_own_stages(split_run: SplitRun) -> None:
    comp = split_run.live
    assert (
        "DDPOptimizer split (not a Dynamo graph break): 2 subgraphs (submod_0, submod_1)" in split_run.stdout
    )
    expected = stage_catalog.expected_keys("training", subgraphs=2)
    missing = [k for k in expected if k not in comp.stages or not comp.stages[k].captured]
    assert missing == ["bytecode_after_python"] or missing == [], missing  # depyf may be absent
    # Each kernel source is the output code Inductor wrote for that graph: its AOT id says which.
    ids = aot_ids(comp)
    assert all(ids.values()), ids
    assert [ids[p][1] for p in PARTS] == ["forward", "forward", "backward", "backward"]  # type: ignore[index]
    assert ids["forward"][0] == ids["backward"][0] != ids["forward_1"][0] == ids["backward_1"][0]  # type: ignore[index]
    for stage in ("aot_joint", "aot_forward", "aot_backward", "inductor_pre_grad_graph"):
        assert comp.stages[stage].get_text() != comp.stages[f"{stage}.subgraph_1"].get_text(), stage
    for stage in (
        "inductor_post_grad_graph",
        "inductor_ir_pre_fusion",
        "inductor_ir_post_fusion",
        "kernel_source",
    ):
        texts = {comp.stages[f"{stage}.{p}"].get_text() for p in PARTS}
        assert len(texts) == 4, stage  # four graphs, none written over another
    assert comp.stages["kernel_source.backward_1"].title == "Fused kernel source (backward, subgraph 1)"
    # each in a file of its own, each part's kernels in a folder of their own
    folder = split_run.out / "compiles" / "0-0"
    for name in (
        "kernel_source.backward_1.py",
        "aot_forward.subgraph_1.py",
        "inductor_ir_post_fusion.forward_1.txt",
    ):
        assert (folder / name).is_file(), name
    assert {p.name for p in (folder / "kernels").iterdir()} == set(PARTS)
    assert comp.stages["aot_forward.subgraph_1"].title == "AOTAutograd forward graph (subgraph 1)"
    # Pipeline order: subgraph 0's forward pipeline, subgraph 1's, then the backwards.
    keys = [s.key for s in comp.ordered_stages()]
    assert keys.index("kernel_source.forward") < keys.index("aot_forward.subgraph_1") < keys.index("guards")
    assert keys.index("kernel_source.forward_1") < keys.index("guards") < keys.index("kernel_source.backward")


def test_the_log_of_the_same_run_places_each_stage_where_the_live_capture_did(split_run: SplitRun) -> None:
    live, traced = split_run.live, split_run.traced
    untraced = set(stage_catalog.MAYBE_UNTRACED) | {"bytecode_after_python"}
    catalog = {k.id for k in stage_catalog.STAGE_KINDS} - untraced
    keys = {k for k, s in live.stages.items() if s.captured and stage_catalog.split_key(k)[0] in catalog}
    assert keys == {
        k for k, s in traced.stages.items() if s.captured and stage_catalog.split_key(k)[0] in catalog
    }
    assert aot_ids(traced) == aot_ids(live)
    # the log's split record is the same graph break the live capture shows
    [split] = [b.reason for b in live.graph_breaks]
    assert split.startswith("DDPOptimizer split") and [b.reason for b in traced.graph_breaks] == [split]
    assert "submod_1" in traced.stages["trace_optimize_ddp_split_graph"].get_text()  # the split graph
    for part in PARTS:  # the backwards came last to first: the log's output code names each one's graph
        assert (
            traced.stages[f"kernel_source.{part}"].get_text()
            == live.stages[f"kernel_source.{part}"].get_text()
        )
        assert not traced.stages[f"inductor_post_grad_graph.{part}"].meta.get("subgraph_inferred")
    # torch's own artifacts of each Inductor compile go with its part too
    assert {"artifact_fx_graph_runnable.backward", "artifact_fx_graph_runnable.backward_1"} <= set(
        traced.stages
    )
    # the artifacts of each AOTAutograd graph go with its subgraph: the pre-grad graph torch logs
    # before the graph's first stage, and the runtime wrappers AOTAutograd logs after Inductor's
    # output code (tcdebug runs with caches off: no FX graph cache record closes that compile)
    for name in ("before_pre_grad_graph", "aot_forward_graph_fw_metadata"):
        assert {f"artifact_{name}", f"artifact_{name}.subgraph_1"} <= set(traced.stages), name
        assert f"artifact_{name}_2" not in traced.stages, name
    inductors_own = ("fx_graph_runnable", "before_post_grad_graph", "inductor_", "triton_", "fx_graph_cache_")
    for key in traced.stages:
        stage_id, part = stage_catalog.split_key(key)
        if stage_id.startswith("artifact_") and part and not part.startswith(stage_catalog.SUBGRAPH):
            assert stage_id.removeprefix("artifact_").startswith(inductors_own), key  # in an Inductor compile
    if "artifact_runtime_wrapper_orchestration" in traced.stages:  # torch 2.13 logs it, 2.11 does not
        assert "artifact_runtime_wrapper_orchestration.subgraph_1" in traced.stages


def test_the_timeline_tags_each_subgraphs_rows(split_run: SplitRun) -> None:
    labels = [str(r.label).strip() for r in build_rows(split_run.session, TimelineState())]
    for label in (
        "aot_forward (sub 1)",
        "kernel_source (fwd 1)",
        "kernel_source (bwd 1)",
        "kernel_source (bwd)",
    ):
        assert any(text == label or text.startswith(f"{label} ") for text in labels), (label, labels)


def test_a_backward_whose_output_code_is_not_in_the_log_is_placed_by_inference(
    split_run: SplitRun, tmp_path: Path
) -> None:
    """Without the output code's AOT id, a backward's stages go to the last subgraph with no
    backward yet (autograd runs them last to first), each marked `subgraph_inferred`."""
    text = split_run.log.read_text()
    lines = text.splitlines(keepends=True)
    kept: list[str] = []
    skipping = False
    codes = 0
    for line in lines:
        if not line.startswith("\t"):
            skipping = False
            if '{"inductor_output_code"' in line:
                codes += 1
                skipping = codes > 2  # the forwards come first: drop both backwards' output code
        if not skipping:
            kept.append(line)
    assert codes == 4
    log = tmp_path / "no_backward_code.log"
    log.write_text("".join(kept))
    proc = run_tcdebug("open", str(log), "--dump", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    comp = load_dump(tmp_path / "out").compiles["0/0"]
    live = split_run.live
    for part in ("backward", "backward_1"):
        stage = comp.stages[f"inductor_post_grad_graph.{part}"]
        assert stage.meta.get("subgraph_inferred") is True
        assert stage.get_text() == live.stages[f"inductor_post_grad_graph.{part}"].get_text() or (
            _shape_lines(stage.get_text())
            == _shape_lines(live.stages[f"inductor_post_grad_graph.{part}"].get_text())
        )
    assert "kernel_source.backward" not in comp.stages or not comp.stages["kernel_source.backward"].captured


def _shape_lines(text: str) -> list[str]:
    """An FX graph's node lines without torch's `# File:` comments (the log has no stack traces)."""
    return [line for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
