"""Kernel choice and CUDA-graph recordings on a GPU: `tcdebug --dump OUT samples/autotune.py`.

1. `matmul_relu` under mode="max-autotune-no-cudagraphs": Inductor benchmarks every mm choice
   (Triton templates with their BLOCK_M/N/K, num_warps, num_stages, and ATen's mm) and keeps the
   fastest; `w` on its compile shows the whole choice table.
2. `attention_scores` under mode="reduce-overhead" with dynamic=True, called with three sequence
   lengths: one compile (symbolic sizes), one CUDA graph recording per length; `w` names the size
   that changed for each new recording.

On a machine without CUDA it still runs (no Triton, no CUDA graphs).
"""

import torch


def matmul_relu(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.relu(a @ b)


def attention_scores(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return (q @ k.transpose(-1, -2) * 0.125).softmax(-1)  # 1/sqrt(64), a constant: no symbolic float


def main() -> None:
    cuda = torch.cuda.is_available()
    device = "cuda" if cuda else "cpu"
    dtype = torch.float16 if cuda else torch.float32
    torch.manual_seed(0)

    mm = torch.compile(matmul_relu, mode="max-autotune-no-cudagraphs")
    a = torch.randn(256, 256, device=device, dtype=dtype)
    b = torch.randn(256, 256, device=device, dtype=dtype)
    print("max-autotune:", tuple(mm(a, b).shape))

    scores = torch.compile(attention_scores, mode="reduce-overhead", dynamic=True)
    for seq in (16, 32, 48):
        q = torch.randn(2, seq, 64, device=device)
        for _ in range(3):  # warm-up, record, replay
            out = scores(q, q)
        print(f"reduce-overhead, sequence length {seq}:", tuple(out.shape))


if __name__ == "__main__":
    main()
