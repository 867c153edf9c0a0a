"""When Inductor's compiler is imported: a plain run imports it at `torch.compile` with the default
backend (its wrapper does), never for an aot_eager compile. Prints `INDUCTOR_*` markers the tests
compare with `python`'s,
and the `torch._inductor` modules imported after the aot_eager compile."""

import sys

import torch


def under_aot_eager(x):
    return torch.sin(x) + 1


def under_inductor(x):
    return torch.cos(x) * 2


def compiler_imported() -> bool:
    return "torch._inductor.compile_fx" in sys.modules


torch.compile(under_aot_eager, backend="aot_eager")(torch.ones(8))
print("INDUCTOR_AFTER_AOT_EAGER", compiler_imported(), flush=True)
print("INDUCTOR_MODULES", sorted(m for m in sys.modules if m.startswith("torch._inductor")), flush=True)
compiled = torch.compile(under_inductor)
print("INDUCTOR_BEFORE_FIRST_CALL", compiler_imported(), flush=True)
compiled(torch.ones(8))
print("INDUCTOR_AFTER_FIRST_CALL", compiler_imported(), flush=True)
