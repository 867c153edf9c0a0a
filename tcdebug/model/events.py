"""The event vocabulary: one dataclass per event the target, the trace converter and the
controller produce, and what `Session.apply` folds in.

On the channel an event is a JSON object (`tcdebug.model.protocol`): `to_wire()` gives it,
`event_from_wire()` reads one back, checking every field's type, payloads below the envelope
included (`tcdebug.model.payloads`, through `tcdebug.model.schema`); an unknown type or a field of
the wrong type raises `EventError` (one line, never a traceback). Fields the wire leaves out
keep their defaults; `None` means "not said" (the session keeps what it had) and is never sent.

`pid` and `rank` are on every event: the channel of a forked process adds `pid`, a rank of a
torchrun job adds `rank` (see `tcdebug.debuggee.children`, `tcdebug.debuggee.rank`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from tcdebug.model.payloads import (
    Accuracy,
    AutotuneTable,
    CacheVerdict,
    CallInfo,
    ChainStep,
    Frame,
    GuardOrigin,
    Kernel,
    Plain,
    ProvItem,
    ProvLink,
    ProvSymbol,
    Rerun,
)
from tcdebug.model.protocol import PROTOCOL_VERSION, ProtocolError
from tcdebug.model.schema import (
    SchemaError,
    decode,
    hints,
    json_fields,
    optional,
    python_names,
    required,
    to_json,
)
from tcdebug.model.stages import stage_key


class EventError(ProtocolError):
    """An event that is not one of the vocabulary, or has a field of the wrong type."""


@dataclass(kw_only=True, eq=False, repr=False)
class Event(Plain):
    """An event: the process and rank that sent it."""

    TYPE: ClassVar[str] = ""
    pid: int | None = None  # the process that sent it (None: the main one)
    rank: int | None = None  # the torchrun rank that sent it

    @property
    def type(self) -> str:
        return self.TYPE

    def to_wire(self) -> dict[str, Any]:
        """The JSON object for the channel (fields that are None are left out)."""
        msg: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": self.TYPE}
        for f, key in json_fields(type(self)):
            value = getattr(self, f.name)
            if value is not None:
                msg[key] = to_json(value)
        return msg

    @classmethod
    def from_wire(cls, msg: Mapping[str, Any]) -> Event:
        """The event `msg` holds; `EventError` when it is not one of this class."""
        event = event_from_wire(msg)
        if not isinstance(event, cls):
            raise EventError(f"expected a {cls.TYPE or 'known'} event, got {event.type}")
        return event


def _local(default: Any = None) -> Any:
    """A field that never travels on the channel (trace-only: loaders, lazy kernels)."""
    return field(default=default, repr=False, compare=False, metadata={"wire": False})


# ----- the main process and its children ------------------------------------------------------
@dataclass(kw_only=True, eq=False, repr=False)
class Hello(Event):
    """The target started: its Python, script, arguments and mode (torch and device, where known)."""

    TYPE: ClassVar[str] = "hello"
    torch_version: str = ""
    python: str = ""
    device: str = ""
    script: str | None = None
    argv: list[str] | None = None
    mode: str = "step"


@dataclass(kw_only=True, eq=False, repr=False)
class TorchImported(Event):
    """The script's torch: sent when the capture is installed (the script's first import of
    Dynamo), and again at the script's end with the device it used."""

    TYPE: ClassVar[str] = "torch"
    torch_version: str = ""
    device: str = ""  # `cuda (NAME)` once the script initialized CUDA, `cpu` at its end if it never did
    pg_timeout_s: float | None = None  # a torchrun rank: see `Process.pg_timeout_s`
    cold: bool | None = None  # `--cold`: every compile cache and automatic-dynamic PGO off


@dataclass(kw_only=True, eq=False, repr=False)
class Process(Event):
    """A forked process of the script, or a rank of a torchrun job, connected."""

    TYPE: ClassVar[str] = "process"
    ppid: int = 0
    label: str = ""
    stepping: bool = False  # set by the controller: the mode it started the process in
    local_rank: int | None = None
    world_size: int | None = None
    pg_timeout_s: float | None = None


@dataclass(kw_only=True, eq=False, repr=False)
class ProcessEnd(Event):
    """The controller saw that process's connection close."""

    TYPE: ClassVar[str] = "process_end"


