"""Closes every descriptor above stderr, as daemons and some launchers do, then opens a file under
a freed number and compiles (on aot_eager: no Inductor)."""

import os

import torch

print("before", flush=True)
os.closerange(3, 4096)
held = open(os.devnull, "w")  # noqa: SIM115 - takes one of the freed numbers
print("after", flush=True)
print(torch.compile(lambda x: x + 1, backend="aot_eager")(torch.ones(3)).sum().item())
print("done")
