"""A dump's compile folders, made while a log still loads (`tcdebug open LOG --dump OUT`).

A log's dump creates a folder and a few files per compile, and creating them is much of its
time: the kernel's inode allocator, slow on a disk that recently deleted many files. While a big
log loads, one core converts its records and the other is mostly idle once the reader process is
done. `EarlyFolders` uses it: a forked process makes `OUT/compiles/<compile>/` for each compile
the load has seen so far, and the dump's writer finds them made (`DirCache`).

Only ever an optimization: a name that does not fit the pipe at once is left to the writer (the
load never waits for the folder maker), and if the load fails, `undo` removes what was made."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

from tcdebug.dump.safe_fs import DirCache, compile_dir_name
from tcdebug.forked import Forked, widen_pipe

_BATCH_BYTES = 3072  # below PIPE_BUF (4096): a write to the pipe is whole or nothing


class EarlyFolders:
    """The folder maker of one dump: `add` each compile as the load sees it, then `finish` (or
    `undo` when the load fails)."""

    def __init__(self, out: Path, maker: Forked, pipe: int) -> None:
        self.out = out
        self._maker = maker
        self._pipe = pipe
        self._batch: list[bytes] = []
        self._size = 0

    @classmethod
    def start(cls, out: str | os.PathLike[str]) -> EarlyFolders | None:
        """A maker for OUT, an empty folder (as `prepare_out` leaves a new one); None where OUT
        holds anything, or a process cannot be forked here (no fork, threads running, one core)."""
        path = Path(out)
        if not hasattr(os, "fork") or threading.active_count() > 1 or (os.cpu_count() or 1) < 2:
            return None
        try:
            if path.is_symlink() or not path.is_dir() or any(os.scandir(path)):
                return None
            read_end, write_end = os.pipe()
        except OSError:
            return None
        widen_pipe(write_end)

        def run() -> int:
            os.close(write_end)  # ended by its pipe, or with its parent (Ctrl-C: `Forked`)
            return _make(path, read_end)

        maker = Forked(run)
        os.close(read_end)
        os.set_blocking(write_end, False)
        return cls(path, maker, write_end)

    def add(self, compile_id: str) -> None:
        """Have the compile's folder made (see the module docstring: or left to the writer)."""
        name = compile_dir_name(compile_id).encode() + b"\n"
        self._batch.append(name)
        self._size += len(name)
        if self._size >= _BATCH_BYTES:
            self._send()

    def _send(self) -> None:
        batch, self._batch, self._size = self._batch, [], 0
        if self._pipe < 0 or not batch:
            return
        try:
            os.write(self._pipe, b"".join(batch))
        except BlockingIOError:
            pass  # the maker is behind: the writer makes these
        except OSError:
            self._close_pipe()  # the maker is gone: the writer makes the rest

    def finish(self) -> None:
        """Send what is left. The maker makes the rest while the writer starts (either makes a
        folder, the other finds it made); `reap` it once the dump is written."""
        self._send()
        self._close_pipe()

    def reap(self) -> None:
        """Wait for the maker to end (after `finish`)."""
        self._maker.wait()

    def undo(self) -> None:
        """End the maker, and remove the folders of `compiles/` that are empty, then `compiles/`
        itself if empty: OUT was empty when the maker started, so they are its own."""
        self._close_pipe()
        self._maker.kill()
        self._maker.wait()
        try:
            fd = os.open(self.out / "compiles", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return
        try:
            for name in os.listdir(fd):
                with contextlib.suppress(OSError):  # not empty, or not a folder (never followed)
                    os.rmdir(name, dir_fd=fd)
        finally:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.rmdir(self.out / "compiles")

    def _close_pipe(self) -> None:
        if self._pipe >= 0:
            with contextlib.suppress(OSError):
                os.close(self._pipe)
            self._pipe = -1


def _make(out: Path, pipe: int) -> int:
    """The maker's loop: one folder per name read, until the pipe closes."""
    with DirCache(out) as dirs:
        try:
            compiles = dirs.fd(("compiles",))
        except OSError:
            return 1
        rest = b""
        while chunk := os.read(pipe, 1 << 16):
            names = (rest + chunk).split(b"\n")
            rest = names.pop()
            for name in names:
                try:
                    os.mkdir(name, 0o777, dir_fd=compiles)
                except FileExistsError:
                    pass
                except OSError:
                    return 1  # the writer makes the rest, and says what is wrong
    return 0
