"""The script's stdout and stderr as ONE ordered stream, each chunk tagged with its stream.

Two pipes read by two threads cannot keep the order in which the script wrote to them (a
`print` then a traceback could arrive the other way round). So `sys.stdout` and `sys.stderr`
write to one datagram socket (`$TCDEBUG_OUTPUT_FD`, SOCK_SEQPACKET: a message per line or block,
kept in order and never split). Writes made below Python (C code, `os.write(1, ...)`, subprocesses)
still go to the file descriptors 1 and 2 and are read from their pipes.
"""

from __future__ import annotations

import contextlib
import io
import os
import socket
import sys
from typing import Any

from tcdebug.model.protocol import MAX_OUTPUT_MESSAGE as MAX_MESSAGE
from tcdebug.model.protocol import STDERR_TAG, STDOUT_TAG, same_inode


class OutputSink:
    """The pending bytes of both streams, in the order written: a write of the other stream sends
    what is pending first, so stdout and stderr stay in order whatever their buffering.

    stderr is line-buffered (as under python), and so is stdout in the app, where the output pane
    is the script's terminal. Under `--dump` (`block=True`), stdout is block-buffered as python's
    is when it writes to a file: a million short lines cost a few thousand messages, not a million.
    Everything pending is sent at `flush()` (`input()`, `print(flush=True)`, the end of the script,
    before a fork) and when it fills a message. stdout's block is an `io.BufferedWriter` in front
    of its `TaggedWriter`, so a `print` costs no Python-level call of tcdebug's."""

    def __init__(self, sock: socket.socket, *, block: bool = False) -> None:
        self.sock = sock
        self.block = block
        self.tag = STDOUT_TAG
        self.pending = bytearray()  # a line not yet complete
        self.stdout_buffer: io.BufferedWriter[Any] | None = None  # stdout's block (`block=True`)
        self.inode = os.fstat(sock.fileno()).st_ino  # the socket's: see `flush`

    def write(self, tag: bytes, view: memoryview) -> None:
        if tag == STDERR_TAG and self.stdout_buffer is not None:
            with contextlib.suppress(OSError, RuntimeError, ValueError):  # e.g. a reentrant flush
                self.stdout_buffer.flush()  # stdout's block first: in the order written
        if tag != self.tag:
            self.flush()
            self.tag = tag
        self.pending += view
        if (self.block and tag == STDOUT_TAG) or len(self.pending) >= MAX_MESSAGE or b"\n" in view:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        data = bytes(self.pending)
        self.pending.clear()
        fd = 2 if self.tag == STDERR_TAG else 1
        # The script may have closed the socket's descriptor (`os.closerange`) and opened its own
        # under that number: then the output goes to the plain descriptor, never into that one.
        lost = not same_inode(self.sock.fileno(), self.inode)
        for start in range(0, len(data), MAX_MESSAGE):
            chunk = self.tag + data[start : start + MAX_MESSAGE]
            try:
                if lost:
                    raise OSError("the output socket was closed")
                self.sock.send(chunk)
            except OSError:
                # The controller is gone: fall back to the plain descriptor.
                try:
                    os.write(fd, chunk[1:])
                except OSError:
                    pass


class TaggedWriter(io.RawIOBase):
    """A binary stream whose writes go to the shared `OutputSink`, tagged with its stream."""

    def __init__(self, sink: OutputSink, tag: bytes, fd: int) -> None:
        super().__init__()
        self.sink = sink
        self.tag = tag
        self.fd = fd  # the real descriptor, for code that asks (subprocess, faulthandler)
        self.failed = False  # the last write found the descriptor closed

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return False

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        # A descriptor the script closed (`os.close(1)`) fails as under python: OSError(EBADF).
        # A block behind a BufferedWriter fails once, then is dropped (the exit's flush is silent).
        try:
            os.fstat(self.fd)
        except OSError:
            if self.failed and self.sink.stdout_buffer is not None and self.tag == STDOUT_TAG:
                return len(memoryview(data))
            self.failed = True
            raise
        self.failed = False
        view = memoryview(data).cast("B")
        self.sink.write(self.tag, view)
        return len(view)

    def flush(self) -> None:
        self.sink.flush()


_sink: OutputSink | None = None


def flush_output() -> None:
    """Send what the script's streams hold (before a fork, at a pause)."""
    if _sink is not None:
        if _sink.stdout_buffer is not None:
            with contextlib.suppress(OSError, RuntimeError, ValueError):
                _sink.stdout_buffer.flush()
        _sink.flush()


def install_tagged_streams(value: str, *, block: bool = False) -> None:
    """Replace `sys.stdout` and `sys.stderr` with tagged writers, when the controller gave a socket
    (`value`: its descriptor, passed as `$TCDEBUG_OUTPUT_FD`); `block`: see `OutputSink`."""
    global _sink
    if not value.isdigit():
        return
    try:
        sock = socket.socket(fileno=int(value))
        os.set_inheritable(sock.fileno(), False)
    except OSError:
        return
    _sink = sink = OutputSink(sock, block=block)
    if hasattr(os, "register_at_fork"):  # a forked child must not send the parent's pending bytes
        os.register_at_fork(before=flush_output)
    for name, tag, fd in (("stdout", STDOUT_TAG, 1), ("stderr", STDERR_TAG, 2)):
        old = getattr(sys, name)
        encoding = getattr(old, "encoding", None) or "utf-8"
        errors = "backslashreplace" if name == "stderr" else (getattr(old, "errors", None) or "strict")
        raw = TaggedWriter(sink, tag, fd)
        if block and name == "stdout":
            buffered = io.BufferedWriter(raw, buffer_size=MAX_MESSAGE)  # type: ignore[type-var]
            sink.stdout_buffer = buffered
            # write_through: the text layer keeps nothing, so flushing `buffered` sends it all
            stream: io.TextIOWrapper[Any] = io.TextIOWrapper(
                buffered, encoding=encoding, errors=errors, write_through=True
            )
        else:  # line-buffered: the sink keeps a line until it is complete
            # typeshed wants a buffered stream here; a raw writer works with write_through=True.
            stream = io.TextIOWrapper(
                raw,
                encoding=encoding,
                errors=errors,
                line_buffering=True,
                write_through=True,
            )
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
