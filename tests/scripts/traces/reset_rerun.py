"""One process compiles `f`, resets Dynamo, and compiles it again: Dynamo's ids start over (0/0 twice)."""

import torch


def f(x):
    return x.sin() + 1


torch.compile(f, backend="aot_eager")(torch.randn(4))
torch._dynamo.reset()
torch.compile(f, backend="aot_eager")(torch.randn(4))
