"""The provenance index: built in the target from torch's metadata, dumped, loaded, followed."""

from __future__ import annotations

import json

import pytest
from conftest import DATA, SCRIPTS, DumpRun, SharedDumps, run_tcdebug, share_dump, share_trace
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rerun_cli import rerun_dump, rerun_session  # noqa: F401 - shared session fixtures

from tcdebug.analysis import provenance_index as prov
from tcdebug.analysis.provenance_index import ProvenanceIndex, ProvItem, ProvLink
from tcdebug.dump.loader import load_dump
from tcdebug.model.payloads import ProvSymbol
from tcdebug.model.schema import SchemaError


def dynamo_records_columns() -> bool:
    """Does this torch's Dynamo give a node's stack-trace frame its columns (`colno`), from which
    traceback prints the `^^^` marker under the op? torch 2.13 does; torch 2.11 prints the line alone."""
    import inspect

    from torch._dynamo.symbolic_convert import InstructionTranslatorBase

    frame_summary = getattr(InstructionTranslatorBase, "frame_summary", None)
    return frame_summary is not None and "colno" in inspect.getsource(frame_summary)


def _lines_of(session, cid: str, key: str, trail) -> list[str]:
    stage = session.stage(cid, key)
    text = stage.get_text().splitlines()
    return [text[n - 1] for n in trail.stage(key).lines]


@pytest.mark.slow
def test_mlp_relu_trail_reaches_every_stage(mlp_dump):
    """`torch.relu` on line 18 of samples/mlp.py, followed through the training compile."""
    session = load_dump(mlp_dump.out)
    comp = session.compiles["0/1"]
    index = comp.provenance
    assert (mlp_dump.out / "compiles" / "0-1" / "provenance.json").is_file()
    # Start from the source stage: the Dynamo nodes of line 18, picked by their code.
    source_items = index.at_line("source", 18 - session.stage("0/1", "source").meta["line_offset"])
    assert [i.name for i in source_items] == ["mlp.py:18"]
    relu = next(i for i in index.linked("bytecode_before|18", downstream=True) if i.name == "relu")
    if dynamo_records_columns():  # the op's own part of the line, where torch's stack trace marks it
        assert relu.meta["code"] == "torch.relu(self.fc1(x))"
    else:  # no `^^^` marker in the stack trace: no code span is made up
        assert "code" not in relu.meta
    trail = index.trail([relu.item_id])
    assert trail.names("source") == ["mlp.py:18"]
    assert trail.names("dynamo_graph") == ["relu"]
    assert "relu: " in _lines_of(session, "0/1", "dynamo_graph", trail)[0]
    assert "torch.ops.aten.relu.default" in _lines_of(session, "0/1", "aot_forward", trail)[0]
    backward = _lines_of(session, "0/1", "aot_backward", trail)
    assert any("aten.le.Scalar" in line for line in backward)  # threshold_backward, decomposed
    assert any("threshold_backward" in i.detail for i in trail.stage("aot_backward").items)
    assert trail.names("inductor_ir_pre_fusion.forward") == ["op1"]
    assert trail.names("inductor_ir_post_fusion.forward") == ["op1"]
    assert "op1: SchedulerNode(ComputedBuffer)" in _lines_of(
        session, "0/1", "inductor_ir_post_fusion.forward", trail
    )
    kernel_lines = _lines_of(session, "0/1", "kernel_source.forward", trail)
    assert kernel_lines[0].startswith("cpp_fused_relu_0 = async_compile.cpp_pybinding")
    assert any(line.strip() == "cpp_fused_relu_0(buf1)" for line in kernel_lines)  # the call
    # Inside the kernel: only the lines Inductor wrote while generating relu's scheduler node.
    inside = [line.strip() for line in kernel_lines[1:-1]]
    assert inside and all(line.startswith(("auto tmp", "tmp")) for line in inside), inside
    assert any("clamp_min" in line for line in inside)  # the C++ that computes it
    assert trail.names("kernel_source.forward") == ["cpp_fused_relu_0", "cpp_fused_relu_0/op1"]
    backward_kernel = trail.names("kernel_source.backward")
    assert backward_kernel == ["cpp_fused_sum_threshold_backward_0", "cpp_fused_sum_threshold_backward_0/op3"]
    inside = [line.strip() for line in _lines_of(session, "0/1", "kernel_source.backward", trail)[1:-1]]
    assert any("blendv" in line for line in inside) and any("<=" in line for line in inside)
    assert not any("sum" in line or "acc" in line for line in inside), inside  # the fused sum stays out
    how = {link.how for link in index.links if link.dst.endswith("cpp_fused_relu_0/op1")}
    assert "codegen (current node)" in how
    # Backwards from the line that computes relu's gradient: up to line 18, not to the fused sum.
    text = session.stage("0/1", "kernel_source.backward").get_text().splitlines()
    blendv = next(n for n, line in enumerate(text, 1) if "blendv" in line)
    back = index.trail_at("kernel_source.backward", blendv)
    assert back.names("source") == ["mlp.py:18"]
    assert sorted(back.names("inductor_post_grad_graph.backward")) == ["full_default", "le", "where"]
    # Nothing of the two addmm's leaks into the relu trail, and nothing here is inferred.
    assert not any("addmm" in n for ts in trail.stages for n in [i.name for i in ts.items])
    assert not any(ts.inferred for ts in trail.stages)
    # Inference compile: aot_inference instead of forward/backward.
    inference = session.compiles["0/0"].provenance.trail(["dynamo_graph|relu"])
    assert inference.names("aot_inference") == ["relu"]
    assert inference.names("kernel_source.inference") == ["cpp_fused_relu_0", "cpp_fused_relu_0/op1"]


