"""Event breakpoints' pause points (`tcdebug.model.event_breaks`): where torch does the thing, this
unit works out the event's facts and asks the recorder to pause (`Recording.event_point`), in
torch's own thread, with the user's line.

Most events come from torch's structured-trace records (graph breaks, recompile reasons,
specializations, the start of each frame's compile). Guards, a symbol's range narrowing and
refused fusions have no record tcdebug gets; each is one small wrap, marked `PATCH:` below, that
calls torch's function unchanged and only looks at what it was given. Kinds this torch cannot
give are sent once as `EventsUnavailable`, with the reason.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
import sysconfig
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from tcdebug.analysis.why import parse_graph_break
from tcdebug.capture import patches
from tcdebug.capture.base import (
    BYTECODE_HOOK,
    LOWERING_GRAPH,
    CaptureContext,
    artifact_logger_handler,
    cuda_built,
    current_compile_key,
)
from tcdebug.capture.frame import find_compile_frame
from tcdebug.model.event_breaks import EventFacts
from tcdebug.model.events import EventPause, EventsUnavailable, StanceEvent
from tcdebug.model.payloads import Frame
from tcdebug.model.session import stance_line
from tcdebug.process.our_frames import is_ours
from tcdebug.torchtext.dynamo_text import recompile_reasons, split_graph_break

_SHAPES = "symbol chains (`w`, `S`) and the guard/specialize event breakpoints"
GUARDS_SET_ADD = patches.declare(
    "torch._guards", "GuardsSet.add", unit="event_points", breaks="the `guard` event breakpoint"
)
LOG_GUARD = patches.declare(
    "torch.fx.experimental.symbolic_shapes", "ShapeEnv._log_guard", unit="event_points", breaks=_SHAPES
)
UPDATE_RANGE = patches.declare(
    "torch.fx.experimental.symbolic_shapes", "ShapeEnv._update_var_to_range", unit="event_points", breaks=_SHAPES
)
SET_REPLACEMENT = patches.declare(
    "torch.fx.experimental.symbolic_shapes", "ShapeEnv._set_replacement", unit="event_points", breaks=_SHAPES
)
_STANCES = "stance events (`set_stance`, eager_on_recompile, fail_on_recompile) and the `stance` breakpoint"
SET_STANCE = patches.declare("torch._dynamo.eval_frame", "_set_stance", unit="event_points", breaks=_STANCES)
DECORATORS_SET_STANCE = patches.declare(
    "torch._dynamo.decorators", "_set_stance", unit="event_points", breaks=_STANCES
)
CALLBACK_FROM_STANCE = patches.declare(
    "torch._dynamo.eval_frame", "_callback_from_stance", unit="event_points", breaks=_STANCES
)
STANCE = patches.declare(
    "torch._dynamo.eval_frame",
    "_stance",
    unit="event_points",
    breaks="eager_on_recompile calls are not told apart from other calls",
    kind=patches.READS,
)

STAGES: tuple[str, ...] = ()
FUSION_LOGGER = "torch._inductor.scheduler.__fusion"
_LIBRARY_DIRS = tuple(
    {
        os.path.realpath(p) + os.sep
        for key in ("stdlib", "platstdlib", "purelib", "platlib")
        if (p := sysconfig.get_path(key))
    }
)


class UserFrames:
    """Which frames are the user's: not torch's, tcdebug's, the standard library's or an installed
    package's (a break inside a library names the user's line that called it first), and not the
    code Inductor generated (its output code runs from Inductor's cache folder, which Inductor
    names in `$TORCHINDUCTOR_CACHE_DIR` before it writes anything there)."""

    def __init__(self, torch: Any) -> None:
        self.torch_dir = os.path.dirname(os.path.realpath(torch.__file__)) + os.sep
        # Dynamo's transformed code objects (`watch_compiled_code`): a frame running one is the
        # compiled function's, at its `def` line; the user's line is the one that called it.
        self.compiled: weakref.WeakSet[Any] = weakref.WeakSet()

    def watch_compiled_code(self, options: Any) -> None:
        """Learn each transformed code object from Dynamo's bytecode hook (it returns None: the
        code is not changed)."""

        def hook(old: Any, new: Any) -> None:
            self.compiled.add(new)

        options.bytecode_hooks.append(BYTECODE_HOOK.get()(hook))

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one instance per process, few files
    def is_user(self, filename: str) -> bool:
        if not filename or filename.startswith("<") or is_ours(filename):
            return False
        path = os.path.realpath(filename)
        generated = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
        if generated and path.startswith(os.path.join(os.path.realpath(generated), "")):
            return False
        return not path.startswith(self.torch_dir) and not path.startswith(_LIBRARY_DIRS)

    def innermost(self, frames: Iterable[Frame]) -> Frame | None:
        found = None
        for frame in frames:
            if self.is_user(frame.file):
                found = frame
        return found

    def caller(self) -> Frame | None:
        """The innermost user frame running now: the line that called into torch."""
        frame = sys._getframe(1)
        while frame is not None:
            code = frame.f_code
            if self.is_user(code.co_filename) and code not in self.compiled:
                return Frame(
                    file=code.co_filename, line=frame.f_lineno or 0, name=code.co_name, code=_line(frame)
                )
            frame = frame.f_back  # type: ignore[assignment]
        return None


def _line(frame: Any) -> str:
    import linecache

    return linecache.getline(frame.f_code.co_filename, frame.f_lineno or 0).strip()


def frames_of(summary: Any) -> list[Frame]:
    """Frames of a `traceback.StackSummary` (or a list of FrameSummary)."""
    out = []
    for fs in summary or []:
        out.append(
            Frame(
                file=str(getattr(fs, "filename", "")),
                line=int(getattr(fs, "lineno", 0) or 0),
                name=str(getattr(fs, "name", "")),
                code=str(getattr(fs, "line", "") or ""),
            )
        )
    return out


def _frame_compile_number(cid: str) -> int | None:
    """N of a compile key `F/N` (`0/3`, `0/3_1`, `0/3@pid`): how many compiles its frame had before."""
    core = cid.partition("@")[0].partition("#")[0]
    try:
        return int(core.split("/")[-1].partition("_")[0])
    except ValueError:
        return None


def frames_of_text(stack: list[str]) -> list[Frame]:
    """Frames of printed traceback entries (`  File "F", line N, in NAME\\n    code`)."""
    out = []
    for entry in stack:
        head, _, code = entry.partition("\n")
        head = head.strip()
        if not head.startswith('File "'):
            continue
        path, _, rest = head[len('File "') :].partition('", line ')
        num, _, name = rest.partition(", in ")
        try:
            line = int(num.strip())
        except ValueError:
            line = 0
        out.append(Frame(file=path, line=line, name=name.strip(), code=code.strip()))
    return out


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder
    torch = ctx.torch
    users = UserFrames(torch)
    unavailable: dict[str, str] = {}
    try:
        users.watch_compiled_code(ctx.options)
    except Exception:  # noqa: BLE001 - a torch without the hook: a compiled frame's def line may show
        pass

    def traced_stack() -> list[Frame]:
        try:
            return frames_of(torch._guards.TracingContext.extract_stack())
        except Exception:  # noqa: BLE001 - outside a trace
            return []

    def pause(
        cid: str | None,
        facts: EventFacts,
        *,
        stack: list[Frame] | None = None,
        registry_title: str = "",
    ) -> None:
        """Ask for a pause at this event; the frames are worked out only when a breakpoint matched."""
        if cid is None:
            cid = current_compile_key(torch, rec) or ""

        def make(spec: str) -> EventPause:
            frames = stack if stack is not None else traced_stack()
            caller = users.caller()
            user = users.innermost(frames) or caller
            return EventPause(
                compile_id=cid or "",
                kind=facts.kind,
                breakpoint=spec,
                detail=facts.detail,
                registry_id=facts.registry_id,
                registry_title=registry_title,
                user=user,
                caller=caller if caller != user else None,
                stack=frames,
            )

        rec.event_point(facts, make)

    # ----- records ---------------------------------------------------------------------------
    def on_graph_break(cid: str, md: dict[str, Any], payload: str | None) -> None:
        if not rec.wants_event("graph_break"):
            return
        reason, stack = split_graph_break(payload or "", hide_runner_frames=True)
        info = parse_graph_break(reason)
        facts = EventFacts(
            "graph_break",
            detail=reason,
            names=tuple(n for n in (info["gb_type"],) if n),
            registry_id=info["registry_id"],
        )
        pause(cid, facts, stack=frames_of_text(stack) or None, registry_title=info["gb_type"])

    def compiling_function() -> str:
        try:
            frame = find_compile_frame(torch)
        except Exception:  # noqa: BLE001
            return ""
        code = frame.f_locals.get("code") if frame is not None else None
        return str(getattr(code, "co_name", ""))

    def on_recompile(cid: str, md: dict[str, Any], payload: str | None) -> None:
        reason = recompile_reasons(payload)
        if rec.wants_event("recompile"):
            function = compiling_function()
            pause(
                cid, EventFacts("recompile", detail=reason, names=(function,) if function else ()), stack=[]
            )
        if rec.wants_event("recompile_limit"):
            count = md.get("frame_compile_id")
            if not isinstance(count, int):
                count = _frame_compile_number(cid)
            try:
                limit = int(torch._dynamo.config.recompile_limit)
            except Exception:  # noqa: BLE001 - an older torch names it cache_size_limit
                limit = int(getattr(torch._dynamo.config, "cache_size_limit", 8))
            if isinstance(count, int):
                function = compiling_function()
                detail = f"{function or 'this frame'} has {count} compiles; the recompile limit is {limit}\n{reason}"
                facts = EventFacts(
                    "recompile_limit", detail=detail, names=(function,), count=count, limit=limit
                )
                pause(cid, facts, stack=[])

    def on_start(cid: str, md: dict[str, Any], payload: str | None) -> None:
        if rec.wants_event("cache_miss"):
            function = compiling_function()
            detail = f"Dynamo's frame cache missed for {function or 'a frame'}: it compiles {cid}"
            pause(cid, EventFacts("cache_miss", detail=detail, names=("dynamo", function)), stack=[])

    def on_specialization(cid: str, md: dict[str, Any], payload: str | None) -> None:
        if not rec.wants_event("specialize"):
            return
        info = md.get("symbolic_shape_specialization") or {}
        symbol, value = str(info.get("symbol", "")), str(info.get("value", ""))
        sources = [str(s) for s in info.get("sources") or []]
        detail = (
            f"{symbol} ({', '.join(sources) or 'no source'}) specialized to {value}: {info.get('reason', '')}"
        )
        # the record's user stack names files by interned numbers: the traced stack now is the same
        pause(cid, EventFacts("specialize", detail=detail, names=(symbol, *sources)))

    ctx.handler.on("artifact:dynamo_graph_break_reason", on_graph_break)
    ctx.handler.on("artifact:recompile_reasons", on_recompile)
    ctx.handler.on("dynamo_start", on_start)
    ctx.handler.on("symbolic_shape_specialization", on_specialization)

    # ----- wraps -----------------------------------------------------------------------------
    def guarded(kind: str, install_one: Callable[[], None]) -> None:
        try:
            install_one()
        except Exception as exc:  # noqa: BLE001 - a torch without the API: this kind only
            unavailable[kind] = f"{type(exc).__name__}: {exc}"

    def wrap_guards() -> None:
        # PATCH: torch._guards.GuardsSet.add -- every guard Dynamo installs, on its source.
        guards_set = torch._guards.GuardsSet
        original = guards_set.add

        import inspect

        takes_skip = "skip" in inspect.signature(original).parameters

        @functools.wraps(original)
        def add(self: Any, guard: Any, *args: Any, **kwargs: Any) -> Any:
            if takes_skip:  # torch names the frame that called `add` in the guard's comment: not this one
                kwargs["skip"] = kwargs.get("skip", 0) + 1
            new = guard not in self.inner
            result = original(self, guard, *args, **kwargs)
            if new and rec.wants_event("guard"):
                try:
                    kind = guard.create_fn_name()
                except Exception:  # noqa: BLE001
                    kind = ""
                name = str(getattr(guard, "name", ""))
                facts = EventFacts("guard", detail=f"{kind} guard on {name}", names=(name, kind))
                pause(None, facts, stack=frames_of(getattr(guard, "user_stack", None)) or None)
            return result

        patches.replace(GUARDS_SET_ADD, add)

    def wrap_shape_guards() -> None:
        # PATCH: ShapeEnv._log_guard -- every guard on symbols, and ShapeEnv._update_var_to_range --
        # a symbol's range narrowed; torch's functions run unchanged.
        log_guard = LOG_GUARD.get()
        update_range = UPDATE_RANGE.get()

        def symbol_names(env: Any, expr: Any) -> tuple[str, ...]:
            names = []
            for sym in getattr(expr, "free_symbols", ()):
                names.append(str(sym))
                for source in env.var_to_sources.get(sym, [])[:3]:
                    names.append(str(source.name() if callable(source.name) else source.name))
            return tuple(names)

        @functools.wraps(log_guard)
        def _log_guard(self: Any, prefix: str, g: Any, forcing_spec: bool, *args: Any, **kwargs: Any) -> Any:
            result = log_guard(self, prefix, g, forcing_spec, *args, **kwargs)
            if rec.wants_event("guard"):
                pause(None, EventFacts("guard", detail=f"{prefix}: {g}", names=symbol_names(self, g)))
            return result

        @functools.wraps(update_range)
        def _update_var_to_range(self: Any, symbol: Any, vr: Any, *args: Any, **kwargs: Any) -> Any:
            before = self.var_to_range.get(symbol)
            result = update_range(self, symbol, vr, *args, **kwargs)
            after = self.var_to_range.get(symbol)
            if (
                before is not None
                and after is not None
                and str(before) != str(after)
                and rec.wants_event("specialize")
            ):
                names = symbol_names(self, symbol)
                sources = ", ".join(names[1:]) or "no source"
                detail = f"{symbol} ({sources}) range narrowed: {before} -> {after}"
                pause(None, EventFacts("specialize", detail=detail, names=names))
            return result

        patches.replace(LOG_GUARD, patches.unseen_by_shape_env(_log_guard))
        patches.replace(UPDATE_RANGE, patches.unseen_by_shape_env(_update_var_to_range))

    def stance_point(ev: StanceEvent) -> None:
        """Send a stance event, and pause there on a `stance` breakpoint."""
        rec.emit(ev)
        if rec.wants_event("stance"):
            detail = stance_line(ev)
            facts = EventFacts("stance", detail=detail, names=(ev.stance, ev.action, ev.function))
            pause(ev.compile_id or None, facts, stack=[])

    def wrap_stances() -> None:
        # PATCH: eval_frame._set_stance (and decorators' name of it) -- each change of stance, with the
        # user's line; eval_frame._callback_from_stance -- a call under eager_on_recompile whose guards
        # all fail (run eagerly), and fail_on_recompile's refusal. torch's functions run unchanged.
        set_original = SET_STANCE.get()
        from_stance = CALLBACK_FROM_STANCE.get()

        @functools.wraps(set_original)
        def _set_stance(stance: Any) -> Any:
            prior = set_original(stance)
            name = str(getattr(stance, "stance", stance))
            if name != str(getattr(prior, "stance", prior)):
                forced.clear()
                stance_point(StanceEvent(stance=name, action="set", user=users.caller()))
            return prior

        forced: set[Any] = set()  # the functions force_eager ran eagerly since the stance was set

        @functools.wraps(from_stance)
        def _callback_from_stance(callback: Any) -> Any:
            result = from_stance(callback)
            stance = str(getattr(STANCE.get(None), "stance", ""))
            if stance == "eager_on_recompile" and callback not in (False, None):
                try:
                    eager_call(sys._getframe(1))
                except Exception:  # noqa: BLE001 - observing never breaks the call
                    pass
            elif stance == "fail_on_recompile" and callable(result) and result is not callback:
                return failing(result)
            elif stance == "force_eager" and callback not in (False, None):
                try:
                    forced_eager(sys._getframe(1))
                except Exception:  # noqa: BLE001 - observing never breaks the call
                    pass
            return result

        def failing(fail_callback: Any) -> Any:
            @functools.wraps(fail_callback)
            def watched(frame: Any, *args: Any, **kwargs: Any) -> Any:
                try:
                    return fail_callback(frame, *args, **kwargs)
                except RuntimeError as exc:
                    message = str(exc)
                    _, _, failures = message.partition("guard failure(s):")
                    guard = "\n".join(line.strip().removeprefix("- ") for line in failures.strip().splitlines())
                    if not guard:
                        guard = first_failure(frame.f_code, dict(frame.f_locals))
                    stance_point(
                        StanceEvent(
                            stance="fail_on_recompile",
                            action="failed",
                            function=frame.f_code.co_name,
                            guard=guard,
                            user=users.caller(),
                            detail=message.splitlines()[0] if message else "",
                        )
                    )
                    raise

            return watched

        def first_failure(code: Any, f_locals: dict[str, Any]) -> str:
            from tcdebug.capture.guard_check import check_code

            checks = check_code(torch, code, f_locals)
            return next((c["reason"] for c in checks if not c["passed"] and c["reason"]), "")

        def called(frame: Any, *, with_locals: bool = True) -> tuple[str, Any, dict[str, Any]] | None:
            """The function `_fn` of a compiled function's context is about to call: its name, the
            code Dynamo's entries are on, and its locals for this call. A compiled module's `_fn`
            calls the module (`__call__`); the entries are on its `forward`, whose locals include
            `self`; torch's own modules are called through `wrap_inline`'s function."""
            import inspect

            from tcdebug.capture.calls import DYNAMO_FN_ARGS, DYNAMO_FN_FN, DYNAMO_FN_KWARGS, MODULE_CALLS

            fn = DYNAMO_FN_FN.read_local(frame)
            owner = getattr(fn, "__self__", None)
            f_locals: dict[str, Any] = {}
            if isinstance(owner, torch.nn.Module) and getattr(fn, "__name__", "") in MODULE_CALLS:
                fn = owner.forward
                f_locals["self"] = owner
            code = getattr(fn, "__code__", None)  # a function, or a bound method's function
            if code is None:
                return None
            module = owner if "self" in f_locals else getattr(fn, "__wrapped__", None)
            name = f"{type(module).__name__}.forward" if isinstance(module, torch.nn.Module) else code.co_name
            if with_locals:
                args = DYNAMO_FN_ARGS.read_local(frame, ())
                bound = inspect.signature(fn).bind(*args, **(DYNAMO_FN_KWARGS.read_local(frame) or {}))
                bound.apply_defaults()
                f_locals.update(bound.arguments)
            return name, code, f_locals

        def forced_eager(frame: Any) -> None:
            """force_eager runs every call eagerly: one event per function, at its first call."""
            found = called(frame, with_locals=False)
            if found is None or found[1] in forced:
                return
            name, code, _ = found
            forced.add(code)
            stance_point(
                StanceEvent(
                    stance="force_eager",
                    action="ran_eager",
                    function=name,
                    user=users.caller(),
                    detail=f"force_eager runs every call of {name} eagerly, compiling nothing",
                )
            )

        def eager_call(frame: Any) -> None:
            """A call in run mode (eager_on_recompile): when no cache entry's guards pass, torch runs
            it eagerly."""
            from tcdebug.capture.guard_check import check_code

            found = called(frame)
            if found is None:
                return
            name, code, f_locals = found
            checks = check_code(torch, code, f_locals)
            if not checks or any(c["passed"] for c in checks):
                return
            guard = next((c["reason"] for c in checks if c["reason"]), "")
            stance_point(
                StanceEvent(
                    stance="eager_on_recompile",
                    action="ran_eager",
                    compile_id=rec.key(checks[0]["compile_id"]) if checks[0]["compile_id"] else "",
                    function=name,
                    guard=guard,
                    user=users.caller(),
                    detail=f"no compile of {name} fits this call: eager_on_recompile runs it eagerly",
                )
            )

        patches.replace(SET_STANCE, _set_stance)
        if DECORATORS_SET_STANCE.get(None) is set_original:
            patches.replace(DECORATORS_SET_STANCE, _set_stance)
        patches.replace(CALLBACK_FROM_STANCE, _callback_from_stance)

    guarded("guard", wrap_guards)
    guarded("specialize", wrap_shape_guards)
    guarded("stance", wrap_stances)
    if not cuda_built(torch):
        for kind in ("cudagraph_skip", "cudagraph_rerecord"):
            unavailable[kind] = "this torch is built without CUDA"
    ctx.options.share(EventPoints(pause, users))
    if unavailable:
        rec.emit(EventsUnavailable(kinds=dict(unavailable)))


class EventPoints:
    """Shared with the Inductor-side install: the pause function and the user-frame finder."""

    def __init__(self, pause: Callable[..., None], users: UserFrames) -> None:
        self.pause = pause
        self.users = users


def install_inductor(ctx: CaptureContext) -> None:
    points = ctx.options.shared(EventPoints)
    if points is None:
        return
    rec = ctx.recorder

    def on_fusion(record: logging.LogRecord) -> None:
        if not rec.wants_event("fusion_refused"):
            return
        message = record.getMessage()
        if not message.startswith("cannot fuse "):
            return
        head, _, reason = message.partition(": ")
        nodes = tuple(n.strip() for n in head[len("cannot fuse ") :].split(" with "))
        points.pause(
            None,
            EventFacts("fusion_refused", detail=message, names=nodes),
            stack=origin_stack(nodes),
        )

    def origin_stack(names: tuple[str, ...]) -> list[Frame]:
        """The stack of the user's line the first named scheduler node came from (its FX origins'
        `stack_trace`, the latest line first picked); [] where Inductor does not say."""
        try:
            from tcdebug.analysis.provenance_index import stack_frames

            scheduler = getattr(LOWERING_GRAPH.get(None), "scheduler", None)
            wanted = names[0] if names else ""
            for node in getattr(scheduler, "nodes", None) or ():
                inner = list(node.get_nodes()) if hasattr(node, "get_nodes") else [node]
                if node.get_name() != wanted and all(n.get_name() != wanted for n in inner):
                    continue
                traces = [
                    str(origin.meta.get("stack_trace") or "")
                    for n in inner
                    for origin in getattr(getattr(n, "node", None), "origins", None) or ()
                ]
                traces = sorted((t for t in traces if t), key=len)
                if traces:
                    return [
                        Frame(file=f["file"], line=f["line"], name=f["fn"], code=f.get("code", ""))
                        for f in stack_frames(traces[0])
                    ]
        except Exception:  # noqa: BLE001 - observing never breaks the compile
            pass
        return []

    handler = artifact_logger_handler(on_fusion)
    log = logging.getLogger(FUSION_LOGGER)
    log.setLevel(logging.DEBUG)
    log.propagate = False
    log.addHandler(handler)
    ctx.options.artifact_handlers.append((FUSION_LOGGER, handler))
