"""Two gloo ranks on the CPU whose recompile reasons differ only in object addresses.

`step` calls the global `ACT`; swapping it recompiles 0/1 on every rank, for the reason
`___check_obj_id(...)` with an address that differs per process. `total` compiles 1/0.
With `--short` the job stops after `step` (a second, shorter run into the same folder).
With `--cuda` rank N runs on cuda:N (two GPUs): the graphs then differ only in the device index.
"""

import os
import socket
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

WORLD_SIZE = 2


def act_a(x: torch.Tensor) -> torch.Tensor:
    return torch.relu(x)


def act_b(x: torch.Tensor) -> torch.Tensor:
    return torch.tanh(x)


ACT = act_a


def step(x: torch.Tensor) -> torch.Tensor:
    return ACT(x * 2) + torch.ones(x.shape[-1], device=x.device)


def total(x: torch.Tensor) -> torch.Tensor:
    return (x * x).sum(dim=-1)


def worker(rank: int, port: int, short: bool, cuda: bool) -> None:
    global ACT
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=WORLD_SIZE)
    device = f"cuda:{rank}" if cuda else "cpu"
    compiled = torch.compile(step, backend="aot_eager")
    out = compiled(torch.randn(4, 8, device=device))
    ACT = act_b
    out = compiled(torch.randn(4, 8, device=device))  # recompiles: the guard on ACT's identity fails
    if not short:
        out = torch.compile(total, backend="aot_eager")(out)
    dist.all_reduce(out.cpu())
    dist.destroy_process_group()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


if __name__ == "__main__":
    os.environ.setdefault("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1")
    flags = (_free_port(), "--short" in sys.argv, "--cuda" in sys.argv)
    mp.spawn(worker, args=flags, nprocs=WORLD_SIZE, join=True)
