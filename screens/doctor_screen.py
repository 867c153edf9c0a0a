"""The doctor's report (`D` on the help screen): what the torch of this environment lets the capture
do, from `tcdebug doctor`'s child process (the UI never imports torch)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from tcdebug.doctor import DoctorError, doctor

RUNNING = "running tcdebug doctor: a child process imports torch and installs the capture ..."


class DoctorScreen(Screen[None]):
    """`tcdebug doctor`'s text, run in a worker thread when the screen opens."""

    CSS_PATH = "doctor_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,D", "app.pop_screen", "Back", id="close_doctor", tooltip="Close the doctor's report"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(" tcdebug doctor: this environment's torch", id="doctor-title")
        with VerticalScroll(id="doctor-body"):
            yield Static(Text(RUNNING, style="italic"), id="doctor-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#doctor-body", VerticalScroll).focus()
        self.run_doctor()

    @work(thread=True, exclusive=True, group="doctor")
    def run_doctor(self) -> None:
        try:
            worker = get_current_worker()
            report = doctor(cancelled=lambda: worker.is_cancelled)
            text, style = report.text, ""
        except DoctorError as exc:
            text, style = f"tcdebug doctor: {exc}", "bold red"
        if not worker.is_cancelled:
            self.app.call_from_thread(self.show_report, text, style)

    def show_report(self, text: str, style: str = "") -> None:
        """Show the report (its lines are already made safe for the terminal by `tcdebug.doctor`)."""
        self.query_one("#doctor-text", Static).update(Text(text, style=style))
