"""torch.compiler.set_stance (tests/test_event_breaks.py): a call eager_on_recompile runs eagerly and
one fail_on_recompile refuses, each marked `# EVENT: <what>`."""

import torch


def f(x):
    return x.sin() + 1


fc = torch.compile(f, backend="eager")
fc(torch.randn(4))
torch.compiler.set_stance("eager_on_recompile")  # EVENT: set
fc(torch.randn(4))
fc(torch.randn(4, dtype=torch.float64))  # EVENT: ran_eager
torch.compiler.set_stance("fail_on_recompile")
try:
    fc(torch.randn(4, dtype=torch.float64))  # EVENT: failed
except RuntimeError as exc:
    print("refused:", str(exc).splitlines()[0])
