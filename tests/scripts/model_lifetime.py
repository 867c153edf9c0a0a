"""Compiles and calls a module, drops it, and says at exit whether it is still alive.

Under python the module is freed at the `del`. Under tcdebug it is kept for re-runs while the
target can still be asked for one, and must be let go before the interpreter finalizes: at exit
this prints `model at exit: freed`. With `fork`, the script forks first and both processes do
this (`model at exit (child): freed` from the child); the parent waits for the child.
"""

import atexit
import os
import sys
import weakref

import torch

child = os.fork() if "fork" in sys.argv[1:] else None
who = " (child)" if child == 0 else ""
model = torch.nn.Linear(4, 4)
compiled = torch.compile(model, backend="aot_eager")
compiled(torch.randn(2, 4))
ref = weakref.ref(model)
print(f"called the compiled module{who}")
del model, compiled
atexit.register(lambda: print(f"model at exit{who}:", "alive" if ref() is not None else "freed", flush=True))
if child:
    os.waitpid(child, 0)
