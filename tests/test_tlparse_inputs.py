"""tlparse's own test inputs: what tlparse reports for each, and tcdebug reporting it too.

The inputs come unchanged from tlparse (tests/data/tlparse/inputs.tar.xz, see its README). Each
test names the tlparse test whose assertion it mirrors (tlparse's `tests/integration_test.rs`).
"""

from __future__ import annotations

import re
import shutil
import tarfile
from pathlib import Path

import pytest
from conftest import run_tcdebug

from tcdebug import trace
from tcdebug.model import records
from tcdebug.model.session import EXECUTION_ORDER, GRAPH_EXECUTIONS, Session
from tcdebug.trace.divergence import Divergence

ARCHIVE = Path(__file__).resolve().parent / "data" / "tlparse" / "inputs.tar.xz"


@pytest.fixture(scope="module")
def tl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tlparse")
    with tarfile.open(ARCHIVE) as tar:
        tar.extractall(root, filter="data")
    return root


def inputs(tl: Path, name: str) -> Path:
    return tl / "inputs" / name


def kinds(session: Session, kind: str) -> list[Divergence]:
    return [d for d in session.divergences if d.kind == kind]


# ----- every record kind tlparse parses ---------------------------------------------------------
def test_the_registry_declares_every_record_kind_of_tlparses_envelope(tl: Path) -> None:
    """tlparse's `Envelope` (src/types.rs) has one field per record kind it parses: each is a
    declared record of tcdebug's registry, with a handler, and an ignored one says why."""
    source = (tl / "src" / "types.rs").read_text()
    body = source[source.index("pub struct Envelope {") :]
    body = body[: body.index("\n}")]
    keys = re.findall(r"pub (\w+): Option", body)
    assert len(keys) > 30 and "propagate_real_tensors_provenance" in keys
    context = {"rank", "compile_id", "has_payload", "stack", "str"}  # qualifiers, and the interned strings
    for key in (k for k in keys if k not in context):
        assert key in records.ENVELOPE_KEYS, key
        if key in ("artifact", "graph_dump"):
            continue  # carriers: their records are declared by name (below)
        kind = records.lookup(key)
        assert kind.name == key and kind.handler in records.HANDLERS
        if kind.handler == records.IGNORED:
            assert kind.reason, key
    # the artifacts tlparse reads by name (src/lib.rs, src/parsers.rs)
    for name in (
        "inductor_collective_schedule", "inductor_runtime_and_tensor_meta", "graph_execution",
        "inductor_graph_execution", "before_pre_grad_graph", "after_post_grad_graph",
        "inductor_provenance_tracking_node_mappings", "inductor_provenance_tracking_kernel_stack_traces",
        "fx_graph_cache_hit", "fx_graph_cache_miss", "fx_graph_cache_bypass", "aotautograd_cache_hit",
    ):  # fmt: skip
        kind = records.lookup("artifact", name)
        assert kind.name and kind.reason or kind.pattern, name


def test_the_docs_table_lists_every_declared_record_kind() -> None:
    table = (Path(__file__).resolve().parent.parent / "docs" / "trace-records.md").read_text()
    for kind in records.RECORDS:
        if kind.stage and not kind.reason:
            continue  # a catalogue stage's record: the stage table names it
        name = kind.name if not kind.pattern else "_cache_"
        assert f"`{name}`" in table or name in table, name


# ----- single logs ------------------------------------------------------------------------------
def test_simple_log(tl: Path) -> None:
    """tlparse test_parse_simple: 0/0 with its Dynamo graph, `aot_forward_graph*` (the forward's
    metadata), post-grad graph and output code."""
    for name in ("simple.log", "simple_corrupted_json.log"):  # test_parse_simple_corrupted_json too
        comp = trace.load_trace_session(inputs(tl, name)).compiles["0/0"]
        for stage in ("dynamo_graph", "artifact_aot_forward_graph", "inductor_post_grad_graph", "kernel_source"):
            assert any(k.startswith(stage) and s.captured for k, s in comp.stages.items()), (name, stage)


