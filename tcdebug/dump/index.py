"""session.json's content (`session_index`), its text (`index_json`, one compile per line) and
`IndexCache`, which keeps each compile's entry and why until an event may change it."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from tcdebug.model import schema
from tcdebug.model.events import Event, StanceEvent
from tcdebug.model.payloads import (
    Accuracy,
    AutotuneTable,
    CacheVerdict,
    CallInfo,
    ChainStep,
    Frame,
    GuardOrigin,
    Plain,
    Rerun,
)
from tcdebug.model.session import Compile, ProcessInfo, Session, Stage, is_placeholder, stage_to_dict
from tcdebug.model.trace_format import capture_of
from tcdebug.torchtext.stage_text import FUSION_LOG_IN_FILE

FORMAT = "tcdebug-session"  # the marker that says a folder is a tcdebug dump
FORMAT_VERSION = 1


# ----- session.json's schema: written with `schema.to_json`, read with `schema.from_json` ------
@dataclass(eq=False, repr=False)
class BreakEntry(Plain):
    """A graph break in its compile's entry."""

    reason: str = ""
    user_stack: list[str] = field(default_factory=list)


@dataclass(eq=False, repr=False)
class CompileEntry(Plain):
    """A compile in session.json's `compiles`: its stages as the session holds them (their texts
    in their files), its why as `tcdebug.analysis.why.why_dict` gives it."""

    compile_id: str
    function: str = ""
    filename: str = ""
    firstlineno: int = 0
    status: str = "ok"
    error: str = ""
    rank: int | None = None
    process: str = ""
    pid: int | None = None
    recompile_reason: str = ""
    elapsed_s: float = 0.0
    metrics: dict[str, Any] = field(default_factory=dict)
    times: dict[str, Any] = field(default_factory=dict)  # phase times, see tcdebug.analysis.compile_phases
    autotune_tables: list[AutotuneTable] = field(default_factory=list)
    guard_provenance: list[GuardOrigin] = field(default_factory=list)
    stack: list[Frame] = field(default_factory=list)
    accuracy: Accuracy | None = None
    symbol_chains: dict[str, list[ChainStep]] = field(default_factory=dict)
    caches: list[CacheVerdict] = field(default_factory=list)  # each compile cache's answer
    why: list[dict[str, Any]] = field(default_factory=list)
    graph_breaks: list[BreakEntry] = field(default_factory=list)
    stages: list[Stage] = field(default_factory=list)


# The fields a compile and its entry hold alike, copied as they are each way (`IndexCache._entry`,
# `tcdebug.dump.loader`); graph breaks and stages are kept in other shapes.
COPIED_FIELDS = tuple(
    f.name
    for f in fields(CompileEntry)
    if f.name in {g.name for g in fields(Compile)} and f.name not in ("graph_breaks", "stages")
)


@dataclass(eq=False, repr=False)
class SessionIndex(Plain):
    """session.json. `complete` is false while a live run still writes it."""

    format: str
    version: int
    complete: bool | None = None
    origin: str = ""
    script: str = ""
    argv: list[str] = field(default_factory=list)
    torch_version: str = ""
    python: str = ""
    device: str = ""
    cold: bool = False  # `--cold`: every compile cache and automatic-dynamic PGO off
    state: str = ""
    exit_code: int | None = None
    error: str = ""
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    rank: int | None = None  # the rank this dump is of (a job's rank, or its root: the lowest)
    rank_label: str = ""  # "1 (2)": the second log of rank 1
    trace_stats: dict[str, int] = field(default_factory=dict)
    divergences: list[Any] = field(default_factory=list)
    main_pid: int | None = None
    processes: list[ProcessInfo] = field(default_factory=list)
    compiles: list[CompileEntry] = field(default_factory=list)
    reruns: list[Rerun] = field(default_factory=list)
    calls: list[CallInfo] = field(default_factory=list)
    stances: list[StanceEvent] = field(default_factory=list)  # torch.compiler.set_stance's events


