"""The reader handles a chunk's payload lines as one run: the records must be exactly those
read line by line, wherever the chunk boundaries fall, with CRLF line ends, bad UTF-8 and
lines over the cap inside a payload."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from conftest import ROOT

from tcdebug.trace import reader
from tcdebug.trace.reader import TraceStats, read_records

SEED = next((ROOT / "tests" / "data" / "traces" / "graph_breaks").glob("*.log"))
PREFIX = "V1123 10:42:56.562000 5420 torch/x.py:1] "


def record(key: str, lines: list[bytes]) -> bytes:
    payload = b"\n".join(lines)
    md5 = hashlib.md5(payload).hexdigest()
    envelope = json.dumps({key: {}, "frame_id": 0, "frame_compile_id": 0, "has_payload": md5})
    head = (PREFIX + envelope + "\n").encode()
    return head + b"".join(b"\t" + line + b"\n" for line in lines)


def read_all(path: Path) -> tuple[list[tuple], dict[str, int]]:
    stats = TraceStats()
    out = [
        (r.lineno, r.key, r.payload, r.md5_ok, r.line_counts, r.ref and (r.ref.offset, r.ref.length))
        for r in read_records(path, stats)
    ]
    return out, stats.as_dict()


def mixed_log(tmp_path: Path, crlf: bool) -> Path:
    guards = [b"TREE_GUARD_MANAGER:", b"+- GuardManager: source=L['x']", b"| +- TENSOR_MATCH: x", b"+- GLOBAL"]
    code = [b"def f(x):", b"\treturn x  # a tab inside", b"", b"caf\xc3\xa9 \xe2\x9c\x93"] * 40
    data = (
        record("inductor_output_code", code)
        + record("dynamo_cpp_guards_str", guards)
        + record("inductor_output_code", [b"bad \xff utf-8", b"ok"])
        + b"\n"
        + record("inductor_output_code", [b"x" * 300, b"y"])
        + record("inductor_output_code", [b"last"])
    )
    if crlf:
        data = data.replace(b"\n", b"\r\n")
    path = tmp_path / "mixed.log"
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("crlf", [False, True])
def test_runs_read_as_lines_whatever_the_chunk_size(tmp_path: Path, monkeypatch, crlf: bool) -> None:
    log = mixed_log(tmp_path, crlf)
    monkeypatch.setattr(reader, "CHUNK_BYTES", 1 << 20)
    whole, whole_stats = read_all(log)
    assert [r[1] for r in whole] == ["inductor_output_code", "dynamo_cpp_guards_str"] + ["inductor_output_code"] * 2
    assert whole[0][2].startswith("def f(x):\n\treturn x") and "café ✓" in whole[0][2]
    assert whole[1][4] == 2  # guard lines counted across the run (not the GuardManager one)
    assert whole_stats["bad_utf8"] == 1
    for size in (1, 2, 3, 7, 64, 301, 4096):
        monkeypatch.setattr(reader, "CHUNK_BYTES", size)
        assert read_all(log) == (whole, whole_stats), size


def test_a_line_over_the_cap_inside_a_run_drops_its_record(tmp_path: Path, monkeypatch) -> None:
    log = mixed_log(tmp_path, crlf=False)
    monkeypatch.setenv("TCDEBUG_MAX_LINE_BYTES", "200")
    for size in (64, 1 << 20):
        monkeypatch.setattr(reader, "CHUNK_BYTES", size)
        records, stats = read_all(log)
        assert stats["too_long"] == 1, size
        assert [r[2] for r in records if r[2] is not None and "y" == r[2][-1:]] == []  # the x*300 record
        assert records[-1][2] == "last"


def test_a_real_log_reads_the_same_in_small_chunks(monkeypatch) -> None:
    whole = read_all(SEED)
    monkeypatch.setattr(reader, "CHUNK_BYTES", 977)
    assert read_all(SEED) == whole
