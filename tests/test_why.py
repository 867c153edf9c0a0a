"""The why layer: compile time per phase, why each compile exists, graph-break registry entries,
refused fusions, and the `w` / `t` screens. Real compiles come from the shared dump fixtures."""

from __future__ import annotations

import json

import pytest
from conftest import DATA, SAMPLES, SCRIPTS, DumpRun, SharedDumps, share_dump
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pilot import main_screen, wait_until

from tcdebug.analysis.compile_phases import (
    OTHER,
    PhaseCollector,
    bar_lines,
    phases_from_metrics,
    wall_from_metrics,
)
from tcdebug.analysis.why import (
    FUSION,
    TIME,
    explain,
    first_call_note,
    parse_graph_break,
    top_reasons,
    why_dict,
    why_markdown,
)
from tcdebug.dump.loader import load_dump
from tcdebug.model.events import CompileStart, Recompile
from tcdebug.model.session import Compile, EntryCheck, Rerun, Session, Stage
from tcdebug.screens import app as app_module
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.content import compile_summary
from tcdebug.screens.messages import TraceEvents
from tcdebug.screens.times_screen import TimesScreen
from tcdebug.screens.why_screen import WhyScreen
from tcdebug.screens.widgets.timeline import Ref
from tcdebug.torchtext.stage_text import (
    FUSION_LOG_IN_FILE,
    FUSION_LOG_MARKER,
    full_text,
    ir_and_fusion_log,
    split_fusion_log,
)
from tcdebug.trace import load_trace_session, new_trace_session

MEASURED = "torch dynamo_timed events"


# ----- compile time -------------------------------------------------------------------------------
def _ev(name: str, ph: str, ts: float, cid: str = "0/0", tid: int = 0) -> dict:
    return {"name": name, "ph": ph, "ts": ts, "tid": tid, "args": {"compile_id": cid}}


def test_each_moment_goes_to_the_innermost_named_phase():
    pc = PhaseCollector()
    events = [
        _ev("dynamo", "B", 0),
        _ev("bytecode_tracing", "B", 10),
        _ev("bytecode_tracing", "E", 40),
        _ev("backend_compile", "B", 50),
        _ev("GraphLowering.codegen", "B", 60),
        _ev("compile_file", "B", 70),
        _ev("compile_file", "E", 170),
        _ev("GraphLowering.codegen", "E", 200),
        _ev("backend_compile", "E", 210),
    ]
    assert [pc.feed(e) for e in events] == [None] * len(events)
    assert pc.feed(_ev("dynamo", "E", 220)) == "0/0"  # the outermost timer closed: times are ready
    times = pc.times("0/0")
    assert times["wall_s"] == pytest.approx(220e-6)
    phases = times["phases"]
    assert phases["Dynamo tracing"] == pytest.approx(30e-6)
    assert phases["C++/Triton compile"] == pytest.approx(100e-6)
    assert phases["Codegen"] == pytest.approx(40e-6)  # 140 µs of codegen, 100 of it compiling C++
    assert phases[OTHER] == pytest.approx(50e-6)  # not in a named timer: inferred
    assert sum(phases.values()) == pytest.approx(times["wall_s"])
    assert "(inferred)" in "\n".join(bar_lines(times))


def test_hashing_the_install_for_cache_keys_is_a_phase_of_its_own():
    """torch 2.14's CUDA build spends seconds in `CacheBase.get_system.triton_key` before AOTAutograd
    starts: its own phase, not "other"."""
    pc = PhaseCollector()
    for e in [
        _ev("dynamo", "B", 0),
        _ev("backend_compile", "B", 10),
        _ev("inductor_codecache_torch_key", "B", 10),
        _ev("inductor_codecache_torch_key", "E", 30),
        _ev("CacheBase.get_system.triton_key", "B", 30),
        _ev("CacheBase.get_system.triton_key", "E", 90),
        _ev("backend_compile", "E", 100),
    ]:
        pc.feed(e)
    assert pc.feed(_ev("dynamo", "E", 100)) == "0/0"
    phases = pc.times("0/0")["phases"]
    assert phases["Cache keys"] == pytest.approx(80e-6)
    assert phases[OTHER] == pytest.approx(20e-6)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "name": st.sampled_from(["dynamo", "compile_file", "code_gen", "x", ""]),
                "ph": st.sampled_from(["B", "E", "i", "X", None]),
                "ts": st.one_of(st.floats(allow_nan=True), st.integers(), st.text(max_size=3)),
                "args": st.one_of(st.none(), st.fixed_dictionaries({"compile_id": st.sampled_from(["0/0", None])})),
            }
        ),
        max_size=30,
    )
)
@example(  # an end at infinity made a phase's share NaN (a crash in `text_bar`)
    [
        {"name": "compile_file", "ph": "B", "ts": 0.0, "args": {"compile_id": "0/0"}},
        {"name": "compile_file", "ph": "E", "ts": float("inf"), "args": {"compile_id": "0/0"}},
    ]
)
@example([{"name": "dynamo", "ph": "B", "ts": 10**400, "args": {"compile_id": "0/0"}}])  # no float holds it
def test_bad_chromium_events_never_raise(events):
    pc = PhaseCollector()
    for ev in events:
        pc.feed(ev)
    for cid in pc.compiles:
        times = pc.times(cid)
        if times:
            bar_lines(times)


