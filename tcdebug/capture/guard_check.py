"""Evaluating Dynamo's guards against proposed inputs, and the dynamic-setting override.

Used by re-runs (`tcdebug.debuggee.rerun`). Every cache entry of a code object
(`_debug_get_cache_entry_list`) is checked with its guard manager
(`check_verbose`), Dynamo's reason comes from `get_guard_fail_reason_helper`, and
each leaf guard of the guard tree is evaluated on its own so the view can show
every guard passing or failing. Any of these may be missing in an older torch:
`GuardCheckUnavailable` says so instead of crashing.
"""

from __future__ import annotations

import contextlib
import inspect
import re
from collections.abc import Iterator
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.calls import DYNAMIC_SETTING, ENTER_EXIT_HOOKS

CACHE_ENTRIES = patches.declare(
    "torch._dynamo.eval_frame",
    "_debug_get_cache_entry_list",
    unit="calls",
    breaks="re-runs (`r`): guards are not checked before a run",
    kind=patches.READS,
)
MAX_GUARDS = 5000  # per cache entry; more are left out with a note
_LOCAL_RE = re.compile(r"L\['([^']+)'\]")
_TENSOR_EXPECT_RE = re.compile(
    r"check_tensor\((?P<src>.+?), (?P<cls>\w+), DispatchKeySet\(.*?\), (?P<dtype>torch\.\w+), "
    r"device=(?P<device>[^,]+), requires_grad=(?P<rg>\w+), size=\[(?P<size>[^\]]*)\], stride=\[(?P<stride>[^\]]*)\]"
)


class GuardCheckUnavailable(Exception):
    """This torch cannot evaluate guards from outside a frame."""


def _strip(torch: Any, text: str) -> str:
    strip = getattr(torch._dynamo.guards, "strip_local_scope", None)
    if strip is not None:
        try:
            return str(strip(text))
        except Exception:  # noqa: BLE001
            pass
    return _LOCAL_RE.sub(r"\1", text)


def cache_entries(torch: Any, code: Any) -> list[Any]:
    try:
        getter = CACHE_ENTRIES.get()
    except patches.MissingPrivate as exc:
        raise GuardCheckUnavailable(f"torch {torch.__version__} cannot list cache entries: {exc}") from exc
    return list(getter(code))


def check_code(torch: Any, code: Any, f_locals: dict[str, Any]) -> list[dict[str, Any]]:
    """One EntryCheck dict per cache entry of `code`, in the order Dynamo tries them."""
    return [check_entry(torch, entry, f_locals) for entry in cache_entries(torch, code)]


def check_entry(torch: Any, entry: Any, f_locals: dict[str, Any]) -> dict[str, Any]:
    gm = entry.guard_manager
    compile_id = str(getattr(entry, "compile_id", "") or "")
    try:
        debug = gm.check_verbose(f_locals)
    except AttributeError as exc:
        raise GuardCheckUnavailable(f"torch {torch.__version__} has no check_verbose: {exc}") from exc
    passed = bool(debug.result)
    reason = ""
    if not passed:
        helper = getattr(torch._dynamo.guards, "get_guard_fail_reason_helper", None)
        try:
            reason = helper(gm, f_locals, compile_id, getattr(entry, "backend", None)) if helper else ""
        except Exception as exc:  # noqa: BLE001 - fall back on the raw verbose parts
            reason = f"{compile_id}: " + "; ".join(debug.verbose_code_parts) + f" ({type(exc).__name__})"
        if not reason:
            reason = f"{compile_id}: " + "; ".join(debug.verbose_code_parts)
        # A plain guard's reason is its code, with Dynamo's "  # user line" comment: keep the code.
        reason = "\n".join(_code(line) for line in _strip(torch, reason).splitlines())
    guards, truncated = walk_guards(torch, gm, f_locals, list(debug.verbose_code_parts), reason)
    out = {"compile_id": compile_id, "passed": passed, "reason": reason, "guards": guards}
    if truncated:
        out["reason"] = (reason + "\n" if reason else "") + f"(only the first {MAX_GUARDS} guards are listed)"
    return out


