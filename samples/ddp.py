"""DDP + torch.compile on a small model, one process per rank: run it under torchrun.

    tcdebug torchrun --nproc-per-node 2 samples/ddp.py [--backend aot_eager] [--steps 2] [--mode reduce-overhead]

gloo on the CPU, nccl when CUDA is there (one GPU per local rank).
"""

import argparse
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", default="inductor", help="the torch.compile backend")
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--mode", default=None, help="torch.compile's mode, e.g. reduce-overhead (CUDA graphs)")
    args = parser.parse_args()
    cuda = torch.cuda.is_available()
    dist.init_process_group("nccl" if cuda else "gloo")
    rank = dist.get_rank()
    device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0"))) if cuda else torch.device("cpu")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 8))
    # DDP around the compiled module: its forward runs inside DDP's, where Dynamo's DDPOptimizer
    # applies. 1 MB buckets (the smallest it allows): the two 1 MB layers fill a bucket each, so it
    # splits the compiled graph at the bucket boundary.
    ddp = DDP(torch.compile(model.to(device), backend=args.backend, mode=args.mode), bucket_cap_mb=1)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
    for _ in range(args.steps):
        x = torch.randn(16, 512, device=device)
        loss = ddp(x).square().mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(f"rank {rank}: loss {loss.item():.4f}")
    # Every collective done (its work freed here, not by gloo's thread while the process group is
    # being destroyed: torch 2.13 can deadlock there, on the GIL, about one exit in ten).
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
