"""The real `tcdebug` command in a real pseudo-terminal: paints, quits, restores the terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

import pytest
from conftest import DATA, ROOT, SCRIPTS

ALT_SCREEN_ON = b"\x1b[?1049h"
ALT_SCREEN_OFF = b"\x1b[?1049l"


def run_in_pty(args: list[str], term: str, until: bytes, timeout: float = 90) -> tuple[int, bytes]:
    """Start `tcdebug args` on an 80x24 pty, wait for `until` on screen, press q, return (code, output)."""
    master, slave = pty.openpty()
    os.set_blocking(master, False)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": term, "COLUMNS": "80", "LINES": "24"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tcdebug", *args], stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env
    )
    os.close(slave)
    out = b""
    deadline = time.monotonic() + timeout
    sent_quit = False
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    break
            if not sent_quit and until in out:
                time.sleep(0.3)
                os.write(master, b"q")
                sent_quit = True
        proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        while True:  # drain what it wrote while exiting
            ready, _, _ = select.select([master], [], [], 0.1)
            if not ready:
                break
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert sent_quit, f"never saw {until!r} on screen: {out[-400:]!r}"
    return proc.returncode, out


@pytest.mark.parametrize("term", ["xterm-256color", "xterm", "screen"])
def test_open_paints_and_quits_cleanly(term: str) -> None:
    code, out = run_in_pty(["open", str(DATA / "mlp_cpu")], term, until=b"Timeline")
    assert code == 0
    assert ALT_SCREEN_ON in out and out.rindex(ALT_SCREEN_OFF) > out.rindex(ALT_SCREEN_ON)


def test_terminal_is_restored_after_the_script_failed() -> None:
    code, out = run_in_pty(["--no-pause", str(SCRIPTS / "raises.py")], "xterm-256color", until=b"boom from")
    assert code == 1
    assert out.rindex(ALT_SCREEN_OFF) > out.rindex(ALT_SCREEN_ON)


def test_open_a_torch_trace_log_in_a_terminal() -> None:
    code, out = run_in_pty(["open", str(DATA / "traces" / "mlp")], "xterm-256color", until=b"dynamo_graph")
    assert code == 0
