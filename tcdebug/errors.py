"""One-line texts for errors and reasons, shared by the target, the CLI and the UI."""

from __future__ import annotations


def headline(text: str) -> str:
    """The first meaningful line of a multi-line error message.

    Dynamo wraps backend errors as `backend='x' raised:` followed by the inner error on the
    next line; those two lines are joined so the real cause stays visible.
    """
    lines = [ln.strip() for ln in str(text).strip().splitlines() if ln.strip()]
    if not lines:
        return ""
    first = lines[0]
    if first.endswith(":") and len(lines) > 1:
        return f"{first} {lines[1]}"
    return first


def first_line(text: str, width: int = 160) -> str:
    """The first line of `text`, cut to `width` characters with an ellipsis."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= width else line[: width - 1] + "…"
