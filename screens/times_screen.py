"""The `T` screen: where compile time went, for the whole run and per compile.

A session can hold 100,000 compiles: the screen shows one page of `PAGE` compiles at a time (the
page holding the compile it opened on), so its widgets stay bounded; `[` and `]` turn the page.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from tcdebug.analysis.compile_phases import paused_note, run_totals
from tcdebug.analysis.why import times_of
from tcdebug.model.session import Compile, Session
from tcdebug.screens.safe_rich import safe_label
from tcdebug.screens.widgets.time_chart import TimeChart

PAGE = 50  # compiles charted at once


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
        self.compiles: list[Compile] = session.ordered_compiles()
        ids = [c.compile_id for c in self.compiles]
        self.page = ids.index(compile_id) // PAGE if compile_id in ids else 0

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.compiles) // PAGE))

    def compose(self) -> ComposeResult:
        yield Static(
            " compile time: where it went (phases measured by torch; other = inferred)", id="times-title"
        )
        with VerticalScroll(id="times-body"):
            total = run_totals([t for t in (times_of(c) for c in self.compiles) if t])
            run_head = f"whole run · {len(self.compiles)} compiles{_paused(total)}"
            yield Static(Text(run_head, style="bold"), classes="times-head")
            chart = TimeChart(id="times-total", classes="times-chart")
            chart.show_times(total)
            yield chart
            yield Static(self._page_note(), id="times-page")
            yield from self._page_widgets()
        yield Footer()

    def _page_note(self) -> Text:
        if self.pages == 1:
            return Text("")
        first = self.page * PAGE
        last = min(first + PAGE, len(self.compiles))
        return Text(f"compiles {first + 1}-{last} of {len(self.compiles)} · [ and ]: the previous or next {PAGE}",
                    style="dim")  # fmt: skip

    def _page_widgets(self) -> list[Static]:
        """The heads and charts of the current page's compiles."""
        widgets: list[Static] = []
        first = self.page * PAGE
        for i, comp in enumerate(self.compiles[first : first + PAGE], start=first):
            times = times_of(comp)
            head = safe_label(f"{comp.compile_id} {comp.shown_name}{_paused(times)}", style="bold")
            widgets.append(Static(head, classes="times-head times-page-item", id=f"times-head-{i}"))
            chart = TimeChart(classes="times-chart times-page-item", id=f"times-compile-{i}")
            chart.show_times(times)
            widgets.append(chart)
        return widgets

    def on_mount(self) -> None:
        body = self.query_one("#times-body", VerticalScroll)
        body.focus()
        ids = [c.compile_id for c in self.compiles]
        if self.compile_id in ids:
            target = self.query_one(f"#times-head-{ids.index(self.compile_id)}")
            self.call_after_refresh(body.scroll_to_widget, target, animate=False, top=True)

    async def action_page(self, step: int) -> None:
        """Show the next (`step` 1) or previous (-1) page of compiles."""
        page = min(max(self.page + step, 0), self.pages - 1)
        if page == self.page:
            return
        self.page = page
        body = self.query_one("#times-body", VerticalScroll)
        await self.query(".times-page-item").remove()
        self.query_one("#times-page", Static).update(self._page_note())
        await body.mount_all(self._page_widgets())
        self.call_after_refresh(body.scroll_to_widget, self.query_one(f"#times-head-{page * PAGE}"),
                                animate=False, top=True)  # fmt: skip


def _paused(times: dict[str, Any]) -> str:
    """` · paused 28.9 s (not counted)`: time stopped at pause points, left out of every phase."""
    note = paused_note(times)
    return f" · {note} (not counted)" if note else ""
