"""One-line error texts, shared by the target and the UI."""

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
