"""One small aot_eager compile: stepping through it pauses inside torch's timed phases."""

import torch


def f(x):
    return torch.sin(x) * 2 + 1


torch.compile(f, backend="aot_eager")(torch.randn(8))