def session_index(
    session: Session, *, complete: bool = True, compiles: bool = True, cache: IndexCache | None = None
) -> dict[str, Any]:
    """session.json's content; `compiles=False` leaves the compiles out (an empty list). Each
    compile's entry comes from `cache` where given, else is made afresh."""
    cache = cache if cache is not None else IndexCache(session)
    index = SessionIndex(
        format=FORMAT,
        version=FORMAT_VERSION,
        complete=complete,
        origin=session.origin,
        script=session.script,
        argv=session.argv,
        torch_version=session.torch_version,
        python=session.python,
        device=session.device,
        cold=session.cold,
        state=session.state,
        exit_code=session.exit_code,
        error=session.error,
        notes=session.notes,
        extra=session.extra,
        rank=session.rank,
        rank_label=session.rank_label,
        trace_stats=dict(session.trace_stats),
        divergences=[schema.to_json(d) for d in session.divergences],  # dataclasses of tcdebug.trace
        main_pid=session.main_pid,
        processes=list(session.processes.values()),
        reruns=session.reruns,
        calls=session.calls,
        stances=session.stance_events,
    )
    entry = schema.to_json(index)
    entry["compiles"] = [cache.entry(c) for c in (session.ordered_compiles() if compiles else ())]
    return entry


# Events that change no compile (`Session.apply`; a why reads no session state they set). Any
# other event without a compile id (a rerun) may change any compile's why.
_COMPILE_NEUTRAL = frozenset(
    (
        "hello", "torch", "process", "process_end", "process_exit", "ready", "resumed", "note", "output",
        "trace_info", "error", "script_end", "calls", "target_died", "target_exited", "events_unavailable",
    )
)


def changed_compile(event: Event) -> str | None:
    """The id of the compile `event` may change, "" for none, None for any."""
    accuracy = getattr(event, "accuracy", None)
    compile_id = getattr(accuracy if accuracy is not None else event, "compile_id", None)
    if isinstance(compile_id, str):
        return compile_id
    return "" if event.type in _COMPILE_NEUTRAL else None


