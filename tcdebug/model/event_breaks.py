"""Event breakpoints (`--break EVENT[:FILTER]`): the compiler events a run can stop at, parsed and
matched in one place for the command line, the app and the script's process.

A breakpoint is a string, as stage breakpoints are (`graph_break:GB0170`, `recompile:forward`,
`specialize`), so the commands that carry breakpoints carry both kinds unchanged. `parse` reads
one; `matches` says whether an event (`tcdebug.model.events.EventPause`) is one it stops at.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from tcdebug.model import stages as stage_catalog


@dataclass(frozen=True)
class EventKind:
    id: str
    title: str  # what a pause there is, in the palette and `--help`
    filter: str  # what FILTER selects ("" where the kind takes none)
    gpu: bool = False  # only a CUDA run has it
    numeric: bool = False  # FILTER is a number (a threshold), not text


EVENT_KINDS: tuple[EventKind, ...] = (
    EventKind("recompile", "a frame recompiles (its guards failed)", "the function's name"),
    EventKind("graph_break", "Dynamo breaks the graph", "a registry id (GB0170) or text of the reason"),
    EventKind("guard", "Dynamo installs a guard", "the guarded source (L['x']) or symbol (s0), or text"),
    EventKind("specialize", "a symbol is made static or its range narrowed", "the symbol or its source"),
    EventKind(
        "recompile_limit", "a frame reaches N compiles (default: its recompile limit)", "N", numeric=True
    ),
    EventKind("cudagraph_skip", "CUDA graphs are skipped for a graph", "text of the reason", gpu=True),
    EventKind("cudagraph_rerecord", "a CUDA graph is re-recorded", "text of the reason", gpu=True),
    EventKind("fusion_refused", "Inductor refuses to fuse two nodes", "a node's name, or text of the reason"),
    EventKind(
        "cache_miss", "a compile cache misses (Dynamo's frame cache, FX graph, AOTAutograd)", "the cache"
    ),
    EventKind("autotune", "autotuning chooses a kernel", "the operation or the choice"),
    EventKind(
        "stance", "a call runs under a stance other than the default, or the stance changes", "the stance"
    ),
)
KINDS: dict[str, EventKind] = {k.id: k for k in EVENT_KINDS}
EVENT_IDS: tuple[str, ...] = tuple(KINDS)
assert not set(EVENT_IDS) & set(stage_catalog.STAGE_IDS), "an event kind shares a stage id"

_GB_ID = re.compile(r"^gb\d{4}$", re.IGNORECASE)


class EventSpecError(ValueError):
    """A breakpoint that is neither a stage id nor an event kind; the message is one line."""


@dataclass(frozen=True)
class EventBreak:
    kind: str
    filter: str = ""

    @property
    def spec(self) -> str:
        return f"{self.kind}:{self.filter}" if self.filter else self.kind


@dataclass(frozen=True)
class EventFacts:
    """What a pause point knows of its event, to match filters against."""

    kind: str
    detail: str = ""  # the reason or text torch gave
    names: tuple[str, ...] = ()  # function, symbol, source, node, cache or stance names
    registry_id: str = ""  # a graph break's registry id (GB0170)
    count: int | None = None  # recompile_limit: the frame's compiles so far
    limit: int | None = None  # recompile_limit: torch's limit


def is_event_spec(spec: str) -> bool:
    return spec.partition(":")[0] in KINDS


def parse(spec: str) -> EventBreak:
    """`KIND` or `KIND:FILTER`; `EventSpecError` names what is wrong."""
    kind_id, sep, flt = spec.strip().partition(":")
    kind = KINDS.get(kind_id)
    if kind is None:
        raise EventSpecError(
            f"unknown breakpoint {spec!r}: a stage id ({', '.join(stage_catalog.STAGE_IDS)}) "
            f"or an event ({', '.join(EVENT_IDS)}), as EVENT[:FILTER]"
        )
    flt = flt.strip()
    if sep and not flt:
        raise EventSpecError(f"breakpoint {spec!r}: nothing after ':' (give a filter, or leave out the ':')")
    if kind.numeric and flt and not (flt.isdigit() and int(flt) > 0):
        raise EventSpecError(f"breakpoint {spec!r}: {kind.id}'s filter is a count, e.g. {kind.id}:4")
    return EventBreak(kind.id, flt)


def check(spec: str) -> str | None:
    """None for a stage id or a good event breakpoint; else the one-line error."""
    if spec in stage_catalog.STAGE_IDS:
        return None
    try:
        parse(spec)
    except EventSpecError as exc:
        return str(exc)
    return None


def event_breaks(specs: Iterable[str]) -> list[EventBreak]:
    """The event breakpoints among `specs` (stage ids and bad specs left out)."""
    out = []
    for spec in specs:
        if is_event_spec(spec):
            try:
                out.append(parse(spec))
            except EventSpecError:
                continue
    return out


def matches(brk: EventBreak, facts: EventFacts) -> bool:
    """Does `brk` stop at this event? A filter matches a registry id exactly (any case), a name
    exactly, or else any part of the detail or a name (case-insensitive)."""
    if brk.kind != facts.kind:
        return False
    if KINDS[brk.kind].numeric:
        threshold = int(brk.filter) if brk.filter else facts.limit
        return facts.count is not None and threshold is not None and facts.count >= threshold
    if not brk.filter:
        return True
    flt = brk.filter.lower()
    if _GB_ID.match(flt):
        return facts.registry_id.lower() == flt
    if any(flt == name.lower() for name in facts.names):
        return True
    return flt in facts.detail.lower() or any(flt in name.lower() for name in facts.names)


def first_match(breaks: Iterable[EventBreak], facts: EventFacts) -> EventBreak | None:
    return next((b for b in breaks if matches(b, facts)), None)
