# File: samples/graph_breaks.py, lines 6-13, in normalize
def normalize(x: torch.Tensor) -> torch.Tensor:
    y = torch.sin(x) * 2
    print("normalizing", tuple(y.shape))  # graph break: print
    scale = y.abs().max().item()  # graph break: .item() (unless capture_scalar_outputs)
    y = y / (scale + 1e-6)
    if y.sum() > 0:  # graph break: data-dependent control flow
        return torch.relu(y)
    return torch.tanh(y)
