"""`tcdebug ARGS` on a real pseudo-terminal, for the tests that drive the real command: read its
screen until a text shows, press keys, wait for it to exit."""

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
from collections.abc import Callable
from pathlib import Path

from conftest import ROOT


class Pty:
    """`tcdebug ARGS` on a pseudo-terminal of `size` (columns, rows); `out` holds all it wrote."""

    def __init__(
        self,
        args: list[str],
        *,
        size: tuple[int, int] = (80, 24),
        term: str = "xterm-256color",
        cwd: Path = ROOT,
        env: dict[str, str] | None = None,
    ) -> None:
        columns, rows = size
        self.master, slave = pty.openpty()
        os.set_blocking(self.master, False)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {**os.environ, "TERM": term, "COLUMNS": str(columns), "LINES": str(rows), **(env or {})}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tcdebug", *args], stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env
        )
        os.close(slave)
        self.out = b""

    def _read(self) -> None:
        ready, _, _ = select.select([self.master], [], [], 0.1)
        if ready:
            try:
                self.out += os.read(self.master, 65536)
            except OSError:
                time.sleep(0.05)

    def pump(self, until: Callable[[], bool], timeout: float, what: str) -> None:
        """Read the terminal until `until()` holds; fail after `timeout` seconds, or as soon as
        tcdebug has exited without it (what it wrote last is read first)."""
        deadline = time.monotonic() + timeout
        while not until():
            if self.proc.poll() is not None:
                self._drain()
                if until():
                    return
                raise AssertionError(f"tcdebug exited ({self.proc.returncode}) before {what}: {self.out[-600:]!r}")
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}: {self.out[-600:]!r}")
            self._read()

    def wait_text(self, text: bytes, timeout: float = 120, *, new: bool = False) -> None:
        """Until `text` shows; with `new`, only in what tcdebug writes from now on."""
        start = len(self.out) if new else 0
        self.pump(lambda: text in self.out[start:], timeout, repr(text))

    def press(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def wait_exit(self, timeout: float) -> int:
        """tcdebug's exit code, once it exited (reading on meanwhile: a full pty would block it)."""
        self.pump(lambda: self.proc.poll() is not None, timeout, "tcdebug to exit")
        self._drain()
        return self.proc.returncode

    def _drain(self) -> None:
        try:
            while select.select([self.master], [], [], 0.1)[0]:
                chunk = os.read(self.master, 65536)
                if not chunk:
                    break
                self.out += chunk
        except OSError:
            pass

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)
