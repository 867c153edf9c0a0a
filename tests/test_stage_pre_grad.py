"""`inductor_pre_grad_graph`, the stage added by DEVELOPERS.md's "Adding a stage" recipe: the graph
Inductor hands to AOTAutograd after its pre-grad passes, live, in the dump and from TORCH_TRACE logs."""

from __future__ import annotations

import re

import pytest
from conftest import DATA

from tcdebug import trace
from tcdebug.dump.loader import load_dump
from tcdebug.model.session import Compile, Stage
from tcdebug.screens.widgets.timeline import expected_stages

STAGE = "inductor_pre_grad_graph"


@pytest.mark.slow
def test_captured_live_once_per_inductor_compile_before_aotautograd(mlp_dump) -> None:
    session = load_dump(mlp_dump.out)
    for cid, aot_graph in (("0/0", "aot_inference"), ("0/1", "aot_joint")):
        stages = session.compiles[cid].stages
        stage = stages[STAGE]
        assert stage.captured and stage.part == "" and stage.file == f"compiles/{cid.replace('/', '-')}/{STAGE}.py"
        text = stage.get_text()
        assert text.startswith("class GraphModule") and "# graph id: " in text  # as torch logged it
        # with strides and devices, unlike the Dynamo graph (the sample runs on CUDA where it can)
        assert re.search(r'"f32\[8, 64\]\[64, 1\](cpu|cuda:\d+)"', text), text[:400]
        assert stages["dynamo_graph"].elapsed_s <= stage.elapsed_s <= stages[aot_graph].elapsed_s
    assert f"{STAGE}." not in " ".join(session.compiles["0/1"].stages)  # not per forward/backward


def test_read_from_torch_trace_logs() -> None:
    session = trace.load_trace_session(DATA / "traces" / "graph_breaks")
    comp = session.compiles["0/0_1"]
    stage = comp.stages[STAGE]
    assert stage.captured and stage.get_text().startswith("class GraphModule")
    assert "artifact_after_pre_grad_graph" not in comp.stages  # the artifact is the stage now
    keys = [s.key for s in comp.ordered_stages()]
    assert keys.index("dynamo_graph") + 1 == keys.index(STAGE) == keys.index("aot_inference") - 1


def test_still_to_come_while_dynamo_traces() -> None:
    comp = Compile("0/0", status="compiling", stages={"dynamo_graph": Stage("dynamo_graph", text="g")})
    pending = expected_stages(comp)
    assert pending[0] == STAGE
