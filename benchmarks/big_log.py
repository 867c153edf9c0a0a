"""Big TORCH_TRACE logs: `tcdebug open LOG` in the app and `open --dump`, against tlparse.

A big log is a real recorded one (`tests/data/traces/graph_breaks`, 1.3 MB, 4 compiles) copied
many times, each copy's frame ids shifted so every copy holds distinct compiles (`F/C` keys).
The logs are made once into the gitignored `benchmarks/.cache/`.

Measured, each in a fresh process: the app (through the pilot, 120x40) from start to the first
compile shown and to "reading…" gone, and its peak RSS; in a second run, key presses (timeline
↓/↑, press to painted frame) while it reads; `tcdebug open LOG --dump OUT`; `tlparse LOG` when
it is installed; those two run in pairs, `PAIRS` times (which goes first alternates; no output
deleted before the last pair), and the ratio is the median of the pairs'.
`--sizes 117` (or `117,1024`) measures only those logs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from common import (
    CACHE,
    ROOT,
    Section,
    byte_compile_tcdebug,
    finish,
    median,
    ms,
    parse_args,
    percentile,
    secs,
)

SEED = ROOT / "tests" / "data" / "traces" / "graph_breaks"
SIZE = (120, 40)
TARGETS = {  # log size in MB -> (first compile s, fully loaded s)
    117: (1.0, 2.0),
    1024: (1.0, 15.0),
}
TARGET_RSS_MB = 300
TARGET_P95_S = 0.050
FRAME = re.compile(rb'"frame_id": (\d+)')
COMPILE_ID = re.compile(rb'"compile_id": "(\d+)/')


def seed_log() -> Path:
    return next(SEED.glob("*.log"))


def make_big_log(path: Path, megabytes: int) -> int:
    """Write a log of about `megabytes` MB; returns the number of copies of the seed log."""
    seed = seed_log().read_bytes()
    frames = [int(m) for m in FRAME.findall(seed)]
    step = max(frames, default=0) + 1
    lines = seed.splitlines(keepends=True)
    copies = max(1, round(megabytes * 1024 * 1024 / len(seed)))
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        for n in range(copies):
            shift = n * step

            def frame(m: re.Match[bytes], shift: int = shift) -> bytes:
                return b'"frame_id": %d' % (int(m.group(1)) + shift)

            def cid(m: re.Match[bytes], shift: int = shift) -> bytes:
                return b'"compile_id": "%d/' % (int(m.group(1)) + shift)

            out.write(b"".join(COMPILE_ID.sub(cid, FRAME.sub(frame, line)) for line in lines))
    return copies


def cached_log(megabytes: int) -> tuple[Path, int]:
    """The log of about `megabytes` MB, made once; (path, copies of the seed log in it)."""
    path = CACHE / f"big-{megabytes}mb.log"
    copies = max(1, round(megabytes * 1024 * 1024 / seed_log().stat().st_size))
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        make_big_log(tmp, megabytes)
        tmp.rename(path)
    return path, copies


def seed_compiles() -> int:
    from tcdebug.trace import load_log

    return len(load_log(seed_log()).compiles)


# ----- the child: the app reading the log ------------------------------------------------------
async def drive_app(log: Path, presses: int) -> dict[str, Any]:
    from ui_harness import render_frames_fully, timed_press

    from tcdebug.screens.app import TcdebugApp
    from tcdebug.trace import new_trace_session

    start = time.perf_counter()
    app = TcdebugApp(new_trace_session(log), read_only=True, stream_trace=str(log))
    app.owns_process = True  # as `tcdebug` runs it: its own process
    first = loaded = None
    times: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        render_frames_fully(app)
        timeline = app.main_screen.timeline
        while time.perf_counter() - start < 300:
            if first is None and app.session.compiles and timeline.refs():
                first = time.perf_counter() - start
                timeline.focus()
            if not app.session.extra.get("recorded_state"):
                loaded = time.perf_counter() - start
                break
            if first is not None and len(times) < presses:
                key = "down" if len(times) % 2 == 0 else "up"
                times.append(await timed_press(pilot, key))
                await asyncio.sleep(0.02)
            else:
                await asyncio.sleep(0.005)
        compiles = len(app.session.compiles)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"first_s": first, "loaded_s": loaded, "press_s": times, "rss_mb": rss_mb, "compiles": compiles}


def child_main(log: str, presses: int, out: str) -> int:
    result = asyncio.run(drive_app(Path(log), presses))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    result["ui_cpu_s"] = usage.ru_utime + usage.ru_stime  # less sensitive to a loaded machine than wall time
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)  # the log's reader processes, when it has them
    result["cpu_s"] = result["ui_cpu_s"] + kids.ru_utime + kids.ru_stime
    Path(out).write_text(json.dumps(result))
    return 0


PAIRS = 3  # `open --dump` and tlparse, one after the other, this many times
# No output is deleted until every pair of a log has run, and then the disk is left alone this
# long: this host's disk is mounted with `discard`, and after thousands of files are deleted,
# creating files is slow for a while (the 122 MB log's `open --dump`, 1.5 s settled: 3.0 s right
# after deleting earlier outputs, 2.0 s 15 s later). Deleting between the runs made whichever ran
# after a deletion pay for it.
SETTLE_S = 30.0


class Pair(NamedTuple):
    """One pair of runs on a log: (seconds, exit code, CPU seconds) of `open --dump` and of tlparse."""

    dump_s: float
    dump_rc: int
    dump_cpu_s: float
    tlparse_s: float = 1.0
    tlparse_rc: int = 0
    tlparse_cpu_s: float = 1.0


def dump_and_tlparse(log: Path, tlparse: str | None, into: Path, n: int) -> Pair:
    """`open --dump` and tlparse on `log` into fresh folders of `into`, back to back (the host's
    disk, which moves both, moves them alike; pair `n` even: `open --dump` first); tlparse's
    fields keep their defaults when it is not installed."""

    def run(cmd: list[str]) -> tuple[float, int, float]:
        took, _, rc, cpu = timed_command(cmd)
        return took, rc, cpu

    dump_cmd = [sys.executable, "-m", "tcdebug", "open", str(log), "--dump", str(into / f"dump{n}")]
    if not tlparse:
        return Pair(*run(dump_cmd))
    tl_cmd = [tlparse, str(log), "-o", str(into / f"tlparse{n}"), "--overwrite", "--no-browser"]
    if n % 2 == 0:
        dump = run(dump_cmd)
        return Pair(*dump, *run(tl_cmd))
    tl = run(tl_cmd)
    return Pair(*run(dump_cmd), *tl)


def _of(pairs: list[Pair]) -> str:
    return f", median of {len(pairs)}" if len(pairs) > 1 else ""


def run_app(log: Path, presses: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.json"
        proc = subprocess.run(
            [sys.executable, __file__, "--child", str(log), str(presses), str(out)],
            capture_output=True,
            text=True,
            timeout=900,
        )
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"the app on {log.name} failed:\n{proc.stderr[-3000:]}")
        return json.loads(out.read_text())


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_command(cmd: Sequence[str]) -> tuple[float, float, int, float]:
    """(seconds, peak RSS MB of the children, return code, CPU seconds (user + sys) it used).
    The disk is synced first: a dump's or tlparse's output still being written back made the
    next command's system time vary from 0.2 to 2.5 s on the shared disk."""
    os.sync()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    cpu = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, timeout=1800)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return took, max(after, before) / 1024, proc.returncode, _children_cpu() - cpu