@dataclass(kw_only=True, eq=False, repr=False)
class ProcessExit(Event):
    """A rank's script ended."""

    TYPE: ClassVar[str] = "process_exit"
    exit_code: int | None = None
    error: str = ""


@dataclass(kw_only=True, eq=False, repr=False)
class Ready(Event):
    """The script ended; the target serves commands (re-runs)."""

    TYPE: ClassVar[str] = "ready"


@dataclass(kw_only=True, eq=False, repr=False)
class Resumed(Event):
    """The target resumed, in this mode."""

    TYPE: ClassVar[str] = "resumed"
    mode: str = ""


@dataclass(kw_only=True, eq=False, repr=False)
class Error(Event):
    """An error the target reports."""

    TYPE: ClassVar[str] = "error"
    message: str = ""


@dataclass(kw_only=True, eq=False, repr=False)
class Note(Event):
    """A note the target reports."""

    TYPE: ClassVar[str] = "note"
    text: str = ""


@dataclass(kw_only=True, eq=False, repr=False)
class Output(Event):
    """Text the script wrote to stdout or stderr."""

    TYPE: ClassVar[str] = "output"
    stream: str = "stdout"
    text: str = ""


@dataclass(kw_only=True, eq=False, repr=False)
class ScriptEnd(Event):
    """The script ended: its exit code, its error, whether it was stopped."""

    TYPE: ClassVar[str] = "script_end"
    exit_code: int = 0
    error: str = ""
    stopped: bool = False


# ----- compiles ---------------------------------------------------------------------------------
@dataclass(kw_only=True, eq=False, repr=False)
class CompileStart(Event):
    """A compile began, or (from a trace) more is known about it: None keeps what was known."""

    TYPE: ClassVar[str] = "compile_start"
    compile_id: str
    function: str | None = None
    filename: str | None = None
    firstlineno: int | None = None
    stack: list[Frame] | None = None  # the user's frames that led to the compile, outermost first


@dataclass(kw_only=True, eq=False, repr=False)
class StageEvent(Event):
    """A stage of a compile: captured (with its text) or not captured (with the reason)."""

    TYPE: ClassVar[str] = "stage"
    compile_id: str
    stage: str
    part: str = ""
    title: str = ""
    language: str = ""
    status: str = "captured"
    reason: str = ""
    text: str | None = None
    file: str = ""
    elapsed_s: float = 0.0
    kernels: list[Kernel] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    paused: bool = False  # the process waits here for the next command
    # A stage sent before, sent again with what was learnt since (kernels autotuned at their first
    # launch, ...), maybe from another thread: it says nothing about whether the process waits.
    update: bool = False
    # Trace only: the text read back from the log when shown, and lazily split kernels.
    loader: Callable[[], str] | None = _local()
    lazy_kernels: list[Kernel] | None = _local()

    @property
    def key(self) -> str:
        return stage_key(self.stage, self.part)


@dataclass(kw_only=True, eq=False, repr=False)
class GraphBreak(Event):
    """A graph break of a compile: its reason and the user's stack."""

    TYPE: ClassVar[str] = "graph_break"
    compile_id: str
    reason: str = ""
    user_stack: list[str] = field(default_factory=list)
    ddp_split: bool | None = None  # DDPOptimizer's bucket split, not Dynamo's own break


@dataclass(kw_only=True, eq=False, repr=False)
class Recompile(Event):
    """A compile that is a recompile, and its reason."""

    TYPE: ClassVar[str] = "recompile"
    compile_id: str
    reason: str = ""


@dataclass(kw_only=True, eq=False, repr=False)
class CompileEnd(Event):
    """A compile ended: its status, error, time and metrics."""

    TYPE: ClassVar[str] = "compile_end"
    compile_id: str
    status: str = "ok"
    error: str = ""
    elapsed_s: float | None = None
    metrics: dict[str, Any] = field(default_factory=dict)


@dataclass(kw_only=True, eq=False, repr=False)
class CompileTimes(Event):
    """A compile's phase times."""

    TYPE: ClassVar[str] = "compile_times"
    compile_id: str
    times: dict[str, Any] = field(default_factory=dict)


@dataclass(kw_only=True, eq=False, repr=False)
class Autotune(Event):
    """A compile's autotuning table."""

    TYPE: ClassVar[str] = "autotune"
    compile_id: str
    table: AutotuneTable = field(default_factory=AutotuneTable)


