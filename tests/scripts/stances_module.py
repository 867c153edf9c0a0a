"""torch.compiler.set_stance on compiled nn.Modules (tests/test_event_breaks.py): the calls
eager_on_recompile runs eagerly are a module's of the script and one of torch's, each marked
`# EVENT: <what>`; then force_eager runs the module eagerly (one event for its calls), and
eager_then_compile compiles a new function at its second call."""

import torch


class Scale(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(4))

    def forward(self, x):
        return x * self.w


model = torch.compile(Scale(), backend="eager")
linear = torch.compile(torch.nn.Linear(4, 4), backend="eager")
model(torch.randn(2, 4))
linear(torch.randn(2, 4))
torch.compiler.set_stance("eager_on_recompile")  # EVENT: set
model(torch.randn(2, 4))
model(torch.randn(2, 4, dtype=torch.float64))  # EVENT: ran_eager
linear(torch.randn(3, 4))  # EVENT: ran_eager_linear
torch.compiler.set_stance("force_eager")  # EVENT: force_eager
model(torch.randn(2, 4))  # EVENT: forced
model(torch.randn(2, 4))
torch.compiler.set_stance("eager_then_compile")  # EVENT: eager_then_compile
double = torch.compile(lambda t: t * 2, backend="eager")
double(torch.randn(3))  # run eagerly: the first example
double(torch.randn(5))  # compiled, with what the two examples say is dynamic
torch.compiler.set_stance("default")  # EVENT: default
