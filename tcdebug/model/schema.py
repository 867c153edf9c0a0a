"""One generic JSON codec for tcdebug's dataclasses: events, commands, and session.json.

`to_json(obj)` writes a dataclass (or a list / dict / tuple of them) as plain JSON values;
`from_json(cls, data, where)` reads one back, checking every field against its type hint,
recursively: str, int, float, bool, None, Any, list[X], dict[str, X], tuple[X, ...], X | Y,
Literal[...] and nested dataclasses. The first value of the wrong type raises `SchemaError`,
one line naming the field's path and what was expected:
`compiles[0].times: expected an object, got []`.

Field metadata: `{"json": "id"}` names the field differently in JSON; `{"wire": False}` keeps
it out of JSON altogether (loaders, callables). A class's `JSON_EXTRA` (name -> type hint) names
properties that JSON also holds: written from the property, type-checked when read, then dropped.
A class whose `JSON_LIST` is true is written as a list of its JSON fields in order (a compact
row: a provenance link), read from one; a row shorter than the fields leaves the rest at their
defaults, a longer one's extra values are ignored. A key the class does not know is ignored (a newer
writer's field); a field left out keeps its default, and a required one left out is an error.
A float field accepts an integer (JSON writes `1.0` as `1` in some writers).

Standard library only: the event vocabulary (`tcdebug.model.events`) uses it.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Collection, Mapping
from typing import Any, Literal, TypeVar, Union

T = TypeVar("T")


class SchemaError(ValueError):
    """A JSON value that does not match its dataclass field: `path`, what was `expected` (words),
    the `value` found (`missing` when there was none). `hint` is the type hint it failed."""

    def __init__(self, path: str, expected: str, value: Any = None, *, missing: bool = False, hint: Any = None):
        self.path, self.expected, self.value, self.missing, self.hint = path, expected, value, missing, hint
        super().__init__(f"{path}: missing" if missing else f"{path}: expected {expected}, got {shown(value)}")


def shown(value: Any) -> str:
    """A JSON value as an error line shows it: its JSON text, cut at 40 characters."""
    try:
        text = json.dumps(value, default=str)
    except (ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:39] + "…"


# ----- type hints ---------------------------------------------------------------------------
_HINTS: dict[type, dict[str, Any]] = {}
_FIELDS: dict[type, list[tuple[dataclasses.Field[Any], str]]] = {}


def hints(cls: type) -> dict[str, Any]:
    """The resolved type hints of a dataclass (cached)."""
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = typing.get_type_hints(cls)
    return found


def json_fields(cls: type) -> list[tuple[dataclasses.Field[Any], str]]:
    """The fields of `cls` that JSON holds, each with its JSON key."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = [
            (f, f.metadata.get("json", f.name))
            for f in dataclasses.fields(cls)
            if f.init and f.metadata.get("wire", True)
        ]
    return found


def union_args(hint: Any) -> tuple[Any, ...]:
    """The members of a union hint (`X | None` -> (X, NoneType)); any other hint alone."""
    return typing.get_args(hint) if typing.get_origin(hint) in (Union, types.UnionType) else (hint,)


def optional(hint: Any) -> bool:
    return type(None) in union_args(hint)


