"""Shared helpers for the benchmarks: statistics, machine facts, markdown, JSON results."""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
CACHE = BENCH / ".cache"  # gitignored: dumps kept between runs
SAMPLES = ROOT / "samples"
MLP_DUMP = ROOT / "tests" / "data" / "mlp_cpu"


@dataclass
class Section:
    """One benchmark's results: a markdown table plus pass/fail against its targets."""

    title: str
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checks: dict[str, bool] = field(default_factory=dict)  # target -> met
    data: dict[str, Any] = field(default_factory=dict)  # raw numbers

    def markdown(self) -> str:
        lines = [f"### {self.title}", "", table(self.header, self.rows)]
        if self.checks:
            lines.append("")
            lines += [
                f"- target {name}: {'**met**' if ok else '**MISSED**'}" for name, ok in self.checks.items()
            ]
        if self.notes:
            lines.append("")
            lines += [f"- {note}" for note in self.notes]
        return "\n".join(lines) + "\n"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), linear between the closest ranks."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def secs(seconds: float) -> str:
    return f"{seconds:.2f} s"


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def machine() -> dict[str, str]:
    """Facts for the results header; torch's version comes from a child (this process stays torch-free)."""
    try:
        torch_version = subprocess.run(
            [sys.executable, "-c", "import torch; print(torch.__version__)"],
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        torch_version = "?"
    try:
        import textual

        textual_version = textual.__version__
    except ImportError:
        textual_version = "?"
    return {
        "cpu": _cpu_name(),
        "cores": str(os.cpu_count()),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "torch": torch_version or "?",
        "textual": textual_version,
    }


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def byte_compile_tcdebug() -> None:
    """Write the bytecode of tcdebug's modules (`__pycache__`), as pip does when it installs a
    package; torch's is written already. Where PYTHONDONTWRITEBYTECODE is set (this machine sets
    it), every tcdebug process would otherwise compile its modules from source, each run, which a
    user's runs do not: about 0.07 s per process."""
    import compileall
    import importlib.util

    for package in ("tcdebug", "tcdebug.screens"):  # screens/ is installed as tcdebug.screens
        spec = importlib.util.find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            compileall.compile_dir(folder, quiet=1)


def parse_args(
    description: str,
    argv: Sequence[str] | None = None,
    extra: Callable[[argparse.ArgumentParser], None] | None = None,
) -> argparse.Namespace:
    """`--quick` and `--json`, and what `extra` adds to the parser (a benchmark's own options)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="a tiny run: checks the benchmark works")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON here")
    if extra is not None:
        extra(parser)
    return parser.parse_args(argv)


def finish(section: Section, json_path: str | None) -> int:
    """Print the section; write it as JSON for run_all.py. Exit code 0 (targets are reported, not enforced)."""
    print(section.markdown())
    if json_path:
        Path(json_path).write_text(
            json.dumps(
                {
                    "title": section.title,
                    "markdown": section.markdown(),
                    "checks": section.checks,
                    "data": section.data,
                },
                indent=1,
            )
        )
    return 0


def child_result(script: str, args: Sequence[str], timeout: float) -> dict[str, Any]:
    """Run a benchmark's measuring half (`script --child ARGS`, with the benchmarks folder on the
    path) and read the `RESULT {json}` line it prints last."""
    proc = subprocess.run(
        [sys.executable, script, "--child", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(BENCH), os.environ.get("PYTHONPATH")]))},
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"the app run failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return dict(json.loads(lines[-1][len("RESULT ") :]))


def latency_row(name: str, samples: list[float]) -> list[str]:
    """A table row: the name, how many samples, their median, p95 and max in milliseconds."""
    return [name, str(len(samples)), ms(median(samples)), ms(percentile(samples, 95)), ms(max(samples))]
