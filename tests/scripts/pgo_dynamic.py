"""Automatic dynamic shapes with PGO: the first run compiles `f` static for 4, then dynamic for 8
(a recompile) and records the dynamic size in the Inductor cache folder's PGO profile. A second run
with the same cache folder reads that profile and compiles `f` dynamic at once: one compile. torch
keys local profiles by a job id: run both with the same `TORCH_COMPILE_JOB_ID`."""

import torch


def f(x: torch.Tensor) -> torch.Tensor:
    return torch.sin(x) * 2 + x.sum()


cf = torch.compile(f)
for n in (4, 8, 12):
    print(f"n={n} total {cf(torch.ones(n)).sum().item():.3f}")
