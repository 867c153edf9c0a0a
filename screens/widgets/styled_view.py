"""A `CodeView` whose lines come already styled (guard checks, diffs) instead of from pygments.

It keeps the Line API rendering, search and scrolling of `CodeView`.
"""

from __future__ import annotations

from collections.abc import Hashable

from rich.text import Text

from tcdebug.screens.widgets.code_view import CodeView
from tcdebug.screens.widgets.highlight import clean_line


class StyledView(CodeView):
    """Shows a list of `rich.text.Text` lines as they are."""

    def set_lines(self, lines: list[Text], key: Hashable | None = None) -> None:
        clean = [_clean(line) for line in lines] or [Text("")]
        self.document_key = None  # always repaint: the same key may carry new styles
        self.set_document("\n".join(line.plain for line in clean), "text", key=None)
        if len(self.lines) == len(clean):
            self.styled = clean
            self._strips.clear()
            self.refresh()
        self.document_key = key


def _clean(line: Text) -> Text:
    plain = line.plain
    if "\n" in plain:
        line = Text(plain.replace("\n", " "), style=line.style)
        plain = line.plain
    if clean_line(plain) != plain:
        return Text(clean_line(plain), style=line.style)
    return line
