"""The ranks screen: one row per rank of a multi-rank TORCH_TRACE or a live torchrun job, where
the ranks diverge, and the output of the rank under the cursor.

Choosing a rank (enter on its row) posts `RanksScreen.RankSelected`; choosing a divergence
posts it for the first rank that differs, with the compile id to show. The app swaps the
session it displays; this screen never changes `app.session` itself. In a live job the app calls
`refresh_ranks` as events arrive: the rows (status, counts), the divergences and the output pane
follow the job while the screen stays open, the cursor on the same rank.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.events import Resize
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static

from tcdebug.model.session import Session
from tcdebug.screens.safe_rich import safe_label
from tcdebug.screens.widgets.key_footer import KeyFooter
from tcdebug.textsafe import safe_line, safe_text

OUTPUT_LINES = 6  # the output pane: the last lines of the rank under the cursor

RankCallback = Callable[[str, Session, str], None]

# (column key, header, header when the table is narrow): the last column takes what is left and wraps.
RANK_COLUMNS = (
    ("current", "", ""),
    ("rank", "rank", "rank"),
    ("compiles", "compiles", "comp"),
    ("breaks", "graph breaks", "breaks"),
    ("recompiles", "recompiles", "recomp"),
    ("skipped", "skipped", "skip"),
    ("diverges", "diverges", "div"),
    ("status", "log / status", "log / status"),
)
DIVERGENCE_COLUMNS = (
    ("compile", "compile", "compile"),
    ("kind", "kind", "kind"),
    ("ranks", "ranks", "ranks"),
    ("detail", "what differs", "what differs"),
)
LAST_MIN_WIDTH = 16  # the wrapped column never gets narrower than this
CELL_PADDING = 2  # DataTable's cell padding, one on each side


def fit_columns(
    columns: tuple[tuple[str, str, str], ...], rows: list[list[str]], width: int
) -> tuple[list[str], int | None]:
    """The headers and the last column's width (None: as wide as its content) for a table of
    `width` cells: the long headers when everything fits, else the short ones and a last column
    that takes the width left and wraps."""

    def widths(labels: list[str]) -> list[int]:
        return [
            max([cell_len(label), *(cell_len(row[i]) for row in rows)]) + CELL_PADDING
            for i, label in enumerate(labels)
        ]

    long = [c[1] for c in columns]
    if sum(widths(long)) <= width:
        return long, None
    short = [c[2] for c in columns]
    need = widths(short)
    if sum(need) <= width:
        return short, None
    return short, max(width - sum(need[:-1]) - CELL_PADDING, LAST_MIN_WIDTH)


def rank_rows(session: Session) -> list[tuple[str, str, int, int, int, int, str]]:
    """(rank entry, log name, compiles, graph breaks, recompiles, skipped records, diverges) per log.

    Entries are `session.ranks` labels: "1", and "1 (2)" for a second log of rank 1.
    """
    diverging = {str(r) for d in session.divergences for r in getattr(d, "ranks", [])}
    rows = []
    for rank, s in session.ranks.items():
        name = str(s.extra.get("rank_status") or s.script.rsplit("/", 1)[-1])  # live: how it stands
        if s.record_rank is not None:  # the file name gives the rank; its records say another
            name += f" (records: rank {s.record_rank})"
        rows.append(
            (
                rank,
                name,
                len(s.compiles),
                len(s.graph_breaks()),
                len(s.recompiles()),
                int(s.trace_stats.get("skipped", 0)),
                "yes" if rank in diverging else "",
            )
        )
    return rows


def rank_output(session: Session, rank: str, lines: int = OUTPUT_LINES) -> str:
    """The last `lines` lines `rank` printed: from the live job's output (chunks tagged with the
    rank) or from the rank's own session (a trace or a dump)."""
    chunks = [c for c in session.output if c.rank is not None and str(c.rank) == rank]
    if not chunks and rank in session.ranks:
        chunks = list(session.ranks[rank].output)
    text = "".join(c.text for c in chunks)
    return "\n".join(text.splitlines()[-lines:])


