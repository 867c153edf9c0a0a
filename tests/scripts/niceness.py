"""Prints this process's niceness and, once tcdebug's parent lowered its own, the parent's."""

import os
import time


def niceness(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as fh:
        return int(fh.read().rsplit(")", 1)[1].split()[16])


mine, parent = niceness(os.getpid()), os.getppid()
deadline = time.monotonic() + 20
while niceness(parent) == mine and time.monotonic() < deadline:
    time.sleep(0.05)
print(f"script {mine} parent {niceness(parent)}", flush=True)
