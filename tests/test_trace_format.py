"""The one module that knows the structured trace, as the capture and the log reader use it."""

from __future__ import annotations

from tcdebug.model import stages as stage_catalog
from tcdebug.model import trace_format as tf


def test_compile_ids_are_written_as_torch_writes_them() -> None:
    assert tf.format_compile_id(0, 1) == "0/1"
    assert tf.format_compile_id(0, 1, 2) == "!2/0/1"
    assert tf.format_compile_id(None, None, 2) == "!2"  # compiled autograd's own records
    assert tf.format_compile_id(None, None) is None and tf.format_compile_id(3, None) is None
    assert tf.with_attempt("0/1", 0) == "0/1" and tf.with_attempt("0/1", 2) == "0/1_2"


def test_every_record_stage_is_in_the_catalogue() -> None:
    assert set(tf.FX_GRAPH_KEYS.items()) <= set(tf.STAGE_KEYS.items())
    assert all(stage_catalog.kind(s).title != s for s in tf.STAGE_KEYS.values())
    assert set(tf.AOT_MODES) <= set(tf.STAGE_KEYS.values())


def test_the_inductor_part_follows_the_aot_graphs_and_the_forward_kernels() -> None:
    assert tf.inductor_part("", set()) == ""
    assert tf.inductor_part("inference", {"kernel_source.forward"}) == "inference"
    assert tf.inductor_part("training", {"aot_forward"}) == "forward"
    assert tf.inductor_part("training", {"kernel_source.forward"}) == "backward"
    code = "# AOT ID: ['0_backward']\nimport torch\n"
    assert tf.aot_graph_id(code) == (0, "backward") and tf.aot_graph_id("x" * 600 + code) is None
    assert tf.aot_graph_id(None) is None


def test_a_compile_with_several_aot_graphs_numbers_its_subgraphs() -> None:
    """DDPOptimizer's order: each subgraph's pre-grad graph and AOTAutograd graphs, then its
    forward's Inductor compile; the backwards later, last subgraph first."""
    subgraphs = tf.Subgraphs()
    seen = []
    for stage in ("inductor_pre_grad_graph", "aot_joint", "aot_forward", "aot_backward"):
        seen.append(subgraphs.on_opener(stage))
    assert tf.parse_aot_graph_name(["7_forward"]) == (7, "forward")
    assert subgraphs.of_aot_id(7, "forward") == 0
    for stage in ("inductor_pre_grad_graph", "aot_joint", "aot_forward", "aot_backward"):
        seen.append(subgraphs.on_opener(stage))
    assert seen == [0, 0, 0, 0, 1, 1, 1, 1] and subgraphs.count == 2
    assert subgraphs.of_aot_id(8, "forward") == 1
    assert subgraphs.of_aot_id(8, "backward") == 1 and subgraphs.of_aot_id(7, "backward") == 0
    # aot_eager: no pre-grad graph; an inference graph again opens the next one
    plain = tf.Subgraphs()
    assert [plain.on_opener(s) for s in ("aot_inference", "aot_inference", "aot_inference")] == [0, 1, 2]
    assert tf.inductor_part("training", {"kernel_source.forward"}, 1) == "forward"
    assert tf.inductor_part("training", {"kernel_source.forward_1"}, 1) == "backward"
    assert tf.aot_graph_id("# AOT ID: ['12_backward']\n") == (12, "backward")
    for name in (None, [], ["a_forward"], ["1_forward", "2_forward"], "1_sideways", 3):
        assert tf.parse_aot_graph_name(name) is None


def test_subgraph_parts_read_back_and_sort_in_pipeline_order() -> None:
    for part in ("", "forward", "backward", "inference"):
        assert stage_catalog.graph_part(part, 0) == part and stage_catalog.split_part(part) == (part, 0)
    assert stage_catalog.graph_part("backward", 2) == "backward_2"
    assert stage_catalog.split_part("backward_2") == ("backward", 2)
    assert stage_catalog.graph_part("", 1) == "subgraph_1" and stage_catalog.split_part("subgraph_1") == ("", 1)
    for odd in ("weird_1", "forward_" + "9" * 5000, "forward_\u0661", "forward_-1"):  # not parts tcdebug writes
        assert stage_catalog.split_part(odd) == (odd, 0)
    assert stage_catalog.part_label("forward_1") == "forward, subgraph 1"
    assert stage_catalog.part_label("subgraph_3") == "subgraph 3" and stage_catalog.part_label("forward") == "forward"
    assert stage_catalog.aot_key_for_part("backward_1") == "aot_backward.subgraph_1"
    assert stage_catalog.aot_key_for_part("inference") == "aot_inference"
    keys = stage_catalog.expected_keys("training", subgraphs=2)
    assert keys == sorted(reversed(keys), key=stage_catalog.sort_key)
    assert keys.index("kernel_source.forward") < keys.index("inductor_pre_grad_graph.subgraph_1")
    assert keys.index("kernel_source.forward_1") < keys.index("guards") < keys.index("kernel_source.backward")
    assert keys.index("kernel_source.backward") < keys.index("inductor_post_grad_graph.backward_1")
    assert stage_catalog.expected_keys("training") == [
        k for k in keys if not k.endswith(("_1", "subgraph_1"))
    ]


GUARDS = "TREE_GUARD_MANAGER:\n+- RootGuardManager\n| +- GuardManager: source=L['x']\n| | +- TENSOR_MATCH: x\n+- GLOBAL_STATE\n"


def test_guards_counted_line_by_line_add_up_to_the_whole() -> None:
    """The log reader counts each payload line, the capture the whole text: the same count."""
    assert tf.count_guards(GUARDS) == 2  # the GuardManager nodes are no guards
    assert sum(tf.count_guards(line) for line in GUARDS.split("\n")) == 2
    assert tf.count_guards("no tree here") == 0


def test_a_compile_of_compiled_autograds_graph_names_its_capture_in_its_process_and_run() -> None:
    assert [tf.is_compiled_autograd_capture(c) for c in ("!0", "!12#2@77", "!0_1", "!0/1/0", "0/0", "-/-")] == [
        True, True, True, False, False, False,
    ]  # fmt: skip
    assert tf.capture_of("!0/1/0") == "!0"
    assert tf.capture_of("!3/4/0_1#2@77") == "!3#2@77"
    assert [tf.capture_of(c) for c in ("!0", "0/1", "!x/1/0", "-/-")] == [None, None, None, None]
