"""Event breakpoints (`--break EVENT[:FILTER]`): the spec, the event on the wire and in the session,
and live pauses through the real pilot at the compiler event, with the user's line."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import SCRIPTS
from pilot import main_screen, status_text, wait_until

from tcdebug.model import event_breaks
from tcdebug.model import session as model
from tcdebug.model.event_breaks import EventBreak, EventFacts, EventSpecError
from tcdebug.model.events import EventPause, event_from_wire
from tcdebug.model.payloads import Frame
from tcdebug.screens.app import build_live_app

EVENTS_SCRIPT = SCRIPTS / "event_breaks.py"
FUSION_SCRIPT = SCRIPTS / "fusion_refused.py"


def marked_lines(path) -> dict[str, int]:
    """`# EVENT: <kind>` markers of a test script: kind -> its line."""
    out = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        _, found, kind = line.partition("# EVENT: ")
        if found:
            out[kind.strip()] = number
    return out


# ----- the spec -------------------------------------------------------------------------------
def test_parse_specs_and_their_errors():
    assert event_breaks.parse("graph_break:GB0170") == EventBreak("graph_break", "GB0170")
    assert event_breaks.parse("recompile") == EventBreak("recompile")
    assert event_breaks.parse("guard:L['x']").filter == "L['x']"
    assert event_breaks.parse("recompile_limit:4").spec == "recompile_limit:4"
    for bad, words in (
        ("nope", "unknown breakpoint"),
        ("graph_break:", "nothing after ':'"),
        ("recompile_limit:many", "is a count"),
    ):
        with pytest.raises(EventSpecError, match=words):
            event_breaks.parse(bad)
    assert event_breaks.check("kernel_source") is None  # a stage id stays a stage breakpoint
    assert event_breaks.check("cudagraph_skip") is None
    assert "unknown breakpoint" in (event_breaks.check("kernel") or "")
    assert event_breaks.event_breaks(["kernel_source", "graph_break", "bad:"]) == [EventBreak("graph_break")]


def test_filters_match_registry_ids_names_text_and_counts():
    gb = EventFacts("graph_break", detail="Failed to trace builtin operator print", registry_id="GB0059")
    assert event_breaks.matches(EventBreak("graph_break"), gb)
    assert event_breaks.matches(EventBreak("graph_break", "gb0059"), gb)
    assert not event_breaks.matches(EventBreak("graph_break", "GB0170"), gb)
    assert event_breaks.matches(EventBreak("graph_break", "builtin operator"), gb)
    assert not event_breaks.matches(EventBreak("recompile"), gb)
    guard = EventFacts("guard", detail="TENSOR_MATCH guard on L['x']", names=("L['x']", "TENSOR_MATCH"))
    assert event_breaks.matches(EventBreak("guard", "L['x']"), guard)
    assert not event_breaks.matches(EventBreak("guard", "L['y']"), guard)
    limit = EventFacts("recompile_limit", count=3, limit=8)
    assert event_breaks.matches(EventBreak("recompile_limit", "3"), limit)
    assert not event_breaks.matches(EventBreak("recompile_limit", "4"), limit)
    assert not event_breaks.matches(EventBreak("recompile_limit"), limit)  # default: at torch's limit
    assert event_breaks.matches(
        EventBreak("recompile_limit"), EventFacts("recompile_limit", count=8, limit=8)
    )


def test_cli_refuses_a_bad_break_in_one_line():
    result = subprocess.run(
        [sys.executable, "-m", "tcdebug", "--break", "graph_break:", str(EVENTS_SCRIPT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert result.stderr.strip().count("\n") == 0
    assert "nothing after ':'" in result.stderr


# ----- the event and the session --------------------------------------------------------------
def test_event_pause_round_trips_and_pauses_the_session():
    ev = EventPause(
        compile_id="0/0",
        kind="graph_break",
        breakpoint="graph_break",
        detail="Failed to trace builtin operator",
        registry_id="GB0059",
        registry_title="Failed to trace builtin operator",
        user=Frame(file="/x/script.py", line=11, name="f", code='print("hi")'),
        caller=Frame(file="/x/script.py", line=16, name="<module>", code="fc(x)"),
    )
    back = event_from_wire(ev.to_wire())
    assert back == ev
    session = model.Session()
    session.apply({"type": "stage", "compile_id": "0/0", "stage": "bytecode_before", "text": "x"})
    change = session.apply(ev)
    assert change.paused and change.stage_key == "bytecode_before"
    assert session.state == model.PAUSED
    assert session.status_line == 'paused at graph_break GB0059 in 0/0 at script.py:11 print("hi")'
    session.apply({"type": "resumed", "mode": "continue"})
    assert session.state == model.RUNNING and not session.paused_events


# ----- live, through the pilot ------------------------------------------------------------------
def _event(app) -> EventPause | None:
    if app.session.state != model.PAUSED:
        return None
    return app.session.paused_events.get(app.session.paused_pid or 0)


def _done(app) -> bool:
    return app.session.state not in (model.STARTING, model.RUNNING, model.PAUSED)


async def _collect_pauses(app, pilot, limit: int = 60) -> list[EventPause]:
    """Press c at every event pause until the script ends; the pauses in order."""
    seen: list[EventPause] = []
    while len(seen) < limit:
        await wait_until(pilot, lambda: _event(app) is not None or _done(app), what="a pause or the end")
        event = _event(app)
        if event is None:
            break
        seen.append(event)
        assert event.kind in status_text(app)
        await pilot.press("c")
        await wait_until(pilot, lambda e=event: _event(app) is not e, what="the script going on")
    return seen


async def test_event_breakpoints_pause_live_at_the_users_line():
    """Each event breakpoint stops the script when torch does the thing, at the line the event is about;
    `c` goes on. A breakpoint this torch can't give (CUDA graphs on a CPU build) says so."""
    lines = marked_lines(EVENTS_SCRIPT)
    breaks = [
        "cache_miss",
        "guard:L['x']",
        "specialize:L['x']",
        "graph_break:GB0059",
        "graph_break:GB9999",  # a registry id no break has: never stops
        "recompile:f",
        "recompile_limit:1",
        "cudagraph_skip",
        "cudagraph_rerecord",
    ]
    app = build_live_app([str(EVENTS_SCRIPT)], mode="continue", breakpoints=breaks)
    async with app.run_test(size=(100, 30)) as pilot:
        pauses = await _collect_pauses(app, pilot)
        await wait_until(pilot, lambda: _done(app), what="the end of the script")
        assert app.session.state == model.FINISHED
        unavailable = dict(app.session.unavailable_events)
    first: dict[str, EventPause] = {}
    for event in pauses:
        first.setdefault(event.kind, event)
        assert event.breakpoint in breaks
    assert set(first) == {"cache_miss", "guard", "specialize", "graph_break", "recompile", "recompile_limit"}

    def line(kind: str) -> int:
        user = first[kind].user
        assert user is not None and user.file.endswith("event_breaks.py"), (kind, user)
        return user.line

    # The first compile's cache miss is the user's call; the guard on x and the specialization of its
    # size are the branch on its shape; the break is the print, registry entry named.
    assert line("cache_miss") == lines["cache_miss"]
    assert line("guard") == lines["specialize"]
    assert line("specialize") == lines["specialize"]
    assert "L['x']" in first["specialize"].detail
    assert line("graph_break") == lines["graph_break"]
    assert first["graph_break"].registry_id == "GB0059" and first["graph_break"].registry_title
    assert line("recompile") == lines["recompile"]
    assert "dtype mismatch" in first["recompile"].detail
    assert line("recompile_limit") == lines["recompile"]
    assert first["recompile"].compile_id == "0/1"
    # The break's pause also names the line that called the compiled function.
    assert first["graph_break"].caller is not None and first["graph_break"].caller.line == lines["cache_miss"]
    # CUDA graphs: accepted; on a torch without CUDA the session says why they can't be had.
    import torch

    if not torch.backends.cuda.is_built():
        assert "without CUDA" in unavailable["cudagraph_skip"]
        assert "without CUDA" in unavailable["cudagraph_rerecord"]


