"""The one registry of the torch (and sympy) internals tcdebug needs: every wrap or replacement of a
torch object, every switch it sets, every private attribute and frame local it reads.

A unit declares each dependency once, at import, with `declare(...)` (or `frame_local(...)`): its
owner and name, the unit that needs it, what breaks without it, and the torch it was written against.
At install the unit goes through the declaration (`wrap`, `replace`, `set_value`, `swapped`, `get`,
`read_local`); a missing symbol raises `MissingPrivate`, whose text the capture's `not captured` notes
and `tcdebug doctor` share (`unavailable_reason`). Everything patched is restorable: `uninstall()`
puts back what was there, in reverse order.

`$TCDEBUG_TREAT_AS_MISSING` (comma-separated declaration names, full or their last dotted part) makes
the registry treat those symbols as missing: it simulates a torch that removed them, for tests.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any

MISSING_ENV = "TCDEBUG_TREAT_AS_MISSING"
WRITTEN_FOR = "2.13"  # the torch the declarations were written against, unless one says otherwise

# What a declaration does with its symbol.
WRAPS = "wraps"  # replaces a function by one that calls it
REPLACES = "replaces"  # replaces a value (a function that does not call the original, a list)
SETS = "sets"  # a configuration switch or a state reset
READS = "reads"  # a private attribute read
FRAME_LOCAL = "frame local"  # a local variable of a torch function, read from its frame
KINDS = (WRAPS, REPLACES, SETS, READS, FRAME_LOCAL)


class MissingPrivate(LookupError):
    """A declared symbol this torch lacks (or that `$TCDEBUG_TREAT_AS_MISSING` names)."""

    def __init__(self, private: Private, what: str = "", *, reason: str = "") -> None:
        self.private = private
        super().__init__(reason or f"`{what or private.short}` missing")


_RAISE = object()


@functools.lru_cache(maxsize=4)
def _missing_names(value: str) -> frozenset[str]:
    """`$TCDEBUG_TREAT_AS_MISSING` as a set of names (read on each use: tests set it late)."""
    return frozenset(n.strip() for n in value.split(",") if n.strip())


@dataclass(frozen=True)
class Private:
    """One declared dependency: `module` (imported to find it), `path` inside it (`Class.method`),
    for a frame local the `local` variable of the function `path`."""

    module: str
    path: str
    unit: str
    breaks: str
    kind: str = WRAPS
    local: str = ""
    written_for: str = WRITTEN_FOR
    on_instance: bool = False  # the attribute is an instance's (set in `__init__`): the class is checked

    @property
    def name(self) -> str:
        """The declaration's name: `torch._inductor.debug.log_ir_pre_fusion:nodes`."""
        full = f"{self.module}.{self.path}" if self.path else self.module
        return f"{full}:{self.local}" if self.local else full

    @property
    def short(self) -> str:
        """The symbol as the notes name it: the last part of its path, or the frame local."""
        last = self.path.rsplit(".", 1)[-1] if self.path else self.module
        return f"{last}:{self.local}" if self.local else last

    def simulated_missing(self) -> bool:
        names = _missing_names(os.environ.get(MISSING_ENV, ""))
        return bool(names) and (self.name in names or self.short in names or self.path in names)

    def owner(self, owner: Any = None) -> tuple[Any, str]:
        """The object holding the symbol and the attribute's name (`owner` given: that object)."""
        if self.simulated_missing():
            raise MissingPrivate(self)
        parts = self.path.split(".") if self.path else []
        if owner is None:
            try:
                owner = importlib.import_module(self.module)
            except ImportError as exc:
                raise MissingPrivate(self, self.module) from exc
            for part in parts[:-1]:
                if not hasattr(owner, part):
                    raise MissingPrivate(self, part)
                owner = getattr(owner, part)
        attr = parts[-1] if parts else ""
        if attr and not hasattr(owner, attr) and not (self.on_instance and isinstance(owner, type)):
            raise MissingPrivate(self)
        return owner, attr

    def get(self, default: Any = _RAISE, *, owner: Any = None) -> Any:
        """The symbol's value; `default` where it is missing (else `MissingPrivate`)."""
        try:
            obj, attr = self.owner(owner)
        except MissingPrivate:
            if default is _RAISE:
                raise
            return default
        if self.on_instance and isinstance(obj, type) and not hasattr(obj, attr):
            return obj
        return getattr(obj, attr) if attr else obj

    def missing(self) -> str:
        """Why this torch cannot give the symbol ("`x` missing"), or "" when it can."""
        try:
            value = self.get()
        except MissingPrivate as exc:
            return str(exc)
        except Exception as exc:  # noqa: BLE001 - an import that fails for another reason
            return f"`{self.short}`: {type(exc).__name__}: {exc}"
        if self.local and not _has_local(getattr(_unwrap(value), "__code__", None), self.local):
            return f"`{self.short}` missing"
        return ""

    def require(self) -> None:
        """Raise `MissingPrivate` unless this torch has the symbol (a frame local: the function has it)."""
        reason = self.missing()
        if reason:
            raise MissingPrivate(self, reason=reason)

    def read_local(self, frame: FrameType | None, default: Any = None) -> Any:
        """The frame local's value in `frame` (a frame of the function this declares)."""
        if frame is None or self.simulated_missing():
            return default
        return frame.f_locals.get(self.local, default)