def test_compilation_metrics_and_failures(tl: Path) -> None:
    """tlparse test_parse_compilation_metrics: 0/0_1, 1/0_1 and 2/0 each have a Dynamo graph and
    metrics; test_parse_compilation_failures: 0/0 has them and failed."""
    session = trace.load_trace_session(inputs(tl, "comp_metrics.log"))
    for cid in ("0/0_1", "1/0_1", "2/0"):
        comp = session.compiles[cid]
        assert comp.stages["dynamo_graph"].captured and comp.metrics, cid
    failed = trace.load_trace_session(inputs(tl, "comp_failure.log")).compiles["0/0"]
    assert failed.status == "failed" and failed.error and failed.stages["dynamo_graph"].captured


def test_artifacts_and_cache_results(tl: Path) -> None:
    """tlparse test_parse_artifact: 0/0 has the fx_graph_cache_hash artifact; test_cache_hit_miss:
    1/0 has two FX graph cache misses and a hit (tlparse files the three runs of 1/0 in one log
    under one folder; tcdebug keeps each run: 1/0, 1/0#2, 1/0#3)."""
    comp = trace.load_trace_session(inputs(tl, "artifacts.log")).compiles["0/0"]
    assert any(s.meta.get("artifact") == "fx_graph_cache_hash" for s in comp.stages.values())
    session = trace.load_trace_session(inputs(tl, "cache_hit_miss.log"))
    runs = [session.compiles[cid].metrics["cache"]["fx_graph"] for cid in ("1/0", "1/0#2", "1/0#3")]
    assert runs == [{"miss": 1}, {"hit": 1}, {"miss": 1}]


def test_chromium_events(tl: Path) -> None:
    """tlparse test_parse_chromium_event: the chromium events become phase times of 0/0."""
    comp = trace.load_trace_session(inputs(tl, "chromium_events.log")).compiles["0/0"]
    assert comp.times


def test_links(tl: Path) -> None:
    session = trace.load_trace_session(inputs(tl, "links.log"))
    assert any("manifold_url" in note for note in session.notes) and session.trace_stats["links"]


@pytest.mark.parametrize("name", ["export.log", "export_guard_added.log"])
def test_export_report_keeps_the_whole_program(tl: Path, name: str) -> None:
    """tlparse test_export_report / test_export_guard_report: the exported program, whole (its
    payload has blank lines without a tab: tlparse skips them and reads on), and the report."""
    session = trace.load_trace_session(inputs(tl, name))
    (comp,) = session.compiles.values()
    program = comp.stages["exported_program"].get_text()
    assert program.startswith("ExportedProgram:") and "Range constraints:" in program
    assert session.trace_stats["malformed"] == 0
    report = comp.stages["draft_export_report"].get_text()
    shapes = comp.stages["trace_symbolic_shapes"].get_text()
    if name == "export.log":  # tlparse's "Data Dependent Error"
        assert "Data Dependent Error" in report and "Eq((((-u0)//3)) + 5, 0)" in report
        assert "test_draft_export.py:279 in forward `return z[:a]`" in report
        assert comp.status == "failed" and "Eq((((-u0)//3)) + 5, 0)" in comp.error
        assert "unbacked symbol u0" in shapes and "guard added: Ne((((-u0)//3)) + 5, 0)" in shapes
    else:  # tlparse's "Guard Evaluated"
        assert "Guard Evaluated" in report and "Eq(s0, 3)" in report
        assert "guard added (evaluated): Eq(s0, 3)" in shapes
        assert comp.status == "ok"


