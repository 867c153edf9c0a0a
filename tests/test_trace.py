"""`tcdebug open` on real TORCH_TRACE logs (tests/data/traces, written by `TORCH_TRACE=dir python samples/...`).

mlp/          samples/mlp.py, second run: FX graph and AOTAutograd cache hits, inference + training
graph_breaks/ samples/graph_breaks.py: three graph breaks, restarts (attempt 1), resume functions
ranks/        samples/distributed_ranks.py: two gloo ranks; rank 1 recompiles 0/1 and traces 1/0 differently
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tcdebug import trace
from tcdebug.analysis.summary import summary_text
from tcdebug.model.session import LOADED
from tcdebug.trace.to_session import LazyKernel

TRACES = Path(__file__).resolve().parent / "data" / "traces"
ROOT = Path(__file__).resolve().parent.parent


def log(name: str) -> Path:
    (path,) = (TRACES / name).glob("*.log")
    return path


# ----- reader ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["mlp", "graph_breaks"])
def test_committed_logs_read_cleanly(name: str) -> None:
    stats = trace.TraceStats()
    records = list(trace.read_records(log(name), stats))
    assert stats.skipped() == 0, stats
    assert len(records) > 100
    keys = {r.key for r in records}
    assert {"dynamo_start", "dynamo_output_graph", "inductor_output_code", "compilation_metrics"} <= keys


def test_payloads_are_read_back_from_the_log_and_match_their_md5() -> None:
    session = trace.load_trace_session(log("graph_breaks"))
    checked = 0
    for comp in session.compiles.values():
        for stage in comp.stages.values():
            if stage.captured and stage.stage_id != "guards":
                assert stage.text is None and stage.loader is not None  # lazy: nothing held
                digest = hashlib.md5(stage.get_text().encode(), usedforsecurity=False).hexdigest()
                assert digest == stage.meta["md5"], (comp.compile_id, stage.key)
                checked += 1
    assert checked > 40


# ----- one log -----------------------------------------------------------------------------
def test_mlp_trace_has_every_stage_the_log_holds() -> None:
    session = trace.load_trace_session(TRACES / "mlp")
    assert session.origin == "trace" and session.state == LOADED
    assert session.torch_version.startswith("2.")
    assert [c.compile_id for c in session.ordered_compiles()] == ["0/0", "0/1"]
    inference, training = session.compiles["0/0"], session.compiles["0/1"]
    assert inference.function == "forward" and inference.filename.endswith("samples/mlp.py")
    assert inference.status == "ok" and inference.elapsed_s > 0
    assert {
        "dynamo_graph",
        "aot_inference",
        "inductor_post_grad_graph.inference",
        "kernel_source.inference",
    } <= set(inference.stages)
    assert {
        "aot_joint",
        "aot_forward",
        "aot_backward",
        "inductor_post_grad_graph.forward",
        "inductor_post_grad_graph.backward",
        "kernel_source.forward",
        "kernel_source.backward",
        "guards",
    } <= set(training.stages)
    assert "class GraphModule" in training.stages["dynamo_graph"].get_text()
    assert "# AOT ID: ['1_backward']" in training.stages["kernel_source.backward"].get_text()
    guards = training.stages["guards"]
    assert guards.get_text().startswith("TREE_GUARD_MANAGER") and guards.meta["guard_count"] > 10
    assert "grad_mode" in training.recompile_reason
    # cache hits (this log comes from a second run) and time per phase
    assert inference.metrics["cache"] == {"fx_graph": {"hit": 1}, "aotautograd": {"hit": 1}}
    assert training.metrics["cache"]["fx_graph"] == {"hit": 2}
    assert training.metrics["entire_frame_compile_time_s"] > 0
    assert "inductor_config" not in training.metrics
    # other artifacts, by name and part
    assert training.stages["artifact_fx_graph_runnable.backward"].meta["artifact"] == "fx_graph_runnable"
    assert "artifact_fx_graph_cache_hit.forward" in training.stages


def test_kernels_are_split_from_output_code_and_read_lazily() -> None:
    session = trace.load_trace_session(TRACES / "mlp")
    stage = session.compiles["0/1"].stages["kernel_source.backward"]
    names = [k.name for k in stage.kernels]
    assert names == ["cpp_fused_sum_threshold_backward_0", "cpp_fused_sum_1"]
    kernel = stage.kernels[1]
    assert isinstance(kernel, LazyKernel) and kernel._source is None
    assert 'extern "C"' in kernel.source and kernel.kind == "cpp"
    assert kernel.source in stage.get_text()


def test_artifacts_after_output_code_go_with_whoever_logged_them() -> None:
    """A log taken with caches off (as under tcdebug) has no FX graph cache record to close the
    forward's Inductor compile: Inductor's own artifacts after its output code keep the forward's
    part, AOTAutograd's runtime wrappers after them belong to the whole compile."""
    comp = trace.load_trace_session(TRACES / "mlp_provenance").compiles["0/1"]
    assert "artifact_fx_graph_cache_miss.forward" not in comp.stages  # caches were off
    for name in ("inductor_provenance_tracking_node_mappings", "inductor_provenance_tracking_kernel_stack_traces"):
        assert {f"artifact_{name}.forward", f"artifact_{name}.backward"} <= set(comp.stages), name
    for name in ("backward_prologue", "compiled_function_forward", "compiled_function_backward"):
        assert f"artifact_{name}" in comp.stages, name
        assert not [k for k in comp.stages if k.startswith(f"artifact_{name}.")], name
    # with caches on, the cache record closes the compile: the same place
    cached = trace.load_trace_session(TRACES / "graph_breaks").compiles["0/0_1"]
    assert {"artifact_fx_graph_cache_miss.inference", "artifact_runtime_wrapper_orchestration"} <= set(
        cached.stages
    )


