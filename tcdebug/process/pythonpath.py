"""The user's `PYTHONPATH`, as their script sees it under `python`.

tcdebug starts its target (and, under `tcdebug torchrun`, each rank) with its own package root
first on `PYTHONPATH`, so that `python -m tcdebug.debuggee` starts even from a checkout that is not
installed. The user's script must not see that entry: in `sys.path` it would put tcdebug's checkout,
or a whole site-packages, ahead of the user's own entries and of the standard library (another
torch than theirs could be imported); in `os.environ` every subprocess of the script would inherit
it. Once `tcdebug` is imported, its submodules are found through the package itself, so the target
no longer needs the entry.
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping

ADDED_ENV = "TCDEBUG_ADDED_PATH"  # the entry tcdebug put first on PYTHONPATH
USER_ENV = "TCDEBUG_USER_PYTHONPATH"  # the user's PYTHONPATH; absent when they had none


def package_root() -> str:
    """The folder that holds the `tcdebug` package."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def add_tcdebug_path(env: MutableMapping[str, str]) -> None:
    """Put tcdebug's package root first on `env`'s PYTHONPATH, keeping what to put back."""
    root = package_root()
    user = env.get("PYTHONPATH")
    if user is not None:
        env[USER_ENV] = user
    else:
        env.pop(USER_ENV, None)  # none to put back: no stale one either
    env[ADDED_ENV] = root
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, user or "") if p)


def _dedup(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def restore_user_path(environ: MutableMapping[str, str] | None = None, path: list[str] | None = None) -> None:
    """Undo `add_tcdebug_path` in this process: its environment, and the `sys.path` entries the
    interpreter made from it. Those follow `sys.path[0]`, made absolute and without duplicates
    (`site`), so a user's entry equal to tcdebug's root was dropped and is put back."""
    environ = os.environ if environ is None else environ
    path = sys.path if path is None else path
    added = environ.pop(ADDED_ENV, None)
    if added is None:
        return
    user = environ.pop(USER_ENV, None)
    if user is None:
        environ.pop("PYTHONPATH", None)
    else:
        environ["PYTHONPATH"] = user
    if len(path) < 2:
        return
    added = os.path.abspath(added)
    user_entries = [os.path.abspath(entry) for entry in (user or "").split(os.pathsep) if entry]
    ours = _dedup([added, *user_entries])
    if [os.path.abspath(entry) for entry in path[1 : 1 + len(ours)]] == ours:
        path[1 : 1 + len(ours)] = _dedup(user_entries)
    elif added not in user_entries:  # a layout of its own: take out only tcdebug's entry
        for index in range(1, len(path)):
            if os.path.abspath(path[index]) == added:
                del path[index]
                break
