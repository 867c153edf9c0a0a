"""`json.dumps(value, indent=N)`, byte for byte, without json's pure-Python encoder.

With `indent`, the standard library encodes in Python, generator by generator: seconds for the
provenance files of a dump of hundreds of compiles. Here containers are laid out in one
recursive function and every scalar goes through the same C-level encoders json uses. Anything
else (other types, non-string keys, subclasses) falls back to `json.dumps` itself.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii
from typing import Any


class _Fallback(Exception):
    pass


def dumps_indented(value: Any, indent: int = 1) -> str:
    """The text `json.dumps(value, indent=indent)` gives."""
    try:
        parts: list[str] = []
        _encode(value, parts, "\n", " " * indent)
        return "".join(parts)
    except (_Fallback, RecursionError):
        return json.dumps(value, indent=indent)


def _scalar(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return str(encode_basestring_ascii(value))
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        return json.dumps(value)  # NaN, Infinity as json writes them
    raise _Fallback


def _encode(value: Any, out: list[str], newline: str, step: str) -> None:
    kind = type(value)
    if kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + step
        out.append("{")
        first = True
        for key, item in value.items():
            if type(key) is not str:
                raise _Fallback
            out.append(inner if first else "," + inner)
            first = False
            out.append(encode_basestring_ascii(key))
            out.append(": ")
            _encode(item, out, inner, step)
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + step
        out.append("[")
        first = True
        for item in value:
            out.append(inner if first else "," + inner)
            first = False
            _encode(item, out, inner, step)
        out.append(newline + "]")
    else:
        out.append(_scalar(value))
