"""`tcdebug torchrun …`: torch's own launcher, with every worker started under tcdebug.

Run as the target's module (`python -m tcdebug.debuggee -m -- tcdebug.debuggee.torchrun ARGS`). It
parses the torchrun ARGS with torchrun's own parser, and makes the workers' entry point
`-m tcdebug.debuggee.rank [-m] SCRIPT ARGS` (see `tcdebug.debuggee.rank`); everything else
(`--nproc-per-node`, rendezvous, restarts) is torchrun's. This launcher process is no rank: it
compiles nothing, so its capture hooks record nothing.
"""

from __future__ import annotations

import os
import sys

from tcdebug.debuggee import private_env
from tcdebug.model.protocol import CHILD_SOCKET_ENV
from tcdebug.process.pythonpath import add_tcdebug_path

# NVLink multicast stays off on shared GPU hosts: the workers inherit these.
WORKER_ENV = {
    "NCCL_NVLS_ENABLE": "0",
    "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
    "NVSHMEM_DISABLE_NVLS": "1",
}

_MODULE_FLAGS = ("-m", "--module")
_NO_PYTHON_FLAGS = ("--no-python", "--no_python")


def worker_argv(argv: list[str], script: str, script_args: list[str], module: bool) -> list[str]:
    """torchrun's arguments with the worker entry point replaced by tcdebug's rank runner."""
    head = argv[: len(argv) - len(script_args) - 1]
    head = [a for a in head if a not in _MODULE_FLAGS]
    return [*head, "-m", "tcdebug.debuggee.rank", *(["-m"] if module else []), script, *script_args]


def main() -> int:
    from torch.distributed import run as torch_run

    argv = sys.argv[1:]
    args = torch_run.get_args_parser().parse_args(argv)
    if args.no_python or any(a in _NO_PYTHON_FLAGS for a in argv):
        print("tcdebug torchrun: --no-python is not supported (tcdebug runs Python workers)", file=sys.stderr)
        return 2
    new_argv = worker_argv(argv, args.training_script, list(args.training_script_args), bool(args.module))
    os.environ.update(WORKER_ENV)
    # where the workers connect: the target took it out of the environment (`private_env`)
    os.environ[CHILD_SOCKET_ENV] = private_env.current().child_socket
    add_tcdebug_path(os.environ)  # the workers start as `-m tcdebug.debuggee.rank`, which takes it out
    sys.argv = ["torchrun", *new_argv]
    from torch.distributed.elastic.multiprocessing.errors import ChildFailedError

    try:
        torch_run.main(new_argv)
    except ChildFailedError as exc:  # torch printed its table; the job's exit code is the rank's
        rank, failure = exc.get_first_failure()
        code = failure.exitcode if isinstance(failure.exitcode, int) and failure.exitcode > 0 else 1
        print(f"torchrun: rank {rank} failed (exit code {failure.exitcode})", file=sys.stderr)
        raise SystemExit(code) from None
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
