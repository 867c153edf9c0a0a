"""Installs every capture unit into the running torch, each one guarded, in two steps: each unit's
`install` once the script's torch has imported Dynamo, its `install_inductor` once it has imported
Inductor's compiler (`tcdebug.debuggee.import_watch` says why)."""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
import pkgutil
from types import CodeType
from typing import Any

from tcdebug.capture import patches, trace_records
from tcdebug.capture.base import CaptureContext, TraceDispatcher, loaded_modules
from tcdebug.capture.recording import Recording
from tcdebug.model import protocol
from tcdebug.model.events import Note

UNITS = (
    "tcdebug.capture.provenance",  # first: a stage's provenance arrives before its pause
    "tcdebug.capture.kernel_lines",  # the lines inside kernels, read by provenance
    "tcdebug.capture.frame",
    "tcdebug.capture.graphs",
    "tcdebug.capture.compiled_autograd",
    "tcdebug.capture.pre_grad",
    "tcdebug.capture.inductor_graph",
    "tcdebug.capture.inductor_ir",
    "tcdebug.capture.kernel_source",
    "tcdebug.capture.triton_info",
    "tcdebug.capture.inductor_records",  # collective schedules, runtime estimates: the ranks compared
    "tcdebug.capture.guards",
    "tcdebug.capture.bytecode",
    "tcdebug.capture.decompiled",
    "tcdebug.capture.dynamo_events",
    "tcdebug.capture.ddp_split",
    "tcdebug.capture.event_points",  # after dynamo_events: a break is shown before its pause
    "tcdebug.capture.symbol_chain",
    "tcdebug.capture.compile_times",
    "tcdebug.capture.cache_verdicts",
    "tcdebug.capture.autotune",
    "tcdebug.capture.guard_provenance",
    "tcdebug.capture.cudagraph",
    "tcdebug.capture.calls",
    "tcdebug.capture.graph_inputs",  # after provenance: it reads the graphs provenance saw printed
    "tcdebug.capture.export",
)


SKIP_UNITS_ENV = "TCDEBUG_SKIP_UNITS"
_CACHED = "stages a cache hit skips (a second run shows no graphs, IR or kernels)"
FORCE_DISABLE_CACHES = patches.declare(
    "torch.compiler.config", "force_disable_caches", unit="setup", breaks=_CACHED, kind=patches.SETS
)
FX_GRAPH_CACHE = patches.declare(
    "torch._inductor.config", "fx_graph_cache", unit="setup", breaks=_CACHED, kind=patches.SETS
)
AUTOTUNE_LOCAL_CACHE = patches.declare(
    "torch._inductor.config", "autotune_local_cache", unit="setup", breaks=_CACHED, kind=patches.SETS
)
LOCAL_PGO = patches.declare(
    "torch._dynamo.config",
    "automatic_dynamic_local_pgo",
    unit="setup",
    breaks="recompiles: a profile from an earlier run makes shapes dynamic at the first compile",
    kind=patches.SETS,
)
RECOMPILE_RE = patches.declare(
    "torch._dynamo.trace_rules",
    "_recompile_re",
    unit="setup",
    breaks="startup: Dynamo's skip pattern is compiled once per tcdebug module (slower)",
    kind=patches.REPLACES,
)
SET_LOGS = patches.declare(
    "torch._logging",
    "set_logs",
    unit="setup",
    breaks="every logged stage, after the script calls `torch._logging.set_logs()`",
)


def skipped_units() -> set[str]:
    """Capture units not installed: `$TCDEBUG_SKIP_UNITS`, comma-separated short names
    (`cudagraph,triton_info`), `*` for all of them, `trace` for the structured-trace handler itself,
    `trace_filter` for the filter that has torch build only the records tcdebug reads.
    Meant for measuring what each unit costs, not for users."""
    names = {part.strip() for part in os.environ.get(SKIP_UNITS_ENV, "").split(",") if part.strip()}
    if "*" in names:
        names = (names - {"*"}) | {unit.rsplit(".", 1)[-1] for unit in UNITS}
    return names


def cold_requested() -> bool:
    """`tcdebug --cold` asked for a run with every cache and PGO off."""
    return os.environ.get(protocol.COLD_ENV, "") == "1"


