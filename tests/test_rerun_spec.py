"""Re-run specs: parsing and checking against recorded inputs (pure, no torch)."""

from __future__ import annotations

import pytest

from tcdebug.model import rerun_spec
from tcdebug.model.rerun_spec import SpecError, parse, resolve

X = {"name": "x", "leaf": "x", "kind": "tensor", "shape": [8, 64], "dtype": "float32", "device": "cpu"}
IDS = {"name": "ids", "leaf": "ids", "kind": "tensor", "shape": [8], "dtype": "int64", "device": "cpu"}
MASK = {
    "name": "kwargs['mask']",
    "leaf": "mask",
    "kind": "tensor",
    "shape": [8],
    "dtype": "bool",
    "device": "cpu",
}
TEMP = {"name": "temperature", "leaf": "temperature", "kind": "float", "value": 0.5}
FLAG = {"name": "flag", "leaf": "flag", "kind": "bool", "value": True}
N = {"name": "n", "leaf": "n", "kind": "int", "value": 3}
OTHER = {"name": "mod", "leaf": "mod", "kind": "other", "type": "Linear"}
INPUTS = [X, IDS, MASK, TEMP, FLAG, N, OTHER]


def errors(spec: str, inputs: list[dict] = INPUTS, **kw) -> str:
    with pytest.raises(SpecError) as info:
        resolve(parse(spec), inputs, **kw)
    return "\n".join(info.value.messages)


def test_reshape_several_inputs_by_path_and_leaf_name():
    plan = resolve(parse("x=16,64; mask=16 ;ids=(16)"), INPUTS)
    assert plan.tensors["x"].shape == [16, 64]
    assert plan.tensors["kwargs['mask']"].shape == [16]  # `mask` finds kwargs['mask']
    assert plan.tensors["ids"].shape == [16]
    assert plan.nbytes == 16 * 64 * 4 + 16 * 1 + 16 * 8
    assert resolve(parse("kwargs['mask']=4"), INPUTS).tensors["kwargs['mask']"].shape == [4]


def test_marks_dtype_scalars_and_dynamic_setting():
    plan = resolve(parse("x=16*,64:float16;temperature=0.25;flag=false;n=7;@dynamic=False"), INPUTS)
    change = plan.tensors["x"]
    assert (change.shape, change.dynamic_dims, change.dtype) == ([16, 64], [0], "float16")
    assert change.nbytes == 16 * 64 * 2
    assert plan.values == {"temperature": 0.25, "flag": False, "n": 7}
    assert (plan.dynamic, plan.dynamic_given) == (False, True)
    assert resolve(parse("x=8,64"), INPUTS).dynamic_given is False


def test_recorded_marks_are_kept_unless_the_spec_gives_its_own():
    marked = dict(X, dynamic_dims=[0])
    assert resolve(parse("x=16,64"), [marked]).tensors["x"].dynamic_dims == [0]
    assert resolve(parse("x=16,64*"), [marked]).tensors["x"].dynamic_dims == [1]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("x=16,a", "size 1 is not an integer ('a')"),
        ("x=1.5,64", "size 0 is not an integer ('1.5')"),
        ("x=-3,64", "size 0 is negative (-3)"),
        ("x=16,,64", "size 1 is empty"),
        ("x=", "x: empty size"),
        ("x", "expected NAME=SIZES"),
        ("", "empty re-run spec"),
        ("x=16,64:float99", "unknown dtype 'float99'"),
        ("@dynamic=maybe", "expected none, true or false"),
        ("@fast=1", "unknown option @fast"),
        ("x=1,2;x=3,4", "x is given twice"),
        ("x=abc", "neither sizes"),
    ],
)
def test_syntax_errors_without_a_call(spec, message):
    with pytest.raises(SpecError) as info:
        parse(spec)
    assert message in str(info.value)


