"""A small HF GPT-2 (2 layers unless `--layers` says, from a config, no download) trained for 3 steps under
`torch.compile(mode="reduce-overhead")`: CUDA graphs on a GPU, plain Inductor on the CPU.

`python benchmarks/scripts/gpt2_train.py [--steps N] [--layers N]`; used by `capture_overhead.py` (CPU)
and `gpu_overhead.py` (CUDA).
"""

import sys

import torch
from transformers import GPT2Config, GPT2LMHeadModel


def main() -> None:
    steps = int(sys.argv[sys.argv.index("--steps") + 1]) if "--steps" in sys.argv else 3
    layers = int(sys.argv[sys.argv.index("--layers") + 1]) if "--layers" in sys.argv else 2
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    config = GPT2Config(n_layer=layers, n_head=4, n_embd=128, vocab_size=1000, n_positions=128)
    model = GPT2LMHeadModel(config).to(device)
    model.config.use_cache = False
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    tokens = torch.randint(0, config.vocab_size, (4, 64), device=device)

    def forward(ids: torch.Tensor) -> torch.Tensor:
        return model(input_ids=ids, labels=ids).loss

    compiled = torch.compile(forward, mode="reduce-overhead")
    for _ in range(steps):
        if device == "cuda":
            torch.compiler.cudagraph_mark_step_begin()
        loss = compiled(tokens)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    if device == "cuda":
        torch.cuda.synchronize()
    print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
