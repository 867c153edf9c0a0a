"""What capture units need from the target's recorder, as a protocol (capture never imports target).

`tcdebug.debuggee.recorder.Recorder` satisfies `Recording`; the units only see this interface.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from tcdebug.model.event_breaks import EventFacts
from tcdebug.model.events import Event, EventPause
from tcdebug.model.payloads import Kernel
from tcdebug.model.trace_format import Subgraphs


@dataclass
class CompileState:
    compile_id: str
    started: float
    paused_s: float = 0.0
    keys: set[str] = field(default_factory=set)  # every stage sent, captured or not
    captured: set[str] = field(default_factory=set)  # the stages torch reported
    ended: bool = False
    finalized: bool = False
    pending_bytecode: dict[str, Any] | None = None
    aot_mode: str = ""  # "training", "inference" or "" (no AOTAutograd seen)
    backend: str = ""  # the torch.compile backend's name, when torch tells it
    subgraphs: Subgraphs = field(default_factory=Subgraphs)  # its AOTAutograd graphs (DDP's bucket split)
    info: dict[str, Any] = field(default_factory=dict)  # its CompileStart's function, filename, firstlineno
    restarted_from: str = ""  # the key of the attempt this one restarts (`0/0` for `0/0_1`)
    elapsed_s: float = 0.0  # its time when it ended


class Recording(Protocol):
    current: str | None  # the compile in flight
    code_objects: dict[str, Any]  # compile id -> original code object
    finalizers: list[Callable[[], None]]  # run before the stages close
    fork_resets: list[Callable[[], None]]  # run in a forked child, as the recorder resets itself
    aot_graph_name: Callable[[], object] | None  # torch's name of the AOTAutograd graph being compiled

    def emit(self, event: Event) -> None: ...  # a typed event of tcdebug.model.events, onto the channel

    # The session's key of torch's compile id (`0/0`, or `0/0#2` once torch starts its ids again)
    def key(self, compile_id: str, *, starting: bool = False) -> str: ...

    def state(self, compile_id: str) -> CompileState: ...

    # Dynamo restarted its analysis of torch's compile id `compile_id` (bare: `0/0`): a record of
    # attempt `attempt` came. Ends the attempt before it as `restarted`, and keys the id's records
    # from now on to the new attempt (`0/0_1`), as torch's logs key them. A no-op for an attempt
    # already known.
    def restart(self, compile_id: str, attempt: int) -> None: ...

    def mark_unavailable(self, stage_id: str, reason: str) -> None: ...

    # A compile begins; `current=False` leaves the compile in flight as it was (a compile that
    # only shows itself when it ends, or runs inside another one).
    def compile_start(self, compile_id: str, *, current: bool = True, **info: Any) -> None: ...

    def stage(
        self,
        compile_id: str,
        stage_id: str,
        text: str,
        *,
        part: str = "",
        language: str | None = None,
        kernels: list[Kernel] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None: ...

    # Is there an event breakpoint on this kind (`tcdebug.model.event_breaks`)? Units skip the
    # work of an event's facts when not.
    def wants_event(self, kind: str) -> bool: ...

    # A compiler event happens now; pause there (sending `make(spec)`) if a breakpoint matches.
    def event_point(self, facts: EventFacts, make: Callable[[str], EventPause]) -> bool: ...

    def update_stage(self, compile_id: str, key: str, **changes: Any) -> bool: ...

    def not_captured(self, compile_id: str, stage_id: str, reason: str, *, part: str = "") -> None: ...

    def open_subgraph_stage(self, compile_id: str, stage_id: str) -> None: ...

    def subgraph_part(self, compile_id: str) -> str: ...

    def inductor_part(self, compile_id: str, code: str | None = None) -> str: ...

    def defer_bytecode_after(self, compile_id: str, fields: dict[str, Any]) -> None: ...

    def flush_bytecode_after(self, compile_id: str) -> None: ...

    def compile_end(
        self, compile_id: str, *, status: str, error: str = "", metrics: dict[str, Any]
    ) -> None: ...

    def finalize(self, compile_id: str, *, final: bool, failed: bool = False, error: str = "") -> None: ...
