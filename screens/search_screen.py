"""The `ctrl+f` screen: search every stage of every compile.

The search runs in a thread worker over a snapshot of the session's stages (`search_stages`),
cancelled by the next keystroke, and stops at `MAX_HITS`; the UI thread only lists the results.
`enter` on a result shows its stage with the line marked and the match in view.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from tcdebug.model.session import Session, Stage
from tcdebug.screens.content import shown_text
from tcdebug.screens.widgets.key_footer import KeyFooter
from tcdebug.textsafe import safe_line

if TYPE_CHECKING:
    from tcdebug.screens.app import TcdebugApp

# The search stops at this many matches: the list stays quick to build and to move through.
MAX_HITS = 500
# Keystrokes closer together than this start one search, after the last.
DEBOUNCE_S = 0.15
# Characters of a result's line shown before the match.
CONTEXT = 24
# Characters of a stage's text searched between two pauses (see `search_stages`).
CHUNK = 1 << 16


@dataclass(frozen=True)
class SearchHit:
    """A match: the compile, the stage key, the 1-based line and 0-based column, the line."""

    compile_id: str
    key: str
    line: int
    column: int
    text: str


@dataclass
class SearchResult:
    hits: list[SearchHit]
    stages: int  # stages searched
    capped: bool  # stopped at the limit: there are more matches


def stage_snapshot(session: Session) -> list[tuple[str, Stage]]:
    """(compile id, stage) of every captured stage, in timeline order: taken on the UI thread, so the
    worker never walks dicts the session's events change."""
    return [
        (comp.compile_id, stage)
        for comp in session.ordered_compiles()
        for stage in comp.ordered_stages()
        if stage.captured
    ]


def search_stages(
    stages: list[tuple[str, Stage]],
    term: str,
    *,
    limit: int = MAX_HITS,
    should_stop: Callable[[], bool] = lambda: False,
    pause: Callable[[], None] = lambda: None,
) -> SearchResult | None:
    """Every line of `stages` that holds `term` (case-insensitive unless it has capitals, as `/`),
    one hit per line, up to `limit`. None when `should_stop()` said so.

    Each text is read in pieces of about `CHUNK` characters, `pause()` between them: a worker
    thread gives the UI thread the GIL there (one long `str.lower` would hold it)."""
    fold = term == term.lower()
    hits: list[SearchHit] = []
    searched = 0
    for compile_id, stage in stages:
        if should_stop():
            return None
        searched += 1
        text = shown_text(stage)
        line, start = 1, 0  # the line number at `start`, where the next piece begins
        while start < len(text):
            end = text.find("\n", start + CHUNK)
            end = len(text) if end == -1 else end + 1  # a piece ends at the end of a line
            piece = text[start:end]
            for number, column, whole in _piece_hits(piece, term, fold):
                hits.append(SearchHit(compile_id, stage.key, line + number, column, whole))
                if len(hits) >= limit:
                    return SearchResult(hits, searched, True)
            line += piece.count("\n")
            start = end
            pause()
            if should_stop():
                return None
    return SearchResult(hits, searched, False)


def _piece_hits(piece: str, term: str, fold: bool) -> list[tuple[int, int, str]]:
    """(line within `piece` from 0, column, the line) of each line of `piece` that holds `term`."""
    haystack = piece.lower() if fold else piece
    if len(haystack) != len(piece):  # a character whose lower case is longer: line by line
        out = []
        for number, text in enumerate(piece.split("\n")):
            column = text.lower().find(term)
            if column != -1:
                out.append((number, _original_column(text, column), text))
        return out
    out = []
    number, line_start = 0, 0
    at = haystack.find(term)
    while at != -1:
        number += piece.count("\n", line_start, at)
        line_start = piece.rfind("\n", 0, at) + 1
        end = piece.find("\n", at)
        end = len(piece) if end == -1 else end
        out.append((number, at - line_start, piece[line_start:end]))
        at = haystack.find(term, end)  # one hit per line
    return out


def _original_column(text: str, lowered_column: int) -> int:
    """The column in `text` of a column in `text.lower()` (where some lower cases are longer)."""
    cells = 0
    for k, char in enumerate(text):
        if cells >= lowered_column:
            return k
        cells += len(char.lower())
    return len(text)


def hit_text(hit: SearchHit, size: int) -> Text:
    """`0/1 dynamo_graph:12  …context match…`, the match in bold."""
    where = safe_line(f"{hit.compile_id} {hit.key}:{hit.line}")
    line = hit.text.replace("\t", " ")
    start = max(0, hit.column - CONTEXT)
    start += len(line[start : hit.column]) - len(line[start : hit.column].lstrip())  # no indentation
    shown = ("…" if start else "") + line[start:].strip("\n")
    offset = hit.column - start + (1 if start else 0)
    shown_safe = safe_line(shown)
    text = Text()
    text.append(where, style="cyan")
    text.append("  ")
    if shown_safe == shown:  # nothing replaced: the offsets hold
        text.append(shown[:offset])
        text.append(shown[offset : offset + size], style="bold reverse")
        text.append(shown[offset + size :])
    else:
        text.append(shown_safe)
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