def test_metrics_alone_give_inferred_phases():
    times = phases_from_metrics(
        {
            "dynamo_cumulative_compile_time_us": 1_000_000,
            "aot_autograd_cumulative_compile_time_us": 800_000,
            "inductor_cumulative_compile_time_us": 600_000,
            "inductor_code_gen_cumulative_compile_time_us": 500_000,
            "triton_compile_time_us": 400_000,
        }
    )
    assert times["wall_s"] == 1.0 and "inferred" in times["source"]
    assert times["phases"]["C++/Triton compile"] == 0.4
    assert sum(times["phases"].values()) == pytest.approx(1.0)


_WALL_VALUE = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**9), max_value=10**12), st.floats(allow_nan=False), st.text(max_size=2)
)


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({}, optional={"dynamo_cumulative_compile_time_us": _WALL_VALUE, "duration_us": _WALL_VALUE}))
def test_the_wall_time_alone_is_the_wall_time_of_the_inferred_phases(metrics):
    """The summary ranks compiles by `wall_of`, which skips inferring every phase."""
    assert wall_from_metrics(metrics) == phases_from_metrics(metrics).get("wall_s", 0.0)


def test_a_torch_trace_log_gives_phase_times_per_compile():
    session = load_trace_session(next((DATA / "traces" / "mlp").iterdir()))
    comp = session.compiles["0/0"]
    assert comp.times["source"] == MEASURED
    assert comp.times["wall_s"] == pytest.approx(comp.metrics["entire_frame_compile_time_s"], rel=0.05)
    assert "C++/Triton compile" in comp.times["phases"]


# ----- the live mlp run (shared fixture) --------------------------------------------------------
@pytest.fixture(scope="module")
def mlp_session(mlp_dump: DumpRun) -> Session:
    assert mlp_dump.returncode == 0, mlp_dump.stderr[-3000:]
    return load_dump(mlp_dump.out)


@pytest.mark.slow
def test_mlp_chart_has_five_phases_summing_to_the_wall_time(mlp_session, mlp_dump):
    index = json.loads((mlp_dump.out / "session.json").read_text())
    for comp in index["compiles"]:
        times = comp["times"]
        assert times["source"] == MEASURED
        measured = {p: s for p, s in times["phases"].items() if p != OTHER}
        assert len(measured) >= 5, measured
        # the measured phases cover the compile's wall time to within 10%
        assert sum(measured.values()) == pytest.approx(times["wall_s"], rel=0.10)
    # and that wall time is torch's own figure for the forward compile
    first = index["compiles"][0]
    assert first["times"]["wall_s"] == pytest.approx(first["metrics"]["entire_frame_compile_time_s"], rel=0.10)
    assert "compile time:" in mlp_dump.stdout and "C++/Triton compile" in mlp_dump.stdout
    tail = mlp_dump.stdout[mlp_dump.stdout.index("\ntop reasons:") + 1 :].splitlines()
    assert tail[1] == "  most expensive compiles:" and "forward" in tail[2] and "mostly " in tail[2]
    hints = tail.index("hints:")  # the top reasons, then the hints end it
    assert tail[hints - 2 : hints] == ["  recompile causes:", "    1x GLOBAL_STATE changed: grad_mode"]
    assert [line for line in tail[hints + 1 :] if line.startswith("  - grad mode changed")]
    # the training compile's backward is compiled at .backward(): its time says which part came when
    [training] = [line for line in tail if line.startswith("    0/1 ")]
    assert "before its first call returned, the rest its backward, compiled at .backward())" in training


