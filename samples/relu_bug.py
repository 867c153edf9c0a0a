"""A small MLP compiled while Inductor's test switch miscompiles every relu.

`torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = "accuracy"` (on a GPU, the `triton`
one) makes Inductor's relu add one to its result: the compiled model silently gives other numbers.
`tcdebug --accuracy --dump OUT samples/relu_bug.py` names Inductor, the relu and this file's line;
`--train` compiles a training step instead.
"""

import sys

import torch
import torch._inductor.config
from torch import nn

torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = "accuracy"
torch._inductor.config.triton.inject_relu_bug_TESTING_ONLY = "accuracy"


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.fc1(x) * 0.5
        h = torch.relu(h)
        return self.fc2(h)


def main() -> None:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    model = Net().to(device)
    compiled = torch.compile(model)
    x = torch.randn(8, 16, device=device)
    if "--train" in sys.argv:  # a training compile: forward and backward graphs
        compiled(x).sum().backward()
        return
    with torch.no_grad():
        print("compiled - eager:", (compiled(x) - model(x)).abs().max().item())


if __name__ == "__main__":
    main()
