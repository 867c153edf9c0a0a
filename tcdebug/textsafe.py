"""The one sanitizer for text that reaches a terminal.

Function names, file names, reasons, notes and output come from scripts, logs and dumps that
may be hostile. Control characters (C0 other than tab and newline, DEL, C1), escape sequences
(CSI, OSC, DCS, ...), Unicode bidi controls, zero-width and invisible characters, line and
paragraph separators and lone surrogates become visible escapes: ESC shows as `␛`, the others as
`\\xNN` / `\\uNNNN`. Nothing here interprets them.

`print_safe` is the CLI's one way to print: the text made safe, then fitted to the stream's
encoding (a terminal that is not UTF-8 gets ASCII bars and escapes, never `UnicodeEncodeError`).
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

ESC_GLYPH = "␛"

# Bidi embeddings, overrides and isolates, and the marks that reorder text.
_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# Characters that show nothing (zero-width spaces and joiners, word joiner, invisible operators,
# BOM, soft hyphen, Mongolian vowel separator), line and paragraph separators, lone surrogates.
_INVISIBLE = "\u00ad\u180e\u200b-\u200d\u2028\u2029\u2060-\u2064\ufeff\ud800-\udfff"
_UNSAFE_RE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}{_INVISIBLE}]")
_UNSAFE_LINE_RE = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{_BIDI}{_INVISIBLE}]")
# The ASCII characters `safe_text` leaves as they are: the printable ones, tab and newline. An
# ASCII text made of them only is checked in C at memory speed (a search of `_UNSAFE_RE` walks a
# big text at a few tens of instructions a character).
_ASCII_KEPT = bytes(range(0x20, 0x7F)) + b"\t\n"


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
    if s.isascii() and not s.encode("ascii").translate(None, _ASCII_KEPT):
        return s
    return _UNSAFE_RE.sub(_visible, s) if _UNSAFE_RE.search(s) else s


def safe_line(text: object) -> str:
    """`text` for one line of a terminal: like `safe_text`, and newlines show as `\\n`."""
    s = text if isinstance(text, str) else str(text)
    return _UNSAFE_LINE_RE.sub(_visible, s) if _UNSAFE_LINE_RE.search(s) else s


def is_safe(text: str, *, one_line: bool = False) -> bool:
    """True when `text` holds nothing `safe_text` (or `safe_line`) would change."""
    pattern = _UNSAFE_LINE_RE if one_line else _UNSAFE_RE
    return pattern.search(text) is None


# What a terminal that cannot show a glyph gets instead (bars, the escape glyph, separators).
ASCII_FALLBACK = str.maketrans(
    {
        "█": "#", "▉": "#", "▊": "#", "▋": "#", "▌": "=", "▍": "=", "▎": "-", "▏": "-", "░": ".",
        ESC_GLYPH: "\\x1b", "·": "-", "…": "...", "→": "->", "←": "<-", "↻": "~", "⚠": "!", "✓": "ok",
        "✗": "x", "—": "-", "–": "-", "│": "|", "─": "-",
    }
)  # fmt: skip


def fit_encoding(text: str, encoding: str | None) -> str:
    """`text` as a stream of `encoding` can write it: unchanged when it can, else with the glyphs
    of `ASCII_FALLBACK` replaced and anything else left as a `\\uNNNN` escape."""
    codec = encoding or "utf-8"
    try:
        text.encode(codec)
        return text
    except UnicodeEncodeError:
        pass
    except LookupError:
        codec = "ascii"
    return text.translate(ASCII_FALLBACK).encode(codec, "backslashreplace").decode(codec)


def print_safe(text: object, *, file: TextIO | None = None, one_line: bool = False) -> None:
    """Print untrusted `text` to a terminal (stdout by default): made safe (`safe_text`, or
    `safe_line` when `one_line`), then fitted to the stream's encoding."""
    stream = file if file is not None else sys.stdout
    clean = safe_line(text) if one_line else safe_text(text)
    print(fit_encoding(clean, getattr(stream, "encoding", None)), file=stream)
