"""The smallest compile: one function through Dynamo and AOTAutograd (`--quick` runs)."""

import torch


def f(x: torch.Tensor) -> torch.Tensor:
    return torch.sin(x) + 1


if __name__ == "__main__":
    print(torch.compile(f, backend="aot_eager")(torch.ones(4)).sum().item())