def _unwrap(fn: Any) -> Any:
    """The function under decorators that keep `__wrapped__`."""
    try:
        return inspect.unwrap(fn)
    except ValueError:
        return fn


def _has_local(code: Any, name: str) -> bool:
    """Does the function's code, or a function defined inside it, have the local `name`?"""
    if not isinstance(code, CodeType):
        return False
    if name in code.co_varnames or name in code.co_cellvars:
        return True
    return any(_has_local(const, name) for const in code.co_consts if isinstance(const, CodeType))


DECLARED: dict[str, Private] = {}


def declare(
    module: str,
    path: str,
    *,
    unit: str,
    breaks: str,
    kind: str = WRAPS,
    written_for: str = WRITTEN_FOR,
    on_instance: bool = False,
) -> Private:
    """Declare a dependency (once per name; a unit's module-level constant). `on_instance`: an
    attribute torch sets on its instances, patched on one instance (`owner=`)."""
    assert kind in KINDS, kind
    private = Private(module, path, unit, breaks, kind, "", written_for, on_instance)
    return _register(private)


def frame_local(
    module: str, function: str, local: str, *, unit: str, breaks: str, written_for: str = WRITTEN_FOR
) -> Private:
    """Declare a local variable of a torch function that a unit reads from its frame."""
    return _register(Private(module, function, unit, breaks, FRAME_LOCAL, local, written_for))


def _register(private: Private) -> Private:
    known = DECLARED.get(private.name)
    if known is not None and known != private:
        raise ValueError(f"{private.name} is declared twice, differently")
    DECLARED[private.name] = private
    return private


# -- patching -------------------------------------------------------------------------------------


@dataclass
class _Applied:
    private: Private
    owner: Any
    attr: str
    saved: Any  # the owner's own entry (`vars(owner)[attr]`, descriptors as they are), or _ABSENT
    value: Any  # what tcdebug set
    by_value: bool = False  # a switch: `saved` is the value read, put back with setattr


_ABSENT = object()
_APPLIED: list[_Applied] = []


def _own_entry(owner: Any, attr: str) -> Any:
    try:
        return vars(owner).get(attr, _ABSENT)
    except TypeError:  # no __dict__ (slots): the value is the instance's own
        return getattr(owner, attr, _ABSENT)


def _set(private: Private, owner: Any, attr: str, value: Any, *, by_value: bool = False) -> None:
    saved = getattr(owner, attr) if by_value else _own_entry(owner, attr)
    setattr(owner, attr, value)
    _APPLIED.append(_Applied(private, owner, attr, saved, value, by_value))


def wrap(private: Private, make: Callable[[Any], Any], *, owner: Any = None) -> Any:
    """Replace the symbol by `make(original)`; returns the original. A staticmethod stays one, and
    the wrapper gets the original's name and `__wrapped__`."""
    obj, attr = private.owner(owner)
    raw = _own_entry(obj, attr)
    static = isinstance(raw, staticmethod)
    original = raw.__func__ if static else getattr(obj, attr)
    new = make(original)
    if callable(new) and callable(original) and not hasattr(new, "__wrapped__"):
        with contextlib.suppress(AttributeError, TypeError):
            functools.update_wrapper(new, original, updated=())
    _set(private, obj, attr, staticmethod(new) if static else new)
    return original


def replace(private: Private, value: Any, *, owner: Any = None) -> Any:
    """Set the symbol to `value`, restorably; returns what was there."""
    obj, attr = private.owner(owner)
    before = getattr(obj, attr)
    _set(private, obj, attr, value)
    return before


