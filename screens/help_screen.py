"""The `?` screen: every key, from the same `Binding`s the app and screens use."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tcdebug.screens.accuracy_screen import AccuracyScreen
from tcdebug.screens.diff_screen import DiffScreen
from tcdebug.screens.doctor_screen import DoctorScreen
from tcdebug.screens.main_screen import MainScreen
from tcdebug.screens.output_screen import OutputScreen
from tcdebug.screens.overview_screen import OverviewScreen
from tcdebug.screens.ranks_screen import RanksScreen
from tcdebug.screens.rerun_screen import RerunScreen
from tcdebug.screens.search_screen import SearchScreen
from tcdebug.screens.symbols_screen import SymbolsScreen
from tcdebug.screens.times_screen import TimesScreen
from tcdebug.screens.trail_screen import TrailScreen
from tcdebug.screens.why_screen import WhyScreen
from tcdebug.screens.widgets.timeline import GLYPHS

# Keys handled by widgets rather than by a named binding.
WIDGET_KEYS: tuple[tuple[str, str, str], ...] = (
    ("up/down", "", "timeline: move; stage view: scroll"),
    ("enter, left/right", "", "timeline: fold a compile, open a stage's kernels"),
    ("tab / shift+tab", "", "move between timeline, stage view and search box"),
    ("pgup/pgdn, home/end", "", "scroll the stage view"),
    ("left/right", "", "stage view: scroll sideways (long lines)"),
    ("enter / down, up", "", "search box: next / previous match"),
    ("escape", "", "close the search box, then clear the search; close a screen"),
)


def key_display(key: str) -> str:
    names = {"slash": "/", "question_mark": "?", "left_square_bracket": "[", "right_square_bracket": "]"}
    return ", ".join(names.get(k.strip(), k.strip()) for k in key.split(","))


def binding_rows(bindings: list[BindingType]) -> list[tuple[str, str, str]]:
    rows = []
    for binding in bindings:
        if isinstance(binding, Binding) and binding.id and not binding.id.endswith("_unavailable"):
            rows.append((key_display(binding.key), binding.id, binding.tooltip or binding.description))
    return rows


def key_sections(app_bindings: list[BindingType]) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """(screen, rows of (key, binding id, description)) for every screen with keys; `app_bindings`
    are the keys of the app showing the help (passed in: the help screen does not import the app)."""
    return [
        ("everywhere", binding_rows(app_bindings)),
        ("timeline and stage view", binding_rows(MainScreen.BINDINGS) + list(WIDGET_KEYS)),
        ("re-run editor (r)", binding_rows(RerunScreen.BINDINGS)),
        ("diff (d)", binding_rows(DiffScreen.BINDINGS)),
        ("output (o)", binding_rows(OutputScreen.BINDINGS)),
        ("ranks (R, multi-rank traces)", binding_rows(RanksScreen.BINDINGS)),
        ("why (w)", binding_rows(WhyScreen.BINDINGS)),
        ("compile times (T)", binding_rows(TimesScreen.BINDINGS)),
        ("overview (O)", binding_rows(OverviewScreen.BINDINGS)),
        ("search every stage (ctrl+f)", binding_rows(SearchScreen.BINDINGS)),
        ("follow (f)", binding_rows(TrailScreen.BINDINGS)),
        ("symbols (S)", binding_rows(SymbolsScreen.BINDINGS)),
        ("accuracy (A)", binding_rows(AccuracyScreen.BINDINGS)),
        ("help (?)", binding_rows(HelpScreen.BINDINGS)),
        ("doctor (D in help)", binding_rows(DoctorScreen.BINDINGS)),
    ]


def help_sections(app_bindings: list[BindingType]) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """What `?` shows: every screen's keys, then the legend of glyphs, as (key or glyph, binding id,
    description)."""
    return [*key_sections(app_bindings), ("glyphs", [(glyph, "", meaning) for glyph, meaning in GLYPHS])]


def keys_table(app_bindings: list[BindingType]) -> list[tuple[str, str, str]]:
    """(key, binding id, description) for every key, app-wide keys first."""
    return [row for _, rows in key_sections(app_bindings) for row in rows]


class HelpScreen(ModalScreen[None]):
    CSS_PATH = "help_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "app.pop_screen", "Close", id="close_help"),
        Binding(
            "D",
            "doctor",
            "Doctor",
            id="doctor",
            tooltip="tcdebug doctor: which stages and features this environment's torch allows",
        ),
    ]

    def action_doctor(self) -> None:
        self.app.push_screen(DoctorScreen())

    def compose(self) -> ComposeResult:
        keys = Table(box=None, expand=True, show_edge=False, pad_edge=False)
        keys.add_column("key", style="bold cyan", max_width=16, overflow="fold")
        keys.add_column("description", ratio=1)
        keys.add_column("id", style="dim", no_wrap=True, max_width=22, overflow="ellipsis")
        glyphs = Table(box=None, expand=True, show_edge=False, pad_edge=False, show_header=False)
        glyphs.add_column("glyph", no_wrap=True, width=6)
        glyphs.add_column("meaning", ratio=1)
        for section, rows in help_sections(type(self.app).BINDINGS):
            if section == "glyphs":
                glyphs.add_row(Text(section, "bold underline"), "")
                for glyph, _, meaning in rows:
                    glyphs.add_row(Text(glyph, "grey50" if glyph == "grey" else "bold"), meaning)
                continue
            keys.add_row(Text(section, "bold underline"), "", "")
            for key, binding_id, description in rows:
                keys.add_row(key, description, binding_id)
        with VerticalScroll(id="help-body") as body:
            body.border_title = "tcdebug keys"
            body.border_subtitle = "escape to close"
            yield Static(
                Text.from_markup(
                    "Step through torch.compile: [b]n[/b] steps to the next stage, [b]c[/b] runs to the "
                    "next breakpoint, [b]b[/b] breaks on every stage of the selected kind. The footer "
                    "shows the keys that work now; every key is below, then what each glyph means. [b]D[/b] "
                    "shows what this environment's torch lets tcdebug capture (tcdebug doctor)."
                ),
                id="help-intro",
            )
            yield Static(keys, id="help-table")
            yield Static(glyphs, id="help-glyphs")
