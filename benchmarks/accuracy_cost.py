"""What `--accuracy` costs on the GPT-2 corpus model (benchmarks/scripts/gpt2_corpus.py: HF GPT-2
from a tiny config, training, one compiled forward and backward).

Runs `tcdebug --dump OUT SCRIPT` and `tcdebug --accuracy --dump OUT SCRIPT` in turn, `--rounds` times,
and prints the median wall time of each, the peak RSS of the largest process (the script's), the time
the comparisons themselves took (their `elapsed_s`) and the bytes of inputs kept.

`python benchmarks/accuracy_cost.py [--rounds N]`
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
SCRIPT = BENCH / "scripts" / "gpt2_corpus.py"
# Runs one command and prints the peak RSS (KiB) of its largest waited-for descendant.
_MEASURE = (
    "import resource, subprocess, sys; rc = subprocess.run(sys.argv[1:]).returncode; "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(rc)"
)


def one_run(accuracy: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        flags = ["--accuracy"] if accuracy else []
        argv = [
            sys.executable,
            "-c",
            _MEASURE,
            sys.executable,
            "-m",
            "tcdebug",
            *flags,
            "--dump",
            str(out),
            str(SCRIPT),
        ]
        start = time.monotonic()
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
        wall = time.monotonic() - start
        if proc.returncode != 0:
            raise SystemExit(f"tcdebug failed: {proc.stderr[-500:]}")
        rss_kib = int(proc.stderr.strip().splitlines()[-1])
        index = json.loads((out / "session.json").read_text())
        accs = [c["accuracy"] for c in index["compiles"] if c.get("accuracy")]
        return {
            "wall_s": wall,
            "rss_mb": rss_kib / 1024,
            "compare_s": sum(a["elapsed_s"] for a in accs),
            "kept_kb": sum(a.get("kept_bytes", 0) for a in accs) / 1024,
            "diverged": sum(a["status"] != "same" for a in accs if a["status"] != "not_comparable"),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    ns = parser.parse_args()
    runs: dict[bool, list[dict[str, float]]] = {False: [], True: []}
    for _ in range(ns.rounds):
        for accuracy in (False, True):
            runs[accuracy].append(one_run(accuracy))
    for accuracy, results in runs.items():
        med = {k: statistics.median(r[k] for r in results) for k in results[0]}
        name = "--accuracy --dump" if accuracy else "--dump"
        print(
            f"{name:<18} wall {med['wall_s']:.1f} s  peak RSS {med['rss_mb']:.0f} MB  "
            f"comparisons {med['compare_s']:.1f} s  kept inputs {med['kept_kb']:.0f} KiB  diverged {med['diverged']:.0f}"
        )


if __name__ == "__main__":
    main()
