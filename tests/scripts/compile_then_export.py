"""A compile first, then a torch.export: Dynamo is imported (and the capture installed) before
the script's export imports `torch.export._trace`."""

import torch


class Small(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x) + 1


print(torch.compile(lambda x: x.sin(), backend="aot_eager")(torch.ones(3)).sum().item())
program = torch.export.export(Small(), (torch.ones(2, 3),))
print(type(program).__name__)
