"""Compiles and calls a module, drops it, and says at exit whether it is still alive.

Under python the module is freed at the `del`. Under tcdebug it is kept for re-runs while the
target can still be asked for one, and must be let go before the interpreter finalizes: at exit
this prints `model at exit: freed`.
"""

import atexit
import weakref

import torch

model = torch.nn.Linear(4, 4)
compiled = torch.compile(model, backend="aot_eager")
compiled(torch.randn(2, 4))
ref = weakref.ref(model)
print("called the compiled module")
del model, compiled
atexit.register(lambda: print("model at exit:", "alive" if ref() is not None else "freed", flush=True))