class IndexCache:
    """What session.json says of each compile (its entry, its JSON line, its why from
    `tcdebug.analysis.why.explain`), made once and kept until an event may change it (`forget`). A live
    dump rewrites session.json every second and at every compile's end; explaining and encoding
    every compile each time cost more than the rest of the run's dump writing."""

    def __init__(self, session: Session, *, keep: bool = True, hints: dict[str, list[Any]] | None = None) -> None:
        """`hints`: the session's hints by compile (`hints`), where another cache made them."""
        self.session = session
        # False: a dump written once; what a compile's why.md and line needed is dropped once made
        # (`index_chunks`, `done_with`), so a big session's index is never all held at once
        self.keep = keep
        self._parts: dict[str, list[Any] | str] = {}  # compile id -> its WhyParts, or why it has none
        self._whys: dict[str, list[dict[str, Any]]] = {}
        self._entries: dict[str, dict[str, Any]] = {}
        self._lines: dict[str, str] = {}
        self._hints: dict[str, list[Any]] | None = hints  # the session's hints by compile, made once
        self._hint_list: list[Any] | None = None

    def hints(self) -> dict[str, list[Any]]:
        """The session's hints by compile (`hints_by_compile`): one pass over the session, kept
        until any compile changes, where each compile's why would otherwise make its own."""
        from tcdebug.analysis.hints import hints_by_compile

        if self._hints is None:
            self._hints = hints_by_compile(self.session_hints())
        return self._hints

    def session_hints(self) -> list[Any]:
        """The session's hints (`session_hints`), kept as `hints` is (the summary lists them)."""
        from tcdebug.analysis.hints import session_hints

        if self._hint_list is None:
            self._hint_list = session_hints(self.session)
        return self._hint_list

    def parts(self, compile_id: str) -> list[Any] | str:
        """The compile's `WhyPart`s, or the error that stopped explaining it."""
        from tcdebug.analysis.why import explain

        if compile_id not in self._parts:
            try:
                self._parts[compile_id] = explain(self.session, compile_id, self.hints())
            except Exception as exc:  # noqa: BLE001 - a why that cannot be built must not cost the dump
                self._parts[compile_id] = str(exc)
        return self._parts[compile_id]

    def as_dicts(self, compile_id: str) -> list[dict[str, Any]]:
        """session.json's `why` of the compile."""
        from tcdebug.analysis.why import why_dict

        if compile_id not in self._whys:
            parts = self.parts(compile_id)
            self._whys[compile_id] = (
                [{"kind": "error", "title": "why", "lines": [f"could not explain: {parts}"]}]
                if isinstance(parts, str)
                else why_dict(self.session, compile_id, parts)
            )
        return self._whys[compile_id]

    def markdown(self, compile_id: str) -> str:
        """why.md of the compile."""
        from tcdebug.analysis.why import why_markdown

        parts = self.parts(compile_id)
        if isinstance(parts, str):
            return f"could not explain {compile_id}: {parts}\n"
        return why_markdown(self.session, compile_id, parts)

    def entry(self, c: Compile) -> dict[str, Any]:
        """The compile's entry in session.json's `compiles`."""
        if c.compile_id not in self._entries:
            self._entries[c.compile_id] = self._entry(c)
        return self._entries[c.compile_id]

    def line(self, c: Compile) -> str:
        """`entry` as session.json's line of it (see `index_json`): `json.dumps` of it, with a
        shared not-captured stage's JSON encoded once (`_stage_json`), not once per compile."""
        if c.compile_id not in self._lines:
            head = json.dumps(self._entry_head(c), default=str)
            stages = ", ".join(_stage_json(s) for s in c.ordered_stages())
            self._lines[c.compile_id] = f'{head[:-1]}, "stages": [{stages}]}}'
        return self._lines[c.compile_id]

    def _entry(self, c: Compile) -> dict[str, Any]:
        entry = self._entry_head(c)
        entry["stages"] = [_stage_entry(s) for s in c.ordered_stages()]  # their texts are in their files
        return entry

    def _entry_head(self, c: Compile) -> dict[str, Any]:
        """The compile's entry without its stages (always its last key)."""
        copied: dict[str, Any] = {name: getattr(c, name) for name in COPIED_FIELDS}
        for name, value in copied.items():  # a compile's shared empty mapping (`session.NOTHING`)
            if isinstance(value, Mapping) and not isinstance(value, dict):
                copied[name] = dict(value)
        copied["elapsed_s"] = round(c.elapsed_s, 6)
        entry = schema.to_json(
            CompileEntry(
                **copied,
                why=self.as_dicts(c.compile_id),
                graph_breaks=[BreakEntry(gb.reason, gb.user_stack) for gb in c.graph_breaks],
            ),
            omit=("stages",),
        )
        return entry

    def done_with(self, compile_id: str) -> None:
        """Drop what is kept of the compile where this cache keeps nothing (`keep` false)."""
        if not self.keep:
            for kept in (self._parts, self._whys, self._entries, self._lines):
                kept.pop(compile_id, None)

    def forget_entries(self, compile_ids: set[str]) -> None:
        """Drop these compiles' entries (their stages' files changed), keeping their whys."""
        for compile_id in compile_ids:
            self._entries.pop(compile_id, None)
            self._lines.pop(compile_id, None)

    def forget(self, event: Event) -> None:
        """Drop what `event` (applied to the session) may have changed."""
        changed = changed_compile(event)
        # compiled autograd's capture `!N` names the compiles Dynamo makes of its graph, later
        also = capture_of(changed) if changed else None
        if changed != "":
            self._hints = self._hint_list = None
        for kept in (self._parts, self._whys, self._entries, self._lines):
            if changed is None:
                kept.clear()
            elif changed:
                kept.pop(changed, None)
                if also is not None:
                    kept.pop(also, None)


_PLACEHOLDER_ENTRIES: dict[int, tuple[Stage, dict[str, Any]]] = {}
_PLACEHOLDER_JSON: dict[int, tuple[Stage, str]] = {}


