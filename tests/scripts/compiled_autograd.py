"""A training step under compiled autograd: Dynamo compiles the step, and the backward that
`loss.backward()` runs is captured by compiled autograd (`!0`) and compiled by Dynamo as
`!0/F/0`. Then a backward of an eager model under `compiled_autograd._enable`: capture `!1`."""

import torch

torch._dynamo.config.compiled_autograd = True
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))


@torch.compile(backend="aot_eager")
def step(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss


step(torch.randn(8, 16), torch.randn(8, 4))
print("grad", tuple(model[0].weight.grad.shape))
head = torch.nn.Sequential(torch.nn.Linear(16, 4), torch.nn.Tanh())
total = head(torch.randn(3, 16)).sum()
with torch._dynamo.compiled_autograd._enable(torch.compile(backend="aot_eager")):
    total.backward()
print("head grad", tuple(head[0].weight.grad.shape))
