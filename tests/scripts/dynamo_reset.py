"""torch._dynamo.reset() between two compiles: torch numbers the second compile 0/0 again."""

import torch


def first(x: torch.Tensor) -> torch.Tensor:
    return torch.relu(x) * 2


def second(x: torch.Tensor) -> torch.Tensor:
    return torch.sigmoid(x) + 1


with torch.no_grad():
    torch.compile(first)(torch.randn(4, 4))
    torch._dynamo.reset()
    torch.compile(second)(torch.randn(4, 4))
print("done")
