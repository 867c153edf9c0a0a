"""Higher-order ops whose subgraphs Inductor lowers on its own: a function marked
`torch.compiler.nested_compile_region`, called twice (one `invoke_subgraph` body), and a
`while_loop` (a condition graph and a body graph)."""

import torch


@torch.compiler.nested_compile_region
def block(x: torch.Tensor) -> torch.Tensor:
    return torch.relu(x) * 2 + 1


def twice(x: torch.Tensor) -> torch.Tensor:
    return block(block(x)).sum()


def loop(i: torch.Tensor, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return torch._higher_order_ops.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x.sin()), (i, x))


with torch.no_grad():
    print(torch.compile(twice)(torch.randn(8, 4)))
    print(torch.compile(loop)(torch.tensor(0), torch.randn(4))[1].shape)
