"""Syntax highlighting for stage texts: pygments tokens -> one rich `Text` per line.

Pure functions, safe to call from a worker thread. `plain_lines` and
`highlight_lines` split a text the same way, so a highlighted line can replace a
plain one in place.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from pygments.lexer import Lexer, RegexLexer, bygroups
from pygments.lexers import CppLexer, PythonLexer, TextLexer
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Whitespace,
    _TokenType,
)
from pygments.token import (
    Text as TextToken,
)
from rich.style import Style
from rich.syntax import PygmentsSyntaxTheme, Syntax
from rich.text import Text

from tcdebug.textsafe import is_safe, safe_line

TAB_SIZE = 4
THEME = "monokai"


class DisLexer(RegexLexer):
    """`dis` listings: line numbers, offsets, jump targets, opnames, arguments."""

    name = "dis"
    aliases = ["dis"]
    tokens = {
        "root": [
            (r"^(\s*)(\d+)(?=\s)", bygroups(Whitespace, Name.Label)),
            (r"-->|>>", Operator),
            (r"\b\d+\b(?=\s+[A-Z_]{2,})", Number),
            (r"\b[A-Z][A-Z0-9_]+\b", Keyword),
            (r"\(.*?\)(?=\s*$)", String),
            (r"\b\d+\b", Number),
            (r"#.*$", Comment.Single),
            (r"[^\S\n]+", Whitespace),
            (r"\n", Whitespace),
            (r".", TextToken),
        ]
    }


class GuardsLexer(RegexLexer):
    """Dynamo guard trees (`TREE_GUARD_MANAGER`) and plain guard lists."""

    name = "guards"
    aliases = ["guards"]
    tokens = {
        "root": [
            (r"^[ \t|+\-]+", Comment.Special),  # the tree drawing
            (r"\b[A-Z][A-Z0-9_]{2,}\b", Keyword),  # TENSOR_MATCH, ID_MATCH, ...
            (r"\b[A-Z]\w*GuardManager\b|\bGuardManager\b", Name.Class),
            (r"\bsource=|\baccessed_by=", Name.Attribute),
            (r"'[^'\n]*'|\"[^\"\n]*\"", String),
            (r"\b\d+(\.\d+)?\b", Number),
            (r"==|!=|<=|>=|[<>]|\bis not\b|\bis\b|\bnot\b|\band\b|\bor\b|\bin\b", Operator),
            (r"#.*$", Comment.Single),
            (r"[\[\](){},.:]", Punctuation),
            (r"\w+", Name),
            (r"\s+", Whitespace),
            (r".", TextToken),
        ]
    }


class IRLexer(RegexLexer):
    """Inductor IR dumps: buffers, scheduler nodes, loop bodies."""

    name = "ir"
    aliases = ["ir"]
    tokens = {
        "root": [
            (r"#.*$", Comment.Single),
            (r"\b(buf|op|arg|primals_|tangents_)\d+(_\d+)?\b", Name.Variable),
            (
                r"\b(def|return|class|if|else|for|in|None|True|False|lambda)\b",
                Keyword,
            ),
            (r"\b[A-Z][A-Za-z0-9]*(?=[(:\s])", Name.Class),  # SchedulerNode, ComputedBuffer
            (r"\bops\.\w+|\b[a-z_]\w*(?=\()", Name.Function),
            (r"'[^'\n]*'|\"[^\"\n]*\"", String),
            (r"\b\d+(\.\d+)?(e-?\d+)?\b", Number),
            (r"[=+\-*/%<>!]+", Operator),
            (r"[\[\](){},.:]", Punctuation),
            (r"\w+", Name),
            (r"\s+", Whitespace),
            (r".", TextToken),
        ]
    }


def clean_line(line: str) -> str:
    """One line made safe to paint: a carriage return keeps what was written after it (progress
    bars), tabs are expanded, and every other control character or escape sequence shows as
    visible text (`tcdebug.textsafe.safe_line`: ESC as `␛`), never reaching the terminal."""
    if "\r" in line:
        parts = [p for p in line.split("\r") if p]
        line = parts[-1] if parts else ""
    if not is_safe(line, one_line=True):
        line = safe_line(line)
    return line.expandtabs(TAB_SIZE) if "\t" in line else line


def plain_lines(text: str) -> list[str]:
    """The text split into display lines (always at least one)."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    if is_safe(text):  # one scan in C: no control characters but tabs and newlines, no \r
        if "\t" not in text:
            return lines
        return [line.expandtabs(TAB_SIZE) if "\t" in line else line for line in lines]
    return [clean_line(line) for line in lines]


def lexer_for(language: str) -> Lexer:
    options = {"stripnl": False, "ensurenl": False, "tabsize": 0}
    lexer_cls: type[Lexer] = {
        "python": PythonLexer,
        "triton": PythonLexer,
        "cpp": CppLexer,
        "c++": CppLexer,
        "dis": DisLexer,
        "guards": GuardsLexer,
        "ir": IRLexer,
    }.get(language.lower(), TextLexer)
    return lexer_cls(**options)


WARMED_LANGUAGES = ("python", "cpp", "dis", "guards", "ir")


def warm_lexers() -> None:
    """Compile every lexer's patterns and load the theme. Pygments does that on a lexer's first
    use, which the first stage shown would otherwise pay."""
    for language in WARMED_LANGUAGES:
        highlight_lines("x = f(1)\n", language)


@lru_cache(maxsize=4)
def _theme(name: str) -> PygmentsSyntaxTheme:
    theme = Syntax.get_theme(name)
    assert isinstance(theme, PygmentsSyntaxTheme)
    return theme


@lru_cache(maxsize=512)
def _token_style(theme_name: str, token_type: _TokenType) -> Style:
    style = _theme(theme_name).get_style_for_token(token_type)
    # Keep only the foreground: the widget's own background shows through.
    return Style(color=style.color, bold=style.bold, italic=style.italic)


class HighlightCancelled(Exception):
    """`highlight_lines` stopped because its `should_stop` said so."""


def highlight_lines(
    text: str, language: str, theme: str = THEME, should_stop: Callable[[], bool] | None = None
) -> list[Text]:
    """Highlight `text` and split it into lines, matching `plain_lines(text)` one to one.

    `should_stop` is polled every few thousand tokens; when it returns True the work is
    abandoned with `HighlightCancelled` (a worker whose document was replaced stops early
    instead of holding the GIL against the UI thread)."""
    plain = plain_lines(text)
    if language.lower() in ("", "text", "plain"):
        return [Text(line) for line in plain]
    source = "\n".join(plain)
    lexer = lexer_for(language)
    lines: list[Text] = [Text()]
    for count, (token_type, value) in enumerate(lexer.get_tokens(source)):
        if should_stop is not None and count % 2048 == 2047 and should_stop():
            raise HighlightCancelled
        style = _token_style(theme, token_type)
        parts = value.split("\n")
        for index, part in enumerate(parts):
            if index:
                lines.append(Text())
            if part:
                lines[-1].append(part, style if style else None)
    del lines[len(plain) :]
    while len(lines) < len(plain):
        lines.append(Text(plain[len(lines)]))
    return lines
