"""torch._dynamo.reset() between compiles that restart: each compile's attempts are numbered afresh."""

import torch


def g(x: torch.Tensor) -> torch.Tensor:
    return x.relu() + 1


def f(x: torch.Tensor) -> torch.Tensor:
    y = x.sin()
    print("hi")
    return y.cos()


torch.compile(g, backend="eager")(torch.randn(4))
torch._dynamo.reset()
torch.compile(f, backend="eager")(torch.randn(4))
torch._dynamo.reset()
torch.compile(f, backend="eager")(torch.randn(4))
