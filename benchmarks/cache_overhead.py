"""Warm and cold runs: `tcdebug --dump` against plain `python` with the user's caches on (warm: the
Inductor cache filled by a first run of each), and `tcdebug --dump --cold` against a plain cold run
(`TORCHINDUCTOR_FORCE_DISABLE_CACHES=1`, PGO off). Each round runs the two of a pair next to each
other, in alternating order; the figure is the median of the rounds' ratios.

`python benchmarks/cache_overhead.py [--rounds N] [--script PATH] [--layers N] [--json FILE] [--quick]`

`--layers` is passed to the GPT-2 script (the GPU box's figure is a 6-layer model).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import BENCH, median

GPT2 = BENCH / "scripts" / "gpt2_train.py"
WARM_TARGET, COLD_TARGET = 1.10, 1.05


def _env(cache: Path, *, cold: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TORCH_TRACE", "TORCH_COMPILE_DEBUG"))}
    env.update(TORCHINDUCTOR_CACHE_DIR=str(cache), PYTHONUNBUFFERED="1")
    if cold:  # the plain run as `--cold` makes it
        env.update(TORCHINDUCTOR_FORCE_DISABLE_CACHES="1", TORCH_DYNAMO_AUTOMATIC_DYNAMIC_LOCAL_PGO="0")
    return env


def _run(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr[-2000:]}")
    return time.perf_counter() - start


def measure(
    script: Path, rounds: int, work: Path, args: list[str], kinds: tuple[str, ...] = ("warm", "cold")
) -> dict[str, list[float]]:
    python = [sys.executable, str(script), *args]

    def tcdebug(name: str, *extra: str) -> list[str]:
        out = work / name
        subprocess.run(["rm", "-rf", str(out)], check=True)
        return [sys.executable, "-m", "tcdebug", "--dump", str(out), *extra, str(script), *args]

    plain_cache, our_cache = work / "plain-cache", work / "our-cache"
    if "warm" in kinds:  # fill each cache once
        _run(python, _env(plain_cache, cold=False))
        _run(tcdebug("fill"), _env(our_cache, cold=False))
    ratios: dict[str, list[float]] = {"warm": [], "cold": []}
    for n in range(rounds):
        pairs = {
            "warm": (
                lambda: _run(python, _env(plain_cache, cold=False)),
                lambda: _run(tcdebug("warm"), _env(our_cache, cold=False)),
            ),
            "cold": (
                lambda n=n: _run(python, _env(work / f"cold-plain-{n}", cold=True)),
                lambda n=n: _run(tcdebug("cold", "--cold"), _env(work / f"cold-ours-{n}", cold=False)),
            ),
        }
        for kind, (plain, ours) in pairs.items():
            if kind not in kinds:
                continue
            if n % 2:
                theirs_s = plain()
                ours_s = ours()
            else:
                ours_s = ours()
                theirs_s = plain()
            ratios[kind].append(ours_s / theirs_s)
            print(
                f"round {n} {kind}: python {theirs_s:.1f}s tcdebug {ours_s:.1f}s ({ours_s / theirs_s:.3f}x)",
                flush=True,
            )
    return ratios


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--script", default=str(GPT2))
    parser.add_argument("--layers", type=int, default=None)
    parser.add_argument("--only", choices=("warm", "cold"), default=None, help="measure one of the two")
    parser.add_argument("--json", default=None)
    parser.add_argument("--quick", action="store_true", help="one round of a tiny script (a smoke run)")
    ns = parser.parse_args()
    if ns.quick:
        ns.rounds, ns.script = 1, str(BENCH / "scripts" / "tiny.py")
    with tempfile.TemporaryDirectory(prefix="tcdebug-cache-bench-") as tmp:
        args = ["--layers", str(ns.layers)] if ns.layers else []
        kinds = (ns.only,) if ns.only else ("warm", "cold")
        ratios = measure(Path(ns.script), ns.rounds, Path(tmp), args, kinds)
    if ratios["warm"]:
        warm = median(ratios["warm"])
        verdict = "met" if warm <= WARM_TARGET else "MISSED"
        print(f"warm: tcdebug/python {warm:.3f}x (target <= {WARM_TARGET}x): {verdict}")
    if ratios["cold"]:
        cold = median(ratios["cold"])
        verdict = "met" if cold <= COLD_TARGET else "MISSED"
        print(f"cold: tcdebug --cold/python cold {cold:.3f}x (target <= {COLD_TARGET}x): {verdict}")
    if ns.json:
        Path(ns.json).write_text(json.dumps(ratios))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
