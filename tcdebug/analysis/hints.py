"""Hints for the common causes of recompiles and breaks, each with what to do: a scalar made a
constant, the `training` flag, grad mode, a dtype or device change, `requires_grad`, a frame near its
recompile limit, a break inside a library called from the user's line. `w` shows a compile's hints;
the `--dump` summary states each hint once, with the compiles it is about."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from tcdebug.lazy_re import lazy_re
from tcdebug.model.session import Compile, GraphBreak, Session
from tcdebug.torchtext.dynamo_text import split_recompile_reasons

DEFAULT_RECOMPILE_LIMIT = 8  # torch._dynamo.config.recompile_limit's default
_LIMIT_SET = re.compile(r"currently set to (\d+)")
_VALUE_GUARD = re.compile(r"^(?P<source>\S+) == (?P<value>-?[\d.]+(?:e[-+]?\d+)?)\b")
_FRAME = lazy_re(r'File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<name>\S+))?')
_LIBRARY = ("/torch/", "/site-packages/", "/dist-packages/", "/lib/python3")


class HintKind(NamedTuple):
    """A kind of hint: its id, title and advice."""

    id: str
    title: str
    advice: str


KINDS: dict[str, HintKind] = {
    k.id: k
    for k in (
        HintKind(
            "scalar",
            "a Python float or int is a constant in the graph",
            "a value from `.item()` or a Python scalar is guarded by its value, so each new value recompiles, "
            "heading for the recompile limit. Keep it a tensor (compare tensors, `torch.where`), or set "
            "`torch._dynamo.config.capture_scalar_outputs = True` so `.item()` stays in the graph.",
        ),
        HintKind(
            "training",
            "a module's `training` flag changed",
            "`model.train()` / `model.eval()` between calls compiles once per mode; that is expected, but "
            "switch modes outside the hot loop, or compile the train and eval steps separately.",
        ),
        HintKind(
            "grad_mode",
            "grad mode changed between calls",
            "a call under `torch.no_grad()` (or `inference_mode`) and one without compile separately; call the "
            "compiled function under one grad mode, or compile one function per mode.",
        ),
        HintKind(
            "dtype",
            "an input's dtype changed",
            "each dtype is its own compile; cast inputs to one dtype before the call (e.g. `.float()`).",
        ),
        HintKind(
            "device",
            "an input's device changed",
            "each device is its own compile; move inputs to one device before the call.",
        ),
        HintKind(
            "requires_grad",
            "an input's `requires_grad` changed",
            "a tensor that needs grad and one that does not compile separately; `.detach()` inputs that need "
            "no grad, or set `requires_grad` the same way on every call.",
        ),
        HintKind(
            "recompile_limit",
            "a frame is near or at its recompile limit",
            "past `torch._dynamo.config.recompile_limit` compiles, torch runs the frame eagerly. Fix the cause "
            "of its recompiles (the hints above), mark a changing size dynamic (`torch._dynamo.mark_dynamic`), "
            "or raise the limit.",
        ),
        HintKind(
            "library_break",
            "a graph break inside a library, called from your line",
            "the break is in code you did not write; your line is the one to change: call it outside the "
            "compiled function, or see the break's registry entry for what torch supports.",
        ),
    )
}


@dataclass
class Hint:
    """A hint of one kind, with the compiles it is about."""

    kind: HintKind
    compiles: list[str] = field(default_factory=list)
    detail: str = ""  # the first occurrence, readable (the user's line for a break)

    @property
    def line(self) -> str:
        where = f" ({', '.join(self.compiles[:6])}{', ...' if len(self.compiles) > 6 else ''})"
        detail = f": {self.detail}" if self.detail else ""
        return f"{self.kind.title}{where}{detail}. {self.kind.advice}"


def readable_cause(text: str) -> str:
    """A recompile reason without Dynamo's guard-source comment (`  # code  # file:line in fn`)."""
    code = text.split("  #", 1)[0].strip()
    m = _VALUE_GUARD.match(code)
    if m:
        return f"{m['source']} (a Python scalar) was {m['value']}"
    return code


def _reason_kinds(reason: str) -> list[tuple[str, str]]:
    found = []
    for item in split_recompile_reasons(reason):
        text = item.text
        code = text.split("  #", 1)[0].strip()
        if _VALUE_GUARD.match(code):
            found.append(("scalar", readable_cause(text)))
        elif ".training ==" in code or "training mismatch" in code:
            found.append(("training", code))
        elif "grad_mode" in code:
            found.append(("grad_mode", code))
        elif "dtype mismatch" in code:
            found.append(("dtype", code))
        elif "device mismatch" in code or "dispatch key set mismatch" in code:  # keys name the device
            found.append(("device", code))
        elif "requires_grad mismatch" in code:
            found.append(("requires_grad", code))
    return found


def _frame_parts(entry: str) -> tuple[str, int, str] | None:
    m = _FRAME().search(entry)
    if m is None:
        return None
    code = entry.split("\n", 1)[1].strip() if "\n" in entry else ""
    return m["file"], int(m["line"]), code


def _is_library(path: str) -> bool:
    return any(part in path.replace("\\", "/") for part in _LIBRARY)


