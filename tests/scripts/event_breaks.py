"""Compiler events for event breakpoints (tests/test_event_breaks.py): each line an event is about
is marked `# EVENT: <kind>`."""

import torch


def f(x, n):
    if x.shape[0] == 8:  # EVENT: specialize
        x = x + 1
    y = x.sin()
    print("a graph break")  # EVENT: graph_break
    return y * n


fc = torch.compile(f, backend="eager", dynamic=True)
fc(torch.randn(8), 2)  # EVENT: cache_miss
fc(torch.randn(8, dtype=torch.float64), 2)  # EVENT: recompile
