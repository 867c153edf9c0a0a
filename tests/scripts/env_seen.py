"""Prints the environment entries tcdebug could leak, as this script, a subprocess of it and
Inductor's compile workers see them: under tcdebug they must read as under python."""

import json
import os
import subprocess
import sys

import torch

from tcdebug.process.proctree import tree_of  # the script's process tree from /proc

WATCHED = ("TCDEBUG", "PYTHONUNBUFFERED", "PYTHONPATH")


def watched(environ: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in sorted(environ.items()) if k.startswith(WATCHED)}


def initial_environ(pid: int) -> dict[str, str]:
    """What a process was started with (`/proc/PID/environ`)."""
    with open(f"/proc/{pid}/environ", "rb") as fh:
        entries = [e.decode(errors="replace") for e in fh.read().split(b"\0") if b"=" in e]
    return dict(e.split("=", 1) for e in entries)


def compile_worker_environs() -> list[dict[str, str]]:
    seen = []
    for pid in (p.pid for p in tree_of(os.getpid())):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmdline = fh.read()
            if b"compile_worker" in cmdline:
                seen.append(watched(initial_environ(pid)))
        except OSError:
            pass
    return seen


f = torch.compile(lambda x: (x * 2).sin() + 1)
f(torch.ones(8))
child = subprocess.run(
    [sys.executable, "-c", "import json, os; print(json.dumps(dict(os.environ)))"],
    capture_output=True,
    text=True,
    check=True,
)
print("ENV_SCRIPT", json.dumps(watched(dict(os.environ))))
print("ENV_SUBPROCESS", json.dumps(watched(json.loads(child.stdout))))
workers = compile_worker_environs()
print("ENV_WORKERS", json.dumps(workers[:1]))  # all alike; none where Inductor used no pool
