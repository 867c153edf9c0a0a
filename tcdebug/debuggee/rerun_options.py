"""Re-runs under other compile options (`@backend`, `@mode`, `@fullgraph` in a re-run spec).

A fresh `torch.compile` of the same function (or module) with the new options: Dynamo compiles
the same frame again (the old entries' backend no longer matches), so the new compile lands
beside the original one and `d` (diff) compares them stage by stage.
"""

from __future__ import annotations

import types
from typing import Any

from tcdebug.capture.calls import ORIGINAL_BACKEND


class OptionsError(ValueError):
    pass


def original_backend(ctx: Any) -> Any:
    """The backend the script's `torch.compile` used (a name or a callable), or None."""
    callback = getattr(ctx, "callback", None)
    backend = ORIGINAL_BACKEND.get(None, owner=callback) if callback is not None else None
    inner = ORIGINAL_BACKEND.get(None, owner=backend) if backend is not None else None
    return inner if inner is not None else backend


def check_backend(torch: Any, name: str) -> None:
    """A one-line error for a backend this torch (and the script's registrations) lacks."""
    registry = torch._dynamo.backends.registry
    try:
        registry.lookup_backend(name)
    except Exception as exc:  # noqa: BLE001 - torch's InvalidBackend or an import error of the backend
        known = ", ".join(sorted(registry.list_backends(exclude_tags=())))
        raise OptionsError(f"@backend={name}: not a backend this torch knows ({known})") from exc


def recompiled(torch: Any, target: Any, options: dict[str, Any], dynamic: bool | None) -> Any:
    """`torch.compile` of what `target` (a `tcdebug.capture.calls.CallTarget`) compiled, with
    `options` changed; the others as the script gave them where torch keeps them."""
    backend = options.get("backend")
    if backend is not None:
        check_backend(torch, backend)
    mode = options.get("mode")
    if backend is None:
        backend = "inductor" if mode is not None else (original_backend(target.ctx) or "inductor")
    kwargs: dict[str, Any] = {"backend": backend, "dynamic": dynamic}
    if mode is not None and mode != "default":
        kwargs["mode"] = mode
    if "fullgraph" in options:
        kwargs["fullgraph"] = bool(options["fullgraph"])
    optimized = getattr(torch._dynamo.eval_frame, "OptimizedModule", ())
    if isinstance(target.invoke, optimized):
        what = target.owner
    elif target.owner is not None:
        what = types.MethodType(target.func, target.owner)
    else:
        what = target.func
    return torch.compile(what, **kwargs)
