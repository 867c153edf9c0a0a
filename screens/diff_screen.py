"""The `d` screen: one stage of a compile next to the same stage of another compile of its frame.

Typical use: after a recompile, `8` became a symbol (`s77`) in the Dynamo graph and new
symbolic guards appeared. Unified below 140 columns, else side by side (`s` switches); `i`
ignores symbol names and addresses; `[`/`]` pick the other compile, `{`/`}` the stage.
The pure functions here build the lines; what changed inside a line is marked. A legend under
the title names each size symbol either side shows by its origin (`s77 = L['x'].size()[0]`).
"""

from __future__ import annotations

import difflib
import re
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import Compile, Session, Stage
from tcdebug.screens.safe_rich import safe_rich
from tcdebug.screens.widgets.highlight import plain_lines
from tcdebug.screens.widgets.key_footer import KeyFooter
from tcdebug.screens.widgets.split_view import SplitRow, SplitView
from tcdebug.screens.widgets.styled_view import StyledView
from tcdebug.textsafe import safe_line
from tcdebug.torchtext import symbol_names
from tcdebug.torchtext.stage_text import full_text, plural

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


# Names that change between compiles without meaning a change: Dynamo's size symbols (s0, s77,
# unbacked u3) and object addresses. `normalise` maps them to one spelling.
_SYMBOL_RE = re.compile(r"\b([su])\d+\b")
_ADDRESS_RE = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")
_OBJECT_ID_RE = re.compile(r"\b\d{12,}\b")  # id() of an object, as ___check_type_id guards print it
_LATENCY_RE = re.compile(r"(Guard latency = )[0-9.]+( us)")


def normalise(text: str) -> str:
    """`s0`/`s77` → `s?`, `u3` → `u?`, addresses and object ids → `0x?`/`<id>`, guard latency →
    `?`: only real changes remain in a diff."""
    text = _SYMBOL_RE.sub(lambda m: m.group(1) + "?", text)
    text = _ADDRESS_RE.sub("0x?", text)
    text = _OBJECT_ID_RE.sub("<id>", text)
    return _LATENCY_RE.sub(r"\1?\2", text)


