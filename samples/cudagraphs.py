"""CUDA graphs with torch.compile(mode="reduce-overhead").

1. An MLP in inference: the first call warms the compiled graph up, the second records it
   into a CUDA graph, later calls replay it.
2. The same model after one weight's storage was swapped: the graph baked that address in,
   so Inductor re-records it (a re-recording, with its reason).
3. A function that mutates an input in place: Inductor skips CUDA graphs for it
   ("skipping cudagraphs due to mutated inputs").

Run it with plain `python samples/cudagraphs.py` (on a machine without CUDA it still runs,
without CUDA graphs), or step through it with `tcdebug samples/cudagraphs.py`.
"""

import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self, d_in: int = 64, d_hidden: int = 128, d_out: int = 10) -> None:
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x))).softmax(-1)


def scale_into(x: torch.Tensor, total: torch.Tensor) -> torch.Tensor:
    total.add_(x.sum(0))  # an in-place update of an input that is neither parameter nor buffer
    return x * 2


def main() -> None:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    model = MLP().to(device).eval()
    compiled = torch.compile(model, mode="reduce-overhead")
    x = torch.randn(8, 64, device=device)

    with torch.no_grad():
        for _ in range(3):  # warm-up, record, replay
            top = compiled(x).argmax(-1).tolist()
        print(f"inference on {device}: top classes {top}")

        model.fc2.weight.data = model.fc2.weight.data.clone()  # same values, new address
        for _ in range(2):
            top = compiled(x).argmax(-1).tolist()
        print(f"after swapping fc2.weight's storage: top classes {top}")

    step = torch.compile(scale_into, mode="reduce-overhead")
    total = torch.zeros(64, device=device)
    for _ in range(3):
        y = step(x, total)
    print(f"mutating input: total[0] = {total[0].item():.4f}, y {tuple(y.shape)}")


if __name__ == "__main__":
    main()
