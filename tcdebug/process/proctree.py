"""The user's program as a process tree: find every process of it, and end them all.

Linux `/proc` only (elsewhere the functions find nothing, and ending falls back to the process
group). A process is named by `(pid, start time)`, so a pid the kernel reused is never signalled.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass

PR_SET_CHILD_SUBREAPER = 36


@dataclass(frozen=True)
class ProcInfo:
    pid: int
    ppid: int
    pgid: int
    sid: int
    start: int  # clock ticks after boot: with the pid, names the process
    state: str  # R, S, D, Z (zombie), T ...


def read_proc(pid: int) -> ProcInfo | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read().decode("ascii", "replace")
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ')'.
    rest = data[data.rfind(")") + 2 :].split()
    try:
        return ProcInfo(pid, int(rest[1]), int(rest[2]), int(rest[3]), int(rest[19]), rest[0])
    except (IndexError, ValueError):
        return None


def all_processes() -> list[ProcInfo]:
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    found = []
    for name in names:
        if name.isdigit():
            info = read_proc(int(name))
            if info is not None:
                found.append(info)
    return found


def tree_of(
    root: int,
    *,
    sid: int | None = None,
    parent_of_orphans: int | None = None,
    table: list[ProcInfo] | None = None,
) -> list[ProcInfo]:
    """`root`'s descendants (not `root`), plus processes of session `sid` and, when given,
    children of `parent_of_orphans` (a subreaper collecting orphans) other than `root`."""
    table = all_processes() if table is None else table
    children: dict[int, list[ProcInfo]] = {}
    for info in table:
        children.setdefault(info.ppid, []).append(info)
    seen: dict[int, ProcInfo] = {}
    todo = [root]
    if parent_of_orphans is not None:
        todo += [c.pid for c in children.get(parent_of_orphans, []) if c.pid != root]
        seen.update({c.pid: c for c in children.get(parent_of_orphans, []) if c.pid != root})
    if sid is not None:
        for info in table:
            if info.sid == sid and info.pid != root:
                seen[info.pid] = info
                todo.append(info.pid)
    while todo:
        pid = todo.pop()
        for child in children.get(pid, []):
            if child.pid not in seen and child.pid != root:
                seen[child.pid] = child
                todo.append(child.pid)
    return list(seen.values())


def still_alive(known: Iterable[ProcInfo]) -> list[ProcInfo]:
    """Those of `known` that still run (same pid and start time, not a zombie)."""
    alive = []
    for info in known:
        now = read_proc(info.pid)
        if now is not None and now.start == info.start and now.state != "Z":
            alive.append(now)
    return alive


def reap(pids: Iterable[int]) -> None:
    """Collect the exit status of those that are our own children (orphans we adopted)."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except (ChildProcessError, OSError):
            pass


def signal_all(procs: Iterable[ProcInfo], sig: int) -> None:
    for info in procs:
        try:
            os.kill(info.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def end_processes(procs: Iterable[ProcInfo], grace: float = 2.0) -> list[ProcInfo]:
    """SIGTERM each, wait up to `grace` seconds, then SIGKILL what is left. Returns those ended."""
    procs = still_alive(procs)
    if not procs:
        return []
    signal_all(procs, signal.SIGTERM)
    deadline = time.monotonic() + grace
    left = procs
    while left and time.monotonic() < deadline:
        reap(p.pid for p in left)
        time.sleep(0.05)
        left = still_alive(left)
    if left:
        signal_all(left, signal.SIGKILL)
        deadline = time.monotonic() + 2.0
        while left and time.monotonic() < deadline:
            reap(p.pid for p in left)
            time.sleep(0.02)
            left = still_alive(left)
    reap(p.pid for p in procs)
    return procs


def become_subreaper() -> bool:
    """Orphaned descendants are re-parented to this process instead of init (Linux 3.4+)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def exit_status(returncode: int) -> int:
    """A process's status as a shell reports it: the code, or 128+N for death by signal N."""
    return 128 - returncode if returncode < 0 else returncode
