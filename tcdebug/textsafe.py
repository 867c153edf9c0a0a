"""The one sanitizer for text that reaches a terminal.

Function names, file names, reasons, notes and output come from scripts, logs and dumps that
may be hostile. Control characters (C0 other than tab and newline, DEL, C1), escape sequences
(CSI, OSC, ...) and Unicode bidi controls become visible escapes: ESC shows as `␛`, the others
as `\\xNN` / `\\uNNNN`. Nothing here interprets them.
"""

from __future__ import annotations

import re

ESC_GLYPH = "␛"

# Bidi embeddings, overrides and isolates, and the marks that reorder text.
_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_UNSAFE_RE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")
_UNSAFE_LINE_RE = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{_BIDI}]")


def _visible(match: re.Match[str]) -> str:
    ch = match.group()
    if ch == "\x1b":
        return ESC_GLYPH
    if ch == "\n":
        return "\\n"
    if ch == "\r":
        return "\\r"
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def safe_text(text: object) -> str:
    """`text` with every terminal control made visible; tabs and newlines are kept.

    A CRLF line end is read as a newline, as editors do.
    """
    s = text if isinstance(text, str) else str(text)
    if "\r\n" in s:
        s = s.replace("\r\n", "\n")
    return _UNSAFE_RE.sub(_visible, s) if _UNSAFE_RE.search(s) else s


def safe_line(text: object) -> str:
    """`text` for one line of a terminal: like `safe_text`, and newlines show as `\\n`."""
    s = text if isinstance(text, str) else str(text)
    return _UNSAFE_LINE_RE.sub(_visible, s) if _UNSAFE_LINE_RE.search(s) else s


def is_safe(text: str, *, one_line: bool = False) -> bool:
    """True when `text` holds nothing `safe_text` (or `safe_line`) would change."""
    pattern = _UNSAFE_LINE_RE if one_line else _UNSAFE_RE
    return pattern.search(text) is None
