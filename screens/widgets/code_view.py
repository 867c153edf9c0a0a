"""A read-only code viewer built on the Line API.

Only the visible lines are rendered (`render_line`), rendered lines are kept in an
LRU cache of strips, and pygments runs in a thread worker for the whole document; the
colours arrive as a `CodeView.Highlighted` message. That keeps a 20,000-line kernel file
responsive. The lines on show at first are highlighted on the UI thread as they are
painted (a page of lines costs a few milliseconds), so a new document's first frame has
its colours and a short document needs no worker at all.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.worker import get_current_worker

from tcdebug.screens.widgets.highlight import HighlightCancelled, highlight_lines, plain_lines

# Beyond this many characters the highlighter would take seconds; show plain text.
HIGHLIGHT_LIMIT = 4_000_000
# Lines on show within this many of the top are highlighted when first painted (lexing from the
# top, as the worker does); further down they show plain until the worker's colours arrive.
PAINT_HIGHLIGHT_LINES = 400
# The painted prefix reaches this many lines past the last one on show.
PAINT_HIGHLIGHT_MARGIN = 4
# The worker colours the rest of a document once it has been on show this long.
HIGHLIGHT_DELAY_S = 0.15
# Source map marks (tcdebug.torchtext.source_map): nodes produced, graph break, resume point, none.
_GUTTER_KINDS = {
    "nodes": Style(color="green"),
    "break": Style(color="red", bold=True),
    "resume": Style(color="cyan", bold=True),
    "none": Style(dim=True),
}


@dataclass(frozen=True)
class Match:
    line: int
    start: int
    end: int


class CodeView(ScrollView, can_focus=True):
    """Shows one text with line numbers, syntax colours and search matches."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("shift+left", "scroll_left_page", "Page left", id="code_page_left", show=False),
        Binding("shift+right", "scroll_right_page", "Page right", id="code_page_right", show=False),
        Binding("shift+home", "scroll_line_start", "Line start", id="code_line_start", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "code-view--gutter",
        "code-view--match",
        "code-view--current-match",
        "code-view--trail",
    }

    DEFAULT_CSS = """
    CodeView {
        background: $surface;
        .code-view--gutter { color: $text-muted; background: $surface; }
        .code-view--match { background: $warning 40%; }
        .code-view--current-match { background: $accent; color: $text; text-style: bold; }
        .code-view--trail { background: $success 30%; }
    }
    """

    class Highlighted(Message):
        """Posted from the highlight worker with the coloured lines of one document."""

        def __init__(self, generation: int, cache_key: tuple[str, str], lines: list[Text]) -> None:
            super().__init__()
            self.generation = generation
            self.cache_key = cache_key  # (language, text)
            self.lines = lines

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.lines: list[str] = [""]
        self.language = "text"
        self._text = ""  # the document as given (before `plain_lines`)
        self.styled: list[Text] | None = None
        self.generation = 0
        self.document_key: Hashable | None = None
        self._max_width = 0
        self._strips: LRUCache[tuple[int, int], Strip] = LRUCache(maxsize=2000)
        # Highlighted documents by (language, text): the recompiles of a frame share their
        # source, and often their bytecode and graphs, whatever stage row shows them.
        self._highlighted_docs: LRUCache[tuple[str, str], list[Text]] = LRUCache(maxsize=16)
        # a document's text, display lines and widest line, for switching back to it
        self._plain_docs: LRUCache[Hashable, tuple[str, list[str], int]] = LRUCache(maxsize=16)
        self._lowered: list[str] | None = None
        self._prefix: list[Text] = []  # the first lines, highlighted while painting
        self._awaits_colours = False  # a document the worker (or the painted prefix) will colour
        self._painted_plain = False  # a line was painted without the colours it awaits
        self._highlighting = False  # the worker was started for this document
        self.search_term = ""
        self.matches: list[Match] = []
        self.match_index = -1
        self._line_matches: dict[int, list[tuple[int, int, int]]] = {}
        self.marked: frozenset[int] = frozenset()  # 0-based lines of a followed op (`f`)
        self.gutter_labels: dict[int, tuple[str, str]] = {}  # 1-based line -> (label, kind): source map

    # ----- document ------------------------------------------------------------------
    def set_document(self, text: str, language: str = "text", key: Hashable | None = None) -> None:
        """Show `text`; `key` names the document so its highlighting can be reused."""
        if key is not None and key == self.document_key and self.generation:
            return
        self.generation += 1
        self.document_key = key
        self._text = text
        self.marked = frozenset()
        self.gutter_labels = {}
        self.language = language
        plain = self._plain_docs.get(key) if key is not None else None
        if plain is None or plain[0] != text:  # the same text only (a memcmp), whatever the key
            lines = plain_lines(text)
            plain = (text, lines, max((len(line) for line in lines), default=0))
            if key is not None:
                self._plain_docs[key] = plain
        _, self.lines, self._max_width = plain
        self._lowered = None
        cached = self._highlighted_docs.get((language, text))
        self.styled = cached
        self._prefix = []
        self._awaits_colours = cached is None and language not in ("text", "") and len(text) <= HIGHLIGHT_LIMIT
        self._painted_plain = False
        self._highlighting = False
        # The worker colouring the document before would hold the GIL against this one's paint.
        self.workers.cancel_group(self, "code-view-highlight")
        self._strips.clear()
        self._recompute_matches(keep_position=False)
        self.scroll_to(0, 0, animate=False, immediate=True)
        self._update_virtual_size()
        self.refresh()
        if self._awaits_colours:
            # The lines on show are coloured as they are painted; the rest waits until the user
            # stays on the document: pygments in its thread shares the GIL with the UI thread,
            # and stepping on through stages would pay for documents already left.
            generation = self.generation
            self.set_timer(HIGHLIGHT_DELAY_S, lambda: self._start_highlight(generation))

    def _start_highlight(self, generation: int) -> None:
        # Not replaced in the meantime, not wholly highlighted by the first paint, not started.
        if generation == self.generation and self.styled is None and not self._highlighting:
            self._highlighting = True
            self._highlight(generation, self._text, self.language)

    def scroll_to_line(self, line: int) -> None:
        """Put `line` (0-based) at the top of the view, as far as the document allows."""
        self.scroll_to(0, max(0, line), animate=False, immediate=True, force=True)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def is_highlighted(self) -> bool:
        return self.styled is not None

    @work(thread=True, exclusive=True, group="code-view-highlight")
    def _highlight(self, generation: int, text: str, language: str) -> None:
        worker = get_current_worker()
        try:
            # A newer document cancels this worker (exclusive): stop early rather than keep
            # competing with the UI thread for the GIL while the user moves on.
            lines = highlight_lines(text, language, should_stop=lambda: worker.is_cancelled)
        except HighlightCancelled:
            return
        self.post_message(self.Highlighted(generation, (language, text), lines))

    def on_code_view_highlighted(self, message: CodeView.Highlighted) -> None:
        message.stop()
        self._highlighted_docs[message.cache_key] = message.lines
        if message.generation != self.generation or len(message.lines) != len(self.lines):
            return
        self.styled = message.lines
        self._awaits_colours = False
        prefix, self._prefix = self._prefix, []
        if not self._painted_plain and prefix and message.lines[: len(prefix)] == prefix:
            return  # every line painted so far already has these colours
        self._strips.clear()
        self.refresh()

    def _painted_colours(self, index: int) -> list[Text] | None:
        """Highlighted lines that include `index` while the worker's are not here: the prefix of
        the document down to just past the lines on show, lexed now (the same lexer from the
        same start, so the same colours). None beyond `PAINT_HIGHLIGHT_LINES`."""
        if index < len(self._prefix):
            return self._prefix
        if index >= PAINT_HIGHLIGHT_LINES:
            if not self._painted_plain:  # lines on show wait for the worker: start it now
                self._painted_plain = True
                self.call_after_refresh(self._start_highlight, self.generation)
            return None
        bottom = round(self.scroll_offset.y) + max(1, self.scrollable_content_region.height)
        end = min(len(self.lines), PAINT_HIGHLIGHT_LINES, max(index + 1, bottom) + PAINT_HIGHLIGHT_MARGIN)
        lines = highlight_lines("\n".join(self.lines[:end]), self.language)[:end]
        lines += [Text(line) for line in self.lines[len(lines) : end]]  # a blank last line is dropped
        if end == len(self.lines):  # the whole document: no worker needed
            self.styled = lines
            self._awaits_colours = False
            self._highlighted_docs[(self.language, self._text)] = lines
            return lines
        self._prefix = lines
        return lines

    def set_gutter(self, labels: dict[int, tuple[str, str]]) -> None:
        """Show `labels` (1-based line -> (label, kind)) instead of the line numbers."""
        self.gutter_labels = labels
        self._update_virtual_size()
        self.refresh()

    def mark_lines(self, lines: list[int], focus: int | None = None) -> None:
        """Mark the 1-based `lines` (an op followed with `f`) and scroll `focus` into view."""
        self.marked = frozenset(n - 1 for n in lines if 0 < n <= len(self.lines))
        self._strips.clear()
        # Marked lines are read from their start: a sideways scroll left from before (a `/` match
        # far right) would show only their tails.
        self.scroll_to(x=0, animate=False, immediate=True)
        if focus is not None and 0 < focus <= len(self.lines):
            self._scroll_into_view(focus - 1)
            self.call_after_refresh(self._scroll_into_view, focus - 1)  # a new document: after layout
        self.refresh()

    def _scroll_into_view(self, index: int) -> None:
        height = max(1, self.scrollable_content_region.height)
        y = self.scroll_offset.y
        if not (y <= index < y + height):
            self.scroll_to(y=max(0, index - height // 3), animate=False, immediate=True)

    # ----- search --------------------------------------------------------------------
    def search(self, term: str) -> int:
        """Mark every occurrence of `term` (case-insensitive unless it has capitals).

        Moves to the first match at or after the top visible line; returns the count.
        """
        self.search_term = term
        self._recompute_matches(keep_position=False)
        if self.matches:
            top = round(self.scroll_offset.y)
            first = next((i for i, m in enumerate(self.matches) if m.line >= top), 0)
            self._go_to_match(first)
        self._strips.clear()
        self.refresh()
        return len(self.matches)

    def clear_search(self) -> None:
        self.search_term = ""
        self._recompute_matches(keep_position=False)
        self._strips.clear()
        self.refresh()

    def next_match(self, direction: int = 1) -> Match | None:
        """Move to the next (`direction=1`) or previous (`-1`) match, wrapping around."""
        if not self.matches:
            return None
        if self.match_index < 0:
            index = 0 if direction > 0 else len(self.matches) - 1
        else:
            index = (self.match_index + direction) % len(self.matches)
        self._go_to_match(index)
        return self.matches[index]

    @property
    def match_status(self) -> str:
        if not self.search_term:
            return ""
        if not self.matches:
            return "no matches"
        return f"{self.match_index + 1}/{len(self.matches)}"

    def _recompute_matches(self, *, keep_position: bool) -> None:
        self.matches = []
        self._line_matches = {}
        self.match_index = -1
        term = self.search_term
        if not term:
            return
        fold = term == term.lower()
        if fold and self._lowered is None:
            self._lowered = [line.lower() for line in self.lines]
        haystack = self._lowered if fold else self.lines
        assert haystack is not None
        size = len(term)
        for number, line in enumerate(haystack):
            start = line.find(term)
            while start != -1:
                self._line_matches.setdefault(number, []).append((start, start + size, len(self.matches)))
                self.matches.append(Match(number, start, start + size))
                start = line.find(term, start + size)

    def go_to_match_at(self, line: int, column: int) -> bool:
        """Make the match at 0-based `line` (at `column`, else the line's first) the current one and
        show it; False when that line has no match."""
        on_line = self._line_matches.get(line, [])
        if not on_line:
            return False
        number = next((n for start, _, n in on_line if start == column), on_line[0][2])
        self._go_to_match(number)
        return True

    def _go_to_match(self, index: int) -> None:
        self.match_index = index
        match = self.matches[index]
        height = max(1, self.scrollable_content_region.height)
        width = max(1, self.scrollable_content_region.width - self.gutter_width)
        y = self.scroll_offset.y
        if not (y <= match.line < y + height):
            y = max(0, match.line - height // 2)
        x = self.scroll_offset.x
        if match.start < x or match.end > x + width:
            x = max(0, match.start - 8)
        self.scroll_to(x, y, animate=False, immediate=True)
        self.refresh()

    # ----- rendering -----------------------------------------------------------------
    @property
    def gutter_width(self) -> int:
        if self.gutter_labels:
            return max(len(label) for label, _ in self.gutter_labels.values()) + 2
        return len(str(len(self.lines))) + 2

    def _update_virtual_size(self) -> None:
        """Without a layout of the screen unless the scrollbars come or go (`_scroll_update`
        asks for one then): the view's own size does not depend on its document."""
        size = Size(self._max_width + self.gutter_width + 1, len(self.lines))
        if size == self.virtual_size:
            return
        self.set_reactive(CodeView.virtual_size, size)
        self._scroll_update(size)
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if index >= len(self.lines):
            return Strip.blank(width, base)
        gutter_style = self.get_component_rich_style("code-view--gutter")
        gutter = self.gutter_width
        label = self.gutter_labels.get(index + 1) if self.gutter_labels else None
        if label is not None:
            style = gutter_style + _GUTTER_KINDS.get(label[1], Style())
            number = Strip([Segment(f"{label[0]:<{gutter - 1}} ", style)], gutter)
        elif self.gutter_labels:
            number = Strip([Segment(" " * gutter, gutter_style)], gutter)
        else:
            number = Strip([Segment(f"{index + 1:>{gutter - 1}} ", gutter_style)], gutter)
        current = 0 <= self.match_index < len(self.matches) and self.matches[self.match_index].line == index
        key = (index, self.match_index if current else -1)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._render_code(index, base)
            self._strips[key] = strip
        code = strip.crop_extend(scroll_x, scroll_x + max(0, width - gutter), base)
        return Strip.join([number, code])

    def _render_code(self, index: int, base: Style) -> Strip:
        styled = self.styled
        if styled is None and self._awaits_colours:
            styled = self._painted_colours(index)
        line_matches = self._line_matches.get(index, ())
        if styled is not None and index < len(styled):
            if not line_matches and index not in self.marked:
                fast = _strip_of_runs(styled[index], base)
                if fast is not None:
                    return fast
            text = styled[index].copy()
        else:
            text = Text(self.lines[index])
        text.stylize_before(base)
        if index in self.marked:
            text.stylize(self.get_component_rich_style("code-view--trail"))
        for start, end, match_number in line_matches:
            name = "code-view--current-match" if match_number == self.match_index else "code-view--match"
            text.stylize(self.get_component_rich_style(name), start, end)
        text.end = ""
        return Strip(list(text.render(self.app.console)), text.cell_len)

    # ----- horizontal scrolling -------------------------------------------------------
    def action_scroll_left_page(self) -> None:
        width = max(1, self.scrollable_content_region.width - self.gutter_width)
        self.scroll_to(x=max(0, self.scroll_offset.x - width // 2), animate=False)

    def action_scroll_right_page(self) -> None:
        width = max(1, self.scrollable_content_region.width - self.gutter_width)
        self.scroll_to(x=self.scroll_offset.x + width // 2, animate=False)

    def action_scroll_line_start(self) -> None:
        self.scroll_to(x=0, animate=False)


def _strip_of_runs(text: Text, base: Style) -> Strip | None:
    """The strip of a highlighted line whose spans follow one another without overlapping (as
    `highlight_lines` makes them), without rich's general span resolution: a third of the time
    of `Text.render`, the same segments. None for any other line."""
    if text.style:
        return None
    plain = text.plain
    segments: list[Segment] = []
    at = 0
    for start, end, style in text.spans:
        if start < at or isinstance(style, str):
            return None
        if start > at:
            segments.append(Segment(plain[at:start], base))
        segments.append(Segment(plain[start:end], base + style))
        at = end
    if at < len(plain):
        segments.append(Segment(plain[at:], base))
    return Strip(segments, text.cell_len)
