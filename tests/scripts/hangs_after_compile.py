import time

import torch


@torch.compile(backend="eager")
def f(x):
    return torch.relu(x) + 1


f(torch.ones(4))
print("compiled; now sleeping", flush=True)
time.sleep(600)
