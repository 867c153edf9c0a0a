"""`tcdebug.textsafe` for styled text: a `rich.text.Text` whose plain text holds no terminal control.

Rich `Text` (and Textual `Content`) objects are never read as markup, so `[@click=app.quit]` in a
function name stays text; this makes their characters safe too, keeping the styles where they were.
"""

from __future__ import annotations

from rich.text import Span, Text

from tcdebug.textsafe import is_safe, safe_line, safe_text


def safe_rich(text: Text, *, one_line: bool = False) -> Text:
    """`text` with every control character visible (`safe_line` when `one_line`), spans kept."""
    plain = text.plain
    if is_safe(plain, one_line=one_line):
        return text
    fix = safe_line if one_line else safe_text
    end = len(plain)
    cuts = sorted({0, end, *(min(s.start, end) for s in text.spans), *(min(s.end, end) for s in text.spans)})
    new_at = {0: 0}
    pieces: list[str] = []
    pos = 0
    for start, stop in zip(cuts, cuts[1:], strict=False):
        piece = fix(plain[start:stop])
        pieces.append(piece)
        pos += len(piece)
        new_at[stop] = pos
    spans = [Span(new_at[min(s.start, end)], new_at[min(s.end, end)], s.style) for s in text.spans]
    return Text(  # text-safe: each piece made safe above
        "".join(pieces),
        style=text.style,
        justify=text.justify,
        overflow=text.overflow,
        no_wrap=text.no_wrap,
        end=text.end,
        spans=spans,
    )


def safe_label(text: object, style: str = "") -> Text:
    """One line of untrusted text as a `Text` (never markup), made safe."""
    return Text(safe_line(text), style)
