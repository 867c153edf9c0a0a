"""A log of many compiles through `open --dump`: the work per compile stays constant (the
session's hints are worked out once, not once per compile) and a dump written once keeps no
compile's index entry after writing it (`benchmarks/scale_compiles.py` measures the whole)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_tcdebug

from tcdebug import cli
from tcdebug.analysis import hints, why
from tcdebug.analysis.summary import summary_text
from tcdebug.dump.early_folders import EarlyFolders
from tcdebug.dump.index import IndexCache, index_chunks, index_text
from tcdebug.dump.safe_fs import compile_dir_name
from tcdebug.dump.writer import write_dump
from tcdebug.model.events import CompileStart, Event
from tcdebug.model.session import is_placeholder
from tcdebug.trace import TraceStats, load_trace_session
from tcdebug.trace.log_events import iter_trace_events

sys.path.insert(0, str(ROOT / "benchmarks"))
from scale_compiles import write_log  # noqa: E402

COMPILES = 600  # 1,200 stages with text: enough for the dump's two-process writer


@pytest.fixture(scope="module")
def scale_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("scale") / "dedicated_log_torch_trace_scale.log"
    write_log(log, COMPILES)
    return log


def _count_session_hints(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that gets an item at each call of `session_hints` from now on."""
    calls: list[int] = []
    real = hints.session_hints

    def counted(s):  # noqa: ANN001, ANN202
        calls.append(1)
        return real(s)

    monkeypatch.setattr(hints, "session_hints", counted)
    return calls


def test_dump_works_out_the_hints_once(scale_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = load_trace_session(scale_log)
    assert len(session.compiles) == COMPILES
    calls = _count_session_hints(monkeypatch)
    write_dump(session, tmp_path / "out")
    assert len(calls) == 1  # this process's share; a forked writer counts its own once
    index = json.loads((tmp_path / "out" / "session.json").read_text())
    assert len(index["compiles"]) == COMPILES
    # every tenth frame recompiles for grad mode: one hint, naming each of those recompiles
    hinted = [c["compile_id"] for c in index["compiles"] if any(w["kind"] == "hint" for w in c["why"])]
    assert hinted == [f"{f}/{n}" for f in range(9, COMPILES // 5, 10) for n in range(1, 5)]
    assert not list((tmp_path / "out").glob(".*.tmp"))  # the index written beside it was put in place


def test_open_dump_works_out_the_hints_once_for_the_whys_and_the_summary(
    scale_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = _count_session_hints(monkeypatch)
    assert cli.main(["open", str(scale_log), "--dump", str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    assert len(calls) == 1  # the forked writer's share uses them as made before it forked
    monkeypatch.undo()
    session = load_trace_session(scale_log)
    write_dump(session, tmp_path / "again")  # names the stage files the summary counts
    assert printed.rstrip("\n") == summary_text(session, out=str(tmp_path / "out"))
    assert "hints:" in printed


def test_a_compile_line_is_its_entry_as_json_dumps_writes_it(scale_log: Path) -> None:
    session = load_trace_session(scale_log)
    shared = [s for c in session.compiles.values() for s in c.stages.values() if is_placeholder(s)]
    assert len(shared) >= COMPILES  # the not-captured stages whose JSON each line shares
    lines, entries = IndexCache(session), IndexCache(session)
    for comp in session.ordered_compiles():
        assert lines.line(comp) == json.dumps(entries.entry(comp), default=str)
        assert lines.line(comp) == json.dumps(entries.entry(comp), default=str)  # the shared JSON, again


def test_a_compile_its_dynamo_start_opens_comes_as_one_named_start(scale_log: Path) -> None:
    first: dict[str, Event] = {}
    starts: dict[str, int] = {}
    for ev in iter_trace_events(scale_log, TraceStats()):
        cid = getattr(ev, "compile_id", None)
        if isinstance(cid, str):
            first.setdefault(cid, ev)
        if isinstance(ev, CompileStart):
            starts[ev.compile_id] = starts.get(ev.compile_id, 0) + 1
    assert len(first) == COMPILES
    # its dynamo_start's, with the function and stack (no bare start before it), then its metrics'
    assert all(isinstance(ev, CompileStart) and ev.function and ev.stack for ev in first.values())
    assert set(starts.values()) == {2}


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


def test_the_compile_folders_are_made_while_the_log_loads(scale_log: Path, tmp_path: Path) -> None:
    """What `open LOG --dump OUT` does for a new OUT: a forked process makes each compile's
    folder as the load reports it, before anything is written."""
    out = tmp_path / "out"
    out.mkdir()
    early = EarlyFolders.start(out)
    assert early is not None
    seen: list[str] = []

    def new_compile(compile_id: str) -> None:
        seen.append(compile_id)
        early.add(compile_id)

    session = load_trace_session(scale_log, new_compile=new_compile)
    early.finish()
    early.reap()
    assert seen == list(session.compiles)  # each once, as the session got it
    made = sorted(os.listdir(out / "compiles"))
    assert made == sorted(compile_dir_name(c) for c in session.compiles)
    assert not any(os.listdir(out / "compiles" / name) for name in made)
    early.undo()  # what a failed load does: OUT as it was
    assert os.listdir(out) == []


_TWO_CORES = {"TCDEBUG_TRACE_CHILDREN": "1"}  # a log this small is read on two cores, folders made early


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_open_dump_of_a_log_writes_what_the_writer_alone_writes(scale_log: Path, tmp_path: Path) -> None:
    proc = run_tcdebug("open", str(scale_log), "--dump", str(tmp_path / "cli"), env=_TWO_CORES)
    assert proc.returncode == 0, proc.stderr
    write_dump(load_trace_session(scale_log), tmp_path / "alone")
    cli, alone = _tree(tmp_path / "cli"), _tree(tmp_path / "alone")
    assert len(cli) > COMPILES * 3 and cli == alone
    assert sorted(os.listdir(tmp_path / "cli" / "compiles")) == sorted(os.listdir(tmp_path / "alone" / "compiles"))


@pytest.mark.parametrize("existing", [False, True])
def test_a_log_that_fails_to_load_leaves_out_as_it_was(scale_log: Path, tmp_path: Path, existing: bool) -> None:
    out = tmp_path / "out"
    if existing:
        out.mkdir()
    proc = run_tcdebug("open", str(scale_log), "--dump", str(out), "--rank", "5", env=_TWO_CORES)  # read, refused
    assert proc.returncode == 2 and "no rank 5" in proc.stderr and "Traceback" not in proc.stderr
    assert (os.listdir(out) == []) if existing else not out.exists()


def test_open_dump_hands_each_compile_to_the_folder_maker_as_it_loads(
    scale_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TCDEBUG_TRACE_CHILDREN", "1")
    added: list[str] = []
    real_add = EarlyFolders.add

    def add(self: EarlyFolders, compile_id: str) -> None:
        added.append(compile_id)
        real_add(self, compile_id)

    monkeypatch.setattr(EarlyFolders, "add", add)
    assert cli.main(["open", str(scale_log), "--dump", str(tmp_path / "out")]) == 0
    assert len(added) == len(set(added)) == COMPILES
    assert sorted(os.listdir(tmp_path / "out" / "compiles")) == sorted(map(compile_dir_name, added))
