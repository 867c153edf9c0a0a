"""The fast paths of the trace reader and the dump writer give what the plain ones give.

Each fast path replaced a simpler one (a payload decoded line by line, `json.dumps(indent=1)`,
`asdict`, a folder walked for every file); these tests hold them to the same results (for JSON:
the same value read back)."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tcdebug.analysis.provenance_index import ProvItem, item_to_dict
from tcdebug.dump.index import entries_json
from tcdebug.dump.safe_fs import (
    DEFAULT_MAX_FILE_BYTES,
    MAX_FILE_BYTES_ENV,
    DirCache,
    DumpError,
    FileCopy,
    max_file_bytes,
    write_file,
    write_pieces,
)
from tcdebug.model.session import Kernel, Stage, stage_to_dict
from tcdebug.trace.reader import decode_payload, decode_payload_lines

_line = st.binary(max_size=12).map(lambda b: b.replace(b"\n", b""))


@settings(max_examples=400, deadline=None)
@given(st.lists(_line, max_size=6), st.booleans(), st.booleans(), st.booleans())
def test_a_payload_decoded_in_bulk_is_the_payload_decoded_line_by_line(
    lines: list[bytes], tabs: bool, crlf: bool, newline_at_end: bool
) -> None:
    body = [
        (b"\t" + line if tabs else line) + (b"\r" if crlf and i % 2 else b"") for i, line in enumerate(lines)
    ]
    data = b"\n".join(body) + (b"\n" if newline_at_end else b"")
    assert decode_payload(data) == decode_payload_lines(data.split(b"\n"))


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=6), _json_values, max_size=6))
def test_entries_json_reads_back_as_json_dumps(value: dict[str, object]) -> None:
    text = entries_json(value)
    assert json.loads(text) == json.loads(json.dumps(value))


def test_entries_json_puts_each_entry_on_a_line() -> None:
    data = {"format": "f", "items": [{"a": 1}, {"b": [2, 3]}], "nodes": {"x": {"s": 1}}, "notes": []}
    assert entries_json(data).splitlines() == [
        "{",
        ' "format": "f",',
        ' "items": [',
        '  {"a": 1},',
        '  {"b": [2, 3]}',
        " ],",
        ' "nodes": {',
        '  "x": {"s": 1}',
        " },",
        ' "notes": []',
        "}",
    ]
    assert json.loads(entries_json({1: "a"})) == {"1": "a"}  # a key json would convert


def test_a_provenance_item_as_a_dict_is_asdict() -> None:
    item = ProvItem("s|n", "s", "n", "fx_node", [1, 2], "detail", {"a": [1, {"b": 2}]})
    as_dict = item_to_dict(item)
    assert as_dict == asdict(item) and list(as_dict) == list(asdict(item))
    as_dict["meta"]["a"].append(3)  # a copy, as asdict makes
    assert item.meta == {"a": [1, {"b": 2}]}


class _CountingKernel(Kernel):
    """A kernel whose source is expensive to produce (a log's kernels re-split their output code)."""

    reads = 0

    @property  # type: ignore[override]
    def source(self) -> str:
        type(self).reads += 1
        return "src"

    @source.setter
    def source(self, value: str) -> None:
        pass


def test_the_index_lists_kernels_without_reading_their_source() -> None:
    kernel = _CountingKernel("k", "cpp", "", "pointwise", [{"x": 1}], None, ["add"], {"file": "k.cpp"})
    stage = Stage("kernel_source", part="forward", kernels=[kernel])
    listed = stage_to_dict(stage, with_text=False)["kernels"][0]
    assert _CountingKernel.reads == 0
    full = asdict(kernel)
    full.pop("source")
    assert listed == full and list(listed) == list(full)


def test_a_folder_cache_writes_every_file_and_keeps_few_folders_open(tmp_path: Path) -> None:
    before = len(os.listdir("/proc/self/fd"))
    with DirCache(tmp_path, limit=2) as dirs:
        for n in range(6):
            write_file(tmp_path, f"compiles/{n}/kernels/k.txt", f"kernel {n}", dirs=dirs)
            write_file(tmp_path, f"compiles/{n}/stage.txt", f"stage {n}", dirs=dirs)
            assert len(os.listdir("/proc/self/fd")) <= before + 2
    assert len(os.listdir("/proc/self/fd")) == before
    assert [(tmp_path / f"compiles/{n}/kernels/k.txt").read_text() for n in range(6)] == [
        f"kernel {n}" for n in range(6)
    ]
    assert sorted(p.name for p in (tmp_path / "compiles/0").iterdir()) == [
        "kernels",
        "stage.txt",
    ]  # no temp files


def test_a_folder_cache_never_follows_a_planted_symlink(tmp_path: Path) -> None:
    out, outside = tmp_path / "out", tmp_path / "outside"
    (out / "compiles").mkdir(parents=True)
    outside.mkdir()
    (out / "compiles" / "0-0").symlink_to(outside)
    with DirCache(out) as dirs, pytest.raises(DumpError, match="symbolic link"):
        write_file(out, "compiles/0-0/02_dynamo_graph.py", "graph", dirs=dirs)
    assert list(outside.iterdir()) == []


def test_a_new_folder_cache_creates_first_until_it_finds_a_folder_there(tmp_path: Path) -> None:
    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    with DirCache(out, new=True) as dirs:
        write_file(out, "compiles/0-0/guards.txt", "g0", dirs=dirs)
        assert dirs.new  # nothing was there: each folder made before it was opened
    with DirCache(out, new=True) as dirs:
        write_file(out, "compiles/0-4/guards.txt", "g4", dirs=dirs)
        assert dirs.new  # `compiles/` was there (the other writer may make it), 0-4 was not
    (out / "compiles" / "0-1").mkdir()  # made by another process, as `EarlyFolders` makes them
    (out / "compiles" / "0-3").symlink_to(outside)
    with DirCache(out, new=True) as dirs:
        write_file(out, "compiles/0-1/guards.txt", "g1", dirs=dirs)
        assert not dirs.new  # found there: looked for first from now on
        write_file(out, "compiles/0-2/guards.txt", "g2", dirs=dirs)  # still made where missing
        with pytest.raises(DumpError, match="symbolic link"):
            write_file(out, "compiles/0-3/guards.txt", "g3", dirs=dirs)
    assert [(out / f"compiles/0-{n}/guards.txt").read_text() for n in (0, 1, 2, 4)] == ["g0", "g1", "g2", "g4"]
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize(
    ("value", "limit"),
    [(None, DEFAULT_MAX_FILE_BYTES)]
    + [(value, DEFAULT_MAX_FILE_BYTES) for value in ("", "many", "0", "-5")]
    + [("123", 123)],
)
def test_the_most_bytes_read_of_a_file_comes_from_the_environment(
    value: str | None, limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    if value is None:
        monkeypatch.delenv(MAX_FILE_BYTES_ENV, raising=False)
    else:
        monkeypatch.setenv(MAX_FILE_BYTES_ENV, value)
    assert max_file_bytes() == limit


@pytest.mark.parametrize("in_kernel", [True, False])
def test_a_file_copy_piece_writes_the_rest_of_its_file(
    in_kernel: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not in_kernel:  # a system without copy_file_range: read and written here
        monkeypatch.delattr(os, "copy_file_range", raising=False)
    data = bytes(range(256)) * 12_000  # 3 MB: more than one write batch
    (tmp_path / "spool").write_bytes(b"skipped" + data)
    src = os.open(tmp_path / "spool", os.O_RDONLY)
    out = os.open(tmp_path / "out", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        write_pieces(out, ["head ", FileCopy(src, offset=len(b"skipped")), b" tail"])
    finally:
        os.close(src)
        os.close(out)
    assert (tmp_path / "out").read_bytes() == b"head " + data + b" tail"
