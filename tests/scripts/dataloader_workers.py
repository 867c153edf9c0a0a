"""A DataLoader with 2 (forked) workers whose workers call a compiled function."""

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
    loader = DataLoader(Numbers(), batch_size=2, num_workers=2, multiprocessing_context="fork")
    total = sum(batch.sum().item() for batch in loader)
    print("total", round(total, 3))
