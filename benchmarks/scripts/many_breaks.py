"""A function with many graph breaks, called with several shapes: hundreds of compiles.

`python benchmarks/scripts/many_breaks.py [BREAKS] [SHAPES]` (default 50 breaks, 4 shapes).
The function is written out (straight-line code, one `graph_break()` per step) to a
temporary module, so Dynamo makes a resume function per break; with automatic dynamic
shapes off, every new shape recompiles every frame: about (BREAKS + 1) * SHAPES compiles.
"""

import importlib.util
import sys
import tempfile
from pathlib import Path

import torch
import torch._dynamo


def chain_source(breaks: int) -> str:
    lines = [
        "import torch",
        "import torch._dynamo",
        "",
        "",
        "def chain(x):",
    ]
    for i in range(breaks):
        lines.append(f"    x = torch.sin(x) * {i + 1} + torch.cos(x) / {i + 2}")
        lines.append("    torch._dynamo.graph_break()")
    lines.append(f"    return torch.sin(x) * {breaks + 1} + torch.cos(x)")
    return "\n".join(lines) + "\n"


def load_chain(breaks: int, folder: Path):  # noqa: ANN201 - the generated function
    path = folder / f"chain_{breaks}.py"
    path.write_text(chain_source(breaks))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.chain


def main() -> None:
    breaks = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    shapes = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    torch._dynamo.config.automatic_dynamic_shapes = False
    torch._dynamo.config.recompile_limit = max(8, shapes + 1)
    with tempfile.TemporaryDirectory(prefix="tcdebug-many-breaks-") as folder:
        compiled = torch.compile(load_chain(breaks, Path(folder)))
        torch.manual_seed(0)
        for n in range(shapes):
            out = compiled(torch.randn(4 + n, 8))
            print(f"shape {tuple(out.shape)}: sum {out.sum().item():.3f}")


if __name__ == "__main__":
    main()
