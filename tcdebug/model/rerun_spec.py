"""Re-run specs: what to change in a compiled function's last call. Stdlib only.

Shared by the CLI (`--rerun SPEC`), the re-run editor and the target, so every
place gives the same messages for the same mistakes.

Syntax: items separated by `;`::

    x=16,64              reshape tensor x to (16, 64)
    x=16*,64             ... and torch._dynamo.mark_dynamic(x, 0)
    x=16,64:float16      ... and change its dtype (float to float, int to int)
    temperature=0.25     a new value for an int, float or bool argument
    kwargs['mask']=16    an argument by its path (`mask` alone works when unique)
    @dynamic=false       the compile's dynamic setting for this re-run: none, true or false
    @backend=aot_eager   re-compile under another backend (eager, aot_eager, inductor, or one the
                         script registered), @mode=max-autotune (default, reduce-overhead,
                         max-autotune, max-autotune-no-cudagraphs), @fullgraph=true

`parse` checks what can be checked without the call (syntax); `resolve` checks
the spec against the recorded inputs of a call and returns a `Plan`.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from typing import Any

DEFAULT_MAX_BYTES = 4 << 30  # new tensors of one re-run, all together
DYNAMIC_CHOICES = {"none": None, "auto": None, "true": True, "false": False}
ITEMSIZE = {
    "float64": 8,
    "float32": 4,
    "float16": 2,
    "bfloat16": 2,
    "complex128": 16,
    "complex64": 8,
    "complex32": 4,
    "int64": 8,
    "int32": 4,
    "int16": 2,
    "int8": 1,
    "uint64": 8,
    "uint32": 4,
    "uint16": 2,
    "uint8": 1,
    "bool": 1,
    "float8_e4m3fn": 1,
    "float8_e5m2": 1,
    "float8_e4m3fnuz": 1,
    "float8_e5m2fnuz": 1,
}
_ALIASES = {
    "float": "float32",
    "double": "float64",
    "half": "float16",
    "long": "int64",
    "int": "int32",
    "short": "int16",
    "cfloat": "complex64",
    "cdouble": "complex128",
}
_SHAPE_CHARS = re.compile(r"[,*:()\[\]]")


class SpecError(ValueError):
    """One or more problems with a spec; `messages` holds one line each."""

    def __init__(self, messages: list[str] | str) -> None:
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))


@dataclass
class Item:
    name: str
    value: str


@dataclass
class Spec:
    text: str
    items: list[Item] = field(default_factory=list)
    dynamic: bool | None = None
    dynamic_given: bool = False
    compile_options: dict[str, Any] = field(default_factory=dict)  # @backend, @mode, @fullgraph


@dataclass
class TensorChange:
    path: str
    shape: list[int]
    dtype: str
    dynamic_dims: list[int] = field(default_factory=list)
    nbytes: int = 0


@dataclass
class Plan:
    """A spec resolved against one call: what every changed input becomes."""

    tensors: dict[str, TensorChange] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    dynamic: bool | None = None
    dynamic_given: bool = False
    nbytes: int = 0
    compile_options: dict[str, Any] = field(default_factory=dict)  # see Spec.compile_options

    def to_dict(self) -> dict[str, Any]:
        return {
            "tensors": {
                k: {"shape": t.shape, "dtype": t.dtype, "dynamic_dims": t.dynamic_dims, "nbytes": t.nbytes}
                for k, t in self.tensors.items()
            },
            "values": dict(self.values),
            "dynamic": self.dynamic,
            "dynamic_given": self.dynamic_given,
            "nbytes": self.nbytes,
            "compile_options": dict(self.compile_options),
        }


def normalize_dtype(name: str) -> str:
    name = name.strip().removeprefix("torch.")
    return _ALIASES.get(name, name)


def dtype_kind(name: str) -> str:
    """float, complex, int, bool or other: the kind a re-run may not change."""
    name = normalize_dtype(name)
    if name == "bool":
        return "bool"
    if name.startswith(("float", "bfloat")):
        return "float"
    if name.startswith("complex"):
        return "complex"
    if name.startswith(("int", "uint")):
        return "int"
    return "other"


def max_bytes() -> int:
    try:
        return int(os.environ.get("TCDEBUG_RERUN_MAX_BYTES", DEFAULT_MAX_BYTES))
    except ValueError:
        return DEFAULT_MAX_BYTES


def human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


# ----- parsing (no call needed) ------------------------------------------------------
def parse(text: str) -> Spec:
    """Split a spec into items; raise SpecError for what is wrong whatever the call."""
    spec = Spec(text=text.strip())
    errors: list[str] = []
    seen: set[str] = set()
    parts = [p.strip() for p in text.split(";")]
    if not any(parts):
        raise SpecError("empty re-run spec: give NAME=SIZES, e.g. x=16,64")
    for part in parts:
        if not part:
            continue
        name, eq, value = part.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not name:
            errors.append(f"{part!r}: expected NAME=SIZES (e.g. x=16,64) or NAME=VALUE")
            continue
        if name.lower() == "@dynamic":
            if value.lower() not in DYNAMIC_CHOICES:
                errors.append(f"@dynamic={value}: expected none, true or false")
            else:
                spec.dynamic, spec.dynamic_given = DYNAMIC_CHOICES[value.lower()], True
            continue
        if name.lower() in COMPILE_OPTIONS:
            problem = _compile_option(spec, name.lower()[1:], value)
            if problem:
                errors.append(problem)
            continue
        if name.startswith("@"):
            errors.append(
                f"unknown option {name} (options: @dynamic=none|true|false, @backend=NAME, "
                f"@mode={'|'.join(MODES)}, @fullgraph=true|false)"
            )
            continue
        if name in seen:
            errors.append(f"{name} is given twice")
            continue
        seen.add(name)
        if not value:
            errors.append(f"{name}: empty size (give the new sizes, e.g. {name}=16,64)")
            continue
        if looks_like_shape(value):
            try:
                parse_shape(value)
            except SpecError as exc:
                errors.extend(f"{name}: {m}" for m in exc.messages)
                continue
        elif _scalar(value) is None:
            errors.append(f"{name}: {value!r} is neither sizes (e.g. 16,64) nor a number or true/false")
            continue
        spec.items.append(Item(name, value))
    if errors:
        raise SpecError(errors)
    return spec


COMPILE_OPTIONS = ("@backend", "@mode", "@fullgraph")
MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")
_BACKEND_NAME = re.compile(r"[A-Za-z_][\w.]*")


def _compile_option(spec: Spec, key: str, value: str) -> str:
    """Record `@backend` / `@mode` / `@fullgraph` on the spec; a problem as one line, or ""."""
    if key in spec.compile_options:
        return f"@{key} is given twice"
    if key == "backend":
        if not _BACKEND_NAME.fullmatch(value):
            return f"@backend={value}: expected a backend name (e.g. eager, aot_eager, inductor)"
        spec.compile_options[key] = value
    elif key == "mode":
        if value.lower() not in MODES:
            return f"@mode={value}: expected {', '.join(MODES)}"
        spec.compile_options[key] = value.lower()
    else:
        if value.lower() not in ("true", "false"):
            return f"@fullgraph={value}: expected true or false"
        spec.compile_options[key] = value.lower() == "true"
    return ""


def looks_like_shape(value: str) -> bool:
    return bool(_SHAPE_CHARS.search(value))


def parse_shape(value: str) -> tuple[list[int], list[int], str]:
    """`16*,64:float16` -> ([16, 64], [0], "float16")."""
    dims_text, _, dtype = value.partition(":")
    dims_text = dims_text.strip().strip("()[]").strip()
    dtype = normalize_dtype(dtype) if dtype.strip() else ""
    if dtype and dtype not in ITEMSIZE:
        raise SpecError(f"unknown dtype {dtype!r} (e.g. float32, float16, bfloat16, int64)")
    if not dims_text:
        raise SpecError("empty size (give the new sizes, e.g. 16,64)")
    shape: list[int] = []
    marks: list[int] = []
    errors: list[str] = []
    for i, raw in enumerate(dims_text.split(",")):
        tok = raw.strip()
        if tok.endswith("*"):
            marks.append(i)
            tok = tok[:-1].strip()
        if not tok:
            errors.append(f"size {i} is empty")
        elif re.fullmatch(r"-\d+", tok):
            errors.append(f"size {i} is negative ({tok})")
        elif not tok.isdigit():
            errors.append(f"size {i} is not an integer ({tok!r})")
        else:
            shape.append(int(tok))
    if errors:
        raise SpecError(errors)
    return shape, marks, dtype


def _scalar(value: str) -> bool | int | float | None:
    low = value.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(low)
    except ValueError:
        pass
    try:
        number = float(low)
    except ValueError:
        return None
    return number if math.isfinite(number) or low in ("inf", "-inf", "nan") else None


# ----- resolving against a call ------------------------------------------------------
def find_input(name: str, inputs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The input `name` means: its path (`kwargs['mask']`), else a unique leaf name (`mask`)."""
    for inp in inputs:
        if inp.get("name") == name:
            return inp
    leaf = [inp for inp in inputs if inp.get("leaf") == name]
    return leaf[0] if len(leaf) == 1 else None


