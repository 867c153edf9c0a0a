"""GPU capture overhead: `tcdebug --dump` against plain `python` on CUDA, cold compiles.

Runs where CUDA is (skips elsewhere): `scripts/gpt2_train.py` (a 2-layer HF GPT-2 from a
config, `mode="reduce-overhead"`: CUDA graphs, 3 training steps) and `samples/transformer_block.py`.
The same harness as `capture_overhead.py` (caches off, a fresh Inductor cache folder per run,
the variants' order rotating every round), `--rounds N` (default 5).

On the GPU box: `python benchmarks/gpu_overhead.py --rounds 5`; `--attribute` adds tcdebug runs
with groups of capture units switched off (`$TCDEBUG_SKIP_UNITS`), to see what costs the time.
`--script NAME` keeps one script (repeatable). `--serial-compile` runs every variant with
`TORCHINDUCTOR_COMPILE_THREADS=1`. `--side-by-side` starts python and tcdebug together each round,
each on its own half of the CPUs (whole cores; the halves swap every round), so that whatever slows
the box at that moment slows both. `--quick` checks the harness with a one-op compile, on the CPU
when there is no CUDA.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from capture_overhead import (
    TINY,
    build_section,
    chosen_scripts,
    cpu_halves,
    measure,
    run_once,
    run_parser,
    side_by_side_note,
)
from common import BENCH, SAMPLES, Section, finish

SCRIPTS = (
    BENCH / "scripts" / "gpt2_train.py",
    BENCH / "scripts" / "gpt2_train_pool_ready.py",
    SAMPLES / "transformer_block.py",
)
VARIANTS = ("python", "tcdebug --dump")
# --attribute: tcdebug with one group of capture units off each (TCDEBUG_SKIP_UNITS), to see
# which part of the capture costs the time on the GPU
ATTRIBUTE = (
    "tcdebug --dump -cudagraph",
    "tcdebug --dump -triton_info -autotune",
    "tcdebug --dump -provenance -guard_provenance",
    "tcdebug --dump -kernel_source -inductor_ir -inductor_graph",
)
TARGET_RATIO = 1.03
COMPILE_THREADS = "TORCHINDUCTOR_COMPILE_THREADS"


def cuda_device() -> str | None:
    """The CUDA device's name, from a child (this process never imports torch), or None."""
    try:
        out = subprocess.run(
            [sys.executable, "-c", "import torch; print(torch.cuda.get_device_name() if torch.cuda.is_available() else '')"],
            capture_output=True,
            text=True,
            timeout=300,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return out.splitlines()[-1] if out else None


def main(argv: Sequence[str] | None = None) -> int:
    parser = run_parser(__doc__.splitlines()[0])
    parser.add_argument(
        "--attribute", action="store_true", help="also tcdebug with groups of capture units off (slower)"
    )
    parser.add_argument(
        "--warmup",
        type=int,
        default=1,
        help="untimed plain runs of each script first (default 1): a fresh box reads torch, Triton "
        "and ptxas from a cold disk on the first run, which would flatter every later variant",
    )
    parser.add_argument(
        "--variant",
        action="append",
        metavar="V",
        help="measure these variants instead (repeatable): `python`, `tcdebug --dump`, "
        "`tcdebug --dump -UNIT -UNIT` (units off), `tcdebug --dump -*` (every unit off), `tcdebug --dump -* -trace` (and no trace handler), "
        "`tcdebug --dump -* -trace_filter` (every unit off, every trace record built), "
        "`TORCH_TRACE=dir`, `TORCH_COMPILE_DEBUG=1`",
    )
    parser.add_argument(
        "--serial-compile",
        action="store_true",
        help="every variant with TORCHINDUCTOR_COMPILE_THREADS=1: Inductor compiles every Triton kernel "
        "in the script's process, so no run depends on when its pool of compile workers is ready",
    )
    parser.add_argument(
        "--side-by-side",
        action="store_true",
        help="start python and tcdebug together each round, each pinned to half of the CPUs (halves swap "
        "every round): both runs meet the box in the same state",
    )
    ns = parser.parse_args(argv)
    if ns.side_by_side and (ns.attribute or len(set(ns.variant or ()) - {"python"}) > 1):
        parser.error("--side-by-side measures python against one other variant (one --variant, no --attribute)")
    scripts = chosen_scripts(SCRIPTS, ns.script)
    if ns.serial_compile:
        os.environ[COMPILE_THREADS] = "1"  # every variant's environment starts from this one
    device = cuda_device()
    if ns.quick and ns.side_by_side:
        section = build_section(measure((TINY,), 2, VARIANTS, cpu_sets=cpu_halves()), 2, target=TARGET_RATIO)
        section.title = f"GPU capture overhead (--quick --side-by-side: harness check on {device or 'the CPU, no CUDA'})"
        return finish(with_setup_notes(section, ns), ns.json)
    if ns.quick:
        section = build_section(measure((TINY,), 1, (*VARIANTS, ATTRIBUTE[0])), 1, target=TARGET_RATIO)
        section.title = f"GPU capture overhead (--quick: harness check on {device or 'the CPU, no CUDA'})"
        return finish(with_setup_notes(section, ns), ns.json)
    if device is None:
        section = Section("GPU capture overhead", ["result"], rows=[["skipped: no CUDA device here"]])
        section.checks["a CUDA device to measure on"] = False
        return finish(section, ns.json)
    rounds = max(ns.rounds, 1)
    variants = tuple(ns.variant) if ns.variant else VARIANTS + (ATTRIBUTE if ns.attribute else ())
    if "python" not in variants:
        variants = ("python", *variants)  # the ratios are to plain python
    for script in scripts:
        for _ in range(max(ns.warmup, 0)):
            run_once("python", script)
    partial = Path(ns.json).with_suffix(".partial.json") if ns.json else None
    if ns.side_by_side:
        section = build_section(measure(scripts, rounds, variants, partial, cpu_halves()), rounds, target=TARGET_RATIO)
        section.title = f"GPU capture overhead on {device} (cold compiles, median of {rounds} side-by-side rounds)"
    else:
        section = build_section(measure(scripts, rounds, variants, partial), rounds, target=TARGET_RATIO)
        section.title = f"GPU capture overhead on {device} (cold compiles, median of {rounds} rotating rounds)"
    if ns.warmup > 0:
        section.notes.append(f"{ns.warmup} untimed plain run(s) of each script first (cold disk on a fresh box)")
    return finish(with_setup_notes(section, ns), ns.json)


def with_setup_notes(section: Section, ns: argparse.Namespace) -> Section:
    if ns.side_by_side:
        section.notes.append(side_by_side_note(cpu_halves()))
    if ns.serial_compile:
        section.notes.append(
            f"{COMPILE_THREADS}={os.environ.get(COMPILE_THREADS)} for every variant (--serial-compile): "
            "no pool of compile workers"
        )
    return section


if __name__ == "__main__":
    sys.exit(main())
