"""A log of many compiles through `open --dump`: the work per compile stays constant (the
session's hints are worked out once, not once per compile) and a dump written once keeps no
compile's index entry after writing it (`benchmarks/scale_compiles.py` measures the whole)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from tcdebug.analysis import hints, why
from tcdebug.dump.index import IndexCache, index_chunks, index_text
from tcdebug.dump.writer import write_dump
from tcdebug.trace import load_trace_session

sys.path.insert(0, str(ROOT / "benchmarks"))
from scale_compiles import write_log  # noqa: E402

COMPILES = 600  # 1,200 stages with text: enough for the dump's two-process writer


@pytest.fixture(scope="module")
def scale_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("scale") / "dedicated_log_torch_trace_scale.log"
    write_log(log, COMPILES)
    return log


def test_dump_works_out_the_hints_once(scale_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = load_trace_session(scale_log)
    assert len(session.compiles) == COMPILES
    calls: list[int] = []
    real = hints.session_hints

    def counted(s):  # noqa: ANN001, ANN202
        calls.append(1)
        return real(s)

    monkeypatch.setattr(hints, "session_hints", counted)
    write_dump(session, tmp_path / "out")
    assert len(calls) == 1  # this process's share; a forked writer counts its own once
    index = json.loads((tmp_path / "out" / "session.json").read_text())
    assert len(index["compiles"]) == COMPILES
    # every tenth frame recompiles for grad mode: one hint, naming each of those recompiles
    hinted = [c["compile_id"] for c in index["compiles"] if any(w["kind"] == "hint" for w in c["why"])]
    assert hinted == [f"{f}/{n}" for f in range(9, COMPILES // 5, 10) for n in range(1, 5)]
    assert not list((tmp_path / "out").glob(".*.tmp"))  # the index written beside it was put in place


def test_index_in_pieces_equals_the_whole_and_keeps_nothing(scale_log: Path) -> None:
    session = load_trace_session(scale_log)
    cache = IndexCache(session, keep=False)
    assert "".join(index_chunks(session, cache=cache)) == index_text(session)
    assert not (cache._parts or cache._whys or cache._entries or cache._lines)


def test_overview_counts_each_compile_once(scale_log: Path) -> None:
    session = load_trace_session(scale_log)
    causes = {s.kind: s for s in why.overview(session, None)}["recompile_causes"].rows
    assert sum(row.count for row in causes) == COMPILES * 4 // 5
    sizes = COMPILES * 4 // 5 * 9 // 10  # the recompiles for a size: all but every tenth frame's
    assert causes[0].count == len(causes[0].compile_ids) == len(set(causes[0].compile_ids)) == sizes
