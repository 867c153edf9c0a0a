"""The stage catalogue decides; dumps follow it: file names that no new stage changes, and dumps
written with the old numbered names (`02_dynamo_graph.py`) still open."""

from __future__ import annotations

from pathlib import Path

from conftest import DATA

from tcdebug.dump.loader import load_dump
from tcdebug.dump.writer import stage_relpath, write_dump
from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import Stage
from tcdebug.torchtext.stage_text import full_text


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
