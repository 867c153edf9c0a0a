"""Installs the whole capture into the real torch (both steps, as a run does), then uninstalls it,
and prints one JSON line: what each declared patch target was before, while installed, and after.
Run by tests/test_patches.py."""

from __future__ import annotations

import importlib
import json

import torch
import torch._inductor.compile_fx  # noqa: F401 - the second step's classes

from tcdebug.capture import patches, setup
from tcdebug.capture.install_check import DoctorRecording, unit_stages


def own(private: patches.Private) -> object:
    """The owner's own entry (descriptors as they are) or the value of a config switch."""
    try:
        owner, attr = private.owner()
    except patches.MissingPrivate:
        return "missing"
    if private.kind == patches.SETS:
        return getattr(owner, attr)
    return vars(owner).get(attr, "absent") if hasattr(owner, "__dict__") else getattr(owner, attr)


unit_stages()  # every unit imported: every declaration known
targets = [
    p
    for p in patches.DECLARED.values()
    if p.kind in (patches.WRAPS, patches.REPLACES, patches.SETS) and not p.on_instance
]
before = {p.name: own(p) for p in targets}
ctx = setup.install_capture(torch, DoctorRecording())
setup.install_inductor_capture(ctx)
installed = sorted({p.name for p in patches.installed()})
during = {p.name: own(p) for p in targets}
left = patches.uninstall()
after = {p.name: own(p) for p in targets}
trace_mod = importlib.import_module("torch._logging")
print(
    json.dumps(
        {
            "installed": installed,
            "changed": sorted(n for n in before if during[n] is not before[n] and during[n] != before[n]),
            "not_restored": left,
            "differs_after": sorted(n for n in before if after[n] is not before[n] and after[n] != before[n]),
            "still_patched": len(patches.installed()),
            "trace_structured_is_torchs": trace_mod.trace_structured
            is torch._logging._internal.trace_structured,
        }
    )
)
