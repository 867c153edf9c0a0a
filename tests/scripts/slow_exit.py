"""Compiles one small function, then, at exit, waits for the file named by `$SLOW_EXIT_GO`
(up to 120 s): an exit that takes as long as a test wants."""

import atexit
import os
import time

import torch


def wait_for_go() -> None:
    deadline = time.monotonic() + 120
    while not os.path.exists(os.environ.get("SLOW_EXIT_GO", "")) and time.monotonic() < deadline:
        time.sleep(0.05)


atexit.register(wait_for_go)
torch.compile(lambda x: x.sin() + 1, backend="aot_eager")(torch.randn(4))
print("script done")
