"""What events carry below their envelope, and session.json holds: kernels, re-run results,
entry checks, guard results, recorded calls, where guards were made.

One dataclass each, shared by the events (`tcdebug.model.events`), the session model
(`tcdebug.model.session` uses them as they are) and the dump's index (`tcdebug.dump.index`).
Their JSON form is derived from the fields and type hints (`tcdebug.model.schema`): a field
added here travels on the channel, is written to session.json and checked when read back.

Standard library only: both sides of the channel load it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Kernel:
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
class GuardResult:
    text: str = ""
    passed: bool = False
    reason: str = ""
    kind: str = ""  # Dynamo's leaf guard type, e.g. TENSOR_MATCH
    source: str = ""  # what it guards, e.g. x or self._modules['fc1']
    checked: bool = True  # False: could not be evaluated on its own (`passed` is then meaningless)


@dataclass
class EntryCheck:
    """One cache entry of a code object, checked against proposed inputs."""

    compile_id: str = ""
    passed: bool = False
    reason: str = ""  # Dynamo's own failure reason
    guards: list[GuardResult] = field(default_factory=list)


@dataclass
class Rerun:
    """A re-run's state, as the target reports it (a `rerun` event) and session.json keeps it."""

    rerun_id: int
    function: str = ""
    compile_id: str = ""  # a compile of the frame being re-run
    spec: str = ""
    inputs: list[dict[str, Any]] = field(default_factory=list)  # see tcdebug.model.rerun_spec
    checks: list[EntryCheck] = field(default_factory=list)
    reused: str = ""  # compile id of the entry that matched, if any
    produced: list[str] = field(default_factory=list)  # compile ids the re-run created
    status: str = "checking"  # checking, checked, running, ok, failed
    error: str = ""
    token: str = ""  # the requester's own id, echoed back
    dynamic: str = ""  # the dynamic setting used: "none", "true" or "false"
    key: str = ""  # the CallInfo it re-ran

    @property
    def done(self) -> bool:
        return self.status in ("checked", "ok", "failed")

    @property
    def failing_checks(self) -> list[EntryCheck]:
        return [c for c in self.checks if not c.passed]


@dataclass
class CallInfo:
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


@dataclass
class Frame:
    """A frame of a Python stack."""

    file: str = ""
    line: int = 0
    name: str = ""
    code: str = ""


@dataclass
class GuardOrigin:
    """Where Dynamo made a guard (`tcdebug.capture.guard_provenance`): the innermost frame of the
    user's code in its stack (None: only torch's) and the innermost frame of all."""

    source: str = ""  # what it guards, e.g. L['x']
    kind: str = ""  # Dynamo's guard function, e.g. TENSOR_MATCH
    user: Frame | None = None
    innermost: Frame | None = None
