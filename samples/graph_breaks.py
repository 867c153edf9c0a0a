"""Three graph breaks: a print, a `.item()`, and data-dependent control flow."""

import torch


def normalize(x: torch.Tensor) -> torch.Tensor:
    y = torch.sin(x) * 2
    print("normalizing", tuple(y.shape))  # graph break: print
    scale = y.abs().max().item()  # graph break: .item() (unless capture_scalar_outputs)
    y = y / (scale + 1e-6)
    if y.sum() > 0:  # graph break: data-dependent control flow
        return torch.relu(y)
    return torch.tanh(y)


def main() -> None:
    compiled = torch.compile(normalize)
    torch.manual_seed(0)
    out = compiled(torch.randn(4, 16))
    print("result", tuple(out.shape))


if __name__ == "__main__":
    main()
