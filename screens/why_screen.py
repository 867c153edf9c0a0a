"""The `w` screen: why the selected compile exists, broke, fused, recorded and took its time.

Each part (`tcdebug.analysis.why.WhyPart`) is one option; enter on it shows the stage it is about.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from tcdebug.analysis.hints import Hint
from tcdebug.analysis.why import WhyPart, explain
from tcdebug.model.session import Session
from tcdebug.screens.ref import Ref
from tcdebug.textsafe import safe_line, safe_text

if TYPE_CHECKING:
    from tcdebug.screens.app import TcdebugApp


def part_text(part: WhyPart) -> Text:
    link = f"  → {part.stage} of {part.compile_id}" if part.stage else ""
    text = Text()
    text.append(safe_line(part.title), style="bold")
    text.append(safe_line(link), style="cyan")
    for line in part.lines:
        text.append("\n  " + safe_text(line).replace("\n", "\n  "))
    return text


class WhyScreen(Screen[None]):
    CSS_PATH = "why_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,w", "app.pop_screen", "Back", id="close_why"),
    ]

    def __init__(self, session: Session, compile_id: str, hints: dict[str, list[Hint]] | None = None) -> None:
        """`hints`: the session's hints by compile (`hints_by_compile`), when the caller keeps them."""
        super().__init__()
        self.session = session
        self.compile_id = compile_id
        try:
            self.parts = explain(session, compile_id, hints)
        except Exception as exc:  # noqa: BLE001 - a hostile dump or log: one line, never a traceback
            self.parts = [WhyPart("error", "Why", [f"could not explain {compile_id}: {exc}"], compile_id)]

    def compose(self) -> ComposeResult:
        comp = self.session.compiles[self.compile_id]
        title = f" why {comp.compile_id} {comp.shown_name} · enter: show the stage a part is about"
        yield Static(Text(safe_line(title)), id="why-title")
        yield OptionList(
            *[Option(part_text(p), id=str(i)) for i, p in enumerate(self.parts)],
            id="why-parts",
        )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        part = self.parts[int(event.option.id or 0)]
        if not part.stage or part.compile_id not in self.session.compiles:
            self.notify("this part is about the compile as a whole", timeout=3)
            return
        app = cast("TcdebugApp", self.app)
        app.jump_to(Ref(part.compile_id, part.stage))
