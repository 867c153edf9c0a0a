"""A one-line function compiled for a tiny float32 tensor; with the argument `float64`, called
again for a float64 one (a recompile whose FX graph key differs in its input's dtype). Run twice
with one Inductor cache, the float32 compile of the second run hits."""

import sys

import torch


def scale(x: torch.Tensor) -> torch.Tensor:
    return torch.sin(x) * 2


compiled = torch.compile(scale)
compiled(torch.ones(4))
if sys.argv[1:] == ["float64"]:
    compiled(torch.ones(4, dtype=torch.float64))
print("compiled")
