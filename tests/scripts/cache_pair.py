"""A small training step, run twice with one Inductor cache: the second run hits. `SCALE` (the
first argument) is a constant of the graph: another value is a miss whose key differs in the graph."""

import sys

import torch

SCALE = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0


def step(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return (torch.relu(x @ w) * SCALE).sum()


w = torch.randn(16, 8, requires_grad=True)
loss = torch.compile(step)(torch.randn(4, 16), w)
loss.backward()
print(f"loss computed, grad {tuple(w.grad.shape)}")
