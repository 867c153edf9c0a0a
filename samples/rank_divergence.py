"""Ranks that diverge on purpose (2 or more): run it under torchrun.

    tcdebug torchrun --nproc-per-node 2 samples/rank_divergence.py [--exit-early] [--backend B]
    tcdebug torchrun --nproc-per-node 4 samples/rank_divergence.py --exit-early

- `scale` reads a rank-dependent global: rank 1 traces a different graph (an extra `tanh`) for
  the same compile id 0/0.
- With `--exit-early`, rank 1 leaves (exit code 0) after that compile while the other ranks go on
  and compile `norm` (1/0) without it.
"""

import argparse
import sys

import torch
import torch.distributed as dist

SQUASH = False  # set on rank 1 only


def scale(x: torch.Tensor) -> torch.Tensor:
    y = x * 2
    if SQUASH:  # a Python-level branch: rank 1 traces a different graph
        y = torch.tanh(y)
    return y.sum(dim=-1)


def norm(x: torch.Tensor) -> torch.Tensor:
    return x / x.norm()


def main() -> None:
    global SQUASH
    parser = argparse.ArgumentParser()
    parser.add_argument("--exit-early", action="store_true", help="rank 1 leaves after its first compile")
    parser.add_argument("--backend", default="aot_eager")
    args = parser.parse_args()
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    SQUASH = rank == 1
    torch.compile(scale, backend=args.backend)(torch.randn(8, 16))
    if args.exit_early and rank == 1:
        print("rank 1: leaving early")
        sys.exit(0)
    torch.compile(norm, backend=args.backend)(torch.randn(8, 16))
    print(f"rank {rank}: done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
