"""Where compile time went: phases of each compile, from torch's own timers.

Torch times every compile phase with `dynamo_timed`, which logs a begin/end pair of
`chromium_event` records (the live structured-trace logger, and TORCH_TRACE logs). Each
compile's events nest: `dynamo` > `entire_frame_compile` > `bytecode_tracing`, `backend_compile`
> `create_aot_dispatcher_function` > ... > `compile_file`. `PhaseCollector` folds them into a
handful of phases, giving each moment of the compile to the innermost event that names a phase.
What is left of the compile's wall time (the union of its outermost events) is "other":
inferred, not measured. Time the compiling thread spent paused at a tcdebug pause point (spans
in the events' clock, `time.time_ns()` in µs) is left out of every phase and of the wall time,
and reported as `paused_s`. Without chromium events, `phases_from_metrics` infers coarser phases
from the compile's `compilation_metrics` (cumulative times that nest the same way).

Stdlib only: the live capture, the trace reader and the dump share it.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

OTHER = "other"

# Phase labels, in pipeline order (the chart's order).
PHASES = (
    "Dynamo tracing",
    "Dynamo guards",
    "Cache keys",
    "AOTAutograd",
    "FX passes",
    "Inductor lowering",
    "Scheduling/fusion",
    "Codegen",
    "C++/Triton compile",
    "Autotuning",
    "CUDA-graph recording",
    OTHER,
)

# dynamo_timed event names -> phase. Prefixes end with "*".
_EXACT = {
    "bytecode_tracing": "Dynamo tracing",
    "fullgraph_capture": "Dynamo tracing",
    "build_guards": "Dynamo guards",
    "inductor_codecache_torch_key": "Cache keys",  # hashing torch's (and Triton's) install for the keys
    "create_aot_dispatcher_function": "AOTAutograd",
    "aot_collect_metadata": "AOTAutograd",
    "aot_trace_joint_graph": "AOTAutograd",
    "min_cut_rematerialization_partition": "AOTAutograd",
    "_recursive_joint_graph_passes": "FX passes",
    "_recursive_pre_grad_passes": "FX passes",
    "_recursive_post_grad_passes": "FX passes",
    "additional_fake_tensor_prop": "FX passes",
    "GraphLowering.run": "Inductor lowering",
    "Scheduler.__init__": "Scheduling/fusion",
    "code_gen": "Codegen",
    "GraphLowering.codegen": "Codegen",
    "GraphLowering.compile_to_fn": "Codegen",
    "Scheduler.codegen": "Codegen",
    "PythonWrapperCodegen.generate": "Codegen",
    "compile_file": "C++/Triton compile",
    "async_compile.wait": "C++/Triton compile",
    "async_compile.precompile": "C++/Triton compile",
    "PyCodeCache.load_by_key_path": "C++/Triton compile",
    "CachingAutotuner.slow_precompile_config": "C++/Triton compile",
    "CachingAutotuner.benchmark_all_configs": "Autotuning",
    "CachingAutotuner.coordinate_descent_tuning": "Autotuning",
    "CachingAutotuner.combo_sequential_autotune": "Autotuning",
    "CUDAGraphNode.record": "CUDA-graph recording",
}
_PREFIX = {
    "CacheBase.get_system": "Cache keys",  # CacheBase.get_system.triton_key: seconds on a CUDA build
}
_SUFFIX = {
    "_template_autotuning": "Autotuning",
    "_template_precompiling": "C++/Triton compile",
}


def phase_of(name: str) -> str | None:
    """The phase a `dynamo_timed` event name belongs to, or None (a container or unknown)."""
    phase = _EXACT.get(name)
    if phase is not None:
        return phase
    for suffix, phase in _SUFFIX.items():
        if name.endswith(suffix):
            return phase
    for prefix, phase in _PREFIX.items():
        if name.startswith(prefix):
            return phase
    if "cudagraph" in name.lower() and "record" in name.lower():
        return "CUDA-graph recording"
    return None


class _Interval(NamedTuple):  # a big log has hundreds of thousands, all kept until it is read
    """One phase of a compile: a `dynamo_timed` begin and its end, in µs."""

    name: str
    start: float  # µs
    end: float
    tid: Any = 0


class _CompileEvents:
    """A compile's closed phases, and the begins still waiting for their ends."""

    __slots__ = ("intervals", "open")

    def __init__(self) -> None:
        self.intervals: list[_Interval] = []
        self.open: dict[tuple[str, Any], list[float]] = {}  # (name, tid) -> starts


