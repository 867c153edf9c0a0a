"""The `T` screen: where compile time went, for the whole run and per compile: the compile-time
timeline of the page's compiles (their phases on one time axis) and the stack trie of the compiles'
call sites.

A session can hold 100,000 compiles: the screen charts one page of `PAGE` compiles at a time (the
page holding the compile it opened on) in one widget, and `[` and `]` turn the page. Above
`ADD_UP_IN_THREAD` compiles, ordering them and adding up the run's total run in a thread, so the
screen (and `escape`, `q`) answers at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from tcdebug.analysis.compile_phases import paused_note, run_totals, timeline_lines
from tcdebug.analysis.stack_trie import trie_lines
from tcdebug.analysis.summary import MAX_TRIE_LINES, TIMELINE_WIDTH
from tcdebug.analysis.why import times_of
from tcdebug.model.session import Compile, Session
from tcdebug.screens.safe_rich import safe_label
from tcdebug.screens.widgets.time_chart import TimeChart, chart_text
from tcdebug.textsafe import safe_line

PAGE = 50  # compiles charted at once, in one widget
ADD_UP_IN_THREAD = 2_000  # compiles


class TimesScreen(Screen[None]):
    """A bar chart per compile (and the run's total), from `Compile.times`, one page at a time."""

    CSS_PATH = "times_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,T", "app.pop_screen", "Back", id="close_times"),
        Binding("right_square_bracket", "page(1)", "Next compiles", id="times_next_page",
                tooltip=f"The next {PAGE} compiles"),
        Binding("left_square_bracket", "page(-1)", "Previous compiles", id="times_prev_page",
                tooltip=f"The previous {PAGE} compiles"),
    ]  # fmt: skip

    def __init__(self, session: Session, compile_id: str = "") -> None:
        super().__init__()
        self.session = session
        self.compile_id = compile_id  # scrolled to first
        self.compiles: list[Compile] = []
        self.total: dict[str, Any] = {}
        self.page = 0
        self.trie: list[str] = []  # the call sites of every compile (`analysis.stack_trie`)
        self.head_lines: dict[str, int] = {}  # compile id -> the line of its head in the page's text
        self.ready = False  # ordered and added up
        if len(session.compiles) <= ADD_UP_IN_THREAD:
            self._add_up()

    def _add_up(self, cancelled: Callable[[], bool] = lambda: False) -> None:
        """Order the compiles and add up the run's phases (in a thread for a big session, which
        stops at `cancelled()`: the screen closed or the app quit)."""
        compiles = list(self.session.compiles.values())
        keys: list[tuple[Any, ...]] = []
        times: list[Mapping[str, Any]] = []
        for i, comp in enumerate(compiles):
            if not i % 2_000 and cancelled():
                return
            keys.append(self.session.order_key(comp))
            t = times_of(comp)
            if t:
                times.append(t)
        compiles = [compiles[i] for i in sorted(range(len(compiles)), key=keys.__getitem__)]
        total = run_totals(times)
        self.trie = [] if cancelled() else trie_lines(compiles, indent="", max_lines=MAX_TRIE_LINES)
        page = 0
        for i, comp in enumerate(compiles):
            if comp.compile_id == self.compile_id:
                page = i // PAGE
                break
        self.compiles, self.total, self.page, self.ready = compiles, total, page, True

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.compiles) // PAGE))

    def compose(self) -> ComposeResult:
        yield Static(" compile time: where it went (phases measured by torch; other = inferred)", id="times-title")
        with VerticalScroll(id="times-body"):
            yield Static(self._run_head(), classes="times-head", id="times-run")
            yield TimeChart(id="times-total", classes="times-chart")
            yield Static(id="times-timeline")
            yield Static(id="times-call-sites")
            yield Static(id="times-page")
            yield Static(id="times-compiles", classes="times-chart")
        yield Footer()

    def _run_head(self) -> Text:
        if not self.ready:
            return Text(f"whole run · adding up {len(self.session.compiles)} compiles…", style="bold")
        return Text(f"whole run · {len(self.compiles)} compiles{_paused(self.total)}", style="bold")  # text-safe: numbers

    def on_mount(self) -> None:
        self.query_one("#times-body", VerticalScroll).focus()
        if self.ready:
            self._show()
        else:
            self.run_worker(self._add_up_in_thread, thread=True, exclusive=True)

    def _add_up_in_thread(self) -> None:
        worker = get_current_worker()
        self._add_up(lambda: worker.is_cancelled)
        if self.ready and not worker.is_cancelled and self.is_attached:
            self.app.call_from_thread(self._show)

    def _show(self) -> None:
        if not self.is_attached:
            return
        self.query_one("#times-run", Static).update(self._run_head())
        self.query_one("#times-total", TimeChart).show_times(self.total)
        self.query_one("#times-call-sites", Static).update(_titled("call sites (stack trie)", self.trie))
        self._show_page()
        if self.compile_id in self.head_lines:
            self.call_after_refresh(self._scroll_to_compile, self.compile_id)

    def _show_page(self) -> None:
        """The page's timeline (its compiles' phases on one time axis, `‖` paused), note and charts."""
        timeline = timeline_lines([(c.compile_id, times_of(c)) for c in self.page_compiles()], TIMELINE_WIDTH, indent="")
        self.query_one("#times-timeline", Static).update(_titled("timeline (‖ paused)", timeline))
        self.query_one("#times-page", Static).update(self._page_note())
        self.query_one("#times-compiles", Static).update(self._page_text())

    def _page_note(self) -> Text:
        if self.pages == 1:
            return Text("")
        first = self.page * PAGE
        last = min(first + PAGE, len(self.compiles))
        return Text(f"compiles {first + 1}-{last} of {len(self.compiles)} · [ and ]: the previous or next {PAGE}",
                    style="dim")  # fmt: skip

    def page_compiles(self) -> list[Compile]:
        """The compiles charted now (one page)."""
        first = self.page * PAGE
        return self.compiles[first : first + PAGE]

    def _page_text(self) -> Text:
        """The current page's compiles, each a bold head and its chart, as one text: one widget
        for the page, however many compiles the session holds."""
        text = Text()
        self.head_lines = {}
        for comp in self.page_compiles():
            times = times_of(comp)
            text.append("\n")
            self.head_lines[comp.compile_id] = text.plain.count("\n")
            text.append_text(safe_label(f"{comp.compile_id} {comp.shown_name}{_paused(times)}", style="bold"))
            text.append("\n")
            text.append_text(chart_text(times))
            text.append("\n")
        return text

    def _scroll_to_compile(self, compile_id: str) -> None:
        body = self.query_one("#times-body", VerticalScroll)
        page = self.query_one("#times-compiles", Static)
        body.scroll_to(y=page.virtual_region.y + self.head_lines.get(compile_id, 0), animate=False)

    def action_page(self, step: int) -> None:
        """Show the next (`step` 1) or previous (-1) page of compiles."""
        page = min(max(self.page + step, 0), self.pages - 1)
        if not self.ready or page == self.page:
            return
        self.page = page
        self._show_page()
        self.call_after_refresh(self._scroll_to_compile, self.page_compiles()[0].compile_id)


def _paused(times: Mapping[str, Any]) -> str:
    """` · paused 28.9 s (not counted)`: time stopped at pause points, left out of every phase."""
    note = paused_note(times)
    return f" · {note} (not counted)" if note else ""


def _titled(title: str, lines: list[str]) -> Text:
    """A bold title over the lines (made safe: call sites and compile ids come from logs), or nothing."""
    if not lines:
        return Text("")
    text = Text(title, style="bold")
    text.append("\n" + "\n".join(safe_line(line) for line in lines))
    return text
