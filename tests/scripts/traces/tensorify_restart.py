"""A float argument that Inductor cannot take as a tensor: the pass that tensorifies Python
scalars restarts Dynamo's analysis (TensorifyScalarRestartAnalysis), and the next attempt
specializes the float."""

import torch

torch._dynamo.config.specialize_float = False


@torch.compile(backend="inductor")
def f(x: torch.Tensor, y: float) -> torch.Tensor:
    return torch.full((4,), y) + x.clamp(min=y)


for y in (2.5, 3.5, 4.5):
    f(torch.randn(4), y)
print("done")