def set_value(private: Private, value: Any, *, owner: Any = None) -> Any:
    """A switch (a config value, a logger's setting): set it to `value`, restorably, through the
    owner's own `setattr` (torch's config modules keep values elsewhere); returns what was there."""
    obj, attr = private.owner(owner)
    before = getattr(obj, attr)
    _set(private, obj, attr, value, by_value=True)
    return before


@contextlib.contextmanager
def swapped(private: Private, value: Any, *, owner: Any = None) -> Iterator[Any]:
    """Set the attribute to `value` for the `with` block only; yields what was there."""
    obj, attr = private.owner(owner)
    before = _own_entry(obj, attr)
    setattr(obj, attr, value)
    try:
        yield before
    finally:
        if before is _ABSENT:
            delattr(obj, attr)
        else:
            setattr(obj, attr, before)


def put(private: Private, value: Any, *, owner: Any = None) -> None:
    """Set the attribute without keeping it for `uninstall`: a state variable put back to its
    starting value, or one side of a swap whose caller puts the other back."""
    obj, attr = private.owner(owner)
    setattr(obj, attr, value)


def replace_everywhere(
    private: Private, old: Any, new: Any, *, package: str = "torch", keep: bool = True
) -> int:
    """Bind `new` wherever a loaded module of `package` binds `old` by name (a function torch's modules
    import with `from ... import name`), restorably (`keep=False`: torch's own put back, nothing to
    restore); returns how many names changed."""
    private.owner()  # missing: raises
    changed = 0
    for name, module in list(sys.modules.items()):
        if module is None or not (name == package or name.startswith(package + ".")):
            continue
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for attr, value in list(namespace.items()):
            if value is old:
                if keep:
                    _set(private, module, attr, new)
                else:
                    setattr(module, attr, new)
                changed += 1
    return changed


def restore(private: Private, value: Any) -> int:
    """Undo the patches of `private` whose value is `value` (newest first), before `uninstall`;
    returns how many."""
    undone = 0
    for applied in reversed(list(_APPLIED)):
        if applied.private == private and applied.value is value:
            _APPLIED.remove(applied)
            if _own_entry(applied.owner, applied.attr) is value:
                _put_back(applied)
            undone += 1
    return undone


def tag(obj: Any, name: str, value: Any) -> None:
    """tcdebug's own attribute (`_tcdebug_*`) on one of torch's objects: no torch symbol changes."""
    assert name.startswith("_tcdebug_"), name
    setattr(obj, name, value)


def installed() -> list[Private]:
    """What is patched now, in the order it was."""
    return [applied.private for applied in _APPLIED]


def uninstall() -> list[str]:
    """Restore everything patched, newest first. Returns the names that could not be restored (a
    patch someone else replaced after tcdebug is left to them)."""
    left: list[str] = []
    while _APPLIED:
        applied = _APPLIED.pop()
        owner, attr = applied.owner, applied.attr
        try:
            now = getattr(owner, attr, _ABSENT) if applied.by_value else _own_entry(owner, attr)
            if now is not applied.value and not (applied.by_value and now == applied.value):
                left.append(applied.private.name)
                continue
            _put_back(applied)
        except Exception:  # noqa: BLE001 - an owner that refuses: said, not raised
            left.append(applied.private.name)
    return left


def _put_back(applied: _Applied) -> None:
    if applied.saved is _ABSENT:
        delattr(applied.owner, applied.attr)
    else:
        setattr(applied.owner, applied.attr, applied.saved)


def unavailable_reason(torch_version: str, exc: BaseException) -> str:
    """The words for a unit that could not install, in the capture's notes and in `doctor` alike."""
    if isinstance(exc, MissingPrivate):
        return f"not on this torch: {exc}"
    return f"not supported by torch {torch_version}: {type(exc).__name__}: {exc}"


def unseen_by_shape_env(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A wrapper of a ShapeEnv method that torch's frame walk passes over as its own: ShapeEnv names
    the first frame outside torch's files as where a guard or a range came from (`_get_user_frame`,
    skipping `uninteresting_files()`, which lists `<string>`), so the wrapper's code says `<string>`
    and the guards stage names the frame torch would name without tcdebug."""
    code = getattr(fn, "__code__", None)
    if code is not None:
        fn.__code__ = code.replace(co_filename="<string>")
    return fn