def changed_spans(a: str, b: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Where two versions of a line differ: (spans in a, spans in b), by characters."""
    left: list[tuple[int, int]] = []
    right: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            left.append((i1, i2))
        if j2 > j1:
            right.append((j1, j2))
    return left, right


OLD_STYLE, NEW_STYLE = "red", "green"
OLD_CHANGE, NEW_CHANGE = "bold white on dark_red", "bold white on dark_green"


def _marked(line: str, style: str, spans: list[tuple[int, int]], change: str, prefix: str = "") -> Text:
    text = Text(prefix + line, style)  # text-safe: plain_lines made it safe
    for start, end in spans:
        text.stylize(change, start + len(prefix), end + len(prefix))
    return text


def _pairs(a: list[str], b: list[str]) -> list[tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
    """Changed spans for the lines of a replaced block, paired in order (similar lines only)."""
    spans = []
    for k in range(max(len(a), len(b))):
        if k < len(a) and k < len(b) and difflib.SequenceMatcher(None, a[k], b[k]).ratio() >= 0.4:
            spans.append(changed_spans(a[k], b[k]))
        else:
            spans.append(([], []))
    return spans


def unified_lines(old: str, new: str, old_name: str, new_name: str, context: int = 3) -> list[Text]:
    a, b = plain_lines(old), plain_lines(new)
    if a == b:
        return [
            Text(
                f"{safe_line(old_name)} and {safe_line(new_name)}: identical ({plural(len(a), 'line')})",
                "green",
            )
        ]
    out: list[Text] = [Text(f"--- {safe_line(old_name)}", "bold"), Text(f"+++ {safe_line(new_name)}", "bold")]
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        first, last = group[0], group[-1]
        out.append(
            Text(f"@@ -{first[1] + 1},{last[2] - first[1]} +{first[3] + 1},{last[4] - first[3]} @@", "cyan")
        )
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out.extend(Text(" " + line) for line in a[i1:i2])  # text-safe: plain_lines
                continue
            pairs = _pairs(a[i1:i2], b[j1:j2]) if tag == "replace" else []
            for k, line in enumerate(a[i1:i2]):
                spans = pairs[k][0] if k < len(pairs) else []
                out.append(_marked(line, OLD_STYLE, spans, OLD_CHANGE, "-"))
            for k, line in enumerate(b[j1:j2]):
                spans = pairs[k][1] if k < len(pairs) else []
                out.append(_marked(line, NEW_STYLE, spans, NEW_CHANGE, "+"))
            for k, (left, right) in enumerate(pairs[: min(i2 - i1, j2 - j1)]):
                far = where_changed(a[i1 + k], b[j1 + k], left, right)
                if far is not None:
                    out.append(far)
    return out


FAR = 60  # a change starting beyond this column gets a line saying where and what


def where_changed(
    old: str, new: str, left: list[tuple[int, int]], right: list[tuple[int, int]]
) -> Text | None:
    """For a change far to the right of a long line: `↳ col 312: …false… → …true…`."""
    if not left and not right:
        return None
    start = min(s for s, _ in left + right)
    if start < FAR:
        return None
    end_old = max((e for _, e in left), default=start)
    end_new = max((e for _, e in right), default=start)
    pad = 12
    before = old[max(0, start - pad) : end_old + pad]
    after = new[max(0, start - pad) : end_new + pad]
    line = Text(f"  ↳ col {start + 1}: ", "dim")
    line.append(f"…{before}…", OLD_STYLE)
    line.append(" → ", "dim")
    line.append(f"…{after}…", NEW_STYLE)
    return line


def side_by_side_rows(old: str, new: str, old_name: str, new_name: str) -> list[SplitRow]:
    """Rows for `SplitView`: equal lines plain, changed ones red/green with what changed marked."""
    a, b = plain_lines(old), plain_lines(new)
    rows = [SplitRow(Text(old_name, "bold red"), Text(" │ ", "dim"), Text(new_name, "bold green"))]
    if a == b:
        rows.append(
            SplitRow(Text(f"identical ({plural(len(a), 'line')})", "green"), Text(" │ ", "dim"), Text(""))
        )
    marks = {"equal": " │ ", "replace": " ~ ", "delete": " - ", "insert": " + "}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        left, right = a[i1:i2], b[j1:j2]
        pairs = _pairs(left, right) if tag == "replace" else []
        mark = Text(marks[tag], "dim" if tag == "equal" else "bold yellow")
        for k in range(max(len(left), len(right))):
            spans = pairs[k] if k < len(pairs) else ([], [])
            if tag == "equal":
                rows.append(SplitRow(Text(left[k]), mark, Text(right[k])))
                continue
            lt = _marked(left[k], OLD_STYLE, spans[0], OLD_CHANGE) if k < len(left) else Text("")
            rt = _marked(right[k], NEW_STYLE, spans[1], NEW_CHANGE) if k < len(right) else Text("")
            rows.append(SplitRow(lt, mark, rt))
    return rows


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
        Binding("s", "toggle_layout", "Layout", id="diff_layout"),
        Binding("i", "toggle_normalise", "Ignore names", id="diff_normalise"),
        Binding("left_square_bracket", "other(-1)", "Older", id="diff_prev_compile"),
        Binding("right_square_bracket", "other(1)", "Newer", id="diff_next_compile"),
        Binding("left_curly_bracket", "stage(-1)", "Prev stage", id="diff_prev_stage"),
        Binding("right_curly_bracket", "stage(1)", "Next stage", id="diff_next_stage"),
        Binding("escape,d", "close", "Back", id="diff_close"),
    ]

    # Side by side by default from this terminal width on: each half then shows ~68 columns.
    SIDE_BY_SIDE_MIN_WIDTH = 140

    def __init__(
        self,
        session: Session,
        compile_id: str,
        key: str = "",
        other_id: str | None = None,
        *,
        side_by_side: bool | None = None,
        normalised: bool = False,
    ) -> None:
        """Compare stage `key` (default: the Dynamo graph) of `compile_id` with `other_id`
        (default: the compile before it in the same frame). `side_by_side=None`: side by side
        when the terminal is wide enough for it, else unified."""
        super().__init__()
        self.session = session
        self.compile_id = compile_id
        self.key = key or DEFAULT_STAGE
        self.other_id = other_id or default_other(session, compile_id)
        self._side_by_side = side_by_side
        self.normalised = normalised

    def compose(self) -> ComposeResult:
        yield Static(id="diff-title")
        yield Static(id="diff-symbols")
        yield StyledView(id="diff-view")
        yield SplitView(id="diff-split")
        yield KeyFooter(order=(), compact=True)

    def on_mount(self) -> None:
        self.render_diff()

    @property
    def side_by_side(self) -> bool:
        if self._side_by_side is None:
            return self.app.size.width >= self.SIDE_BY_SIDE_MIN_WIDTH
        return self._side_by_side

    @property
    def view(self) -> StyledView:
        """The unified view."""
        return self.query_one(StyledView)

    @property
    def split(self) -> SplitView:
        """The side-by-side view."""
        return self.query_one(SplitView)

    @property
    def shown_text(self) -> str:
        return self.split.text if self.side_by_side else self.view.text

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
            full_text(stages[older]),
            full_text(stages[newer]),
            f"{older} {stages[older].key}",
            f"{newer} {stages[newer].key}",
        )

    def render_diff(self) -> None:
        found = self.texts()
        title = self.query_one("#diff-title", Static)
        side = self.side_by_side
        self.view.display = not side
        self.split.display = side
        (self.split if side else self.view).focus()
        if isinstance(found, str):
            self.query_one("#diff-symbols", Static).display = False
            title.update(safe_rich(Text.assemble(("diff ", "bold"), (found, "yellow")), one_line=True))
            self.view.set_lines([Text(found, "yellow")])
            self.split.set_rows([SplitRow(Text(found, "yellow"), Text(""), Text(""))])
            return
        old, new, old_name, new_name = found
        self.show_symbols(old, new)
        if self.normalised:
            old, new = normalise(old), normalise(new)
        removed, added = diff_counts(old, new)
        layout = "side by side" if side else "unified"
        title.update(
            safe_rich(
                Text.assemble(
                    ("diff ", "bold"),
                    (old_name, "bold red"),
                    " → ",
                    (new_name, "bold green"),
                    f"  -{removed} +{added} · {layout}",
                    (" · names ignored (i)" if self.normalised else "", "cyan"),
                ),
                one_line=True,
            )
        )
        if side:
            self.split.set_rows(side_by_side_rows(old, new, old_name, new_name))
        else:
            key = (old_name, new_name, layout, self.normalised)
            self.view.set_lines(unified_lines(old, new, old_name, new_name), key=key)

    def show_symbols(self, old: str, new: str) -> None:
        """A legend under the title: each size symbol either side shows, with its origin."""
        older, newer = ordered_pair(self.session, self.other_id or self.compile_id, self.compile_id)
        sides = [
            (cid, text, self.session.compiles[cid].provenance.symbols)
            for cid, text in ((older, old), (newer, new))
            if cid in self.session.compiles
        ]
        entries = symbol_names.named(sides)
        legend = self.query_one("#diff-symbols", Static)
        legend.display = bool(entries)
        if entries:
            text = Text("symbols  ", "bold magenta")
            text.append(symbol_names.legend(entries, len(sides)))
            if self.normalised:
                text.append("  (shown as s?/u? while names are ignored: i)", "dim")
            legend.update(safe_rich(text, one_line=True))

    def action_toggle_layout(self) -> None:
        self._side_by_side = not self.side_by_side
        self.render_diff()

    def action_toggle_normalise(self) -> None:
        """Ignore Dynamo's symbol names (s0 vs s77) and object addresses, or stop doing so."""
        self.normalised = not self.normalised
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
