# File: samples/autotune.py, lines 16-17, in matmul_relu
def matmul_relu(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.relu(a @ b)
