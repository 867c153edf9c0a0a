"""torch.export, then AOTInductor on the CPU (wrapper and kernel code land in the trace)."""

import os
import tempfile

import torch


class Small(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x):
        return torch.relu(self.fc(x)) * 2


with torch.no_grad():
    ep = torch.export.export(Small(), (torch.randn(2, 8),))
    with tempfile.TemporaryDirectory() as tmp:
        path = torch._inductor.aoti_compile_and_package(ep, package_path=os.path.join(tmp, "small.pt2"))
        print("packaged", os.path.basename(path))