class PhaseCollector:
    """Folds `dynamo_timed` begin/end events into per-compile phase times."""

    def __init__(self) -> None:
        self.compiles: dict[str, _CompileEvents] = {}

    def feed(self, event: dict[str, Any] | None, compile_id: str | None = None) -> str | None:
        """Take one chromium event of compile `compile_id` (default: the event's own); returns the
        compile id when one of its outermost events just ended (worth re-sending), else None."""
        if not isinstance(event, dict):
            return None
        args = event.get("args")
        cid = compile_id or (args.get("compile_id") if isinstance(args, dict) else None)
        if cid in (None, "", "None"):
            return None  # e.g. a parallel compile worker's event: its time shows in the waiter's
        ph, name, ts = event.get("ph"), event.get("name"), event.get("ts")
        if not isinstance(cid, str) or not isinstance(name, str) or not isinstance(ts, (int, float)):
            return None
        if ph not in ("B", "E"):
            return None
        try:
            at = float(ts)
        except OverflowError:  # an int no float holds
            return None
        if not math.isfinite(at):  # NaN or infinity: not a time (a phase's share would be NaN)
            return None
        comp = self.compiles.get(cid)
        if comp is None:
            comp = self.compiles[cid] = _CompileEvents()
        name = sys.intern(name)  # the same few phase names, each decoded afresh from its event
        key = (name, event.get("tid", 0))
        if ph == "B":
            comp.open.setdefault(key, []).append(at)
            return None
        starts = comp.open.get(key)
        if not starts:
            return None
        start = starts.pop()
        comp.intervals.append(_Interval(name, start, at, key[1]))
        return cid if not any(comp.open.values()) else None

    def times(self, compile_id: str, pauses: list[tuple[float, float]] | None = None) -> dict[str, Any]:
        """The compile's phase times; `pauses`: (start, end) µs spans the thread spent paused."""
        comp = self.compiles.get(compile_id)
        return phase_times(comp.intervals, pauses) if comp else {}


def phase_times(
    intervals: list[_Interval], pauses: list[tuple[float, float]] | None = None
) -> dict[str, Any]:
    """{"wall_s", "phases": {phase: s}, "measured_s", "source"} for one compile's intervals, and
    "paused_s" where `pauses` ((start, end) µs) overlap them: that time counts in no phase."""
    if not intervals:
        return {}
    roots = _union([(i.start, i.end) for i in intervals])
    held = _overlap(_union(list(pauses or ())), roots)
    paused = sum(b - a for a, b in held)
    wall = sum(b - a for a, b in roots) - paused
    named = [i for i in intervals if phase_of(i.name) is not None]
    # Elementary segments between every boundary; each goes to the innermost named event.
    bounds = sorted({x for i in named for x in (i.start, i.end)} | {x for span in held for x in span})
    totals: dict[str, float] = {}
    segments: list[list[Any]] = []  # [phase, start, end] µs, adjacent ones of a phase merged
    origin = roots[0][0]
    for a, b in zip(bounds, bounds[1:], strict=False):
        if any(p0 <= a and b <= p1 for p0, p1 in held):
            _segment(segments, PAUSED, a, b)
            continue  # paused at a pause point: no phase's time
        covering = [i for i in named if i.start <= a and i.end >= b]
        if not covering:
            continue
        inner = min(covering, key=lambda i: (i.end - i.start))
        phase = phase_of(inner.name) or OTHER
        totals[phase] = totals.get(phase, 0.0) + (b - a)
        _segment(segments, phase, a, b)
    measured = sum(totals.values())
    phases = {p: round(totals[p] / 1e6, 6) for p in PHASES if totals.get(p)}
    other = max(0.0, wall - measured)
    if other > 0:
        phases[OTHER] = round(other / 1e6, 6)
    out = {
        "wall_s": round(wall / 1e6, 6),
        "measured_s": round(measured / 1e6, 6),
        "phases": phases,
        "source": "torch dynamo_timed events",
    }
    if paused > 0:
        out["paused_s"] = round(paused / 1e6, 6)
    # on a time axis (the compile-time timeline): when, in the events' clock, and each phase's spans
    out["start_us"] = origin
    out["end_us"] = roots[-1][1]
    out["segments"] = [[p, round((a - origin) / 1e6, 6), round((b - origin) / 1e6, 6)] for p, a, b in segments]
    return out


