import torch


@torch.compile(backend="eager")
def double(x):
    return x * 2


print("before the error")
double(torch.ones(3))
raise ValueError("boom from user code")