class SearchScreen(Screen[None]):
    """A search box, a status line and the results; enter shows a result in the stage view."""

    CSS_PATH = "search_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back", id="close_search_all"),
        Binding("ctrl+f", "focus_input", "Search box", id="search_all_box", tooltip="Back to the search box"),
        Binding(
            "down",
            "focus_results",
            "Results",
            id="search_all_results",
            show=False,
            tooltip="From the search box: the results",
        ),
    ]

    class Found(Message):
        """Posted by the search worker: the result for search number `generation`."""

        def __init__(self, generation: int, term: str, result: SearchResult, seconds: float) -> None:
            super().__init__()
            self.generation = generation
            self.term = term
            self.result = result
            self.seconds = seconds

    def __init__(self, session: Session, term: str = "") -> None:
        super().__init__()
        self.session = session
        self.term = term
        self.generation = 0
        self.hits: list[SearchHit] = []
        self.searching = False

    def compose(self) -> ComposeResult:
        yield Static(" search every stage of every compile · enter: show the line", id="search-all-title")
        yield Input(value=self.term, placeholder="text to find in every stage", id="search-all-input")
        yield Static("", id="search-all-status")
        yield OptionList(id="search-all-results")
        yield KeyFooter(order=(), compact=True)

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        if self.term:
            self._start(self.term)

    def action_focus_input(self) -> None:
        self.query_one(Input).focus()

    def action_focus_results(self) -> None:
        results = self.query_one(OptionList)
        if self.hits:
            results.focus()
            if results.highlighted is None:
                results.highlighted = 0

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "focus_results":  # `down` moves inside the results once they have the focus
            return isinstance(self.focused, Input)
        return True

    @on(Input.Changed, "#search-all-input")
    def _changed(self, event: Input.Changed) -> None:
        self.generation += 1
        self.workers.cancel_group(self, "search-all")
        generation = self.generation
        self.set_timer(DEBOUNCE_S, lambda: self._start_if_current(generation, event.value))

    @on(Input.Submitted, "#search-all-input")
    def _submitted(self, event: Input.Submitted) -> None:
        self.action_focus_results()

    def _start_if_current(self, generation: int, term: str) -> None:
        if generation == self.generation:
            self._start(term)

    def _start(self, term: str) -> None:
        self.term = term
        self.generation += 1
        results = self.query_one(OptionList)
        if not term:
            self.hits = []
            results.clear_options()
            self._status("")
            return
        self.searching = True
        self._status(f"searching for {term!r}…")
        self._search(self.generation, term, stage_snapshot(self.session))

    @work(thread=True, exclusive=True, group="search-all")
    def _search(self, generation: int, term: str, stages: list[tuple[str, Stage]]) -> None:
        worker = get_current_worker()
        started = time.monotonic()
        app = cast("TcdebugApp", self.app)

        def pause() -> None:
            time.sleep(0)  # the GIL to the UI thread, if it waits
            app._yield_to_input()  # and more while keys are pressed

        # A new keystroke cancels this worker (exclusive), so it stops at the next piece of text.
        result = search_stages(stages, term, should_stop=lambda: worker.is_cancelled, pause=pause)
        if result is not None and not worker.is_cancelled:
            self.post_message(self.Found(generation, term, result, time.monotonic() - started))

    def on_search_screen_found(self, message: SearchScreen.Found) -> None:
        message.stop()
        if message.generation != self.generation:
            return  # a search overtaken by a newer one
        self.searching = False
        result = message.result
        self.hits = result.hits
        results = self.query_one(OptionList)
        results.clear_options()
        size = len(message.term)
        width = max(20, results.scrollable_content_region.width - 2)
        options = []
        for i, hit in enumerate(self.hits):
            text = hit_text(hit, size)
            text.truncate(width, overflow="ellipsis")  # one row per result, however long its line
            options.append(Option(text, id=str(i)))
        results.add_options(options)
        compiles = len({hit.compile_id for hit in self.hits})
        if not self.hits:
            status = f"no matches in {result.stages} stages"
        elif result.capped:
            status = f"the first {len(self.hits)} matches (more not listed: make the search longer)"
        else:
            status = (
                f"{len(self.hits)} matching lines in {compiles} compiles ({result.stages} stages searched)"
            )
        self._status(status)

    def _status(self, text: str) -> None:
        self.query_one("#search-all-status", Static).update(Text(safe_line(text), style="dim"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        hit = self.hits[int(event.option.id or 0)]
        if hit.compile_id not in self.session.compiles:
            return
        cast("TcdebugApp", self.app).search_jump(hit, self.term)