PAUSED = "paused"  # a segment of the timeline spent at a tcdebug pause point
MAX_SEGMENTS = 400  # per compile: beyond, the shortest merge into their neighbour's phase


def _segment(segments: list[list[Any]], phase: str, a: float, b: float) -> None:
    if segments and segments[-1][0] == phase and segments[-1][2] >= a:
        segments[-1][2] = b
    elif len(segments) >= MAX_SEGMENTS:
        segments[-1][2] = b  # the last one stretches: the chart has far fewer cells anyway
    else:
        segments.append([phase, a, b])


# One letter per phase on the timeline (`timeline_lines`).
PHASE_LETTERS = {
    "Dynamo tracing": "D",
    "Dynamo guards": "G",
    "Cache keys": "H",
    "AOTAutograd": "A",
    "FX passes": "F",
    "Inductor lowering": "L",
    "Scheduling/fusion": "S",
    "Codegen": "C",
    "C++/Triton compile": "K",
    "Autotuning": "T",
    "CUDA-graph recording": "R",
    OTHER: "o",
    PAUSED: "‖",
}


def is_timed(times: Mapping[str, Any]) -> bool:
    """Whether phase times come from torch's timed events (a place on the timeline), not metrics."""
    return isinstance(times.get("start_us"), (int, float)) and bool(times.get("segments"))


def timeline_rows(compiles: Sequence[tuple[str, Mapping[str, Any]]], width: int = 60) -> tuple[float, list[tuple[str, str]]]:
    """Every compile's phases on one time axis of `width` cells: (the axis' span in s, [(compile id,
    cells)]). A cell shows the phase that took most of its time (`PHASE_LETTERS`), `‖` a pause,
    `·` time the compile did not run. Compiles without timed events (`start_us`) are left out."""
    timed = [(cid, t) for cid, t in compiles if is_timed(t)]
    if not timed:
        return 0.0, []
    t0 = min(float(t["start_us"]) for _, t in timed)
    t1 = max(float(t["end_us"]) for _, t in timed)
    span = max(t1 - t0, 1.0)
    cell = span / width
    rows = []
    for cid, t in timed:
        start = float(t["start_us"])
        share: list[dict[str, float]] = [{} for _ in range(width)]
        for seg in t["segments"]:
            phase, a, b = seg[0], start + float(seg[1]) * 1e6, start + float(seg[2]) * 1e6
            first, last = int((a - t0) / cell), min(width - 1, int((b - t0) / cell))
            for i in range(max(0, first), last + 1):
                lo, hi = max(a, t0 + i * cell), min(b, t0 + (i + 1) * cell)
                if hi > lo:
                    share[i][phase] = share[i].get(phase, 0.0) + hi - lo
        inside = range(max(0, int((start - t0) / cell)), min(width, int((float(t["end_us"]) - t0) / cell) + 1))
        cells = "".join(
            PHASE_LETTERS.get(max(s, key=lambda p: s[p]), "?") if s else (PHASE_LETTERS[OTHER] if i in inside else "·")
            for i, s in enumerate(share)
        )
        rows.append((cid, cells))
    return span / 1e6, rows


def timeline_lines(compiles: Sequence[tuple[str, Mapping[str, Any]]], width: int = 60, indent: str = "  ") -> list[str]:
    """The compile-time timeline as text: a time axis, one row per compile, and the legend."""
    span, rows = timeline_rows(compiles, width)
    if not rows:
        return []
    id_w = max(len(cid) for cid, _ in rows)
    axis = f"0s{f'{span:.2f}s':>{width - 2}}"
    lines = [f"{indent}{'':<{id_w}} {axis}"]
    lines += [f"{indent}{cid:<{id_w}} {cells}" for cid, cells in rows]
    used = {c for _, cells in rows for c in cells}
    legend = ", ".join(f"{letter} {phase}" for phase, letter in PHASE_LETTERS.items() if letter in used)
    lines.append(f"{indent}{legend}")
    return lines