def test_recompile_causes_count_the_scripts_recompiles_once_each_not_rerun_guard_checks():
    """mlp.py's one real recompile (grad mode), then re-runs: their compiles list every older
    entry failing again, 0/0's grad mode among them, and a re-run checked the guards. 1x."""
    grad = "0/0: GLOBAL_STATE changed: grad_mode"
    session = Session(origin="dump")
    session.compiles = {
        cid: Compile(compile_id=cid, function="forward", status="ok", recompile_reason=reason)
        for cid, reason in [
            ("0/0", ""),
            ("0/1", f"{grad}\n{grad}"),
            ("0/2", f"0/1: x size mismatch\n{grad}"),
            ("0/3", f"0/2: x size mismatch\n{grad}"),
        ]
    }
    check = EntryCheck(compile_id="0/0", passed=False, reason=grad)
    session.reruns = [
        Rerun(rerun_id=1, compile_id="0/1", spec="x=8,64", checks=[check], reused="0/1", status="ok"),
        Rerun(rerun_id=2, compile_id="0/1", spec="x=16,64", produced=["0/2"], status="ok"),
        Rerun(rerun_id=3, compile_id="0/1", spec="x=32,64", produced=["0/3"], status="ok"),
    ]
    lines = top_reasons(session)
    assert lines[lines.index("  recompile causes:") + 1 :] == ["    1x GLOBAL_STATE changed: grad_mode"]


def test_a_compile_time_says_what_came_after_its_first_call():
    """The compile list shows a compile's time to its first call's return; torch's timers also
    count the backward compiled at `.backward()`: where the two differ, both are said."""
    session = load_dump(DATA / "gpu_mlp")
    inference, training = session.compiles["0/0"], session.compiles["0/1"]
    assert first_call_note(inference) == ""  # the same time both ways
    note = "0.61s before its first call returned, the rest its backward, compiled at .backward()"
    assert first_call_note(training) == note
    assert f"    0/1    forward                     1.29s  mostly C++/Triton compile ({note})" in top_reasons(session)
    assert f"  compile time: 1.29s ({note})" in compile_summary(training).splitlines()
    [time] = [p for p in explain(session, "0/1") if p.kind == TIME]
    assert time.lines[:2] == ["Wall time 1.295s (torch dynamo_timed events):", f"({note})"]
    assert f"  compile time: {inference.elapsed_s:.2f}s" in compile_summary(inference).splitlines()


@pytest.mark.slow
def test_mlp_why_lists_refused_fusions_and_the_cpu_backends_own_fusion(mlp_session, mlp_dump):
    parts = [p for p in explain(mlp_session, "0/1") if p.kind == FUSION]
    backward = next(p for p in parts if p.stage == "inductor_ir_post_fusion.backward")
    assert backward.data["refused"] == {"no shared data": [["op3", "op5"]]}
    text = "\n".join(backward.lines)
    assert "op3 (Pointwise of where, le, full_default) + op5 (Reduction of sum_2)" in text
    assert backward.data["kernels"]["cpp_fused_sum_threshold_backward_0"] == ["op2", "op3"]
    assert "the CPU backend fused them at codegen" in text
    why = (mlp_dump.out / "compiles" / "0-1" / "why.md").read_text()
    assert "no shared data" in why and "GLOBAL_STATE changed: grad_mode" in why
    index = json.loads((mlp_dump.out / "session.json").read_text())
    kinds = [p["kind"] for p in index["compiles"][1]["why"]]
    assert kinds[0] == "exists" and "fusion" in kinds and "time" in kinds


@pytest.mark.slow
def test_each_guard_keeps_the_users_own_frame(mlp_session):
    """Dynamo's guard text names torch's Linear for the input guard; its user stack reaches mlp.py."""
    found = {(g.kind, g.source): g for g in mlp_session.compiles["0/0"].guard_provenance}
    x = found[("TENSOR_MATCH", "L['x']")]
    assert x.innermost is not None and x.innermost.file.endswith("nn/modules/linear.py")
    assert x.user is not None and x.user.file.endswith("samples/mlp.py") and x.user.line == 18
    assert x.user.code == "return self.fc2(torch.relu(self.fc1(x)))"


# ----- graph breaks ---------------------------------------------------------------------------
@pytest.mark.slow
def test_each_graph_break_shows_its_registry_entry(graph_breaks_dump):
    assert graph_breaks_dump.returncode == 0, graph_breaks_dump.stderr[-3000:]
    session = load_dump(graph_breaks_dump.out)
    breaks = session.graph_breaks()
    assert len(breaks) == 3
    infos = [parse_graph_break(gb.reason) for gb in breaks]
    assert [i["gb_type"] for i in infos] == [
        "Failed to trace builtin operator",
        "Unsupported Tensor.item() call with capture_scalar_outputs=False",
        "Data-dependent branching",
    ]
    for info in infos:
        assert info["explanation"] and info["hints"] and info["registry_id"].startswith("GB")
    why = (graph_breaks_dump.out / "compiles" / "1-0" / "why.md").read_text()
    assert "Type: Unsupported Tensor.item() call" in why
    assert "Hint: Set `torch._dynamo.config.capture_scalar_outputs = True`" in why
    assert 'graph_breaks.py", line 9, in normalize' in why  # the user stack
    assert "graph break types:" in graph_breaks_dump.stdout