def required(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


_WORDS = {str: "a string", int: "an integer", float: "a number", bool: "true or false", type(None): "null"}


def describe(hint: Any) -> str:
    """What a hint expects, in words: `an integer or null`, `a list`, `an object`."""
    words: list[str] = []
    for arg in union_args(hint):
        origin = typing.get_origin(arg) or arg
        if arg is Any:
            word = "any value"
        elif origin is Literal:
            word = " or ".join(json.dumps(v) for v in typing.get_args(arg))
        elif origin in (list, tuple):
            word = "a list"
        elif dataclasses.is_dataclass(origin) and getattr(origin, "JSON_LIST", False):
            word = "a list"
        elif origin is dict or dataclasses.is_dataclass(origin):
            word = "an object"
        else:
            word = _WORDS.get(origin, getattr(origin, "__name__", str(origin)))
        if word not in words:
            words.append(word)
    return " or ".join(words)


def python_names(hint: Any) -> str:
    """A hint as Python names: `int or null`, `str`, `list`."""
    names = [getattr(typing.get_origin(a) or a, "__name__", str(a)) for a in union_args(hint)]
    return " or ".join("null" if n == "NoneType" else n for n in names)


# ----- decoding -----------------------------------------------------------------------------
def from_json(cls: type[T], data: Any, where: str = "") -> T:
    """`data` (decoded JSON) as an instance of the dataclass `cls`, every field checked
    (see the module's docstring); `where` is the path of `data`, for error lines."""
    return typing.cast(T, decode(cls, data, where))


def decode(hint: Any, value: Any, path: str) -> Any:
    """`value` checked against the type `hint`, dataclasses built; `SchemaError` if it does not fit."""
    args = union_args(hint)
    if len(args) > 1:
        if value is None and type(None) in args:
            return None
        last: SchemaError | None = None
        for arg in args:
            if arg is type(None):
                continue
            if not _shape_fits(arg, value):
                continue
            try:
                return decode(arg, value, path)
            except SchemaError as exc:  # the right shape but a bad inside: that error is the one to say
                last = exc
        if last is not None:
            raise last
        raise SchemaError(path, describe(hint), value, hint=hint)
    if hint is Any:
        return value
    origin = typing.get_origin(hint) or hint
    if origin is Literal:
        if value in typing.get_args(hint) and type(value) in {type(v) for v in typing.get_args(hint)}:
            return value
        raise SchemaError(path, describe(hint), value, hint=hint)
    if not _shape_fits(hint, value):
        raise SchemaError(path, describe(hint), value, hint=hint)
    if origin is float:
        return float(value)
    if origin in (str, int, bool, type(None)):
        return value
    if origin is list:
        (item,) = typing.get_args(hint) or (Any,)
        if item is Any:
            return list(value)
        return [decode(item, v, f"{path}[{i}]") for i, v in enumerate(value)]
    if origin is tuple:
        items = typing.get_args(hint)
        if len(items) == 2 and items[1] is Ellipsis:
            return tuple(decode(items[0], v, f"{path}[{i}]") for i, v in enumerate(value))
        if items and len(items) != len(value):
            raise SchemaError(path, f"a list of {len(items)}", value, hint=hint)
        return tuple(decode(items[i] if items else Any, v, f"{path}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        _key, item = typing.get_args(hint) or (str, Any)
        if item is Any:
            return dict(value)
        return {k: decode(item, v, f"{path}.{k}" if path else k) for k, v in value.items()}
    if dataclasses.is_dataclass(origin):
        return _decode_dataclass(typing.cast(type, origin), value, path)
    raise TypeError(f"{path}: no JSON form for the type {hint!r}")


def _shape_fits(hint: Any, value: Any) -> bool:
    """Whether `value`'s own JSON type is what `hint` takes (its insides unchecked)."""
    if hint is Any:
        return True
    origin = typing.get_origin(hint) or hint
    if origin is Literal:
        return value in typing.get_args(hint)
    if origin is bool:
        return isinstance(value, bool)
    if origin is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if origin is str:
        return isinstance(value, str)
    if origin is type(None):
        return value is None
    if origin in (list, tuple):
        return isinstance(value, (list, tuple))
    if origin is dict:
        return isinstance(value, Mapping) and all(isinstance(k, str) for k in value)
    if dataclasses.is_dataclass(origin):
        return isinstance(value, (list, tuple) if getattr(origin, "JSON_LIST", False) else Mapping)
    return isinstance(origin, type) and isinstance(value, origin)


def _decode_dataclass(cls: type, value: Any, path: str) -> Any:
    field_hints = hints(cls)
    if getattr(cls, "JSON_LIST", False):
        row: dict[str, Any] = {}
        for k, (f, _key) in enumerate(json_fields(cls)):
            if k < len(value):
                row[f.name] = decode(field_hints[f.name], value[k], f"{path}[{k}]")
            elif required(f):
                hint = field_hints[f.name]
                raise SchemaError(f"{path}[{k}]", describe(hint), missing=True, hint=hint)
        return cls(**row)
    values: dict[str, Any] = {}
    for f, key in json_fields(cls):
        where = f"{path}.{key}" if path else key
        if key not in value:
            if required(f):
                raise SchemaError(where, describe(field_hints[f.name]), missing=True, hint=field_hints[f.name])
            continue
        values[f.name] = decode(field_hints[f.name], value[key], where)
    for key, hint in getattr(cls, "JSON_EXTRA", {}).items():
        if key in value:
            decode(hint, value[key], f"{path}.{key}" if path else key)
    return cls(**values)


# ----- encoding -----------------------------------------------------------------------------
def to_json(obj: Any, omit: Collection[str] = ()) -> Any:
    """`obj` as plain JSON values: a dataclass becomes an object of its JSON fields (see the
    module's docstring), tuples become lists; anything else is kept as it is. `omit`: fields of
    `obj` itself left out (never read: a lazy kernel's source).

    A field whose type hint holds no dataclass and no tuple (`str`, `dict[str, Any]`, ...) is
    taken as it is, not walked: a stage's metadata or a call's inputs are already JSON values,
    and copying them would cost as much as encoding them."""
    plan = _ENCODING.get(type(obj))
    if plan is None:
        if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
            if isinstance(obj, (list, tuple)):
                return [to_json(v) for v in obj]
            if isinstance(obj, dict):
                return {k: to_json(v) for k, v in obj.items()}
            return obj
        plan = _encoding(type(obj))
    as_list, fields = plan
    if as_list:
        return [getattr(obj, name) if plain else to_json(getattr(obj, name)) for name, _key, plain in fields]
    out = {}
    for name, key, plain in fields:
        if name not in omit:
            value = getattr(obj, name)
            out[key] = value if plain else to_json(value)
    for key in getattr(obj, "JSON_EXTRA", ()):
        out[key] = to_json(getattr(obj, key))
    return out


# per dataclass: whether it is a JSON list, and each JSON field's name, key and `_plain`
_ENCODING: dict[type, tuple[bool, tuple[tuple[str, str, bool], ...]]] = {}


def _encoding(cls: type) -> tuple[bool, tuple[tuple[str, str, bool], ...]]:
    """How `to_json` writes a dataclass, worked out once per class: a session.json line encodes
    thousands of stages and kernels."""
    field_hints = hints(cls)
    plan = _ENCODING[cls] = (
        bool(getattr(cls, "JSON_LIST", False)),
        tuple((f.name, key, _plain(field_hints[f.name])) for f, key in json_fields(cls)),
    )
    return plan


_PLAIN: dict[Any, bool] = {}


def _plain(hint: Any) -> bool:
    """Whether values of `hint` are JSON values as they are (no dataclass, no tuple inside)."""
    found = _PLAIN.get(hint)
    if found is None:
        origin = typing.get_origin(hint) or hint
        if origin is tuple or dataclasses.is_dataclass(origin):
            found = False
        elif origin is Literal:
            found = True
        else:
            found = all(_plain(arg) for arg in typing.get_args(hint) if arg is not Ellipsis)
        _PLAIN[hint] = found
    return found
