"""The last call of every function `torch.compile` wrapped, kept for re-runs.

`OptimizeContext.__call__` (what `torch.compile(...)` ends in) is wrapped so that
the callable it returns records each call: per code object, the callable, the
arguments with every tensor replaced by its metadata (shape, dtype, device, ...),
and the grad mode. Float tensors are not kept alive; integer and bool tensors are
(a re-run draws new values from their range). Recording costs a walk over the
arguments, nothing more.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
import threading
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext

STAGES: tuple[str, ...] = ()
MAX_DEPTH = 2  # containers inside arguments are walked this deep
MODULE_CALLS = ("__call__", "_call_impl", "_wrapped_call_impl")
_RERUN = "re-runs (`r`, `--rerun`) and guard checks: no recorded call to run again"
OPTIMIZE_CALL = patches.declare(
    "torch._dynamo.eval_frame", "OptimizeContext.__call__", unit="calls", breaks=_RERUN
)
OPTIMIZED_FORWARD = patches.declare(
    "torch._dynamo.eval_frame",
    "OptimizedModule.forward",
    unit="calls",
    breaks=_RERUN,
    kind=patches.REPLACES,
    on_instance=True,
)
ENTER_EXIT_HOOKS = patches.declare(
    "torch._dynamo.eval_frame",
    "_TorchDynamoContext.enter_exit_hooks",
    unit="calls",
    breaks="re-runs: calls are recorded by a wrapper whose frame is on the call path",
    kind=patches.READS,
    on_instance=True,
)
DYNAMIC_SETTING = patches.declare(
    "torch._dynamo.eval_frame",
    "_TorchDynamoContext._dynamic",
    unit="calls",
    breaks="re-runs: the script's `dynamic=` setting is not known, and re-runs under another one fail",
    kind=patches.READS,
    on_instance=True,
)
DYNAMIC_INDICES = patches.declare(
    "torch",
    "Tensor._dynamo_dynamic_indices",
    unit="calls",
    breaks="re-runs: a tensor's `mark_dynamic` dims are not marked again on the new input",
    kind=patches.READS,
    on_instance=True,
)
ORIGINAL_MODULE = patches.declare(
    "torch._dynamo.eval_frame",
    "OptimizedModule._orig_mod",
    unit="calls",
    breaks="re-runs of a compiled module: its calls are not recorded",
    kind=patches.READS,
    on_instance=True,
)
ORIGINAL_BACKEND = patches.declare(
    "torch._dynamo.convert_frame",
    "ConvertFrameAssert._torchdynamo_orig_backend",
    unit="calls",
    breaks="re-runs under other options (`@mode`, `@fullgraph`) use the default backend, not the script's",
    kind=patches.READS,
    on_instance=True,
)
_CALL_ARGS = "re-runs: calls recorded from a wrapper, not from Dynamo's enter hook"
DYNAMO_FN_ARGS = patches.frame_local(
    "torch._dynamo.eval_frame", "_TorchDynamoContext.__call__", "args", unit="calls", breaks=_CALL_ARGS
)
DYNAMO_FN_KWARGS = patches.frame_local(
    "torch._dynamo.eval_frame", "_TorchDynamoContext.__call__", "kwargs", unit="calls", breaks=_CALL_ARGS
)
DYNAMO_FN_FN = patches.frame_local(
    "torch._dynamo.eval_frame", "_TorchDynamoContext.__call__", "fn", unit="calls", breaks=_CALL_ARGS
)
_SKIP = object()


@dataclass
class TensorMeta:
    shape: tuple[int, ...]
    dtype: Any
    device: Any
    requires_grad: bool
    dynamic_dims: tuple[int, ...] = ()
    stride: tuple[int, ...] | None = None  # only for non-contiguous tensors
    keep: Any = None  # integer and bool tensors themselves: their value range
    # Where it lay in memory: (storage key, storage offset, stride, storage bytes). Tensors of one
    # call with the same key are views of one storage; a re-run makes them views of one again.
    storage: tuple[Any, int, tuple[int, ...], int] | None = None

    @property
    def dtype_name(self) -> str:
        return str(self.dtype).removeprefix("torch.")


@dataclass
class CallTarget:
    """What torch.compile wrapped: fixed when the wrapper is made."""

    invoke: Any  # the compiled callable to call for a re-run
    func: Any  # the user's function (for its signature)
    owner: Any  # `self` of a compiled module or method, else None
    code: CodeType | None  # the frame Dynamo compiles
    ctx: Any  # the OptimizeContext
    function: str = ""
    filename: str = ""
    firstlineno: int = 0
    chain: tuple[Any, ...] = ()  # `func`, then what its `__wrapped__` chain leads to
    compiled_index: int | None = None  # which of `chain` Dynamo was seen compiling
    first_code: CodeType | None = None  # `code` as first guessed: the key stays put when it changes
    # The function Dynamo's wrapper calls when it is none of `chain` (torch.nn containers are
    # wrapped by `external_utils.wrap_inline` in an `inner(*args, **kwargs)`: that frame is compiled).
    entry: Any = None

    def __post_init__(self) -> None:
        self.first_code = self.code

    @property
    def key(self) -> int:
        return id(self.first_code) if self.first_code is not None else id(self.invoke)

    @functools.cached_property
    def signature(self) -> inspect.Signature | None:
        try:
            return inspect.signature(self.func)
        except (TypeError, ValueError):
            return None

    @property
    def dynamic(self) -> bool | None:
        return DYNAMIC_SETTING.get(None, owner=self.ctx)

    def saw_compile(self, code: CodeType) -> bool:
        """Dynamo starts on `code`: if it is one of our wrappers' frames, that is the frame to guard.

        A decorator like transformers' `wrapper(self, *args, **kwargs)` is the frame Dynamo
        compiles, not the `forward` it wraps; the outermost one seen wins (a graph break in the
        wrapper also compiles the inner frame).
        """
        for i, fn in enumerate((self.entry, *self.chain)):
            if fn is not None and getattr(fn, "__code__", None) is code:
                if self.compiled_index is None or i < self.compiled_index:
                    self.compiled_index, self.code = i, code
                return True
        return False

    def frame_function(self) -> Any:
        """The function whose frame Dynamo compiles (its signature gives the frame's locals)."""
        for fn in (self.entry, *self.chain):
            if fn is not None and getattr(fn, "__code__", None) is self.code:
                return fn
        return None


@dataclass
class LastCall:
    target: CallTarget
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    grad_enabled: bool
    count: int = 1
    extra: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)  # global state at the call (see global_state)

    def shared_storages(self) -> set[Any]:
        """Storage keys two or more of the call's tensors shared (views of one tensor)."""
        metas: dict[int, TensorMeta] = {}

        def walk(value: Any, depth: int) -> None:
            if isinstance(value, TensorMeta):
                metas[id(value)] = value
            elif depth < MAX_DEPTH and type(value) in (list, tuple):
                for v in value:
                    walk(v, depth + 1)
            elif depth < MAX_DEPTH and type(value) is dict:
                for v in value.values():
                    walk(v, depth + 1)

        for value in (*self.args, *self.kwargs.values()):
            walk(value, 0)
        keys = [m.storage[0] for m in metas.values() if m.storage is not None]
        return {k for k in keys if keys.count(k) > 1}

    def origins(self) -> dict[tuple[str, Any], str]:
        """("a", i) / ("k", name) of each recorded argument -> its input path (as `named_values`)."""
        args = tuple(_Origin(("a", i)) for i in range(len(self.args)))
        kwargs = {k: _Origin(("k", k)) for k in self.kwargs}
        out: dict[tuple[str, Any], str] = {("a", i): f"args[{i}]" for i in range(len(args))}
        out.update({("k", k): f"kwargs[{k!r}]" for k in kwargs})
        for path, _leaf, value, _kind in self._named(self.bind(args, kwargs), args, kwargs):
            if isinstance(value, _Origin):
                out[value.where] = path
        return out

    def frame_locals(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any] | None:
        """The locals of the frame Dynamo compiles when called with (args, kwargs), or None."""
        fn = self.target.frame_function()
        if fn is None:
            return None
        try:
            sig = inspect.signature(fn, follow_wrapped=False)
            takes_owner = self.target.owner is not None and fn is not self.target.entry
            lead = (self.target.owner,) if takes_owner else ()
            bound = sig.bind(*lead, *args, **kwargs)
        except (TypeError, ValueError):
            return None
        bound.apply_defaults()
        out = dict(bound.arguments)
        code, cells = fn.__code__, fn.__closure__ or ()
        # a frame's locals hold its free variables (a decorator's `fn`, guarded as L['fn'])
        for name, cell in zip(code.co_freevars, cells, strict=False):
            try:
                out.setdefault(name, cell.cell_contents)
            except ValueError:  # an empty cell
                pass
        return out

    def bind(self, args: tuple[Any, ...] | None = None, kwargs: dict[str, Any] | None = None) -> Any:
        """`inspect.BoundArguments` of the user's function (the owner first), or None."""
        sig = self.target.signature
        if sig is None:
            return None
        lead = (self.target.owner,) if self.target.owner is not None else ()
        try:
            return sig.bind(
                *lead, *(self.args if args is None else args), **(self.kwargs if kwargs is None else kwargs)
            )
        except TypeError:
            return None

    def named_values(self) -> list[tuple[str, str, Any, str]]:
        """(path, leaf name, snapshot value, parameter kind) for every argument, owner left out."""
        return self._named(self.bind(), self.args, self.kwargs)

    def _named(
        self, bound: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> list[tuple[str, str, Any, str]]:
        out: list[tuple[str, str, Any, str]] = []
        if bound is None:
            out += [(f"args[{i}]", "", v, "positional") for i, v in enumerate(args)]
            out += [(f"kwargs[{k!r}]", k, v, "keyword") for k, v in kwargs.items()]
            return out
        params = bound.signature.parameters
        for i, (name, value) in enumerate(bound.arguments.items()):
            if i == 0 and self.target.owner is not None:
                continue
            kind = params[name].kind
            if kind == inspect.Parameter.VAR_POSITIONAL:
                out += [(f"{name}[{j}]", "", v, "positional") for j, v in enumerate(value)]
            elif kind == inspect.Parameter.VAR_KEYWORD:
                out += [(f"{name}[{k!r}]", k, v, "keyword") for k, v in value.items()]
            else:
                out.append((name, name, value, "param"))
        return out


class _Origin:
    """Stands for one recorded argument while binding, to learn its input path."""

    def __init__(self, where: tuple[str, Any]) -> None:
        self.where = where


def describe_value(
    path: str, leaf: str, value: Any, depth: int = 0, seen: dict[int, str] | None = None
) -> list[dict[str, Any]]:
    """Input rows (see `tcdebug.model.rerun_spec`) for one argument; containers are flattened.

    `seen` (id of a TensorMeta -> its first path) marks a tensor passed again as `alias_of`."""
    seen = {} if seen is None else seen
    if isinstance(value, TensorMeta):
        first = seen.setdefault(id(value), path)
        alias = {"alias_of": first} if first != path else {}
        return [
            {
                "name": path,
                "leaf": leaf,
                "kind": "tensor",
                "type": "Tensor",
                "shape": list(value.shape),
                "dtype": value.dtype_name,
                "device": str(value.device),
                "requires_grad": value.requires_grad,
                "dynamic_dims": list(value.dynamic_dims),
                "contiguous": value.stride is None,
                **alias,
            }
        ]
    if isinstance(value, bool):
        return [{"name": path, "leaf": leaf, "kind": "bool", "type": "bool", "value": value}]
    if isinstance(value, int):
        return [{"name": path, "leaf": leaf, "kind": "int", "type": "int", "value": value}]
    if isinstance(value, float):
        return [{"name": path, "leaf": leaf, "kind": "float", "type": "float", "value": value}]
    if isinstance(value, (list, tuple)) and depth < MAX_DEPTH and _has_tensor(value):
        rows: list[dict[str, Any]] = []
        for i, v in enumerate(value):
            rows += describe_value(f"{path}[{i}]", "", v, depth + 1, seen)
        return rows
    if isinstance(value, dict) and depth < MAX_DEPTH and _has_tensor(value.values()):
        rows = []
        for k, v in value.items():
            rows += describe_value(f"{path}[{k!r}]", "", v, depth + 1, seen)
        return rows
    text = repr(value) if value is None or isinstance(value, (str, bytes)) else f"<{type(value).__name__}>"
    return [{"name": path, "leaf": leaf, "kind": "other", "type": type(value).__name__, "repr": text[:80]}]


def _storage_of(tensor: Any) -> tuple[Any, int, tuple[int, ...], int] | None:
    """(storage key, offset, stride, storage bytes) of a tensor with memory of its own, else None."""
    try:
        storage = tensor.untyped_storage()
        ptr = storage.data_ptr()
        if not ptr:
            return None
        key = (str(tensor.device), ptr)
        return (key, int(tensor.storage_offset()), tuple(tensor.stride()), storage.nbytes())
    except Exception:  # noqa: BLE001 - a tensor without plain storage (meta, fake, sparse): not shared
        return None


def _has_tensor(values: Any) -> bool:
    return any(isinstance(v, (TensorMeta, list, tuple, dict)) for v in values)


class CallLog:
    """Last call per code object. `suspended` while tcdebug itself calls compiled code."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.calls: dict[int, LastCall] = {}
        self._local = threading.local()
        self.errors: list[str] = []
        self.targets: dict[int, CallTarget] = {}  # every target called at least once
        # id(Dynamo's `_fn`) -> [its CallTarget, a weak reference to the `_fn`]
        self.hooked: dict[int, list[Any]] = {}

    @property
    def suspended(self) -> bool:
        return getattr(self._local, "suspended", False)

    def suspend(self) -> _Suspend:
        return _Suspend(self._local)

    def snapshot(self, value: Any, depth: int = 0, memo: dict[int, TensorMeta] | None = None) -> Any:
        """`value` with tensors replaced by their metadata; one tensor passed twice (an alias,
        e.g. `labels=input_ids`) becomes one `TensorMeta` object, so a re-run passes one tensor twice."""
        torch = self.torch
        memo = {} if memo is None else memo
        if isinstance(value, torch.Tensor):
            seen = memo.get(id(value))
            if seen is not None:
                return seen
            dims = DYNAMIC_INDICES.get(None, owner=value)
            is_int = not (value.is_floating_point() or value.is_complex())
            meta = memo[id(value)] = TensorMeta(
                shape=tuple(value.shape),
                dtype=value.dtype,
                device=value.device,
                requires_grad=value.requires_grad,
                dynamic_dims=tuple(sorted(dims)) if dims else (),
                stride=None if value.is_contiguous() else tuple(value.stride()),
                keep=value.detach() if is_int else None,
                storage=_storage_of(value),
            )
            return meta
        if depth < MAX_DEPTH:
            if type(value) in (list, tuple):
                return type(value)(self.snapshot(v, depth + 1, memo) for v in value)
            if type(value) is dict:
                return {k: self.snapshot(v, depth + 1, memo) for k, v in value.items()}
        return value

    def record(self, target: CallTarget, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if self.suspended:
            return
        try:
            memo: dict[int, TensorMeta] = {}
            snap_args = tuple(self.snapshot(a, 0, memo) for a in args)
            snap_kwargs = {k: self.snapshot(v, 0, memo) for k, v in kwargs.items()}
            old = self.calls.get(target.key)
            count = old.count + 1 if old is not None else 1
            state = capture_global_state(self.torch)
            self.calls[target.key] = LastCall(
                target, snap_args, snap_kwargs, bool(state["grad_enabled"]), count, state=state
            )
            self.targets[id(target)] = target
        except Exception as exc:  # noqa: BLE001 - recording must never break the user's call
            if len(self.errors) < 5:
                self.errors.append(f"{type(exc).__name__}: {exc}")

    def saw_compile(self, code: Any) -> None:
        """Dynamo starts compiling `code` (see `CallTarget.saw_compile`)."""
        for target in list(self.targets.values()):
            target.saw_compile(code)

    def ordered(self) -> list[LastCall]:
        return list(self.calls.values())

    def release(self) -> None:
        """Let go of the user's objects (compiled callables, the modules they belong to, kept
        tensors) once no re-run can come. Without this they outlive the script and are freed
        while the interpreter finalizes, where python would have freed them at the script's end
        (and where torch's C++ threads, gloo's among them, can deadlock on a tensor's last decref).
        Calls made after this are not recorded."""
        for entry in self.hooked.values():
            entry[0] = None  # Dynamo's context keeps the enter hook, and the hook its target
        self.hooked.clear()
        self.targets.clear()
        self.calls.clear()


class _Suspend:
    def __init__(self, local: threading.local) -> None:
        self.local = local

    def __enter__(self) -> None:
        self.local.suspended = True

    def __exit__(self, *exc: object) -> None:
        self.local.suspended = False


def make_target(torch: Any, fn: Any, result: Any, ctx: Any) -> CallTarget | None:
    """Work out what `torch.compile(fn)` compiles: the function, its owner and the code object."""
    optimized = getattr(torch._dynamo.eval_frame, "OptimizedModule", ())
    module_type = torch.nn.Module
    owner: Any = None
    func: Any = fn
    if isinstance(result, optimized):
        owner = ORIGINAL_MODULE.get(owner=result)
        func = type(owner).forward
    elif inspect.ismethod(fn):
        owner, func = fn.__self__, fn.__func__
        if isinstance(owner, module_type) and fn.__name__ in MODULE_CALLS:
            func = type(owner).forward
    elif isinstance(fn, module_type):
        owner, func = fn, type(fn).forward
    elif not callable(result):
        return None
    chain = _wrapped_chain(func)
    code = getattr(chain[-1], "__code__", None) if chain else None
    if isinstance(result, optimized) or (owner is not None and isinstance(owner, module_type)):
        name = f"{type(owner).__name__}.forward"
    else:
        name = getattr(func, "__qualname__", getattr(func, "__name__", type(func).__name__))
    return CallTarget(
        invoke=result,
        func=func,
        owner=owner,
        code=code if isinstance(code, CodeType) else None,
        ctx=ctx,
        function=str(name),
        filename=code.co_filename if isinstance(code, CodeType) else "",
        firstlineno=code.co_firstlineno if isinstance(code, CodeType) else 0,
        chain=chain,
    )


def _wrapped_chain(func: Any) -> tuple[Any, ...]:
    """`func` and each function its `__wrapped__` leads to, outermost first."""
    chain: list[Any] = []
    cur = func
    while cur is not None and callable(cur) and len(chain) < 20 and all(cur is not c for c in chain):
        chain.append(cur)
        cur = getattr(cur, "__wrapped__", None)
    return tuple(chain)


# ----- the global state Dynamo guards on (GLOBAL_STATE), recorded per call and replayed ----------
_AUTOCAST_DEVICES = ("cpu", "cuda")


def capture_global_state(torch: Any) -> dict[str, Any]:
    state: dict[str, Any] = {"grad_enabled": bool(torch.is_grad_enabled())}
    try:
        state["default_dtype"] = str(torch.get_default_dtype()).removeprefix("torch.")
        state["deterministic"] = bool(torch.are_deterministic_algorithms_enabled())
        for device in _AUTOCAST_DEVICES:
            if torch.is_autocast_enabled(device):
                state[f"autocast_{device}"] = str(torch.get_autocast_dtype(device)).removeprefix("torch.")
    except (AttributeError, TypeError, RuntimeError):  # an older torch: grad mode only
        pass
    return state


@contextlib.contextmanager
def global_state(torch: Any, state: dict[str, Any]) -> Iterator[None]:
    """Run with the global state a call was recorded under: its grad mode, default dtype,
    deterministic-algorithms flag and autocast (what Dynamo's GLOBAL_STATE guard checks)."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(torch.set_grad_enabled(bool(state.get("grad_enabled", True))))
        dtype = state.get("default_dtype")
        if dtype and str(torch.get_default_dtype()).removeprefix("torch.") != dtype:
            old = torch.get_default_dtype()
            torch.set_default_dtype(getattr(torch, dtype))
            stack.callback(torch.set_default_dtype, old)
        if (
            "deterministic" in state
            and torch.are_deterministic_algorithms_enabled() != state["deterministic"]
        ):
            old_det = torch.are_deterministic_algorithms_enabled()
            torch.use_deterministic_algorithms(state["deterministic"])
            stack.callback(torch.use_deterministic_algorithms, old_det)
        for device in _AUTOCAST_DEVICES:
            want = state.get(f"autocast_{device}")
            try:
                enabled = torch.is_autocast_enabled(device)
            except (TypeError, RuntimeError):
                continue
            if want or enabled:
                dtype_obj = getattr(torch, want) if want else None
                stack.enter_context(torch.autocast(device, dtype=dtype_obj, enabled=bool(want)))
        yield


def _dynamo_fn(torch: Any, result: Any) -> Any:
    """The `_fn` closure torch.compile returned (a function's result, or a module's `forward`)."""
    optimized = torch._dynamo.eval_frame.OptimizedModule
    fn = result
    if isinstance(result, optimized):
        fn = result.__dict__.get("_forward") or result.__dict__.get("forward")
    return fn if inspect.isfunction(fn) else None


def _closure_value(fn: Any, name: str) -> Any:
    code = fn.__code__
    if name not in code.co_freevars or fn.__closure__ is None:
        return _SKIP
    try:
        return fn.__closure__[code.co_freevars.index(name)].cell_contents
    except ValueError:  # an empty cell
        return _SKIP


def add_enter_hook(ctx: Any, result: Any, target: CallTarget, log: CallLog) -> bool:
    """Record calls from one of Dynamo's enter hooks, so no tcdebug frame is on the call path.

    `_TorchDynamoContext` runs `enter_exit_hooks` inside its `_fn(*args, **kwargs)` just before
    calling the user's function, and returns from them first: torch's stack captures (FX
    `stack_trace`, tracebacks) never see us. The hook reads `args`/`kwargs` off `_fn`'s frame, and
    only when that `_fn` wraps this target's callable (one context may wrap several functions).
    """
    hooks = ENTER_EXIT_HOOKS.get(None, owner=ctx)
    dynamo_fn = _dynamo_fn(log.torch, result)
    if not isinstance(hooks, list) or dynamo_fn is None:
        return False
    inner = _closure_value(dynamo_fn, "fn")
    if inner is _SKIP:
        return False
    if inspect.isfunction(inner) and all(inner is not fn for fn in target.chain):
        target.entry = inner
    current = log.hooked.get(id(dynamo_fn))
    if current is not None and current[1]() is dynamo_fn:
        current[0] = target  # a module's OptimizedModule, after its inner `__call__`: the same calls
        return True
    # Weak: the hook lives in the context that `_fn` holds, so a strong `_fn` would be a cycle.
    current = log.hooked[id(dynamo_fn)] = [target, weakref.ref(dynamo_fn)]
    fn_code = dynamo_fn.__code__
    getframe = sys._getframe

    def record_call() -> Any:
        try:
            frame = getframe(1)
            if frame.f_code is not fn_code and frame.f_back is not None:
                frame = frame.f_back  # Python < 3.12 runs the hooks from a list comprehension's frame
            if frame.f_code is fn_code:
                if current[0] is not None and DYNAMO_FN_FN.read_local(frame) is inner:
                    args = DYNAMO_FN_ARGS.read_local(frame, ())
                    log.record(current[0], args, DYNAMO_FN_KWARGS.read_local(frame) or {})
        except Exception as exc:  # noqa: BLE001 - recording must never break the user's call
            if len(log.errors) < 5:
                log.errors.append(f"{type(exc).__name__}: {exc}")
        return _no_cleanup

    hooks.append(record_call)
    return True


def _no_cleanup() -> None:
    return None


def _wrap_with_frame(log: CallLog, target: CallTarget, result: Any, optimized: Any) -> Any:
    """Fallback for a torch without enter hooks: a wrapper (its frame is on the call path)."""
    if isinstance(result, optimized):
        compiled_forward = result.forward

        def _tcdebug_forward(*args: Any, **kwargs: Any) -> Any:
            log.record(target, args, kwargs)
            return compiled_forward(*args, **kwargs)

        patches.put(OPTIMIZED_FORWARD, _tcdebug_forward, owner=result)  # this module's own, for good
        return result
    target.invoke = result

    @functools.wraps(result)
    def _tcdebug_recorded(*args: Any, **kwargs: Any) -> Any:
        log.record(target, args, kwargs)
        return result(*args, **kwargs)

    return _tcdebug_recorded


def install(ctx: CaptureContext) -> None:
    torch = ctx.torch
    eval_frame = torch._dynamo.eval_frame
    optimized = eval_frame.OptimizedModule
    original_call = OPTIMIZE_CALL.get()
    log = CallLog(torch)
    ctx.options.share(log)

    def call(self: Any, fn: Any) -> Any:
        result = original_call(self, fn)
        try:
            return _wrap(self, fn, result)
        except Exception as exc:  # noqa: BLE001 - never break torch.compile itself
            if len(log.errors) < 5:
                log.errors.append(f"cannot record calls of {fn!r}: {type(exc).__name__}: {exc}")
            return result

    def _wrap(self: Any, fn: Any, result: Any) -> Any:
        if inspect.isclass(result) or not callable(result):
            return result
        target = make_target(torch, fn, result, self)
        if target is None:
            return result
        if add_enter_hook(self, result, target, log):
            return result
        return _wrap_with_frame(log, target, result, optimized)

    patches.wrap(OPTIMIZE_CALL, lambda _original: call)