# ----- the recompile's failing guard and the line that installed it ---------------------------------
@pytest.fixture(scope="module")
def dynamic_rerun(shared_dumps: SharedDumps) -> Session:
    run = shared_dumps.get("dynamic_rerun_dump")
    assert run.returncode == 0, run.stderr[-3000:]
    return load_dump(run.out)


share_dump(
    "dynamic_rerun_dump",
    "why_dynamic",
    *[a for spec in ["x=16,64", "x=16,64;@backend=aot_eager", "@backend=nosuch"] for a in ("--rerun", spec)],
    str(SAMPLES / "dynamic_shapes.py"),
    fixture="dynamic_rerun",
)


@pytest.mark.slow
def test_rerun_recompile_names_the_failing_guard_and_its_user_line(dynamic_rerun):
    rerun = next(r for r in dynamic_rerun.reruns if r.function == "normalize" and r.spec == "x=16,64")
    (produced,) = rerun.produced
    exists = explain(dynamic_rerun, produced)[0]
    assert exists.kind == "exists" and exists.stage == "guards" and exists.compile_id == "2/0"
    assert exists.data["reason"] == "tensor 'x' size mismatch at index 0. expected 8, actual 16"
    assert (exists.data["then"], exists.data["now"]) == ("8", "16")
    assert exists.data["guard"].startswith("TENSOR_MATCH: check_tensor(L['x']")
    assert exists.data["user_line"].startswith("return (x - x.mean(dim=-1, keepdim=True))")
    assert exists.data["where"].endswith("samples/dynamic_shapes.py:19 in normalize")
    assert "re-run #" in exists.data["rerun_check"]
    frame = exists.data["user_frame"]  # from Dynamo's own user stack for that guard
    assert frame["file"].endswith("dynamic_shapes.py") and frame["line"] == 19 and frame["name"] == "normalize"
    assert "Installed by: return (x - x.mean" in why_markdown(dynamic_rerun, produced)


@pytest.mark.slow
def test_rerun_under_another_backend_recompiles_and_compares_with_the_original(dynamic_rerun):
    rerun = next(r for r in dynamic_rerun.reruns if r.function == "normalize" and "@backend" in r.spec)
    assert rerun.spec == "x=16,64;@backend=aot_eager" and rerun.status == "ok", rerun.error
    (produced,) = rerun.produced
    comp = dynamic_rerun.compiles[produced]
    assert "BACKEND_MATCH" in comp.recompile_reason
    assert comp.stages["aot_inference"].captured
    assert not comp.stages["kernel_source.inference"].captured
    assert "run Inductor" in comp.stages["kernel_source.inference"].reason
    whatif = next(p for p in explain(dynamic_rerun, produced) if p.title == "What-if: other compile options")
    original = whatif.data["original"]
    assert original in dynamic_rerun.compiles and original != produced
    assert whatif.data["stages"]["dynamo_graph"] in ("same", "differs")
    assert whatif.data["stages"]["kernel_source.inference"].startswith("not captured here")
    assert "Not a guard of the tree" in why_markdown(dynamic_rerun, produced)
    # a backend torch does not know: one line, nothing compiled
    bad = [r for r in dynamic_rerun.reruns if r.spec == "@backend=nosuch"]
    assert bad and all(r.status == "failed" and not r.produced for r in bad)
    assert bad[0].error.startswith("@backend=nosuch: not a backend this torch knows (")


# ----- recompiles up to Dynamo's recompile limit --------------------------------------------------
share_dump("limit_dump", "why_limit", str(SCRIPTS / "recompile_limit.py"), fixture="recompile_limit")


@pytest.fixture(scope="module")
def recompile_limit(shared_dumps: SharedDumps) -> DumpRun:
    run = shared_dumps.get("limit_dump")
    assert run.returncode == 0, run.stderr[-3000:]
    return run


@pytest.mark.slow
def test_each_failed_entry_of_a_recompile_is_one_reason_with_its_guard_and_user_stack(recompile_limit):
    """torch puts the user stack after each entry's reason (`User stack trace:` and its lines):
    they belong to that entry, not reasons of their own."""
    session = load_dump(recompile_limit.out)
    parts = [p for p in explain(session, "0/2") if p.kind == "exists"]
    assert [p.data["entry"] for p in parts] == ["0/1", "0/0"]
    for part, n in zip(parts, (1, 0), strict=True):
        assert part.data["guard"] == f"EQUALS_MATCH: L['n'] == {n}"
        assert part.data["reason"].startswith(f"n == {n} ")
        assert part.data["user_stack"][0].endswith('recompile_limit.py", line 10, in scale')
        assert part.data["user_stack"][1] == "return x * n + 1"
    causes = recompile_limit.stdout.split("recompile causes:")[1]
    causes = causes.split("\nhints:")[0]  # readable: the value a scalar had, not the guard's text
    assert "3x n (a Python scalar) was 0" in causes and "2x n (a Python scalar) was 1" in causes
    assert "1x n (a Python scalar) was 2" in causes and "  #" not in causes
    assert "User stack trace" not in causes and "File " not in causes


