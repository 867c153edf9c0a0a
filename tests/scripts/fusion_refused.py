"""Inductor refuses a fusion (tests/test_event_breaks.py): two reductions with no shared data."""

import torch


def f(x, w):
    s = x.sum(0)  # EVENT: fusion_refused
    y = torch.mm(x, w)
    return (y + s).relu(), x.amax(1)


torch.compile(f)(torch.randn(16, 16), torch.randn(16, 16))  # EVENT: call
