"""Dynamo's own texts: graph-break reasons, recompile reasons, compile failures.

Shared by the live capture (`tcdebug.capture.dynamo_events`) and the TORCH_TRACE reader
(`tcdebug.trace`), which receive the same payloads. Stdlib only.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from tcdebug.errors import headline

_BREAK_AT = "Graph break in user code at "


def split_graph_break(payload: str, *, hide_runner_frames: bool = False) -> tuple[str, list[str]]:
    """Dynamo's graph-break text -> (reason, user stack frames, innermost last).

    The payload is "Graph break in user code at F:L / Graph Break Reason: ... /
    User code traceback: <frames> / <Python traceback>". With `hide_runner_frames`
    (a script run under tcdebug), frames of tcdebug and runpy are left out, and when no
    frame is left the break's own location stands in for the stack.
    """
    head, _, rest = payload.strip().partition("User code traceback:")
    _, found, reason = head.partition("Graph Break Reason:")
    frames: list[list[str]] = []
    for line in rest.split("Traceback (most recent call last):")[0].splitlines():
        if line.lstrip().startswith('File "'):
            frames.append([line.rstrip()])
        elif frames and line.strip():
            frames[-1].append(line.rstrip())
    if hide_runner_frames:
        from tcdebug.process.our_frames import is_our_frame_line

        frames = [f for f in frames if not is_our_frame_line(f[0])]
    stack = ["\n".join(f) for f in frames]
    first = head.splitlines()[0] if head else ""
    if hide_runner_frames and not stack and first.startswith(_BREAK_AT):
        path, _, lineno = first[len(_BREAK_AT) :].strip().rpartition(":")
        stack = [f'  File "{path}", line {lineno}']
    return (reason if found else head).strip(), stack


def recompile_reasons(payload: str | None) -> str:
    """The `recompile_reasons` artifact (a JSON list in logs, a Python list in-process), one per line."""
    text = (payload or "").strip()
    try:
        value: Any = json.loads(text)
    except ValueError:
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return text
    if isinstance(value, (list, tuple)):
        return "\n".join(str(v) for v in value)
    return str(value)


_REASON_HEAD = re.compile(r"^(?P<entry>!?[\d/_#@!]+): (?P<text>.*)$")
_STACK_HEAD = "User stack trace:"


@dataclass(frozen=True)
class RecompileReason:
    """One failed cache entry in a compile's recompile reasons."""

    entry: str  # the entry whose guards failed (`0/1`), "" where torch's text names none
    text: str  # torch's reason (`n == 2   # return x * n + 1  # limit.py:5 in f`)
    stack: tuple[str, ...] = ()  # the user stack torch put after it, its lines stripped


def split_recompile_reasons(reasons: str) -> list[RecompileReason]:
    """A compile's recompile reasons (`recompile_reasons`' lines) -> one per failed entry.

    Each starts `ENTRY: reason`; torch may follow a reason with `User stack trace:` and that
    stack's indented lines (`  File "f.py", line 5, in f` / `    code`), which belong to it."""
    out: list[RecompileReason] = []
    in_stack = False
    for raw in reasons.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line == _STACK_HEAD and out:
            in_stack = True
            continue
        if in_stack and raw[:1].isspace():
            last = out[-1]
            out[-1] = RecompileReason(last.entry, last.text, (*last.stack, line))
            continue
        in_stack = False
        m = _REASON_HEAD.match(line)
        out.append(RecompileReason(m["entry"], m["text"]) if m else RecompileReason("", line))
    return out


def compile_outcome(metrics: dict[str, Any]) -> tuple[bool, str]:
    """(failed, one-line error) from a compile's compilation metrics.

    A compile with a `fail_type` that still installed guarded code (e.g. after a graph
    break restart) did not fail; its error is still reported.
    """
    failed = bool(metrics.get("fail_type")) and not metrics.get("has_guarded_code", True)
    error = ""
    if metrics.get("fail_type"):
        reason = str(metrics.get("fail_reason") or "").strip()
        error = headline(f"{metrics.get('fail_type')}: {reason}".strip(": "))
    return failed, error


def compiled_autograd_reasons(payload: str | None) -> str:
    """Why compiled autograd's cache missed (`compiled_autograd_compile_reasons`, a JSON list of
    strings), one reason per line; a payload of another shape as it is."""
    text = (payload or "").strip()
    try:
        reasons = json.loads(text)
    except ValueError:
        return text
    if isinstance(reasons, list):
        return "\n".join(str(r).strip() for r in reasons if str(r).strip())
    return str(reasons).strip()


def symbol_created(info: dict[str, Any]) -> str:
    """A `create_symbol` record's metadata as the first step of the symbol's specialization chain:
    `L['x'].size()[0] = 8, range [2, int_oo]`."""
    return f"{info.get('source', '?')} = {info.get('val', '?')}, range {info.get('vr', '?')}"
