"""Big script output: `tcdebug --dump` over `python` on a script that prints 50 MB (500,000 lines
of 100 bytes) after one small compile, both writing to a file (`python script.py > file`).

Pairwise rounds: one python run and one tcdebug run next to each other; the ratio of the medians
and the median of each round's ratio. Also the output check: output.txt equals python's output.
`PYTHONUNBUFFERED` is taken out of both environments, as a user's shell has it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from common import ROOT, Section, byte_compile_tcdebug, finish, median, parse_args, secs

TARGET_RATIO = 2.0
SCRIPT = """\
import sys
import torch

torch.compile(lambda x: x * 2, backend="aot_eager")(torch.ones(4))
line = "x" * 86
for i in range(int(sys.argv[1])):
    print(f"line {i:08d} {line}")
"""


def timed(cmd: list[str], stdout_path: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    with open(stdout_path, "wb") as out:
        subprocess.run(
            cmd,
            stdout=out,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            env=env,
            check=True,
            cwd=ROOT,
        )
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    ns = parse_args(__doc__.splitlines()[0], argv)
    byte_compile_tcdebug()
    lines, rounds = (20_000, 1) if ns.quick else (500_000, 3)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    pythons: list[float] = []
    tcdebugs: list[float] = []
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        script = folder / "prints.py"
        script.write_text(SCRIPT)
        for n in range(rounds):
            pythons.append(timed([sys.executable, str(script), str(lines)], folder / "python.txt", env))
            out = folder / f"dump{n}"
            tcdebugs.append(
                timed(
                    [sys.executable, "-m", "tcdebug", "--dump", str(out), str(script), str(lines)],
                    folder / "summary.txt",
                    env,
                )
            )
            same = same and (out / "output.txt").read_bytes() == (folder / "python.txt").read_bytes()
        size = (folder / "python.txt").stat().st_size
    ratio = median(tcdebugs) / median(pythons)
    per_round = median([t / p for t, p in zip(tcdebugs, pythons, strict=True)])
    section = Section(
        f"Big output: {lines:,} lines ({size / 1e6:.0f} MB), {rounds} pairwise rounds",
        ["measure", "python", "tcdebug --dump", "ratio (medians)", "median of round ratios"],
    )
    section.rows.append(
        [
            "wall time, median",
            secs(median(pythons)),
            secs(median(tcdebugs)),
            f"{ratio:.2f}×",
            f"{per_round:.2f}×",
        ]
    )
    section.checks[f"tcdebug --dump / python <= {TARGET_RATIO}x"] = ratio <= TARGET_RATIO
    section.checks["output.txt equals python's output"] = same
    section.data = {"python_s": pythons, "tcdebug_s": tcdebugs, "bytes": size}
    return finish(section, ns.json)


if __name__ == "__main__":
    sys.exit(main())
