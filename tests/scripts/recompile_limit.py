"""A function recompiled for each new int until Dynamo's recompile limit (3) is hit."""

import torch

torch._dynamo.config.recompile_limit = 3


@torch.compile(backend="aot_eager", dynamic=False)
def scale(x: torch.Tensor, n: int) -> torch.Tensor:
    return x * n + 1


for n in range(5):
    scale(torch.ones(4), n)
print("done")