class RanksScreen(Screen[None]):
    """Ranks and divergences of `session.ranks` / `session.divergences` (see tcdebug.trace)."""

    CSS_PATH = "ranks_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back", id="close_ranks"),
        Binding("tab", "switch_table", "Ranks / divergences", id="ranks_switch_table"),
        Binding("left_square_bracket", "step_rank(-1)", "Previous rank", id="ranks_previous"),
        Binding("right_square_bracket", "step_rank(1)", "Next rank", id="ranks_next"),
        Binding("d", "diff_divergence", "Diff the divergence", id="ranks_diff"),
    ]

    class RankSelected(Message):
        """The user chose `rank`; show `session` (and `compile_id` when a divergence was chosen)."""

        def __init__(self, rank: str, session: Session, compile_id: str = "") -> None:
            super().__init__()
            self.rank = rank
            self.session = session
            self.compile_id = compile_id

    def __init__(
        self,
        session: Session,
        *,
        on_select: RankCallback | None = None,
        pg_timeout: str = "",
        name: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id)
        self.session = session
        self.current_rank = session.rank_label or (str(session.rank) if session.rank is not None else None)
        self.on_select = on_select
        self.pg_timeout = pg_timeout  # a live torchrun job: the collectives' timeout in force
        self._ready = False  # mounted: the tables can be filled
        self._layouts: dict[str, tuple[tuple[str, ...], int | None]] = {}  # table id -> headers, last width

    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="ranks-title")
        ranks: DataTable[str | Text] = DataTable(id="ranks-table", cursor_type="row", zebra_stripes=True)
        ranks.border_title = "ranks (enter: show this rank)"
        yield ranks
        divs: DataTable[str | Text] = DataTable(id="divergences-table", cursor_type="row")
        divs.border_title = f"where the ranks diverge ({len(self.session.divergences)})"
        yield divs
        yield Static(id="rank-output")
        yield KeyFooter(order=(), compact=True)

    def _title(self) -> Text:
        n = len(self.session.ranks)
        shown = f"showing rank {self.current_rank}" if self.current_rank is not None else ""
        title = Text(f" {n} rank{'s' if n != 1 else ''} · {shown}")  # text-safe: numbers only
        if self.pg_timeout:
            title.append(
                f"\n a long pause can make a collective time out: process group timeout {self.pg_timeout}"
            )
        return title

    def on_mount(self) -> None:
        ranks = self.query_one("#ranks-table", DataTable)
        self._ready = True
        self.refresh_ranks()
        if self.current_rank is not None and self.current_rank in self.session.ranks:
            ranks.move_cursor(row=ranks.get_row_index(self.current_rank))
        ranks.focus()

    def refresh_ranks(self) -> None:
        """Rebuild the rows, the divergences and the output pane from the session as it is now
        (a live job: the app calls it as events arrive). The cursors stay on the same rows."""
        if not self._ready:
            return  # not mounted yet: `on_mount` fills it
        ranks = self.query_one("#ranks-table", DataTable)
        at_rank = self._cursor_rank() if ranks.columns else self.current_rank
        rows = [
            [
                "▶" if rank == self.current_rank else "",
                str(rank),
                *map(str, counts),
                diverges,
                safe_line(name),
            ]
            for rank, name, *counts, diverges in rank_rows(self.session)
        ]
        heights = self._fit(ranks, RANK_COLUMNS, rows)
        for row, height in zip(rows, heights, strict=True):
            # log names and divergence texts come from the logs: never markup
            ranks.add_row(*row[:-1], safe_label(row[-1]), key=row[1], height=height)
        if at_rank is not None and str(at_rank) in {row[1] for row in rows}:
            ranks.move_cursor(row=ranks.get_row_index(str(at_rank)), animate=False)
        divs = self.query_one("#divergences-table", DataTable)
        div_row = divs.cursor_row
        divs.border_title = f"where the ranks diverge ({len(self.session.divergences)})"
        div_rows = [
            [safe_line(d.compile_id), safe_line(d.kind.replace("_", " ")), safe_line(", ".join(map(str, d.ranks))),
             safe_line(d.detail)]
            for d in self.session.divergences
        ] or [["", "", "", "the ranks agree: same compile ids, graphs and recompile reasons"]]  # fmt: skip
        heights = self._fit(divs, DIVERGENCE_COLUMNS, div_rows, scrollbar=True)
        keys = [f"div{i}" for i in range(len(self.session.divergences))] or ["none"]
        for key, row, height in zip(keys, div_rows, heights, strict=True):
            divs.add_row(*map(safe_label, row), key=key, height=height)
        if 0 < div_row < divs.row_count:
            divs.move_cursor(row=div_row, animate=False)
        self.query_one("#ranks-title", Static).update(self._title())
        self._show_output()

    def _fit(
        self,
        table: DataTable[str | Text],
        columns: tuple[tuple[str, str, str], ...],
        rows: list[list[str]],
        *,
        scrollbar: bool = False,
    ) -> list[int]:
        """Clear `table` and set its columns to fit the terminal's width (short headers and a
        wrapping last column when narrow; see `fit_columns`); the height of each row.

        The heights are measured here: the table's own auto height (`height=None`) raised
        IndexError in Textual 8.2 when a live job rebuilt the rows before it had measured them."""
        width = self.app.size.width - table.styles.gutter.width
        labels, last = fit_columns(columns, rows, width)
        heights = self._heights(rows, last)
        if scrollbar or 1 + sum(heights) > self.app.size.height // 2 - table.styles.gutter.height:
            # room for the vertical scrollbar if the rows may overflow
            labels, last = fit_columns(columns, rows, width - table.styles.scrollbar_size_vertical)
            heights = self._heights(rows, last)
        layout = (tuple(labels), last)
        if table.columns and self._layouts.get(str(table.id)) == layout:
            table.clear()
        else:
            table.clear(columns=True)
            for (key, *_), label in zip(columns[:-1], labels[:-1], strict=True):
                table.add_column(label, key=key)
            table.add_column(labels[-1], key=columns[-1][0], width=last)
            self._layouts[str(table.id)] = layout
        return heights

    def _heights(self, rows: list[list[str]], last: int | None) -> list[int]:
        """Lines each row takes with its last cell wrapped to `last` cells (None: not wrapped)."""
        if last is None:
            return [1] * len(rows)
        console = self.app.console
        return [max(1, len(Text(row[-1]).wrap(console, last))) for row in rows]

    def on_resize(self, event: Resize) -> None:
        self.refresh_ranks()

    def _cursor_rank(self) -> str | None:
        ranks = self.query_one("#ranks-table", DataTable)
        if not ranks.row_count:
            return self.current_rank
        key = ranks.coordinate_to_cell_key(ranks.cursor_coordinate).row_key.value
        return key if key is not None else self.current_rank

    def _show_output(self) -> None:
        rank = self._cursor_rank()
        pane = self.query_one("#rank-output", Static)
        if rank is None:
            pane.update("")
            return
        text = rank_output(self.session, rank)
        pane.border_title = f"output of rank {rank} (last {OUTPUT_LINES} lines)"
        pane.update(Text(safe_text(text) if text else "(nothing printed yet)"))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "ranks-table":
            self._show_output()

    # ----- choosing ------------------------------------------------------------------
    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        key = event.row_key.value or ""
        if event.data_table.id == "ranks-table":
            self.select_rank(key)
        elif key.startswith("div"):
            d = self.session.divergences[int(key[3:])]
            first = next(iter(self.session.ranks))
            rank = str(d.ranks[0]) if d.ranks else first
            if rank not in self.session.ranks:
                rank = first
            self.select_rank(rank, d.compile_id)

    def select_rank(self, rank: str, compile_id: str = "") -> None:
        """Post `RankSelected` (and call `on_select`) for `rank`."""
        session = self.session.ranks[rank]
        self.current_rank = rank
        self.post_message(self.RankSelected(rank, session, compile_id))
        if self.on_select is not None:
            self.on_select(rank, session, compile_id)
        self._mark_current()

    def _mark_current(self) -> None:
        ranks = self.query_one("#ranks-table", DataTable)
        for rank in self.session.ranks:
            ranks.update_cell(rank, ranks.ordered_columns[0].key, "▶" if rank == self.current_rank else "")
        self.query_one("#ranks-title", Static).update(self._title())

    def action_switch_table(self) -> None:
        ranks = self.query_one("#ranks-table", DataTable)
        divs = self.query_one("#divergences-table", DataTable)
        (divs if ranks.has_focus else ranks).focus()

    def action_diff_divergence(self) -> None:
        """The divergence under the cursor, its first two sides diffed (`divergence_sides`)."""
        divs = self.query_one("#divergences-table", DataTable)
        if not self.session.divergences or not divs.row_count:
            return
        key = divs.coordinate_to_cell_key(divs.cursor_coordinate).row_key.value or ""
        if not key.startswith("div"):
            return
        d = self.session.divergences[int(key[3:])]
        sides = divergence_sides(self.session, d)
        if len(sides) < 2:
            self.notify("nothing to diff: this divergence has one side", severity="warning")
            return
        (old_name, old), (new_name, new) = list(sides.items())[:2]
        self.app.push_screen(RankDiffScreen(f"{d.compile_id} {d.kind.replace('_', ' ')}", old_name, old, new_name, new))

    def action_step_rank(self, delta: int) -> None:
        order = list(self.session.ranks)
        if not order:
            return
        at = order.index(self.current_rank) if self.current_rank in order else 0
        self.select_rank(order[(at + delta) % len(order)])


