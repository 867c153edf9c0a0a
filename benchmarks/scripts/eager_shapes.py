"""Many small compiles fast: one function under `aot_eager` (no Inductor), recompiled for
each of N shapes (dynamic shapes off).

`python benchmarks/scripts/eager_shapes.py [N]` (default 10): N compiles, each with its Dynamo
and AOTAutograd stages. Used by `live_latency.py`.
"""

import sys

import torch
import torch._dynamo


def f(x: torch.Tensor) -> torch.Tensor:
    return torch.sin(x) * 2 + torch.cos(x)


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    for name in ("recompile_limit", "cache_size_limit"):
        if hasattr(torch._dynamo.config, name):
            setattr(torch._dynamo.config, name, max(n + 1, 8))
    compiled = torch.compile(f, backend="aot_eager", dynamic=False)
    print(sum(compiled(torch.ones(i + 1)).sum().item() for i in range(n)))
