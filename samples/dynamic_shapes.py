"""Growing batch sizes: a static compile, an automatic-dynamic recompile, and mark_dynamic.

`normalize` runs once, with a batch of 8 (compile 2/0): in tcdebug, press `r` on it, double
the batch, and watch the size guard fail before the recompile turns the 8 into a symbol.
"""

import torch


def scaled_softmax(x: torch.Tensor, temperature: float) -> torch.Tensor:
    return torch.softmax(x / temperature, dim=-1)


def layer(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x) * x.shape[0]


def normalize(x: torch.Tensor) -> torch.Tensor:
    return (x - x.mean(dim=-1, keepdim=True)) * torch.rsqrt(x.var(dim=-1, keepdim=True) + 1e-5)


def main() -> None:
    compiled = torch.compile(scaled_softmax)
    for batch in (4, 8, 16):  # 4 compiles static; 8 recompiles with a dynamic batch; 16 reuses it
        out = compiled(torch.randn(batch, 32), 0.5)
        print(f"batch {batch}: {tuple(out.shape)}")

    compiled_layer = torch.compile(layer)
    x = torch.randn(6, 32)
    torch._dynamo.mark_dynamic(x, 0)  # dynamic from the first compile: the graph uses s0
    print("mark_dynamic:", tuple(compiled_layer(x).shape))
    print("mark_dynamic, new batch:", tuple(compiled_layer(torch.randn(12, 32)).shape))

    compiled_normalize = torch.compile(normalize)
    print("normalize:", tuple(compiled_normalize(torch.randn(8, 64)).shape))


if __name__ == "__main__":
    main()
