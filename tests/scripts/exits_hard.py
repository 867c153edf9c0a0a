"""Prints, then leaves with os._exit(N) (N from argv, default 5): no exception, no atexit."""

import os
import sys

print("before os._exit", flush=True)
os._exit(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
