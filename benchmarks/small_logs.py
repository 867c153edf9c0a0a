"""Small TORCH_TRACE logs: `tcdebug open LOG --dump OUT` against tlparse, whole processes, pairwise.

The logs are tlparse's own test inputs (tests/data/tlparse/inputs.tar.xz): the 17 KB
`chromium_events.log` and the 3.5 MB rank 1 log of `multi_rank_logs`, the sizes of the logs users
hand around. Each round runs both tools one after the other (alternating which goes first); the
figure is the median of the rounds' differences and ratios. Targets: within 0.2 s of tlparse on
the 17 KB log, at most tlparse's time on the 3.5 MB log.
"""

from __future__ import annotations

import shutil
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path

from big_log import dump_and_tlparse
from common import ROOT, Section, byte_compile_tcdebug, finish, median, parse_args, secs

ARCHIVE = ROOT / "tests" / "data" / "tlparse" / "inputs.tar.xz"
LOGS = {  # name -> (path in the archive, target: "within" seconds of tlparse, or a ratio)
    "17 KB": ("inputs/chromium_events.log", ("within", 0.2)),
    "3.5 MB": ("inputs/multi_rank_logs/dedicated_log_torch_trace_rank_1.log", ("ratio", 1.0)),
}
ROUNDS = 7


def main(argv: Sequence[str] | None = None) -> int:
    ns = parse_args(__doc__.splitlines()[0], argv)
    byte_compile_tcdebug()
    tlparse = shutil.which("tlparse") or (
        str(Path(sys.executable).parent / "tlparse") if (Path(sys.executable).parent / "tlparse").exists() else None
    )
    section = Section(title="Small logs: `open --dump` against tlparse", header=["log", "measure", "value"])
    rounds = 1 if ns.quick else ROUNDS
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        with tarfile.open(ARCHIVE) as tar:
            tar.extractall(root / "in", filter="data")
        for name, (member, (kind, target)) in LOGS.items():
            log = root / "in" / member
            out = root / f"out-{len(section.data)}"
            out.mkdir()
            pairs = [dump_and_tlparse(log, tlparse, out, n) for n in range(rounds)]
            dump_s = median([p.dump_s for p in pairs])
            rc = max((p.dump_rc for p in pairs), key=abs)
            rows = [[f"`open --dump`, median of {rounds}", secs(dump_s) + ("" if rc == 0 else f" (exit {rc})")]]
            section.data[name] = {"pairs": [p._asdict() for p in pairs]}
            if tlparse:
                tl_s = median([p.tlparse_s for p in pairs])
                diff = median([p.dump_s - p.tlparse_s for p in pairs])
                ratio = median([p.dump_s / p.tlparse_s for p in pairs])
                rows += [
                    [f"tlparse, median of {rounds}", secs(tl_s)],
                    ["`open --dump` − tlparse, median of the pairs", f"{diff:+.3f} s"],
                    ["`open --dump` / tlparse, median of the pairs", f"{ratio:.2f}"],
                ]
                if not ns.quick:
                    if kind == "within":
                        section.checks[f"{name}: open --dump within {target} s of tlparse"] = diff <= target
                    else:
                        section.checks[f"{name}: open --dump <= tlparse"] = ratio <= target
            section.rows += [[name, *row] for row in rows]
    section.checks["the logs were read"] = all(
        p["dump_rc"] == 0 for d in section.data.values() for p in d["pairs"]
    )
    if not tlparse:
        section.notes.append("tlparse not installed (`pip install tlparse`): its rows are skipped")
    return finish(section, ns.json)


if __name__ == "__main__":
    sys.exit(main())
