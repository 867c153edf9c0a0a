"""The one module that knows the structured trace, as the capture and the log reader use it."""

from __future__ import annotations

from tcdebug import stages as stage_catalog
from tcdebug import trace_format as tf


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
    assert tf.aot_id_part(code) == "backward" and tf.aot_id_part("x" * 600 + code) is None
    assert tf.aot_id_part(None) is None


GUARDS = "TREE_GUARD_MANAGER:\n+- RootGuardManager\n| +- GuardManager: source=L['x']\n| | +- TENSOR_MATCH: x\n+- GLOBAL_STATE\n"


def test_guards_counted_line_by_line_add_up_to_the_whole() -> None:
    """The log reader counts each payload line, the capture the whole text: the same count."""
    assert tf.count_guards(GUARDS) == 2  # the GuardManager nodes are no guards
    assert sum(tf.count_guards(line) for line in GUARDS.split("\n")) == 2
    assert tf.count_guards("no tree here") == 0
