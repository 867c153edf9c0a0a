"""A 2-layer MLP: compiled inference on an 8x64 batch, then one training step.

Run it with plain `python samples/mlp.py`, or step through its compiles with
`tcdebug samples/mlp.py`.
"""

import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self, d_in: int = 64, d_hidden: int = 128, d_out: int = 10) -> None:
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


def main() -> None:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    model = MLP().to(device)
    compiled = torch.compile(model)
    x = torch.randn(8, 64, device=device)

    with torch.no_grad():
        out = compiled(x)
    print(f"inference on {device}: output {tuple(out.shape)}")

    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    target = torch.randint(0, 10, (8,), device=device)
    loss = nn.functional.cross_entropy(compiled(x), target)
    loss.backward()
    opt.step()
    print(f"one training step: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