@dataclass(kw_only=True)
class CacheResult(Event):
    """A compile cache's answer for a compile (FX graph, AOTAutograd): see `CacheVerdict`."""

    TYPE: ClassVar[str] = "cache_result"
    compile_id: str
    verdict: CacheVerdict = field(default_factory=CacheVerdict)


@dataclass(kw_only=True, eq=False, repr=False)
class GuardProvenance(Event):
    """Where a compile's guards come from."""

    TYPE: ClassVar[str] = "guard_provenance"
    compile_id: str
    guards: list[GuardOrigin] = field(default_factory=list)


@dataclass(kw_only=True, eq=False, repr=False)
class Provenance(Event):
    """Provenance items, links and symbols of a compile, folded into its
    `tcdebug.analysis.provenance_index.ProvenanceIndex`; `reset` starts the index anew."""

    TYPE: ClassVar[str] = "provenance"
    compile_id: str
    items: list[ProvItem] = field(default_factory=list)
    links: list[ProvLink] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    symbols: dict[str, ProvSymbol] = field(default_factory=dict)
    reset: bool = False


@dataclass(kw_only=True)
class EventPause(Event):
    """The script's process stopped at a compiler event an event breakpoint asked for
    (`tcdebug.model.event_breaks`), in the compiling thread, while torch does the thing."""

    TYPE: ClassVar[str] = "event_pause"
    compile_id: str
    kind: str  # an `event_breaks.EVENT_IDS` kind
    breakpoint: str = ""  # the breakpoint that matched (`graph_break:GB0170`)
    detail: str = ""  # what torch said: the reason, the guard, the symbol and its new value
    registry_id: str = ""  # a graph break's registry id, where torch gives one
    registry_title: str = ""  # that entry's title (its gb_type)
    user: Frame | None = None  # the user's line the event is about (first to show)
    caller: Frame | None = None  # the user's line that called into torch, where it differs
    stack: list[Frame] = field(default_factory=list)  # the user stack torch gave, innermost last
    paused: bool = True


@dataclass(kw_only=True)
class StanceEvent(Event):
    """`torch.compiler.set_stance` changed the stance (`action` "set"), or a call ran under a stance
    that changed what torch did: sent to eager (`ran_eager`, `eager_on_recompile`) or refused
    (`failed`, `fail_on_recompile`), with the guard that failed."""

    TYPE: ClassVar[str] = "stance"
    stance: str = "default"
    action: str = "set"  # "set", "ran_eager" or "failed"
    compile_id: str = ""  # the compile whose guards failed ("" for a change of stance)
    function: str = ""  # the compiled function called
    guard: str = ""  # the failing guard, as Dynamo words it
    user: Frame | None = None  # the user's line: the set_stance call, or the call of the function
    detail: str = ""  # what the stance did, in one line
    after: str = ""  # the compile that arrived last before it (the session fills it): its timeline place


@dataclass(kw_only=True)
class SymbolChains(Event):
    """Per symbol of a compile's shape environment: where it was created and every guard,
    replacement or range refinement that narrowed or specialized it, in order."""

    TYPE: ClassVar[str] = "symbol_chains"
    compile_id: str
    chains: dict[str, list[ChainStep]] = field(default_factory=dict)


@dataclass(kw_only=True)
class EventsUnavailable(Event):
    """Event breakpoints this torch cannot give, each with the reason (sent once, at the capture's install)."""

    TYPE: ClassVar[str] = "events_unavailable"
    kinds: dict[str, str] = field(default_factory=dict)


# ----- re-runs ----------------------------------------------------------------------------------
@dataclass(kw_only=True, eq=False, repr=False)
class RerunEvent(Event):
    """A re-run's state."""

    TYPE: ClassVar[str] = "rerun"
    rerun: Rerun


@dataclass(kw_only=True)
class AccuracyEvent(Event):
    """A compile compared with eager (`A`, `--accuracy`): its state, then its answer."""

    TYPE: ClassVar[str] = "accuracy"
    accuracy: Accuracy


@dataclass(kw_only=True, eq=False, repr=False)
class Calls(Event):
    """The last call of each compiled function."""

    TYPE: ClassVar[str] = "calls"
    calls: list[CallInfo] = field(default_factory=list)


# ----- made by the controller ------------------------------------------------------------------
@dataclass(kw_only=True, eq=False, repr=False)
class TargetDied(Event):
    """The target process died."""

    TYPE: ClassVar[str] = "target_died"
    error: str = "the target process exited unexpectedly"
    exit_code: int | None = None


