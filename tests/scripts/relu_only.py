"""One Inductor compile of a relu and a multiply."""

import torch


def f(x):
    return torch.relu(x) * 2


torch.compile(f)(torch.randn(64))