@pytest.mark.slow
def test_mlp_every_kernel_leads_back_to_a_source_line(mlp_dump):
    session = load_dump(mlp_dump.out)
    for comp in session.compiles.values():
        kernels = [i for i in comp.provenance.items.values() if i.stage.startswith("kernel_source")]
        assert kernels, comp.compile_id
        for kernel in kernels:
            assert comp.provenance.trail([kernel.item_id]).names("source") == ["mlp.py:18"], kernel.item_id
    # Inductor's provenance tracking stays off (it renames kernels): its debug handles, which name
    # each extern kernel call, are not there, and the notes say what that costs.
    items = session.compiles["0/1"].provenance.items
    assert not any(i.kind == "extern_kernel" for i in items.values())
    assert any("provenance tracking is off" in n for n in session.compiles["0/1"].provenance.notes)


@pytest.mark.slow
def test_provenance_json_lists_each_node_by_stage(mlp_dump):
    data = json.loads((mlp_dump.out / "compiles" / "0-1" / "provenance.json").read_text())
    assert data["format"] == "tcdebug-provenance" and data["compile_id"] == "0/1"
    relu = data["nodes"]["relu"]
    assert relu["source"] == ["mlp.py:18"]
    assert relu["stages"]["aot_forward"]["items"] == ["relu"]
    assert relu["stages"]["kernel_source.forward"]["items"] == ["cpp_fused_relu_0", "cpp_fused_relu_0/op1"]
    assert relu["stages"]["kernel_source.forward"]["lines"]


@pytest.mark.slow
def test_dynamic_symbols_have_origin_and_range(dynamic_dump):
    session = load_dump(dynamic_dump.out)
    found = {
        name: info for comp in session.compiles.values() for name, info in comp.provenance.symbols.items()
    }
    assert found, "no symbolic sizes recorded"
    assert any("L['x'].size()[0]" in info.sources for info in found.values())
    for info in found.values():
        assert info.range.startswith("[")


# ----- the model itself -----------------------------------------------------------------
def _chain() -> ProvenanceIndex:
    index = ProvenanceIndex()
    index.add(
        [
            ProvItem("source|f.py:1", "source", "f.py:1", lines=[2]),
            ProvItem("dynamo_graph|a", "dynamo_graph", "a", lines=[5]),
            ProvItem("dynamo_graph|b", "dynamo_graph", "b", lines=[6]),
            ProvItem("aot_forward|a", "aot_forward", "a", lines=[3]),
            ProvItem("aot_forward|b", "aot_forward", "b", lines=[4]),
            ProvItem("kernel_source.forward|k", "kernel_source.forward", "k", lines=[10, 11]),
        ],
        [
            ProvLink("source|f.py:1", "dynamo_graph|a", "stack_trace"),
            ProvLink("source|f.py:1", "dynamo_graph|b", "stack_trace"),
            ProvLink("dynamo_graph|a", "aot_forward|a", "from_node"),
            ProvLink("dynamo_graph|b", "aot_forward|b", "name", inferred=True),
            ProvLink("aot_forward|a", "kernel_source.forward|k", "kernel_provenance"),
            ProvLink("aot_forward|b", "kernel_source.forward|k", "kernel_provenance"),
        ],
    )
    return index


