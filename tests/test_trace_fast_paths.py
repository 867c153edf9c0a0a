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
from tcdebug.dump.safe_fs import DirCache, DumpError, write_file
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
