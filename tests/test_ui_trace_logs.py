"""The app on TORCH_TRACE logs of AOTInductor, export, restarts, damaged payloads and duplicate rank logs."""

from __future__ import annotations

from pathlib import Path

from conftest import DATA
from pilot import header_text, main_screen, shown_text
from textual.widgets import DataTable

from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.ranks_screen import RanksScreen
from tcdebug.screens.widgets.timeline import Ref
from tcdebug.trace import load_trace_session

TRACES = DATA / "traces"


def timeline_text(app: TcdebugApp) -> list[str]:
    return [str(label) for label in main_screen(app).timeline.labels()]


async def test_an_aoti_compile_shows_its_wrapper_and_kernels():
    session = load_trace_session(TRACES / "aoti")
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        rows = timeline_text(app)
        assert any(row.strip().startswith("▾ -/- AOTInductor ✓") for row in rows), rows
        app.jump_to(Ref("-/-", "aoti_wrapper_code.inference"))
        await pilot.pause()
        assert "AOTInductor wrapper code" in header_text(app)
        assert "AOTInductorModelContainerRun" in shown_text(app)
        kernel = session.compiles["-/-"].stages["kernel_source.inference"].kernels[0]
        app.jump_to(Ref("-/-", "kernel_source.inference", kernel.name))
        await pilot.pause()
        assert kernel.name in header_text(app) and f'extern "C"  void  {kernel.name}(' in shown_text(app)


async def test_a_failed_export_shows_its_data_dependent_error():
    app = TcdebugApp(load_trace_session(TRACES / "export"), read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        rows = timeline_text(app)
        assert any("-/-#2 torch.export ✗" in row for row in rows)
        assert any("✗ data-dependent guard: could not guard on Eq(" in row for row in rows)
        app.jump_to(Ref("-/-#2", "data_dependent_error"))
        await pilot.pause()
        assert "Could not guard on data-dependent expression Eq((((-u0)//3)) + 5, 0)" in shown_text(app)


async def test_restarted_attempts_are_listed():
    app = TcdebugApp(load_trace_session(TRACES / "restart"), read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        rows = timeline_text(app)
        assert any("0/0 outer ⟲" in row for row in rows) and any("0/0_1 outer ✓" in row for row in rows)


async def test_a_payload_with_a_wrong_md5_is_shown_and_flagged(tmp_path: Path):
    data = (TRACES / "mlp").glob("*.log").__next__().read_bytes()
    graph = data.index(b'"dynamo_output_graph"')
    at = data.index(b"def forward", graph)
    damaged = tmp_path / "damaged.log"
    damaged.write_bytes(data[:at] + b"def forwarX" + data[at + len(b"def forward") :])
    app = TcdebugApp(load_trace_session(damaged), read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        app.jump_to(Ref("0/0", "dynamo_graph"))
        await pilot.pause()
        assert "def forwarX" in shown_text(app)
        assert "md5 mismatch: this text may be damaged" in header_text(app)
        flagged = [row for row in timeline_text(app) if "md5!" in row]
        assert len(flagged) == 1 and "dynamo_graph" in flagged[0]


async def test_duplicate_rank_logs_are_separate_entries_that_agree():
    session = load_trace_session(TRACES / "dup_ranks")
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=(140, 36)) as pilot:
        await pilot.press("R")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RanksScreen)
        ranks = screen.query_one("#ranks-table", DataTable)
        assert [str(ranks.get_row_at(i)[1]) for i in range(ranks.row_count)] == ["0", "1", "1 (2)"]
        divs = screen.query_one("#divergences-table", DataTable)
        assert divs.row_count == 1 and "the ranks agree" in str(divs.get_row_at(0)[3])
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.session is session.ranks["1 (2)"] and set(app.session.compiles) == {"0/0", "0/1"}
        assert any("showing rank 1 (2)" in str(n.message) for n in app._notifications)
