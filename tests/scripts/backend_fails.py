import torch


def failing_backend(gm, example_inputs):
    raise RuntimeError("backend exploded on purpose")


@torch.compile(backend=failing_backend)
def f(x):
    return torch.relu(x) + 1


print("calling f")
f(torch.ones(4))
