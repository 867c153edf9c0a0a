"""Memory and scale: a session of ~200 compiles (50 graph breaks x 4 shapes) open in the app.

`scripts/many_breaks.py` runs once under `tcdebug --dump` (the dump is kept in the gitignored
`benchmarks/.cache/`); a fresh Python process then opens it in the app through the pilot,
times timeline moves and stage switches with it open, and reports its peak RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from common import (
    BENCH,
    CACHE,
    Section,
    byte_compile_tcdebug,
    child_result,
    finish,
    latency_row,
    ms,
    percentile,
    secs,
)

SCRIPT = BENCH / "scripts" / "many_breaks.py"
TARGET_RSS_MB = 200
TARGET_P95_S = 0.050
SIZE = (120, 40)


def cached_dump(breaks: int, shapes: int) -> tuple[Path, float | None]:
    """The dump of many_breaks.py, made once; (folder, seconds it took, None if cached)."""
    out = CACHE / f"many_breaks-{breaks}x{shapes}"
    if (out / "session.json").exists():
        return out, None
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="many_breaks-", dir=CACHE))
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "tcdebug", "--dump", str(tmp / "dump"), str(SCRIPT), str(breaks), str(shapes)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    took = time.perf_counter() - start
    if proc.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise RuntimeError(f"tcdebug --dump many_breaks.py failed:\n{proc.stderr[-3000:]}")
    (tmp / "dump").rename(out)
    shutil.rmtree(tmp, ignore_errors=True)
    return out, took


# ----- the child: opens the dump in the app -----------------------------------------------
async def drive_app(dump: Path, samples: int) -> dict[str, Any]:
    from ui_harness import render_frames_fully, settle, timed_call, timed_press

    from tcdebug.dump.loader import load_dump
    from tcdebug.screens.app import TcdebugApp

    start = time.perf_counter()
    session = load_dump(dump)
    load_s = time.perf_counter() - start
    app = TcdebugApp(session, read_only=True)
    app.owns_process = True  # as `tcdebug` runs it: its own process
    times: dict[str, list[float]] = {"move": [], "jump": [], "collapse": [], "expand": [], "refresh": []}
    start = time.perf_counter()
    async with app.run_test(size=SIZE) as pilot:
        render_frames_fully(app)
        await settle(pilot)
        mount_s = time.perf_counter() - start
        main = app.main_screen
        timeline = main.timeline
        rows = len(timeline.refs())
        timeline.focus()
        await settle(pilot)
        for _ in range(samples):
            index = timeline.highlighted
            times["move"].append(await timed_press(pilot, "down", lambda: timeline.highlighted == index + 1))  # noqa: B023
        stages = [ref for ref in timeline.refs() if ref.is_stage]
        step = max(1, len(stages) // samples)
        for ref in stages[len(stages) // 2 :: step][:samples] + stages[::step][:samples]:
            times["jump"].append(await timed_call(pilot, lambda: app.jump_to(ref)))  # noqa: B023
            assert main.selected == ref, f"jump to {ref} did not show it"
        # Expanding a kernel_source stage into its kernels rebuilds the timeline's rows.
        with_kernels = [ref for ref in stages if session.stage(ref.compile_id, ref.key).kernels]  # type: ignore[union-attr]
        for ref in with_kernels[:: max(1, len(with_kernels) // samples)][:samples]:
            app.jump_to(ref)
            timeline.focus()
            await settle(pilot)
            opened = (ref.compile_id, ref.key)
            times["expand"].append(
                await timed_press(pilot, "right", lambda: opened in timeline.expanded_kernels)  # noqa: B023
            )
            times["collapse"].append(
                await timed_press(pilot, "left", lambda: opened not in timeline.expanded_kernels)  # noqa: B023
            )
        for _ in range(samples):
            times["refresh"].append(await timed_call(pilot, main.refresh_session))
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "compiles": len(session.compiles),
        "stages": sum(len(c.stages) for c in session.compiles.values()),
        "rows": rows,
        "load_s": load_s,
        "mount_s": mount_s,
        "times": times,
        "peak_rss_mb": peak_kb / 1024,
        "torch_imported": "torch" in sys.modules,
    }


def child_main(dump: Path, samples: int) -> int:
    result = asyncio.run(drive_app(dump, samples))
    print("RESULT " + json.dumps(result))
    return 0


# ----- the parent ---------------------------------------------------------------------
def open_in_app(dump: Path, samples: int) -> dict[str, Any]:
    return child_result(__file__, [str(dump), "--samples", str(samples)], timeout=900)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", metavar="PATH")
    parser.add_argument("--child", metavar="DUMP", help=argparse.SUPPRESS)
    parser.add_argument("--samples", type=int, default=40, help=argparse.SUPPRESS)
    ns = parser.parse_args(argv)
    if ns.child:
        return child_main(Path(ns.child), ns.samples)
    byte_compile_tcdebug()
    breaks, shapes, samples = (2, 2, 5) if ns.quick else (50, 4, 40)
    dump, dump_s = cached_dump(breaks, shapes)
    result = open_in_app(dump, samples)
    times = result["times"]
    section = Section(
        f"Memory and scale: {result['compiles']} compiles, {result['stages']} stages, "
        f"{result['rows']} timeline rows open in the app",
        ["measure", "n", "p50", "p95", "max"],
    )
    section.rows += [
        ["peak RSS of the UI process", "1", f"{result['peak_rss_mb']:.0f} MB", "", ""],
        ["load the dump (`load_dump`)", "1", ms(result["load_s"]), "", ""],
        ["open the app to the first painted frame (in process)", "1", ms(result["mount_s"]), "", ""],
        latency_row("timeline move (↓)", times["move"]),
        latency_row("stage switch (jump to a far stage)", times["jump"]),
        latency_row("expand a stage's kernels (→, rebuilds the rows)", times["expand"]),
        latency_row("collapse them again (←)", times["collapse"]),
        latency_row("session refresh (per live event)", times["refresh"]),
    ]
    section.checks[f"peak RSS <= {TARGET_RSS_MB} MB"] = result["peak_rss_mb"] <= TARGET_RSS_MB
    worst = max(percentile(v, 95) for v in times.values())
    section.checks[f"every action p95 <= {TARGET_P95_S * 1000:.0f} ms"] = worst <= TARGET_P95_S
    section.checks["no torch in the UI process"] = not result["torch_imported"]
    section.notes.append(
        f"dump: `benchmarks/scripts/many_breaks.py {breaks} {shapes}` under `tcdebug --dump`, "
        + (f"made in {secs(dump_s)}" if dump_s is not None else "cached in benchmarks/.cache/")
    )
    section.data = result | {"dump_s": dump_s}
    return finish(section, ns.json)


if __name__ == "__main__":
    sys.exit(main())
