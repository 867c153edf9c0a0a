"""TORCH_TRACE logs of export, AOTInductor, restarts, repeated runs and duplicate rank logs.

The logs under tests/data/traces/{export,aoti,restart,two_runs,dup_ranks} come from real runs
with torch 2.13 on the CPU (tests/scripts/make_traces.py; see tests/data/traces/README.md).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import SharedDumps, run_tcdebug, share_trace
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tcdebug import trace
from tcdebug.analysis.summary import summary_text
from tcdebug.dump.loader import load_dump
from tcdebug.trace.to_session import LazyKernel, TraceConverter

TRACES = Path(__file__).resolve().parent / "data" / "traces"
ROOT = Path(__file__).resolve().parent.parent


def log(name: str) -> Path:
    (path,) = (TRACES / name).glob("*.log")
    return path


def rewrite(src: Path, dst: Path, edit: Callable[[dict, str], str | None]) -> Path:
    """Copy a log, passing each payload through `edit(envelope, text)` (None drops the record);
    edited payloads get their md5 recomputed, so the copy is as valid as the original."""
    out: list[bytes] = []
    lines = src.read_bytes().split(b"\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        j = i + 1
        while j < len(lines) and lines[j].startswith(b"\t"):
            j += 1
        payload = [p[1:] for p in lines[i + 1 : j]]
        brace = line.find(b"{")
        envelope = json.loads(line[brace:]) if brace >= 0 and line else None
        if envelope is not None and "has_payload" in envelope:
            text = b"\n".join(payload).decode()
            new = edit(envelope, text)
            if new is None:
                i = j
                continue
            if new != text:
                envelope["has_payload"] = hashlib.md5(new.encode(), usedforsecurity=False).hexdigest()
                line = line[:brace] + json.dumps(envelope).encode()
                payload = new.encode().split(b"\n")
        elif envelope is not None and edit(envelope, "") is None:
            i = j
            continue
        out.append(line)
        out.extend(b"\t" + p for p in payload)
        i = j
    dst.write_bytes(b"\n".join(out))
    return dst


# ----- torch.export and AOTInductor ------------------------------------------------------------
def test_export_compiles_are_listed_under_no_compile_id_with_the_data_dependent_error() -> None:
    session = trace.load_trace_session(TRACES / "export")
    assert [c.compile_id for c in session.ordered_compiles()] == ["-/-", "-/-#2"]
    ok, failed = session.compiles["-/-"], session.compiles["-/-#2"]
    assert ok.function == "torch.export" and ok.status == "ok"
    program = ok.stages["exported_program"]
    assert "class GraphModule" in program.get_text() and "aten.relu" in program.get_text()
    assert failed.status == "failed" and "Eq((((-u0)//3)) + 5, 0)" in failed.error
    error = failed.stages["data_dependent_error"].get_text()
    assert "Could not guard on data-dependent expression Eq((((-u0)//3)) + 5, 0)" in error
    assert 'export_dde.py", line 18, in forward' in error  # the user's line, not torch's
    partial = failed.stages["artifact_make_fx_fail_partial"].get_text()
    assert "torch.ops.aten.item.default" in partial  # the graph traced up to the error
    text = summary_text(session)
    assert "compiles: 2" in text and "error: data-dependent guard" in text


def test_aoti_compile_shows_its_graphs_wrapper_and_kernels() -> None:
    session = trace.load_trace_session(TRACES / "aoti")
    (comp,) = session.compiles.values()
    assert comp.compile_id == "-/-" and comp.function == "AOTInductor" and comp.status == "ok"
    assert comp.filename.endswith("aoti_cpu.py") and comp.firstlineno == 21
    assert {"aot_inference", "inductor_post_grad_graph.inference"} <= set(comp.stages)
    wrapper = comp.stages["aoti_wrapper_code.inference"]
    assert wrapper.language == "cpp" and "AOTInductorModelContainerRun" in wrapper.get_text()
    code = comp.stages["kernel_source.inference"]
    assert code.title == "AOTInductor kernel code" and code.language == "cpp"
    names = [k.name for k in code.kernels]
    assert names and all(name.startswith("cpp_fused") for name in names)
    kernel = code.kernels[-1]
    assert isinstance(kernel, LazyKernel) and kernel._source is None
    assert kernel.source.startswith('extern "C"') and kernel.source in code.get_text()
    assert comp.metrics.get("cache") is None or isinstance(comp.metrics["cache"], dict)


def test_a_failed_export_then_aoti_in_one_log_are_separate_compiles(tmp_path: Path) -> None:
    both = tmp_path / "both.log"
    both.write_bytes(log("export").read_bytes() + log("aoti").read_bytes())
    session = trace.load_trace_session(both)
    comps = [(c.compile_id, c.function, c.status) for c in session.ordered_compiles()]
    assert comps == [
        ("-/-", "torch.export", "ok"),
        ("-/-#2", "torch.export", "failed"),
        ("-/-#3", "AOTInductor", "ok"),
    ]
    assert "aoti_wrapper_code.inference" in session.compiles["-/-#3"].stages
    assert "aoti_wrapper_code.inference" not in session.compiles["-/-#2"].stages


# ----- restarts and runs -----------------------------------------------------------------------------
def test_every_restart_attempt_is_its_own_compile() -> None:
    session = trace.load_trace_session(TRACES / "restart")
    ids = [c.compile_id for c in session.ordered_compiles()]
    assert ids == ["0/0", "0/0_1", "1/0", "1/0_1", "2/0", "3/0"]
    restarted, kept = session.compiles["0/0"], session.compiles["0/0_1"]
    assert restarted.status == "restarted" and restarted.function == "outer"
    assert kept.status == "ok" and kept.attempt == 1 and kept.frame_compile_id == 0
    assert kept.stages["guards"].meta["attempt"] == 1
    assert kept.metrics["restart_reasons"] and "print" in kept.metrics["restart_reasons"][0]
    (gb,) = restarted.graph_breaks
    assert "print" in gb.reason and 'restart.py", line 9, in inner' in gb.user_stack[-1]
    assert "RESTARTED" in summary_text(session)


def test_restart_reasons_are_graph_breaks_when_no_break_was_logged(tmp_path: Path) -> None:
    """An older torch logs only the metrics' restart_reasons: they still count as graph breaks."""
    cut = rewrite(
        log("restart"),
        tmp_path / "no_breaks.log",
        lambda env, text: (
            None if env.get("artifact", {}).get("name") == "dynamo_graph_break_reason" else text
        ),
    )
    session = trace.load_trace_session(cut)
    breaks = session.graph_breaks()
    assert [gb.compile_id for gb in breaks] == ["0/0", "1/0"]  # the attempts that restarted
    assert all(gb.reason.startswith("Failed to trace builtin operator") for gb in breaks)
    # with the logged breaks, the restart reasons add nothing (no duplicates)
    assert len(trace.load_trace_session(log("restart")).graph_breaks()) == 2