def test_stages_a_trace_lacks_are_not_captured_with_a_reason() -> None:
    session = trace.load_trace_session(TRACES / "graph_breaks")
    first = session.compiles["0/0_1"]  # the attempt that compiled (0/0 restarted)
    for stage_id in ("source", "bytecode_before", "bytecode_after", "inductor_ir_pre_fusion"):
        assert not first.stages[stage_id].captured
        assert first.stages[stage_id].reason == trace.NOT_IN_TRACE
        assert first.stages[stage_id].get_text() == f"not captured: {trace.NOT_IN_TRACE}"
    # resume functions do get their bytecode logged
    # (the original bytecode is logged by attempt 0, the modified one by the attempt that compiled)
    restarted, resume = session.compiles["1/0"], session.compiles["1/0_1"]
    before = restarted.stages["bytecode_before"]
    assert before.captured and "RESUME" in before.get_text()
    assert resume.stages["bytecode_after"].captured
    assert resume.stages["bytecode_before"].reason == "in 1/0 (logged by the attempt that restarted)"


def test_graph_breaks_and_restarts() -> None:
    session = trace.load_trace_session(TRACES / "graph_breaks")
    # every attempt is its own compile: 0/0 broke and restarted, 0/0_1 compiled (tlparse: [0/0_1])
    ids = ["0/0", "0/0_1", "1/0", "1/0_1", "2/0", "3/0"]
    assert [c.compile_id for c in session.ordered_compiles()] == ids
    assert session.compiles["0/0"].status == "restarted" and session.compiles["0/0"].function == "normalize"
    breaks = session.graph_breaks()
    assert [gb.compile_id for gb in breaks] == ["0/0", "1/0", "2/0"]
    assert "print" in breaks[0].reason and "item()" in breaks[1].reason
    assert "Data-dependent branching" in breaks[2].reason
    assert 'graph_breaks.py", line 8' in breaks[0].user_stack[-1]
    # the graph Dynamo kept is the one of the restart (attempt 1)
    kept = session.compiles["0/0_1"]
    assert kept.stages["dynamo_graph"].meta["attempt"] == 1 and kept.status == "ok"
    assert kept.metrics["num_graph_breaks"] == 1 and kept.function == "normalize"
    assert "dynamo_graph" not in session.compiles["0/0"].stages


