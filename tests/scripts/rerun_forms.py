"""Re-runs replay the call's exact form (tests/test_live_capture.py): keywords through a
`*args, **kwargs` wrapper, one tensor passed as two arguments, a call made under no_grad."""

import functools

import torch


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
