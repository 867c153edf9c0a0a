"""Two gloo ranks on the CPU whose compiled graphs issue different collectives.

Each rank compiles `step` with Inductor; rank 1 all-reduces twice where rank 0 all-reduces once,
so their collective schedules (`inductor_collective_schedule`) differ: rank 1 has an extra
`all_reduce_` and `wait_tensor` (rank 0 makes up for it with an eager all-reduce, so the job
still ends). Rank 1 also runs the two compiled functions in the other order
(`graph_execution`, recorded with `record_and_log_graph_execution_order`).
"""

import os
import socket

import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as fc
import torch.multiprocessing as mp

WORLD_SIZE = 2


def make_step(extra: bool):  # type: ignore[no-untyped-def]
    def step(x: torch.Tensor) -> torch.Tensor:
        y = fc.all_reduce(x * 2, "sum", dist.group.WORLD)
        if extra:
            y = fc.all_reduce(y + 1, "sum", dist.group.WORLD)
        return y.relu()

    return step


def total(x: torch.Tensor) -> torch.Tensor:
    return (x * x).sum(dim=-1)


def worker(rank: int, port: int) -> None:
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=WORLD_SIZE)
    step = torch.compile(make_step(rank == 1))
    summed = torch.compile(total)
    x = torch.randn(4, 8)
    with torch._inductor.debug.record_and_log_graph_execution_order():
        if rank == 0:
            out = step(x)
            dist.all_reduce(out)  # the all-reduce rank 1 compiled into its graph
            summed(out)
        else:
            summed(x)
            step(x)
    dist.destroy_process_group()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


if __name__ == "__main__":
    os.environ.setdefault("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1")
    mp.spawn(worker, args=(_free_port(),), nprocs=WORLD_SIZE)