def test_a_compile_id_in_two_runs_of_one_log_keeps_both_runs() -> None:
    session = trace.load_trace_session(TRACES / "two_runs")
    ids = [c.compile_id for c in session.ordered_compiles()]
    first = ["0/0", "0/0_1", "1/0", "1/0_1", "2/0", "3/0"]
    assert ids == first + [f"{cid}#2" for cid in first]
    one, two = session.compiles["2/0"], session.compiles["2/0#2"]
    assert one.run == 1 and two.run == 2 and two.frame_id == 2 and two.frame_compile_id == 0
    assert one.status == two.status == "ok"
    # each run keeps its own payloads (different lines of the log)
    assert (
        one.stages["kernel_source.inference"].meta["line"]
        < two.stages["kernel_source.inference"].meta["line"]
    )
    assert (
        one.stages["kernel_source.inference"].get_text() == two.stages["kernel_source.inference"].get_text()
    )
    assert session.compiles["0/0#2"].status == "restarted" and session.compiles["0/0_1#2"].status == "ok"
    assert len(session.graph_breaks()) == 4


def test_an_id_started_again_by_the_same_process_is_a_new_run() -> None:
    """torch._dynamo.reset() starts Dynamo's ids over: the second 0/0 is 0/0#2, not a replacement."""
    session = trace.load_trace_session(TRACES / "reset")
    assert [c.compile_id for c in session.ordered_compiles()] == ["0/0", "0/0#2"]
    one, two = session.compiles["0/0"], session.compiles["0/0#2"]
    assert one.status == two.status == "ok" and one.function == two.function == "f"
    assert one.stages["dynamo_graph"].meta["line"] < two.stages["dynamo_graph"].meta["line"]