async def test_fusion_refused_pauses_in_inductors_scheduler():
    lines = marked_lines(FUSION_SCRIPT)
    app = build_live_app([str(FUSION_SCRIPT)], mode="continue", breakpoints=["fusion_refused:op3"])
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: _event(app) is not None or _done(app), what="the fusion pause")
        event = _event(app)
        assert event is not None, app.session.status_line
        assert event.kind == "fusion_refused" and "cannot fuse" in event.detail and "op3" in event.detail
        # the line of the first node Inductor refused to fuse (`op0`, the sum), then the call
        assert event.user is not None and event.user.line == lines["fusion_refused"], event.user
        assert event.caller is not None and event.caller.line == lines["call"]
        assert "fusion_refused" in status_text(app)
        await pilot.press("g")
        await wait_until(pilot, lambda: _done(app), what="the end")
        assert app.session.state == model.FINISHED


async def test_autotune_pauses_when_inductor_chooses_a_kernel():
    """max-autotune on the CPU (the C++ GEMM template against aten's mm): the pause comes when
    Inductor has benchmarked the choices, at the line that called the compiled function."""
    script = SCRIPTS / "autotune_choice.py"
    lines = marked_lines(script)
    app = build_live_app([str(script)], mode="continue", breakpoints=["autotune"])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: _event(app) is not None or _done(app), what="the autotune pause")
        event = _event(app)
        assert event is not None, app.session.status_line
        assert event.kind == "autotune" and event.detail.startswith("autotuning ") and " chose " in event.detail
        assert event.user is not None and event.user.line == lines["autotune"]
        assert "autotune" in status_text(app)
        await pilot.press("c")
        await wait_until(pilot, lambda: _done(app), what="the end")
        assert app.session.state == model.FINISHED
        tables = [t for comp in app.session.compiles.values() for t in comp.autotune_tables]
    assert tables and tables[0].winner and len(tables[0].choices) >= 2


