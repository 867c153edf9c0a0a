"""One process of a DDP job (gloo, world size 1) whose compiled graph DDPOptimizer splits in two:
two 1 MB layers in 1 MB buckets, so one compile runs AOTAutograd and Inductor once per subgraph
(`submod_0`, `submod_1`), and their backwards at `.backward()`, last to first."""

import os
import socket

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

with socket.socket() as sock:
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", str(port))
dist.init_process_group("gloo", rank=0, world_size=1)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 8))
ddp = DDP(torch.compile(model), bucket_cap_mb=1)
loss = ddp(torch.randn(16, 512)).square().mean()
loss.backward()
print(f"loss {loss.item():.4f}")
dist.destroy_process_group()
