"""The `A` screen: the selected compile compared with eager on the real inputs of its call.

The report (`tcdebug.analysis.accuracy_report`): each layer's verdict by torch's accuracy criterion,
the first post-grad node beyond tolerance with its user line and kernel, what could not be
compared, and the repro. It repaints when the target's answer arrives (`refresh_report`).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from tcdebug.analysis.accuracy_report import report_lines
from tcdebug.model.session import Session
from tcdebug.textsafe import safe_line

_STYLES = (
    ("DIFFERS", "bold red"),
    ("failed", "red"),
    ("first diverging node", "bold"),
    ("not compared", "yellow"),
    ("reassociation", "cyan"),
)


def report_text(lines: list[str]) -> Text:
    text = Text()
    for i, line in enumerate(lines):
        style = "bold" if i == 0 else next((s for word, s in _STYLES if word in line), "")
        text.append(("\n" if i else "") + safe_line(line), style)
    return text


class AccuracyScreen(Screen[None]):
    CSS_PATH = "accuracy_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,A", "app.pop_screen", "Back", id="close_accuracy"),
    ]

    def __init__(self, session: Session, compile_id: str) -> None:
        super().__init__()
        self.session = session
        self.compile_id = compile_id

    def compose(self) -> ComposeResult:
        comp = self.session.compiles[self.compile_id]
        yield Static(
            Text(safe_line(f" accuracy of {comp.compile_id} {comp.shown_name}: compiled vs eager")),
            id="accuracy-title",
        )
        with VerticalScroll(id="accuracy-scroll"):
            yield Static(id="accuracy-report")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.refresh_report()
        self.query_one("#accuracy-scroll", VerticalScroll).focus()

    def refresh_report(self) -> None:
        comp = self.session.compiles.get(self.compile_id)
        if comp is None:
            return
        try:
            lines = report_lines(comp)
        except Exception as exc:  # noqa: BLE001 - a hostile dump: one line, never a traceback
            lines = [f"could not show the comparison of {self.compile_id}: {exc}"]
        self.query_one("#accuracy-report", Static).update(report_text(lines))
