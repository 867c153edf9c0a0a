"""Live-capture cases of issue 13, one script so one target run serves them all (tests/test_live_capture.py).

The last part is for re-runs, which replay the call's exact form: keywords through a
`*args, **kwargs` wrapper, one tensor passed as two arguments, a call made under no_grad.
"""

import functools
import traceback

import torch

torch.manual_seed(0)


# 1. a forward and a backward kernel with the same name (cpp_fused_mul_0)
def mul(x, y):
    return x * y


a = torch.randn(8, requires_grad=True)
b = torch.randn(8, requires_grad=True)
torch.compile(mul)(a, b).sum().backward()

# 2. BatchNorm2d in train(): the running-stat write-backs have no stack trace in plain torch
bn = torch.compile(torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)).train())
bn(torch.randn(2, 3, 8, 8)).sum().backward()


# 5. aot_eager: AOTAutograd runs, Inductor does not; the backward runs
def sin_cos(x):
    return torch.sin(x) * torch.cos(x)


torch.compile(sin_cos, backend="aot_eager")(torch.randn(4, requires_grad=True)).sum().backward()


# an error inside a compiled function: its traceback as the script prints it
def explode(x):
    raise ValueError("boom inside a compiled function")


try:
    torch.compile(explode, backend="eager")(torch.ones(2))
except ValueError:
    traceback.print_exc()


# ----- re-runs replay the call's exact form --------------------------------------------------------
def passthrough(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):  # like transformers' decorators on forward
        return fn(*args, **kwargs)

    return wrapper


class Masked(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    @passthrough
    def forward(self, inp, mask=None):
        out = self.fc(inp)
        return out if mask is None else out * mask


def tied(a, b=None):
    return (a * 2 + b).sum()


def infer(ng):
    return torch.relu(ng) + 1


masked = torch.compile(Masked())
masked(torch.randn(4, 8), mask=torch.ones(4, 8))
t = torch.randn(6)
torch.compile(tied)(t, b=t)
with torch.no_grad():
    torch.compile(infer)(torch.randn(4, 8))
