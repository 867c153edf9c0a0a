"""The stage view's colours: a new document's first frame is coloured as it is painted, the
worker colours the rest only once the user stays, and what it paints is pygments' highlighting.

These run the real app on a committed dump through the pilot; the rendering check compares the
fast path with rich's own `Text.render` on generated lines.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st
from pilot import main_screen, wait_until
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.worker import WorkerState

from tcdebug.dump.loader import load_dump
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.widgets import code_view
from tcdebug.screens.widgets.code_view import CodeView, _strip_of_runs
from tcdebug.screens.widgets.highlight import highlight_lines
from tcdebug.screens.widgets.timeline import Ref

KERNELS = Ref("0/0", "kernel_source.inference")  # 126 lines: more than a page at 80x24


def open_app() -> TcdebugApp:
    return TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)


def painted(code: CodeView, index: int) -> list[tuple[str, Style | None]]:
    """The segments of document line `index` as the view renders it (without the gutter)."""
    base = code.rich_style
    strip = code._render_code(index, base)
    return [(seg.text, seg.style) for seg in Segment.simplify(strip) if seg.text]


def pygments(code: CodeView, index: int, lines: list[Text]) -> list[tuple[str, Style | None]]:
    text = lines[index].copy()
    text.stylize_before(code.rich_style)
    text.end = ""
    return [(seg.text, seg.style) for seg in Segment.simplify(text.render(code.app.console)) if seg.text]


async def test_the_first_frame_of_a_document_has_its_colours_before_any_worker_runs(monkeypatch):
    monkeypatch.setattr(code_view, "HIGHLIGHT_DELAY_S", 3600.0)  # the worker never starts here
    app = open_app()
    async with app.run_test(size=(80, 24)) as pilot:
        code = main_screen(app).code
        app.jump_to(KERNELS)
        await pilot.pause()
        assert not code.is_highlighted and not code._highlighting
        whole = highlight_lines(code._text, code.language)
        top = round(code.scroll_offset.y)
        height = code.scrollable_content_region.height
        coloured = 0
        for index in range(top, min(len(code.lines), top + height)):
            assert painted(code, index) == pygments(code, index, whole), f"line {index + 1}"
            coloured += any(style is not None and style.color is not None for _, style in painted(code, index))
        assert coloured > height // 2, "the lines on show were painted without colours"
        # The view opened on the kernel, down the document: the scrollbar says where.
        assert top > 0 and code.vertical_scrollbar.position == top

        # A document no longer than the page is wholly coloured by its first paint: no worker.
        app.jump_to(Ref("0/0", "dynamo_graph"))
        await pilot.pause()
        assert code.is_highlighted and not code._highlighting
        assert code.styled == highlight_lines(code._text, code.language)


async def test_the_worker_colours_the_rest_once_the_user_stays_and_the_same_text_is_not_lexed_twice(
    monkeypatch,
):
    monkeypatch.setattr(code_view, "HIGHLIGHT_DELAY_S", 0.01)
    app = open_app()
    async with app.run_test(size=(80, 24)) as pilot:
        code = main_screen(app).code
        app.jump_to(Ref("0/0", "bytecode_before"))
        await wait_until(pilot, lambda: code.is_highlighted, timeout=30, what="the highlight worker")
        assert code.styled == highlight_lines(code._text, code.language)
        # The recompile 0/1 has the same bytecode: its colours are there at once.
        app.jump_to(Ref("0/1", "bytecode_before"))
        assert code.is_highlighted and not code._highlighting
        assert code.styled == highlight_lines(code._text, code.language)

        app.jump_to(KERNELS)
        await wait_until(pilot, lambda: code.is_highlighted, timeout=30, what="the highlight worker")
        assert code._highlighting, "a document longer than the page was coloured without the worker"
        whole = highlight_lines(code._text, code.language)
        assert code.styled == whole
        for index in range(len(code.lines)):
            assert painted(code, index) == pygments(code, index, whole), f"line {index + 1}"


def threads_colouring() -> int:
    """How many threads are inside `highlight_lines` now (read from their live frames)."""
    count = 0
    for frame in sys._current_frames().values():
        while frame is not None:
            if frame.f_code is highlight_lines.__code__:
                count += 1
                break
            frame = frame.f_back
    return count


async def test_a_new_document_cancels_the_worker_colouring_the_one_before(monkeypatch):
    monkeypatch.setattr(code_view, "HIGHLIGHT_DELAY_S", 0.01)
    app = open_app()
    big = "\n".join(f"def f{i}(x, y={i}):\n    return torch.relu(x) * {i} + y  # {i}" for i in range(20_000))
    async with app.run_test(size=(80, 24)) as pilot:
        code = main_screen(app).code
        code.set_document(big, "python", key="big")
        await wait_until(pilot, lambda: code._highlighting, timeout=30, what="the worker to start")
        workers = [w for w in app.workers if w.group == "code-view-highlight"]
        assert workers
        # Textual marks a worker RUNNING before its task has run; a task cancelled before that
        # never leaves RUNNING. So wait until a thread is really colouring the big document.
        await wait_until(pilot, lambda: threads_colouring() == 1, what="a thread colouring the document")
        code.set_document("x = 1\n", "python", key="small")
        await wait_until(pilot, lambda: all(w.is_finished for w in workers), timeout=60, what="the worker")
        assert [w.state for w in workers] == [WorkerState.CANCELLED] * len(workers)
        # The thread itself stops early: it does not go on colouring a document no one shows.
        await wait_until(pilot, lambda: threads_colouring() == 0, timeout=10, what="the thread to stop")
        assert code.text == "x = 1"
        assert not any(key == ("python", big) for key in code._highlighted_docs.keys())


_RUNS = st.lists(
    st.tuples(
        st.text(alphabet=st.sampled_from(["a", " ", "(", "é", "漢", "_", "1"]), min_size=1, max_size=6),
        st.sampled_from([None, Style(color="red"), Style(color="#66d9ef", bold=True), Style(italic=True), Style()]),
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(_RUNS, st.sampled_from([Style(), Style(color="white", bgcolor="black"), Style(bgcolor="#1e1e1e")]))
def test_the_fast_path_paints_what_rich_paints(runs: list[tuple[str, Style | None]], base: Style) -> None:
    line = Text()
    for part, style in runs:  # as highlight_lines builds a line
        line.append(part, style if style else None)
    strip = _strip_of_runs(line, base)
    assert strip is not None
    slow = line.copy()
    slow.stylize_before(base)
    slow.end = ""
    assert _runs(strip) == _runs(slow.render(Console()))
    assert strip.cell_length == line.cell_len


def _runs(segments: Iterable[Segment]) -> list[tuple[str, Style | None]]:
    """What a terminal shows: the text in runs of one style (a null style is no style)."""
    return [(seg.text, seg.style or None) for seg in Segment.simplify(segments) if seg.text]


def _overlapping() -> Text:
    line = Text("abcd")
    line.stylize(Style(bold=True), 0, 3)
    line.stylize(Style(color="red"), 1, 2)
    return line


@pytest.mark.parametrize(
    "line",
    [Text("abc", style="bold"), Text.assemble(("ab", "red"), "c"), _overlapping()],
    ids=["a line style", "a style named by a string", "overlapping spans"],
)
def test_the_fast_path_leaves_other_lines_to_rich(line: Text) -> None:
    assert _strip_of_runs(line, Style()) is None
