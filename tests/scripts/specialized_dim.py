"""A mark_dynamic dimension that a branch specializes (tests/test_event_breaks.py): its chain names
the branch's line."""

import torch


def f(x):
    if x.shape[0] == 8:  # EVENT: branch
        return x.sin()
    return x.cos()


x = torch.randn(8, 3)
torch._dynamo.mark_dynamic(x, 0)
try:
    torch.compile(f, backend="eager")(x)
except Exception as exc:  # noqa: BLE001 - torch refuses: the marked dimension was specialized
    print("refused:", type(exc).__name__)
