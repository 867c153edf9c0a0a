# File: samples/autotune.py, lines 20-21, in attention_scores
def attention_scores(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    return (q @ k.transpose(-1, -2) * 0.125).softmax(-1)  # 1/sqrt(64), a constant: no symbolic float
