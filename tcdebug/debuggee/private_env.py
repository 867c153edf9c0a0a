"""The variables tcdebug passes its target through the environment, taken out before the script runs.

The controller tells the target where its channel and output socket are, where forked processes
connect, and sets `PYTHONUNBUFFERED=1` where the user had not (so the target's own output reaches
tcdebug at once). Under `python` the script sees none of them, and neither do the processes it
starts: Inductor's compile workers, its own subprocesses, torchrun's ranks. So the target (and a
rank) reads them once and removes them from `os.environ` before the script runs; its own code
asks `current()` from then on. tcdebug's `PYTHONPATH` entry is undone the same way by
`tcdebug.process.pythonpath.restore_user_path`.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from dataclasses import dataclass

from tcdebug.model.protocol import CHANNEL_FD_ENV, CHILD_SOCKET_ENV, OUTPUT_FD_ENV, UNBUFFERED_MARK_ENV

UNBUFFERED_ENV = "PYTHONUNBUFFERED"


@dataclass(frozen=True)
class PrivateEnv:
    """What the controller passed; "" where it passed nothing."""

    channel_fd: str = ""  # the target's channel (a socket descriptor)
    output_fd: str = ""  # the socket `sys.stdout`/`sys.stderr` write to (`tcdebug.debuggee.streams`)
    child_socket: str = ""  # where forked processes and ranks connect (`tcdebug.debuggee.children`)


_current = PrivateEnv()


def take(environ: MutableMapping[str, str] | None = None) -> PrivateEnv:
    """Read tcdebug's variables from `environ` (default `os.environ`) and remove them, and the
    `PYTHONUNBUFFERED` the controller added. A second call finds none and returns what the
    first one took."""
    global _current
    environ = os.environ if environ is None else environ
    names = (CHANNEL_FD_ENV, OUTPUT_FD_ENV, CHILD_SOCKET_ENV)
    found = {name: environ.pop(name) for name in names if name in environ}
    if environ.pop(UNBUFFERED_MARK_ENV, None) is not None:
        environ.pop(UNBUFFERED_ENV, None)
    if found:
        _current = PrivateEnv(
            channel_fd=found.get(CHANNEL_FD_ENV, ""),
            output_fd=found.get(OUTPUT_FD_ENV, ""),
            child_socket=found.get(CHILD_SOCKET_ENV, ""),
        )
    return _current


def current() -> PrivateEnv:
    """What `take` took in this process (a forked child inherits it)."""
    return _current