@pytest.mark.slow
def test_a_compile_past_the_recompile_limit_says_why_it_failed_in_torchs_words(recompile_limit):
    session = load_dump(recompile_limit.out)
    failed = session.compiles["0/3"]
    assert failed.status == "failed"
    # torch logs no `dynamo_start` and no function for it: named from the code `_compile` had,
    # it is the main process's and comes after the compiles it follows
    script = str(SCRIPTS / "recompile_limit.py")
    assert (failed.function, failed.filename, failed.pid) == ("scale", script, session.compiles["0/0"].pid)
    assert [c.compile_id for c in session.ordered_compiles()] == ["0/0", "0/1", "0/2", "0/3"]
    (part,) = [p for p in explain(session, "0/3") if p.kind == "failed"]
    assert part.lines[0] == "Unsupported: Dynamo recompile limit exceeded"
    assert any("recompile_limit cache size limit (currently set to 3)" in ln for ln in part.lines)
    assert any(ln.strip().startswith("Hint:") for ln in part.lines)
    assert "## Why it failed" in (recompile_limit.out / "compiles" / "0-3" / "why.md").read_text()


_REASON_LINES = st.lists(
    st.one_of(
        st.builds("{}/{}: {}".format, st.integers(0, 9), st.integers(0, 9), st.text(max_size=20)),
        st.just("User stack trace:"),
        st.builds('  File "{}", line {}, in f'.format, st.text(max_size=10), st.integers(1, 99)),
        st.builds("    {}".format, st.text(max_size=20)),
        st.text(max_size=30),
    ),
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(_REASON_LINES)
def test_split_recompile_reasons_keeps_every_line_once(lines):
    """Every line of torch's text is an entry's reason or a line of an entry's stack, in order,
    except the `User stack trace:` lines that open a stack."""
    from tcdebug.torchtext.dynamo_text import split_recompile_reasons

    text = "\n".join(lines)
    opener = "User stack trace:"
    kept = [
        line
        for r in split_recompile_reasons(text)
        for line in (f"{r.entry}: {r.text}" if r.entry else r.text, *r.stack)
    ]
    given_lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    assert [ln for ln in kept if ln != opener] == [ln for ln in given_lines if ln != opener]


# ----- the screens --------------------------------------------------------------------------------
@pytest.mark.slow
async def test_w_explains_a_compile_and_jumps_to_the_stage_a_part_is_about(mlp_session):
    app = TcdebugApp(mlp_session, read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.jump_to(Ref("0/1", "source"))
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WhyScreen), 10, "the why screen")
        screen = app.screen
        assert isinstance(screen, WhyScreen)
        titles = [p.title for p in screen.parts]
        assert titles[0] == "Why this compile exists" and "Fusion (backward)" in titles
        # enter on the first part shows the guards of the entry that failed
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is app.main_screen, 10, "back on the main screen")
        assert main_screen(app).selected == Ref("0/0", "guards")
        # the fusion part jumps to the IR after fusion
        app.jump_to(Ref("0/1", "source"))
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WhyScreen), 10, "the why screen")
        index = [p.title for p in app.screen.parts].index("Fusion (backward)")  # type: ignore[attr-defined]
        await pilot.press(*["down"] * index, "enter")
        await wait_until(pilot, lambda: app.screen is app.main_screen, 10, "back on the main screen")
        assert main_screen(app).selected == Ref("0/1", "inductor_ir_post_fusion.backward")


async def test_w_keeps_the_sessions_hints_until_an_event_changes_the_session():
    """`w` works the session's hints out once (a pass over every compile) and again only once an
    event has changed the session: a recompile that arrives later has its own hint."""
    app = TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.jump_to(Ref("0/1", "source"))
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WhyScreen), 10, "the why screen")
        assert "Hint: grad mode changed between calls" in [p.title for p in app.screen.parts]  # type: ignore[attr-defined]
        kept = app.hints_by_compile()
        assert app.hints_by_compile() is kept and "0/2" not in kept
        await pilot.press("escape")
        reason = "0/1: tensor 'x' dtype mismatch. expected Float, actual Double"
        events = [
            CompileStart(compile_id="0/2", function="forward"),
            Recompile(compile_id="0/2", reason=reason),
        ]
        app.post_message(TraceEvents(events))
        await wait_until(pilot, lambda: "0/2" in app.session.compiles, 10, "the new compile")
        app.jump_to(Ref("0/2"))
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WhyScreen), 10, "the why screen")
        titles = [p.title for p in app.screen.parts]  # type: ignore[attr-defined]
        assert "Hint: an input's dtype changed" in titles, titles
        assert app.hints_by_compile() is not kept


