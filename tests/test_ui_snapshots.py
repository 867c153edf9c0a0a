"""SVG snapshots of the canonical screens (pytest-textual-snapshot).

Update with `pytest tests/test_ui_snapshots.py --snapshot-update` after a deliberate change.
The app is opened on a committed dump, from `/`, so paths render the same on every machine.
"""

from __future__ import annotations

import pytest
from conftest import DATA
from pilot import wait_until

from tcdebug.dump.loader import load_dump
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.widgets.timeline import Ref


@pytest.fixture(autouse=True)
def _fixed_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir("/")


def _app() -> TcdebugApp:
    return TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)


def _at(ref: Ref):
    async def run_before(pilot) -> None:
        pilot.app.jump_to(ref)
        code = pilot.app.main_screen.code
        await wait_until(pilot, lambda: code.is_highlighted, timeout=30, what="the highlight worker")
        await pilot.pause()

    return run_before


def test_dynamo_graph_80x24(snap_compare):
    assert snap_compare(_app(), terminal_size=(80, 24), run_before=_at(Ref("0/0", "dynamo_graph")))


def test_kernel_view_120x36(snap_compare):
    app = _app()
    kernel = app.session.compiles["0/0"].stages["kernel_source.inference"].kernels[0].name
    assert snap_compare(
        app, terminal_size=(120, 36), run_before=_at(Ref("0/0", "kernel_source.inference", kernel))
    )


def test_guards_with_recompile_reason(snap_compare):
    assert snap_compare(_app(), terminal_size=(120, 36), run_before=_at(Ref("0/1", "guards")))


def test_help_screen(snap_compare):
    assert snap_compare(_app(), terminal_size=(100, 36), press=["question_mark"])


def test_kernel_source_opens_on_the_kernel_80x24(snap_compare):
    assert snap_compare(_app(), terminal_size=(80, 24), run_before=_at(Ref("0/0", "kernel_source.inference")))


def test_diff_unified_80x24(snap_compare):
    async def run_before(pilot) -> None:
        await _at(Ref("0/1", "guards"))(pilot)
        await pilot.press("d")
        await pilot.pause()

    assert snap_compare(_app(), terminal_size=(80, 24), run_before=run_before)


def test_help_screen_80x24(snap_compare):
    assert snap_compare(_app(), terminal_size=(80, 24), press=["question_mark"])