def _scope(gm: Any, f_locals: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    global_scope = dict(getattr(gm, "global_scope", None) or {})
    scope: dict[str, Any] = {"L": f_locals, "G": global_scope.get("G", {})}
    scope.update(getattr(gm, "closure_vars", None) or {})
    return global_scope, scope


def walk_guards(
    torch: Any, gm: Any, f_locals: dict[str, Any], first_failed: list[str], entry_reason: str
) -> tuple[list[dict[str, Any]], bool]:
    """Every leaf guard of the tree, each evaluated on the value its manager guards."""
    root = gm.root
    global_scope, scope = _scope(gm, f_locals)
    results: list[dict[str, Any]] = []
    dynamo_text = entry_reason.split(": ", 1)[1] if ": " in entry_reason else entry_reason
    claimed = [False]

    def add(leaf: Any, source: str, value: Any, known: bool, why: str = "") -> None:
        parts = [str(p) for p in leaf.verbose_code_parts()]
        kind = type(leaf).__name__
        passed, checked, reason = True, known, why
        if known:
            try:
                passed = bool(leaf(value))
            except Exception as exc:  # noqa: BLE001
                checked, reason = False, f"could not evaluate: {type(exc).__name__}: {exc}"
        if checked and not passed:
            reason = _leaf_reason(torch, kind, parts, source, value, global_scope, scope)
            if not claimed[0] and _is_dynamo_first(kind, parts, source, first_failed):
                claimed[0] = True
                reason = dynamo_text or reason
        results.append(
            {
                "text": _strip(torch, "\n".join(_code(p) for p in parts)),
                "passed": passed if checked else True,
                "reason": reason,
                "kind": kind,
                "source": _strip(torch, source),
                "checked": checked,
            }
        )

    def visit(mgr: Any, value: Any, known: bool, why: str) -> None:
        source = str(mgr.get_source())
        for leaf in mgr.get_leaf_guards():
            if len(results) >= MAX_GUARDS:
                return
            add(leaf, source, value, known, why)
        for child in mgr.get_child_managers():
            child_source = str(child.get_source())
            child_known, child_value, child_why = known, None, why
            if known:
                try:
                    child_value = eval(child_source, global_scope, scope)  # noqa: S307 - Dynamo's own source
                except Exception as exc:  # noqa: BLE001
                    child_known = False
                    child_why = (
                        f"not checked on its own: {child_source} cannot be read ({type(exc).__name__})"
                    )
            visit(child, child_value, child_known, child_why)

    visit(root, f_locals, True, "")
    try:
        epilogue = list(root.get_epilogue_lambda_guards())
    except AttributeError:
        epilogue = []
    for leaf in epilogue:
        add(leaf, "L", f_locals, True)
    return results, len(results) >= MAX_GUARDS


def _code(part: str) -> str:
    return part.split("  # ", 1)[0].rstrip()


def _is_dynamo_first(kind: str, parts: list[str], source: str, first_failed: list[str]) -> bool:
    if not first_failed:
        return False
    if parts == first_failed:
        return True
    return kind == "TENSOR_MATCH" and len(first_failed) == 1 and f"'{source}'" in first_failed[0]


def _leaf_reason(
    torch: Any,
    kind: str,
    parts: list[str],
    source: str,
    value: Any,
    global_scope: dict[str, Any],
    scope: dict[str, Any],
) -> str:
    if kind == "TENSOR_MATCH" and parts:
        text = tensor_mismatch(torch, parts[0], value)
        if text:
            return _strip(torch, text)
    if len(parts) > 1:
        for part in parts:
            try:
                ok = eval(_code(part), global_scope, scope)  # noqa: S307 - Dynamo's own guard code
            except Exception:  # noqa: BLE001
                continue
            if ok is False:
                return "failed: " + _strip(torch, _code(part))
    return "failed: " + _strip(torch, "; ".join(_code(p) for p in parts))


def tensor_mismatch(torch: Any, part: str, value: Any) -> str:
    """Dynamo's wording for a TENSOR_MATCH failure, from the guard's expectations."""
    m = _TENSOR_EXPECT_RE.search(part)
    name = m.group("src") if m else "?"
    if not isinstance(value, torch.Tensor):
        return f"{name} is a {type(value).__name__}, expected a tensor"
    if m is None:
        return ""
    prefix = f"tensor '{name}'"
    dtype = m.group("dtype").removeprefix("torch.")
    if str(value.dtype).removeprefix("torch.") != dtype:
        return f"{prefix} dtype mismatch. expected {dtype}, actual {str(value.dtype).removeprefix('torch.')}"
    rg = m.group("rg") == "True"
    if value.requires_grad != rg:
        return f"{prefix} requires_grad mismatch. expected requires_grad={int(rg)}"
    for what, expected_text, actual in (
        ("size", m.group("size"), list(value.shape)),
        ("stride", m.group("stride"), list(value.stride())),
    ):
        expected = [e.strip() for e in expected_text.split(",") if e.strip()]
        if len(expected) != len(actual):
            return f"{prefix} rank mismatch. expected {len(expected)}, actual {len(actual)}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            if e != "None" and e.lstrip("-").isdigit() and int(e) != a:
                return f"{prefix} {what} mismatch at index {i}. expected {e}, actual {a}"
    return ""


# ----- the dynamic setting of a re-run --------------------------------------------------
_DYNAMIC_KEYS = {"assume_static_by_default", "automatic_dynamic_shapes"}


def _is_dynamic_hook(hook: Any) -> bool:
    try:
        changes = inspect.getclosurevars(hook).nonlocals.get("changes")
    except (TypeError, ValueError):
        return False
    return isinstance(changes, dict) and bool(changes) and set(changes) <= _DYNAMIC_KEYS


@contextlib.contextmanager
def dynamic_setting(torch: Any, ctx: Any, dynamic: bool | None) -> Iterator[None]:
    """Call a compiled callable as if `torch.compile(dynamic=dynamic)` had made it."""
    own = DYNAMIC_SETTING.get(None, owner=ctx)
    hooks = getattr(ctx, "enter_exit_hooks", None)
    if own is dynamic or not isinstance(hooks, list):
        if own is not dynamic:
            raise GuardCheckUnavailable(f"torch {torch.__version__}: cannot change the dynamic setting")
        yield
        return
    kept = [h for h in hooks if not _is_dynamic_hook(h)]
    if own is not None and len(kept) == len(hooks):
        raise GuardCheckUnavailable("cannot find the dynamic setting of this compile to change it")
    if dynamic is not None:
        kept.insert(0, torch._dynamo.eval_frame.make_set_enable_dynamic(dynamic))
    with patches.swapped(ENTER_EXIT_HOOKS, kept, owner=ctx):
        yield
