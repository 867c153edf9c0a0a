"""Runs every benchmark and writes the run's tables to `--out` (by default
`benchmarks/.cache/last-run/RESULTS.md`); `benchmarks/RESULTS.md` keeps one table of the latest figures.

`python benchmarks/run_all.py [--quick] [--only NAME ...] [--out PATH]`

Each benchmark runs in its own process (UI start and memory need a fresh one). `--quick`
makes every one tiny: it checks that they work, the numbers mean little.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from common import BENCH, CACHE, load_average, machine, table

BENCHMARKS = ("capture_overhead", "capture_instructions", "ui_start", "stage_latency", "memory_scale", "big_log", "small_logs", "live_latency", "gpu_overhead", "big_output", "app_scale", "scale_compiles")


def run_benchmark(name: str, quick: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.json"
        cmd = [sys.executable, str(BENCH / f"{name}.py"), "--json", str(out), *(["--quick"] if quick else [])]
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        took = time.perf_counter() - start
        (CACHE / "last-run").mkdir(parents=True, exist_ok=True)
        (CACHE / "last-run" / f"{name}.log").write_text(proc.stdout + proc.stderr)
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"{name} failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
        result = json.loads(out.read_text())
    result["took_s"] = took
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny runs: check that every benchmark works")
    parser.add_argument("--only", nargs="+", choices=BENCHMARKS, help="run only these")
    parser.add_argument(
        "--out", default=str(BENCH / ".cache" / "last-run" / "RESULTS.md"), help="where to write the markdown"
    )
    ns = parser.parse_args(argv)
    facts = machine()
    load_before = load_average()
    started = time.strftime("%Y-%m-%d %H:%M")
    results = []
    for name in ns.only or BENCHMARKS:
        print(f"running {name}{' (quick)' if ns.quick else ''}…", file=sys.stderr, flush=True)
        try:
            results.append(run_benchmark(name, ns.quick))
        except (RuntimeError, subprocess.SubprocessError) as exc:  # report it, keep the others
            print(exc, file=sys.stderr)
            message = str(exc).strip().splitlines()[-1]
            results.append(
                {
                    "title": name,
                    "markdown": f"### {name}\n\nFAILED: {message}\n",
                    "checks": {"ran": False},
                    "took_s": 0,
                }
            )
    load_after = load_average()
    lines = [
        "## Benchmarks",
        "",
        f"`python benchmarks/run_all.py{' --quick' if ns.quick else ''}`, {started}"
        + (" (**--quick: smoke run, numbers not meaningful**)" if ns.quick else ""),
        "",
        table(
            ["machine", "value"],
            [
                ["CPU", f"{facts['cpu']} ({facts['cores']} cores)"],
                ["OS", facts["os"]],
                ["Python / torch / textual", f"{facts['python']} / {facts['torch']} / {facts['textual']}"],
                ["load average (1, 5, 15 min) before / after", f"{load_before} / {load_after}"],
            ],
        ),
        "",
        "### Targets",
        "",
        table(
            ["benchmark", "target", "result"],
            [
                [r["title"].split(":")[0], name, "met" if ok else "**missed**"]
                for r in results
                for name, ok in r["checks"].items()
            ],
        ),
        "",
    ]
    for r in results:
        lines += [r["markdown"], f"_(ran in {r['took_s']:.0f} s)_", ""]
    Path(ns.out).write_text("\n".join(lines))
    print("\n".join(lines))
    print(f"wrote {ns.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
