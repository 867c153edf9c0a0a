"""What every capture unit shares: the structured-trace dispatcher and a guard.

A unit is a module with `STAGES` (the stage ids it feeds) and `install(ctx)` (run once the
script's torch has imported Dynamo), `install_inductor(ctx)` (once it has imported Inductor's
compiler), or both (`tcdebug.capture.setup`). Either may raise anything: a torch without the API
it needs only costs that unit, and its stages are reported as "not captured: <reason>".
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, TypeVar

from tcdebug.capture import patches
from tcdebug.capture.ir_texts import IrTexts
from tcdebug.capture.recording import Recording
from tcdebug.model import records
from tcdebug.model.trace_format import format_compile_id

TRACE_LOGGER = "torch.__trace"
CURRENT_COMPILE_ID = patches.declare(
    "torch._guards",
    "CompileContext.current_compile_id",
    unit="setup",
    breaks="records without a compile id (hooks, autotuning, cudagraph skips) go to the compile in flight",
    kind=patches.READS,
)
LOWERING_GRAPH = patches.declare(
    "torch._inductor.virtualized",
    "V.graph",
    unit="setup",
    breaks="provenance (`f`), IR stages: a subgraph's (torch.cond's branches) kernels and IR are the graph's",
    kind=patches.READS,
)
BYTECODE_HOOK = patches.declare(
    "torch._dynamo.convert_frame",
    "register_bytecode_hook",
    unit="bytecode",
    breaks="bytecode_after, bytecode_after_python: not captured",
    kind=patches.READS,
)
_RANK = "torchrun: a rank's wait for its peers (`--rank-timeout`) is told torch's default timeout"
DEFAULT_PG_TIMEOUT = patches.declare(
    "torch.distributed.distributed_c10d", "_get_default_timeout", unit="setup", breaks=_RANK, kind=patches.READS
)
NVML_DEVICE_COUNT = patches.declare(
    "torch.cuda",
    "_device_count_nvml",
    unit="setup",
    breaks="torchrun: a rank is taken to see a GPU whenever its torch is built with CUDA",
    kind=patches.READS,
)
_ID_FIELDS = ("frame_id", "frame_compile_id", "attempt", "rank", "compiled_autograd_id", "has_payload")


# The dispatcher key (`TraceDispatcher.on`) of the record that carries a stage (`StageKind.trace`).
stage_route = records.stage_route
# The records of the stages that may open a compile's next AOTAutograd graph (`stages.GRAPH_OPENERS`).
OPENER_ROUTES: dict[str, str] = records.OPENER_ROUTES
_T = TypeVar("_T")

TraceCallback = Callable[[str, dict[str, Any], str | None], None]  # (compile_id, metadata, payload)


@dataclass
class CaptureOptions:
    """What a unit shares with other units and with the target. Plain data here; a unit's own object
    (the kernel stages, the call log, ...) is shared by its class (`share`, `shared`), so this module
    knows no unit: each unit imports it, and the units that read another's object import that unit."""

    ir_texts: IrTexts = field(default_factory=IrTexts)  # inductor_ir, provenance: each IR stage's texts
    # inductor_ir, provenance: handlers re-attached after `torch._logging.set_logs()` (setup)
    artifact_handlers: list[tuple[str, logging.Handler]] = field(default_factory=list)
    # bytecode, decompiled: the handles `register_bytecode_hook` returned
    bytecode_hooks: list[Any] = field(default_factory=list)
    _shared: dict[type, object] = field(default_factory=dict)

    def share(self, value: object) -> None:
        """Make a unit's object the one of its class that other units get (`shared`)."""
        self._shared[type(value)] = value

    def shared(self, cls: type[_T]) -> _T | None:
        """The object of `cls` a unit shared; None where that unit is not installed."""
        value = self._shared.get(cls)
        return value if isinstance(value, cls) else None


@dataclass
class CaptureContext:
    recorder: Recording
    handler: TraceDispatcher
    torch: Any
    options: CaptureOptions = field(default_factory=CaptureOptions)


def compile_id_of(md: dict[str, Any], fallback: str | None) -> str | None:
    """The compile a record names: `0/1`, `!2/0/1`, or `!2` for compiled autograd's own capture
    of a backward; `fallback` (the compile in flight) for a record that names none. Without the
    attempt: `Recording.key` maps the id to its latest attempt (`Recording.restart`)."""
    if md.get("frame_id") is None:
        if md.get("compiled_autograd_id") is not None:
            return format_compile_id(None, None, md["compiled_autograd_id"])
        return fallback
    cid = format_compile_id(md["frame_id"], md.get("frame_compile_id"), md.get("compiled_autograd_id"))
    return cid if cid is not None else fallback