def test_link_records_are_counted_and_kept(tmp_path: Path) -> None:
    src = log("restart")
    data = src.read_bytes()
    link = b'V1123 16:44:39.000000 1 torch/x.py:1] {"link": {"name": "perfetto", "url": "https://e.x/t"}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}\n'  # noqa: E501
    at = data.index(b"\n", data.index(b'"dynamo_start"')) + 1
    at = data.index(b"\nV", at) + 1
    path = tmp_path / "link.log"
    path.write_bytes(data[:at] + link + data[at:])
    session = trace.load_trace_session(path)
    assert session.trace_stats["links"] == 1 and session.trace_stats["skipped"] == 0
    assert "link (0/0): perfetto: https://e.x/t" in session.notes
    hostile = tmp_path / "hostile.log"
    hostile.write_bytes(data[:at] + link.replace(b"https://e.x/t", b"\\u001b[2Jx\\nline") + data[at:])
    (note,) = [n for n in trace.load_trace_session(hostile).notes if n.startswith("link")]
    assert "\x1b" not in note and "\n" not in note


# ----- several logs of one rank, and what differs between ranks by design -----------------------------
def test_each_log_of_a_rank_is_its_own_entry() -> None:
    session = trace.load_trace_session(TRACES / "dup_ranks")
    assert list(session.ranks) == ["0", "1", "1 (2)"]
    first, second = session.ranks["1"], session.ranks["1 (2)"]
    assert first.rank == second.rank == 1 and second.rank_label == "1 (2)"
    assert first.script != second.script
    assert set(first.compiles) == {"0/0", "0/1", "1/0"}  # the full run
    assert set(second.compiles) == {"0/0", "0/1"}  # the shorter second run: nothing dropped
    assert any(note.startswith("rank 1 has 2 logs") for note in session.notes)
    assert trace.load_trace_session(TRACES / "dup_ranks", rank="1 (2)") is not None
    with pytest.raises(ValueError, match=r"ranks: 0, 1, 1 \(2\)"):
        trace.load_trace_session(TRACES / "dup_ranks", rank="2")


def test_object_addresses_in_recompile_reasons_are_no_divergence() -> None:
    sessions = trace.load_rank_sessions(TRACES / "dup_ranks")
    reasons = {label: s.compiles["0/1"].recompile_reason for label, s in sessions.items()}
    assert len(set(reasons.values())) == 3 and all("___check_obj_id" in r for r in reasons.values())
    # 1/0 is missing from the second log of rank 1 only: rank 1 did compile it
    assert trace.divergences(sessions) == []


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ('"f32[8][1]cuda:0"', '"f32[8][1]cuda:1"'),
        ("device(type='cuda', index=0)", "device(type='cuda', index=3)"),
        ("___check_obj_id(G['ACT'].__code__, 140595759999344)", "___check_obj_id(G['ACT'].__code__, 1397)"),
        ("___check_type_id(L['x'], 94458016376000)", "___check_type_id(L['x'], 94777416386000)"),
        ("<function f at 0x7f3a2c1b9d30>", "<function f at 0x7f99aa00bb10>"),
    ],
)
def test_normalise_removes_what_differs_per_process(a: str, b: str) -> None:
    assert a != b and trace.normalise(a) == trace.normalise(b)


def test_normalise_keeps_real_differences() -> None:
    assert trace.normalise("torch.ones(8)") != trace.normalise("torch.zeros(8)")
    assert trace.normalise("x[0]") != trace.normalise("x[1]")
    assert trace.normalise("cuda:0") != trace.normalise("cpu")


def _on_gpu(rank: int, extra: Callable[[str], str] = lambda t: t) -> Callable[[dict, str], str | None]:
    """As if rank `rank` ran on cuda:`rank`: the graphs name their device."""

    def edit(env: dict, text: str) -> str:
        text = text.replace(']cpu"', f']cuda:{rank}"').replace(
            "device(type='cpu')", f"device(type='cuda', index={rank})"
        )
        return extra(text)

    return edit


