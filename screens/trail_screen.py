"""The `f` screen: follow one op through the compile, from its source line to its kernel lines.

Left: the ops of the stage you came from (for the `source` stage, each line and the Dynamo nodes
it produced). Right: the trail of the highlighted op, stage by stage in pipeline order, each
stage's matching items with their lines. Below: the highlighted stage with the trail's lines
marked. `enter` on a trail row jumps there (the lines stay marked in the stage view); `f` on a
trail row follows from that item instead; `escape` goes back.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from tcdebug.analysis.provenance_index import ProvenanceIndex, ProvItem, Trail
from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import Compile, Session
from tcdebug.screens.safe_rich import safe_label
from tcdebug.screens.widgets.code_view import CodeView
from tcdebug.textsafe import safe_line

if TYPE_CHECKING:
    from tcdebug.screens.app import TcdebugApp

SEP = "\x1f"


def line_span(lines: list[int]) -> str:
    if not lines:
        return "-"
    if len(lines) == 1:
        return f"L{lines[0]}"
    if lines == list(range(lines[0], lines[-1] + 1)):
        return f"L{lines[0]}-{lines[-1]}"
    return f"L{lines[0]}…{lines[-1]} ({len(lines)})"


def from_items(index: ProvenanceIndex, key: str) -> list[tuple[ProvItem, int]]:
    """What can be followed from stage `key`: its items (depth 0), and for the source stage
    the Dynamo nodes of each line under it (depth 1), so one op of a busy line can be picked."""
    out: list[tuple[ProvItem, int]] = []
    for item in index.in_stage(key):
        if key == "source" and not item.lines:
            continue
        out.append((item, 0))
        if key == "source":
            seen: set[str] = set()
            for nxt in index.linked(item.item_id, downstream=True):
                below = (
                    index.linked(nxt.item_id, downstream=True) if nxt.stage == "bytecode_before" else [nxt]
                )
                for node in below:
                    if node.stage == "dynamo_graph" and node.item_id not in seen:
                        seen.add(node.item_id)
                        out.append((node, 1))
    return out


# Cells of an item's name on a trail row and in the list to follow from (at 80 columns, that list
# has 16, the line span after it): longer names are cut in the middle.
NAME_WIDTH, FROM_NAME_WIDTH = 24, 14


def trail_name(name: str, shown: set[str], width: int = NAME_WIDTH) -> str:
    """An item's name on its trail row, so that rows differ where their items do: the lines of one
    node inside a kernel (`<kernel>/<node>`) under that kernel's row read `↳ <node>`; a long name
    keeps its start and its end (`cpp_fused_sum_t…kward_0`)."""
    parent, sep, node = name.rpartition("/")
    if sep and parent in shown:
        name = f"↳ {node}"
    if len(name) <= width:
        return name
    head = (width - 1) // 2
    return f"{name[:head]}…{name[len(name) - (width - 1 - head) :]}"


def trail_rows(trail: Trail, session_comp: Compile) -> list[Option]:
    rows: list[Option] = []
    for ts in trail.stages:
        stage = session_comp.stages.get(ts.stage)
        title = (
            stage.title
            if stage is not None
            else stage_catalog.kind(stage_catalog.split_key(ts.stage)[0]).title
        )
        header = Text(safe_line(ts.stage), "bold cyan")
        header.append(f"  {safe_line(title)}", "dim")
        if ts.inferred:
            header.append("  (inferred from text)", "yellow")
        if stage is None:
            header.append("  (stage not in this session)", "yellow")
        rows.append(Option(header, id=f"{ts.stage}{SEP}", disabled=True))
        shown: set[str] = set()
        for item in ts.items:
            label = Text(f"  {safe_line(trail_name(item.name, shown)):<{NAME_WIDTH}} ", "bold")
            shown.add(item.name)
            label.append(f"{line_span(item.lines):<10} ", "green" if item.lines else "dim")
            detail = item.detail or ""
            if item.meta.get("code"):
                detail = f"{item.meta['code']}  {detail}"
            if item.meta.get("outside"):
                detail = f"{detail} (outside the compiled frame)".strip()
            label.append(safe_line(detail)[:120], "dim")
            rows.append(Option(label, id=f"{ts.stage}{SEP}{item.item_id}"))
    return rows


def trail_symbols(trail: Trail, comp: Compile, limit: int = 400) -> list[str]:
    """The compile's symbolic sizes (`s77`) that appear on the trail's lines."""
    symbols = comp.provenance.symbols
    if not symbols:
        return []
    pattern = re.compile(r"\b(" + "|".join(re.escape(name) for name in symbols) + r")\b")
    found: set[str] = set()
    for ts in trail.stages:
        stage = comp.stages.get(ts.stage)
        if stage is None or not ts.lines:
            continue
        text = stage.get_text().splitlines()
        for n in ts.lines[:limit]:
            if 0 < n <= len(text):
                found.update(pattern.findall(text[n - 1]))
    return sorted(found)


class TrailScreen(Screen[None]):
    CSS_PATH = "trail_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "jump", "Jump there", id="trail_jump"),
        Binding("f", "refollow", "Follow this", id="trail_follow"),
        Binding("escape", "close", "Back", id="trail_close"),
    ]

    def __init__(self, session: Session, compile_id: str, key: str, line: int = 1, name: str = "") -> None:
        super().__init__()
        self.session = session
        self.compile_id = compile_id
        self.comp = session.compiles[compile_id]
        self.index = self.comp.provenance
        self.from_key = key
        self.start_line = line
        self.start_name = name
        self.trail: Trail | None = None
        self.preview_key = ""

    @property
    def tc_app(self) -> TcdebugApp:
        return cast("TcdebugApp", self.app)

    def compose(self) -> ComposeResult:
        yield Static(id="trail-title")
        with Horizontal(id="trail-lists"):
            yield OptionList(id="trail-from")
            yield OptionList(id="trail-stages")
        yield CodeView(id="trail-preview")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#trail-stages").border_title = "trail"
        self.query_one("#trail-preview").border_title = "stage"
        entries = self._fill_from()
        from_list = self.query_one("#trail-from", OptionList)
        if not entries:
            self._title(
                f"no provenance for {self.from_key} in compile {self.compile_id}: "
                "follow from a source line, a graph, the IR or the kernels"
            )
            return
        pick = self._initial(entries)
        from_list.highlighted = pick
        from_list.focus()
        self._follow(entries[pick][0].item_id)

    def _fill_from(self) -> list[tuple[ProvItem, int]]:
        from_list = self.query_one("#trail-from", OptionList)
        from_list.clear_options()
        from_list.border_title = safe_label(f"follow from {self.from_key}")
        entries = from_items(self.index, self.from_key)
        shown: set[str] = set()
        for item, depth in entries:
            name = trail_name(item.name, shown, FROM_NAME_WIDTH - 2 * depth)
            shown.add(item.name)
            label = Text("  " * depth + safe_line(name), "bold" if depth == 0 else "")
            label.append(f"  {line_span(item.lines)}", "green" if item.lines else "dim")
            code = item.meta.get("code") or (item.detail if item.kind == "source_line" else "")
            if code:
                label.append(f"  {safe_line(code)[:60]}", "dim")
            from_list.add_option(Option(label, id=f"{depth}{SEP}{item.item_id}"))
        return entries

    def _initial(self, entries: list[tuple[ProvItem, int]]) -> int:
        if self.start_name:
            for k, (item, _) in enumerate(entries):
                if item.name == self.start_name:
                    return k
        near = self.index.nearest(self.from_key, self.start_line)
        if near is not None:
            for k, (item, _) in enumerate(entries):
                if item.item_id == near.item_id:
                    # a source line's first node says more than the whole line
                    nxt = entries[k + 1] if k + 1 < len(entries) else None
                    return k + 1 if nxt is not None and nxt[1] == 1 and self.from_key == "source" else k
        return 0

    def _title(self, text: str) -> None:
        self.query_one("#trail-title", Static).update(Text(safe_line(text)))

    def _follow(self, item_id: str) -> None:
        self.trail = self.index.trail([item_id])
        item = self.index.items[item_id]
        stages = self.query_one("#trail-stages", OptionList)
        stages.clear_options()
        stages.add_options(trail_rows(self.trail, self.comp))
        for name in trail_symbols(self.trail, self.comp):  # symbolic sizes on the trail's lines
            info = self.index.symbols[name]
            origin = ", ".join(info.sources) or "origin unknown"
            row = Text(f"symbol {safe_line(name)}: {safe_line(origin)}", "magenta")
            row.append(f" · range {safe_line(info.range or '?')} · hint {safe_line(info.hint or '?')}")
            row.append("  (S: guards)", "dim")
            stages.add_option(Option(row, id=f"symbol:{name}{SEP}", disabled=True))
        for k, note in enumerate(self.index.notes):  # what the capture or the log could not link
            stages.add_option(
                Option(Text(f"note: {safe_line(note)}", "yellow"), id=f"note{k}{SEP}", disabled=True)
            )
        reached = len(self.trail.stages)
        missing = "" if self.trail.stage("source") else " · no user source line reached"
        self._title(
            f"{self.compile_id} {self.comp.shown_name} · {item.stage} {item.name} · "
            f"{reached} stages{missing} · enter jumps, f follows, esc back"
        )
        first = next((k for k, opt in enumerate(stages.options) if not opt.disabled), None)
        if first is not None:
            stages.highlighted = first
            self._preview_option(stages.get_option_at_index(first).id or "")

    # ----- events ---------------------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#trail-from")
    def _from_moved(self, event: OptionList.OptionHighlighted) -> None:
        option_id = event.option.id or ""
        self._follow(option_id.split(SEP, 1)[1])

    @on(OptionList.OptionHighlighted, "#trail-stages")
    def _stage_moved(self, event: OptionList.OptionHighlighted) -> None:
        self._preview_option(event.option.id or "")

    @on(OptionList.OptionSelected, "#trail-stages")
    def _stage_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._jump(event.option.id or "")

    @on(OptionList.OptionSelected, "#trail-from")
    def _from_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.query_one("#trail-stages", OptionList).focus()

    def _preview_option(self, option_id: str) -> None:
        key, _, iid = option_id.partition(SEP)
        if self.trail is None or not key:
            return
        ts = self.trail.stage(key)
        stage = self.comp.stages.get(key)
        preview = self.query_one("#trail-preview", CodeView)
        if stage is None or ts is None:
            preview.set_document(f"{key}: not in this session", "text", key=("trail-missing", key))
            return
        preview.set_document(stage.get_text(), stage.language, key=("stage", self.compile_id, key, "trail"))
        item = self.index.items.get(iid)
        focus = min(item.lines) if item is not None and item.lines else (ts.lines[0] if ts.lines else None)
        preview.mark_lines(ts.lines, focus=focus)
        preview.border_title = safe_label(f"{key} · {len(ts.lines)} lines marked")
        self.preview_key = key

    # ----- actions --------------------------------------------------------------------
    def action_jump(self) -> None:
        stages = self.query_one("#trail-stages", OptionList)
        if self.focused is self.query_one("#trail-from"):
            stages.focus()
            return
        option = stages.highlighted_option
        if option is not None:
            self._jump(option.id or "")

    def _jump(self, option_id: str) -> None:
        key, _, iid = option_id.partition(SEP)
        if self.trail is None or not key:
            return
        ts = self.trail.stage(key)
        if key not in self.comp.stages or ts is None:
            self.notify(f"{key} is not in this session", severity="warning")
            return
        item = self.index.items.get(iid)
        focus = min(item.lines) if item is not None and item.lines else (ts.lines[0] if ts.lines else None)
        self.tc_app.follow_jump(self.compile_id, key, ts.lines, focus)

    def action_refollow(self) -> None:
        stages = self.query_one("#trail-stages", OptionList)
        option = stages.highlighted_option
        if option is None or self.focused is not stages:
            return
        key, _, iid = (option.id or "").partition(SEP)
        if iid in self.index.items:
            self.from_key = key
            self.start_name = self.index.items[iid].name
            from_list = self.query_one("#trail-from", OptionList)
            entries = self._fill_from()
            pick = next((k for k, (it, _) in enumerate(entries) if it.item_id == iid), 0)
            from_list.highlighted = pick
            self._follow(iid)

    def action_close(self) -> None:
        self.dismiss(None)