def configure_torch(torch: Any, cold: bool = False) -> list[str]:
    """Leave the user's caches and PGO as their environment sets them; with `cold` (`--cold`),
    switch every cache and automatic-dynamic PGO off, so that no cache hit skips a stage. Returns
    what tcdebug changed in torch, one line each, for the session's notes."""
    changes = [
        "tcdebug's changes to torch: its handlers on the structured-trace logger (torch builds only the "
        "records tcdebug reads unless TORCH_TRACE is set) and on the IR artifact loggers; Inductor's "
        "provenance tracking as the environment sets it; compile caches and automatic-dynamic PGO "
        + ("off (--cold, the notes below)" if cold else "as the environment sets them")
    ]
    if not cold:
        return changes
    try:
        patches.set_value(FORCE_DISABLE_CACHES, True)
        changes.append(
            "--cold: torch.compiler.config.force_disable_caches = True (FX graph, AOTAutograd, autotune caches off)"
        )
    except Exception as exc:  # noqa: BLE001
        changes.append(f"--cold: could not disable compile caches: {exc}")
        for private in (FX_GRAPH_CACHE, AUTOTUNE_LOCAL_CACHE):
            try:
                patches.set_value(private, False)
            except Exception:  # noqa: BLE001
                pass
    try:
        patches.set_value(LOCAL_PGO, False)
        changes.append("--cold: TORCH_DYNAMO_AUTOMATIC_DYNAMIC_LOCAL_PGO=0 (no profile read or written)")
    except Exception:  # noqa: BLE001 - older torch: no PGO to switch off
        pass
    return changes


_SKIPPED_BY_DYNAMO: set[str] = set()  # modules and subpackages put in Dynamo's skip list


def keep_dynamo_out(torch: Any) -> None:
    """Dynamo never compiles a frame of tcdebug's code.

    While its frame hook is on (inside a compiled function: compiled autograd's backward, eager
    code after a graph break), Dynamo compiles any frame with tensors or modules that its rules do
    not skip. Torch calls the hooks' wrappers there, and they call tcdebug's code: its files are
    put in Dynamo's skip list, as torch's own are, and so are the methods `dataclasses` generates
    for tcdebug's classes (their code says `<string>`, which no file rule matches). Not the bundled
    samples (`tcdebug.samples`, in the package's folder when installed): they are user scripts.
    Call it again after importing more of tcdebug."""
    package = __name__.split(".")[0]
    new = [name for name in skipped_modules(package) if name not in _SKIPPED_BY_DYNAMO]
    add_to_skip_list(torch._dynamo.trace_rules, new)
    _SKIPPED_BY_DYNAMO.update(new)
    skip_code = getattr(torch._dynamo.eval_frame, "skip_code", None)
    if skip_code is None:
        return
    for code in generated_code(package):
        skip_code(code)


def add_to_skip_list(trace_rules: Any, names: list[str]) -> None:
    """`trace_rules.add` for each name, with Dynamo's skip pattern (one regular expression of every
    skipped folder, hundreds of them) compiled once at the end instead of after each name: compiling it
    once per name would be most of what installing the capture costs."""
    if not names:
        return
    recompile = RECOMPILE_RE.get(None, owner=trace_rules)
    if not callable(recompile):  # another torch: its own add, as it is
        for name in names:
            trace_rules.add(name)
        return
    with patches.swapped(RECOMPILE_RE, lambda: None, owner=trace_rules):
        for name in names:
            trace_rules.add(name)
    recompile()


NOT_SKIPPED = ("samples", "screens")  # user scripts; the UI, which the target never imports


def skipped_modules(package: str) -> list[str]:
    """The package's modules and subpackages that Dynamo must skip (each one's file or folder)."""
    found = importlib.util.find_spec(package)
    folders = list(found.submodule_search_locations or []) if found is not None else []
    return [
        f"{package}.{info.name}" for info in pkgutil.iter_modules(folders) if info.name not in NOT_SKIPPED
    ]