def test_graphs_that_differ_only_in_the_device_index_are_no_divergence(tmp_path: Path) -> None:
    folder = tmp_path / "gpu"
    folder.mkdir()
    for src in (TRACES / "dup_ranks").glob("*rank_[01]_*.log"):
        rank = 0 if "rank_0_" in src.name else 1
        rewrite(src, folder / src.name, _on_gpu(rank))
    sessions = trace.load_rank_sessions(folder)
    graphs = {label: s.compiles["0/0"].stages["dynamo_graph"] for label, s in sessions.items()}
    assert "cuda:0" in graphs["0"].get_text() and "cuda:1" in graphs["1"].get_text()
    assert graphs["0"].meta["md5"] != graphs["1"].meta["md5"]
    assert trace.divergences(sessions) == []


def test_a_real_graph_difference_still_diverges(tmp_path: Path) -> None:
    folder = tmp_path / "gpu"
    shutil.copytree(TRACES / "dup_ranks", folder)
    (src,) = (TRACES / "dup_ranks").glob("*rank_0_*.log")
    rewrite(src, folder / src.name, _on_gpu(0, lambda t: t.replace("torch.ones(", "torch.zeros(")))
    found = trace.divergences(trace.load_rank_sessions(folder))
    graph = [d for d in found if d.kind == "graph"]
    assert graph and graph[0].compile_id == "0/0" and graph[0].stage_key == "dynamo_graph"
    assert graph[0].groups == {"graph A": ["0"], "graph B": ["1", "1 (2)"]}


