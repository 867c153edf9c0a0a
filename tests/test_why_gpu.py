"""The GPU parts of the why layer: max-autotune choice tables and one CUDA-graph recording per
dynamic size, from `samples/autotune.py`.

Live on a CUDA box (`pytest -m gpu tests/test_why_gpu.py`), and on the CPU from the dump recorded
there (`tests/data/gpu_autotune`, made by `tcdebug --dump tests/data/gpu_autotune samples/autotune.py`
on the GPU box; skipped until it is committed).
"""

from __future__ import annotations

import pytest
from conftest import DATA, SAMPLES, DumpRun, dump_run
from test_gpu_live import _has_cuda

from tcdebug.analysis.why import CHOICE, CUDAGRAPH, explain
from tcdebug.dump.loader import load_dump
from tcdebug.model.session import Session
from tcdebug.screens.content import view_for
from tcdebug.screens.widgets.timeline import Ref

RECORDED = DATA / "gpu_autotune"


def check_choice_table(session: Session) -> None:
    comp = next(c for c in session.ordered_compiles() if c.function == "matmul_relu")
    tables = comp.autotune_tables
    assert tables, "no autotune table was captured"
    table = tables[0]
    assert table.name == "mm" and table.winner
    times = [c.time_ms for c in table.choices if c.time_ms is not None]
    assert len(times) >= 2 and times == sorted(times)
    assert max(c.share for c in table.choices if c.share is not None) == pytest.approx(1.0)
    tiled = [c for c in table.choices if "BLOCK_M" in c.params]
    assert tiled, [c.name for c in table.choices]
    for key in ("BLOCK_M", "BLOCK_N", "BLOCK_K", "num_warps", "num_stages"):
        assert key in tiled[0].params, tiled[0]
    part = next(p for p in explain(session, comp.compile_id) if p.kind == CHOICE and p.title.startswith("Autotune"))
    text = "\n".join(part.lines)
    assert f"winner: {table.winner}" in text and "BLOCK_M=" in text and "num_warps=" in text
    # the template kernel's own view carries the table when the winner is a template
    stage = comp.stages[table.stage]
    template = next((k for k in stage.kernels if k.kind == "template"), None)
    if template is not None:
        view = view_for(session, Ref(comp.compile_id, stage.key, template.name))
        assert "autotune choices (* = the winner):" in view.text


def check_recordings_per_size(session: Session) -> None:
    comp = next(c for c in session.ordered_compiles() if c.function == "attention_scores")
    stage = next(s for s in comp.stages.values() if s.stage_id == "cudagraph")
    assert stage.meta["recordings"] == 3, stage.meta
    part = next(p for p in explain(session, comp.compile_id) if p.kind == CUDAGRAPH)
    recordings = [line for line in part.lines if line.strip().startswith("recording")]
    assert len(recordings) == 3, part.lines
    assert "first recording" in recordings[0] and "16" in recordings[0]
    assert "a new size" in recordings[1] and "16" in recordings[1] and "32" in recordings[1]
    assert "a new size" in recordings[2] and "32" in recordings[2] and "48" in recordings[2]


@pytest.mark.skipif(not RECORDED.exists(), reason="record tests/data/gpu_autotune on the GPU box first")
def test_recorded_choice_table() -> None:
    check_choice_table(load_dump(RECORDED))


@pytest.mark.skipif(not RECORDED.exists(), reason="record tests/data/gpu_autotune on the GPU box first")
def test_recorded_recordings_name_the_size_that_changed() -> None:
    check_recordings_per_size(load_dump(RECORDED))


@pytest.fixture(scope="module")
def autotune_dump(tmp_path_factory: pytest.TempPathFactory) -> DumpRun:
    return dump_run(tmp_path_factory, "autotune", str(SAMPLES / "autotune.py"))


@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.skipif(not _has_cuda(), reason="needs a CUDA device")
def test_live_choice_table_and_recordings(autotune_dump: DumpRun) -> None:
    assert autotune_dump.returncode == 0, autotune_dump.stderr[-3000:]
    session = load_dump(autotune_dump.out)
    check_choice_table(session)
    check_recordings_per_size(session)