def test_errors_against_the_call():
    assert "2 dims (8, 64)" in errors("x=16,64,2")
    assert "a re-run keeps the rank" in errors("x=16")
    assert "no argument named 'y' (arguments: x, ids, kwargs['mask'], temperature, flag, n, mod)" in errors(
        "y=3"
    )
    assert "size 0 is negative (-1)" in errors("x=-1")  # a single negative number is still a size
    assert "x is a tensor: give its sizes" in errors("x=0.5")
    assert "dtype float32 cannot become int64" in errors("x=8,64:int64")
    assert "temperature is a float: 'true' is not a number" in errors("temperature=true")
    assert "n is an int: '2.5' is not an integer" in errors("n=2.5")
    assert "flag is a bool" in errors("flag=3")
    assert "mod is a Linear" in errors("mod=3")
    # Every problem is listed, not only the first.
    assert errors("x=1,2,3;y=1").count("\n") == 1


def test_size_limit_is_checked_before_anything_is_allocated(monkeypatch):
    message = errors("x=100000,100000")
    assert "need 37.3 GiB, over the re-run limit of 4.0 GiB" in message
    assert "TCDEBUG_RERUN_MAX_BYTES" in message
    monkeypatch.setenv("TCDEBUG_RERUN_MAX_BYTES", "1000")
    assert "over the re-run limit" in errors("x=16,64")
    assert resolve(parse("x=16,64"), INPUTS, limit=10**9).nbytes == 4096


def test_build_and_format_round_trip():
    spec = rerun_spec.build(
        [("x", rerun_spec.format_shape([16, 64], [0], "float16"))], True, dynamic_given=True
    )
    assert spec == "x=16*,64:float16;@dynamic=true"
    plan = resolve(parse(spec), INPUTS)
    assert plan.tensors["x"].dynamic_dims == [0] and plan.dynamic is True


def test_compile_options_parse_and_reach_the_plan():
    spec = rerun_spec.parse("x=16,64;@backend=aot_eager;@mode=max-autotune;@fullgraph=true")
    assert spec.compile_options == {"backend": "aot_eager", "mode": "max-autotune", "fullgraph": True}
    plan = rerun_spec.resolve(rerun_spec.parse("@backend=my_backend"), [])
    assert plan.compile_options == {"backend": "my_backend"} and plan.to_dict()["compile_options"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("@mode=fast", "@mode=fast: expected default, reduce-overhead, max-autotune, max-autotune-no-cudagraphs"),
        ("@fullgraph=maybe", "@fullgraph=maybe: expected true or false"),
        ("@backend=rm -rf", "@backend=rm -rf: expected a backend name (e.g. eager, aot_eager, inductor)"),
        ("@backend=eager;@backend=inductor", "@backend is given twice"),
        ("@speed=1", "unknown option @speed"),
    ],
)
def test_bad_compile_options_get_one_line_each(text, message):
    with pytest.raises(rerun_spec.SpecError) as info:
        rerun_spec.parse(text)
    assert info.value.messages[0].startswith(message)


ALIASED = [
    {"name": "input_ids", "leaf": "input_ids", "kind": "tensor", "shape": [1, 8], "dtype": "int64"},
    {"name": "labels", "leaf": "labels", "kind": "tensor", "shape": [1, 8], "dtype": "int64"},
]
ALIASED[1]["alias_of"] = "input_ids"  # `model(ids, labels=ids)`: one tensor, two names


def test_one_tensor_passed_twice_takes_a_change_given_under_either_name_once():
    for name in ("input_ids", "labels"):
        plan = resolve(parse(f"{name}=2,32"), ALIASED)
        assert {k: t.shape for k, t in plan.tensors.items()} == {"input_ids": [2, 32], "labels": [2, 32]}
        assert plan.nbytes == 2 * 32 * 8  # one tensor's bytes
    # a name given its recorded size (the editor sends every tensor) yields to the change
    plan = resolve(parse("input_ids=1,8;labels=2,32"), ALIASED)
    assert plan.tensors["input_ids"].shape == plan.tensors["labels"].shape == [2, 32]
    with pytest.raises(SpecError) as info:
        resolve(parse("input_ids=2,32;labels=4,32"), ALIASED)
    assert info.value.messages == [
        "input_ids and labels are one tensor in the recorded call: give it one size, "
        "not input_ids=2,32, labels=4,32"
    ]
