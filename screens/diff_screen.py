"""The `d` screen: one stage of a compile next to the same stage of another compile of its frame.

Typical use: after a recompile, `8` became `s0` in the Dynamo graph and new symbolic
guards appeared. Side by side (default) or unified (`s` switches); `[`/`]` pick
the other compile, `{`/`}` the stage. The pure functions here build the lines.
"""

from __future__ import annotations

import difflib
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from tcdebug import stages as stage_catalog
from tcdebug.screens.safe_rich import safe_rich
from tcdebug.screens.widgets.highlight import plain_lines
from tcdebug.screens.widgets.styled_view import StyledView
from tcdebug.session import Compile, Session, Stage

MAX_CELL = 100  # the left column of the side-by-side view is cut at this width
DEFAULT_STAGE = "dynamo_graph"


def find_stage(comp: Compile, key: str) -> Stage | None:
    """`key` in `comp`, else the stage of the same id with another part (forward vs inference)."""
    stage = comp.stages.get(key)
    if stage is not None:
        return stage
    stage_id = stage_catalog.split_key(key)[0]
    same = [s for s in comp.ordered_stages() if s.stage_id == stage_id and s.captured]
    return same[0] if same else None


def others(session: Session, compile_id: str) -> list[str]:
    """The other compiles of the same frame, in order."""
    return [c.compile_id for c in session.same_frame(compile_id) if c.compile_id != compile_id]


def default_other(session: Session, compile_id: str) -> str | None:
    """The compile just before `compile_id` in its frame (what it recompiled from), else the next."""
    ids = [c.compile_id for c in session.same_frame(compile_id)]
    if compile_id not in ids or len(ids) < 2:
        return None
    index = ids.index(compile_id)
    return ids[index - 1] if index > 0 else ids[index + 1]


def ordered_pair(session: Session, a: str, b: str) -> tuple[str, str]:
    """(older, newer)."""
    ids = [c.compile_id for c in session.same_frame(a)]
    if a in ids and b in ids and ids.index(a) > ids.index(b):
        return b, a
    return a, b


def unified_lines(old: str, new: str, old_name: str, new_name: str, context: int = 3) -> list[Text]:
    a, b = plain_lines(old), plain_lines(new)
    if a == b:
        return [Text(f"{old_name} and {new_name}: identical ({len(a)} lines)", "green")]
    out: list[Text] = []
    for line in difflib.unified_diff(a, b, old_name, new_name, n=context, lineterm=""):
        if line.startswith(("---", "+++")):
            out.append(Text(line, "bold"))
        elif line.startswith("@@"):
            out.append(Text(line, "cyan"))
        elif line.startswith("-"):
            out.append(Text(line, "red"))
        elif line.startswith("+"):
            out.append(Text(line, "green"))
        else:
            out.append(Text(line))
    return out


def _cell(line: str, width: int) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


def side_by_side_lines(old: str, new: str, old_name: str, new_name: str) -> list[Text]:
    a, b = plain_lines(old), plain_lines(new)
    width = max(12, min(MAX_CELL, max((len(x) for x in a), default=0)))
    rows: list[tuple[str, str, str]] = []  # (left, right, tag)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        left, right = a[i1:i2], b[j1:j2]
        for k in range(max(len(left), len(right))):
            rows.append((left[k] if k < len(left) else "", right[k] if k < len(right) else "", tag))
    styles = {"equal": ("", ""), "replace": ("red", "green"), "delete": ("red", ""), "insert": ("", "green")}
    marks = {"equal": " ", "replace": "~", "delete": "-", "insert": "+"}
    out = [Text.assemble((_cell(old_name, width).ljust(width), "bold"), "   ", (new_name, "bold"))]
    if a == b:
        out.append(Text(f"identical ({len(a)} lines)", "green"))
    for left, right, tag in rows:
        left_style, right_style = styles[tag]
        line = Text()
        line.append(_cell(left, width).ljust(width), left_style)
        line.append(f" {marks[tag]} ", "bold yellow" if tag != "equal" else "dim")
        line.append(right, right_style)
        out.append(line)
    return out


def diff_counts(old: str, new: str) -> tuple[int, int]:
    """(lines removed, lines added)."""
    removed = added = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, plain_lines(old), plain_lines(new)
    ).get_opcodes():
        if tag in ("replace", "delete"):
            removed += i2 - i1
        if tag in ("replace", "insert"):
            added += j2 - j1
    return removed, added