def _overlap(spans: list[tuple[float, float]], roots: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The parts of `spans` inside `roots` (both sorted, disjoint)."""
    out = []
    for a, b in spans:
        for r0, r1 in roots:
            lo, hi = max(a, r0), min(b, r1)
            if lo < hi:
                out.append((lo, hi))
    return out


def paused_note(times: Mapping[str, Any]) -> str:
    """`paused 28.9 s` where time spent paused in tcdebug was left out of the phases, else ""."""
    paused = float(times.get("paused_s") or 0.0)
    return f"paused {paused:.1f} s" if paused > 0 else ""


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


_decode_json = json.JSONDecoder().decode  # json.loads on a str, without its argument checks


def parse_event(payload: str | None) -> dict[str, Any] | None:
    try:
        value = _decode_json(payload or "")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def wall_from_metrics(metrics: dict[str, Any]) -> float:
    """`phases_from_metrics(metrics)["wall_s"]` (0.0 where it is empty), without the phases."""
    for key in ("dynamo_cumulative_compile_time_us", "duration_us"):
        value = metrics.get(key)
        if isinstance(value, (int, float)) and value:
            return round(float(value) / 1e6, 6)
    return 0.0


def phases_from_metrics(metrics: dict[str, Any]) -> dict[str, Any]:
    """Coarser phases inferred from a compile's `compilation_metrics` (cumulative, nested times).

    dynamo ⊃ backend (AOTAutograd) ⊃ inductor ⊃ inductor codegen ⊃ Triton/C++ compile.
    """

    def us(key: str) -> float:
        value = metrics.get(key)
        return float(value) if isinstance(value, (int, float)) else 0.0

    wall = us("dynamo_cumulative_compile_time_us") or us("duration_us")
    if not wall:
        return {}
    aot = us("aot_autograd_cumulative_compile_time_us")
    inductor = us("inductor_cumulative_compile_time_us")
    codegen = us("inductor_code_gen_cumulative_compile_time_us")
    native = min(us("triton_compile_time_us"), codegen) if codegen else 0.0
    passes = us("pre_grad_pass_time_us") + us("post_grad_pass_time_us") + us("joint_graph_pass_time_us")
    parts = {
        "Dynamo tracing": wall - aot if aot else wall,
        "AOTAutograd": max(0.0, aot - inductor - passes) if aot else 0.0,
        "FX passes": passes,
        "Inductor lowering": max(0.0, inductor - codegen) if inductor else 0.0,
        "Codegen": max(0.0, codegen - native),
        "C++/Triton compile": native,
    }
    phases = {p: round(v / 1e6, 6) for p, v in parts.items() if v > 0}
    return {
        "wall_s": round(wall / 1e6, 6),
        "measured_s": round(sum(phases.values()), 6),
        "phases": phases,
        "source": "inferred from compilation_metrics (cumulative times)",
    }


def run_totals(times: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The whole run: each phase summed over compiles."""
    phases: dict[str, float] = {}
    wall = paused = 0.0
    for t in times:
        wall += float(t.get("wall_s") or 0.0)
        paused += float(t.get("paused_s") or 0.0)
        for p, s in (t.get("phases") or {}).items():
            phases[p] = phases.get(p, 0.0) + float(s)
    ordered = {p: round(phases[p], 6) for p in PHASES if p in phases}
    ordered.update({p: round(s, 6) for p, s in phases.items() if p not in ordered})
    out: dict[str, Any] = {"wall_s": round(wall, 6), "phases": ordered}
    if paused > 0:
        out["paused_s"] = round(paused, 6)
    return out


def bar_lines(times: Mapping[str, Any], *, width: int = 30, indent: str = "  ") -> list[str]:
    """Text bars: one line per phase, `label  ████▌  1.23s  45%`."""
    phases: dict[str, float] = times.get("phases") or {}
    wall = float(times.get("wall_s") or 0.0) or sum(phases.values())
    if not phases or wall <= 0:
        return []
    labels = {p: p + (" (inferred)" if p == OTHER else "") for p in phases}
    label_w = max(len(label) for label in labels.values())
    lines = []
    for phase, secs in phases.items():
        share = secs / wall
        lines.append(f"{indent}{labels[phase]:<{label_w}} {text_bar(share, width)} {secs:8.3f}s {share * 100:5.1f}%")
    return lines


_EIGHTHS = " ▏▎▍▌▋▊▉"


def text_bar(share: float, width: int) -> str:
    """A bar of `width` cells filled to `share` (0..1), in eighths of a cell."""
    share = min(max(share, 0.0), 1.0)
    eighths = round(share * width * 8)
    full, rest = divmod(eighths, 8)
    bar = "█" * full + (_EIGHTHS[rest] if rest else "")
    return bar.ljust(width)
