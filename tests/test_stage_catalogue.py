"""The stage catalogue decides; dumps follow it: file names that no new stage changes, and dumps
written with the old numbered names (`02_dynamo_graph.py`) still open."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import DATA, ROOT

from tcdebug.dump.loader import load_dump
from tcdebug.dump.writer import stage_relpath, write_dump
from tcdebug.model import records
from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import Stage
from tcdebug.torchtext.stage_text import full_text
from tcdebug.trace import reader


def test_dump_file_names_are_the_stage_keys_never_a_position() -> None:
    for kind in stage_catalog.STAGE_KINDS:
        for part in ("", "forward"):
            stage = Stage(kind.id, part=part)
            assert stage_relpath("0/0", stage) == f"compiles/0-0/{stage.key}.{kind.ext}"


def test_a_dump_with_numbered_file_names_opens_and_re_dumps_with_stage_names(tmp_path: Path) -> None:
    old = DATA / "mlp_cpu"
    assert (old / "compiles/0-0/02_dynamo_graph.py").is_file()  # written before names were stable
    session = load_dump(old)
    graph = session.compiles["0/0"].stages["dynamo_graph"]
    assert graph.file == "compiles/0-0/02_dynamo_graph.py" and graph.get_text().startswith("class GraphModule")
    write_dump(session, tmp_path / "new")
    assert (tmp_path / "new/compiles/0-0/dynamo_graph.py").read_text() == graph.get_text()
    assert not list((tmp_path / "new").rglob("[0-9][0-9]_*"))
    again = load_dump(tmp_path / "new")
    for cid, comp in session.compiles.items():
        for key, stage in comp.stages.items():  # as written (the IR after fusion with its fusion log)
            assert full_text(again.compiles[cid].stages[key]) == full_text(stage), (cid, key)


def test_the_catalogue_is_consistent() -> None:
    kinds = stage_catalog.STAGE_KINDS
    assert len({k.id for k in kinds}) == len(kinds)
    assert all(k.expect in stage_catalog.EXPECTATIONS and k.expect != stage_catalog.OTHER for k in kinds)
    traces = [k.trace for k in kinds if k.trace]
    assert len(set(traces)) == len(traces)  # one trace record, one stage
    assert all(k.language and k.ext in ("py", "txt", "cpp") for k in kinds)
    assert stage_catalog.kind("artifact_x").expect == stage_catalog.OTHER  # never expected
    order = [stage_catalog.PIPELINE_ORDER[k.id] for k in kinds]
    assert order == sorted(order)  # the catalogue is the pipeline order


# ----- the catalogue's relations and the record registry -----------------------------------------
# Modules that route records or list stages through the catalogue and the registry: no stage id as a
# string literal (`stages.OUTPUT_CODE`, `records.stage_route(...)`, `StageKind` fields instead).
CLEANED = (
    "tcdebug/model/trace_format.py",
    "tcdebug/capture/base.py",
    "tcdebug/capture/graphs.py",
    "tcdebug/debuggee/recorder.py",
    "tcdebug/trace/to_session.py",
    "tcdebug/trace/reader.py",
    "tcdebug/trace/log_events.py",
    "tcdebug/trace/worker.py",
)


def test_every_stage_record_is_in_the_registry_and_every_registry_stage_exists() -> None:
    for kind in stage_catalog.STAGE_KINDS:
        assert kind.carrier in stage_catalog.CARRIERS, kind.id
        if kind.trace:
            found = records.stage_record(kind.id)
            assert (found.stage, found.name, found.carrier) == (kind.id, kind.trace, kind.carrier)
    for record in records.RECORDS:
        assert record.handler in records.HANDLERS, record
        assert record.carrier in stage_catalog.CARRIERS, record
        if record.stage:
            assert record.stage in stage_catalog.STAGE_IDS, record
        if record.handler == records.IGNORED:
            assert record.reason and not record.stage and not record.global_record, record
    declared = [(r.carrier, r.name) for r in records.RECORDS]
    assert len(set(declared)) == len(declared)  # each record kind declared once


def test_the_log_reader_keeps_the_envelope_keys_the_registry_declares() -> None:
    assert reader.KNOWN_EVENTS == records.ENVELOPE_KEYS
    assert {"artifact", "graph_dump", "str", "chromium_event"} <= records.ENVELOPE_KEYS
    assert records.lookup("artifact", "x_ORIGINAL_BYTECODE").stage == stage_catalog.BYTECODE_BEFORE
    assert records.lookup("artifact", "some_new_artifact").handler == records.ARTIFACT_STAGE
    assert records.lookup("some_new_event").handler == records.PAYLOAD
    cache = records.lookup("artifact", "fx_graph_cache_miss")
    assert records.pattern_groups(cache, "fx_graph_cache_miss") == {"cache": "fx_graph", "result": "miss"}


def test_every_aot_partner_is_mutual_and_names_its_part() -> None:
    kinds = {k.id: k for k in stage_catalog.STAGE_KINDS}
    for kind in kinds.values():
        if kind.partner:
            assert kinds[kind.partner].partner == kind.id, kind.id
            assert kind.aot_part and kinds[kind.partner].aot_part, kind.id
        if kind.aot_part:
            assert kind.aot_part in stage_catalog.GRAPH_PARTS and kind.expect in stage_catalog.AOT_MODES.values()
    assert sorted(stage_catalog.AOT_GRAPH_OF_PART) == sorted(stage_catalog.GRAPH_PARTS)
    for part, stage_id in stage_catalog.AOT_GRAPH_OF_PART.items():
        assert stage_catalog.aot_key_for_part(part) == stage_id


def test_missing_reasons_belong_to_stages_the_recorder_marks() -> None:
    marked = set(stage_catalog.ALWAYS_STAGES)
    for mode in (stage_catalog.TRAINING, stage_catalog.INFERENCE):
        marked |= set(stage_catalog.marked_missing(mode))
    for kind in stage_catalog.STAGE_KINDS:
        if kind.missing or kind.missing_without_graph:
            assert kind.id in marked, kind.id
        assert stage_catalog.missing_reason(kind.id)  # always a reason
    assert stage_catalog.OUTPUT_CODE in stage_catalog.INDUCTOR_PRODUCED


def test_the_live_dispatcher_takes_only_declared_records() -> None:
    from tcdebug.capture.base import OPENER_ROUTES, TraceDispatcher

    dispatcher = TraceDispatcher(recorder=None)  # type: ignore[arg-type]
    dispatcher.on(records.stage_route(stage_catalog.OUTPUT_CODE), lambda cid, md, payload: None)
    with pytest.raises(KeyError):
        dispatcher.on("no_such_event", lambda cid, md, payload: None)
    assert set(OPENER_ROUTES.values()) == set(stage_catalog.GRAPH_OPENERS)


def _stage_literals(path: Path) -> list[tuple[int, str]]:
    ids = set(stage_catalog.STAGE_IDS)
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            head = node.value.partition(".")[0]
            if node.value in ids or (head in ids and node.value != head):
                found.append((node.lineno, node.value))
    return found


@pytest.mark.parametrize("module", CLEANED)
def test_no_stage_id_literal_outside_the_catalogue(module: str) -> None:
    assert _stage_literals(ROOT / module) == []


def test_the_log_converter_has_a_handler_for_each_handler_name() -> None:
    """Each handler name the registry uses is read in `tcdebug.trace.to_session` (ARTIFACT_STAGE and
    PAYLOAD are its fall-through; INTERNED records never reach it: the reader resolves them)."""
    source = (ROOT / "tcdebug/trace/to_session.py").read_text()
    names = {name: value for name, value in vars(records).items() if name.isupper() and value in records.HANDLERS}
    assert sorted(names.values()) == sorted(records.HANDLERS)
    unread = [name for name in names if f"records.{name}" not in source]
    assert sorted(unread) == ["ARTIFACT_STAGE", "INTERNED", "PAYLOAD"]
