"""What events carry below their envelope, and session.json holds: kernels, re-run results,
entry checks, guard results, recorded calls, where guards were made, provenance items, links and
symbols (each compile's provenance.json), autotune tables, cache verdicts.

One dataclass each, shared by the events (`tcdebug.model.events`), the session model
(`tcdebug.model.session` uses them as they are) and the dump's index (`tcdebug.dump.index`).
Their JSON form is derived from the fields and type hints (`tcdebug.model.schema`): a field
added here travels on the channel, is written to session.json and checked when read back.

Standard library only: both sides of the channel load it.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Generic, TypeVar

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


class SharedValues(Generic[_K, _V]):
    """One instance per key of a value many compiles hold alike (a stack frame, a shape) and none
    changes in place. Bounded: past `limit` keys a value is made and not kept, as what a log holds
    is not bounded."""

    def __init__(self, make: Callable[[_K], _V], limit: int = 1 << 16) -> None:
        self.make = make
        self.limit = limit
        self._values: dict[_K, _V] = {}
        # `known(key, UNMADE)`: the value kept for `key`, else `UNMADE`, without a call of
        # `make`: for a loop that looks up many keys (one method call fewer per key)
        self.known = self._values.get

    def get(self, key: _K) -> _V:
        value = self._values.get(key, UNMADE)
        if value is UNMADE:
            value = self.make(key)
            if len(self._values) < self.limit:
                self._values[key] = value
        return value


UNMADE: Any = object()  # a key `SharedValues` has no value for yet (None is a value)


_COMPARED: dict[type, tuple[str, ...]] = {}
_SHOWN: dict[type, tuple[str, ...]] = {}


def _compared(cls: type) -> tuple[str, ...]:
    names = _COMPARED.get(cls)
    if names is None:
        names = _COMPARED[cls] = tuple(f.name for f in fields(cls) if f.compare)
    return names


def _shown(cls: type) -> tuple[str, ...]:
    names = _SHOWN.get(cls)
    if names is None:
        names = _SHOWN[cls] = tuple(f.name for f in fields(cls) if f.repr)
    return names


class Plain:
    """The `__eq__` and `__repr__` that `@dataclass` writes, written once: a dataclass declared
    `eq=False, repr=False` under it inherits them instead of compiling its own; compiling those is
    most of importing a module of many dataclasses. Not hashable, as a dataclass with `eq` is not."""

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        names = _compared(self.__class__)
        return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in _shown(self.__class__))
        return f"{self.__class__.__qualname__}({shown})"


@dataclass(eq=False, repr=False)
class Kernel(Plain):
    """One kernel split out of Inductor's output code."""

    name: str = ""
    language: str = "text"  # "cpp" or "python" (Triton)
    source: str = ""
    kind: str = ""  # pointwise, reduction, persistent_reduction, template, cpp, extern
    configs: list[dict[str, Any]] = field(default_factory=list)  # autotune configs tried
    chosen_config: dict[str, Any] | None = None
    provenance: list[str] = field(default_factory=list)  # FX nodes fused into it
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class PhaseTimes:
    """The shape of a compile's phase times (`Compile.times`, made by
    `tcdebug.analysis.compile_phases`): the session keeps the plain dict; a dump's is checked
    against this when read, so a chart never meets a list where it sums seconds."""

    wall_s: float | None = None
    measured_s: float | None = None
    paused_s: float | None = None
    phases: dict[str, float] = field(default_factory=dict)
    source: str = ""


@dataclass(eq=False, repr=False)
class GuardResult(Plain):
    """A guard checked against new inputs: whether it passed, and why not."""

    text: str = ""
    passed: bool = False
    reason: str = ""
    kind: str = ""  # Dynamo's leaf guard type, e.g. TENSOR_MATCH
    source: str = ""  # what it guards, e.g. x or self._modules['fc1']
    checked: bool = True  # False: could not be evaluated on its own (`passed` is then meaningless)


@dataclass(eq=False, repr=False)
class EntryCheck(Plain):
    """One cache entry of a code object, checked against proposed inputs."""

    compile_id: str = ""
    passed: bool = False
    reason: str = ""  # Dynamo's own failure reason
    guards: list[GuardResult] = field(default_factory=list)


