"""`tcdebug doctor`'s child: installs every capture unit into this environment's torch, as a run
would, and reports which install, which declared private APIs (`capture.patches`) are present, and
which stages and features are therefore available. Prints one JSON object; `tcdebug.doctor` (no
torch) runs it in a child process and formats it. Everything it patched is put back at the end.

Run as `python -m tcdebug.capture.install_check`.
"""

from __future__ import annotations

import importlib
import json
import platform
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import cuda_built
from tcdebug.capture.recording import CompileState
from tcdebug.model import stages as stage_catalog
from tcdebug.model.event_breaks import EventFacts
from tcdebug.model.events import Event, EventPause, Note

# Stages every compile of a kind has: one of them unavailable makes `doctor` exit non-zero.
CORE_EXPECT = (
    stage_catalog.ALWAYS,
    stage_catalog.TRAINING,
    stage_catalog.INFERENCE,
    stage_catalog.INDUCTOR,
    stage_catalog.PER_PART,
)


DYNAMO = patches.declare(
    "torch._dynamo",
    "",
    unit="setup",
    breaks="every stage: a run installs the capture when the script's torch imports Dynamo",
    kind=patches.READS,
)
INDUCTOR_COMPILER = patches.declare(
    "torch._inductor.compile_fx",
    "",
    unit="setup",
    breaks="Inductor's stages: a run installs their units when the script's torch imports it",
    kind=patches.READS,
)


class DoctorRecording:
    """A `Recording` that keeps what the units say while they install, and records no compile."""

    def __init__(self) -> None:
        self.current: str | None = None
        self.code_objects: dict[str, Any] = {}
        self.finalizers: list[Callable[[], None]] = []
        self.fork_resets: list[Callable[[], None]] = []
        self.aot_graph_name: Callable[[], object] | None = None
        self.unavailable: dict[str, str] = {}
        self.notes: list[str] = []
        self._states: dict[str, CompileState] = {}

    def emit(self, event: Event) -> None:
        if isinstance(event, Note):
            self.notes.append(event.text)

    def key(self, compile_id: str, *, starting: bool = False) -> str:
        return compile_id

    def restart(self, compile_id: str, attempt: int) -> None:
        return None

    def wants_event(self, kind: str) -> bool:
        return False  # no breakpoints: installing only

    def event_point(self, facts: EventFacts, make: Callable[[str], EventPause]) -> bool:
        return False

    def state(self, compile_id: str) -> CompileState:
        return self._states.setdefault(compile_id, CompileState(compile_id, 0.0))

    def mark_unavailable(self, stage_id: str, reason: str) -> None:
        self.unavailable[stage_id] = reason

    def compile_start(self, compile_id: str, *, current: bool = True, **info: Any) -> None:
        return None

    def stage(self, compile_id: str, stage_id: str, text: str, **kwargs: Any) -> None:
        return None

    def update_stage(self, compile_id: str, key: str, **changes: Any) -> bool:
        return False

    def not_captured(self, compile_id: str, stage_id: str, reason: str, *, part: str = "") -> None:
        return None

    def open_subgraph_stage(self, compile_id: str, stage_id: str) -> None:
        return None

    def subgraph_part(self, compile_id: str) -> str:
        return ""

    def inductor_part(self, compile_id: str, code: str | None = None) -> str:
        return ""

    def defer_bytecode_after(self, compile_id: str, fields: dict[str, Any]) -> None:
        return None

    def flush_bytecode_after(self, compile_id: str) -> None:
        return None

    def compile_end(self, compile_id: str, *, status: str, error: str = "", metrics: dict[str, Any]) -> None:
        return None

    def finalize(self, compile_id: str, *, final: bool, failed: bool = False, error: str = "") -> None:
        return None


def unit_modules() -> dict[str, ModuleType]:
    """Each unit's short name -> its module (`trace_filter`: setup installs it after the units, once
    the trace handler is attached)."""
    from tcdebug.capture.setup import UNITS

    out = {name.rsplit(".", 1)[-1]: importlib.import_module(name) for name in UNITS}
    out["trace_filter"] = importlib.import_module("tcdebug.capture.trace_records")
    return out


def unit_stages() -> dict[str, tuple[str, ...]]:
    """Each unit's short name -> the stages it feeds (`STAGES`)."""
    return {short: tuple(getattr(module, "STAGES", ())) for short, module in unit_modules().items()}


def report() -> dict[str, Any]:
    """Install the capture into this torch, note what happened, put everything back."""
    import torch

    from tcdebug.capture import setup

    rec = DoctorRecording()
    modules = unit_modules()  # every unit imported: every declaration is known before anything installs
    owners = unit_stages()
    version = str(getattr(torch, "__version__", "?"))
    failed: dict[str, str] = {}
    try:
        DYNAMO.require()
    except patches.MissingPrivate as exc:  # a run would install nothing: every unit says why
        failed = dict.fromkeys(owners, patches.unavailable_reason(version, exc))
        for stage_ids in owners.values():
            for stage_id in stage_ids:
                rec.mark_unavailable(stage_id, failed["frame"])
        left: list[str] = []
    else:
        ctx = setup.install_capture(torch, rec)
        try:
            INDUCTOR_COMPILER.require()
            setup.install_inductor_capture(ctx)
        except Exception as exc:  # noqa: BLE001 - a torch without Inductor's compiler: its units say why
            reason = patches.unavailable_reason(version, exc)
            for short, stage_ids in owners.items():
                if hasattr(modules[short], "install_inductor"):
                    rec.notes.append(f"{short}: {reason}")
                    for stage_id in stage_ids:
                        rec.unavailable.setdefault(stage_id, reason)
        finally:
            left = patches.uninstall()
    for note in rec.notes:
        short, _, reason = note.partition(": ")
        if short in owners:
            failed.setdefault(short, reason)
    units = [
        {"unit": short, "stages": list(stage_ids), "reason": failed.get(short, "")}
        for short, stage_ids in owners.items()
    ]
    stage_rows = []
    for kind in stage_catalog.STAGE_KINDS:
        reason = rec.unavailable.get(kind.id, "")
        stage_rows.append({"stage": kind.id, "core": kind.expect in CORE_EXPECT, "reason": reason})
    privates = [
        {
            "name": p.name,
            "short": p.short,
            "unit": p.unit,
            "kind": p.kind,
            "breaks": p.breaks,
            "written_for": p.written_for,
            "missing": p.missing(),
        }
        for p in patches.DECLARED.values()
    ]
    return {
        "torch": str(torch.__version__),
        "cuda_built": cuda_built(torch),
        "python": platform.python_version(),
        "units": units,
        "stages": stage_rows,
        "privates": privates,
        "notes": [n for n in rec.notes if n.partition(": ")[0] not in failed],
        "not_restored": left,
    }


def main() -> int:
    try:
        import torch  # noqa: F401
    except ImportError as exc:
        print(json.dumps({"error": f"cannot import torch: {exc}"}))
        return 0
    try:
        data = report()
    except Exception as exc:  # noqa: BLE001 - one line for the user, not a traceback
        print(json.dumps({"error": f"the check failed on this torch: {type(exc).__name__}: {exc}"}))
        return 0
    json.dump(data, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