class DiffScreen(Screen[None]):
    CSS_PATH = "diff_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "toggle_layout", "Side by side / unified", id="diff_layout"),
        Binding("left_square_bracket", "other(-1)", "Other compile: older", id="diff_prev_compile"),
        Binding("right_square_bracket", "other(1)", "Other compile: newer", id="diff_next_compile"),
        Binding("left_curly_bracket", "stage(-1)", "Previous stage", id="diff_prev_stage"),
        Binding("right_curly_bracket", "stage(1)", "Next stage", id="diff_next_stage"),
        Binding("escape,d", "close", "Back", id="diff_close"),
    ]

    def __init__(
        self,
        session: Session,
        compile_id: str,
        key: str = "",
        other_id: str | None = None,
        *,
        side_by_side: bool = True,
    ) -> None:
        """Compare stage `key` (default: the Dynamo graph) of `compile_id` with `other_id`
        (default: the compile before it in the same frame)."""
        super().__init__()
        self.session = session
        self.compile_id = compile_id
        self.key = key or DEFAULT_STAGE
        self.other_id = other_id or default_other(session, compile_id)
        self.side_by_side = side_by_side

    def compose(self) -> ComposeResult:
        yield Static(id="diff-title")
        yield StyledView(id="diff-view")
        yield Footer()

    def on_mount(self) -> None:
        self.render_diff()
        self.query_one(StyledView).focus()

    @property
    def view(self) -> StyledView:
        return self.query_one(StyledView)

    def texts(self) -> tuple[str, str, str, str] | str:
        """(old text, new text, old name, new name), or why there is nothing to compare."""
        comp = self.session.compiles.get(self.compile_id)
        if comp is None:
            return f"compile {self.compile_id} is gone"
        if self.other_id is None:
            return f"{self.compile_id} is the only compile of its frame: nothing to compare it with"
        other = self.session.compiles.get(self.other_id)
        if other is None:
            return f"compile {self.other_id} is gone"
        older, newer = ordered_pair(self.session, self.other_id, self.compile_id)
        stages = {}
        for cid in (older, newer):
            stage = find_stage(self.session.compiles[cid], self.key)
            if stage is None or not stage.captured:
                return f"{cid} has no captured {self.key} stage to compare"
            stages[cid] = stage
        return (
            stages[older].get_text(),
            stages[newer].get_text(),
            f"{older} {stages[older].key}",
            f"{newer} {stages[newer].key}",
        )

    def render_diff(self) -> None:
        found = self.texts()
        title = self.query_one("#diff-title", Static)
        if isinstance(found, str):
            title.update(safe_rich(Text.assemble(("diff ", "bold"), (found, "yellow")), one_line=True))
            self.view.set_lines([Text(found, "yellow")])
            return
        old, new, old_name, new_name = found
        removed, added = diff_counts(old, new)
        layout = "side by side" if self.side_by_side else "unified"
        title.update(
            safe_rich(
                Text.assemble(
                    ("diff ", "bold"),
                    (old_name, "bold red"),
                    " → ",
                    (new_name, "bold green"),
                    f"   -{removed} +{added} lines · {layout}",
                ),
                one_line=True,
            )
        )
        make = side_by_side_lines if self.side_by_side else unified_lines
        self.view.set_lines(make(old, new, old_name, new_name), key=(old_name, new_name, layout))

    def action_toggle_layout(self) -> None:
        self.side_by_side = not self.side_by_side
        self.render_diff()

    def action_other(self, direction: int) -> None:
        """Compare with the next older (-1) or newer (1) compile of the frame."""
        choices = others(self.session, self.compile_id)
        if not choices:
            self.notify("no other compile of this frame", severity="warning")
            return
        ids = [c.compile_id for c in self.session.same_frame(self.compile_id)]
        current = ids.index(self.other_id) if self.other_id in ids else ids.index(self.compile_id)
        index = current
        while True:
            index = (index + direction) % len(ids)
            if ids[index] != self.compile_id:
                break
        self.other_id = ids[index]
        self.render_diff()

    def action_stage(self, direction: int) -> None:
        """Compare the previous (-1) or next (1) stage both compiles have."""
        comp = self.session.compiles.get(self.compile_id)
        other = self.session.compiles.get(self.other_id or "")
        if comp is None or other is None:
            return
        keys = [s.key for s in comp.ordered_stages() if s.captured and find_stage(other, s.key) is not None]
        if not keys:
            return
        index = keys.index(self.key) if self.key in keys else -1
        self.key = keys[(index + direction) % len(keys)]
        self.render_diff()

    def action_close(self) -> None:
        self.dismiss()