@pytest.mark.parametrize("how", ["dump", "streamed log"])
async def test_a_big_read_only_session_has_its_hints_worked_out_before_the_first_w(how, monkeypatch):
    """Once a read-only session of `WARM_HINTS_FROM` compiles or more is complete, a thread works
    out its hints, and the first `w` uses them; a smaller session's are worked out at `w`."""
    if how == "dump":
        app = TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)
    else:
        log = next((DATA / "traces" / "mlp").glob("*.log"))
        app = TcdebugApp(new_trace_session(log), read_only=True, stream_trace=str(log))
    monkeypatch.setattr(app_module, "WARM_HINTS_FROM", 3)  # the session's 2 compiles: too few
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: main_screen(app).selected is not None, 30, "the first stage")
        await wait_until(pilot, lambda: how == "dump" or bool(app.session.trace_stats), 30, "the whole log")
        await pilot.pause(0.2)
        assert app._hints is None
    monkeypatch.setattr(app_module, "WARM_HINTS_FROM", 2)
    app = TcdebugApp(app.session, read_only=True, stream_trace=app.stream_trace)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app._hints is not None, 30, "the hints worked out in a thread")
        kept = app._hints[1]  # type: ignore[index]
        assert [h.kind.id for h in kept["0/1"]] == ["grad_mode"]
        app.jump_to(Ref("0/1", "source"))
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, WhyScreen), 10, "the why screen")
        assert "Hint: grad mode changed between calls" in [p.title for p in app.screen.parts]  # type: ignore[attr-defined]
        assert app.hints_by_compile() is kept


