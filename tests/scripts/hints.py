"""The common causes of recompiles and breaks (tests/test_event_breaks.py), each marked `# HINT: <id>`."""

import torch

torch.manual_seed(0)
torch._dynamo.config.recompile_limit = 3
lin = torch.nn.Linear(4, 1)
model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.5))
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def train_step(x):
    loss = lin(x).abs().sum()
    if loss.item() > 0.0:  # HINT: scalar
        loss = loss * 2
    return loss


def scale(t):
    return t.sin() * 2


def step():
    opt.step()  # HINT: library_break


step_c = torch.compile(train_step, backend="eager")
for i in range(5):
    step_c(torch.full((2, 4), float(i + 1)))  # HINT: recompile_limit
fwd = torch.compile(model, backend="eager")
x = torch.randn(2, 4)
fwd(x)
model.eval()
fwd(x)  # HINT: training
with torch.no_grad():
    fwd(x)  # HINT: grad_mode
scale_c = torch.compile(scale, backend="eager")
scale_c(x)
scale_c(x.double())  # HINT: dtype
scale_c(x.clone().requires_grad_())  # HINT: requires_grad
scale_c(x.to("meta"))  # HINT: device
for p in model.parameters():
    p.grad = torch.ones_like(p)
torch.compile(step, backend="eager")()
