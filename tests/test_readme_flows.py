"""The README's `--break` flow, as written: `tcdebug --break kernel_source samples/transformer_block.py`
runs to the first kernel_source stage (no pause before it), in the app and in a real terminal."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLES
from pilot import header_text, main_screen, shown_text, status_text, wait_until
from test_terminal import run_in_pty

from tcdebug.cli import live_mode
from tcdebug.model import protocol
from tcdebug.model import session as model
from tcdebug.screens.app import build_live_app
from tcdebug.screens.widgets.key_footer import KeyFooter

pytestmark = pytest.mark.slow


def test_break_runs_to_the_breakpoint_no_pause_steps_and_plain_steps():
    assert live_mode(no_pause=False, breakpoints=["kernel_source"]) == protocol.MODE_CONTINUE
    assert live_mode(no_pause=False, breakpoints=[]) == protocol.MODE_STEP
    assert live_mode(no_pause=True, breakpoints=["kernel_source"]) == protocol.MODE_RUN


async def test_break_kernel_source_first_pauses_at_a_kernel_source_stage():
    breakpoints = ["kernel_source"]
    app = build_live_app(
        [str(SAMPLES / "mlp.py")],
        mode=live_mode(no_pause=False, breakpoints=breakpoints),
        breakpoints=breakpoints,
    )
    pauses: list[tuple[str, str]] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(
            pilot,
            lambda: app.session.paused_at is not None and (pauses.append(app.session.paused_at) or True),
            timeout=240,
            what="the first pause",
        )
        assert pauses[0] == ("0/0", "kernel_source.inference")
        assert status_text(app) == "paused at kernel_source.inference of 0/0"
        # The stage view follows, on the kernel itself; the footer has the stepping keys now.
        assert main_screen(app).selected is not None and main_screen(app).selected.key == pauses[0][1]
        assert "paused here" in header_text(app) and "cpp_fused" in shown_text(app)
        code = main_screen(app).code
        assert code.lines[round(code.scroll_offset.y)].startswith("cpp_fused")
        footer = app.screen.query_one(KeyFooter)
        await wait_until(pilot, lambda: footer.shown_keys()[:4] == ["n", "c", "g", "b"], what="the footer")
        await pilot.press("c")
        await wait_until(
            pilot,
            lambda: (
                app.session.state != model.PAUSED
                or app.session.paused_at != ("0/0", "kernel_source.inference")
            ),
            what="continue",
        )
        await wait_until(pilot, lambda: app.session.paused_at is not None, what="the next breakpoint")
        assert app.session.paused_at[1].startswith("kernel_source")
        await pilot.press("q")


def test_break_kernel_source_in_a_terminal_on_transformer_block():
    """The README's command, in an 80x24 pseudo-terminal."""
    code, out = run_in_pty(
        ["--break", "kernel_source", str(SAMPLES / "transformer_block.py")],
        "xterm-256color",
        until=b"paused at kernel_source",
        timeout=300,
    )
    first = re.search(rb"paused at ([a-z_]+)", out)
    assert first is not None and first.group(1) == b"kernel_source"
    assert code == 0