def _sizes(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of sizes in MB: {text!r}") from None


def _sizes_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sizes",
        type=_sizes,
        metavar="MB[,MB]",
        help=f"measure only the logs of these sizes, in MB (default: {','.join(map(str, TARGETS))})",
    )


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "--child":
        return child_main(argv[1], int(argv[2]), argv[3])
    byte_compile_tcdebug()
    ns = parse_args(__doc__.splitlines()[0], argv, extra=_sizes_option)
    sizes = [4] if ns.quick else (ns.sizes or list(TARGETS))
    presses = 4 if ns.quick else 40
    section = Section(
        title="Big logs: TORCH_TRACE logs in the app and `open --dump`",
        header=["log", "measure", "value"],
    )
    tlparse = shutil.which("tlparse") or (
        str(Path(sys.executable).parent / "tlparse")
        if (Path(sys.executable).parent / "tlparse").exists()
        else None
    )
    for mb in sizes:
        log, copies = cached_log(mb)
        name = f"{log.stat().st_size / 1e6:.0f} MB"
        per_mb = 1000 / (log.stat().st_size / 1e6)  # seconds -> ms per MB
        app = run_app(log, 0)  # the load alone
        app["press_s"] = run_app(log, presses)["press_s"]  # key presses while it loads
        p95 = percentile(app["press_s"], 95) if app["press_s"] else float("nan")
        rows = [
            ["compiles", str(app["compiles"])],
            ["app: first compile shown", secs(app["first_s"]) if app["first_s"] is not None else "never"],
            ["app: fully loaded (reading… gone)", secs(app["loaded_s"]) if app["loaded_s"] else "not in 300 s"],
            ["app: peak RSS", f"{app['rss_mb']:.0f} MB"],
            ["app: CPU (user + sys, with its reader processes) to fully loaded, per MB", f"{app['cpu_s'] * per_mb:.1f} ms"],
            ["app: CPU of the UI process alone, per MB", f"{app.get('ui_cpu_s', app['cpu_s']) * per_mb:.1f} ms"],
            [
                f"app: key press while reading, p50 / p95 / max (n={len(app['press_s'])})",
                " / ".join(ms(f(app["press_s"])) for f in (median, lambda v: percentile(v, 95), max))
                if app["press_s"]
                else "none (loaded first)",
            ],
        ]
        with tempfile.TemporaryDirectory() as tmp:
            pairs = [dump_and_tlparse(log, tlparse, Path(tmp), n) for n in range(1 if ns.quick else PAIRS)]
        if not ns.quick:  # the outputs deleted: let the disk settle before the next log
            os.sync()
            time.sleep(SETTLE_S)
        took, cpu = median([p.dump_s for p in pairs]), median([p.dump_cpu_s for p in pairs])
        rc = max((p.dump_rc for p in pairs), key=abs)  # any failure shows
        rows.append(["`open --dump`" + _of(pairs), secs(took) + ("" if rc == 0 else f" (exit {rc:.0f})")])
        rows.append(["`open --dump` CPU (user + sys), per MB", f"{cpu * per_mb:.1f} ms"])
        section.data[f"{mb}mb"] = {**app, "open_dump_s": took, "open_dump_cpu_s": cpu, "pairs": [p._asdict() for p in pairs]}
        if tlparse:
            t_took, t_cpu = median([p.tlparse_s for p in pairs]), median([p.tlparse_cpu_s for p in pairs])
            t_rc = max((p.tlparse_rc for p in pairs), key=abs)
            ratios = [p.dump_s / p.tlparse_s for p in pairs]
            ratio = median(ratios)
            rows.append(["tlparse" + _of(pairs), secs(t_took) + ("" if t_rc == 0 else f" (exit {t_rc:.0f})")])
            rows.append(["tlparse CPU (user + sys), per MB", f"{t_cpu * per_mb:.1f} ms"])
            each = ", ".join(f"{r:.2f}" for r in ratios)
            rows.append(["`open --dump` / tlparse, median of the pairs (each pair)", f"{ratio:.2f} ({each})"])
            rows.append(["`open --dump` / tlparse, CPU", f"{cpu / t_cpu:.2f}"])
            section.data[f"{mb}mb"].update(tlparse_s=t_took, tlparse_cpu_s=t_cpu)
            if not ns.quick:
                section.checks[f"{name}: open --dump <= 1/3 of tlparse"] = ratio <= 1 / 3
        section.rows += [[name, *row] for row in rows]
        section.checks[f"{name}: the app loaded every compile"] = app["compiles"] == copies * seed_compiles()
        if not ns.quick:
            first_target, loaded_target = TARGETS.get(mb, (1.0, 15.0))
            section.checks[f"{name}: first compile <= {first_target:.0f} s"] = (
                app["first_s"] is not None and app["first_s"] <= first_target
            )
            section.checks[f"{name}: fully loaded <= {loaded_target:.0f} s"] = (
                app["loaded_s"] is not None and app["loaded_s"] <= loaded_target
            )
            if mb >= 1024:
                section.checks[f"{name}: UI RSS <= {TARGET_RSS_MB} MB"] = app["rss_mb"] <= TARGET_RSS_MB
                section.checks[f"{name}: key press p95 <= 50 ms while reading"] = (
                    not app["press_s"] or p95 <= TARGET_P95_S
                )
    section.notes.append(
        f"logs: {seed_log().relative_to(ROOT)} copied with shifted frame ids, cached in benchmarks/.cache/"
    )
    if not tlparse:
        section.notes.append("tlparse not installed: its rows are skipped")
    return finish(section, ns.json)


if __name__ == "__main__":
    sys.exit(main())