def test_export_report_in_the_dump_summary(tl: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_tcdebug("open", str(inputs(tl, "export.log")), "--dump", str(out))
    assert result.returncode == 0, result.stderr
    assert "draft export -/-: Data Dependent Error: Eq((((-u0)//3)) + 5, 0)" in result.stdout
    assert "Data Dependent Error" in (out / "compiles" / "---" / "draft_export_report.txt").read_text()


def test_a_complete_last_record_with_a_wrong_md5_is_kept(tl: Path) -> None:
    """The extended provenance log ends with a whole JSON record whose md5 does not match (and no
    newline): kept and flagged, as tlparse keeps it, not counted as truncated."""
    session = trace.load_trace_session(inputs(tl, "inductor_provenance_extended_log.txt"))
    assert session.trace_stats["truncated"] == 0 and session.trace_stats["md5_mismatch"] == 1
    stages = [s for c in session.compiles.values() for s in c.stages.values()]
    (last,) = [s for s in stages if s.meta.get("artifact") == "inductor_provenance_tracking_kernel_stack_traces"]
    assert last.meta.get("md5_mismatch") and last.get_text().startswith("{")


@pytest.mark.parametrize(
    "name",
    [
        "inductor_provenance_aot_cuda_log.txt", "inductor_provenance_aot_debug_handle_log.txt",
        "inductor_provenance_aot_log.txt", "inductor_provenance_aot_log_old.txt",
        "inductor_provenance_jit_cuda_log.txt", "inductor_provenance_jit_debug_handle_log.txt",
        "inductor_provenance_jit_log.txt", "autotune_with_compile_id.log",
    ],
)  # fmt: skip
def test_provenance_logs(tl: Path, name: str) -> None:
    """tlparse test_provenance_tracking_*: the pre-grad graph, the post-grad graph after its passes and
    the node mappings, in the compile tlparse files them under (`-/-` for AOTInductor)."""
    session = trace.load_trace_session(inputs(tl, name))
    arts = {s.meta.get("artifact") for c in session.compiles.values() for s in c.stages.values()}
    if name == "inductor_provenance_aot_log_old.txt":  # an older torch: the graphs are events of their own
        stages = {k for c in session.compiles.values() for k in c.stages}
        assert "trace_inductor_pre_grad_graph" in stages and "inductor_provenance_tracking_node_mappings" in arts
        assert any(k.startswith("inductor_post_grad_graph") for k in stages)
    elif name.startswith("inductor_provenance"):
        assert {"before_pre_grad_graph", "inductor_provenance_tracking_node_mappings"} <= arts
        assert "after_post_grad_graph" in arts
    if name.startswith("inductor_provenance"):
        expected = "-/-" if "_aot_" in name else "0/0"
        assert expected in session.compiles
    assert session.trace_stats["skipped"] == 0


# ----- several ranks ----------------------------------------------------------------------------
def test_ranks_are_named_by_their_file_names(tl: Path) -> None:
    """tlparse names a rank from its file name: multi_rank_schedule's three logs are ranks 0, 1, 2
    (all three say rank 0 inside: shown beside it), multi_rank_runtime's rank_5 and rank_6 are 5, 6."""
    session = trace.load_trace_session(inputs(tl, "multi_rank_schedule"))
    assert list(session.ranks) == ["0", "1", "2"]
    assert session.ranks["1"].record_rank == 0 and session.ranks["0"].record_rank is None
    assert any("rank 1 by its file name; its records say rank 0" in n for n in session.ranks["1"].notes)
    runtime = trace.load_trace_session(inputs(tl, "multi_rank_runtime"))
    assert list(runtime.ranks) == ["0", "1", "2", "3", "4", "5", "6"]
    messy = trace.load_trace_session(inputs(tl, "multi_rank_messy_input"))  # test_all_ranks_messy_input
    assert list(messy.ranks) == ["0", "1"]


def test_diverging_compile_ids(tl: Path) -> None:
    """tlparse test_diverging_compile_ids_warning: "Diverging Compilation IDs detected"."""
    session = trace.load_trace_session(inputs(tl, "multi_rank_logs"))
    assert kinds(session, "compile_ids")


def test_collective_sequence_divergence(tl: Path, tmp_path: Path) -> None:
    """tlparse test_collective_schedule_with_divergence: "Diverging collective operation
    sequences", ranks 0 and 2 in one group; rank 1 lacks a reduce_scatter_tensor and a wait_tensor.
    test_collective_schedule_no_divergence: ranks 0 and 2 alone agree."""
    session = trace.load_trace_session(inputs(tl, "multi_rank_schedule"))
    (d,) = kinds(session, "collectives")
    assert d.ranks == ["1"] and list(d.groups.values()) == [["0", "2"], ["1"]]
    assert "first difference at #4: ranks 0, 2: reduce_scatter_tensor (0/0) | rank 1: wait_tensor (0/0)" in d.detail
    assert d.texts["0, 2"].count("reduce_scatter_tensor") == d.texts["1"].count("reduce_scatter_tensor") + 1
    two = tmp_path / "two"
    two.mkdir()
    for src in inputs(tl, "multi_rank_schedule").glob("*rank_[02]*.log"):
        shutil.copy(src, two / src.name)
    assert not kinds(trace.load_trace_session(two), "collectives")


def test_collectives_parity(tl: Path) -> None:
    """tlparse test_collectives_parity_detects_mismatch: 0/0 misses 1 wait, 0/1 misses 3, offset 0."""
    session = trace.load_trace_session(inputs(tl, "collectives_parity"))
    notes = [n for n in session.notes if n.startswith("collectives parity")]
    assert notes == [
        "collectives parity: 0/0 rank 0: 1 collective without a wait_tensor in the output code",
        "collectives parity: 0/1 rank 0: 3 collectives without a wait_tensor in the output code",
    ]


def test_runtime_records_are_no_compile(tl: Path) -> None:
    """`inductor_graph_execution` records (ranks 5 and 6) are runtime data: no `-/-` compile, no
    compile divergence; the graphs they ran are the ranks' execution order."""
    session = trace.load_trace_session(inputs(tl, "multi_rank_runtime"))
    for label, s in session.ranks.items():
        assert "-/-" not in s.compiles, label
        assert all(c.status == "ok" for c in s.compiles.values()), label
    executed = ["graph_0", "graph_1", "graph_1", "graph_0", "graph_1", "graph_0"]
    assert session.ranks["5"].extra[GRAPH_EXECUTIONS] == executed
    assert not [d for d in kinds(session, "compile_ids") if d.compile_id == "-/-"]


def test_tensor_meta_and_runtime_estimates(tl: Path, tmp_path: Path) -> None:
    """tlparse test_tensor_meta_divergence_groups: "Ranks exhibit divergent inductor tensor meta",
    ranks 5 and 6 in one group. test_runtime_analysis_mismatched_graphs: the ranks estimate
    different numbers of graphs, so runtimes are not compared graph by graph."""
    session = trace.load_trace_session(inputs(tl, "multi_rank_runtime"))
    (meta,) = kinds(session, "tensor_meta")
    assert ["5", "6"] in meta.groups.values()
    (runtime,) = kinds(session, "runtime")
    assert runtime.detail.startswith("different numbers of graphs with runtime estimates")
    # test_runtime_analysis_working: ranks with the same graphs are compared graph by graph
    same = tmp_path / "same"
    same.mkdir()
    for rank in (0, 1, 2, 3):
        src = inputs(tl, "multi_rank_runtime") / f"dedicated_log_torch_trace_rank_{rank}.log"
        shutil.copy(src, same / src.name)
    compared = trace.load_trace_session(same)
    for d in kinds(compared, "runtime"):
        assert "ms:" in d.detail and "differs by" in d.detail


def test_cache_pattern_divergence(tl: Path, tmp_path: Path) -> None:
    """tlparse test_diverging_cache_events_warning: cache_hit_miss.log as rank 0 and simple.log as
    rank 1: "Diverging Cache hit/miss patterns detected"; test_no_cache_event_divergence: the same
    log twice agrees."""
    job = tmp_path / "job"
    job.mkdir()
    shutil.copy(inputs(tl, "cache_hit_miss.log"), job / "dedicated_log_torch_trace_rank_0.log")
    shutil.copy(inputs(tl, "simple.log"), job / "dedicated_log_torch_trace_rank_1.log")
    (d,) = kinds(trace.load_trace_session(job), "cache")
    assert d.ranks == ["1"] and "first difference at #1" in d.detail
    (job / "dedicated_log_torch_trace_rank_1.log").unlink()
    shutil.copy(inputs(tl, "cache_hit_miss.log"), job / "dedicated_log_torch_trace_rank_1.log")
    assert not kinds(trace.load_trace_session(job), "cache")


def test_execution_order_divergence(tl: Path) -> None:
    """tlparse test_graph_execution_order_diagnostics: "Graph execution order differs across ranks",
    the cache pattern consistent."""
    session = trace.load_trace_session(tl / "graph_exec_order_tests")
    (d,) = kinds(session, "execution_order")
    assert "first difference at #1: rank 0: 0/1 | rank 1: 0/0" in d.detail
    assert session.ranks["0"].extra[EXECUTION_ORDER][:2] == ["0/1", "0/0"]
    assert not kinds(session, "cache")