async def test_stances_are_events_with_the_failing_guard_and_a_breakpoint():
    """Each change of stance, the call eager_on_recompile ran eagerly and the call fail_on_recompile
    refused are events naming the failing guard and the user's line; the header shows the stance;
    `stance:failed` pauses at the refusal."""
    script = SCRIPTS / "stances.py"
    lines = marked_lines(script)
    app = build_live_app([str(script)], mode="continue", breakpoints=["stance:failed"])
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_until(pilot, lambda: _event(app) is not None or _done(app), what="the stance pause")
        event = _event(app)
        assert event is not None and event.kind == "stance"
        assert event.user is not None and event.user.line == lines["failed"]
        assert "dtype mismatch" in event.detail
        info = main_screen(app).query_one("StatusBar").info_plain
        assert "stance fail_on_recompile" in info
        await pilot.press("c")
        await wait_until(pilot, lambda: _done(app), what="the end")
        stances = list(app.session.stance_events)
    by_action = {ev.action: ev for ev in stances}
    assert [ev.stance for ev in stances if ev.action == "set"] == ["eager_on_recompile", "fail_on_recompile"]
    assert by_action["set"].user is not None
    assert stances[0].user is not None and stances[0].user.line == lines["set"]
    eager = by_action["ran_eager"]
    assert eager.function == "f" and "dtype mismatch" in eager.guard and eager.compile_id == "0/0"
    assert eager.user is not None and eager.user.line == lines["ran_eager"]
    failed = by_action["failed"]
    assert "dtype mismatch" in failed.guard
    assert failed.user is not None and failed.user.line == lines["failed"]
    assert "dtype mismatch" in model.stance_line(failed)
    from tcdebug.analysis.summary import summary_text

    summary = summary_text(app.session)
    assert "stances: 4" in summary and "ran eagerly (failing guard: 0/0: tensor 'x' dtype mismatch" in summary


