"""The last call of every function `torch.compile` wrapped, kept for re-runs.

`OptimizeContext.__call__` (what `torch.compile(...)` ends in) is wrapped so that
the callable it returns records each call: per code object, the callable, the
arguments with every tensor replaced by its metadata (shape, dtype, device, ...),
and the grad mode. Float tensors are not kept alive; integer and bool tensors are
(a re-run draws new values from their range). Recording costs a walk over the
arguments, nothing more.
"""

from __future__ import annotations

import functools
import inspect
import threading
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

from tcdebug.capture.base import CaptureContext

STAGES: tuple[str, ...] = ()
MAX_DEPTH = 2  # containers inside arguments are walked this deep
MODULE_CALLS = ("__call__", "_call_impl", "_wrapped_call_impl")
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

    @property
    def key(self) -> int:
        return id(self.code) if self.code is not None else id(self.invoke)

    @functools.cached_property
    def signature(self) -> inspect.Signature | None:
        try:
            return inspect.signature(self.func)
        except (TypeError, ValueError):
            return None

    @property
    def dynamic(self) -> bool | None:
        return getattr(self.ctx, "_dynamic", None)


@dataclass
class LastCall:
    target: CallTarget
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    grad_enabled: bool
    count: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

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
        bound = self.bind()
        out: list[tuple[str, str, Any, str]] = []
        if bound is None:
            out += [(f"args[{i}]", "", v, "positional") for i, v in enumerate(self.args)]
            out += [(f"kwargs[{k!r}]", k, v, "keyword") for k, v in self.kwargs.items()]
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


def describe_value(path: str, leaf: str, value: Any, depth: int = 0) -> list[dict[str, Any]]:
    """Input rows (see `tcdebug.rerun_spec`) for one argument; containers are flattened."""
    if isinstance(value, TensorMeta):
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
            rows += describe_value(f"{path}[{i}]", "", v, depth + 1)
        return rows
    if isinstance(value, dict) and depth < MAX_DEPTH and _has_tensor(value.values()):
        rows = []
        for k, v in value.items():
            rows += describe_value(f"{path}[{k!r}]", "", v, depth + 1)
        return rows
    text = repr(value) if value is None or isinstance(value, (str, bytes)) else f"<{type(value).__name__}>"
    return [{"name": path, "leaf": leaf, "kind": "other", "type": type(value).__name__, "repr": text[:80]}]


def _has_tensor(values: Any) -> bool:
    return any(isinstance(v, (TensorMeta, list, tuple, dict)) for v in values)


class CallLog:
    """Last call per code object. `suspended` while tcdebug itself calls compiled code."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.calls: dict[int, LastCall] = {}
        self._local = threading.local()
        self.errors: list[str] = []

    @property
    def suspended(self) -> bool:
        return getattr(self._local, "suspended", False)

    def suspend(self) -> _Suspend:
        return _Suspend(self._local)

    def snapshot(self, value: Any, depth: int = 0) -> Any:
        torch = self.torch
        if isinstance(value, torch.Tensor):
            dims = getattr(value, "_dynamo_dynamic_indices", None)
            is_int = not (value.is_floating_point() or value.is_complex())
            return TensorMeta(
                shape=tuple(value.shape),
                dtype=value.dtype,
                device=value.device,
                requires_grad=value.requires_grad,
                dynamic_dims=tuple(sorted(dims)) if dims else (),
                stride=None if value.is_contiguous() else tuple(value.stride()),
                keep=value.detach() if is_int else None,
            )
        if depth < MAX_DEPTH:
            if type(value) in (list, tuple):
                return type(value)(self.snapshot(v, depth + 1) for v in value)
            if type(value) is dict:
                return {k: self.snapshot(v, depth + 1) for k, v in value.items()}
        return value

    def record(self, target: CallTarget, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if self.suspended:
            return
        try:
            snap_args = tuple(self.snapshot(a) for a in args)
            snap_kwargs = {k: self.snapshot(v) for k, v in kwargs.items()}
            old = self.calls.get(target.key)
            count = old.count + 1 if old is not None else 1
            self.calls[target.key] = LastCall(
                target, snap_args, snap_kwargs, bool(self.torch.is_grad_enabled()), count
            )
        except Exception as exc:  # noqa: BLE001 - recording must never break the user's call
            if len(self.errors) < 5:
                self.errors.append(f"{type(exc).__name__}: {exc}")

    def ordered(self) -> list[LastCall]:
        return list(self.calls.values())


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
        owner = result._orig_mod
        func = type(owner).forward
    elif inspect.ismethod(fn):
        owner, func = fn.__self__, fn.__func__
        if isinstance(owner, module_type) and fn.__name__ in MODULE_CALLS:
            func = type(owner).forward
    elif isinstance(fn, module_type):
        owner, func = fn, type(fn).forward
    elif not callable(result):
        return None
    code = getattr(inspect.unwrap(func), "__code__", None) if callable(func) else None
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
    )


def install(ctx: CaptureContext) -> None:
    torch = ctx.torch
    eval_frame = torch._dynamo.eval_frame
    optimize_cls = eval_frame.OptimizeContext
    optimized = eval_frame.OptimizedModule
    original_call = optimize_cls.__call__
    log = CallLog(torch)
    ctx.options["calls"] = log

    @functools.wraps(original_call)
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
        if isinstance(result, optimized):
            compiled_forward = result.forward

            @functools.wraps(compiled_forward)
            def forward(*args: Any, **kwargs: Any) -> Any:
                log.record(target, args, kwargs)
                return compiled_forward(*args, **kwargs)

            result.forward = forward
            return result
        target.invoke = result

        @functools.wraps(result)
        def recorded(*args: Any, **kwargs: Any) -> Any:
            log.record(target, args, kwargs)
            return result(*args, **kwargs)

        return recorded

    optimize_cls.__call__ = call
