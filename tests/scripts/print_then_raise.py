"""Writes to stdout and stderr in turn, then raises: the order must be kept."""

import sys


def fail() -> None:
    raise ValueError("boom after print")


print("first: stdout")
print("second: stderr", file=sys.stderr)
print("third: stdout")
fail()