# ----- several ranks ---------------------------------------------------------------------------
def test_ranks_load_with_divergences() -> None:
    session = trace.load_trace_session(TRACES / "ranks")
    assert session.rank == 0 and list(session.ranks) == ["0", "1"]
    rank1 = trace.load_trace_session(TRACES / "ranks", rank=1)
    assert rank1.rank == 1
    assert set(session.compiles) == {"0/0", "1/0", "2/0", "2/1"}
    assert all(c.rank == 1 for c in rank1.compiles.values())
    kinds = {(d.kind, d.compile_id): d for d in session.divergences}
    assert set(kinds) == {
        ("compile_ids", "0/1"),
        ("graph", "1/0"),
        ("graph", "2/1"),
        ("recompile_reason", "2/1"),
        ("cache", "2/0"),  # rank 1's extra compile shifts its cache hit/miss pattern
    }
    only_rank1 = kinds[("compile_ids", "0/1")]
    assert only_rank1.ranks == ["1"] and "size mismatch" in only_rank1.detail
    graph = kinds[("graph", "1/0")]
    assert graph.stage_key == "dynamo_graph" and graph.groups == {"graph A": ["0"], "graph B": ["1"]}
    assert "tanh" in rank1.compiles["1/0"].stages["dynamo_graph"].get_text()
    assert "tanh" not in session.compiles["1/0"].stages["dynamo_graph"].get_text()
    assert any(note.startswith("ranks diverge: 0/1") for note in session.notes)


def test_divergences_flag_different_recompile_reasons() -> None:
    sessions = trace.load_rank_sessions(TRACES / "ranks")
    (found,) = [d for d in trace.divergences(sessions) if d.kind == "recompile_reason"]
    assert found.compile_id == "2/1" and found.ranks == ["1"]
    assert "dtype mismatch" in found.detail and "size mismatch" in found.detail
    assert sorted(found.groups.values()) == [["0"], ["1"]]


def test_identical_compiles_do_not_diverge() -> None:
    found = trace.divergences(trace.load_rank_sessions(TRACES / "ranks"))
    assert "0/0" not in {d.compile_id for d in found}
    assert trace.divergences({"0": trace.load_log(log("mlp"))}) == []


def test_unknown_rank_is_an_error() -> None:
    with pytest.raises(ValueError, match="no rank 5"):
        trace.load_trace_session(TRACES / "ranks", rank=5)


def test_a_folder_without_logs_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no TORCH_TRACE logs"):
        trace.load_trace_session(tmp_path)


# ----- damaged logs (copies of a real one) -----------------------------------------------------------
def damaged(tmp_path: Path, edit) -> Path:  # noqa: ANN001 - edit: list[bytes] -> list[bytes]
    lines = log("mlp").read_bytes().split(b"\n")
    out = tmp_path / "dedicated_log_torch_trace_damaged.log"
    out.write_bytes(b"\n".join(edit(lines)))
    return out


def _index(lines: list[bytes], needle: bytes) -> int:
    return next(i for i, line in enumerate(lines) if needle in line and not line.startswith(b"\t"))


def test_malformed_lines_are_skipped_and_reported(tmp_path: Path) -> None:
    def edit(lines: list[bytes]) -> list[bytes]:
        at = _index(lines, b'"dynamo_start"')
        garbage = [b"not a log line", b'V1123 10:45:41.000000 1 x.py:1] {"broken json', b"V1123 nonsense"]
        return lines[:at] + garbage + lines[at:]

    session = trace.load_trace_session(damaged(tmp_path, edit))
    assert session.trace_stats["malformed"] == 3 and session.trace_stats["skipped"] == 3
    assert set(session.compiles) == {"0/0", "0/1"}
    assert any("3 malformed lines skipped" in note for note in session.notes)
    assert "3 bad trace records skipped" in session.status_line
    assert "3 malformed lines skipped" in summary_text(session)


def test_payload_lines_without_a_record_count_once(tmp_path: Path) -> None:
    session = trace.load_trace_session(damaged(tmp_path, lambda lines: [b"\tstray", b"\tpayload", *lines]))
    assert session.trace_stats["malformed"] == 1 and len(session.compiles) == 2