def _stage_json(stage: Stage) -> str:
    """`json.dumps` of `_stage_entry(stage)`; a shared not-captured stage's is made once (most of
    a log's compiles hold five of them)."""
    if is_placeholder(stage):
        made = _PLACEHOLDER_JSON.get(id(stage))
        if made is None or made[0] is not stage:
            made = _PLACEHOLDER_JSON[id(stage)] = (stage, json.dumps(_stage_entry(stage), default=str))
        return made[1]
    return json.dumps(_stage_entry(stage), default=str)


def _stage_entry(stage: Stage) -> dict[str, Any]:
    """A stage in session.json: its text is in its file, and so is its fusion log (see
    `full_text`), which is most of a big graph's index when kept inline. A shared not-captured
    stage (`is_placeholder`) has one entry, made once (never changed: only encoded)."""
    if is_placeholder(stage):
        made = _PLACEHOLDER_ENTRIES.get(id(stage))
        if made is None or made[0] is not stage:
            made = _PLACEHOLDER_ENTRIES[id(stage)] = (stage, stage_to_dict(stage, with_text=False))
        return made[1]
    entry = stage_to_dict(stage, with_text=False)
    if stage.file and stage.meta.get("fusion_log"):
        entry["meta"] = {k: v for k, v in stage.meta.items() if k != "fusion_log"}
        entry["meta"][FUSION_LOG_IN_FILE] = True
    return entry


def index_json(index: dict[str, Any]) -> str:
    """session.json's text: indented, one compile per line. Indenting everything would use
    json's pure-Python encoder, seconds for a session of hundreds of compiles."""
    compiles = index.get("compiles", [])
    return _index_text(index, [json.dumps(c, default=str) for c in compiles])


def index_text(session: Session, *, complete: bool = True, cache: IndexCache | None = None) -> str:
    """`index_json(session_index(...))`, each compile's line taken from `cache` where it has it."""
    cache = cache if cache is not None else IndexCache(session)
    head = session_index(session, complete=complete, compiles=False, cache=cache)
    return _index_text(head, [cache.line(c) for c in session.ordered_compiles()])


def index_chunks(session: Session, *, complete: bool = True, cache: IndexCache | None = None) -> Iterator[str]:
    """`index_text` in pieces, each compile's line made as it is written; a cache that keeps
    nothing (`IndexCache.keep` false) drops what each compile's line needed once it is made."""
    cache = cache if cache is not None else IndexCache(session, keep=False)
    head = session_index(session, complete=complete, compiles=False, cache=cache)
    text = _index_text(head, [])
    compiles = session.ordered_compiles()
    if not compiles:
        yield text
        return
    yield text.removesuffix("[]\n}").removesuffix("[]}") + "[\n  "
    for n, c in enumerate(compiles):
        line = cache.line(c)
        cache.done_with(c.compile_id)
        yield line if n == 0 else ",\n  " + line
    yield "\n ]\n}"


def _index_text(index: dict[str, Any], compile_lines: list[str]) -> str:
    rest = {k: v for k, v in index.items() if k != "compiles"}
    head = json.dumps({**rest, "compiles": []}, indent=1, default=str)
    if not compile_lines:
        return head
    body = ",\n  ".join(compile_lines)
    return head.removesuffix("[]\n}").removesuffix("[]}") + "[\n  " + body + "\n ]\n}"


def entries_json(data: dict[str, Any]) -> str:
    """`data` as JSON, each entry of a top-level list or dict on a line of its own. json's C
    encoder makes every line; `json.dumps(indent=...)` would encode in Python, generator by
    generator: seconds for the provenance files of a big session."""
    if not all(type(k) is str for k in data):
        return json.dumps(data, default=str)
    fields = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            body = "[\n  " + ",\n  ".join(json.dumps(v, default=str) for v in value) + "\n ]"
        elif isinstance(value, dict) and value and all(type(k) is str for k in value):
            entries = (f"{json.dumps(k)}: {json.dumps(v, default=str)}" for k, v in value.items())
            body = "{\n  " + ",\n  ".join(entries) + "\n }"
        else:
            body = json.dumps(value, default=str)
        fields.append(f" {json.dumps(key)}: {body}")
    return "{\n" + ",\n".join(fields) + "\n}" if fields else "{}"
