"""Forked children of the script (os.fork, multiprocessing fork, DataLoader workers) in the session.

A forked child inherits the target's channel; writing to it would interleave with the parent's
messages. So right after the fork the child lets go of its copy (without shutting the parent's
connection down) and, at its first message, opens a connection of its own to the controller's
listening socket (`$TCDEBUG_CHILD_SOCKET`, in a private folder; `tcdebug.debuggee.private_env`). It introduces itself with a
`process` event (pid, parent, a readable label) and then sends the same events as the main
process, its compile ids suffixed with `@<pid>` so they never collide with the parent's.

Children run without pausing; the controller may tell one to step (it then pauses like the main
process). The controller's first answer to `process` says which.
"""

from __future__ import annotations

import os
import socket
import stat
import sys
import threading
from typing import Any

from tcdebug.debuggee import private_env
from tcdebug.debuggee.pauser import Pauser
from tcdebug.model import commands, protocol
from tcdebug.model.events import Process
from tcdebug.model.protocol import PRIVATE_DIR_PREFIX


def process_label(pid: int) -> str:
    """`worker 1` (a DataLoader worker), a multiprocessing process's name, or `pid 1234`."""
    torch_data = sys.modules.get("torch.utils.data")
    if torch_data is not None:
        try:
            info = torch_data.get_worker_info()
            if info is not None:
                return f"worker {info.id}"
        except Exception:  # noqa: BLE001 - a torch without it
            pass
    mp = sys.modules.get("multiprocessing")
    if mp is not None:
        try:
            name = mp.current_process().name
            if name and name != "MainProcess":
                return name
        except Exception:  # noqa: BLE001
            pass
    return f"pid {pid}"


class ChildChannel:
    """The channel of a forked child: connects at the first message, suffixes compile ids."""

    def __init__(self, path: str, pauser: Pauser) -> None:
        self.path = path
        self.pauser = pauser
        self.pid = os.getpid()
        self.suffix = f"@{self.pid}"
        self.channel: protocol.Channel | None = None
        self.closed = False
        self._lock = threading.Lock()

    def _connect(self) -> protocol.Channel | None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(self.path)
        except OSError:
            sock.close()
            self.closed = True
            return None
        channel = protocol.Channel(sock)
        channel.send(self.hello())
        # The controller answers with the mode this process starts in (run, unless the user
        # asked to step new processes); wait for it briefly, so the first stage obeys it.
        sock.settimeout(5.0)
        try:
            msg = channel.recv()
            first = commands.command_from_wire(msg) if msg is not None else None
        except (protocol.ProtocolError, OSError):
            first = None
        sock.settimeout(None)
        if first is not None:
            self._apply(first)
        threading.Thread(
            target=self._read_commands, args=(channel,), name="tcdebug-child-commands", daemon=True
        ).start()
        return channel

    def hello(self) -> dict[str, Any]:
        """The `process` event this process introduces itself with."""
        return Process(pid=self.pid, ppid=os.getppid(), label=process_label(self.pid)).to_wire()

    def _apply(self, command: commands.Command) -> None:
        """A pause command (a forked process serves no re-runs): the others are ignored."""
        if isinstance(command, commands.Resume):
            self.pauser.resume(command.CMD, command.breakpoints)
        elif isinstance(command, commands.SetBreakpoints):
            self.pauser.set_breakpoints(list(command.breakpoints))

    def _read_commands(self, channel: protocol.Channel) -> None:
        while True:
            try:
                msg = channel.recv()
                command = commands.command_from_wire(msg) if msg is not None else None
            except protocol.ProtocolError:
                continue
            if command is None or isinstance(command, (commands.Quit, commands.Stop)):
                # Nobody is left to answer a pause: run free from now on.
                self.pauser.resume(protocol.MODE_RUN)
                return
            self._apply(command)

    def send(self, msg: dict[str, Any]) -> bool:
        with self._lock:
            if self.channel is None and not self.closed:
                self.channel = self._connect()
            channel = self.channel
        if channel is None:
            return False
        if isinstance(msg.get("compile_id"), str) and msg["compile_id"]:
            msg = {**msg, "compile_id": msg["compile_id"] + self.suffix}
        return channel.send({**msg, "pid": self.pid})

    def close(self) -> None:
        if self.channel is not None:
            self.channel.close()

    def stop_reading(self) -> None:
        """End the connection's reading side without taking the channel's locks: the command
        reader's blocked read returns at end of stream and its thread ends, while this process can
        still send (what it prints from `atexit` handlers or while it tears down). Only for a
        connection this process made itself (a forked child's inherited one is shared with its
        parent: see `let_go`)."""
        channel = self.channel
        if channel is not None:
            try:
                channel.sock.shutdown(socket.SHUT_RD)
            except OSError:
                pass


def let_go(channel: Any) -> None:
    """Drop this process's copy of an inherited channel without shutting the connection down
    (a shutdown would end the parent's connection too)."""
    inner = getattr(channel, "channel", None)  # a ChildChannel: its connection, if any
    target = inner if inner is not None else channel
    sock = getattr(target, "sock", None)
    if hasattr(target, "closed"):
        target.closed = True
    if sock is None:
        return
    try:
        fd = sock.detach()
        if fd >= 0:
            os.close(fd)
    except OSError:
        pass


def install_fork_hooks(recorder: Any) -> None:
    """After every fork, the child gets a channel and a pauser of its own (see the module doc)."""
    path = private_env.current().child_socket

    def after_fork_in_child() -> None:
        let_go(recorder.channel)
        pauser = Pauser(protocol.MODE_RUN, set())
        recorder.pauser = pauser
        recorder.reset_for_child()
        if path:
            recorder.channel = ChildChannel(path, pauser)
        else:
            recorder.channel = _Nowhere()

    os.register_at_fork(after_in_child=after_fork_in_child)


class _Nowhere:
    closed = True

    def send(self, msg: dict[str, Any]) -> bool:
        return False


def remove_orphaned_socket() -> None:
    """tcdebug was killed before it could remove its private folder (`tcdebug-*`, holding only
    the children's socket): remove the socket and the folder, if it is then empty; nothing else."""
    path = private_env.current().child_socket
    folder = os.path.dirname(path)
    if not path or not os.path.basename(folder).startswith(PRIVATE_DIR_PREFIX):
        return
    try:
        if stat.S_ISSOCK(os.lstat(path).st_mode):
            os.unlink(path)
        os.rmdir(folder)  # fails, and keeps it, unless it is empty
    except OSError:
        pass
