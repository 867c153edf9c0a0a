"""The command vocabulary: one dataclass per command the controller sends the target (and its
forked processes), mirroring the events (`tcdebug.model.events`) the other way.

On the channel a command is a JSON object `{"v": 1, "cmd": NAME, ...fields}`
(`tcdebug.model.protocol`): `to_wire()` gives it, `command_from_wire()` reads one back with the
same codec as events (`tcdebug.model.schema`), every field checked; an unknown command or a
field of the wrong type raises `CommandError` (one line). The debuggee dispatches on the class
(`tcdebug.debuggee.command_reader`).

Standard library only: both sides of the channel load it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tcdebug.model.protocol import MODE_CONTINUE, MODE_RUN, MODE_STEP, PROTOCOL_VERSION, ProtocolError
from tcdebug.model.schema import SchemaError, from_json, to_json


class CommandError(ProtocolError):
    """A command that is not one of the vocabulary, or has a field of the wrong type."""


@dataclass(kw_only=True)
class Command:
    CMD: ClassVar[str] = ""

    def to_wire(self) -> dict[str, Any]:
        """The JSON object for the channel (fields that are None are left out)."""
        body = {k: v for k, v in to_json(self).items() if v is not None}
        return {"v": PROTOCOL_VERSION, "cmd": self.CMD, **body}


# ----- pausing ----------------------------------------------------------------------------------
@dataclass(kw_only=True)
class Resume(Command):
    """Go on in a pause mode (the command's name): `breakpoints`, where given, replace the set."""

    breakpoints: list[str] | None = None


@dataclass(kw_only=True)
class Step(Resume):
    CMD: ClassVar[str] = MODE_STEP


@dataclass(kw_only=True)
class Continue(Resume):
    CMD: ClassVar[str] = MODE_CONTINUE


@dataclass(kw_only=True)
class Run(Resume):
    CMD: ClassVar[str] = MODE_RUN


@dataclass(kw_only=True)
class SetBreakpoints(Command):
    CMD: ClassVar[str] = "breakpoints"
    breakpoints: list[str] = field(default_factory=list)


@dataclass(kw_only=True)
class Stop(Command):
    """End the run now, wherever it is."""

    CMD: ClassVar[str] = "stop"


@dataclass(kw_only=True)
class Quit(Command):
    """The controller goes away."""

    CMD: ClassVar[str] = "quit"


# ----- re-runs ----------------------------------------------------------------------------------
@dataclass(kw_only=True)
class RerunRequest(Command):
    """Re-run a recorded call (see `tcdebug.model.rerun_spec`): the call of `key`, or of the
    function `compile_id` compiled; with `all`, every call whose function takes the spec's inputs.
    `specs` (several re-runs) wins over `spec`. `token` comes back in the `rerun` events."""

    compile_id: str = ""
    key: str = ""
    spec: str = ""
    specs: list[str] = field(default_factory=list)
    token: str = ""
    all: bool = False


@dataclass(kw_only=True)
class CheckRerun(RerunRequest):
    """Check the guards for the proposed inputs only: nothing runs."""

    CMD: ClassVar[str] = "check_rerun"


@dataclass(kw_only=True)
class RunRerun(RerunRequest):
    """Check, then call the function with the proposed inputs, pausing as `mode` says."""

    CMD: ClassVar[str] = "rerun"
    mode: str | None = None
    breakpoints: list[str] | None = None


# ----- accuracy -----------------------------------------------------------------------------------
@dataclass(kw_only=True)
class CheckAccuracy(Command):
    """Compare the compile `compile_id` with eager on its saved inputs (`tcdebug.debuggee.accuracy`);
    with `all`, every compile whose graph was kept. Answered by `accuracy` events."""

    CMD: ClassVar[str] = "check_accuracy"
    compile_id: str = ""
    all: bool = False


COMMAND_CLASSES: dict[str, type[Command]] = {
    cls.CMD: cls
    for cls in (Step, Continue, Run, SetBreakpoints, Stop, Quit, CheckRerun, RunRerun, CheckAccuracy)
}
RESUMES: tuple[type[Resume], ...] = (Step, Continue, Run)
MODE_COMMANDS: dict[str, type[Resume]] = {cls.CMD: cls for cls in RESUMES}


def resume(mode: str, breakpoints: list[str] | None = None) -> Resume:
    """The command for pause mode `mode` (step, continue or run)."""
    cls = MODE_COMMANDS.get(mode)
    if cls is None:
        raise CommandError(f"unknown mode {mode!r}")
    return cls(breakpoints=breakpoints)


def command_from_wire(msg: Mapping[str, Any]) -> Command:
    """The typed command a decoded message holds; `CommandError` (one line) when it is none."""
    if not isinstance(msg, Mapping):
        raise CommandError(f"a command is an object, not {type(msg).__name__}")
    name = msg.get("cmd")
    cls = COMMAND_CLASSES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise CommandError(f"unknown command {name!r}")
    body = {k: v for k, v in msg.items() if k not in ("v", "cmd") and v is not None}
    try:
        return from_json(cls, body)
    except SchemaError as exc:
        raise CommandError(f"{name} command: {exc}") from None
