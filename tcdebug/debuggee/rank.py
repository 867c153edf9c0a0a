"""One rank of a `tcdebug torchrun …` job: torchrun's worker entry point.

`tcdebug.debuggee.torchrun` makes torchrun start every worker as
`python -u -m tcdebug.debuggee.rank [-m] SCRIPT ARGS` (a fresh interpreter, so the capture hooks
are installed here). The rank connects to the controller's listening socket
(`$TCDEBUG_CHILD_SOCKET`, inherited through the launcher) like a forked process does, introduces
itself with `process` {pid, rank, local_rank, world_size, label "rank N"}, and sends the same
events as the main process, its compile ids suffixed `@r<rank>` and each event tagged `rank`.
Its `sys.stdout`/`sys.stderr` are sent as `output` events tagged with the rank. When the script
ends it sends `process_exit` {exit_code, error} and exits with that code, as `python` would.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import Any

from tcdebug.capture.base import DEFAULT_PG_TIMEOUT, NVML_DEVICE_COUNT, cuda_built
from tcdebug.debuggee import private_env
from tcdebug.debuggee.children import ChildChannel
from tcdebug.debuggee.pauser import Pauser
from tcdebug.debuggee.runner import check_script, release_user_objects, run_captured
from tcdebug.model import protocol
from tcdebug.model.events import Note, Output, Process, ProcessExit
from tcdebug.process.pythonpath import restore_user_path


def env_int(name: str) -> int | None:
    value = os.environ.get(name, "")
    return int(value) if value.strip().isdigit() else None


class RankChannel(ChildChannel):
    """A forked child's channel, keyed by rank instead of pid."""

    def __init__(self, path: str, pauser: Pauser, rank: int) -> None:
        super().__init__(path, pauser)
        self.rank = rank
        self.suffix = f"@r{rank}"

    def hello(self) -> dict[str, Any]:
        return Process(
            pid=self.pid,
            ppid=os.getppid(),
            label=f"rank {self.rank}",
            rank=self.rank,
            local_rank=env_int("LOCAL_RANK"),
            world_size=env_int("WORLD_SIZE"),
        ).to_wire()  # its process-group timeout comes once the capture is in: reading it imports torch

    def send(self, msg: dict[str, Any]) -> bool:
        return super().send({**msg, "rank": self.rank})


def pg_timeout_s() -> float | None:
    """The default process-group timeout of torch.distributed for the backend this rank will
    likely use (nccl with CUDA, else gloo), in seconds; None where this torch does not say.
    (A `timeout=` given to `init_process_group` overrides it: that is not known here.)"""
    try:
        import torch
        from torch.distributed import distributed_c10d as c10d

        backend = c10d.Backend("nccl" if _gpus_seen(torch) else "gloo")
        return float(DEFAULT_PG_TIMEOUT.get()(backend).total_seconds())
    except Exception:  # noqa: BLE001 - a torch without it
        try:
            from torch.distributed import constants

            return float(constants.default_pg_timeout.total_seconds())
        except Exception:  # noqa: BLE001
            return None


def _gpus_seen(torch: Any) -> bool:
    """Does this rank see a GPU? Asked of NVML, not of CUDA (see `cuda_built`)."""
    if not cuda_built(torch):
        return False
    try:
        return int(NVML_DEVICE_COUNT.get()()) > 0
    except Exception:  # noqa: BLE001 - a torch without it: the build says
        return True


class RankStream(io.TextIOBase):
    """`sys.stdout`/`sys.stderr` of a rank: every write becomes an `output` event of the rank."""

    def __init__(self, channel: RankChannel, name: str, fallback: Any) -> None:
        self.channel = channel
        self.name_ = name
        self.fallback = fallback

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text and not self.channel.send(Output(stream=self.name_, text=str(text)).to_wire()):
            self.fallback.write(text)
        return len(text)

    def flush(self) -> None:
        self.fallback.flush()

    def fileno(self) -> int:
        return int(self.fallback.fileno())

    def isatty(self) -> bool:
        return False


def main(argv: list[str] | None = None) -> int:
    restore_user_path()  # before torch and the script, as in the target (`tcdebug.process.pythonpath`)
    parser = argparse.ArgumentParser(prog="tcdebug.debuggee.rank")
    parser.add_argument("-m", dest="module", action="store_true")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    ns = parser.parse_args(sys.argv[1:] if argv is None else argv)
    rank = env_int("RANK") or 0
    path = private_env.take().child_socket  # the rank's script never sees it
    pauser = Pauser(protocol.MODE_RUN, set())
    channel = RankChannel(path, pauser, rank)
    problem = check_script(ns.argv[0]) if ns.argv and not ns.module else ("" if ns.argv else "no script given")
    if problem:
        channel.send(Output(stream="stderr", text=problem + "\n").to_wire())
        channel.send(ProcessExit(exit_code=2, error=problem).to_wire())
        return 2
    channel.send(Note(text=f"rank {rank} started (pid {os.getpid()})").to_wire())
    sys.stdout = RankStream(channel, "stdout", sys.__stdout__)
    sys.stderr = RankStream(channel, "stderr", sys.__stderr__)
    # The channel only sends, as a Channel does.
    run = run_captured(channel, pauser, ns, note_prefix=f"rank {rank}: ", pg_timeout=pg_timeout_s)  # type: ignore[arg-type]
    if run.forked:
        return run.exit_code
    release_user_objects(run.ctx)  # a rank serves no re-runs
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    channel.send(ProcessExit(exit_code=run.exit_code, error=run.error).to_wire())
    # Stop reading now (not `close`, which would wait on the lock of the command reader's blocked
    # read): the reader wakes at end of stream and returns, so no thread is left inside the
    # socket's buffered reader while the interpreter finalizes (an exit that could otherwise hang
    # on that lock, about one run in ten). Sending goes on: what the rank prints from here on
    # (atexit handlers, teardown warnings) is still its output.
    channel.stop_reading()
    return run.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
