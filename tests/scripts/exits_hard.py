"""Prints, then ends without unwinding: `os._exit(N)` (N from argv, default 5), or `kill`: death
by SIGKILL."""

import os
import signal
import sys

print("before os._exit", flush=True)
if sys.argv[1:] == ["kill"]:
    os.kill(os.getpid(), signal.SIGKILL)
os._exit(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