def test_open_dump_writes_each_rank_log(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tcdebug",
            "open",
            str(TRACES / "dup_ranks"),
            "--rank",
            "1 (2)",
            "--dump",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "ranks: 0 in ranks/0/, 1 in ranks/1/, 1 (2) in ranks/1_2/" in proc.stdout
    assert "ranks diverge" not in proc.stdout
    index = json.loads((out / "session.json").read_text())
    assert index["rank"] == 1 and index["rank_label"] == "1 (2)"
    assert set(load_dump(out).compiles) == {"0/0", "0/1"}
    assert set(load_dump(out / "ranks" / "1").compiles) == {"0/0", "0/1", "1/0"}
    assert set(load_dump(out / "ranks" / "1_2").compiles) == {"0/0", "0/1"}


# ----- docs/logs-and-ranks.md's flows, from a fresh run -----------------------------------------------
TRACE_SCRIPTS = ROOT / "tests" / "scripts" / "traces"
share_trace("export_trace", TRACE_SCRIPTS / "export_dde.py", fixture="fresh_traces", env_var="TORCH_DTRACE")
share_trace("aoti_trace", TRACE_SCRIPTS / "aoti_cpu.py", fixture="fresh_traces")
share_trace(
    "recompile_limit_trace", ROOT / "tests" / "scripts" / "recompile_limit.py", fixture="fresh_traces"
)


@pytest.fixture(scope="module")
def fresh_traces(shared_dumps: SharedDumps) -> SharedDumps:
    return shared_dumps


def _open_fresh_trace(fresh_traces: SharedDumps, name: str, out: Path) -> str:
    """`tcdebug open DIR/trace --dump out` of the shared run's log: the summary it prints."""
    run = fresh_traces.process(name)
    assert run.returncode == 0, run.stderr[-2000:]
    proc = run_tcdebug("open", str(fresh_traces.folder(name) / "trace"), "--dump", str(out), timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.slow
def test_a_fresh_export_trace_shows_the_data_dependent_error(fresh_traces: SharedDumps, tmp_path: Path) -> None:
    summary = _open_fresh_trace(fresh_traces, "export_trace", tmp_path / "out")
    assert "compiles: 2" in summary
    assert "-/-    torch.export" in summary and "-/-#2  torch.export" in summary
    assert "error: data-dependent guard: could not guard on Eq((((-u0)//3)) + 5, 0)" in summary


@pytest.mark.slow
def test_a_fresh_aoti_trace_shows_wrapper_and_kernels(fresh_traces: SharedDumps, tmp_path: Path) -> None:
    summary = _open_fresh_trace(fresh_traces, "aoti_trace", tmp_path / "out")
    assert "compiles: 1" in summary and "-/-    AOTInductor" in summary
    files = {p.name for p in (tmp_path / "out" / "compiles" / "---").rglob("*")}
    assert any("aoti_wrapper_code" in name for name in files)
    assert any(name.startswith("cpp_fused") and name.endswith(".cpp") for name in files)


@pytest.mark.slow
def test_a_compile_refused_at_the_recompile_limit_is_named_from_its_frame_and_says_so(
    fresh_traces: SharedDumps, tmp_path: Path
) -> None:
    """Dynamo refuses the frame's fourth compile before it starts: the log has no dynamo_start for
    `0/3` and its metrics name no function. Its frame id is the other compiles' (one id per code
    object), so the trace names it as the live capture does, and a note says it was inferred."""
    summary = _open_fresh_trace(fresh_traces, "recompile_limit_trace", tmp_path / "out")
    session = load_dump(tmp_path / "out")
    script = str(ROOT / "tests" / "scripts" / "recompile_limit.py")
    for cid in ("0/0", "0/1", "0/2", "0/3"):
        comp = session.compiles[cid]
        assert (comp.function, comp.filename, comp.firstlineno) == ("scale", script, 8), cid
    assert session.compiles["0/3"].status == "failed"
    inferred = [n for n in session.notes if "inferred" in n]
    assert inferred == [
        "0/3: the log has no dynamo_start for it; its function, scale, is inferred from the other "
        "compiles of frame 0 (Dynamo's id of the code object)"
    ]
    assert "note: 0/3: the log has no dynamo_start" in summary
    # A compile that logged its dynamo_start keeps that name, even where its metrics name none.
    (log_file,) = (fresh_traces.folder("recompile_limit_trace") / "trace").glob("*.log")
    lines = log_file.read_text().split("\n")
    edited = [
        ln.replace('"co_name": "scale"', '"co_name": null')
        if '"compilation_metrics"' in ln and '"compile_id": "0/1"' in ln
        else ln
        for ln in lines
    ]
    assert edited != lines
    folder = tmp_path / "edited"
    folder.mkdir()
    (folder / log_file.name).write_text("\n".join(edited))
    proc = run_tcdebug("open", str(folder), "--dump", str(tmp_path / "edited_out"), timeout=120)
    assert proc.returncode == 0, proc.stderr
    session = load_dump(tmp_path / "edited_out")
    assert session.compiles["0/1"].function == "scale"
    assert [n for n in session.notes if "inferred" in n] == inferred


# ----- fuzzing the converter with real records ----------------------------------------------------
_RECORDS = {name: list(trace.read_records(log(name))) for name in ("restart", "aoti", "export")}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(
        st.tuples(
            st.sampled_from(sorted(_RECORDS)), st.integers(0, 10_000), st.integers(0, 3), st.integers(1, 3)
        ),
        max_size=60,
    )
)
def test_any_order_of_real_records_converts_without_error(picks: list[tuple[str, int, int, int]]) -> None:
    """Records of real logs, in any order, with any attempt and pid: events fold into a session."""
    import copy

    records = []
    for name, index, attempt, pid in picks:
        pool = _RECORDS[name]
        record = copy.copy(pool[index % len(pool)])
        record.envelope = dict(record.envelope)
        if "frame_id" in record.envelope:
            record.envelope["attempt"] = attempt
        record.pid = pid
        records.append(record)
    session = trace.new_trace_session(log("restart"))
    converter = TraceConverter(trace.TraceStats())
    for ev in converter.events(iter(records)):
        trace.apply_event(session, ev)
    for cid, comp in session.compiles.items():
        assert comp.compile_id == cid and comp.frame_id >= -1
    assert trace.normalise(trace.normalise(summary_text(session))) == trace.normalise(summary_text(session))


def test_a_restart_that_is_no_graph_break_is_an_attempt_with_its_reason() -> None:
    """tensorify_restart.py: Inductor cannot take a float argument as a tensor, and Dynamo restarts
    0/1 (TensorifyScalarRestartAnalysis): 0/1 restarted, with that reason, and no graph break."""
    session = trace.load_trace_session(TRACES / "tensorify")
    assert [c.compile_id for c in session.ordered_compiles()] == ["0/0", "0/1", "0/1_1", "0/2"]
    restarted = session.compiles["0/1"]
    assert restarted.status == "restarted" and restarted.error == "restarted: TensorifyScalarRestartAnalysis"
    assert session.compiles["0/1_1"].status == "ok"
    assert session.graph_breaks() == []
    assert "graph breaks: 0" in summary_text(session)


def test_gloo_ranks_whose_compiled_collectives_differ() -> None:
    """collectives_diverge.py: rank 1's compiled `step` all-reduces twice, rank 0's once. The
    collective sequences diverge at the third item (rank 1's second all_reduce_), named with its
    compile; each rank waits for every collective it starts (no parity problem); `d` has both
    sequences to diff. Rank 1 compiled its functions in the other order: same compile ids, other graphs."""
    session = trace.load_trace_session(TRACES / "collectives")
    (d,) = [d for d in session.divergences if d.kind == "collectives"]
    assert d.ranks == ["1"] and d.compile_id == "1/0"
    assert "first difference at #3: rank 0: (nothing) | rank 1: all_reduce_ (1/0)" in d.detail
    assert d.texts["0"].count("all_reduce_") == 1 and d.texts["1"].count("all_reduce_") == 2
    assert d.texts["1"].count("wait_tensor") == 2
    assert not [d for d in session.divergences if d.kind == "collectives_parity"]
    assert {d.compile_id for d in session.divergences if d.kind == "graph"} == {"0/0", "1/0"}
    assert session.ranks["1"].extra["execution_order"] == ["0/0", "1/0"]


def test_compile_time_timeline_and_call_sites_in_the_summary() -> None:
    """Chromium events give each compile's phases on one time axis; dynamo_start's stack gives the
    call sites, as a trie ending in the compiles they led to."""
    session = trace.load_trace_session(TRACES / "collectives", rank=0)
    step = session.compiles["0/0"].times
    assert step["segments"] and step["start_us"] < step["end_us"]
    assert {seg[0] for seg in step["segments"]} >= {"C++/Triton compile", "Codegen"}
    text = summary_text(session)
    timeline = text.split("compile-time timeline:\n", 1)[1].splitlines()
    assert timeline[0].strip().startswith("0s") and timeline[1].lstrip().startswith("0/0 ")
    row_0, row_1 = timeline[1].split()[1], timeline[2].split()[1]
    assert row_0.index("K") < row_1.index("K")  # 0/0 compiled before 1/0, on one axis
    assert "K C++/Triton compile" in timeline[3]
    trie = text.split("call sites (stack trie):\n", 1)[1].splitlines()
    assert any("collectives_diverge.py:22 in step" in line and line.endswith("→ 0/0") for line in trie)
    assert any("collectives_diverge.py:31 in total" in line and line.endswith("→ 1/0") for line in trie)


def test_the_timeline_marks_pauses() -> None:
    """Time a compile spent paused at a tcdebug pause point is its own segment, `‖` on the axis."""
    from tcdebug.analysis.compile_phases import PhaseCollector, timeline_lines

    collector = PhaseCollector()
    for ph, name, ts in [("B", "entire_frame_compile", 0), ("B", "bytecode_tracing", 0),
                         ("E", "bytecode_tracing", 400_000), ("B", "compile_file", 600_000),
                         ("E", "compile_file", 1_000_000), ("E", "entire_frame_compile", 1_000_000)]:  # fmt: skip
        collector.feed({"ph": ph, "name": name, "ts": ts, "args": {"compile_id": "0/0"}})
    times = collector.times("0/0", pauses=[(400_000, 600_000)])
    assert times["paused_s"] == 0.2
    assert [seg[0] for seg in times["segments"]] == ["Dynamo tracing", "paused", "C++/Triton compile"]
    axis, row, legend = timeline_lines([("0/0", times)], width=10)
    assert row.split()[1] == "DDDD‖‖KKKK" and "‖ paused" in legend