@dataclass(eq=False, repr=False)
class Rerun(Plain):
    """A re-run's state, as the target reports it (a `rerun` event) and session.json keeps it."""

    rerun_id: int
    function: str = ""
    compile_id: str = ""  # a compile of the frame being re-run
    spec: str = ""
    inputs: list[dict[str, Any]] = field(default_factory=list)  # see tcdebug.model.rerun_spec
    checks: list[EntryCheck] = field(default_factory=list)
    reused: str = ""  # compile id of the entry that matched, if any
    produced: list[str] = field(default_factory=list)  # compile ids the re-run created
    status: str = "checking"  # checking, then checked (a check's end) or running, ok, failed (a run's)
    error: str = ""
    token: str = ""  # the requester's own id, echoed back
    dynamic: str = ""  # the dynamic setting used: "none", "true" or "false"
    key: str = ""  # the CallInfo it re-ran

    @property
    def done(self) -> bool:
        """Ended: a check at `checked`, a run at `ok` or `failed` (a run is never `checked`)."""
        return self.status in ("checked", "ok", "failed")

    @property
    def failing_checks(self) -> list[EntryCheck]:
        return [c for c in self.checks if not c.passed]


@dataclass(eq=False, repr=False)
class CallInfo(Plain):
    """The last call of a compiled function, as recorded in the target (re-runs start from it)."""

    key: str = ""
    function: str = ""
    filename: str = ""
    firstlineno: int = 0
    compile_ids: list[str] = field(default_factory=list)  # compiles of its frame
    inputs: list[dict[str, Any]] = field(default_factory=list)  # see tcdebug.model.rerun_spec
    dynamic: bool | None = None  # torch.compile(dynamic=...) of the callable
    grad_enabled: bool = True
    state: dict[str, Any] = field(default_factory=dict)  # global state at the call (grad mode, autocast, ...)
    count: int = 0  # how many calls were seen
    guard_check: str = ""  # why guards cannot be checked, when they cannot


@dataclass(eq=False, repr=False)
class Frame(Plain):
    """A frame of a Python stack."""

    file: str = ""
    line: int = 0
    name: str = ""
    code: str = ""


@dataclass
class ChainStep:
    """One step of a symbol's specialization chain (`tcdebug.capture.symbol_chain`): `created`,
    `guard`, `range` (its range narrowed), `replaced` or `specialized` (made a constant), with the
    user's line Dynamo was tracing."""

    step: str = ""
    text: str = ""
    user: Frame | None = None


@dataclass(eq=False, repr=False)
class GuardOrigin(Plain):
    """Where Dynamo made a guard (`tcdebug.capture.guard_provenance`): the innermost frame of the
    user's code in its stack (None: only torch's) and the innermost frame of all."""

    source: str = ""  # what it guards, e.g. L['x']
    kind: str = ""  # Dynamo's guard function, e.g. TENSOR_MATCH
    user: Frame | None = None
    innermost: Frame | None = None


# ----- provenance (see tcdebug.analysis.provenance_index) -------------------------------------
@dataclass(eq=False, repr=False)
class ProvItem(Plain):
    """One thing in one stage: a user source line, the bytecode of a line, an FX node, an IR node,
    a kernel (or the lines of one node inside it)."""

    item_id: str  # "<stage key>|<name>"
    stage: str  # the stage key the lines belong to
    name: str
    kind: str = ""  # source_line, bytecode, fx_node, ir_node, kernel, extern_kernel, kernel_lines
    lines: list[int] = field(default_factory=list)  # 1-based, in the stage text
    detail: str = ""  # e.g. "aten.relu.default · seq_nr 12", or the source code of a line
    # file, line, outside (source lines); code (the op's span); post_grad, kernel, scheduler_node,
    # subgraph (kernels and their lines)
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ProvLink:
    """A downstream link between two items, and how it was known; in JSON the row
    `[src, dst, how, inferred]`."""

    JSON_LIST: ClassVar[bool] = True
    src: str  # upstream item id
    dst: str  # downstream item id
    how: str  # stack_trace, from_node, seq_nr, same_node, origins, kernel_provenance, dis_positions, ...
    inferred: bool = False  # read from text rather than from torch's objects


@dataclass(eq=False, repr=False)
class ProvSymbol(Plain):
    """A symbolic size of a compile (`s77`), from its ShapeEnv."""

    sources: list[str] = field(default_factory=list)  # where it comes from: L['x'].size()[0]
    range: str = ""  # [2, int_oo]
    hint: str = ""  # the value seen, when one was
    guards: list[str] = field(default_factory=list)  # the guards that mention it


