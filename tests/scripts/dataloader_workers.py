"""A DataLoader with 2 (forked) workers whose workers call a compiled function.

With `$DATALOADER_WORKERS_GO` set to a path, the workers are forked only once that file exists
(up to 120 s): a test that must set something up in the debugger before the fork creates it then.
"""

import os
import time

import torch
from torch.utils.data import DataLoader, Dataset


@torch.compile(backend="aot_eager")
def transform(x):
    return torch.cos(x) * 2


class Numbers(Dataset):
    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int) -> torch.Tensor:
        return transform(torch.full((4,), float(i)))


if __name__ == "__main__":
    go = os.environ.get("DATALOADER_WORKERS_GO")
    deadline = time.monotonic() + 120
    while go and not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.05)
    loader = DataLoader(Numbers(), batch_size=2, num_workers=2, multiprocessing_context="fork")
    total = sum(batch.sum().item() for batch in loader)
    print("total", round(total, 3))
