"""Pilot tests of the re-run editor, the guard view and the diff screen.

The editor talks to a real target (samples/mlp.py, run to its end once for the
whole module, real torch.compile on the CPU); the diff screen reads the dump the
headless re-run test writes.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import pytest
from conftest import SAMPLES
from pilot import wait_until
from rich.text import Text
from test_rerun_cli import rerun_dump, rerun_session  # noqa: F401 - shared session fixtures
from textual.app import App
from textual.widgets import Checkbox, Input, Select, Static

from tcdebug.analysis import provenance_index as provenance
from tcdebug.analysis.why import explain
from tcdebug.dump.index import IndexCache, entries_json, index_json, index_text, session_index
from tcdebug.dump.loader import load_dump
from tcdebug.dump.writer import DumpWriter
from tcdebug.model import commands, protocol
from tcdebug.model import session as model
from tcdebug.model.session import Session
from tcdebug.process.controller import TargetController
from tcdebug.screens.diff_screen import DiffScreen, side_by_side_rows, unified_lines
from tcdebug.screens.messages import TargetEvent
from tcdebug.screens.rerun_screen import RerunScreen
from tcdebug.screens.widgets.guard_view import GuardView, guard_lines


class Target:
    """A live target for mlp.py whose events go to the session, or to an app while one runs."""

    def __init__(self) -> None:
        self.session = Session()
        self.lock = threading.Lock()
        self.sink: Callable[[dict[str, Any]], None] | None = None
        self.ready = threading.Event()
        self.events: list[Any] = []  # every event up to the first `ready`
        self.controller = TargetController(
            [str(SAMPLES / "mlp.py")], mode=protocol.MODE_RUN, on_event=self.on_event
        )

    def on_event(self, event: dict[str, Any]) -> None:
        sink = self.sink
        if sink is not None:
            sink(event)
            return
        with self.lock:
            self.session.apply(event)
            if not self.ready.is_set():
                self.events.append(event)
        if event.type == "ready":
            self.ready.set()


@pytest.fixture(scope="module")
def target():
    live = Target()
    live.controller.start()
    try:
        assert live.ready.wait(240), live.session.output_text()[-2000:]
        assert live.session.state == model.FINISHED and live.session.calls
        yield live
    finally:
        live.controller.close()


class Host(App[None]):
    """A bare app holding the session and controller, as TcdebugApp does."""

    def __init__(self, session: Session, controller: Any, screen: Callable[[], Any]) -> None:
        super().__init__()
        self.session, self.controller, self._screen = session, controller, screen

    def on_mount(self) -> None:
        self.push_screen(self._screen())

    def forward_event(self, event: dict[str, Any]) -> None:
        try:
            self.post_message(TargetEvent(event))
        except RuntimeError:
            pass

    def on_target_event(self, message: TargetEvent) -> None:
        self.session.apply(message.event)


def host(target: Target, compile_id: str = "0/1", mode: str = "run") -> Host:
    app = Host(
        target.session,
        target.controller,
        lambda: RerunScreen(target.session, target.controller, compile_id, mode=mode),
    )
    target.sink = app.forward_event
    return app


def editor(app: App) -> RerunScreen:
    assert isinstance(app.screen, RerunScreen)
    return app.screen


def status(app: App) -> str:
    return str(editor(app).query_one("#rerun-status", Static).render())


async def set_shape(pilot, app: App, text: str) -> None:
    field = editor(app).query_one("#shape-0", Input)
    field.value = text
    await pilot.pause()


def test_a_live_dump_says_of_each_compile_what_it_would_afresh_after_every_event(target, tmp_path):
    """The live dump keeps what session.json says of each compile (entry, line, why) between
    rewrites; replayed event by event, the kept index is always the one made afresh, and the
    finished dump says what a fresh explanation of it says."""
    session = Session()
    writer = DumpWriter(session, tmp_path / "out")
    kept = writer._index
    for event in target.events:
        session.apply(event)
        writer.on_event(event)
        if event.type == "compile_end":  # an interrupted dump keeps the ended compiles' provenance
            assert (tmp_path / "out" / "compiles" / event.compile_id.replace("/", "-") / "provenance.json").is_file()
        assert index_text(session, complete=False, cache=kept) == index_json(session_index(session, complete=False))
        for cid in session.compiles:
            assert kept.as_dicts(cid) == IndexCache(session).as_dicts(cid), (event.type, cid)
    writer.finish()
    assert {"0/0", "0/1"} <= set(session.compiles)
    for cid in session.compiles:  # session.json's why is asdict of each part
        assert kept.as_dicts(cid) == [asdict(part) for part in explain(session, cid)]
    for cid, comp in session.compiles.items():  # written at each compile's end, never left stale
        written = (tmp_path / "out" / "compiles" / cid.replace("/", "-") / "provenance.json").read_text()
        assert written == entries_json(provenance.index_to_dict(comp.provenance, cid))
    reloaded = load_dump(tmp_path / "out")
    index = json.loads((tmp_path / "out" / "session.json").read_text())
    for comp in index["compiles"]:
        assert comp["why"] == IndexCache(reloaded).as_dicts(comp["compile_id"])
        assert any(part["kind"] == "fusion" for part in comp["why"])
        why_md = (tmp_path / "out" / "compiles" / comp["compile_id"].replace("/", "-") / "why.md").read_text()
        assert why_md == IndexCache(reloaded).markdown(comp["compile_id"])


async def test_editor_shows_the_call_and_rejects_bad_input(target):
    app = host(target)
    try:
        async with app.run_test(size=(140, 44)) as pilot:
            screen = editor(app)
            title = str(screen.query_one("#rerun-title", Static).render())
            assert "MLP.forward" in title and "0/0, 0/1" in title
            assert screen.query_one("#shape-0", Input).value == "8,64"
            assert screen.query_one("#dtype-0", Select).value == "float32"
            assert screen.query_one("#rerun-dynamic", Select).value == "none"
            assert [c.id for c in screen.query(Checkbox)] == ["dyn-0-0", "dyn-0-1"]
            assert screen.spec == "x=8,64" and screen.problems == []
            before = len(target.session.reruns)
            for text, message in [
                ("16,a", "size 1 is not an integer ('a')"),
                ("-4,64", "size 0 is negative (-4)"),
                ("", "x: empty size"),
                ("16,64,2", "3 sizes for a tensor with 2 dims (8, 64)"),
                ("100000,100000", "over the re-run limit"),
            ]:
                await set_shape(pilot, app, text)
                assert message in status(app), text
                await pilot.press("f2")  # refused here: nothing is sent to the target
                await pilot.pause()
                assert screen.token == ""
            # The dynamic setting and the dyn boxes become part of the spec.
            await set_shape(pilot, app, "16,64")
            screen.query_one("#dyn-0-0", Checkbox).value = True
            screen.query_one("#rerun-dynamic", Select).value = "false"
            await pilot.pause()
            assert screen.spec == "x=16*,64;@dynamic=false" and screen.problems == []
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, RerunScreen)
        assert len(target.session.reruns) == before
    finally:
        target.sink = None


async def test_guard_check_shows_each_guard_and_dynamos_reason(target):
    app = host(target)
    try:
        async with app.run_test(size=(140, 44)) as pilot:
            screen = editor(app)
            await set_shape(pilot, app, "16,64")
            await pilot.press("f2")
            await wait_until(
                pilot, lambda: screen.current is not None and screen.current.done, 60, "the check"
            )
            rerun = screen.current
            assert rerun.status == "checked" and rerun.produced == []
            check = next(c for c in rerun.checks if c.compile_id == "0/1")
            assert not check.passed
            view = screen.query_one(GuardView)
            await wait_until(pilot, lambda: view.rerun is rerun or view.rerun == rerun, 5, "the guard view")
            text = view.text
            assert "✗ 0/1  fails 1 of" in text
            assert "Dynamo: tensor 'x' size mismatch at index 0. expected 8, actual 16" in text
            assert "TENSOR_MATCH" in text and "✓" in text
            failing_line = next(i for i, line in enumerate(view.lines) if "size=[8, 64]" in line)
            style = view.styled[failing_line]
            assert any("red" in str(span.style) for span in style.spans)
            assert "running it will recompile" in status(app) or "will be reused" in status(app)
            total = len(view.lines)
            await pilot.press("ctrl+f")  # failing guards only
            assert len(view.lines) < total and "passing guards hidden" in view.text
            # The target is idle again: its state is the script's, not a re-run's.
            assert target.session.state == model.FINISHED
    finally:
        target.sink = None


async def test_run_with_mark_dynamic_pauses_at_the_recompile_and_makes_a_symbolic_graph(target):
    app = host(target, mode="step")
    try:
        async with app.run_test(size=(140, 44)) as pilot:
            screen = editor(app)
            screen.query_one("#dyn-0-0", Checkbox).value = True
            await pilot.pause()
            assert screen.spec == "x=8*,64"
            before = set(target.session.compiles)
            await pilot.press("f5")
            # The recompile pauses at its first stage while the command loop serves the re-run;
            # the editor closes so the main screen can show the pause.
            await wait_until(pilot, lambda: target.session.state == model.PAUSED, 120, "the pause")
            await wait_until(pilot, lambda: not isinstance(app.screen, RerunScreen), 5, "the editor to close")
            cid, key = target.session.paused_at
            assert cid not in before and key == "source"
            rerun = screen.current
            assert rerun.status == "running"
            assert any(
                "_has_dynamo_dim_marking" in c.reason or "dynamic_indices" in c.reason for c in rerun.checks
            )
            assert target.controller.run()  # answered by the reader thread while the main thread is paused
            await wait_until(pilot, lambda: screen.current.done, 120, "the re-run to finish")
            rerun = screen.current
            assert rerun.status == "ok" and rerun.produced == [cid], rerun.error
            graph = target.session.compiles[cid].stages["dynamo_graph"].get_text()
            assert '"Sym(s' in graph, graph[:1500]
            assert target.session.state == model.FINISHED and target.session.paused_at is None
            assert cid in target.session.call_for("0/0").compile_ids
    finally:
        target.sink = None


async def test_a_shape_the_model_rejects_fails_with_its_error_and_the_target_lives(target):
    app = host(target)
    try:
        async with app.run_test(size=(140, 44)) as pilot:
            screen = editor(app)
            await set_shape(pilot, app, "8,32")
            await pilot.press("f5")
            await wait_until(
                pilot, lambda: screen.current is not None and screen.current.done, 120, "the re-run"
            )
            assert screen.current.status == "failed"
            await wait_until(
                pilot,
                lambda: "mat1 and mat2 shapes cannot be multiplied (8x32 and 64x128)" in status(app),
                30,
                "the error",
            )
            assert target.controller.alive
            await set_shape(pilot, app, "8,64")  # and it still answers
            await pilot.press("f2")
            await wait_until(
                pilot, lambda: screen.current.status == "checked", 60, "a check after the failure"
            )
            reused = screen.current.reused  # 0/1, or a dynamic entry an earlier test made
            assert reused and next(c for c in screen.current.checks if c.compile_id == reused).passed
            expected = f"entry {reused} matches: it will be reused, nothing will recompile"
            await wait_until(pilot, lambda: expected in status(app), 5, "the verdict")
    finally:
        target.sink = None


# ----- read-only: a dump written by the headless re-run test --------------------------
@pytest.fixture(scope="module")
def dumped(rerun_session) -> Session:  # noqa: F811 - the fixture imported above
    return rerun_session


async def test_read_only_editor_shows_the_recorded_guard_check(dumped):
    app = Host(dumped, None, lambda: RerunScreen(dumped, None, "0/1"))
    async with app.run_test(size=(140, 44)) as pilot:
        screen = editor(app)
        view = screen.query_one(GuardView)
        assert view.rerun is dumped.reruns[-1]
        await pilot.press("f5")
        await pilot.pause()
        assert screen.token == ""  # nothing to send it to


async def test_resume_functions_have_no_recorded_call(dumped):
    app = Host(dumped, None, lambda: RerunScreen(dumped, None, "9/9"))
    async with app.run_test(size=(140, 44)) as pilot:
        assert "no recorded call to re-run" in str(editor(app).query_one("#rerun-title", Static).render())
        await pilot.press("f2")


def test_guard_lines_without_a_check():
    assert "F2" in guard_lines(None)[0].plain


async def test_diff_screen_compares_the_static_and_the_symbolic_graph(dumped):
    app = Host(dumped, None, lambda: DiffScreen(dumped, "0/3", "dynamo_graph"))
    async with app.run_test(size=(200, 50)) as pilot:
        screen = app.screen
        assert isinstance(screen, DiffScreen)
        assert screen.other_id == "0/2"  # the compile it recompiled from
        title = str(screen.query_one("#diff-title", Static).render())
        assert "0/2 dynamo_graph → 0/3 dynamo_graph" in title and "side by side" in title
        text = screen.shown_text
        row = next(r for r in screen.split.rows if 'linear: "f32[16, 128]' in r.left.plain)
        assert row.mark.plain == " ~ " and 'linear: "f32[s' in row.right.plain  # 16 became a symbol
        # Both halves share the width, and what changed inside the line is marked.
        assert screen.split.half == (200 - 3) // 2
        assert any("on dark_green" in str(span.style) for span in row.right.spans)
        await pilot.press("s")
        assert "unified" in str(screen.query_one("#diff-title", Static).render())
        lines = screen.view.lines
        assert any(line.startswith("-") and "f32[16, 64]" in line for line in lines)
        assert any(line.startswith("+") and "Sym(s" in line for line in lines)
        await pilot.press("left_square_bracket")
        assert screen.other_id == "0/1"
        await pilot.press("right_curly_bracket")
        assert screen.key != "dynamo_graph"
        assert text != screen.shown_text
        await pilot.press("escape")
        assert not isinstance(app.screen, DiffScreen)


def test_diff_lines():
    old, new = "a\nx: f32[8, 64]\nb\n", "a\nx: f32[s0, 64]\nb\nc\n"
    unified = [t.plain for t in unified_lines(old, new, "0/0", "0/1")]
    assert "-x: f32[8, 64]" in unified and "+x: f32[s0, 64]" in unified and "+c" in unified
    side = side_by_side_rows(old, new, "0/0", "0/1")
    changed = next(r for r in side if r.mark.plain == " ~ ")
    assert (changed.left.plain, changed.right.plain) == ("x: f32[8, 64]", "x: f32[s0, 64]")
    # Within the line, only what changed is marked: `8` on the left, `s0` on the right.
    [old_span] = [s for s in changed.left.spans if "on dark_red" in str(s.style)]
    assert changed.left.plain[old_span.start : old_span.end] == "8"
    [new_span] = [s for s in changed.right.spans if "on dark_green" in str(s.style)]
    assert changed.right.plain[new_span.start : new_span.end] == "s0"
    assert isinstance(changed.left, Text) and changed.left.style == "red"
    assert "identical" in unified_lines(old, old, "a", "b")[0].plain


def test_a_rerun_that_compiles_ends_after_the_calls_name_its_compile(target):
    """The target sends the call's compiles, the new one among them, before the re-run's end: an
    app that looks the call up when it hears the end finds the compile there. Until that end the
    run is never `done`: it goes from `running` (the guard checks with it) to `ok`, never through
    a check's `checked`."""
    ended = threading.Event()
    at_end: list[list[str]] = []
    seen: list[tuple[str, int]] = []  # (status, checks) of each of its events

    def sink(event: Any) -> None:
        with target.lock:
            target.session.apply(event)
            if event.type == "rerun" and event.rerun.token == "order":
                seen.append((event.rerun.status, len(event.rerun.checks)))
            if event.type == "rerun" and event.rerun.token == "order" and event.rerun.status == "ok":
                at_end.append(list(target.session.call_for("0/0").compile_ids))
                at_end.append(list(event.rerun.produced))
                ended.set()

    target.sink = sink
    try:
        call = target.session.call_for("0/0")
        assert call is not None
        spec = "x=8,64;@backend=eager"  # a fresh torch.compile: a compile of the same frame
        assert target.controller.rerun(
            commands.RunRerun(compile_id="0/0", key=call.key, spec=spec, token="order")
        )
        assert ended.wait(180), "the re-run did not end"
    finally:
        target.sink = None
    ids, produced = at_end
    assert len(produced) == 1 and produced[0] in ids, (produced, ids)
    assert [status for status, _ in seen] == ["running", "ok"], seen
    assert seen[0][1] >= 1, seen  # the checks come with `running`


