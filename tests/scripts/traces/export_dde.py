"""torch.export of two modules: one exports, one fails on a data-dependent branch.

Run under TORCH_DTRACE (export's records are logged at debug level only):
`Eq((((-u0)//3)) + 5, 0)` is the guard export cannot decide.
"""

import torch


class Fine(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x) * 2


class Pad(torch.nn.Module):
    def forward(self, x, n):
        u = n.item()
        if ((-u) // 3) + 5 == 0:  # data-dependent: export cannot guard on it
            return x
        return x * 2


torch.export.export(Fine(), (torch.randn(4),))
try:
    torch.export.export(Pad(), (torch.randn(4), torch.tensor(3)))
except Exception as exc:  # GuardOnDataDependentSymNode
    print("export failed:", type(exc).__name__)