@dataclass(kw_only=True, eq=False, repr=False)
class TargetExited(Event):
    """The target process exited."""

    TYPE: ClassVar[str] = "target_exited"
    exit_code: int | None = None


@dataclass(kw_only=True, eq=False, repr=False)
class ExecutionOrder(Event):
    """The order compiled graphs ran in, as `record_and_log_graph_execution_order` logged it in the
    process (or rank) that sends it: runtime data, never a compile."""

    TYPE: ClassVar[str] = "execution_order"
    order: list[str] = field(default_factory=list)  # torch's compile ids


# ----- made by the trace converter ------------------------------------------------------------
@dataclass(kw_only=True, eq=False, repr=False)
class TraceInfo(Event):
    """What a TORCH_TRACE log says about the whole run (never on the channel)."""

    TYPE: ClassVar[str] = "trace_info"
    torch_version: str = ""
    # runtime data: compiled graphs that ran (one per `inductor_graph_execution`), and the order
    # `record_and_log_graph_execution_order` logged (compile ids)
    executed: list[str] = field(default_factory=list)
    execution_order: list[str] | None = None


@dataclass(kw_only=True, eq=False, repr=False)
class StagesNotLogged(Event):
    """The stages a compile of a log lacks (the source, bytecode, Inductor IR: a log holds none of
    them), each stage id with its reason: one event per compile, where a `StageEvent` per stage
    cost a fifth of reading a log of many compiles (never on the channel)."""

    TYPE: ClassVar[str] = "stages_not_logged"
    compile_id: str
    reasons: dict[str, str] = field(default_factory=dict)  # stage id -> why it is not captured


EVENT_CLASSES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        Hello,
        TorchImported,
        Process,
        ProcessEnd,
        ProcessExit,
        Ready,
        Resumed,
        Error,
        Note,
        Output,
        ScriptEnd,
        CompileStart,
        StageEvent,
        GraphBreak,
        Recompile,
        CompileEnd,
        CompileTimes,
        Autotune,
        CacheResult,
        GuardProvenance,
        Provenance,
        EventPause,
        EventsUnavailable,
        StanceEvent,
        SymbolChains,
        RerunEvent,
        AccuracyEvent,
        Calls,
        TargetDied,
        TargetExited,
        ExecutionOrder,
        TraceInfo,
        StagesNotLogged,
    )
}
# Events only this process makes: never accepted from the channel.
LOCAL_ONLY = frozenset({"trace_info", "stages_not_logged"})


def event_from_wire(msg: Mapping[str, Any], *, local: bool = False) -> Event:
    """The typed event a decoded message holds. Keys it does not know (`v`, newer fields) are
    ignored; a missing required field, a field of the wrong type or an unknown type raises
    `EventError` with one line saying which. `local`: also accept events only this process makes."""
    if not isinstance(msg, Mapping):
        raise EventError(f"an event is an object, not {type(msg).__name__}")
    type_ = msg.get("type")
    cls = EVENT_CLASSES.get(type_) if isinstance(type_, str) else None
    if cls is None or (type_ in LOCAL_ONLY and not local):
        raise EventError(f"unknown event type {_short(type_)}")
    field_hints = hints(cls)
    values: dict[str, Any] = {}
    for f, key in json_fields(cls):
        if key not in msg:
            continue
        value, hint = msg[key], field_hints[f.name]
        if value is None and optional(hint):
            continue  # not said: the default stays
        try:
            values[f.name] = decode(hint, value, key)
        except SchemaError as exc:
            if exc.path == key:
                raise EventError(
                    f"{type_} event: field {key!r} is {type(value).__name__}, expected {python_names(hint)}"
                ) from None
            raise EventError(f"{type_} event: {exc}") from None
    try:
        return cls(**values)
    except TypeError:
        missing = [f.name for f in fields(cls) if f.name not in values and required(f)]
        raise EventError(f"{type_} event: missing {', '.join(repr(m) for m in missing)}") from None


def event_type(event: Event | Mapping[str, Any]) -> str:
    """The type name of a typed event or of a wire dict."""
    if isinstance(event, Event):
        return event.type
    type_ = event.get("type")
    return type_ if isinstance(type_, str) else ""


def as_event(event: Event | Mapping[str, Any]) -> Event:
    """A typed event; a dict (tests, scripts) is read as the channel would read it."""
    return event if isinstance(event, Event) else event_from_wire(event, local=True)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
