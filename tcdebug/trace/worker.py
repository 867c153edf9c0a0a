"""Read a TORCH_TRACE log in child processes, so a big log is parsed on both cores.

Two pipelines, both giving exactly what the in-process path gives (same records, same events,
same `TraceStats`), in file order:

- `records_in_child(path, stats)`: a child runs `read_records` (lines, envelopes, md5 checks)
  and streams the records back; the caller converts them (`load_log`, `open --dump`).
- `events_in_child(path, stats)`: a child converts records to session events (its records
  come from a grandchild, as above) and streams the events back: the app's UI thread then
  only applies them, and shares no GIL with the parser.

What crosses the pipe is pickled by our own child from our own objects (records, events and
their `PayloadRef`s), never anything the log names; the log's text is only ever data.

Each child ends with its reader: when the pipe closes (it is killed by `close()`, the reader
ended, or the parent died: a write then fails), and on Linux when its parent dies (SIGTERM via
PR_SET_PDEATHSIG). An error inside the child (an unreadable file, a MemoryError) comes back as
the same exception type with its message, after the items read before it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import struct
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from tcdebug.analysis.compile_phases import parse_event
from tcdebug.forked import Forked, die_with_parent, widen_pipe
from tcdebug.trace.reader import (
    PayloadRef,
    Record,
    TraceStats,
    _open_log,
    _resolve_interned,
    read_records,
    split_point,
)

if TYPE_CHECKING:
    import subprocess

# pickle, subprocess and tempfile are imported where a log is read in child processes: a log
# below FORK_MIN_BYTES never is, and its `open --dump` need not import them.

CHILDREN_ENV = "TCDEBUG_TRACE_CHILDREN"  # "0": never; "1": always; unset: by the log's size
# Below these, a child costs more than it saves: a started one (`python -m`, the app's threads
# rule out a fork) must import its modules; a forked one has them, and reading a 3.5 MB log
# in two takes 37-46 ms against 48-53 ms in one (parity at 1.9 MB).
MIN_BYTES = 8 * 1024 * 1024
FORK_MIN_BYTES = 2 * 1024 * 1024
_HEADER = struct.Struct("<Q")
_RECORD_BATCH = 256
# The share of a log this process reads itself: it also converts every record (the child's too),
# so it takes the smaller part. Taking a record from the child costs this process about half of
# reading it: on a log of 100,000 small compiles a 0.15 share loads about 15% faster than 0.3 (runs
# alternated); on logs of big payloads (122 MB and 1 GB) the two load alike, the child then busy
# throughout.
FIRST_PART = 0.15
_EVENT_BATCH_S = 0.05  # events are sent at least this often, so the first compile shows at once
_ERRORS: dict[str, type[Exception]] = {
    "OSError": OSError,
    "ValueError": ValueError,
    "RecursionError": RecursionError,
    "MemoryError": MemoryError,
}


def use_children(path: str | Path) -> bool:
    """Whether to read `path` in child processes ($TCDEBUG_TRACE_CHILDREN, else by its size)."""
    choice = os.environ.get(CHILDREN_ENV, "")
    if choice in ("0", "1"):
        return choice == "1"
    try:
        return os.path.getsize(path) >= (FORK_MIN_BYTES if can_fork() else MIN_BYTES) and (os.cpu_count() or 1) > 1
    except OSError:
        return False


def can_fork() -> bool:
    """Whether a child reader can be forked here (no threads to break), as `ChildStream` forks it
    with a spool; otherwise it is started with `python -m`."""
    return hasattr(os, "fork") and threading.active_count() == 1


class ChildStream:
    """The items one child sends (records or events), read as they come; `close()` ends it."""

    def __init__(
        self,
        kind: str,
        path: str | Path,
        stats: TraceStats,
        *,
        span: tuple[int, int] = (0, -1),
        spool: BinaryIO | None = None,
    ) -> None:
        """`span`: the bytes to read (records only); `spool`: a temporary file the child writes
        to instead of the pipe, read once it has ended (so it can read ahead unblocked)."""
        self.stats = stats
        self.intern: dict[int, str] = {}  # the child's table of interned strings, once done
        path_str = str(Path(path).resolve())
        _open_log(path_str).close()  # the serial reader's one-line errors, before a process starts
        self._closed = False
        self._spool = spool
        if spool is not None and can_fork():
            # forked (no threads to break): starts at once, with everything imported already
            out = spool

            def run() -> int:
                with open(out.fileno(), "wb", buffering=1 << 20, closefd=False) as sink:
                    return serve(kind, path_str, sink, span)

            self.proc: subprocess.Popen[bytes] | Forked = Forked(run)
            return
        import subprocess

        argv = [
            sys.executable,
            "-m",
            "tcdebug.trace.worker",
            kind,
            path_str,
            str(os.getpid()),
            *map(str, span),
        ]
        self.proc = subprocess.Popen(
            [*argv, str(spool.fileno()) if spool is not None else "-"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL if spool is not None else subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            pass_fds=(spool.fileno(),) if spool is not None else (),
        )
        widen_pipe(self.proc.stdout)

    def __iter__(self) -> Iterator[Any]:
        pipe = self.proc.stdout
        spool = _SpoolReader(self._spool.fileno(), self.proc) if self._spool is not None else None
        try:
            while True:
                if spool is not None:
                    message = spool.receive()
                else:
                    assert pipe is not None
                    message = _receive(pipe)
                if message is None:
                    if self._closed:
                        return
                    code = self.proc.wait()
                    raise OSError(f"the log reader process ended unexpectedly (exit code {code})")
                kind = message[0]
                if kind == "items":
                    yield from message[1]
                elif kind == "done":
                    _merge_stats(self.stats, message[1])
                    self.intern = message[2]
                    return
                else:  # ("error", type name, text, stats)
                    _merge_stats(self.stats, message[3])
                    raise _ERRORS.get(message[1], OSError)(message[2])
        finally:
            self.close()

    def close(self) -> None:
        """End the child (if it still runs) and reap it."""
        self._closed = True
        proc = self.proc
        if proc.poll() is None:
            proc.kill()
        if proc.stdout is not None:
            proc.stdout.close()
        proc.wait()


def records_in_children(path: str | Path, stats: TraceStats) -> Iterator[Record]:
    """`read_records(path, stats)`, on two cores: while this process reads the first part of
    the log (and its caller converts the records), a child reads the rest; its records follow,
    in file order."""
    path_str = str(Path(path).resolve())
    cut = split_point(path_str, int(os.path.getsize(path_str) * FIRST_PART))
    if cut is None:
        yield from read_records(path_str, stats)
        return
    import tempfile

    with contextlib.ExitStack() as stack:
        try:
            spool = stack.enter_context(tempfile.TemporaryFile())
            second = ChildStream("records", path_str, stats, span=(cut, -1), spool=spool)
        except OSError:  # no temporary file, no process: one process reads it all, as it always did
            stack.close()
            yield from read_records(path_str, stats)
            return
        try:
            table: dict[int, str] = {}
            yield from read_records(path_str, stats, span=(0, cut), intern=table)
            lines = stats.lines
            for item in second:
                record = _record_from_tuple(path_str, item)
                record.lineno += lines
                if record.interned_before:  # the frames the child left: interned before its part
                    _resolve_interned(record, table)
                yield record
        finally:
            second.close()


_CHROMIUM_KEYS = ("ph", "name", "ts", "tid")  # what `PhaseCollector.feed` reads of an event


def _record_tuple(record: Record) -> tuple[Any, ...]:
    """A record as plain values (pickled in C, far faster than a dataclass). A chromium event's
    payload (most of a log's records) travels parsed and cut to what the collector reads."""
    payload, chromium = record.payload, None
    if record.key == "chromium_event" and payload is not None:
        try:
            event = parse_event(payload)
        except Exception:  # noqa: BLE001 - left to the converter, which counts it as it would
            event = None
        if event is not None:
            chromium = {k: event[k] for k in _CHROMIUM_KEYS if k in event}
            payload = None
    ref = record.ref
    return (
        record.lineno,
        record.key,
        record.envelope,
        record.time_s,
        -1 if ref is None else ref.offset,
        0 if ref is None else ref.length,
        payload,
        record.line_counts,
        record.pid,
        record.md5_ok,
        chromium,
        record.interned_before,
        record.compile_id,  # made here, on the core that reads
    )


def _record_from_tuple(path: str, item: tuple[Any, ...]) -> Record:
    lineno, key, envelope, time_s, offset, length, payload, line_counts, pid, md5_ok, chromium, before, cid = item
    record = Record(
        lineno=lineno,
        key=key,
        meta=envelope[key],
        envelope=envelope,
        time_s=time_s,
        ref=None if offset < 0 else PayloadRef(path, offset, length),
        payload=payload,
        line_counts=line_counts,
        pid=pid,
        md5_ok=md5_ok,
        chromium=chromium,
    )
    record.interned_before = before
    record._compile_id = cid
    return record


def events_in_child(path: str | Path, stats: TraceStats) -> ChildStream:
    """`iter_trace_events(path, stats)`, converted by a child process (iterate the stream)."""
    return ChildStream("events", path, stats)


def _merge_stats(stats: TraceStats, other: TraceStats) -> None:
    """Fold a child's counts into `stats` (the caller may have counted too: failed conversions)."""
    for key, value in vars(other).items():
        if key == "unknown_keys":
            stats.unknown_keys.update(value)
        else:
            setattr(stats, key, getattr(stats, key) + value)


class _SpoolReader:
    """Messages from the spool file while the child still writes it: read with `pread` at our
    own position (the child moves the file's shared offset as it writes), waiting for a message
    the child has not finished writing."""

    def __init__(self, fd: int, proc: subprocess.Popen[bytes] | Forked) -> None:
        self.fd = fd
        self.proc = proc
        self.pos = 0

    def _read(self, size: int, at: int) -> bytes:
        chunks = []
        while size > 0:
            chunk = os.pread(self.fd, size, at)
            if not chunk:
                break
            chunks.append(chunk)
            size -= len(chunk)
            at += len(chunk)
        return b"".join(chunks)

    def receive(self) -> Any:
        import pickle

        while True:
            ended = self.proc.poll() is not None  # before reading: then nothing more comes
            head = self._read(_HEADER.size, self.pos)
            if len(head) == _HEADER.size:
                (size,) = _HEADER.unpack(head)
                body = self._read(size, self.pos + _HEADER.size)
                if len(body) == size:
                    self.pos += _HEADER.size + size
                    return pickle.loads(body)  # noqa: S301 - our own child's, see the docstring
            if ended:
                return None
            time.sleep(0.002)


def _receive(pipe: IO[bytes]) -> Any:
    import pickle

    head = pipe.read(_HEADER.size)
    if len(head) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(head)
    body = pipe.read(size)
    if len(body) < size:
        return None
    return pickle.loads(body)  # noqa: S301 - our own child's objects, see the module docstring


def _send(out: BinaryIO, message: Any) -> None:
    import pickle

    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_HEADER.pack(len(body)))
    out.write(body)
    out.flush()


