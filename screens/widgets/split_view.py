"""Two texts side by side in one view: the halves share the width, and both scroll together,
down and sideways (each half shows the same columns of its own lines).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

MARK_WIDTH = 3  # " ~ " between the halves


@dataclass
class SplitRow:
    left: Text
    mark: Text
    right: Text


class SplitView(ScrollView, can_focus=True):
    """Rows of (left, mark, right); each half is (width - 3) / 2 columns wide."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("shift+left", "page_sideways(-1)", "Page left", id="split_page_left", show=False),
        Binding("shift+right", "page_sideways(1)", "Page right", id="split_page_right", show=False),
    ]

    DEFAULT_CSS = """
    SplitView { background: $surface; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[SplitRow] = []
        self._longest = 0

    def set_rows(self, rows: list[SplitRow]) -> None:
        self.rows = rows
        self._longest = max((max(r.left.cell_len, r.right.cell_len) for r in rows), default=0)
        self.scroll_to(0, 0, animate=False, immediate=True)
        self._update_virtual_size()
        self.refresh()

    @property
    def half(self) -> int:
        return max(1, (self.scrollable_content_region.width - MARK_WIDTH) // 2)

    def _update_virtual_size(self) -> None:
        width = self.scrollable_content_region.width
        self.virtual_size = Size(width + max(0, self._longest - self.half), len(self.rows))

    def on_resize(self) -> None:
        self._update_virtual_size()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if index >= len(self.rows):
            return Strip.blank(width, base)
        row = self.rows[index]
        half = self.half
        console = self.app.console
        parts = []
        for text in (row.left, row.mark, row.right):
            line = text.copy()
            line.end = ""
            strip = Strip(list(line.render(console)), line.cell_len)
            if text is row.mark:
                parts.append(strip.crop_extend(0, MARK_WIDTH, base))
            else:
                parts.append(strip.crop_extend(scroll_x, scroll_x + half, base))
        joined = Strip.join(parts)
        return joined.extend_cell_length(width, base) if joined.cell_length < width else joined

    def action_page_sideways(self, direction: int) -> None:
        self.scroll_to(x=max(0, self.scroll_offset.x + direction * (self.half // 2)), animate=False)

    @property
    def text(self) -> str:
        """The rows as plain text, halves separated by their mark (for tests and search)."""
        return "\n".join(f"{r.left.plain}{r.mark.plain}{r.right.plain}" for r in self.rows)
