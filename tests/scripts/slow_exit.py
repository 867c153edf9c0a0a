"""Compiles one small function, then, at exit, waits for the file named by `$SLOW_EXIT_GO`
(up to 120 s): an exit that takes as long as a test wants."""

import atexit

import torch
from go_file import wait_for_go_file

atexit.register(wait_for_go_file, "SLOW_EXIT_GO")
torch.compile(lambda x: x.sin() + 1, backend="aot_eager")(torch.randn(4))
print("script done")
