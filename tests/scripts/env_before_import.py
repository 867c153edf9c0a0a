"""Sets torch's environment switches in `os.environ` before it imports torch, as scripts do.

Prints what torch read, and whether torch was imported before the script's own `import torch`:
under tcdebug both must be what `python` gives.
"""

import os
import sys

print("TORCH_BEFORE_SCRIPT", "torch" in sys.modules, "torch._dynamo" in sys.modules)
os.environ["TORCHINDUCTOR_MAX_AUTOTUNE"] = "1"
os.environ["TORCHDYNAMO_VERBOSE"] = "1"
os.environ["TORCH_LOGS"] = "recompiles"

import torch  # noqa: E402

print("DYNAMO_AFTER_IMPORT_TORCH", "torch._dynamo" in sys.modules)
if "--inductor-config-first" in sys.argv:
    import torch._inductor.config  # noqa: E402, F401 - imports Dynamo from inside Inductor's own start


def f(x: torch.Tensor) -> torch.Tensor:
    return torch.sin(x) + 1


compiled = torch.compile(f, backend="aot_eager")
compiled(torch.ones(3))
compiled(torch.ones(5))  # a recompile, which TORCH_LOGS=recompiles reports on stderr

import torch._dynamo.config as dynamo_config  # noqa: E402
import torch._inductor.config as inductor_config  # noqa: E402

print(
    "CONFIG_READ",
    inductor_config.max_autotune,
    dynamo_config.verbose,
)
