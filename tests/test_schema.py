"""The generic JSON codec every event, command and session.json field goes through."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

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


@dataclass(frozen=True)
class Row:
    JSON_LIST: ClassVar[bool] = True
    a: str
    b: int
    flag: bool = False


@dataclass
class Rows:
    rows: list[Row] = field(default_factory=list)


def test_a_json_list_class_is_a_row() -> None:
    value = Rows([Row("x", 1, True), Row("y", 2)])
    data = to_json(value)
    assert data == {"rows": [["x", 1, True], ["y", 2, False]]}
    assert from_json(Rows, data) == value
    assert from_json(Rows, {"rows": [["y", 2], ["z", 3, True, "newer"]]}).rows == [
        Row("y", 2),
        Row("z", 3, True),
    ]
    for bad, error in (
        ({"rows": [{"a": "x", "b": 1}]}, 'rows[0]: expected a list, got {"a": "x", "b": 1}'),
        ({"rows": [["x"]]}, "rows[0][1]: missing"),
        ({"rows": [["x", "1"]]}, 'rows[0][1]: expected an integer, got "1"'),
    ):
        with pytest.raises(SchemaError) as info:
            from_json(Rows, bad)
        assert str(info.value) == error


def test_provenance_and_autotune_payloads_round_trip_in_their_json_shape() -> None:
    from tcdebug.model.events import Autotune, Provenance, event_from_wire
    from tcdebug.model.payloads import AutotuneChoice, AutotuneTable, ProvItem, ProvLink, ProvSymbol

    ev = Provenance(
        compile_id="0/0",
        items=[ProvItem("s|n", "s", "n", "fx_node", [3], "d", {"code": "x"})],
        links=[ProvLink("s|n", "t|n", "same node", inferred=True)],
        symbols={"s77": ProvSymbol(["L['x'].size()[0]"], "[2, int_oo]", "8", [])},
    )
    wire = ev.to_wire()
    assert wire["links"] == [["s|n", "t|n", "same node", True]]
    assert wire["items"][0] == {
        "item_id": "s|n", "stage": "s", "name": "n", "kind": "fx_node", "lines": [3], "detail": "d", "meta": {"code": "x"},
    }  # fmt: skip
    assert event_from_wire(wire) == ev
    table = AutotuneTable(
        "mm", "2x2", "t", [AutotuneChoice("t", 0.5, 1.0, {"BLOCK_M": 16}), AutotuneChoice("mm")]
    )
    tuned = Autotune(compile_id="0/0", table=table)
    assert tuned.to_wire()["table"]["choices"][1] == {
        "name": "mm", "time_ms": None, "share": None, "params": {}, "description": "",
    }  # fmt: skip
    assert event_from_wire(tuned.to_wire()) == tuned