@pytest.mark.slow
async def test_t_shows_the_compile_time_chart(mlp_session):
    app = TcdebugApp(mlp_session, read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("T")
        await wait_until(pilot, lambda: isinstance(app.screen, TimesScreen), 10, "the times screen")
        total = str(app.screen.query_one("#times-total").render())
        assert "C++/Triton compile" in total and "Codegen" in total and "█" in total
        assert "other (inferred)" in total or OTHER not in mlp_session.compiles["0/0"].times["phases"]
        per_compile = str(app.screen.query_one("#times-compiles").render())
        assert "wall" in per_compile and "measured phases" in per_compile
        await pilot.press("T")
        await wait_until(pilot, lambda: app.screen is app.main_screen, 10, "back on the main screen")
        # the timeline's compile row carries a small bar of the same phases
        row = main_screen(app).timeline.labels()[0]
        assert "█" in str(row) and "s" in str(row)


def test_an_autotune_table_lists_every_choice_with_its_tiles():
    from tcdebug.analysis.why import choice_table_lines
    from tcdebug.capture.autotune import table_of

    class Choice:
        def __init__(self, name: str, description: str) -> None:
            self.name, self.description = name, description

    triton = Choice("triton_mm_3", "ACC_TYPE='tl.float32', BLOCK_K=32, BLOCK_M=64, BLOCK_N=32, num_stages=2, num_warps=4")
    aten = Choice("mm", "")
    failed = Choice("triton_mm_9", "BLOCK_K=128, BLOCK_M=128, BLOCK_N=128, num_stages=5, num_warps=8")
    table = table_of("mm", [], {aten: 0.02, triton: 0.01, failed: float("inf")})
    assert table.winner == "triton_mm_3"
    assert [c.name for c in table.choices] == ["triton_mm_3", "mm", "triton_mm_9"]
    assert [c.share for c in table.choices] == [1.0, 0.5, None]
    assert table.choices[0].params["BLOCK_M"] == 64 and table.choices[0].params["ACC_TYPE"] == "tl.float32"
    lines = choice_table_lines(table)
    assert lines[0] == "mm(): 3 choices"
    assert lines[1].startswith(" *triton_mm_3") and "BLOCK_M=64 BLOCK_N=32 BLOCK_K=32 num_warps=4 num_stages=2" in lines[1]
    assert "50.0%" in lines[2] and "failed" in lines[3] and lines[-1] == "  winner: triton_mm_3"


def test_a_new_cuda_graph_recording_names_the_size_that_changed():
    """Recordings as `tcdebug.capture.cudagraph` records them (one per symbolic-size value)."""
    from tcdebug.analysis.why import cudagraph_parts
    from tcdebug.model.session import Compile, Stage

    def record(seq: int) -> dict:
        return {
            "inputs": [
                {"index": 0, "name": "arg0_1", "desc": f"int {seq}", "static": False},
                {"index": 1, "name": "arg1_1", "desc": f"float32[2, {seq}, 64]", "static": False},
                {"index": 2, "name": "arg2_1", "desc": "float32[64]", "static": True},
            ]
        }

    comp = Compile("0/0")
    graph = 'def forward(self, s77: "Sym(s77)", L_q_: "f32[2, s77, 64][64*s77, 64, 1]cuda:0"):\n'
    comp.stages["dynamo_graph"] = Stage("dynamo_graph", text=graph)
    post_grad = 'def forward(self, arg0_1: "Sym(s77)", arg1_1: "f32[2, s77, 64][64*s77, 64, 1]cuda:0"):\n'
    comp.stages["inductor_post_grad_graph.inference"] = Stage("inductor_post_grad_graph", "inference", text=post_grad)
    meta = {"recordings": 3, "records": [record(16), record(32), record(48)]}
    comp.stages["cudagraph.inference"] = Stage("cudagraph", "inference", meta=meta)
    (part,) = cudagraph_parts(comp)
    lines = [line.strip() for line in part.lines if line.strip().startswith("recording")]
    assert lines[0] == (
        "recording 1: first recording; inputs arg0_1 (s77 = q.size()[1]) int 16, arg1_1 float32[2, 16, 64]"
    )
    assert lines[1] == (
        "recording 2: a new size: arg0_1 (s77 = q.size()[1]): int 16 -> int 32; "
        "arg1_1: float32[2, 16, 64] -> float32[2, 32, 64]"
    )
    assert "int 32 -> int 48" in lines[2]


def test_autotune_and_times_events_survive_a_dump(tmp_path):
    from tcdebug.dump.writer import write_dump
    from tcdebug.model.payloads import AutotuneChoice, AutotuneTable
    from tcdebug.model.schema import to_json

    session = Session()
    table = AutotuneTable("mm", "64x64, 64x64", "mm", [AutotuneChoice("mm", 0.01, 1.0, {})], "kernel_source.inference")
    times = {"wall_s": 1.0, "measured_s": 0.9, "phases": {"Codegen": 0.9, OTHER: 0.1}, "source": MEASURED}
    for ev in (
        {"type": "compile_start", "compile_id": "0/0", "function": "f"},
        {"type": "autotune", "compile_id": "0/0", "table": to_json(table)},
        {"type": "compile_end", "compile_id": "0/0", "status": "ok"},
        {"type": "compile_times", "compile_id": "0/0", "times": times},
    ):
        session.apply(ev)
    write_dump(session, tmp_path / "out")
    loaded = load_dump(tmp_path / "out")
    assert loaded.compiles["0/0"].autotune_tables == [table] and loaded.compiles["0/0"].times == times
    text = (tmp_path / "out" / "compiles" / "0-0" / "why.md").read_text()
    assert "## Autotune: mm" in text and "winner: mm" in text and "Codegen" in text


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("op0123_: ()[]'=,#\n+-|LGxbufcannot fusewith") + ["\t", "\x1b"]), max_size=400))
def test_why_parsers_take_any_text(text):
    from tcdebug.analysis.why import (
        find_failing_guard,
        kernel_nodes,
        node_descriptions,
        parse_guards,
        refused_pairs,
    )

    guards = parse_guards(text)
    find_failing_guard(guards, text)
    parse_graph_break(text)
    refused_pairs(text)
    node_descriptions(text)
    kernel_nodes(text, text, ["op0", "buf0"])


_ROUND_LINES = st.one_of(
    st.builds("completed fusion round ({}/10): fused {} nodes into {} nodes".format, *[st.integers(0, 12)] * 3),
    st.builds("fused {} nodes into {} nodes".format, st.integers(0, 99), st.integers(0, 99)),
    st.text(alphabet=st.sampled_from(list("fused nodes into()/:0123\t")), max_size=40),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_ROUND_LINES, max_size=12), st.sampled_from(["\n", "\r\n", " ", ""]))
def test_scheduler_runs_reads_every_round_a_whole_log_search_finds(lines, sep):
    """The runs read line by line are the runs a search of the whole log finds."""
    from tcdebug.analysis.why import _FUSION_ROUND, scheduler_runs

    log = sep.join(lines)
    runs: list[tuple[int, int]] = []
    for m in _FUSION_ROUND().finditer(log):
        if m.group(1) == "1" or not runs:
            runs.append((int(m.group(2)), int(m.group(3))))
        else:
            runs[-1] = (runs[-1][0], int(m.group(3)))
    assert list(scheduler_runs(log)) == runs