def argument_list(inputs: list[dict[str, Any]]) -> str:
    return ", ".join(inp["name"] for inp in inputs) or "none"


def resolve(spec: Spec, inputs: list[dict[str, Any]], *, limit: int | None = None) -> Plan:
    """Check `spec` against the recorded inputs of a call; raise SpecError listing every problem."""
    plan = Plan(
        dynamic=spec.dynamic, dynamic_given=spec.dynamic_given, compile_options=dict(spec.compile_options)
    )
    errors: list[str] = []
    for item in spec.items:
        inp = find_input(item.name, inputs)
        if inp is None:
            errors.append(f"no argument named {item.name!r} (arguments: {argument_list(inputs)})")
            continue
        path, kind = inp["name"], inp.get("kind")
        try:
            if kind == "tensor":
                change = _tensor_change(path, item.value, inp)
                plan.tensors[path] = change
                plan.nbytes += change.nbytes
            elif kind in ("int", "float", "bool"):
                plan.values[path] = _scalar_value(path, item.value, kind)
            else:
                raise SpecError(
                    f"{path} is a {inp.get('type', kind)}: only tensors, int, float and bool change"
                )
        except SpecError as exc:
            errors.extend(exc.messages)
    if not errors:
        errors += _share_aliases(plan, inputs)
    limit = max_bytes() if limit is None else limit
    if not errors and plan.nbytes > limit:
        errors.append(
            f"the new tensors need {human_bytes(plan.nbytes)}, over the re-run limit of {human_bytes(limit)} "
            "(set TCDEBUG_RERUN_MAX_BYTES to raise it)"
        )
    if errors:
        raise SpecError(errors)
    return plan


