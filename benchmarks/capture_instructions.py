"""Capture work in instructions: `python` against `tcdebug --dump`, every process under callgrind.

Each cold run of a script is counted by valgrind (with `--units`, also tcdebug with its capture
units off but torch building every trace record, as for a handler that reads them all, and with its
trace handler off too).

`python benchmarks/capture_instructions.py [--script NAME ...] [--units] [--quick] [--json PATH]`

Wall-time ratios (`capture_overhead.py`) move by a few percent with the host from one run to the
next; an instruction count does not. Each process runs under callgrind, about 40 times slower,
and is counted alone. The count of the script's process stops at the script's end
(`timed_script.py` calls `os.times()` there, callgrind's `--dump-before`): python's process and
tcdebug's target run the same script, so what the target executes over python's process is what
the capture costs the script, all of it in that process. tcdebug's parent is counted to its exit
(it runs beside the script, at `nice` 10; its count is not repeatable to the same degree: it
rewrites the dump's index once a second while a compile's events arrive, so a slower run counts
more). Compile workers, compilers and torch's helper processes (the same work under both) are not
traced.

Valgrind decodes no AVX-512: every variant runs with ATen's kernels and Inductor's C++ on AVX2
(`ATEN_CPU_CAPABILITY=avx2`, `TORCHINDUCTOR_CPP_MARCH=haswell`), one OpenMP thread (a spinning
thread's count depends on timing) and `PYTHONHASHSEED=0`.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from capture_overhead import SCRIPTS, TARGET_RATIO, TIMED, base_env
from common import BENCH, Section, byte_compile_tcdebug, finish, parse_args

PURE = BENCH / "scripts" / "pure_python.py"  # --quick: no torch, its own end marker

# variant -> $TCDEBUG_SKIP_UNITS for it (None: plain python)
VARIANTS: dict[str, str | None] = {
    "python": None,
    "tcdebug --dump": "",
    "tcdebug --dump, units off": "*,trace_filter",  # every trace record built: what listening costs
    "tcdebug --dump, units and trace handler off": "*,trace",
}
VALGRIND_ENV = {
    "ATEN_CPU_CAPABILITY": "avx2",
    "TORCHINDUCTOR_CPP_MARCH": "haswell",
    "OMP_NUM_THREADS": "1",
    "PYTHONHASHSEED": "0",
}
NOT_TRACED = "*/g++,*/gcc,*/c++,*/cc1plus,*/as,*/ld,*/collect2,*/sh,*/bash,*/uname,*/ldconfig,*/openssl"
NOT_TRACED_BY_ARG = "*compile_worker*,*cdll.LoadLibrary*"  # Inductor's pool; its check that a .so loads
SCRIPT_END = "os_times"  # the C function behind `os.times()`, which `timed_script.py` calls at the end
TIMEOUT_S = 3600


@dataclass(frozen=True)
class Part:
    """One profile file callgrind wrote: a process's count up to a dump, or up to its exit."""

    pid: int
    command: str
    trigger: str  # "Program termination" or "--dump-before=os_times"
    instructions: int


@dataclass(frozen=True)
class Counts:
    """One run's instructions: the script's process to the script's end, tcdebug's parent to its exit."""

    script: int
    parent: int | None  # None for python


HEADER_BYTES = 8192  # a profile file's header: pid, cmd, trigger and the summary come before its costs


def read_parts(folder: Path) -> list[Part]:
    """Each profile file's header (the files are tens of megabytes; the header is what is read)."""
    parts = []
    for path in sorted(folder.glob("cg.*.out*")):
        with path.open("rb") as fh:
            text = fh.read(HEADER_BYTES).decode(errors="replace")
        command = re.search(r"^cmd: (.*)$", text, re.M)
        trigger = re.search(r"^desc: Trigger: (.*)$", text, re.M)
        total = re.search(r"^summary: (\d+)", text, re.M)
        pid = re.search(r"^pid: (\d+)", text, re.M)
        if command and trigger and total and pid:  # an empty file: its process was killed
            parts.append(Part(int(pid.group(1)), command.group(1), trigger.group(1), int(total.group(1))))
    return parts


def script_command(script: Path) -> list[str]:
    """The script as each variant runs it: through `timed_script.py`, which marks its end (a script
    of its own that marks its end, `PURE`, as it is)."""
    return [str(script)] if script == PURE else [str(TIMED), str(script)]


def counts_of(parts: Sequence[Part], tcdebug: bool, script: Path) -> Counts:
    """The script's process (python's, or tcdebug's target) up to the script's end; the parent."""
    first = script_command(script)[0]
    script_pids = {
        p.pid
        for p in parts
        if ("-m tcdebug.debuggee" in p.command if tcdebug else first in p.command)
        and "-m tcdebug " not in p.command
    }
    if len(script_pids) != 1:
        raise RuntimeError(f"expected one script process, found {sorted(script_pids)}")
    pid = script_pids.pop()
    to_end = [p.instructions for p in parts if p.pid == pid and p.trigger.endswith(SCRIPT_END)]
    if not to_end:
        raise RuntimeError("the script's process did not reach the script's end")
    parent = [p.instructions for p in parts if " -m tcdebug --dump " in f" {p.command} "]
    if tcdebug and len(parent) != 1:
        raise RuntimeError(f"expected one count of tcdebug's parent, found {len(parent)}")
    return Counts(sum(to_end), sum(parent) if tcdebug else None)


