"""The `T` screen: where compile time went, for the whole run and per compile: the compile-time
timeline (every compile's phases on one time axis) and the stack trie of the compiles' call sites."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from tcdebug.analysis.compile_phases import paused_note, run_totals, timeline_lines
from tcdebug.analysis.stack_trie import trie_lines
from tcdebug.analysis.summary import MAX_TRIE_LINES, TIMELINE_WIDTH
from tcdebug.analysis.why import times_of
from tcdebug.model.session import Session
from tcdebug.screens.widgets.time_chart import TimeChart
from tcdebug.textsafe import safe_line


class TimesScreen(Screen[None]):
    """A bar chart per compile (and the run's total), from `Compile.times`."""

    CSS_PATH = "times_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,T", "app.pop_screen", "Back", id="close_times"),
    ]

    def __init__(self, session: Session, compile_id: str = "") -> None:
        super().__init__()
        self.session = session
        self.compile_id = compile_id  # scrolled to first

    def compose(self) -> ComposeResult:
        yield Static(" compile time: where it went (phases measured by torch; other = inferred)", id="times-title")
        with VerticalScroll(id="times-body"):
            compiles = self.session.ordered_compiles()
            total = run_totals([t for t in (times_of(c) for c in compiles) if t])
            run_head = f"whole run · {len(compiles)} compiles{_paused(total)}"
            yield Static(Text(run_head, style="bold"), classes="times-head")
            chart = TimeChart(id="times-total", classes="times-chart")
            chart.show_times(total)
            yield chart
            timeline = timeline_lines([(c.compile_id, times_of(c)) for c in compiles], TIMELINE_WIDTH, indent="")
            if timeline:  # each compile's phases on one time axis: which compile and phase took the time
                yield Static(Text("timeline (‖ paused)", style="bold"), classes="times-head")
                yield Static(Text("\n".join(safe_line(line) for line in timeline)), id="times-timeline")
            trie = trie_lines(compiles, indent="", max_lines=MAX_TRIE_LINES)
            if trie:  # which lines of the script led to which compiles
                yield Static(Text("call sites (stack trie)", style="bold"), classes="times-head")
                yield Static(Text("\n".join(safe_line(line) for line in trie)), id="times-call-sites")
            for i, comp in enumerate(compiles):
                name = f"{comp.compile_id} {safe_line(comp.shown_name)}{_paused(times_of(comp))}"
                head = Text(name, style="bold")
                yield Static(head, classes="times-head", id=f"times-head-{i}")
                chart = TimeChart(classes="times-chart", id=f"times-compile-{i}")
                chart.show_times(times_of(comp))
                yield chart
        yield Footer()

    def on_mount(self) -> None:
        body = self.query_one("#times-body", VerticalScroll)
        body.focus()
        ids = [c.compile_id for c in self.session.ordered_compiles()]
        if self.compile_id in ids:
            target = self.query_one(f"#times-head-{ids.index(self.compile_id)}")
            self.call_after_refresh(body.scroll_to_widget, target, animate=False, top=True)


def _paused(times: dict[str, Any]) -> str:
    """` · paused 28.9 s (not counted)`: time stopped at pause points, left out of every phase."""
    note = paused_note(times)
    return f" · {note} (not counted)" if note else ""