def _dump_of(tmp_path_factory, name: str, script) -> tuple:
    """`tcdebug --dump` of a test script: (the dump folder, its stdout)."""
    out = tmp_path_factory.mktemp(name) / "out"
    run = subprocess.run(
        [sys.executable, "-m", "tcdebug", "--dump", str(out), str(script)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return out, run.stdout


@pytest.fixture(scope="module")
def module_stances_dump(tmp_path_factory):
    """`tcdebug --dump` of a script whose compiled modules (its own and torch's Linear) are run
    eagerly by eager_on_recompile."""
    script = SCRIPTS / "stances_module.py"
    out, stdout = _dump_of(tmp_path_factory, "stances", script)
    return out, marked_lines(script), stdout


def test_a_compiled_modules_eager_call_is_a_stance_event_and_kept_in_the_dump(module_stances_dump):
    """eager_on_recompile on a compiled nn.Module: the call it ran eagerly names the module's
    forward and its failing guard; the stance events are kept in session.json, so the opened dump
    shows them in the header's stance and on the timeline, between the compiles."""
    from tcdebug.dump.loader import load_dump
    from tcdebug.screens.content import view_for
    from tcdebug.screens.widgets.timeline import TimelineState, build_rows

    out, lines, stdout = module_stances_dump
    assert "a call of Scale.forward ran eagerly (failing guard: 0/0: tensor 'x' dtype mismatch" in stdout
    session = load_dump(out)
    events = session.stance_events
    assert [(ev.action, ev.stance) for ev in events] == [
        ("set", "eager_on_recompile"),
        ("ran_eager", "eager_on_recompile"),
        ("ran_eager", "eager_on_recompile"),
        ("set", "force_eager"),
        ("ran_eager", "force_eager"),  # once for the module's two calls
        ("set", "eager_then_compile"),
        ("set", "default"),
    ]
    assert [ev.user.line for ev in events if ev.user is not None] == [
        lines["set"],
        lines["ran_eager"],
        lines["ran_eager_linear"],
        lines["force_eager"],
        lines["forced"],
        lines["eager_then_compile"],
        lines["default"],
    ]
    own, torchs, forced = events[1], events[2], events[4]
    assert own.function == "Scale.forward" and own.compile_id == "0/0" and "dtype mismatch" in own.guard
    assert torchs.function == "Linear.forward" and "size mismatch" in torchs.guard
    assert forced.function == "Scale.forward" and not forced.guard
    assert f"force_eager: calls of Scale.forward run eagerly (nothing compiled) at stances_module.py:{lines['forced']}" in stdout
    assert session.stance == "default" and all(ev.after == "1/0" for ev in events[:-1])
    # eager_then_compile: the lambda compiles at its second call, after the stance's row
    assert [c.function for c in session.ordered_compiles()][-1] == "<lambda>" and events[-1].after == "2/0"
    rows = build_rows(session, TimelineState())
    texts = [row.label.plain for row in rows]
    first_stance = next(i for i, row in enumerate(rows) if row.ref.item.startswith("stance:"))
    assert first_stance > max(i for i, row in enumerate(rows) if row.ref.compile_id == "1/0" and not row.ref.item)
    assert texts[first_stance] == f"  ⇄ stance eager_on_recompile (stances_module.py:{lines['set']})"
    assert texts[first_stance + 1] == "  ⇄ Scale.forward ran eagerly: x dtype mismatch. expected Float, actual Double"
    view = view_for(session, rows[first_stance + 1].ref)
    assert "failing guard" in str(view.text) and f"stances_module.py:{lines['ran_eager']}" in str(view.text)


async def test_stance_rows_at_80x24(module_stances_dump):
    from pilot import screen_lines

    from tcdebug.dump.loader import load_dump
    from tcdebug.screens.app import TcdebugApp
    from tcdebug.screens.widgets.timeline import Ref

    out, lines, _ = module_stances_dump
    app = TcdebugApp(load_dump(out), read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.jump_to(Ref("1/0", item="stance:1"))
        await pilot.pause()
        shown = "\n".join(screen_lines(app))
        assert "⇄ Scale.forward ran" in shown and "stance eager_on_recompile" in shown
        assert "your line:" in shown or f"stances_module.py:{lines['ran_eager']}" in shown


# ----- the specialization chain -----------------------------------------------------------------
@pytest.fixture(scope="module")
def specialized_dump(tmp_path_factory):
    """`tcdebug --dump` of a script whose branch specializes a mark_dynamic dimension."""
    script = SCRIPTS / "specialized_dim.py"
    out, _ = _dump_of(tmp_path_factory, "specialized", script)
    return out, marked_lines(script)["branch"]


def test_the_chain_of_a_specialized_dimension_names_the_branchs_line(specialized_dump):
    from tcdebug.dump.loader import load_dump

    out, branch = specialized_dump
    comp = load_dump(out).compiles["0/0"]
    (symbol, steps), *_ = [(s, st) for s, st in comp.symbol_chains.items() if len(st) > 1]
    assert steps[0].step == "created" and steps[0].text.startswith("L['x'].size()[0] = 8")
    kinds = [step.step for step in steps]
    assert "guard" in kinds and "specialized" in kinds
    assert kinds.index("guard") < kinds.index("specialized")  # in the order torch did them
    for step in steps:
        assert step.user is not None and step.user.file.endswith("specialized_dim.py"), step
        assert step.user.line == branch, step
    why = (out / "compiles" / "0-0" / "why.md").read_text()
    assert f"## Specialization of {symbol} (L['x'].size()[0])" in why
    assert f"specialized: {symbol} = 8" in why and f"specialized_dim.py:{branch}" in why
    assert f"Final: static: {symbol} = 8" in why


async def test_the_symbols_screen_shows_the_chain(specialized_dump):
    from pilot import wait_until as wait

    from tcdebug.dump.loader import load_dump
    from tcdebug.screens.app import TcdebugApp
    from tcdebug.screens.symbols_screen import SymbolsScreen
    from tcdebug.screens.widgets.timeline import Ref

    out, branch = specialized_dump
    app = TcdebugApp(load_dump(out), read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        app.jump_to(Ref("0/0", "source"))
        await pilot.pause()
        await pilot.press("S")
        await wait(pilot, lambda: isinstance(app.screen, SymbolsScreen))
        detail = str(app.screen.query_one("#symbols-detail").render())
        assert "L['x'].size()[0]" in detail
        assert "chain" in detail and f"specialized_dim.py:{branch}" in detail and "Final: static" in detail


def test_the_chain_from_a_torch_trace_log_names_the_branchs_line(tmp_path):
    """A TORCH_TRACE log's `create_symbol` and `symbolic_shape_specialization` records give the chain."""
    import os

    from tcdebug.analysis.why import why_markdown
    from tcdebug.trace import load_trace_session

    script = SCRIPTS / "specialized_dim.py"
    branch = marked_lines(script)["branch"]
    env = {**os.environ, "TORCH_TRACE": str(tmp_path / "trace")}
    run = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    session = load_trace_session(tmp_path / "trace")
    (symbol, steps), *_ = session.compiles["0/0"].symbol_chains.items()
    assert [step.step for step in steps] == ["created", "specialized"]
    assert all(step.user is not None and step.user.line == branch for step in steps), steps
    assert f"Final: static: {symbol} = 8" in why_markdown(session, "0/0")


# ----- hints ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def hints_dump(tmp_path_factory):
    """`tcdebug --dump` of a script that triggers every hint (`# HINT: <id>` marks each)."""
    return _dump_of(tmp_path_factory, "hints", SCRIPTS / "hints.py")


def test_each_hint_is_stated_once_in_the_summary_and_in_w(hints_dump):
    from tcdebug.analysis.hints import KINDS, session_hints
    from tcdebug.analysis.why import HINT, explain
    from tcdebug.dump.loader import load_dump

    out, stdout = hints_dump
    script = (SCRIPTS / "hints.py").read_text()
    marked = {line.partition("# HINT: ")[2].strip() for line in script.splitlines() if "  # HINT: " in line}
    assert marked == set(KINDS)  # the script triggers every hint
    summary = stdout[stdout.index("\nhints:\n") :]
    for kind in KINDS.values():
        assert summary.count(kind.title) == 1, kind.id
    session = load_dump(out)
    found = {h.kind.id: h for h in session_hints(session)}
    assert set(found) == set(KINDS)
    # the break inside torch.optim names the user's `opt.step()` line first
    step_line = next(i for i, line in enumerate(script.splitlines(), 1) if "HINT: library_break" in line)
    assert found["library_break"].detail.startswith(f"your line hints.py:{step_line} opt.step()")
    assert f"at hints.py:{step_line} opt.step()" in stdout and "inside optimizer.py:" in stdout
    # recompile causes are readable, not raw guard text cut off
    recompiles = stdout[stdout.index("\nrecompiles:") : stdout.index("\nnote:")]
    assert "(a Python scalar) was" in recompiles and "  # " not in recompiles and "…" not in recompiles
    # `w` on the scalar's recompile carries its hints
    scalar = found["scalar"].compiles[0]
    titles = [p.title for p in explain(session, scalar) if p.kind == HINT]
    assert f"Hint: {KINDS['scalar'].title}" in titles
    assert (
        "Hint: a Python float or int is a constant in the graph"
        in (out / "compiles" / scalar.replace("/", "-") / "why.md").read_text()
    )


async def test_b_on_a_break_row_and_the_palette_set_event_breakpoints():
    """`b` on a graph break's row breaks on every graph break; the palette's `break on recompile` sets
    that one; the script then stops at each."""
    from tcdebug.screens.widgets.timeline import Ref

    lines = marked_lines(EVENTS_SCRIPT)
    app = build_live_app([str(EVENTS_SCRIPT)], mode="continue", breakpoints=["graph_break:GB0059"])
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: _event(app) is not None or _done(app), what="the first break")
        assert _event(app) is not None and _event(app).kind == "graph_break"
        app.main_screen.refresh_session()
        await pilot.pause()
        app.jump_to(Ref("0/0", item="break:0"))
        await pilot.pause()
        await pilot.press("b")
        assert "graph_break" in app.breakpoints
        await pilot.press("ctrl+p")
        await pilot.press(*"break on recompile")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: "recompile" in app.breakpoints, timeout=30, what="the palette's breakpoint"
        )
        await pilot.press("c")
        await wait_until(
            pilot,
            lambda: (_event(app) is not None and _event(app).kind == "recompile") or _done(app),
            what="recompile",
        )
        event = _event(app)
        assert event is not None and event.breakpoint == "recompile"
        assert event.user is not None and event.user.line == lines["recompile"]
        await pilot.press("g")
        await wait_until(pilot, lambda: _done(app), what="the end")
