"""The private channel between the controller (UI or `--dump`) and the target.

Messages are JSON objects, one per line (UTF-8), over a socketpair inherited by the
target (never a TCP port). Every message carries the protocol version `v` and a
`type` (target -> controller events) or `cmd` (controller -> target commands).

Events:    hello, torch ({torch_version, device, pg_timeout_s?}: at the script's first import of
           Dynamo, and at its end), compile_start, stage, graph_break, recompile, compile_end, compile_times,
           autotune, guard_provenance, output, script_end, rerun, calls, note, ready, error,
           resumed, process,
           provenance ({compile_id, items, links, notes, symbols}: tcdebug.model.payloads' ProvItem, ...)
Commands:  step, continue, run, stop, breakpoints, check_rerun, rerun, quit

Forked processes of the script connect on their own (see `tcdebug.debuggee.children`): each
sends `process` {pid, ppid, label} first; the controller answers with `step` or `run` (how it
starts); its events carry `pid`, and compile ids suffixed `@<pid>`. The controller adds
`process_end` {pid} when that connection closes. Ranks of a `tcdebug torchrun` job
(`tcdebug.debuggee.rank`) connect the same way: `process` also has {rank, local_rank, world_size}
(its `torch` event adds pg_timeout_s), compile ids are suffixed `@r<rank>`, every event carries `rank`, and the rank
sends `process_exit` {exit_code, error} when its script ends.

Re-runs (after `script_end`, while the target serves commands):
  event `calls`:       {calls: [CallInfo]}: the last call of each compiled function
                       (sent before the first `ready` and after each re-run)
  cmd `check_rerun`:   {compile_id | key, spec, token?}: check every cache entry's guards
                       against the proposed inputs; answered by `rerun` with status `checked`
  cmd `rerun`:         {compile_id | key, spec | specs, all?, mode?, token?}: check, then call
                       the function (`all`: every function that has the named arguments;
                       `mode`: step/continue/run for the compiles it triggers); answered by
                       `rerun` events (running, then ok or failed)

Each event is a dataclass of `tcdebug.model.events` (`to_wire()` writes it, `event_from_wire()` reads
and checks it), each command one of `tcdebug.model.commands` (`to_wire()`, `command_from_wire()`),
payloads below the envelope those of `tcdebug.model.payloads`; this module stays the wire format.

Pausing: after `step`, the target pauses at the next stage; after `continue`, at
the next stage whose id is a breakpoint; after `run`, never. A stage event says
`paused: true` when the target waits for the next command.
"""

from __future__ import annotations

import json
import os
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the log reader loads this module through events.py: no socket there
    import socket

PROTOCOL_VERSION = 1


# The environment of the target: where forked processes of the script connect (a listening
# AF_UNIX socket in a private folder), and the socket `sys.stdout`/`sys.stderr` write to as one
# ordered stream of messages, each starting with its stream's tag.
CHILD_SOCKET_ENV = "TCDEBUG_CHILD_SOCKET"
PRIVATE_DIR_PREFIX = "tcdebug-"  # the controller's private folder, which holds that socket
OUTPUT_FD_ENV = "TCDEBUG_OUTPUT_FD"
CHANNEL_FD_ENV = "TCDEBUG_CHANNEL_FD"  # the target's end of the channel
# Set beside `PYTHONUNBUFFERED=1` when tcdebug, not the user, set it: the target takes both out
# (with the three above) before the script runs, which sees its environment as under python.
UNBUFFERED_MARK_ENV = "TCDEBUG_SET_UNBUFFERED"
# `tcdebug --cold`: the script's process tree runs with every compile cache and automatic-dynamic PGO
# off. The torch variables reach Inductor's compile workers and torchrun's ranks as they are;
# `COLD_ENV` tells tcdebug's capture (the script sees all three).
COLD_ENV = "TCDEBUG_COLD"
COLD_TORCH_ENV = {"TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1", "TORCH_DYNAMO_AUTOMATIC_DYNAMIC_LOCAL_PGO": "0"}
STDOUT_TAG = b"o"
STDERR_TAG = b"e"
MAX_OUTPUT_MESSAGE = 32 * 1024  # well under the socket buffer: a message never blocks half-sent

# Pause modes of the target.
MODE_STEP = "step"
MODE_CONTINUE = "continue"
MODE_RUN = "run"


class ProtocolError(ValueError):
    pass


def encode(msg: dict[str, Any]) -> bytes:
    """One message as one line. Text goes as UTF-8, not as `\\u` escapes: a stage's text can be
    megabytes, and escaping is about twice the work of writing it as it is. A lone surrogate (a
    name decoded with `surrogateescape`) goes through as its bytes (`surrogatepass`)."""
    return (json.dumps(msg, default=str, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")


def decode(line: bytes) -> dict[str, Any]:
    try:
        msg = json.loads(line.decode("utf-8", "surrogatepass"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"undecodable message: {exc}") from exc
    if not isinstance(msg, dict):
        raise ProtocolError("message is not an object")
    if msg.get("v") != PROTOCOL_VERSION:
        raise ProtocolError(f"protocol version {msg.get('v')!r}, expected {PROTOCOL_VERSION}")
    return msg


def same_inode(fd: int, inode: int) -> bool:
    """Is `fd` still open on the file (socket) whose inode is `inode`?"""
    try:
        return os.fstat(fd).st_ino == inode
    except OSError:
        return False


class Channel:
    """Line-framed JSON over a connected socket. `send` is thread-safe.

    `guarded` (the script's side): the script may close the descriptor (`os.closerange(3, N)`)
    and open something else under its number. Each send first checks that the descriptor is
    still this socket (its inode), so nothing is ever written into the script's own file or
    socket; a channel found gone is `lost`, and stays closed."""

    def __init__(self, sock: socket.socket, *, guarded: bool = False) -> None:
        self.sock = sock
        self._reader = sock.makefile("rb")
        self._lock = threading.Lock()
        self.closed = False
        self.lost = False  # the descriptor was closed or replaced under us
        self._inode = os.fstat(sock.fileno()).st_ino if guarded else None

    def send(self, msg: dict[str, Any]) -> bool:
        data = encode(msg)
        with self._lock:
            if self.closed:
                return False
            if self._inode is not None and not same_inode(self.sock.fileno(), self._inode):
                self.closed = self.lost = True
                return False
            try:
                self.sock.sendall(data)
                return True
            except OSError:
                self.closed = True
                return False

    def recv(self) -> dict[str, Any] | None:
        """The next message, or None at end of stream."""
        while True:
            try:
                line = self._reader.readline()
            except (OSError, ValueError):
                return None
            if not line:
                return None
            if line.strip():
                return decode(line)

    def close(self) -> None:
        with self._lock:
            self.closed = True
            if self.lost:  # the number may be the script's own descriptor now: never touch it
                return
        import socket

        for closer in (self._reader.close, lambda: self.sock.shutdown(socket.SHUT_RDWR), self.sock.close):
            try:
                closer()
            except OSError:
                pass
