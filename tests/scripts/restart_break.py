"""A graph break at top level: Dynamo restarts its analysis, torch keys the compile 0/0 then 0/0_1."""

import torch


def f(x: torch.Tensor) -> torch.Tensor:
    y = x.sin()
    print("hi")
    return y.cos()


torch.compile(f, backend="eager")(torch.randn(4))