def test_trail_walks_up_and_down_but_never_down_then_up():
    index = _chain()
    trail = index.trail(["dynamo_graph|a"])
    assert trail.names("dynamo_graph") == ["a"]  # b shares the source line and the kernel: not pulled in
    assert trail.names("kernel_source.forward") == ["k"]
    assert [s.stage for s in trail.stages] == [
        "source",
        "dynamo_graph",
        "aot_forward",
        "kernel_source.forward",
    ]
    back = index.trail(["kernel_source.forward|k"])
    assert back.names("dynamo_graph") == ["a", "b"]
    assert back.stage("dynamo_graph").inferred  # b came through an inferred link
    assert not index.trail(["dynamo_graph|a"]).stage("aot_forward").inferred
    assert index.nearest("dynamo_graph", 1).name == "a"
    assert index.at_line("kernel_source.forward", 11)[0].name == "k"


def test_index_round_trips_through_json():
    index = _chain()
    again = prov.index_from_dict(json.loads(json.dumps(prov.index_to_dict(index, "0/0"))))
    assert again.items == index.items and again.links == index.links


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(st.text(max_size=8), st.one_of(st.text(), st.lists(st.text()), st.integers(), st.none()))
)
def test_bad_provenance_dicts_raise_one_schema_line(data):
    index = ProvenanceIndex()
    with pytest.raises(SchemaError) as raised:
        prov.apply_dict(
            index, {"items": [data, {"item_id": "x", "lines": [data, 3, -1]}], "links": [data, [1, 2]]}
        )
    assert "\n" not in str(raised.value) and str(raised.value).startswith("provenance.json.items[")
    assert not index.items  # nothing folded from a bad file
    prov.apply_dict(index, {"items": [{"item_id": "x", "stage": "s", "name": "x", "lines": [3]}]})
    assert index.items["x"].lines == [3]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_text_locators_never_raise(text):
    prov.fx_node_lines(text)
    list(prov.fx_graph_lines(text))
    prov.OutputCodeLines(text).callers("cpp_fused_x_0", ["cpp_fused_x_0:1"])
    prov.ir_node_lines(text)
    prov.kernel_lines(text, "cpp_fused_x_0", ["cpp_fused_x_0:1"])
    prov.stack_frames(text)


def test_subgraph_nodes_are_named_by_the_classes_they_are_printed_in():
    text = (
        "class GraphModule(torch.nn.Module):\n"
        '    def forward(self, L_x_: "f32[4]"):\n'
        '        sin: "f32[4]" = torch.sin(l_x_)\n'
        "        cond_true_0 = self.cond_true_0\n"
        "        cond = torch.ops.higher_order.cond(gt, cond_true_0, cond_false_0, (sin,))\n"
        "\n"
        "    class cond_true_0(torch.nn.Module):\n"
        '        def forward(self, y: "f32[4]"):\n'
        '            sin: "f32[4]" = y.sin()\n'
        "\n"
        "        class inner_0(torch.nn.Module):\n"
        "            def forward(self, z):\n"
        "                cos = z.cos()\n"
        "\n"
        "    class cond_false_0(torch.nn.Module):\n"
        "        def forward(self, y):\n"
        "            sin = y.sin()\n"
    )
    lines = prov.fx_node_lines(text)
    assert lines["sin"] == 3 and lines["cond"] == 5
    assert lines["cond_true_0.sin"] == 9 and lines["cond_true_0.inner_0.cos"] == 13
    assert lines["cond_false_0.sin"] == 17
    assert (
        prov.subgraph_path("cond_true_0_inner_0", ["cond_true_0", "cond_true_0.inner_0"])
        == "cond_true_0.inner_0"
    )
    # the cond runs the nodes of the subgraphs it passes, and the nested op those of its own
    hops = {"cond": ["cond_true_0", "cond_false_0"], "cond_true_0.inner": ["cond_true_0.inner_0"]}
    assert prov.subgraph_nodes(hops, lines) == [
        ("cond", "cond_false_0.sin"),
        ("cond_true_0.inner", "cond_true_0.inner_0.cos"),
        ("cond", "cond_true_0.sin"),
    ]
    assert prov.subgraph_path("partition_0", ["cond_true_0"]) is None


