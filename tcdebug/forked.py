"""A forked child process of tcdebug's own (a big log's reader, a dump's folder maker): it ends
with its parent, and never runs the parent's exit code. Stdlib only."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import IO, Any


class Forked:
    """A forked child running `run` (the parts of `subprocess.Popen` its users need)."""

    stdout = None

    def __init__(self, run: Callable[[], int]) -> None:
        """Ctrl-C is the parent's to handle (it ends the child): the child ignores SIGINT, which
        stays blocked across the fork, so it never raises KeyboardInterrupt in the child, not even
        before `run` starts or in a finalizer (where Python prints it and goes on)."""
        parent = os.getpid()
        self.returncode: int | None = None
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
                    die_with_parent(parent)
                    code = run()
                finally:
                    os._exit(code)  # never the parent's exit code (atexit, finalizers)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # a Ctrl-C meanwhile comes now
        self.pid = pid

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def kill(self) -> None:
        if self.poll() is None:
            os.kill(self.pid, signal.SIGKILL)

    def wait(self) -> int:
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


def die_with_parent(parent: int) -> None:
    """In a child: SIGTERM when `parent` dies (Linux), or exit now if it already has."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # it died before the line above
        os._exit(1)


def widen_pipe(pipe: IO[bytes] | int | None) -> None:
    """A 1 MiB pipe (Linux; 64 KiB by default): the writer runs ahead while the reader is busy."""
    fcntl_mod: Any
    try:
        import fcntl as fcntl_mod
    except ImportError:
        return
    setpipe = getattr(fcntl_mod, "F_SETPIPE_SZ", None)
    if pipe is None or setpipe is None:
        return
    for size in (1 << 20, 1 << 18):
        try:
            fcntl_mod.fcntl(pipe if isinstance(pipe, int) else pipe.fileno(), setpipe, size)
            return
        except OSError:
            continue
