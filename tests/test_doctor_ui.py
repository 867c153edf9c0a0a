"""`D` on the help screen: the app shows `tcdebug doctor`'s report, from its child process (the UI
process never imports torch), for the torch of this environment and for one without a symbol."""

from __future__ import annotations

import pytest
from conftest import DATA
from pilot import screen_lines, wait_until

from tcdebug.capture.patches import MISSING_ENV
from tcdebug.dump.loader import load_dump
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.doctor_screen import DoctorScreen
from tcdebug.screens.help_screen import HelpScreen


def _report(app: TcdebugApp) -> str:
    return str(app.screen.query_one("#doctor-text").render())


async def test_help_offers_the_doctors_report(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MISSING_ENV, "_compile:code")  # read by the doctor's child, not by the app
    app = TcdebugApp(load_dump(DATA / "mlp_cpu"), read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, DoctorScreen)
        assert "running tcdebug doctor" in _report(app)
        await wait_until(pilot, lambda: "result:" in _report(app), timeout=300, what="the doctor's report")
        text = _report(app)
        assert "not on this torch: `_compile:code` missing" in text
        assert "result: core stages unavailable on this torch: source, bytecode_before" in text
        # the screen shows it once repainted (the text is set before the next paint)
        await wait_until(
            pilot, lambda: any("capture units:" in line for line in screen_lines(app)), 30, "the report on screen"
        )
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