def test_kernels_are_placed_in_the_function_that_calls_them():
    code = (
        "cpp_fused_a_0 = async_compile.cpp_pybinding(['float*'], r'''\n"
        "void kernel() {}\n"
        "''')\n"
        "def true_graph_0(args):\n"
        "    # [Provenance debug handles] cpp_fused_a_0:2\n"
        "    cpp_fused_a_0(buf0)\n"
        "    return (buf0, )\n"
        "class Runner:\n"
        "    def call(self, args):\n"
        "        # [Provenance debug handles] cpp_fused_a_0:1\n"
        "        cpp_fused_a_0(buf1)\n"
        "        extern_kernels.mm(a, b, out=buf2)\n"
    )
    located = prov.OutputCodeLines(code)
    assert located.callers("cpp_fused_a_0") == {"true_graph_0", ""}
    assert located.callers("cpp_fused_a_0", ["cpp_fused_a_0:2"]) == {"true_graph_0"}
    assert located.callers("cpp_fused_a_0", ["cpp_fused_a_0:1"]) == {""}
    assert located.callers("extern_kernels.mm") == {""}


def test_stack_frames_read_the_marked_span():
    trace = (
        '  File "/w/samples/mlp.py", line 18, in forward\n'
        "    return self.fc2(torch.relu(self.fc1(x)))\n"
        "                    ^^^^^^^^^^^^^^^^^^^^^^^^\n"
    )
    assert prov.stack_frames(trace) == [
        {
            "file": "/w/samples/mlp.py",
            "line": 18,
            "fn": "forward",
            "code": "return self.fc2(torch.relu(self.fc1(x)))",
            "span": "torch.relu(self.fc1(x))",
        }
    ]


@pytest.mark.slow
def test_transformer_every_kernel_of_every_part_leads_back_to_user_source(transformer_dump):
    assert transformer_dump.returncode == 0, transformer_dump.stderr
    session = load_dump(transformer_dump.out)
    comp = session.compiles["0/0"]
    for part in ("forward", "backward"):
        stage = session.stage("0/0", f"kernel_source.{part}")
        text = stage.get_text()
        kernels = comp.provenance.in_stage(f"kernel_source.{part}")
        # every generated kernel of the output code has an item ...
        assert {k.name for k in stage.kernels} <= {i.name for i in kernels}
        for kernel in kernels:
            assert kernel.lines and all(0 < n <= text.count("\n") + 1 for n in kernel.lines)
            sources = comp.provenance.trail([kernel.item_id]).stage("source")
            # ... and each leads back to a line of transformer_block.py, or the index says why not
            assert sources or any(kernel.name in note for note in comp.provenance.notes), kernel.name
            assert sources is None or all(i.name.startswith("transformer_block.py:") for i in sources.items)


# ----- TORCH_TRACE logs ------------------------------------------------------------------
TRACE = DATA / "traces" / "mlp_provenance"  # samples/mlp.py with INDUCTOR_PROVENANCE=1, caches off


def test_trace_log_builds_the_trail_it_can_and_says_what_it_lacks():
    from tcdebug.analysis.provenance_from_log import ensure_trace_provenance
    from tcdebug.trace import load_trace_session

    session = load_trace_session(TRACE)
    ensure_trace_provenance(session)
    index = session.compiles["0/1"].provenance
    trail = index.trail(["dynamo_graph|relu"])
    assert trail.names("source") == ["mlp.py:18"] and trail.stage("source").inferred  # `# File:` comments
    assert trail.names("inductor_post_grad_graph.forward") == ["relu"]
    assert not trail.stage("inductor_post_grad_graph.forward").inferred  # Inductor's preToPost mapping
    assert trail.names("kernel_source.forward") == ["cpp_fused_relu_0"]
    assert any("no Inductor IR" in note for note in index.notes)
    assert any("no seq_nr" in note for note in index.notes)
    backward = index.trail(["kernel_source.backward|cpp_fused_sum_threshold_backward_0"])
    assert backward.names("source") == ["mlp.py:18"]  # through Inductor's kernel stack traces


def test_following_an_op_of_a_log_reads_the_provenance_of_that_compile_alone():
    """`f` in the app asks for the compile it follows: the others' stages stay unread (a log of
    100,000 compiles would otherwise be read whole at the first `f`)."""
    from tcdebug.analysis.provenance_from_log import ensure_trace_provenance
    from tcdebug.trace import load_trace_session

    session = load_trace_session(TRACE)
    followed, *others = session.compiles.values()
    ensure_trace_provenance(session, [followed])
    assert followed.provenance_index is not None and followed.provenance_index.items
    assert others and all(c.provenance_index is None for c in others)  # made at first use, not before