@pytest.mark.slow
def test_a_dump_keeps_the_fusion_log_in_the_stage_file_and_explains_it_the_same(mlp_dump):
    """session.json does not repeat the fusion log its stage file holds; loaded back, the fusion
    why is the one the live run wrote."""
    raw = (mlp_dump.out / "session.json").read_text()
    assert FUSION_LOG_MARKER not in raw and "cannot fuse" not in raw.split('"why"')[0]
    index = json.loads(raw)
    post = [s for c in index["compiles"] for s in c["stages"] if s["id"] == "inductor_ir_post_fusion"]
    assert post and all("fusion_log" not in s["meta"] and s["meta"][FUSION_LOG_IN_FILE] for s in post)
    loaded = load_dump(mlp_dump.out)
    for entry in index["compiles"]:
        cid = entry["compile_id"]
        assert why_dict(loaded, cid, explain(loaded, cid)) == entry["why"], cid
    stage = loaded.compiles["0/1"].stages["inductor_ir_post_fusion.backward"]
    ir, log = ir_and_fusion_log(stage)
    assert "cannot fuse" in log and FUSION_LOG_MARKER not in ir
    assert ir.startswith("AFTER FUSION")


@given(st.text(), st.text())
@example("op0: x\n\n", "")
def test_the_fusion_log_splits_off_the_text_it_was_appended_to(ir, log):
    if FUSION_LOG_MARKER in ir or FUSION_LOG_MARKER in log:
        return
    stage = Stage("inductor_ir_post_fusion", text=ir, meta={"fusion_log": log})
    text = full_text(stage)
    if not log:
        assert split_fusion_log(text) == (ir, "")
        return
    assert split_fusion_log(text) == (ir.rstrip() + "\n", log)
    assert ir_and_fusion_log(Stage("inductor_ir_post_fusion", text=text)) == (ir.rstrip() + "\n", log)


async def test_t_on_a_big_session_charts_one_page():
    """`T` on 5,000 compiles builds one page of charts in one widget, whatever the session's size;
    `]` turns the page, and `q` quits while the run is still being added up."""
    from tcdebug.screens.times_screen import ADD_UP_IN_THREAD, PAGE

    session = Session(origin="trace")
    for n in range(5_000):
        comp = Compile(f"{n % 500}/{n // 500}", function=f"fn{n % 7}", status="ok")
        comp.metrics = {"dynamo_cumulative_compile_time_us": 1000 + n, "inductor_cumulative_compile_time_us": 400}
        session.compiles[comp.compile_id] = comp
    assert len(session.compiles) > ADD_UP_IN_THREAD  # added up in a thread
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("T")
        await wait_until(pilot, lambda: isinstance(app.screen, TimesScreen) and app.screen.ready, 60, "the run added up")
        await pilot.pause()
        screen = app.screen
        widgets = len(list(screen.walk_children()))
        charts = str(screen.query_one("#times-compiles").render())
        assert charts.count("wall ") == PAGE and "0/0 fn0" in charts and "1/0 " in charts
        assert "whole run · 5000 compiles" in str(screen.query_one("#times-run").render())
        assert f"compiles 1-{PAGE} of 5000" in str(screen.query_one("#times-page").render())
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert f"compiles {PAGE + 1}-{2 * PAGE} of 5000" in str(screen.query_one("#times-page").render())
        assert len(list(screen.walk_children())) == widgets  # a page is one widget, not one per compile
        await pilot.press("escape", "T", "q")  # quit while the new screen adds up
        await wait_until(pilot, lambda: app.return_code is not None, 10, "the app to quit")


def test_a_live_runs_call_sites_are_a_stack_trie_of_the_users_lines(graph_breaks_dump: DumpRun) -> None:
    """Live, each compile's call sites come from Python's own stack: the user's lines from the
    script's top level to the compiled function, none of tcdebug's frames or torch's; the `--dump`
    summary shows them as a trie ending in the compiles they led to, and session.json keeps them."""
    from tcdebug.process.our_frames import is_ours

    session = load_dump(graph_breaks_dump.out)
    first = session.compiles["0/0"]
    sample = str(SAMPLES / "graph_breaks.py")
    assert [(f.file, f.name) for f in first.stack] == [
        (sample, "<module>"),
        (sample, "main"),
        (sample, "normalize"),
    ], first.stack
    assert first.stack[1].code == "out = compiled(torch.randn(4, 16))"
    for comp in session.compiles.values():
        assert comp.stack and not any(is_ours(f.file) or "/torch/" in f.file for f in comp.stack), comp.stack
    trie = graph_breaks_dump.stdout.split("call sites (stack trie):\n", 1)[1].splitlines()
    assert trie[0].strip() == "graph_breaks.py:24 in <module>  main()", trie
    assert "graph_breaks.py:19 in main  out = compiled(torch.randn(4, 16))" in trie[1]
    assert trie[2].strip().startswith("graph_breaks.py:6 in normalize  → 0/0"), trie