# ----- max-autotune (see tcdebug.capture.autotune) ----------------------------------------------
@dataclass(eq=False, repr=False)
class AutotuneChoice(Plain):
    """One choice Inductor benchmarked for a template."""

    name: str = ""  # triton_mm_7, or the aten fallback (mm)
    time_ms: float | None = None  # None: it failed
    share: float | None = None  # the best time over this one (1.0 for the winner)
    # its tile sizes and settings: BLOCK_M=64, num_warps=4, ACC_TYPE='tl.float32'
    params: dict[str, int | str] = field(default_factory=dict)
    description: str = ""  # as Inductor describes it (cut at 500 characters)


@dataclass(eq=False, repr=False)
class AutotuneTable(Plain):
    """Every choice of one autotuned selection (mm, addmm, conv, flex attention, ...), best first."""

    name: str = ""  # the selection: mm
    sizes: str = ""  # of its inputs: "256x256, 256x256"
    winner: str = ""  # the fastest choice's name
    choices: list[AutotuneChoice] = field(default_factory=list)
    stage: str = ""  # the kernel_source stage key of its kernels


@dataclass
class AccuracyLayer:
    """One run of a compile's graph on its saved inputs, compared with eager in the graph's own
    dtypes by `torch._dynamo.utils.same` against the float64 reference."""

    name: str = ""  # "eager", "aot_eager", "inductor"
    verdict: str = ""  # "reference", "same", "reassociation", "diverged", "failed", "skipped"
    max_abs: float | None = None  # largest |this - eager| over the compared tensors
    error: float | None = None  # RMSE against the float64 reference, worst tensor
    allowance: float | None = None  # what `same` allows that tensor (multiplier x eager's RMSE + tol/10)
    worst: str = ""  # the tensor of `error`: "output 0", "grad of input 2"
    note: str = ""


@dataclass
class AccuracyNode:
    """The first node of the post-grad graph whose compiled value leaves the float64 reference's
    allowance."""

    name: str = ""
    target: str = ""  # e.g. aten.relu.default
    graph: str = ""  # the stage key of its graph, e.g. inductor_post_grad_graph.inference
    filename: str = ""  # the user line its stack trace ends in
    line: int = 0
    code: str = ""  # that line's text
    max_abs: float | None = None
    error: float | None = None
    allowance: float | None = None
    reassociation: bool = False  # beyond eager's tolerance but within the float64 allowance
    kernel: str = ""  # filled from the compile's provenance when read


@dataclass
class Accuracy:
    """The comparison of one compile with eager (`A`, `--accuracy`), as the target reports it."""

    compile_id: str = ""
    status: str = "running"  # running, same, diverged, not_comparable, failed
    layer: str = ""  # the first layer beyond tolerance: "aot_eager" or "inductor"
    summary: str = ""
    training: bool = False
    tolerance: float = 0.0
    layers: list[AccuracyLayer] = field(default_factory=list)
    node: AccuracyNode | None = None
    not_compared: list[str] = field(default_factory=list)  # what could not be compared, and why
    notes: list[str] = field(default_factory=list)
    repro: str = ""  # a script that fails the same way under plain python
    repro_inputs: dict[str, str] = field(default_factory=dict)  # its saved inputs: path -> base64
    elapsed_s: float = 0.0
    kept_bytes: int = 0  # what keeping the graph's inputs cost the script's process

    @property
    def done(self) -> bool:
        return self.status != "running"


CACHE_NAMES = {
    "fx_graph": "FX graph",
    "aotautograd": "AOTAutograd",
    "autotune": "autotune",
    "triton": "Triton",
}


@dataclass
class CacheVerdict:
    """What one of torch's compile caches answered for a compile (its `<cache>_cache_<result>`
    record): hit, miss or bypass, the key, and for a miss what differs from the nearest entry."""

    cache: str = ""  # "fx_graph", "aotautograd" (`CACHE_NAMES`)
    result: str = ""  # "hit", "miss" or "bypass"
    key: str = ""
    part: str = ""  # the graph it was asked for: "forward", "backward", "inference"; "" for all
    reason: str = ""  # a bypass: torch's reason
    explanation: list[str] = field(default_factory=list)  # a miss: what differs from the nearest entry
    time_saved_s: float | None = None  # a hit: the compile time torch says it saved

    @property
    def cache_name(self) -> str:
        return CACHE_NAMES.get(self.cache, self.cache)

    def headline(self) -> str:
        """`FX graph cache hit (key fxxa1b2c3d4e5…)`."""
        key = f" (key {self.key[:16]}…)" if self.key else ""
        part = f" [{self.part}]" if self.part else ""
        return f"{self.cache_name} cache {self.result}{part}{key}"