def library_break(comp: Compile) -> str:
    """`your_file.py:N code, inside optimizer.py:79` for the compile's first break that happened in a
    library called from the user's code; "" for none."""
    for gb in comp.graph_breaks:
        frames = [f for f in (_frame_parts(e) for e in gb.user_stack) if f is not None]
        if not frames or not _is_library(frames[-1][0]):
            continue
        if comp.filename and not _is_library(comp.filename):
            user = next((f for f in reversed(frames) if not _is_library(f[0])), None)
        else:
            user = None
        lib = frames[-1]
        inside = f"{lib[0].replace(chr(92), '/').rsplit('/', 1)[-1]}:{lib[1]}"
        if user is not None:
            return (
                f"your line {user[0].rsplit('/', 1)[-1]}:{user[1]} {user[2]}".strip() + f", inside {inside}"
            )
        return f"inside {inside}, called from {comp.shown_name}"
    return ""


def break_where(gb: GraphBreak) -> str:
    """Where a break happened, the user's line first: `train.py:24 opt.step(), inside optimizer.py:79`;
    "" when its stack names no frame."""
    frames = [f for f in (_frame_parts(e) for e in gb.user_stack) if f is not None]
    if not frames:
        return ""
    inner = frames[-1]
    user = next((f for f in reversed(frames) if not _is_library(f[0])), None)
    here = f"{inner[0].replace(chr(92), '/').rsplit('/', 1)[-1]}:{inner[1]}"
    if user is None or user == inner:
        return f"{here} {inner[2]}".strip()
    return (
        f"{user[0].replace(chr(92), '/').rsplit('/', 1)[-1]}:{user[1]} {user[2]}".strip() + f", inside {here}"
    )


def _frame_of(compile_id: str) -> str:
    core = compile_id.partition("@")[0].partition("#")[0]
    return core.rsplit("/", 1)[0]


def _limit(session: Session) -> int:
    """The recompile limit the run had: recorded with each compile's metrics live, else torch's message."""
    for comp in session.compiles.values():
        limit = comp.metrics.get("recompile_limit")
        if isinstance(limit, int) and limit > 0:
            return limit
    for comp in session.compiles.values():
        fail = comp.metrics.get("fail_reason")
        if not (fail or comp.error):
            continue  # most compiles: no text to search
        m = _LIMIT_SET.search(str(fail or "") + comp.error)
        if m:
            return int(m.group(1))
    return DEFAULT_RECOMPILE_LIMIT


def _hit_limit(comp: Compile) -> bool:
    fail = comp.metrics.get("fail_reason")
    if not (fail or comp.error):
        return False  # most compiles: no text to search
    return "recompile limit" in (comp.error + str(fail or ""))


def session_hints(session: Session, cancelled: Callable[[], bool] | None = None) -> list[Hint]:
    """Every hint the run calls for, once each, in the order of `KINDS`. `cancelled` (asked every
    few thousand compiles) ends the work early, with no hints."""
    found: dict[str, Hint] = {}
    named: set[tuple[str, str]] = set()  # (kind, compile id) added: a list search per compile is quadratic

    def add(kind: str, cid: str, detail: str) -> None:
        hint = found.setdefault(kind, Hint(KINDS[kind], detail=detail))
        if (kind, cid) not in named:
            named.add((kind, cid))
            hint.compiles.append(cid)

    comps = session.ordered_compiles()
    for i, comp in enumerate(comps):
        if cancelled is not None and not i % 2_000 and cancelled():
            return []
        if comp.recompile_reason:
            for kind, detail in _reason_kinds(comp.recompile_reason):
                add(kind, comp.compile_id, detail)
        lib = library_break(comp)
        if lib:
            add("library_break", comp.compile_id, lib)
    limit = _limit(session)
    per_frame: dict[str, list[Compile]] = {}
    for comp in comps:
        if "/" in comp.compile_id and not comp.compile_id.startswith(("-", "!")):
            per_frame.setdefault(_frame_of(comp.compile_id), []).append(comp)
    for frame_comps in per_frame.values():
        hit = any(_hit_limit(c) for c in frame_comps)
        if hit or (len(frame_comps) >= max(limit - 1, 2)):
            last = frame_comps[-1]
            detail = f"{last.shown_name} has {len(frame_comps)} compiles; the limit is {limit}"
            add("recompile_limit", last.compile_id, detail + (" (hit)" if hit else ""))
    return [found[k] for k in KINDS if k in found]


def hints_by_compile(hints: list[Hint]) -> dict[str, list[Hint]]:
    """`hints` (from `session_hints`) by each compile they name, in their order."""
    out: dict[str, list[Hint]] = {}
    for hint in hints:
        for cid in hint.compiles:
            out.setdefault(cid, []).append(hint)
    return out


def compile_hints(session: Session, comp: Compile, by_compile: dict[str, list[Hint]] | None = None) -> list[Hint]:
    """The hints about one compile (for `w`); `by_compile` (`hints_by_compile` of the session's
    hints) spares working out the whole session's hints again for each compile."""
    if by_compile is None:
        by_compile = hints_by_compile(session_hints(session))
    return list(by_compile.get(comp.compile_id, ()))


def hint_lines(session: Session, hints: list[Hint] | None = None) -> list[str]:
    """The `--dump` summary's hints: each stated once. `hints`: `session_hints(session)`, where
    the caller has them."""
    hints = session_hints(session) if hints is None else hints
    if not hints:
        return []
    return ["hints:", *(f"  - {h.line}" for h in hints)]
