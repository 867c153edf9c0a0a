"""Installs the capture in two steps, each when the script's torch has finished importing a part.

A plain `python script.py` imports `torch._dynamo` at the script's first `torch.compile` (or
`torch.export`, or its own `import torch._inductor.config`), and Inductor's compiler
(`torch._inductor.compile_fx`) when a compile needs it (`torch.compile` with the default backend
imports it at once; an `aot_eager` compile never does), not at `import torch`; their configs read
`TORCHDYNAMO_*` and `TORCHINDUCTOR_*` from the environment then, and `import torch` reads
`TORCH_LOGS`. A script that sets them in `os.environ` before those imports gets them under python,
so the capture imports none of it before the script does: its Dynamo hooks go in once Dynamo is
imported, its Inductor hooks once the compiler is.

`ImportWatch` sits first on `sys.meta_path` and finds nothing itself: for the modules of the
`torch` package it hands the import to the finders after it and counts the module while it runs.
When no torch module is running any more, it calls the install of each step whose module has been
imported, in order (in the importing thread, inside the script's import statement), and leaves
`sys.meta_path` after the last. Waiting for the outermost torch import matters:
`import torch._inductor.config` imports Dynamo from inside `torch._inductor`'s own start, where the
capture's imports would meet a half-imported package. `torch.compile` imports Dynamo before it
wraps anything, and Inductor imports its compiler before it compiles, so every compile is seen.
"""

from __future__ import annotations

import importlib.abc
import sys
import threading
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

DYNAMO = "torch._dynamo"
INDUCTOR = "torch._inductor.compile_fx"


def _initializing(module: ModuleType | None) -> bool:
    return bool(getattr(getattr(module, "__spec__", None), "_initializing", False))


def imported(name: str) -> bool:
    """Is this module fully imported?"""
    module = sys.modules.get(name)
    return module is not None and not _initializing(module)


class _WatchedLoader:
    """A torch module's own loader, seen through: the watch counts the module while it runs; then
    the real loader goes back into the module's `__spec__` and `__dict__` (not by `setattr`: torch's
    config modules refuse unknown attributes)."""

    def __init__(self, loader: Any, watch: ImportWatch) -> None:
        self._loader = loader
        self._watch = watch

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)

    def create_module(self, spec: Any) -> Any:
        create = getattr(self._loader, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module: ModuleType) -> None:
        self._watch.entered()
        try:
            self._loader.exec_module(module)
        finally:
            spec = getattr(module, "__spec__", None)
            if spec is not None and spec.loader is self:
                spec.loader = self._loader
            if module.__dict__.get("__loader__") is self:
                module.__dict__["__loader__"] = self._loader
            self._watch.left()


class ImportWatch(importlib.abc.MetaPathFinder):
    """Calls each step's install once its module is imported, in order (see the module's doc)."""

    def __init__(self, steps: Sequence[tuple[str, Callable[[], None]]]) -> None:
        self._pending = list(steps)  # (module, install), in order
        self._lock = threading.Lock()
        self._install_lock = threading.RLock()  # one step at a time, in order, whichever thread
        self._installing = False  # a step's install is running (its own torch imports fire nothing)
        self._running = 0  # torch modules being executed now, in any thread
        self.done = False

    def arm(self) -> None:
        """Watch from now on; install at once the steps whose modules the process already has."""
        if self not in sys.meta_path:
            sys.meta_path.insert(0, self)
        self._fire()

    def disarm(self) -> None:
        """Stop watching (the script has ended): nothing is installed after it."""
        with self._lock:
            self.done = True
        self._leave_meta_path()

    def _leave_meta_path(self) -> None:
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> Any:
        if self.done or not (fullname == "torch" or fullname.startswith("torch.")):
            return None
        for finder in list(sys.meta_path):
            find = getattr(finder, "find_spec", None) if finder is not self else None
            spec = find(fullname, path, target) if find is not None else None
            if spec is None:
                continue
            if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                spec.loader = _WatchedLoader(spec.loader, self)
            return spec
        return None

    def entered(self) -> None:
        with self._lock:
            self._running += 1

    def left(self) -> None:
        with self._lock:
            self._running -= 1
            ready = self._running == 0 and not self.done and bool(self._pending) and imported(self._pending[0][0])
        if ready:
            self._fire()

    def _next_step(self) -> Callable[[], None] | None:
        with self._lock:
            if self.done or not self._pending or not imported(self._pending[0][0]):
                return None
            _, install = self._pending.pop(0)
            if not self._pending:
                self.done = True
            return install

    def _fire(self) -> None:
        with self._install_lock:
            if self._installing:
                return  # a step's install imported torch modules: its loop below goes on after it
            self._installing = True
            try:
                while (install := self._next_step()) is not None:
                    install()
            finally:
                self._installing = False
        if self.done:
            self._leave_meta_path()