def test_a_log_dump_has_no_provenance_json_and_opening_it_reads_the_provenance_of_the_log(tmp_path):
    """A log's provenance is read from its graphs' text, which the dump's stage files hold: the
    dump writes no provenance.json, and `load_dump` reads each compile's from its stage files at
    the first use, the same index the log itself gives."""
    from tcdebug.analysis.provenance_from_log import provenance_from_log
    from tcdebug.trace import load_trace_session

    out = tmp_path / "out"
    proc = run_tcdebug("open", str(TRACE), "--dump", str(out))
    assert proc.returncode == 0, proc.stderr
    assert not list(out.rglob("provenance.json"))
    dumped = load_dump(out)
    assert all(c.provenance_index is None for c in dumped.compiles.values())  # read at the first use
    log = load_trace_session(TRACE)
    assert dumped.compiles.keys() == log.compiles.keys()
    for cid, comp in log.compiles.items():
        assert prov.index_to_dict(dumped.compiles[cid].provenance) == prov.index_to_dict(provenance_from_log(comp))
    data = prov.index_to_dict(dumped.compiles["0/1"].provenance)
    assert data["nodes"]["relu"]["stages"]["kernel_source.forward"]["items"] == ["cpp_fused_relu_0"]
    assert any("no Inductor IR" in note for note in data["notes"])


def test_hostile_symbols_and_items_are_refused_by_field():
    item = {"item_id": "a", "stage": "s", "name": "a"}
    for bad, where in (
        ({"items": [item | {"lines": 7}]}, "items[0].lines: expected a list, got 7"),
        ({"items": [item | {"meta": [1]}]}, "items[0].meta: expected an object, got [1]"),
        ({"items": [item | {"lines": [True, 2]}]}, "items[0].lines[0]: expected an integer, got true"),
        ({"links": [["a", "b"]]}, "links[0][2]: missing"),
        ({"symbols": {"s0": {"sources": 5}}}, "symbols.s0.sources: expected a list, got 5"),
        ({"symbols": {"s0": {"guards": ["Eq(s0, 2)", 3]}}}, "symbols.s0.guards[1]: expected a string, got 3"),
        ({"symbols": {"s1": "x"}}, 'symbols.s1: expected an object, got "x"'),
    ):
        with pytest.raises(SchemaError) as raised:
            prov.apply_dict(ProvenanceIndex(), bad, "")
        assert str(raised.value) == where
    index = ProvenanceIndex()
    prov.apply_dict(index, {"items": [item | {"lines": [2]}], "symbols": {"s0": {"guards": ["Eq(s0, 2)"]}}})
    assert index.items["a"].lines == [2] and index.items["a"].meta == {}
    assert index.symbols == {"s0": ProvSymbol(sources=[], range="", hint="", guards=["Eq(s0, 2)"])}


@pytest.mark.slow
def test_a_rerun_recompile_explains_its_symbolic_batch(rerun_session):  # noqa: F811 - shared fixture
    """`--rerun x=32,64`: automatic dynamic makes the batch of 0/3 a symbol; its origin is x's size 0."""
    symbols = rerun_session.compiles["0/3"].provenance.symbols
    assert symbols, "no symbols for 0/3"
    (name, info), *_ = [(n, i) for n, i in symbols.items() if "L['x'].size()[0]" in i.sources]
    assert info.range.startswith("[") and info.hint == "32"
    assert name in rerun_session.compiles["0/3"].stages["dynamo_graph"].get_text()
    trail = rerun_session.compiles["0/3"].provenance.trail(["dynamo_graph|relu"])
    assert trail.names("kernel_source.forward")  # re-run compiles are followed like any other


share_dump(
    "no_kernel_lines_dump", "no_kernel_lines", str(SCRIPTS / "relu_only.py"),
    # the user turned torch's kernel table on (tcdebug never does): kernel-level links come from it
    env={"TCDEBUG_SKIP_UNITS": "kernel_lines", "INDUCTOR_PROVENANCE": "1"},
)


