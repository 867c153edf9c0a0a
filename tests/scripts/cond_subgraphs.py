"""torch.cond under Inductor: the compiled graph and each branch get a scheduler of their own,
so each IR stage is logged three times in one compile (the graph's, then each branch's)."""

import torch


def branches(x: torch.Tensor) -> torch.Tensor:
    y = torch.relu(x) + 1
    return torch.cond(y.sum() > 0, lambda t: t.sin() * 2, lambda t: t.cos() - 1, (y,))


with torch.no_grad():
    print(torch.compile(branches)(torch.randn(8, 4)).shape)
