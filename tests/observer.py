"""The observer check: what torch's own TORCH_TRACE log says of a plain run, and of the same run
under tcdebug (with TORCH_TRACE set too), must be the same: compile ids and attempts, the graphs,
kernel names and counts, cache hits and misses, recompile reasons."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import Session
from tcdebug.trace import load_trace_session
from tcdebug.trace.rank_logs import normalise

# Lines that differ between any two runs: addresses, graph ids, file paths of generated code.
_VOLATILE = (
    re.compile(r"graph id: \d+"),
    re.compile(r"/[^\s'\"]*torchinductor[^\s'\"]*"),
    re.compile(r"/tmp/[^\s'\"]+"),
)


def _clean(text: str) -> str:
    text = normalise(text)
    for pattern in _VOLATILE:
        text = pattern.sub("<volatile>", text)
    return text


def observed(session: Session) -> dict[str, Any]:
    """What the observer compares, from a session read from a TORCH_TRACE log."""
    graphs: dict[str, str] = {}
    kernels: dict[str, list[str]] = {}
    for comp in session.ordered_compiles():
        for key, stage in comp.stages.items():
            if not stage.captured:
                continue
            stage_id = stage_catalog.split_key(key)[0]
            if stage_id in stage_catalog.GRAPH_STAGES:
                graphs[f"{comp.compile_id} {key}"] = _clean(stage.get_text())
            if stage_id == stage_catalog.OUTPUT_CODE:
                kernels[f"{comp.compile_id} {key}"] = sorted(k.name for k in stage.kernels)
    return {
        "compiles": [(c.compile_id, c.status) for c in session.ordered_compiles()],
        "graphs": graphs,
        "kernels": kernels,
        "caches": {c.compile_id: c.metrics.get("cache") for c in session.ordered_compiles()},
        "recompiles": {
            c.compile_id: c.recompile_reason for c in session.ordered_compiles() if c.recompile_reason
        },
    }


def compare_logs(plain: Path, ours: Path) -> None:
    """Assert that two TORCH_TRACE folders (a plain run's, tcdebug's) say the same, part by part."""
    a, b = observed(load_trace_session(plain)), observed(load_trace_session(ours))
    for part in ("compiles", "kernels", "caches", "recompiles"):
        assert a[part] == b[part], (part, a[part], b[part])
    assert sorted(a["graphs"]) == sorted(b["graphs"])
    for key, text in a["graphs"].items():
        assert text == b["graphs"][key], key


def assert_stdout_kept(plain_stdout: str, output: str) -> None:
    """Every line the plain run printed to stdout is in the dump's output, in order (the dump's
    output.txt interleaves stdout with stderr, as a terminal shows them)."""
    lines = iter(output.splitlines())
    for line in plain_stdout.splitlines():
        assert any(seen == line for seen in lines), (
            f"{line!r} missing from the dump's output:\n{output[-3000:]}"
        )
