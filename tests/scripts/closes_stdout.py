"""Closes fd 1, then prints: python raises OSError(EBADF)."""

import os
import sys

print("before", flush=True)
os.close(1)
try:
    print("after", flush=True)
except OSError as exc:
    sys.stderr.write(f"print raised OSError {exc.errno}\n")
