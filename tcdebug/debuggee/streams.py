"""The script's stdout and stderr as ONE ordered stream, each chunk tagged with its stream.

Two pipes read by two threads cannot keep the order in which the script wrote to them (a
`print` then a traceback could arrive the other way round). So `sys.stdout` and `sys.stderr`
write to one datagram socket (`$TCDEBUG_OUTPUT_FD`, SOCK_SEQPACKET: a message per write, kept in
order and never split). Writes made below Python (C code, `os.write(1, ...)`, subprocesses)
still go to the file descriptors 1 and 2 and are read from their pipes.
"""

from __future__ import annotations

import io
import os
import socket
import sys

from tcdebug.model.protocol import MAX_OUTPUT_MESSAGE as MAX_MESSAGE
from tcdebug.model.protocol import STDERR_TAG, STDOUT_TAG


class TaggedWriter(io.RawIOBase):
    """A binary stream whose writes become tagged messages on the shared output socket."""

    def __init__(self, sock: socket.socket, tag: bytes, fd: int) -> None:
        super().__init__()
        self.sock = sock
        self.tag = tag
        self.fd = fd  # the real descriptor, for code that asks (subprocess, faulthandler)

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return False

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(data).cast("B")
        size = len(view)
        for start in range(0, size, MAX_MESSAGE):
            chunk = self.tag + bytes(view[start : start + MAX_MESSAGE])
            try:
                self.sock.send(chunk)
            except OSError:
                # The controller is gone: fall back to the plain descriptor.
                try:
                    os.write(self.fd, chunk[1:])
                except OSError:
                    pass
        return size


def install_tagged_streams(value: str) -> None:
    """Replace `sys.stdout` and `sys.stderr` with tagged writers, when the controller gave a socket
    (`value`: its descriptor, passed as `$TCDEBUG_OUTPUT_FD`)."""
    if not value.isdigit():
        return
    try:
        sock = socket.socket(fileno=int(value))
        os.set_inheritable(sock.fileno(), False)
    except OSError:
        return
    for name, tag, fd in (("stdout", STDOUT_TAG, 1), ("stderr", STDERR_TAG, 2)):
        old = getattr(sys, name)
        encoding = getattr(old, "encoding", None) or "utf-8"
        errors = "backslashreplace" if name == "stderr" else (getattr(old, "errors", None) or "strict")
        # typeshed wants a buffered stream here; a raw writer works with write_through=True.
        stream = io.TextIOWrapper(  # type: ignore[type-var]
            TaggedWriter(sock, tag, fd),
            encoding=encoding,
            errors=errors,
            line_buffering=True,
            write_through=True,
        )
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