def test_md5_mismatch_keeps_the_payload_and_flags_it(tmp_path: Path) -> None:
    def edit(lines: list[bytes]) -> list[bytes]:
        at = _index(lines, b'"dynamo_output_graph"')
        lines[at + 2] = lines[at + 2].replace(b"def forward", b"def forwarX")
        code = _index(lines, b'"inductor_output_code"')
        lines[code + 3] = lines[code + 3] + b"  # edited"
        return lines

    session = trace.load_trace_session(damaged(tmp_path, edit))
    assert session.trace_stats["md5_mismatch"] == 2 and session.trace_stats["skipped"] == 0
    graph = session.compiles["0/0"].stages["dynamo_graph"]
    assert graph.meta["md5_mismatch"] is True and "def forwarX" in graph.get_text()
    code = session.compiles["0/0"].stages["kernel_source.inference"]  # kernels are not lost
    assert code.meta["md5_mismatch"] is True and code.kernels and "# edited" in code.get_text()
    assert "md5_mismatch" not in session.compiles["0/1"].stages["dynamo_graph"].meta
    assert any("2 payloads with a wrong md5 kept" in note for note in session.notes)
    assert "2 payloads with a wrong md5 kept" in summary_text(session)


def test_a_log_with_crlf_line_ends_reads_like_the_original(tmp_path: Path) -> None:
    crlf = damaged(tmp_path, lambda lines: [line + b"\r" if line else line for line in lines])
    original, converted = trace.load_trace_session(log("mlp")), trace.load_trace_session(crlf)
    assert converted.trace_stats.get("skipped", 0) == 0, converted.notes
    assert sorted(converted.compiles) == sorted(original.compiles)
    for cid, comp in original.compiles.items():
        for key, stage in comp.stages.items():
            assert converted.compiles[cid].stages[key].get_text() == stage.get_text(), (cid, key)


def test_non_utf8_bytes_are_skipped(tmp_path: Path) -> None:
    def edit(lines: list[bytes]) -> list[bytes]:
        at = _index(lines, b'"aot_inference_graph"')
        lines[at + 1] = lines[at + 1] + b"\xff\xfe"
        guards = _index(lines, b'"dynamo_cpp_guards_str"')
        lines[guards] = lines[guards].replace(b"{", b"{\xff", 1)  # in the envelope
        return lines

    session = trace.load_trace_session(damaged(tmp_path, edit))
    assert session.trace_stats["bad_utf8"] == 2 and session.trace_stats["malformed"] == 0
    first = session.compiles["0/0"]
    assert "aot_inference" not in first.stages and "guards" not in first.stages
    assert "guards" in session.compiles["0/1"].stages


def test_unknown_event_keys_are_skipped_with_their_payload(tmp_path: Path) -> None:
    def edit(lines: list[bytes]) -> list[bytes]:
        at = _index(lines, b'"dynamo_start"')
        payload = b"line one\nline two"
        envelope = json.dumps(
            {
                "future_event": {"x": 1},
                "frame_id": 0,
                "frame_compile_id": 0,
                "attempt": 0,
                "has_payload": hashlib.md5(payload, usedforsecurity=False).hexdigest(),
            }
        ).encode()
        new = [b"V1123 10:45:41.000000 1 torch/x.py:1] " + envelope, b"\tline one", b"\tline two"]
        return lines[:at] + new + lines[at:]

    session = trace.load_trace_session(damaged(tmp_path, edit))
    assert session.trace_stats["unknown"] == 1 and session.trace_stats["malformed"] == 0
    assert any("future_event" in note for note in session.notes)
    assert len(session.compiles) == 2


