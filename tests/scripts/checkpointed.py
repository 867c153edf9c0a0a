"""Activation checkpointing under torch.compile: Dynamo wraps the checkpointed function in a
`tag_activation_checkpoint` subgraph; AOTAutograd recomputes its ops in the backward."""

import torch
from torch.utils.checkpoint import checkpoint


class Block(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.a = torch.nn.Linear(16, 32)
        self.b = torch.nn.Linear(32, 16)

    def inner(self, x: torch.Tensor) -> torch.Tensor:
        return self.b(torch.nn.functional.gelu(self.a(x)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return checkpoint(self.inner, x, use_reentrant=False).relu().sum()


torch.manual_seed(0)
loss = torch.compile(Block())(torch.randn(8, 16, requires_grad=True))
loss.backward()
print(f"loss {loss.item():.4f}")
