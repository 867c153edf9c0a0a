"""Two gloo ranks under torchrun whose compiled graphs issue different collectives.

Rank 1's `step` all-reduces twice where rank 0's all-reduces once, so their collective schedules
(`inductor_collective_schedule`) differ; rank 0 makes up for it with an eager all-reduce, so the
job still ends. Rank 1 also runs the two compiled functions in the other order (`graph_execution`,
recorded with `record_and_log_graph_execution_order`).

    tcdebug --dump OUT torchrun --nproc-per-node 2 tests/scripts/torchrun_collectives.py
"""

import torch
import torch.distributed as dist
from traces.collectives_diverge import make_step, total  # the same compiled functions as the log's

dist.init_process_group("gloo")
rank = dist.get_rank()
step, summed = torch.compile(make_step(rank == 1)), torch.compile(total)
x = torch.ones(4, 8)
with torch._inductor.debug.record_and_log_graph_execution_order():
    if rank == 0:
        out = step(x)
        dist.all_reduce(out)  # the all-reduce rank 1 compiled into its graph
        summed(out)
    else:
        summed(x)
        out = step(x)
print(f"rank {rank}: {out.sum().item():.1f}")
dist.destroy_process_group()
