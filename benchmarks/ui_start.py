"""UI start: `tcdebug open DUMP` in a pseudo-terminal, from launch to the first painted frame.

The app runs as a user runs it (a real terminal driver, 120x40, xterm-256color); the clock
stops when the terminal receives the first frame of the main screen (its "Timeline" title),
then the benchmark presses q. One more run under `python -X importtime` lists what the UI
process imported: torch must not be among them.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path

from common import MLP_DUMP, Section, byte_compile_tcdebug, finish, median, ms, parse_args, percentile

TARGET_S = 0.5
FIRST_FRAME_MARK = b"Timeline"
COLUMNS, ROWS = 120, 40


def time_to_first_frame(dump: Path, *, extra_args: Sequence[str] = ()) -> tuple[float, bytes]:
    """Seconds from launching `tcdebug open DUMP` in a pty to its first painted main screen,
    and what the terminal received (Textual paints on stderr; -X importtime writes there too)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(COLUMNS), "LINES": str(ROWS)}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *extra_args, "-m", "tcdebug", "open", str(dump)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    seen = bytearray()
    first_frame = None
    try:
        deadline = start + 60
        while first_frame is None and time.perf_counter() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if FIRST_FRAME_MARK in seen[-len(chunk) - 64 :]:
                first_frame = time.perf_counter() - start
        if first_frame is None:
            raise RuntimeError(f"no first frame within 60 s; the terminal got: {bytes(seen[-400:])!r}")
        os.write(master, b"q")
        seen += _drain_until_exit(master, proc)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)
    return first_frame, bytes(seen)


def _drain_until_exit(master: int, proc: subprocess.Popen[bytes], timeout: float = 10) -> bytes:
    deadline = time.perf_counter() + timeout
    out = bytearray()
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        elif proc.poll() is not None:
            break
    proc.wait(timeout=max(0.1, deadline - time.perf_counter()))
    return bytes(out)


IMPORT_LINE = re.compile(rb"import time:\s+(\d+) \|\s+(\d+) \|( *)([\w.]+)")


def import_report(dump: Path) -> tuple[list[str], list[tuple[str, float]], float]:
    """(torch modules imported, top-level imports by cumulative seconds, total import seconds)."""
    _, output = time_to_first_frame(dump, extra_args=("-X", "importtime"))
    torch_modules: list[str] = []
    top: list[tuple[str, float]] = []
    for match in IMPORT_LINE.finditer(output):
        name = match.group(4).decode()
        if name == "torch" or name.startswith("torch."):
            torch_modules.append(name)
        if len(match.group(3)) == 1:  # a top-level import (not nested)
            top.append((name, int(match.group(2)) / 1e6))
    if not top:
        raise RuntimeError("-X importtime reported nothing: cannot list the UI's imports")
    total = sum(seconds for _, seconds in top)
    return torch_modules, sorted(top, key=lambda x: -x[1])[:6], total


def main(argv: Sequence[str] | None = None) -> int:
    ns = parse_args(__doc__.splitlines()[0], argv)
    byte_compile_tcdebug()
    runs = 2 if ns.quick else 10
    times = [time_to_first_frame(MLP_DUMP)[0] for _ in range(runs)]
    torch_modules, top, total = import_report(MLP_DUMP)
    section = Section(
        f"UI start: `tcdebug open` to the first painted frame ({runs} runs, pty {COLUMNS}x{ROWS})",
        ["measure", "value"],
    )
    section.rows += [
        ["first frame, median", ms(median(times))],
        ["first frame, p95", ms(percentile(times, 95))],
        ["first frame, min / max", f"{ms(min(times))} / {ms(max(times))}"],
        ["imports of the UI process (sum of top-level, -X importtime)", ms(total)],
        ["heaviest top-level imports", ", ".join(f"{name} {ms(s)}" for name, s in top)],
        ["torch modules imported by the UI process", ", ".join(torch_modules) or "none"],
    ]
    section.checks[f"median first frame <= {TARGET_S} s"] = median(times) <= TARGET_S
    section.checks["no torch in the UI process"] = not torch_modules
    section.data = {"times": times, "torch_modules": torch_modules, "top_imports": top}
    section.notes.append(f"dump: {MLP_DUMP.relative_to(MLP_DUMP.parents[2])} (2 compiles, 26 stages)")
    return finish(section, ns.json)


if __name__ == "__main__":
    sys.exit(main())
