"""The app shows what hostile logs and dumps say as visible text: on every screen, in toasts and in
the palette, never as terminal controls and never as Textual markup (pilot and a real pty)."""

from __future__ import annotations

from pathlib import Path

from hostile import (
    EVIL,
    SAFE_EVIL,
    VISIBLE,
    hostile_dump,
    hostile_session,
    hostile_trace,
    svg_text,
    trace_line,
)
from pilot import header_text, main_screen, wait_until
from textual.command import CommandList

from tcdebug.dump.loader import load_dump
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.diff_screen import DiffScreen
from tcdebug.screens.output_screen import OutputScreen
from tcdebug.screens.ranks_screen import RanksScreen
from tcdebug.screens.rerun_screen import RerunScreen
from tcdebug.screens.widgets.code_view import CodeView
from tcdebug.screens.widgets.timeline import Ref
from tcdebug.trace import new_trace_session
from tcdebug.trace.rank_logs import Divergence

FN = "␛]52;c;SGVsbG8=\\x07␛]2;PWNED"  # the start of EVIL, made visible
CONTROLS = {chr(c) for c in [*range(0x09), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0)]} | {"\u202e"}


def screen_text(app: TcdebugApp) -> str:
    """What the terminal shows now (the app's own SVG export), checked for raw controls."""
    svg = app.export_screenshot()
    text = svg_text(svg)
    assert not CONTROLS & set(text), sorted(CONTROLS & set(text))
    return text


def assert_lines_safe(view: CodeView) -> None:
    for line in view.lines:
        assert not CONTROLS & set(line), line


async def test_a_hostile_dump_shows_visible_text_on_every_screen(tmp_path: Path) -> None:
    app = TcdebugApp(load_dump(hostile_dump(tmp_path / "dump")), read_only=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert f"fn{FN}" in text  # the timeline: function names (cut to the width)
        assert f"/tmp/{FN}" in text  # the status bar: the script
        assert "[@click=app.quit]x[/][bold]" in text  # markup stays text
        main = main_screen(app)
        for item in ("break:0", "recompile", "error", ""):
            main.select(Ref("0/0", item=item))
            await pilot.pause()
            assert VISIBLE in header_text(app) or not item
            assert_lines_safe(main.code)
            assert VISIBLE in main.code.text
        main.select(Ref("0/0", "kernel_source.inference", kernel=f"cpp_fused_{EVIL}"))
        await pilot.pause()
        assert f"cpp_fused_{SAFE_EVIL}" in header_text(app)
        assert VISIBLE in screen_text(app)
        main.select(Ref("0/0", "guards"))  # not captured: the reason
        await pilot.pause()
        assert f"not here {SAFE_EVIL}" in header_text(app)
        # the output pane
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OutputScreen)
        assert_lines_safe(app.screen.query_one(CodeView))
        assert f"output {SAFE_EVIL}" in screen_text(app)
        await pilot.press("escape")
        # the diff of two compiles of the frame (0/0 and 0/1 share frame 0: here only one: a message)
        main.select(Ref("0/0", "dynamo_graph"))
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)
        screen_text(app)
        await pilot.press("escape")
        # the re-run editor: the recorded call's argument names, types and reprs
        main.select(Ref("0/0"))
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RerunScreen)
        text = screen_text(app)
        assert f"Re-run fn{FN}" in text and f"/tmp/{FN}" in text and "x␛]52;c;" in text
        await pilot.press("escape")
        # a toast
        app.notify(f"note {EVIL}")
        await pilot.pause()
        [toast] = [n for n in app._notifications if n.message.startswith("note ")]
        assert toast.message == f"note {SAFE_EVIL}" and not toast.markup
        assert app.is_running  # nothing clicked app.quit


