"""Growing batch sizes: a static compile, an automatic-dynamic recompile, and mark_dynamic."""

import torch


def scaled_softmax(x: torch.Tensor, temperature: float) -> torch.Tensor:
    return torch.softmax(x / temperature, dim=-1)


def layer(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x) * x.shape[0]


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


if __name__ == "__main__":
    main()
