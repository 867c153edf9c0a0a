"""The real `tcdebug` command in a real pseudo-terminal: paints, quits, restores the terminal."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import DATA, SCRIPTS
from pty_app import Pty

ALT_SCREEN_ON = b"\x1b[?1049h"
ALT_SCREEN_OFF = b"\x1b[?1049l"


def run_in_pty(args: list[str], term: str, until: bytes, timeout: float = 90) -> tuple[int, bytes]:
    """Start `tcdebug args` on an 80x24 pty, wait for `until` on screen, press q, return (code, output)."""
    deadline = time.monotonic() + timeout
    app = Pty(args, term=term)
    try:
        app.wait_text(until, timeout)
        time.sleep(0.3)
        app.press(b"q")
        code = app.wait_exit(max(1.0, deadline - time.monotonic()))
    finally:
        app.close()
    return code, app.out


@pytest.mark.parametrize("term", ["xterm-256color", "xterm", "screen"])
def test_open_paints_and_quits_cleanly(term: str) -> None:
    code, out = run_in_pty(["open", str(DATA / "mlp_cpu")], term, until=b"Timeline")
    assert code == 0
    assert ALT_SCREEN_ON in out and out.rindex(ALT_SCREEN_OFF) > out.rindex(ALT_SCREEN_ON)


def test_terminal_is_restored_after_the_script_failed() -> None:
    code, out = run_in_pty(["--no-pause", str(SCRIPTS / "raises.py")], "xterm-256color", until=b"boom from")
    assert code == 1
    assert out.rindex(ALT_SCREEN_OFF) > out.rindex(ALT_SCREEN_ON)


def test_open_a_torch_trace_log_in_a_terminal() -> None:
    code, out = run_in_pty(["open", str(DATA / "traces" / "mlp")], "xterm-256color", until=b"dynamo_graph")
    assert code == 0


# Loaded by the child through PYTHONPATH: `?` becomes an action that never returns, so the app's
# message loop stops answering (as in the freeze seen under load in the key sweep), while the event
# loop itself runs on.
STUCK_SITE = '''
import asyncio
from tcdebug.screens.app import TcdebugApp

async def _never_returns(self):
    await asyncio.Event().wait()

TcdebugApp.action_help = _never_returns
'''


def test_q_ends_tcdebug_when_the_interface_stopped_answering(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(STUCK_SITE)
    app = Pty(["open", str(DATA / "mlp_cpu")], env={"PYTHONPATH": str(site)})
    try:
        app.wait_text(b"Timeline", 90)
        time.sleep(0.3)
        app.press(b"?")
        time.sleep(0.5)
        app.press(b"j")  # not taken: the loop is stuck
        time.sleep(0.5)
        start = time.monotonic()
        app.press(b"q")
        code = app.wait_exit(15)
        took = time.monotonic() - start
    finally:
        app.close()
    assert code == 0 and took < 8
    assert b"stopped answering keys" in app.out
    assert app.out.rindex(ALT_SCREEN_OFF) > app.out.rindex(ALT_SCREEN_ON)


def test_q_typed_into_a_search_box_does_not_end_tcdebug() -> None:
    app = Pty(["open", str(DATA / "mlp_cpu")])
    try:
        app.wait_text(b"Timeline", 90)
        time.sleep(0.3)
        app.press(b"/")
        time.sleep(0.5)
        app.press(b"q")
        time.sleep(4.5)  # longer than the watch on a quit key
        assert app.proc.poll() is None
        app.press(b"\x1b")
        time.sleep(0.5)
        app.press(b"q")
        code = app.wait_exit(15)
    finally:
        app.close()
    assert code == 0 and b"stopped answering" not in app.out