def divergence_sides(session: Session, d: object) -> dict[str, str]:
    """Each side of a divergence as text, named by its ranks: the sequences an analysis of Inductor's
    records kept (`Divergence.texts`), else, for a graph or a recompile reason, the first rank of
    each group's stage text or reason."""
    texts = getattr(d, "texts", None)
    if texts:
        return {f"ranks {name}" if "," in name else f"rank {name}" if name[:1].isdigit() else name: text
                for name, text in texts.items()}  # fmt: skip
    cid = str(getattr(d, "compile_id", ""))
    stage_key = str(getattr(d, "stage_key", ""))
    out: dict[str, str] = {}
    for labels in (getattr(d, "groups", None) or {}).values():
        if not labels or labels[0] not in session.ranks:
            continue
        comp = session.ranks[labels[0]].compiles.get(cid)
        if comp is None:
            continue
        if stage_key and stage_key in comp.stages:
            text = comp.stages[stage_key].get_text()
        else:
            text = comp.recompile_reason or comp.status
        out[f"rank{'s' if len(labels) > 1 else ''} {', '.join(labels)}"] = text
    return out


class RankDiffScreen(Screen[None]):
    """`d` on a divergence: two sides of it (one item a line) as a unified diff."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,d", "app.pop_screen", "Back", id="close_rank_diff"),
    ]

    def __init__(self, title: str, old_name: str, old: str, new_name: str, new: str) -> None:
        super().__init__()
        self.title_text = title
        self.sides = (old_name, old, new_name, new)

    def compose(self) -> ComposeResult:
        from tcdebug.screens.diff_screen import unified_lines

        old_name, old, new_name, new = self.sides
        yield Static(safe_label(f" {self.title_text}: {old_name} vs {new_name}"), id="rank-diff-title")
        lines = unified_lines(safe_text(old), safe_text(new), safe_line(old_name), safe_line(new_name))
        with VerticalScroll(id="rank-diff-body"):
            yield Static(Text("\n").join(lines), id="rank-diff")  # text-safe: lines of made-safe texts
        yield KeyFooter(order=(), compact=True)