@pytest.mark.parametrize("where", ["payload", "envelope"])
def test_truncated_logs_keep_what_came_before(tmp_path: Path, where: str) -> None:
    data = log("mlp").read_bytes()
    mark = data.index(b'"frame_compile_id": 1, "attempt": 0, "has_payload"', data.index(b'"aot_joint_graph"'))
    end = data.index(b"\n", mark) + 200 if where == "payload" else mark  # cut inside the payload / the JSON
    path = tmp_path / "cut.log"
    path.write_bytes(data[:end])
    session = trace.load_trace_session(path)
    assert session.trace_stats["truncated"] == 1 and session.trace_stats["skipped"] == 1
    assert session.compiles["0/0"].status == "ok"
    unfinished = session.compiles["0/1"]
    assert unfinished.status == "failed" and "log ends" in unfinished.error
    assert "aot_joint" not in unfinished.stages
    assert not unfinished.stages["bytecode_before"].captured  # still gets its not-captured stages


def test_empty_log(tmp_path: Path) -> None:
    path = tmp_path / "empty.log"
    path.write_bytes(b"")
    session = trace.load_trace_session(path)
    assert session.compiles == {} and session.trace_stats["skipped"] == 0


# ----- streaming and memory ------------------------------------------------------------------------
def test_events_stream_before_the_whole_log_is_read(tmp_path: Path) -> None:
    """A big log (the real one repeated, frame ids shifted) shows its first compile right away."""
    source = log("graph_breaks").read_bytes()
    big = tmp_path / "big.log"
    lines = source.split(b"\n")

    def shifted(line: bytes, by: int) -> bytes:  # envelopes only: payloads keep their md5
        if line.startswith(b"\t"):
            return line
        return re.sub(rb'"frame_id": (\d+)', lambda m: b'"frame_id": %d' % (by + int(m[1])), line)

    with big.open("wb") as f:
        for k in range(1, 13):
            f.write(b"\n".join(shifted(line, 100 * k) for line in lines))
    stats = trace.TraceStats()
    session = trace.new_trace_session(big)
    events = trace.iter_trace_events(big, stats)
    for ev in events:
        trace.apply_event(session, ev)
        if ev.type == "compile_end":
            break
    total_lines = source.count(b"\n") * 12
    assert stats.lines < total_lines / 10  # the first compile came from the start of the file
    assert session.compiles["100/0"].status == "restarted"  # attempt 0 restarted: 100/0_1 compiled
    for ev in events:
        trace.apply_event(session, ev)
    assert len(session.compiles) == 72 and stats.skipped() == 0  # 6 (attempts included) per copy
    held = [s for c in session.compiles.values() for s in c.stages.values() if s.text is not None]
    assert held == []  # every payload stays in the file
    kernels = [k for c in session.compiles.values() for s in c.stages.values() for k in s.kernels]
    assert kernels and all(k._source is None for k in kernels)


# ----- the command line ------------------------------------------------------------------------
def test_open_dump_writes_the_dump_layout(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "tcdebug", "open", str(TRACES / "ranks"), "--rank", "1", "--dump", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "ranks diverge: 0/1 compiled on rank 1 only" in proc.stdout
    index = json.loads((out / "session.json").read_text())
    assert index["origin"] == "trace" and index["rank"] == 1
    assert {d["kind"] for d in index["divergences"]} == {"compile_ids", "graph", "recompile_reason", "cache"}
    assert (out / "compiles/0-1/dynamo_graph.py").read_text().startswith("class GraphModule")
    assert list((out / "compiles/0-1/kernels").glob("*/cpp_*.cpp"))
    from tcdebug.dump.loader import load_dump

    reloaded = load_dump(out)
    assert set(reloaded.compiles) == {"0/0", "0/1", "1/0", "2/0", "2/1"}
    assert reloaded.compiles["0/1"].stages["bytecode_before"].reason == trace.NOT_IN_TRACE
    # Every rank is written too, each a dump of its own.
    assert set(load_dump(out / "ranks" / "0").compiles) == {"0/0", "1/0", "2/0", "2/1"}
    assert set(load_dump(out / "ranks" / "1").compiles) == set(reloaded.compiles)


def test_open_reports_a_missing_rank(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tcdebug",
            "open",
            str(TRACES / "ranks"),
            "--rank",
            "7",
            "--dump",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 2 and "no rank 7" in proc.stderr
