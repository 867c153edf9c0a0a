"""Forks a helper that outlives the script. `setsid`: the helper leaves the session and its
process group and double-forks (a daemon whose parent is gone). `wait`: the script itself keeps
running too. The helper's pid is appended to argv[1]."""

import os
import sys
import time

import torch

pids_file, mode = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")


@torch.compile(backend="eager")
def f(x):
    return x + 1


f(torch.ones(2))
pid = os.fork()
if pid == 0:
    if mode == "setsid":
        os.setsid()
        if os.fork() > 0:
            os._exit(0)
    with open(pids_file, "a") as fh:
        fh.write(f"{os.getpid()}\n")
    time.sleep(300)
    os._exit(0)
deadline = time.time() + 30
while time.time() < deadline and not (os.path.exists(pids_file) and open(pids_file).read().strip()):
    time.sleep(0.05)
print("helper started", flush=True)
if mode == "wait":
    time.sleep(300)
