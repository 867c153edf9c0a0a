"""A graph break (print) inside an inlined function within a with-block: Dynamo restarts
the analysis of `outer` (attempt 0/0 -> 0/0_1) and skips the frame."""

import torch


def inner(x):
    y = x.sin()
    print("inside inner")  # a graph break in an inlined function: Dynamo restarts the analysis
    return y.cos()


def outer(x):
    with torch.no_grad():
        z = inner(x) + 1
    return z * 2


torch.compile(outer)(torch.randn(8))
