"""The `o` screen: the script's stdout and stderr (`session.output`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from tcdebug.analysis.live_ranks import is_rank_job, tagged_output
from tcdebug.screens.widgets.code_view import CodeView

if TYPE_CHECKING:
    from tcdebug.screens.app import TcdebugApp


class OutputScreen(Screen[None]):
    CSS_PATH = "output_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,o", "app.pop_screen", "Back", id="close_output"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._shown = -1

    def compose(self) -> ComposeResult:
        yield Static(id="output-title")
        yield CodeView(id="output-text")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_output()
        self.query_one(CodeView).focus()

    def refresh_output(self) -> None:
        """Show the output so far, staying at the bottom when the view was there."""
        app = cast("TcdebugApp", self.app)
        view = self.query_one(CodeView)
        at_end = view.scroll_offset.y >= view.max_scroll_y
        text = tagged_output(app.session) if is_rank_job(app.session) else app.session.output_text()
        if len(text) == self._shown and view.generation:
            return
        self._shown = len(text)
        view.set_document(text or "(no output yet)", "text")
        n_lines = len(view.lines) if text else 0
        self.query_one("#output-title", Static).update(
            f" script output (stdout and stderr) · {n_lines} lines"
        )
        if at_end:
            view.scroll_end(animate=False, immediate=True)