async def test_backend_rerun_recompiles_under_aot_eager(target):
    """The editor's backend field: a fresh torch.compile under aot_eager, the same frame again."""
    app = host(target, mode="run")
    try:
        async with app.run_test(size=(140, 44)) as pilot:
            screen = editor(app)
            screen.query_one("#rerun-backend", Input).value = "aot_eager"
            await pilot.pause()
            assert screen.spec == "x=8,64;@backend=aot_eager"
            before = set(target.session.compiles)
            await pilot.press("f5")
            await wait_until(pilot, lambda: screen.current is not None and screen.current.done, 120, "the re-run")
            rerun = screen.current
            assert rerun.status == "ok", rerun.error
            (cid,) = rerun.produced
            assert cid not in before and cid in target.session.call_for("0/0").compile_ids
            comp = target.session.compiles[cid]
            assert "BACKEND_MATCH" in comp.recompile_reason
            assert comp.stages["aot_forward"].captured
            assert "run Inductor" in comp.stages["kernel_source.forward"].reason
            # a mode torch.compile does not have never leaves the editor
            screen.query_one("#rerun-backend", Input).value = ""
            screen.query_one("#rerun-mode", Select).value = "max-autotune"
            await pilot.pause()
            assert screen.spec == "x=8,64;@mode=max-autotune" and not screen.problems
    finally:
        target.sink = None