async def test_the_palette_shows_names_as_text(tmp_path: Path) -> None:
    app = TcdebugApp(hostile_session(), read_only=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"fn")
        await wait_until(pilot, lambda: app.screen.query(CommandList) and app.screen.query_one(CommandList).option_count > 0,
                         timeout=10, what="palette hits")  # fmt: skip
        await pilot.pause(0.3)
        text = screen_text(app)
        assert f"fn{FN}" in text
        assert "[@click=app.quit]" in text
        await pilot.press("escape")
        assert app.is_running


async def test_the_ranks_screen_shows_log_names_and_divergences_as_text() -> None:
    sessions = {r: hostile_session() for r in (0, 1)}
    for rank, session in sessions.items():
        session.script = f"/logs/dedicated_log_torch_trace_rank_{rank}_{EVIL}.log"
        session.rank = rank
        session.ranks = sessions
        session.divergences = [Divergence("graph", f"0/0{EVIL}", f"differs {EVIL}", ranks=[1])]
    app = TcdebugApp(sessions[0], read_only=True)
    async with app.run_test(size=(240, 40)) as pilot:  # wide enough that no cell wraps
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, RanksScreen)
        text = screen_text(app)
        assert f"differs {FN}" in text and f"0/0{FN}" in text


async def test_a_hostile_trace_streams_into_the_app_as_visible_text(tmp_path: Path) -> None:
    log = hostile_trace(tmp_path / "trace")
    app = TcdebugApp(new_trace_session(log), read_only=True, stream_trace=str(log))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.session.trace_stats, timeout=30, what="the trace to load")
        await pilot.pause(0.2)
        text = screen_text(app)
        assert f"fn{FN}" in text
        # the note about the unknown event key, as a toast: made safe, not markup
        assert any("unknown␛]52" in n.message and not n.markup for n in app._notifications)
        main = main_screen(app)
        main.select(Ref("0/0", item="break:0"))
        await pilot.pause()
        assert VISIBLE in header_text(app) or VISIBLE in main.code.text
        assert_lines_safe(main.code)
        assert app.is_running


async def test_deep_json_in_a_streamed_trace_does_not_crash_the_app(tmp_path: Path) -> None:
    log = tmp_path / "deep.log"
    ids = {"frame_id": 0, "frame_compile_id": 0}
    deep = 'V1123 10:45:15.432000 6261 x.py:1] {"a": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
    log.write_text(
        trace_line({"dynamo_start": {"stack": [{"name": "f", "line": 1}]}, **ids})
        + deep
        + trace_line({"compilation_metrics": {"co_name": "f"}, **ids})
    )
    app = TcdebugApp(new_trace_session(log), read_only=True, stream_trace=str(log))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session.trace_stats, timeout=30, what="the trace to load")
        assert app.session.trace_stats["too_deep"] == 1
        assert "0/0" in app.session.compiles
        await pilot.pause()
        assert any("1 records nested too deeply skipped" in n.message for n in app._notifications)
        screen_text(app)
        assert app.is_running


def test_the_real_terminal_gets_no_hostile_sequence(tmp_path: Path) -> None:
    """`tcdebug open` on a hostile trace in a real pty: the title, clipboard and screen are untouched."""
    from test_terminal import run_in_pty

    log = hostile_trace(tmp_path / "trace")
    code, out = run_in_pty(["open", str(log)], "xterm-256color", until=b"]2;PWNED")
    assert code == 0
    assert b"\x1b]52;" not in out and b"\x1b]2;PWNED" not in out and b"\xc2\x9b" not in out
    assert VISIBLE.encode() in out


def test_kernel_metadata_of_the_wrong_shape_is_shown_not_fatal() -> None:
    from tcdebug.model.session import Compile, Kernel, Session, Stage
    from tcdebug.screens.content import view_for

    kernel = Kernel("k", "python", "src", meta={"grid": [1], "launch_index": "x", "triton": {"size_hints": 3}})
    comp = Compile("0/0", stages={"kernel_source": Stage("kernel_source", text="src", kernels=[kernel])})
    view = view_for(Session(compiles={"0/0": comp}), Ref("0/0", "kernel_source", kernel="k"))
    assert view.header.plain.startswith("cannot show this: ")