def generated_code(package: str) -> list[CodeType]:
    """The code of every method, in the package's modules imported so far, that was made at run time
    from text (`dataclasses`' `__init__`, `__eq__`, ...): its file name is not a path."""
    found: dict[int, CodeType] = {}
    for name, module in loaded_modules(package):
        for value in list(vars(module).values()):
            if not isinstance(value, type) or value.__module__ != name:
                continue
            for attr in vars(value).values():
                code = getattr(getattr(attr, "__func__", attr), "__code__", None)
                if isinstance(code, CodeType) and code.co_filename.startswith("<"):
                    found[id(code)] = code
    return list(found.values())


def install_capture(torch: Any, recorder: Recording) -> CaptureContext:
    """The first step: every unit's `install` (the script's torch has imported Dynamo)."""
    dispatcher = TraceDispatcher(recorder)
    ctx = CaptureContext(recorder=recorder, handler=dispatcher, torch=torch)
    for note in configure_torch(torch, cold=cold_requested()):
        recorder.emit(Note(text=note))
    skipped = skipped_units()
    for short, module in _units():
        if short in skipped:  # for measuring what a unit costs (benchmarks/gpu_overhead.py)
            for stage_id in getattr(module, "STAGES", ()):
                recorder.mark_unavailable(stage_id, f"switched off ({SKIP_UNITS_ENV})")
            recorder.emit(Note(text=f"{short}: switched off ({SKIP_UNITS_ENV})"))
            continue
        _install_unit(ctx, short, module, "install")
    _keep_dynamo_out(ctx)
    if "trace" in skipped:
        recorder.emit(Note(text=f"trace: switched off ({SKIP_UNITS_ENV})"))
        return ctx
    dispatcher.attach()
    _keep_attached(torch, ctx)
    if "trace_filter" in skipped:
        recorder.emit(Note(text=f"trace_filter: switched off ({SKIP_UNITS_ENV})"))
    else:  # a torch without what it needs: every record is built, and a Note says why
        _install_unit(ctx, "trace_filter", trace_records, "install")
    return ctx


def install_inductor_capture(ctx: CaptureContext) -> None:
    """The second step: every unit's `install_inductor` (the script's torch has imported Inductor's
    compiler, `torch._inductor.compile_fx`)."""
    skipped = skipped_units()
    for short, module in _units():
        if short not in skipped:
            _install_unit(ctx, short, module, "install_inductor")
    _keep_dynamo_out(ctx)


def _keep_dynamo_out(ctx: CaptureContext) -> None:
    try:
        keep_dynamo_out(ctx.torch)
    except Exception as exc:  # noqa: BLE001 - an older torch: said in a note
        ctx.recorder.emit(
            Note(text=f"Dynamo may compile tcdebug's own functions: {type(exc).__name__}: {exc}")
        )


def _units() -> list[tuple[str, Any]]:
    units = []
    for name in UNITS:
        try:
            units.append((name.rsplit(".", 1)[-1], importlib.import_module(name)))
        except ImportError:
            continue
    return units


def _install_unit(ctx: CaptureContext, short: str, module: Any, step: str) -> None:
    install = getattr(module, step, None)
    if install is None:
        return
    try:
        install(ctx)
    except Exception as exc:  # noqa: BLE001 - this torch lacks what the unit needs
        reason = patches.unavailable_reason(str(getattr(ctx.torch, "__version__", "?")), exc)
        for stage_id in getattr(module, "STAGES", ()):
            ctx.recorder.mark_unavailable(stage_id, reason)
        ctx.recorder.emit(Note(text=f"{short}: {reason}"))


def _keep_attached(torch: Any, ctx: CaptureContext) -> None:
    """`torch._logging.set_logs()` clears the trace logger's handlers: re-attach after it."""

    def make(original: Any) -> Any:
        def set_logs(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            ctx.handler.attach()
            for name, handler in ctx.options.artifact_handlers:
                log = logging.getLogger(name)
                log.setLevel(logging.DEBUG)
                if handler not in log.handlers:
                    log.addHandler(handler)
            return result

        return set_logs

    try:
        patches.wrap(SET_LOGS, make)
    except patches.MissingPrivate as exc:  # an older torch: nothing clears the handler
        ctx.recorder.emit(Note(text=f"set_logs: {patches.unavailable_reason(str(torch.__version__), exc)}"))
