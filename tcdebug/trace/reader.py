"""Stream the records of one TORCH_TRACE log (the format `torch._logging` writes and tlparse reads).

A record is one glog-prefixed line with a JSON envelope, followed by its payload lines
(each starts with a tab) when the envelope has `has_payload` (the md5 of the payload)::

    V1206 15:18:21.452000 1500233 torch/_inductor/graph.py:2030] {"inductor_output_code": {...}, ...}
    \t# AOT ID: ['0_inference']
    \t...

Payloads are not kept: a record carries a `PayloadRef` (file offsets) and the text is read
back when first shown. Bad input (malformed lines, truncation, non-UTF-8 bytes, unknown event
keys) is skipped and counted in `TraceStats`, never raised. A complete payload whose md5 does not
match is kept, flagged (`Record.md5_ok`) and counted, as tlparse does: its text may be all there is.

Hostile logs too: the file is read in chunks, a line longer than `max_line_bytes()` is skipped
(and counted) without ever being held whole, JSON nested deeper than `MAX_DEPTH` is skipped, and
any other exception inside one record skips (and counts) that record.
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from tcdebug.dump.safe_fs import max_file_bytes
from tcdebug.lazy_re import lazy_re
from tcdebug.model import records
from tcdebug.model.trace_format import count_guards, format_compile_id

try:  # Python's own md5: as fast as OpenSSL's on a log, and `hashlib` loads OpenSSL (3 ms of a small log's read)
    from _md5 import md5 as _new_md5  # type: ignore[import-not-found]
except ImportError:  # a Python built without it
    from hashlib import md5 as _new_md5

# `[rank0]:` only appears in text logs, but a copy-pasted trace may carry it.
_PREFIX_RE = re.compile(
    rb"^(?:\[rank\d+\]:)?[VIWEC](?P<mon>\d\d)(?P<day>\d\d) (?P<h>\d\d):(?P<m>\d\d):(?P<s>\d\d)\.(?P<us>\d{6})"
    rb" +(?P<pid>\d+) [^\]\n]*?:\d+\]"
)

# Envelope keys that qualify the event rather than name it.
CONTEXT_KEYS = frozenset(
    {
        "rank",
        "compiled_autograd_id",
        "frame_id",
        "frame_compile_id",
        "attempt",
        "has_payload",
        "stack",
        "subgraph_name",
        "severity",
        "timestamp",
        "pathname",
        "thread",
    }
)

# Every event key torch (2.4 .. 2.13) and tlparse know (`tcdebug.model.records`). Others are counted as unknown.
KNOWN_EVENTS = records.ENVELOPE_KEYS

# Records whose payload the session needs while loading (small, or split into kernels).
# chromium: compile times; DDPOptimizer's split graph: its reason names the subgraphs
EAGER_PAYLOADS = frozenset({"inductor_output_code", "chromium_event", "optimize_ddp_split_graph"})
EAGER_ARTIFACTS = frozenset(
    {
        "torch_version",
        "recompile_reasons",
        "dynamo_graph_break_reason",
        "compiled_autograd_compile_reasons",
        records.GRAPH_EXECUTED,
        records.EXECUTION_ORDER,
        records.COLLECTIVE_SCHEDULE,
    }
)

MAX_LINE_BYTES_ENV = "TCDEBUG_MAX_LINE_BYTES"
DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024  # torch writes payloads line by line: real lines are far shorter
MAX_DEPTH = 64  # JSON nesting of an envelope; torch's are a few levels deep
CHUNK_BYTES = 1024 * 1024


def max_line_bytes() -> int:
    """The longest line read ($TCDEBUG_MAX_LINE_BYTES, default 64 MiB); longer ones are skipped."""
    try:
        value = int(os.environ.get(MAX_LINE_BYTES_ENV, ""))
    except ValueError:
        return DEFAULT_MAX_LINE_BYTES
    return value if value > 0 else DEFAULT_MAX_LINE_BYTES


STAT_LABELS = {
    "malformed": "malformed lines",
    "too_long": "lines longer than the limit",
    "too_deep": "records nested too deeply",
    "failed": "records that could not be read",
    "truncated": "truncated records",
    "bad_utf8": "records with non-UTF-8 bytes",
    "unknown": "records with an unknown event key",
}


@dataclass
class TraceStats:
    """What one pass over a log saw; `skipped()` counts what was dropped."""

    lines: int = 0
    records: int = 0
    malformed: int = 0
    truncated: int = 0
    md5_mismatch: int = 0
    bad_utf8: int = 0
    unknown: int = 0
    too_long: int = 0
    too_deep: int = 0
    failed: int = 0
    unknown_keys: Counter[str] = field(default_factory=Counter)
    links: int = 0  # `link` records (kept, shown as notes)

    def skipped(self) -> int:
        return sum(getattr(self, key) for key in STAT_LABELS)

    def as_dict(self) -> dict[str, int]:
        d = {k: getattr(self, k) for k in ("lines", "records", "md5_mismatch", "links", *STAT_LABELS)}
        d["skipped"] = self.skipped()
        return d

    def problems(self) -> list[str]:
        """One phrase per kind of skipped input, e.g. "3 malformed lines skipped"."""
        out = []
        for key, label in STAT_LABELS.items():
            n = getattr(self, key)
            if n:
                text = f"{n} {label} skipped"
                if key == "unknown":
                    text += f" ({', '.join(sorted(self.unknown_keys)[:5])})"
                out.append(text)
        if self.md5_mismatch:
            n = self.md5_mismatch
            out.append(f"{n} payload{'s' if n > 1 else ''} with a wrong md5 kept (flagged where shown)")
        return out


class PayloadRef(NamedTuple):  # one per stage and kernel of a log: thousands
    """Where a payload lies in its log: `length` bytes of tab-prefixed lines from `offset`."""

    path: str
    offset: int
    length: int

    def read(self) -> str:
        return _read_payload(self.path, self.offset, self.length)

    def read_from_first_line(self) -> str:
        """`read` without the blank lines before the first line (a guards stage's text). A
        method, so a stage's loader is a bound method: smaller than a partial, and pickled."""
        return self.read().lstrip("\n")


@functools.lru_cache(maxsize=16)
def _read_payload(path: str, offset: int, length: int) -> str:
    limit = max_file_bytes()
    if length > limit:
        return f"not readable: the payload is {length} bytes, more than the {limit} allowed (TCDEBUG_MAX_FILE_BYTES)"
    fd = _log_fd(path)
    chunks = []
    while length > 0:  # one pread: a dump reads thousands of payloads
        chunk = os.pread(fd, length, offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
        length -= len(chunk)
    return decode_payload(b"".join(chunks))


_LOG_FDS: dict[str, int] = {}  # logs whose payloads were read back, kept open (the app reads on)
_LOG_FDS_MAX = 64
_LOG_FDS_LOCK = threading.Lock()


def _log_fd(path: str) -> int:
    """A descriptor of the log at `path`, opened once (the payloads read back are of the file
    as it was read, even if it is replaced later)."""
    with _LOG_FDS_LOCK:
        fd = _LOG_FDS.get(path)
        if fd is None:
            while len(_LOG_FDS) >= _LOG_FDS_MAX:
                os.close(_LOG_FDS.pop(next(iter(_LOG_FDS))))
            fd = _LOG_FDS[path] = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        return fd


def decode_payload_lines(lines: list[bytes]) -> str:
    """Payload lines as written (tab-prefixed, maybe with a final empty split) -> the payload."""
    if lines and lines[-1] == b"":
        lines = lines[:-1]
    return "\n".join(line[1:].removesuffix(b"\r").decode("utf-8", errors="replace") for line in lines)


def _crlf_unwrapped(data: bytes, breaks: int) -> bytes | None:
    """Payload lines joined by `breaks` line breaks, when each is a CRLF one followed by the next
    line's tab (a CRLF log, the usual case): the lines joined by `\\n`, those tabs and a last `\\r`
    dropped, in one pass. None when any break is another."""
    lf = data.replace(b"\r\n\t", b"\n")
    return lf.removesuffix(b"\r") if len(data) - len(lf) == 2 * breaks else None


def decode_payload(data: bytes) -> str:
    """`decode_payload_lines(data.split(b"\\n"))` in bulk, for a span of payload lines that each
    start with a tab (as the reader records them)."""
    whole, data = data, data.removesuffix(b"\n")
    if not data:
        return ""
    if b"\r" in data:
        lf = _crlf_unwrapped(data, data.count(b"\n")) if data[:1] == b"\t" else None
        if lf is not None:
            return str(memoryview(lf)[1:], "utf-8", "replace")
        data = data.replace(b"\r\n", b"\n").removesuffix(b"\r")
    content = data.replace(b"\n\t", b"\n")
    if data[:1] != b"\t" or len(data) - len(content) != data.count(b"\n"):
        return decode_payload_lines(whole.split(b"\n"))  # not the span the reader saw: line by line
    return str(memoryview(content)[1:], "utf-8", "replace")


class Record:
    """One event of the log. `payload` is the text when the key is eager, else None (see `ref`).
    A plain class with slots: a log has one per record, and a dataclass costs a module import."""

    __slots__ = (
        "lineno", "key", "meta", "envelope", "time_s", "ref", "payload", "line_counts", "pid", "md5_ok", "chromium",
        "interned_before", "_compile_id",
    )  # fmt: skip

    def __init__(
        self,
        lineno: int,
        key: str,  # the event key, e.g. "artifact" or "dynamo_output_graph"
        meta: Any,  # the value under the event key
        envelope: dict[str, Any],
        time_s: float,  # seconds since the start of the month, from the glog prefix
        ref: PayloadRef | None = None,
        payload: str | None = None,
        line_counts: int = 0,  # payload lines matching the counting rule (guards)
        pid: int = 0,  # the writing process (the glog prefix); two runs appended to one log differ
        md5_ok: bool = True,  # False: the payload does not match the envelope's md5 (kept, flagged)
        # a chromium event's payload already parsed (ph, name, ts, tid), by a child reader; payload None
        chromium: dict[str, Any] | None = None,
    ) -> None:
        self.lineno = lineno
        self.key = key
        self.meta = meta
        self.envelope = envelope
        self.time_s = time_s
        self.ref = ref
        self.payload = payload
        self.line_counts = line_counts
        self.pid = pid
        self.md5_ok = md5_ok
        self.chromium = chromium
        # a stack frame still names its file by an index the spans before this one's interned
        self.interned_before = False
        self._compile_id: Any = ...  # made at first use (str or None): read several times

    def __repr__(self) -> str:
        return f"Record(lineno={self.lineno}, key={self.key!r}, meta={self.meta!r})"

    @property
    def name(self) -> str:
        """The artifact name for `artifact` records, else the event key."""
        if self.key == "artifact" and isinstance(self.meta, dict):
            return str(self.meta.get("name", ""))
        return self.key

    @property
    def rank(self) -> int | None:
        rank = self.envelope.get("rank")
        return rank if isinstance(rank, int) else None

    @property
    def compile_id(self) -> str | None:
        """Dynamo's compile id string ("0/1", "!0/1/2"), without the attempt; None if global."""
        cid = self._compile_id
        if cid is ...:
            env = self.envelope
            cid = self._compile_id = format_compile_id(
                env.get("frame_id"), env.get("frame_compile_id"), env.get("compiled_autograd_id")
            )
        return cid

    @property
    def attempt(self) -> int:
        attempt = self.envelope.get("attempt")
        return attempt if isinstance(attempt, int) else 0


class _Pending:
    """A record whose payload lines are still being read."""

    __slots__ = (
        "path", "record", "expect", "md5", "first", "start", "end", "bad_utf8", "lines", "count", "too_long"
    )  # fmt: skip

    def __init__(self, path: str, record: Record, expect: str, start: int, keep: bool, count: bool) -> None:
        self.too_long = False
        self.path = path
        self.record = record
        self.expect = expect
        self.md5 = _new_md5(usedforsecurity=False)
        self.first = True
        self.start = start
        self.end = start
        self.bad_utf8 = False
        self.lines: list[str] | None = [] if keep else None
        self.count = count


def _time_s(m: re.Match[bytes]) -> float:
    return int(m["day"]) * 86400 + int(m["h"]) * 3600 + int(m["m"]) * 60 + int(m["s"]) + int(m["us"]) / 1e6


_TIMES: dict[bytes, float] = {}  # the prefix's timestamp -> `_time_s`: records share timestamps


def _cached_time_s(raw: bytes, m: re.Match[bytes]) -> float:
    stamp = raw[m.start("mon") : m.end("us")]
    time_s = _TIMES.get(stamp)
    if time_s is None:
        if len(_TIMES) >= 4096:
            _TIMES.clear()
        time_s = _TIMES[stamp] = _time_s(m)
    return time_s


def event_key(envelope: dict[str, Any]) -> str | None:
    for key in envelope:
        if key not in CONTEXT_KEYS:
            return key
    return None


def read_records(
    path: str | Path,
    stats: TraceStats | None = None,
    *,
    span: tuple[int, int] | None = None,
    intern: dict[int, str] | None = None,
) -> Iterator[Record]:
    """Every well-formed record of the log at `path`, in file order, read as a stream.

    `span`: only the bytes [start, end), which must start and end at the start of a line that is
    not a payload line (see `split_point`); records then number their lines from the span's
    start, and a span that ends before the file does is not truncated. `intern`: the table of
    interned strings to fill (`str` records); with a span that starts after 0, stack frames whose
    string is not in it keep their index, for the caller to resolve from the spans before."""
    stats = stats if stats is not None else TraceStats()
    path_str = str(Path(path).resolve())
    start, end = span if span is not None else (0, -1)
    intern = intern if intern is not None else {}
    unresolved = None if start == 0 else ...
    pending: _Pending | None = None
    skipping = False  # dropping the payload lines of a record that was skipped
    orphan_run = False
    offset = start
    last_line_complete = True
    with _open_log(path_str) as f:
        if start:
            f.seek(start)
        at_eof = end < 0 or end >= os.fstat(f.fileno()).st_size  # the span ends where the file does
        lineno = 0
        for raw, size in _lines(f, max_line_bytes(), -1 if end < 0 else end - start):
            offset += size
            if isinstance(raw, PayloadRun):
                lineno += raw.lines
                stats.lines += raw.lines
                last_line_complete = True
                if pending is not None:
                    _add_payload_run(pending, raw, offset)
                elif not skipping and not orphan_run:
                    stats.malformed += 1  # payload lines with no record before them
                    orphan_run = True
                continue
            lineno += 1
            stats.lines += 1
            if raw is None:  # a line over the limit, never held whole
                stats.too_long += 1
                if pending is not None:
                    pending.too_long = True  # its payload cannot be checked: the record is dropped
                else:
                    skipping = True
                continue
            last_line_complete = size > len(raw)
            if pending is not None and raw in (b"", b"\r"):
                continue  # a blank line inside a payload: skipped, as tlparse skips it (the md5 too)
            if raw.startswith(b"\t"):
                if pending is not None:
                    _add_payload_line(pending, raw, offset)
                elif not skipping and not orphan_run:
                    stats.malformed += 1  # payload lines with no record before them
                    orphan_run = True
                continue
            orphan_run = False
            if pending is not None:
                done = _finish(pending, stats, at_eof=False)
                pending = None
                if done is not None:
                    yield done
            skipping = False
            if not raw.strip():
                continue  # tlparse ignores blank lines too
            try:
                parsed = _parse_envelope(raw, lineno, stats, last=not last_line_complete)
                if parsed is None:
                    skipping = True
                    continue
                key, envelope, time_s, pid = parsed
                if key == "str":
                    _intern(envelope.get("str"), intern, stats)
                    stats.records += 1
                    continue
                if key not in KNOWN_EVENTS:
                    stats.unknown += 1
                    stats.unknown_keys[key[:80]] += 1
                    skipping = True
                    continue
                record = Record(
                    lineno=lineno, key=key, meta=envelope[key], envelope=envelope, time_s=time_s, pid=pid
                )
                if key == "link":
                    stats.links += 1
                _resolve_interned(record, intern, unresolved)
            except Exception:  # anything else wrong with this one record: skip it, counted
                stats.failed += 1
                skipping = True
                continue
            expect = envelope.get("has_payload")
            if expect is None:
                stats.records += 1
                yield record
                continue
            keep = key in EAGER_PAYLOADS or (key == "artifact" and record.name in EAGER_ARTIFACTS)
            pending = _Pending(path_str, record, str(expect), offset, keep, key == "dynamo_cpp_guards_str")
    if pending is not None:
        done = _finish(pending, stats, at_eof=at_eof and not last_line_complete)
        if done is not None:
            yield done


def first_record_time(path: str | Path, max_lines: int = 1000) -> float | None:
    """When the log's first record was written (seconds in the month, as `Record.time_s`). Read
    in chunks, as `read_records` reads: a line over the cap streams by without being held."""
    try:
        with _open_log(str(path)) as f:
            for n, (raw, _size) in enumerate(_lines(f, max_line_bytes())):
                if not isinstance(raw, bytes):  # a payload run, or a line over the cap
                    continue
                m = _PREFIX_RE.match(raw)
                if m is not None:
                    return _time_s(m)
                if n >= max_lines:
                    break
    except (OSError, ValueError):
        return None
    return None


def _open_log(path: str) -> Any:
    """The log, opened for reading; a FIFO or a device (which would block or never end) is refused."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ValueError(f"{path}: not a regular file")
    return os.fdopen(fd, "rb")


class PayloadRun:
    """Consecutive complete payload lines (each starts with a tab) of one chunk, joined by b"\\n".

    Most of a log is payload lines: handling a run in C-level bytes operations instead of
    line by line is what makes big logs fast. Every line of a run is under the line cap.
    """

    __slots__ = ("data", "lines")

    def __init__(self, data: bytes, lines: int) -> None:
        self.data = data
        self.lines = lines


_RUN_END_RE = re.compile(rb"\n(?!\t)")  # the newline ending the last line of a run of payload lines


def split_point(path: str | Path, near: int) -> int | None:
    """The offset of the first line at or after `near` that starts a record (a line after a
    newline, not a payload line), where a log can be cut in two and read in parts; None if none."""
    with _open_log(str(path)) as f:
        size = os.fstat(f.fileno()).st_size
        if near <= 0 or near >= size:
            return None
        f.seek(near - 1)
        pos = near - 1
        tail = b""
        while True:
            chunk = f.read(CHUNK_BYTES)
            if not chunk:
                return None
            data = tail + chunk
            base = pos - len(tail)
            at = 0
            while True:
                nl = data.find(b"\n", at)
                if nl < 0 or nl + 1 >= len(data):
                    break
                if data[nl + 1] != 9:  # not a tab
                    return base + nl + 1
                at = nl + 1
            pos += len(chunk)
            tail = data[-1:]


def _lines(f: Any, cap: int, limit: int = -1) -> Iterator[tuple[bytes | PayloadRun | None, int]]:
    """(line without its newline, its size with it) for each line of `f`, read in chunks; (None,
    size) for a line over `cap` bytes, dropped as it streams by: memory stays bounded by `cap`
    plus a chunk. Complete payload lines inside one chunk come as one `PayloadRun` (size: all of
    its lines with their newlines)."""
    partial: list[bytes] = []
    held = 0  # bytes in `partial`
    dropped = -1  # >= 0: bytes of the over-long line being dropped
    while True:
        if limit < 0:
            chunk = f.read(CHUNK_BYTES)
        else:
            chunk = f.read(min(CHUNK_BYTES, limit))
            limit -= len(chunk)
        if not chunk:
            break
        pos = 0
        end = len(chunk)
        if partial or dropped >= 0:  # the first line continues the previous chunk's last one
            nl = chunk.find(b"\n")
            if nl >= 0:
                piece = chunk[:nl]
                pos = nl + 1
                if dropped >= 0:
                    yield None, dropped + len(piece) + 1
                    dropped = -1
                else:
                    partial.append(piece)
                    piece, held = b"".join(partial), 0
                    partial = []
                    yield (None if len(piece) >= cap else piece), len(piece) + 1
        while pos < end and not (dropped >= 0 or partial):
            nl = chunk.find(b"\n", pos)
            if nl < 0:
                break
            if chunk[pos] == 9:  # a tab: payload lines, up to the first line that is not one
                m = _RUN_END_RE.search(chunk, pos)
                stop = m.start() if m is not None else chunk.rfind(b"\n")
                data = chunk[pos:stop]
                if len(data) < cap:  # so is each of its lines
                    yield PayloadRun(data, data.count(b"\n") + 1), stop + 1 - pos
                else:
                    for piece in data.split(b"\n"):
                        yield (None if len(piece) >= cap else piece), len(piece) + 1
                pos = stop + 1
                continue
            piece = chunk[pos:nl]
            yield (None if len(piece) >= cap else piece), len(piece) + 1
            pos = nl + 1
        if pos >= end:
            continue
        tail = chunk[pos:]
        if dropped >= 0:
            dropped += len(tail)
        elif held + len(tail) > cap:
            dropped, partial, held = held + len(tail), [], 0
        else:
            partial.append(tail)
            held += len(tail)
    if dropped >= 0:
        yield None, dropped
    elif partial:
        yield b"".join(partial), held


def _too_deep(value: Any, limit: int) -> bool:
    """True when `value` nests lists/dicts deeper than `limit` (checked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in item if isinstance(child, (list, dict)))
    return False


def _parse_envelope(
    raw: bytes, lineno: int, stats: TraceStats, *, last: bool
) -> tuple[str, dict[str, Any], float, int] | None:
    m = _PREFIX_RE.match(raw)
    if m is None:
        _bad(stats, last)
        return None
    body = raw[m.end() :]
    brace = body.find(b"{")
    if brace < 0:
        _bad(stats, last)
        return None
    try:
        text = body[brace:].decode("utf-8")
    except UnicodeDecodeError:
        stats.bad_utf8 += 1
        return None
    opens = text.count("[") + text.count("{")  # the nesting cannot be deeper than this
    if opens > MAX_DEPTH and _nesting_at_least(text, MAX_DEPTH):
        stats.too_deep += 1
        return None
    try:
        envelope = _decode_json(text)
    except RecursionError:
        stats.too_deep += 1
        return None
    except ValueError:
        _bad(stats, last)
        return None
    if opens > MAX_DEPTH and isinstance(envelope, dict) and _too_deep(envelope, MAX_DEPTH):
        stats.too_deep += 1
        return None
    key = event_key(envelope) if isinstance(envelope, dict) else None
    if key is None:
        _bad(stats, last)
        return None
    return key, envelope, _cached_time_s(raw, m), int(m["pid"])


_decode_json = json.JSONDecoder().decode  # `json.loads` on a str, without its argument checks
_OPEN_RUN_RE = lazy_re(r"(?:\s*[\[{])+")


def _nesting_at_least(text: str, limit: int) -> bool:
    """A cheap first look: `limit` opening brackets in a row (e.g. 100,000 `[`) is nested too
    deeply for sure, and is refused before the JSON parser recurses into it."""
    return any(m.group().count("[") + m.group().count("{") >= limit for m in _OPEN_RUN_RE().finditer(text))


def _bad(stats: TraceStats, last: bool) -> None:
    if last:
        stats.truncated += 1
    else:
        stats.malformed += 1


def _intern(value: Any, table: dict[int, str], stats: TraceStats) -> None:
    if isinstance(value, list) and len(value) == 2 and isinstance(value[1], int):
        table[value[1]] = str(value[0])
    else:
        stats.malformed += 1


def _resolve_interned(record: Record, table: dict[int, str], unresolved: Any = None) -> None:
    """Stack frames name their file by an interned index; put the string back. `unresolved`
    `...`: an index not in `table` is kept, and the record marked `interned_before`."""
    stacks: list[Any] = []
    if isinstance(record.meta, dict):
        stacks.extend(record.meta[k] for k in ("stack", "user_stack") if isinstance(record.meta.get(k), list))
    if isinstance(record.envelope.get("stack"), list):
        stacks.append(record.envelope["stack"])
    for stack in stacks:
        for frame in stack:
            if isinstance(frame, dict) and isinstance(frame.get("filename"), int):
                name = table.get(frame["filename"], unresolved)
                if name is not ...:
                    frame["filename"] = name if name is not None else f"<interned {frame['filename']}>"
                else:  # left for the spans before (see `read_records`)
                    record.interned_before = True


def _add_payload_line(p: _Pending, raw: bytes, end: int) -> None:
    p.end = end
    # `raw` comes without its newline (see `_lines`); a CRLF conversion leaves a `\r`
    _add_payload_text(p, raw.removesuffix(b"\r"))


def _add_payload_run(p: _Pending, run: PayloadRun, end: int) -> None:
    """`_add_payload_line` for every line of `run`, in bulk."""
    p.end = end
    data = run.data
    if b"\r" in data:  # a CRLF conversion leaves `\r`s
        lf = _crlf_unwrapped(data, run.lines - 1)
        if lf is not None:
            _add_payload_text(p, lf)
            return
        data = data.replace(b"\r\n", b"\n").removesuffix(b"\r")
    _add_payload_text(p, data.replace(b"\n\t", b"\n"))  # each line without its leading tab


def _add_payload_text(p: _Pending, tabbed: bytes) -> None:
    """Fold payload lines into `p`: the md5, the text when it is kept, and the guard count.
    `tabbed`: the lines joined by newlines, the first one still with its leading tab. A payload
    with non-UTF-8 bytes is dropped whole."""
    content = memoryview(tabbed)[1:]
    if not p.first:
        p.md5.update(b"\n")
    p.md5.update(content)
    p.first = False
    if p.bad_utf8:
        return
    if p.lines is None and not p.count and tabbed.isascii():
        return  # valid UTF-8, and its text is not needed now
    try:
        text = str(content, "utf-8")
    except UnicodeDecodeError:
        p.bad_utf8 = True
        return
    if p.lines is not None:
        p.lines.append(text)
    if p.count:
        p.record.line_counts += count_guards(text)


def _complete_json(record: Record, ref: PayloadRef) -> bool:
    """Is the payload of a record cut off by the end of the file whole all the same: a JSON
    artifact (`"encoding": "json"`) whose text parses. Its md5 is then a mismatch, not a truncation."""
    meta = record.meta
    if not (isinstance(meta, dict) and meta.get("encoding") == "json"):
        return False
    try:
        json.loads(ref.read())
    except ValueError:
        return False
    return True


def _finish(p: _Pending, stats: TraceStats, *, at_eof: bool) -> Record | None:
    """Check the payload (md5, UTF-8); a bad payload at the end of the file is a truncation."""
    digest = p.md5.hexdigest()
    if p.too_long:
        return None  # counted as a long line already
    if p.bad_utf8:
        stats.bad_utf8 += 1
        return None
    record = p.record
    ref = PayloadRef(p.path, p.start, p.end - p.start)
    if digest != p.expect:
        if at_eof and not _complete_json(record, ref):
            stats.truncated += 1
            return None
        stats.md5_mismatch += 1
        record.md5_ok = False
    record.ref = ref
    if p.lines is not None:
        record.payload = "\n".join(p.lines)
    stats.records += 1
    return record
