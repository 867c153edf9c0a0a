"""FSDP2 (`fully_shard`) + torch.compile on a small model, one process per rank: run it under torchrun.

    tcdebug torchrun --nproc-per-node 2 samples/fsdp.py [--backend aot_eager] [--steps 2]

gloo on the CPU, nccl when CUDA is there (one GPU per local rank). Each linear layer is its own
FSDP unit, then the root: their parameters are sharded across the ranks and all-gathered around
each layer's forward and backward by FSDP2's hooks.
"""

import argparse
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard


class Block(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + torch.relu(self.proj(x))


class Net(nn.Module):
    def __init__(self, dim: int = 64, depth: int = 2) -> None:
        super().__init__()
        self.blocks = nn.ModuleList(Block(dim) for _ in range(depth))
        self.head = nn.Linear(dim, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", default="inductor", help="the torch.compile backend")
    parser.add_argument("--steps", type=int, default=2)
    args = parser.parse_args()
    cuda = torch.cuda.is_available()
    dist.init_process_group("nccl" if cuda else "gloo")
    rank = dist.get_rank()
    if cuda:
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    device = torch.device("cuda" if cuda else "cpu")
    mesh = init_device_mesh(device.type, (dist.get_world_size(),))
    torch.manual_seed(0)
    model = Net().to(device)
    for block in model.blocks:
        fully_shard(block, mesh=mesh)  # one FSDP unit per block
    fully_shard(model, mesh=mesh)  # the root: the head's parameters
    compiled = torch.compile(model, backend=args.backend)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(args.steps):
        x = torch.randn(16, 64, device=device)
        loss = compiled(x).square().mean()
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