def _share_aliases(plan: Plan, inputs: list[dict[str, Any]]) -> list[str]:
    """Arguments that were one tensor in the call (`alias_of`) stay one tensor: a change given
    for any of their names applies to all of them, its bytes counted once. A name given its
    recorded sizes changes nothing; two different changes for one tensor are an error."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for inp in inputs:
        if inp.get("kind") == "tensor":
            groups.setdefault(str(inp.get("alias_of") or inp["name"]), []).append(inp)
    errors: list[str] = []
    for rows in groups.values():
        if len(rows) < 2:
            continue
        given = [(inp, plan.tensors[inp["name"]]) for inp in rows if inp["name"] in plan.tensors]
        changes = [(inp, c) for inp, c in given if not _restates(c, inp)]
        distinct = {(tuple(c.shape), c.dtype, tuple(c.dynamic_dims)) for _, c in changes}
        names = " and ".join(inp["name"] for inp in rows)
        if len(distinct) > 1:
            told = ", ".join(f"{inp['name']}={_shown(c, inp)}" for inp, c in changes)
            errors.append(f"{names} are one tensor in the recorded call: give it one size, not {told}")
            continue
        if not changes:
            continue
        change = changes[0][1]
        plan.nbytes += change.nbytes - sum(c.nbytes for _, c in given)
        for inp in rows:
            plan.tensors[inp["name"]] = TensorChange(
                inp["name"], list(change.shape), change.dtype, list(change.dynamic_dims), change.nbytes
            )
    return errors


def _shown(change: TensorChange, inp: dict[str, Any]) -> str:
    """`change` as a spec value: its dtype only where it is not the recorded one."""
    dtype = change.dtype if change.dtype != normalize_dtype(inp.get("dtype", "")) else ""
    return format_shape(change.shape, change.dynamic_dims, dtype)


def _restates(change: TensorChange, inp: dict[str, Any]) -> bool:
    """`change` gives the input the sizes, dtype and dynamic dims it was recorded with."""
    return (
        list(change.shape) == list(inp.get("shape", []))
        and change.dtype == normalize_dtype(inp.get("dtype", ""))
        and list(change.dynamic_dims) == list(inp.get("dynamic_dims", []))
    )


def _tensor_change(path: str, value: str, inp: dict[str, Any]) -> TensorChange:
    if not looks_like_shape(value) and not re.fullmatch(r"-?\d+", value.strip()):
        raise SpecError(f"{path} is a tensor: give its sizes, e.g. {path}={','.join(map(str, inp['shape']))}")
    try:
        shape, marks, dtype = parse_shape(value)
    except SpecError as exc:
        raise SpecError([f"{path}: {m}" for m in exc.messages]) from None
    old = list(inp.get("shape", []))
    if len(shape) != len(old):
        raise SpecError(
            f"{path}: {len(shape)} size{'s' if len(shape) != 1 else ''} for a tensor with {len(old)} dims {tuple(old)} "
            "(a re-run keeps the rank; give one size per dim)"
        )
    old_dtype = normalize_dtype(inp.get("dtype", ""))
    dtype = dtype or old_dtype
    if dtype != old_dtype and dtype_kind(dtype) != dtype_kind(old_dtype):
        raise SpecError(f"{path}: dtype {old_dtype} cannot become {dtype} (float stays float, int stays int)")
    # No `*` given: keep the dims the recorded input had marked dynamic, so its guards still match.
    marks = sorted(set(marks)) if marks else [d for d in inp.get("dynamic_dims", []) if d < len(shape)]
    numel = math.prod(shape)
    nbytes = numel * ITEMSIZE.get(dtype, 8)
    return TensorChange(path, shape, dtype, marks, nbytes)


def _scalar_value(path: str, value: str, kind: str) -> bool | int | float:
    parsed = _scalar(value)
    if kind == "bool":
        if not isinstance(parsed, bool):
            raise SpecError(f"{path} is a bool: give true or false, not {value!r}")
        return parsed
    article = "an" if kind == "int" else "a"
    if parsed is None or isinstance(parsed, bool):
        raise SpecError(f"{path} is {article} {kind}: {value!r} is not a number")
    if kind == "int":
        if isinstance(parsed, float):
            raise SpecError(f"{path} is an int: {value!r} is not an integer")
        return parsed
    return float(parsed)


# ----- building a spec (the editor) --------------------------------------------------
def format_shape(shape: list[int], marks: list[int] = (), dtype: str = "") -> str:  # type: ignore[assignment]
    dims = ",".join(f"{d}{'*' if i in marks else ''}" for i, d in enumerate(shape))
    return f"{dims}:{dtype}" if dtype else dims


def dynamic_text(value: bool | None) -> str:
    return {None: "none", True: "true", False: "false"}[value]


def build(items: list[tuple[str, str]], dynamic: bool | None = None, *, dynamic_given: bool = False) -> str:
    """A spec string from (name, value) pairs, e.g. [("x", "16,64")] -> "x=16,64"."""
    parts = [f"{name}={value}" for name, value in items]
    if dynamic_given:
        parts.append(f"@dynamic={dynamic_text(dynamic)}")
    return ";".join(parts)
