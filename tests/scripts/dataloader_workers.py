"""A DataLoader with 2 (forked) workers whose workers call a compiled function.

With `$DATALOADER_WORKERS_GO` set to a path, the workers are forked only once that file exists
(up to 120 s): a test that must set something up in the debugger before the fork creates it then.
"""

import torch
from go_file import wait_for_go_file
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
    wait_for_go_file("DATALOADER_WORKERS_GO")
    loader = DataLoader(Numbers(), batch_size=2, num_workers=2, multiprocessing_context="fork")
    total = sum(batch.sum().item() for batch in loader)
    print("total", round(total, 3))
