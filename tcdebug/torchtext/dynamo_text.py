"""Dynamo's own texts: graph-break reasons, recompile reasons, compile failures.

Shared by the live capture (`tcdebug.capture.dynamo_events`) and the TORCH_TRACE reader
(`tcdebug.trace`), which receive the same payloads. Stdlib only.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from typing import Any, NamedTuple

from tcdebug.errors import headline
from tcdebug.lazy_re import lazy_re
from tcdebug.model.payloads import Frame, SharedValues

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


class RecompileReason(NamedTuple):
    """One failed cache entry in a compile's recompile reasons (a tuple: cheap to define and make)."""

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


# Restart reasons that name no graph break: torch's `str(type(exc))` of a RestartAnalysis without a
# reason (`<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>`), and a speculation's
# `fail_and_restart_analysis` without one.
_RESTART_CLASS_RE = lazy_re(r"^<class '[\w.]*?(\w*RestartAnalysis)'>$")


def not_a_break(reason: str) -> bool:
    """Is a restart reason one that names no graph break (see `_RESTART_CLASS_RE`)?"""
    return bool(_RESTART_CLASS_RE().match(reason)) or reason.startswith("Unknown fail_and_restart_analysis")


def restart_cause(reason: str) -> str:
    """A restart reason, short: the RestartAnalysis class, else its first line."""
    m = _RESTART_CLASS_RE().match(reason)
    return m.group(1) if m else reason.splitlines()[0]


def restart_outcome(reasons: Any, logged: list[str]) -> tuple[str, list[str]]:
    """What the `restart_reasons` of an attempt's compilation metrics say of the attempt before it:
    its error (`restarted: <cause>`, "" without reasons), and the reasons that are graph breaks
    (torch restarts its analysis on a graph break in inlined code) that no earlier attempt logged
    (`logged`: the graph-break payloads of the earlier attempts). A restart for another cause (a
    scalar tensorified, `fail_and_restart_analysis` without a reason) is no graph break."""
    if not isinstance(reasons, list):
        return "", []
    texts = [str(reason).strip() for reason in reasons if str(reason).strip()]
    error = "restarted: " + "; ".join(restart_cause(t) for t in texts) if texts else ""
    seen = list(logged)
    breaks: list[str] = []
    for text in texts:
        head = text.splitlines()[0]
        if not_a_break(text) or any(head in r for r in seen):
            continue
        seen.append(text)
        breaks.append(text)
    return error, breaks


def restarted_reason(key: str) -> str:
    """Why an attempt that restarted lacks its graph, guards and code: they are a later attempt's."""
    return f"Dynamo restarted its analysis: the next attempt is {key}"


def earlier_attempt_reason(key: str) -> str:
    """Why an attempt lacks a stage that the attempt `key`, which restarted, holds (the source and
    original bytecode: Dynamo reads them once per frame compile)."""
    return f"in {key} (logged by the attempt that restarted)"


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


def _frame(key: tuple[str, int, str, str]) -> Frame:
    return Frame(file=sys.intern(key[0]), line=key[1], name=sys.intern(key[2]), code=sys.intern(key[3]))


# Frames shared by every compile that logs them: a frame recompiles several times, and a model
# calls its layers from few lines.
_FRAMES = SharedValues(_frame)


def user_frames(stack: Any) -> list[Frame]:
    """The frames of a logged `dynamo_start` stack outside torch, outermost first: the compile's
    call sites, for the stack trie."""
    if not isinstance(stack, list):
        return []
    frames: list[Frame] = []
    for f in stack:
        if not isinstance(f, dict) or not isinstance(f.get("line", 0), int):
            continue
        file = str(f.get("filename", ""))
        if is_torch_file(file):
            continue
        frames.append(_FRAMES.get((file, int(f.get("line") or 0), str(f.get("name", "")), str(f.get("loc") or ""))))
    return frames


def is_torch_file(filename: str) -> bool:
    return "/torch/" in filename.replace("\\", "/") or filename.startswith("<")