# ----- the child ---------------------------------------------------------------------------
def serve(kind: str, path: str, out: BinaryIO, span: tuple[int, int] = (0, -1)) -> int:
    """Stream the records or events of `path` to `out` (the child's side of `ChildStream`)."""
    stats = TraceStats()
    intern: dict[int, str] = {}
    batch: list[Any] = []
    try:
        if kind == "records":
            for record in read_records(path, stats, span=span, intern=intern):
                batch.append(_record_tuple(record))
                if len(batch) >= _RECORD_BATCH:
                    _send(out, ("items", batch))
                    batch = []
        else:
            from tcdebug.trace.to_session import TraceConverter

            last = time.monotonic()  # records from a grandchild, as `log_events.iter_trace_events` reads a big log
            for event in TraceConverter(stats).events(records_in_children(path, stats)):
                batch.append(event)
                if time.monotonic() - last >= _EVENT_BATCH_S:
                    _send(out, ("items", batch))
                    batch, last = [], time.monotonic()
        if batch:
            _send(out, ("items", batch))
        _send(out, ("done", stats, intern))
    except (OSError, ValueError, RecursionError, MemoryError) as exc:
        if isinstance(exc, BrokenPipeError):
            return 1  # the reader went away
        if batch:
            _send(out, ("items", batch))
        _send(out, ("error", type(exc).__name__, str(exc), stats))
    return 0


def main(argv: list[str]) -> int:
    kind, path, parent, start, end, fd = argv
    die_with_parent(int(parent))
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # ignored where the parent ignores it
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C in a terminal ends the child quietly
    out: BinaryIO = sys.stdout.buffer if fd == "-" else open(int(fd), "wb", buffering=1 << 20)  # noqa: SIM115
    try:
        return serve(kind, path, out, (int(start), int(end)))
    except BrokenPipeError:
        return 1
    finally:
        try:
            out.close()
        except OSError:
            pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