class TraceDispatcher(logging.Handler):
    """Routes records of the `torch.__trace` logger to the units that asked for them."""

    def __init__(self, recorder: Recording) -> None:
        super().__init__(level=logging.DEBUG)
        self.recorder = recorder
        self.routes: dict[str, list[TraceCallback]] = {}
        self.errors: list[str] = []
        # (key, metadata) -> the compile of a record without a Dynamo frame id (export, AOTInductor)
        self.frameless: Callable[[str, dict[str, Any]], str | None] | None = None

    def on(self, key: str, callback: TraceCallback) -> None:
        """Subscribe to an envelope key, or to `artifact:<name>` for artifact records: the route of a
        record `tcdebug.model.records` declares (`RecordKind.route`, `stage_route`)."""
        if not records.is_route(key):
            raise KeyError(f"{key!r} is the route of no record in tcdebug.model.records")
        self.routes.setdefault(key, []).append(callback)

    def emit(self, record: logging.LogRecord) -> None:
        md = getattr(record, "metadata", None)
        if not isinstance(md, dict):
            return
        key = next((k for k in md if k not in _ID_FIELDS), None)
        if key is None:
            return
        if key == "artifact" and isinstance(md[key], dict):
            key = f"artifact:{md[key].get('name', '')}"
        attempt = md.get("attempt")
        if isinstance(attempt, int) and attempt > 0 and md.get("frame_id") is not None:
            bare = compile_id_of(md, None)
            if bare is not None:  # whichever record of the new attempt comes first, routed or not
                self.recorder.restart(bare, attempt)
        callbacks = self.routes.get(key)
        if not callbacks:
            return
        cid = None
        if md.get("frame_id") is None and self.frameless is not None:
            cid = self.frameless(key, md)
        cid = cid or compile_id_of(md, self.recorder.current)
        if cid is None:
            return
        cid = self.recorder.key(cid, starting=key == "dynamo_start")
        payload = getattr(record, "payload", None)
        opener = OPENER_ROUTES.get(key)
        if opener is not None:
            self.recorder.open_subgraph_stage(cid, opener)
        for callback in callbacks:
            try:
                callback(cid, md, payload)
            except BaseException as exc:  # noqa: BLE001
                if type(exc).__name__ == "StopRequested":
                    raise
                self.errors.append(f"{key}: {type(exc).__name__}: {exc}")

    def attach(self) -> None:
        log = logging.getLogger(TRACE_LOGGER)
        log.setLevel(logging.DEBUG)
        if self not in log.handlers:
            log.addHandler(self)


def current_compile_key(torch: Any, recorder: Recording) -> str | None:
    """The key (`Recording.key`) of the compile torch is in now, else the compile in flight."""
    try:
        cid = CURRENT_COMPILE_ID.get()()
    except Exception:  # noqa: BLE001 - outside a compile, or a torch without it
        cid = None
    return recorder.key(str(cid)) if cid is not None else recorder.current


def lowering_subgraph(torch: Any) -> str | None:
    """The name of the subgraph Inductor is lowering now (`true_graph_0`: a higher-order op's
    graph with a scheduler of its own), None for the compiled graph itself or outside one."""
    try:
        name = getattr(LOWERING_GRAPH.get(), "name", None)
    except Exception:  # noqa: BLE001 - no graph set: taken as the compiled graph's
        return None
    return name if isinstance(name, str) else None


def loaded_modules(package: str) -> Iterator[tuple[str, ModuleType]]:
    """The package and its submodules imported so far, by name (a snapshot of `sys.modules`)."""
    for name, module in list(sys.modules.items()):
        if module is not None and (name == package or name.startswith(package + ".")):
            yield name, module


def cuda_built(torch: Any) -> bool:
    """Is this torch built with CUDA? Asked of the build, not of the device: asking
    `torch.cuda.is_available()` initializes CUDA, which a plain run has not done before the script
    uses it (and which fixes a `CUDA_VISIBLE_DEVICES` the script may still set)."""
    try:
        return bool(torch.backends.cuda.is_built())
    except Exception:  # noqa: BLE001 - a torch without it
        return False


def artifact_logger_handler(callback: Callable[[logging.LogRecord], None]) -> logging.Handler:
    class _Handler(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            try:
                callback(record)
            except Exception:  # noqa: BLE001 - capture must never break the compile
                pass

    return _Handler(level=logging.DEBUG)
