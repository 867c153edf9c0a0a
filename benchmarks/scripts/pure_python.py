"""No torch: some work, then `os.times()`, the end marker `capture_instructions.py` counts to.
Its `--quick` run checks the harness (valgrind, the processes' counts) in seconds."""

import os

print(sum(i * i for i in range(200_000)))
os.times()  # the script's end, for callgrind's --dump-before
