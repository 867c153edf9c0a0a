"""The generic JSON codec every event, command and session.json field goes through."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

from tcdebug.model.schema import SchemaError, from_json, to_json


@dataclass
class Inner:
    n: int
    tags: list[str] = field(default_factory=list)


@dataclass
class Outer:
    name: str = field(metadata={"json": "id"})
    size: float = 0.0
    kind: Literal["a", "b"] = "a"
    pair: tuple[int, str] = (0, "")
    many: tuple[int, ...] = ()
    inner: Inner | None = None
    by_name: dict[str, Inner] = field(default_factory=dict)
    anything: Any = None
    local: object = field(default=None, metadata={"wire": False})


def test_a_round_trip_keeps_every_field() -> None:
    value = Outer("x", 2.5, "b", (1, "y"), (1, 2), Inner(3, ["t"]), {"k": Inner(4)}, [1, {"a": None}])
    data = to_json(value)
    assert data["id"] == "x" and "local" not in data and data["pair"] == [1, "y"]
    assert from_json(Outer, data) == value


def test_an_integer_is_a_float_and_unknown_keys_are_ignored() -> None:
    got = from_json(Outer, {"id": "x", "size": 3, "newer": True})
    assert got.size == 3.0 and isinstance(got.size, float)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({}, "where.id: missing"),
        ({"id": 1}, "where.id: expected a string, got 1"),
        ({"id": "x", "size": True}, "where.size: expected a number, got true"),
        ({"id": "x", "kind": "c"}, 'where.kind: expected "a" or "b", got "c"'),
        ({"id": "x", "pair": [1]}, "where.pair: expected a list of 2, got [1]"),
        ({"id": "x", "many": [1, "2"]}, 'where.many[1]: expected an integer, got "2"'),
        ({"id": "x", "inner": []}, "where.inner: expected an object or null, got []"),
        ({"id": "x", "inner": {"n": 1, "tags": [None]}}, "where.inner.tags[0]: expected a string, got null"),
        ({"id": "x", "by_name": {"k": {"n": "1"}}}, 'where.by_name.k.n: expected an integer, got "1"'),
    ],
)
def test_a_wrong_field_gives_one_line_naming_its_path(data: dict[str, Any], error: str) -> None:
    with pytest.raises(SchemaError) as info:
        from_json(Outer, data, "where")
    assert str(info.value) == error
