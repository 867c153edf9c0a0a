"""torch.export, then AOTInductor on the CPU: `tcdebug samples/export_aoti.py` steps through both.

The export graph carries the batch dimension as a symbol with a range constraint (2..64);
AOTInductor compiles the exported program into a package (written to a temporary folder)
whose wrapper and kernels tcdebug shows as stages.
"""

import os
import tempfile

import torch


class Small(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(16, 8)

    def forward(self, x):
        return torch.relu(self.fc(x)) * 2


def main() -> None:
    torch.manual_seed(0)
    model = Small().eval()
    x = torch.randn(4, 16)
    batch = torch.export.Dim("batch", min=2, max=64)
    exported = torch.export.export(model, (x,), dynamic_shapes={"x": {0: batch}})
    print(exported.range_constraints)
    # -O0 for the C++ wrapper: a small model's package builds in seconds, not a minute
    torch._inductor.config.aot_inductor.compile_wrapper_opt_level = "O0"
    with tempfile.TemporaryDirectory() as tmp:
        path = torch._inductor.aoti_compile_and_package(exported, package_path=os.path.join(tmp, "small.pt2"))
        runner = torch._inductor.aoti_load_package(path)
        print("max diff", (runner(x) - model(x)).abs().max().item())


if __name__ == "__main__":
    main()