def run_once(variant: str, script: Path) -> Counts:
    skip = VARIANTS[variant]
    with tempfile.TemporaryDirectory(prefix="tcdebug-bench-") as tmp:
        work = Path(tmp)
        counts = work / "counts"
        counts.mkdir()
        env = base_env() | VALGRIND_ENV
        env["TORCHINDUCTOR_CACHE_DIR"] = str(work / "inductor-cache")
        env.pop("TCDEBUG_SKIP_UNITS", None)
        timed = script_command(script)
        if skip is None:
            cmd = [sys.executable, *timed]
        else:
            cmd = [sys.executable, "-m", "tcdebug", "--dump", str(work / "dump"), *timed]
            if skip:
                env["TCDEBUG_SKIP_UNITS"] = skip
        valgrind = [
            "valgrind",
            "--tool=callgrind",
            f"--log-file={counts}/valgrind.%p.log",
            f"--callgrind-out-file={counts}/cg.%p.out",
            f"--dump-before={SCRIPT_END}*",
            "--trace-children=yes",
            f"--trace-children-skip={NOT_TRACED}",
            f"--trace-children-skip-by-arg={NOT_TRACED_BY_ARG}",
        ]
        proc = subprocess.run(
            valgrind + cmd, cwd=work, env=env, capture_output=True, text=True, timeout=TIMEOUT_S
        )
        if proc.returncode != 0:
            raise RuntimeError(f"{variant} {script.name} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        return counts_of(read_parts(counts), skip is not None, script)


def measure(scripts: Sequence[Path], variants: Sequence[str]) -> dict[str, dict[str, Counts]]:
    """Every variant of every script once, two at a time (each run is one busy core)."""
    byte_compile_tcdebug()
    jobs = [(script, variant) for script in scripts for variant in variants]
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {job: pool.submit(run_once, job[1], job[0]) for job in jobs}
        results: dict[str, dict[str, Counts]] = {s.name: {} for s in scripts}
        for (script, variant), future in futures.items():
            results[script.name][variant] = future.result()
            print(f"{script.name} {variant}: done", file=sys.stderr, flush=True)
    return results


def giga(count: int) -> str:
    return f"{count / 1e9:.3f} G"


def build_section(results: dict[str, dict[str, Counts]], target: float = TARGET_RATIO) -> Section:
    section = Section(
        "Capture work in instructions (callgrind, one cold run each)",
        ["script", "variant", "script process to its end", "ratio", "over python", "tcdebug's parent"],
    )
    ratios = []
    for name, by_variant in results.items():
        base = by_variant["python"].script
        for variant, counts in by_variant.items():
            ratio = counts.script / base
            section.rows.append(
                [
                    name,
                    variant,
                    giga(counts.script),
                    f"{ratio:.3f}",
                    "" if variant == "python" else giga(counts.script - base),
                    "" if counts.parent is None else giga(counts.parent),
                ]
            )
            if variant == "tcdebug --dump":
                ratios.append(ratio)
        section.data[name] = {v: {"script": c.script, "parent": c.parent} for v, c in by_variant.items()}
    if ratios:
        section.checks[f"tcdebug's target to the script's end <= {target} x python's instructions"] = (
            max(ratios) <= target
        )
    section.notes.append(
        "the script's process is counted to the script's end (python's process, tcdebug's target: "
        "the same script); tcdebug's parent to its exit, beside the script at nice 10 (its count grows "
        "with the run's length under valgrind: it rewrites the dump's index once a second while a "
        "compile's events arrive); compile workers and compilers (the same work under both) are not traced"
    )
    section.notes.append(
        "a stricter line than the wall-time target: the capture's work is all in the script's "
        "process, while a run's wall time also holds the compile workers' and compilers' work"
    )
    return section


def add_options(parser: argparse.ArgumentParser) -> None:
    names = [s.stem for s in SCRIPTS]
    parser.add_argument("--script", action="append", choices=names, help="only this script (repeatable)")
    parser.add_argument(
        "--units",
        action="store_true",
        help="also tcdebug with its units off, and with its trace handler off too",
    )


def main(argv: Sequence[str] | None = None) -> int:
    ns = parse_args(__doc__.splitlines()[0], argv, extra=add_options)
    if shutil.which("valgrind") is None:
        section = Section("Capture work in instructions (callgrind, one cold run each)", ["skipped"])
        section.rows.append(["valgrind is not installed"])
        section.checks["valgrind present"] = False
        return finish(section, ns.json)
    if ns.quick:
        scripts: list[Path] = [PURE]
    else:
        scripts = [s for s in SCRIPTS if ns.script is None or s.stem in ns.script]
    variants = list(VARIANTS) if ns.units else ["python", "tcdebug --dump"]
    return finish(build_section(measure(scripts, variants)), ns.json)


if __name__ == "__main__":
    sys.exit(main())
