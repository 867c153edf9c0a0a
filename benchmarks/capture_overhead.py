"""Capture overhead: `tcdebug --dump` against plain `python`, and torch's own debug switches.

Every run is a cold compile: Inductor and AOTAutograd caches off, a fresh Inductor cache
folder, PGO off, the same environment for every variant. Variants run in rotating order
within each round, so load on the machine hits all of them alike. Two times per run: the
whole process (what the user waits for: tcdebug's parent, the dump writing) and the
script body (`timed_script.py`: the compiles and runs, with the hooks' own overhead).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from common import BENCH, SAMPLES, Section, byte_compile_tcdebug, finish, median, secs

TIMED = BENCH / "timed_script.py"
SCRIPTS = (SAMPLES / "mlp.py", SAMPLES / "transformer_block.py", BENCH / "scripts" / "gpt2_train.py")
TINY = BENCH / "scripts" / "tiny.py"
VARIANTS = ("python", "tcdebug --dump", "TORCH_COMPILE_DEBUG=1", "TORCH_TRACE=dir")
TARGET_RATIO = 1.03


def base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TORCH_TRACE", "TORCH_COMPILE_DEBUG"))}
    env.update(
        TORCHINDUCTOR_FORCE_DISABLE_CACHES="1",
        TORCH_DYNAMO_AUTOMATIC_DYNAMIC_LOCAL_PGO="0",
        PYTHONUNBUFFERED="1",
    )
    return env


def command(variant: str, script: Path, work: Path) -> tuple[list[str], dict[str, str]]:
    env = base_env()
    env["TORCHINDUCTOR_CACHE_DIR"] = str(work / "inductor-cache")  # fresh: nothing compiled before
    env["TCDEBUG_BENCH_TIMING"] = str(work / "timing.txt")
    timed = [str(TIMED), str(script)]
    if variant.startswith("tcdebug --dump"):  # "tcdebug --dump -cudagraph -triton_info": units off
        skip = [word[1:] for word in variant.split()[2:] if word.startswith("-")]
        if skip:
            env["TCDEBUG_SKIP_UNITS"] = ",".join(skip)
        return [sys.executable, "-m", "tcdebug", "--dump", str(work / "dump"), *timed], env
    if variant == "TORCH_COMPILE_DEBUG=1":
        env["TORCH_COMPILE_DEBUG"] = "1"  # writes ./torch_compile_debug/ under the run's cwd
    elif variant == "TORCH_TRACE=dir":
        env["TORCH_TRACE"] = str(work / "trace")
    return [sys.executable, *timed], env


def pinned(cmd: list[str], cpus: Sequence[int]) -> list[str]:
    """`cmd` run on these CPUs only: a trampoline sets the affinity and execs it, so the process
    and everything it starts (compile workers, tcdebug's target) inherit it from the start."""
    cpu_set = ", ".join(str(c) for c in cpus)
    code = f"import os, sys; os.sched_setaffinity(0, {{{cpu_set}}}); os.execv(sys.argv[1], sys.argv[1:])"
    return [sys.executable, "-c", code, *cmd]


def run_once(variant: str, script: Path, cpus: Sequence[int] = ()) -> tuple[float, float, float, float]:
    """Seconds of one cold run: (whole process, launch to script end, script body, script
    process CPU). With `cpus`, the run is pinned to those CPUs."""
    with tempfile.TemporaryDirectory(prefix="tcdebug-bench-") as tmp:
        work = Path(tmp)
        cmd, env = command(variant, script, work)
        if cpus:
            cmd = pinned(cmd, cpus)
        env["TCDEBUG_BENCH_T0"] = repr(time.time())
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=900)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError(f"{variant} {script.name} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        body, to_end, cpu = (float(x) for x in (work / "timing.txt").read_text().split())
        if variant.startswith("tcdebug --dump") and not (work / "dump" / "session.json").exists():
            raise RuntimeError("tcdebug --dump wrote no session.json")
    return wall, to_end, body, cpu


def measure(
    scripts: Sequence[Path],
    rounds: int,
    variants: Sequence[str],
    partial: Path | None = None,
    cpu_sets: Sequence[Sequence[int]] = (),
) -> dict[str, dict[str, list]]:
    """Runs every variant of every script once a round, in rotating order; after each round the
    results so far go to `partial` as JSON, so a run cut short still leaves its rounds. With
    `cpu_sets` (one per variant), a round starts its variants together instead, each pinned to one
    set, the sets rotating with the round: a box slower at that moment slows every run of it."""
    byte_compile_tcdebug()
    results: dict[str, dict[str, list]] = {s.name: {v: [] for v in variants} for s in scripts}
    with ThreadPoolExecutor(max_workers=len(variants)) as pool:
        for r in range(rounds):
            for script in scripts:
                if cpu_sets:
                    futures = {
                        v: pool.submit(run_once, v, script, cpu_sets[(i + r) % len(cpu_sets)])
                        for i, v in enumerate(variants)
                    }
                    for variant, future in futures.items():
                        results[script.name][variant].append(future.result())
                else:
                    order = list(variants[r % len(variants) :]) + list(variants[: r % len(variants)])
                    for variant in order:
                        results[script.name][variant].append(run_once(variant, script))
                print(f"round {r + 1}/{rounds} {script.name}: done", file=sys.stderr, flush=True)
            if partial is not None:
                partial.write_text(json.dumps(results))
    return results


def cpu_halves() -> tuple[list[int], list[int]]:
    """This process's CPUs in two halves of whole cores (a core's hyperthreads stay together)."""
    cores: dict[tuple[str, str], list[int]] = {}
    for cpu in sorted(os.sched_getaffinity(0)):
        topology = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology")
        try:
            key = ((topology / "physical_package_id").read_text().strip(), (topology / "core_id").read_text().strip())
        except OSError:
            key = ("", str(cpu))
        cores.setdefault(key, []).append(cpu)
    groups = list(cores.values())
    if len(groups) < 2:  # one core: its hyperthreads are the halves
        cpus = [c for g in groups for c in g]
        groups = [[c] for c in cpus]
    if len(groups) < 2:
        raise SystemExit("--side-by-side needs at least two CPUs")
    half = len(groups) // 2
    return [c for g in groups[:half] for c in g], [c for g in groups[half : 2 * half] for c in g]


def side_by_side_note(halves: tuple[list[int], list[int]]) -> str:
    """How a `--side-by-side` run placed its two variants (both benchmarks say it alike)."""
    return (
        f"--side-by-side: python and tcdebug start together each round, pinned to CPUs {halves[0]} and "
        f"{halves[1]} (swapped every round); the compile pools size themselves to the half they get"
    )


def round_ratios(by_variant: dict[str, list]) -> list[float]:
    """tcdebug's whole-process time over python's, round by round. The two runs of a round are
    next to each other, so a machine that gets faster or slower during the benchmark moves both;
    the ratio of the two medians does not pair them."""
    plain, tcdebug = by_variant.get("python"), by_variant.get("tcdebug --dump")
    if not plain or not tcdebug:
        return []
    return [t[0] / p[0] for p, t in zip(plain, tcdebug, strict=False) if p[0] > 0]


def build_section(results: dict[str, dict[str, list]], rounds: int, target: float = 0.0) -> Section:
    section = Section(
        f"Capture overhead (cold compiles, median of {rounds} rotating rounds)",
        [
            "script",
            "variant",
            "whole process",
            "ratio",
            "launch → script end",
            "ratio",
            "script body",
            "ratio",
            "script process CPU",
            "ratio",
        ],
    )
    tcdebug_ratios: list[float] = []
    round_medians: list[float] = []
    for name, by_variant in results.items():
        measures = len(by_variant["python"][0])  # the fields of `run_once`
        base = [median([run[i] for run in by_variant["python"]]) for i in range(measures)]
        for variant, runs in by_variant.items():
            values = [median([run[i] for run in runs]) for i in range(measures)]
            cells = [name, variant]
            for value, reference in zip(values, base, strict=True):
                cells += [secs(value), f"{value / reference:.3f}"]
            section.rows.append(cells)
            if variant == "tcdebug --dump":
                tcdebug_ratios.append(values[0] / base[0])
        paired = round_ratios(by_variant)
        if paired:
            round_medians.append(median(paired))
            section.notes.append(
                f"{name}: whole-process ratio of each round (tcdebug / python, run next to each other): "
                + ", ".join(f"{r:.3f}" for r in paired)
                + f"; median {round_medians[-1]:.3f}"
            )
        section.data[name] = {v: [list(x) for x in runs] for v, runs in by_variant.items()}
    target = target or TARGET_RATIO
    if tcdebug_ratios:
        section.checks[f"tcdebug whole-process ratio <= {target}"] = max(tcdebug_ratios) <= target
    if round_medians:
        section.checks[f"tcdebug median of the per-round ratios <= {target}"] = max(round_medians) <= target
    section.notes += [
        "whole process: wall time of the command; for tcdebug it includes the parent (no torch), "
        "the target's start, the end-of-run bookkeeping and the dump writing",
        "launch → script end: from starting the command to the end of the script's body (no teardown)",
        "script body: `benchmarks/timed_script.py` times the script inside the process, torch already "
        "imported; Dynamo and Inductor are imported inside it by both (tcdebug installs its hooks when "
        "the script's torch has imported Dynamo, and their Inductor part when it has imported Inductor's compiler)",
        "script process CPU: user + sys time of the process that ran the script, from its start "
        "to the script's end (imports, hooks, compiles; not compile workers, not tcdebug's parent): "
        "steadier than wall time, so it shows what the hooks cost where wall time is noisy",
        "env for all: TORCHINDUCTOR_FORCE_DISABLE_CACHES=1, TORCH_DYNAMO_AUTOMATIC_DYNAMIC_LOCAL_PGO=0, "
        "a fresh TORCHINDUCTOR_CACHE_DIR per run",
    ]
    return section


def run_parser(description: str) -> argparse.ArgumentParser:
    """The options this benchmark and `gpu_overhead.py` share: --quick, --json, --rounds, --script."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="a tiny run: checks the harness works")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON here")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument(
        "--script", action="append", metavar="NAME", help="only this script (by file name; repeatable)"
    )
    return parser


def chosen_scripts(scripts: Sequence[Path], names: Sequence[str] | None) -> tuple[Path, ...]:
    """`scripts`, or those named by --script (file name or stem)."""
    return tuple(s for s in scripts if not names or s.name in names or s.stem in names)


def main(argv: Sequence[str] | None = None) -> int:
    parser = run_parser(__doc__.splitlines()[0])
    parser.add_argument(
        "--tcdebug-only", action="store_true", help="only `python` and `tcdebug --dump` (no TORCH_* variants)"
    )
    parser.add_argument(
        "--side-by-side",
        action="store_true",
        help="start python and tcdebug together each round, each pinned to half of the CPUs (halves swap "
        "every round; implies --tcdebug-only): both runs meet the machine in the same state",
    )
    ns = parser.parse_args(argv)
    if ns.quick:  # a one-op aot_eager compile: checks the harness, not the numbers
        scripts, rounds, variants = (TINY,), 2 if ns.side_by_side else 1, VARIANTS[:2]
    else:
        scripts = chosen_scripts(SCRIPTS, ns.script)
        tcdebug_only = ns.tcdebug_only or ns.side_by_side
        rounds, variants = max(ns.rounds, 1), VARIANTS[:2] if tcdebug_only else VARIANTS
    if not ns.side_by_side:
        return finish(build_section(measure(scripts, rounds, variants), rounds), ns.json)
    halves = cpu_halves()
    partial = Path(ns.json).with_suffix(".partial.json") if ns.json else None
    section = build_section(measure(scripts, rounds, variants, partial, halves), rounds)
    section.title = f"Capture overhead (cold compiles, median of {rounds} side-by-side rounds)"
    section.notes.append(side_by_side_note(halves))
    return finish(section, ns.json)


if __name__ == "__main__":
    sys.exit(main())