@pytest.fixture(scope="module")
def no_kernel_lines_dump(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("no_kernel_lines_dump")


@pytest.mark.slow
def test_without_the_kernel_lines_unit_the_trail_marks_whole_kernels_and_says_so(no_kernel_lines_dump: DumpRun) -> None:
    """An older torch (or the unit switched off): kernel-level links, and a note saying why."""
    assert no_kernel_lines_dump.returncode == 0, no_kernel_lines_dump.stderr
    out = no_kernel_lines_dump.out
    session = load_dump(out)
    index = session.compiles["0/0"].provenance
    assert any("kernel_lines capture unit is not installed" in note for note in index.notes)
    trail = index.trail(["dynamo_graph|relu"])
    (kernel,) = trail.stage("kernel_source.inference").items
    assert kernel.kind == "kernel"  # no per-line item
    marked = _lines_of(session, "0/0", "kernel_source.inference", trail)
    assert any("#include" in line for line in marked)  # the whole definition


@pytest.mark.slow
def test_a_dumps_provenance_is_read_at_its_first_use_and_once(mlp_dump, tmp_path):
    """Loading a dump leaves each provenance.json unread; the first use reads it, once, even
    when several threads (the app's highlight workers) ask at the same time."""
    import shutil
    import threading

    copy = tmp_path / "dump"
    shutil.copytree(mlp_dump.out, copy)
    eager = {cid: len(c.provenance.links) for cid, c in load_dump(copy).compiles.items()}
    assert eager["0/1"] > 0

    session = load_dump(copy)
    (copy / "compiles" / "0-1" / "provenance.json").write_text("{not json")  # after loading
    assert "provenance.json unreadable" in session.compiles["0/1"].provenance.notes[-1]

    session = load_dump(mlp_dump.out)
    comp = session.compiles["0/1"]
    seen: list[int] = []
    start = threading.Barrier(8)

    def use() -> None:
        start.wait()
        seen.append(len(comp.provenance.links))

    threads = [threading.Thread(target=use) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [eager["0/1"]] * 8
    assert not any("unreadable" in note for note in comp.provenance.notes)  # read once, whole


# ----- provenance tracking leaves torch's stack traces as a run without it prints them ------------------
LOSS_IN_FORWARD = SCRIPTS / "compiled_loss_in_forward.py"
share_dump("loss_in_forward_dump", "loss_in_forward", str(LOSS_IN_FORWARD), fixture="loss_in_forward")
share_trace("loss_in_forward_trace", LOSS_IN_FORWARD, fixture="loss_in_forward")


@pytest.fixture(scope="module")
def loss_in_forward(shared_dumps: SharedDumps) -> SharedDumps:
    return shared_dumps


def _text_without(session, key: str, marker: str) -> str:
    """A stage's text without the lines that hold `marker`."""
    text = session.stage("0/0", key).get_text()
    return "\n".join(line for line in text.splitlines() if marker not in line)


@pytest.mark.slow
def test_graphs_ir_and_kernels_are_torchs_own_without_provenance_tracking(loss_in_forward, tmp_path):
    """tcdebug never switches Inductor's provenance tracking on: at level 1 it renames kernels, adds
    debug-handle comments, and makes `make_fx` record the compile's caller as the stack of nodes
    traced without one. The backward graphs and the kernels match the same script's TORCH_TRACE log
    under plain torch, byte for byte."""
    dump = loss_in_forward.get("loss_in_forward_dump")
    assert dump.returncode == 0, dump.stderr[-3000:]
    plain = loss_in_forward.process("loss_in_forward_trace")
    assert plain.returncode == 0, plain.stderr[-3000:]
    (log,) = (loss_in_forward.folder("loss_in_forward_trace") / "trace").glob("*.log")
    opened = run_tcdebug("open", str(log), "--dump", str(tmp_path / "plain"))
    assert opened.returncode == 0, opened.stderr
    ours, torchs = load_dump(dump.out), load_dump(tmp_path / "plain")

    caller = "return loss_of(self.proj(x), labels)"
    for key in ("aot_backward", "inductor_post_grad_graph.backward"):
        text = _text_without(ours, key, "graph id:")  # an address, different in every run
        assert "No stacktrace found for following nodes" in text  # the joint passes' new nodes
        assert caller not in text
        assert text == _text_without(torchs, key, "graph id:")
    # The kernels are torch's, names and text (no `# [Provenance debug handles]` comments).
    for key in ("kernel_source.forward", "kernel_source.backward"):
        assert "# [Provenance debug handles]" not in ours.stage("0/0", key).get_text()
        assert ours.stage("0/0", key).get_text() == torchs.stage("0/0", key).get_text()
    ir_text = ours.stage("0/0", "inductor_ir_post_fusion.backward").get_text()
    assert "stack_traces = {" in ir_text and "F.cross_entropy(logits, labels)" in ir_text
    assert caller not in ir_text
    # Provenance still links the backward's ops to the source line they differentiate.
    trail = ours.compiles["0/0"].provenance.trail(["dynamo_graph|cross_entropy"])
    assert trail.names("aot_backward") and trail.names("kernel_source.backward")
