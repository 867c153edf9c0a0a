"""Stream the records of one TORCH_TRACE log (the format `torch._logging` writes and tlparse reads).

A record is one glog-prefixed line with a JSON envelope, followed by its payload lines
(each starts with a tab) when the envelope has `has_payload` (the md5 of the payload)::

    V1206 15:18:21.452000 1500233 torch/_inductor/graph.py:2030] {"inductor_output_code": {...}, ...}
    \t# AOT ID: ['0_inference']
    \t...

Payloads are not kept: a record carries a `PayloadRef` (file offsets) and the text is read
back when first shown. Bad input (malformed lines, truncation, md5 mismatches, non-UTF-8
bytes, unknown event keys) is skipped and counted in `TraceStats`, never raised.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# `[rank0]:` only appears in text logs, but a copy-pasted trace may carry it.
_PREFIX_RE = re.compile(
    rb"^(?:\[rank\d+\]:)?[VIWEC](?P<mon>\d\d)(?P<day>\d\d) (?P<h>\d\d):(?P<m>\d\d):(?P<s>\d\d)\.(?P<us>\d{6})"
    rb" +\d+ [^\]\n]*?:\d+\]"
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

# Every event key torch (2.4 .. 2.13) and tlparse know. Others are counted as unknown.
KNOWN_EVENTS = frozenset(
    {
        "str",
        "artifact",
        "dynamo_start",
        "dynamo_output_graph",
        "dynamo_guards",
        "dynamo_cpp_guards_str",
        "dynamo_error",
        "aot_joint_graph",
        "aot_forward_graph",
        "aot_backward_graph",
        "aot_inference_graph",
        "inductor_input_graph",
        "inductor_pre_grad_graph",
        "inductor_post_grad_graph",
        "inductor_output_code",
        "compilation_metrics",
        "bwd_compilation_metrics",
        "aot_autograd_backward_compilation_metrics",
        "compilation_metrics_runtime",
        "bwd_compilation_metrics_runtime",
        "compiled_autograd_graph",
        "chromium_event",
        "describe_tensor",
        "describe_storage",
        "describe_source",
        "create_symbol",
        "create_unbacked_symbol",
        "expression_created",
        "symbolic_shape_specialization",
        "guard_added",
        "guard_added_fast",
        "guard_on_data_dependent_error",
        "propagate_real_tensors",
        "propagate_real_tensors_provenance",
        "mismatched_fake_kernel",
        "missing_fake_kernel",
        "optimize_ddp_split_graph",
        "optimize_ddp_split_child",
        "graph_dump",
        "dump_file",
        "link",
        "export",
        "exported_program",
        "restart",
        "recompile",
    }
)

# Records whose payload the session needs while loading (small, or split into kernels).
EAGER_PAYLOADS = frozenset({"inductor_output_code", "chromium_event"})  # chromium: compile times
EAGER_ARTIFACTS = frozenset(
    {
        "torch_version",
        "recompile_reasons",
        "dynamo_graph_break_reason",
    }
)

STAT_LABELS = {
    "malformed": "malformed lines",
    "truncated": "truncated records",
    "md5_mismatch": "payloads with a wrong md5",
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
    unknown_keys: Counter[str] = field(default_factory=Counter)

    def skipped(self) -> int:
        return self.malformed + self.truncated + self.md5_mismatch + self.bad_utf8 + self.unknown

    def as_dict(self) -> dict[str, int]:
        d = {k: getattr(self, k) for k in ("lines", "records", *STAT_LABELS)}
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
        return out


@dataclass(frozen=True)
class PayloadRef:
    """Where a payload lies in its log: `length` bytes of tab-prefixed lines from `offset`."""

    path: str
    offset: int
    length: int

    def read(self) -> str:
        return _read_payload(self.path, self.offset, self.length)


@functools.lru_cache(maxsize=16)
def _read_payload(path: str, offset: int, length: int) -> str:
    with open(path, "rb") as f:
        f.seek(offset)
        data = f.read(length)
    return decode_payload_lines(data.split(b"\n"))


def decode_payload_lines(lines: list[bytes]) -> str:
    """Payload lines as written (tab-prefixed, maybe with a final empty split) -> the payload."""
    if lines and lines[-1] == b"":
        lines = lines[:-1]
    return "\n".join(line[1:].removesuffix(b"\r").decode("utf-8", errors="replace") for line in lines)


@dataclass
class Record:
    """One event of the log. `payload` is the text when the key is eager, else None (see `ref`)."""

    lineno: int
    key: str  # the event key, e.g. "artifact" or "dynamo_output_graph"
    meta: Any  # the value under the event key
    envelope: dict[str, Any]
    time_s: float  # seconds since the start of the month, from the glog prefix
    ref: PayloadRef | None = None
    payload: str | None = None
    line_counts: int = 0  # payload lines matching the counting rule (guards)

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
        env = self.envelope
        frame, fcid, ca = env.get("frame_id"), env.get("frame_compile_id"), env.get("compiled_autograd_id")
        if ca is not None:
            return f"!{ca}" + (f"/{frame}/{fcid}" if frame is not None and fcid is not None else "")
        if frame is None or fcid is None:
            return None
        return f"{frame}/{fcid}"

    @property
    def attempt(self) -> int:
        attempt = self.envelope.get("attempt")
        return attempt if isinstance(attempt, int) else 0


class _Pending:
    """A record whose payload lines are still being read."""

    __slots__ = ("path", "record", "expect", "md5", "first", "start", "end", "bad_utf8", "lines", "count")

    def __init__(self, path: str, record: Record, expect: str, start: int, keep: bool, count: bool) -> None:
        self.path = path
        self.record = record
        self.expect = expect
        self.md5 = hashlib.md5(usedforsecurity=False)
        self.first = True
        self.start = start
        self.end = start
        self.bad_utf8 = False
        self.lines: list[str] | None = [] if keep else None
        self.count = count


def _time_s(m: re.Match[bytes]) -> float:
    return int(m["day"]) * 86400 + int(m["h"]) * 3600 + int(m["m"]) * 60 + int(m["s"]) + int(m["us"]) / 1e6


def event_key(envelope: dict[str, Any]) -> str | None:
    for key in envelope:
        if key not in CONTEXT_KEYS:
            return key
    return None


def read_records(path: str | Path, stats: TraceStats | None = None) -> Iterator[Record]:
    """Every well-formed record of the log at `path`, in file order, read as a stream."""
    stats = stats if stats is not None else TraceStats()
    path_str = str(Path(path).resolve())
    intern: dict[int, str] = {}
    pending: _Pending | None = None
    skipping = False  # dropping the payload lines of a record that was skipped
    orphan_run = False
    offset = 0
    last_line_complete = True
    with open(path_str, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            offset += len(raw)
            stats.lines += 1
            last_line_complete = raw.endswith(b"\n")
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
            parsed = _parse_envelope(raw, lineno, stats, last=not last_line_complete)
            if parsed is None:
                skipping = True
                continue
            key, envelope, time_s = parsed
            if key == "str":
                _intern(envelope.get("str"), intern, stats)
                stats.records += 1
                continue
            if key not in KNOWN_EVENTS:
                stats.unknown += 1
                stats.unknown_keys[key] += 1
                skipping = True
                continue
            record = Record(lineno=lineno, key=key, meta=envelope[key], envelope=envelope, time_s=time_s)
            _resolve_interned(record, intern)
            expect = envelope.get("has_payload")
            if expect is None:
                stats.records += 1
                yield record
                continue
            keep = key in EAGER_PAYLOADS or (key == "artifact" and record.name in EAGER_ARTIFACTS)
            pending = _Pending(path_str, record, str(expect), offset, keep, key == "dynamo_cpp_guards_str")
    if pending is not None:
        done = _finish(pending, stats, at_eof=True)
        if done is not None:
            yield done


def _parse_envelope(
    raw: bytes, lineno: int, stats: TraceStats, *, last: bool
) -> tuple[str, dict[str, Any], float] | None:
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
    try:
        envelope = json.loads(text)
    except ValueError:
        _bad(stats, last)
        return None
    key = event_key(envelope) if isinstance(envelope, dict) else None
    if key is None:
        _bad(stats, last)
        return None
    return key, envelope, _time_s(m)


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


def _resolve_interned(record: Record, table: dict[int, str]) -> None:
    """Stack frames name their file by an interned index; put the string back."""
    stacks = []
    if isinstance(record.meta, dict) and isinstance(record.meta.get("stack"), list):
        stacks.append(record.meta["stack"])
    if isinstance(record.envelope.get("stack"), list):
        stacks.append(record.envelope["stack"])
    for stack in stacks:
        for frame in stack:
            if isinstance(frame, dict) and isinstance(frame.get("filename"), int):
                frame["filename"] = table.get(frame["filename"], f"<interned {frame['filename']}>")


def _add_payload_line(p: _Pending, raw: bytes, end: int) -> None:
    p.end = end
    content = raw[1:-1] if raw.endswith(b"\n") else raw[1:]
    content = content.removesuffix(b"\r")  # a log that went through a CRLF conversion
    if not p.first:
        p.md5.update(b"\n")
    p.md5.update(content)
    p.first = False
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        p.bad_utf8 = True
        return
    if p.lines is not None:
        p.lines.append(text)
    if p.count and "+- " in text and "GuardManager" not in text:
        p.record.line_counts += 1


def _finish(p: _Pending, stats: TraceStats, *, at_eof: bool) -> Record | None:
    """Check the payload (md5, UTF-8); a bad payload at the end of the file is a truncation."""
    digest = p.md5.hexdigest()
    if p.bad_utf8:
        stats.bad_utf8 += 1
        return None
    if digest != p.expect:
        if at_eof:
            stats.truncated += 1
        else:
            stats.md5_mismatch += 1
        return None
    record = p.record
    record.ref = PayloadRef(p.path, p.start, p.end - p.start)
    if p.lines is not None:
        record.payload = "\n".join(p.lines)
    stats.records += 1
    return record
