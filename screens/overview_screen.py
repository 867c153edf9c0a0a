"""The `O` screen: the run at a glance, from the same analysis as the `--dump` summary's top
reasons (`tcdebug.analysis.why.overview`): the most expensive compiles, recompile causes and
graph-break types, counted. `enter` on a row shows its compile (or its break, or its recompile).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from tcdebug.analysis.why import OverviewRow, OverviewSection, overview
from tcdebug.model.session import Session
from tcdebug.screens.ref import Ref
from tcdebug.screens.safe_rich import safe_label
from tcdebug.textsafe import safe_line

if TYPE_CHECKING:
    from tcdebug.screens.app import TcdebugApp

# Compile ids named on a counted row before `+N more`.
SHOWN_IDS = 4


def row_text(section: OverviewSection, row: OverviewRow) -> Text:
    """One row as shown: `3x cause  → 0/1, 0/2, 0/3`, or a compile and its time."""
    if section.kind == "expensive":
        return Text(safe_line(row.text))
    ids = ", ".join(row.compile_ids[:SHOWN_IDS])
    more = len(row.compile_ids) - SHOWN_IDS
    text = Text()
    text.append(f"{row.count}x ", style="bold")
    text.append(safe_line(row.text))
    text.append(safe_line(f"  → {ids}" + (f" +{more} more" if more > 0 else "")), style="cyan")
    return text


def overview_rows(session: Session) -> list[tuple[str, Text, Ref | None]]:
    """(option id, text, where enter goes) per line of the screen; headings go nowhere."""
    try:
        sections = overview(session, None)
    except Exception as exc:  # noqa: BLE001 - a hostile dump or log: one line, never a traceback
        return [("error", Text(safe_line(f"could not build the overview: {exc}"), "red"), None)]
    rows: list[tuple[str, Text, Ref | None]] = []
    for s, section in enumerate(sections):
        total = sum(r.count for r in section.rows)
        rows.append((f"h{s}", safe_label(f"{section.title} ({total})", style="bold"), None))
        for r, row in enumerate(section.rows):
            first = row.compile_ids[0] if row.compile_ids else ""
            rows.append((f"r{s}.{r}", row_text(section, row), Ref(first, item=row.item) if first else None))
    if not rows:
        rows.append(("empty", Text("No compiles yet.", "dim"), None))
    return rows


class OverviewScreen(Screen[None]):
    """Top reasons of the whole session, live while the run goes on (`refresh_overview`)."""

    CSS_PATH = "overview_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,O", "app.pop_screen", "Back", id="close_overview"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.rows = overview_rows(session)

    def compose(self) -> ComposeResult:
        title = " overview: the costliest compiles, why it recompiled and broke · enter: show"
        yield Static(Text(title), id="overview-title")
        yield OptionList(*self._options(), id="overview-rows")
        yield Footer()

    def _options(self) -> list[Option]:
        return [Option(text, id=oid, disabled=ref is None) for oid, text, ref in self.rows]

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def refresh_overview(self) -> None:
        """Rebuild from the session (a run or a log still going on); keeps the highlighted row."""
        rows = overview_rows(self.session)
        if [(oid, text.plain) for oid, text, _ in rows] == [(oid, text.plain) for oid, text, _ in self.rows]:
            self.rows = rows
            return
        self.rows = rows
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options(self._options())
        if highlighted is not None and rows:
            options.highlighted = min(highlighted, len(rows) - 1)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        ref = next((ref for oid, _, ref in self.rows if oid == event.option.id), None)
        if ref is None or ref.compile_id not in self.session.compiles:
            return
        cast("TcdebugApp", self.app).jump_to(ref)
