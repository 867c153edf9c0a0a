"""A module's eager `forward` calls a compiled loss: Dynamo compiles `loss_of` while `forward` runs.

Inductor's joint-graph passes rewrite the cross-entropy backward into new nodes that carry no
stack trace; a run without provenance tracking prints "No stacktrace found" above them.
"""

import torch
import torch.nn.functional as F


@torch.compile
def loss_of(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits, labels)


class Head(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = torch.nn.Linear(8, 5)

    def forward(self, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return loss_of(self.proj(x), labels)  # the compile's caller


torch.manual_seed(0)
loss = Head()(torch.randn(4, 8), torch.tensor([0, 1, 2, 3]))
loss.backward()
print(f"loss {loss.item():.4f}")
