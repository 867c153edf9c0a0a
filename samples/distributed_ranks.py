"""Two CPU ranks (gloo) that compile the same functions but diverge on rank 1.

- `step` compiles on both ranks with an (8, 16) input (compile 0/0). Rank 1 then calls it
  with a (4, 16) input as well, so only rank 1 recompiles (0/1, "size mismatch").
- `scale` reads a rank-dependent global, so both ranks compile 1/0 but rank 1 traces a
  different graph (an extra `tanh`).
- `norm` recompiles on both ranks (2/1), for different reasons: rank 0 passes a float64
  input, rank 1 a new batch size.

Run it with `TORCH_TRACE=/tmp/ranks python samples/distributed_ranks.py`, then
`tcdebug open /tmp/ranks` to see one log per rank and the divergences.
"""

import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

WORLD_SIZE = 2
SQUASH = False  # set on rank 1 only


def step(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return torch.relu(x @ w) + 1


def scale(x: torch.Tensor) -> torch.Tensor:
    y = x * 2
    if SQUASH:  # a Python-level branch: rank 1 traces a different graph
        y = torch.tanh(y)
    return y.sum(dim=-1)


def norm(x: torch.Tensor) -> torch.Tensor:
    return x / x.norm()


def worker(rank: int, port: int) -> None:
    global SQUASH
    os.environ.setdefault("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1")
    # Initialise the group before the first compile: the trace file name gets the rank.
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=WORLD_SIZE)
    torch.manual_seed(0)
    w = torch.randn(16, 16)

    compiled_step = torch.compile(step)
    out = compiled_step(torch.randn(8, 16), w)
    if rank == 1:
        out = compiled_step(torch.randn(4, 16), w)  # only rank 1 recompiles
    total = out.sum().reshape(1)
    dist.all_reduce(total)

    SQUASH = rank == 1
    res = torch.compile(scale)(torch.randn(8, 16))
    dist.all_reduce(res)

    compiled_norm = torch.compile(norm)
    compiled_norm(torch.randn(8, 16))
    second = torch.randn(8, 16, dtype=torch.float64) if rank == 0 else torch.randn(4, 16)
    compiled_norm(second)  # recompiles on both ranks, for different reasons
    print(f"rank {rank}: step sum {total.item():.3f}, scale {tuple(res.shape)}")
    # Every collective done (its work freed here, not by gloo's thread while the process group is
    # being destroyed: torch 2.13 can deadlock there, on the GIL, about one exit in ten).
    dist.barrier()
    dist.destroy_process_group()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    mp.spawn(worker, args=(_free_port(),), nprocs=WORLD_SIZE, join=True)


if __name__ == "__main__":
    main()
