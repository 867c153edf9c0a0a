"""The key sweep: a dump and a log whose every text field holds escapes (CSI, OSC, OSC 52, DCS),
markup, bidi overrides and zero-width characters, opened in a real terminal; every key of every
screen pressed (the keys come from the screens' `Binding`s, so a new key is swept too); the bytes
the app writes are searched for any control sequence from the data. The pilot half checks each
screen opens on the same session without an error."""

from __future__ import annotations

import time
import unicodedata
from pathlib import Path

import pytest
from hostile import SWEEP_EVIL, SWEEP_RAW, hostile_trace, sweep_session
from pilot import main_screen, wait_until
from pty_app import Pty
from textual._ansi_sequences import ANSI_SEQUENCES_KEYS
from textual.binding import Binding
from textual.keys import key_to_character

from tcdebug.dump.loader import load_dump
from tcdebug.dump.writer import write_dump
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.diff_screen import DiffScreen
from tcdebug.screens.help_screen import HelpScreen
from tcdebug.screens.main_screen import MainScreen
from tcdebug.screens.output_screen import OutputScreen
from tcdebug.screens.ranks_screen import RanksScreen
from tcdebug.screens.rerun_screen import RerunScreen
from tcdebug.screens.symbols_screen import SymbolsScreen
from tcdebug.screens.times_screen import TimesScreen
from tcdebug.screens.trail_screen import TrailScreen
from tcdebug.screens.why_screen import WhyScreen
from tcdebug.screens.widgets.timeline import Ref
from tcdebug.textsafe import safe_line

# The app's keys that open a screen, and the screen; every other app key is pressed on the main
# screen, but quitting (last) and the palette (typed into, then closed).
OPENS: dict[str, type] = {
    "o": OutputScreen,
    "r": RerunScreen,
    "d": DiffScreen,
    "w": WhyScreen,
    "T": TimesScreen,
    "f": TrailScreen,
    "S": SymbolsScreen,
    "R": RanksScreen,
    "question_mark": HelpScreen,
}
NOT_ON_MAIN = {"q", "ctrl+p", *OPENS}
# A pty cannot send these as keys of their own; each has another key of the same binding.
NO_SEQUENCE = {"ctrl+g"}  # BEL: f2 is the same binding
EXTRA = {"slash": "/", "enter": "\r", "shift+f3": "\x1b[1;2R", "escape": "\x1b", "tab": "\t"}
_SEQUENCES: dict[str, str] = {}
for _seq, _keys in ANSI_SEQUENCES_KEYS.items():
    if isinstance(_keys, tuple) and len(_keys) == 1:
        _SEQUENCES.setdefault(_keys[0].value, _seq)


def key_bytes(key: str) -> bytes | None:
    """What a terminal sends for Textual's key name `key`."""
    if key in EXTRA:
        return EXTRA[key].encode()
    if key in _SEQUENCES:
        return _SEQUENCES[key].encode()
    char = key_to_character(key)
    if char is None and "_" in key:
        try:
            char = unicodedata.lookup(key.replace("_", " "))
        except KeyError:
            char = None
    return char.encode() if char else None


def binding_keys(bindings: list) -> list[str]:
    """Every key of `bindings`, in order."""
    keys: list[str] = []
    for b in bindings:
        binding = b if isinstance(b, Binding) else Binding(*b)
        keys += [k.strip() for k in binding.key.split(",") if k.strip() not in keys]
    return keys


def test_every_key_of_every_screen_has_a_terminal_sequence() -> None:
    """The sweep presses them all; a key it could not type would go unswept."""
    keys = binding_keys(TcdebugApp.BINDINGS) + binding_keys(MainScreen.BINDINGS)
    for screen in OPENS.values():
        keys += binding_keys(screen.BINDINGS)
    assert [k for k in keys if key_bytes(k) is None and k not in NO_SEQUENCE] == []
    assert set(binding_keys(TcdebugApp.BINDINGS)) - {"ctrl+s"} >= set(OPENS)


def settle(app: Pty, seconds: float) -> None:
    """Read what the app writes for `seconds` (a pty's buffer is small: unread, it blocks the app)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        app._read()


def quiet(app: Pty, timeout: float = 90) -> None:
    """Read until the app has written nothing for a second: every key pressed is handled."""
    deadline = time.monotonic() + timeout
    seen = -1
    while len(app.out) != seen and time.monotonic() < deadline:
        seen = len(app.out)
        settle(app, 1.0)


def sweep(app: Pty) -> None:
    """Press every key on every screen (not `q`)."""

    def press(keys: list[str]) -> None:
        for key in keys:
            data = key_bytes(key)
            if data is not None and key not in ("q", "ctrl+c", "ctrl+q", "ctrl+z"):
                app.press(data)
                settle(app, 0.08)

    main = [k for k in binding_keys(TcdebugApp.BINDINGS) if k not in NOT_ON_MAIN]
    press(["down", *binding_keys(MainScreen.BINDINGS), *main, "escape", "escape"])
    for opener, screen in OPENS.items():
        for where in ("up", "down", "down"):  # a compile row, then its stages
            press([where, opener])
            settle(app, 0.2)
            own = [k for k in binding_keys(screen.BINDINGS) if k not in ("escape", opener)]
            press([*own, "escape", "escape"])
    app.press(b"\x10")  # ctrl+p: the palette, searched for the names
    settle(app, 0.3)
    app.press(b"fn")
    settle(app, 0.6)
    for _ in range(4):  # the palette's list, the palette, a search box the sweep opened
        press(["escape"])
        settle(app, 0.3)


@pytest.mark.parametrize("source", ["dump", "log"])
def test_the_key_sweep_writes_no_control_sequence_from_the_data(tmp_path: Path, source: str) -> None:
    if source == "dump":
        path = write_dump(sweep_session(), tmp_path / "dump")
    else:
        path = hostile_trace(tmp_path / "trace", evil=SWEEP_EVIL)
    app = Pty(["open", str(path)], size=(140, 40), env={"TCDEBUG_SCREENSHOT_DIR": str(tmp_path / "shots")})
    try:
        app.wait_text(b"Timeline", 60)
        settle(app, 0.5)
        sweep(app)
        quiet(app)
        assert app.proc.poll() is None, app.out[-2000:]  # nothing crashed it
        start = time.monotonic()
        app.press(b"q")
        code = app.wait_exit(10)
        assert time.monotonic() - start < 5
    finally:
        app.close()
    out = app.out
    assert code == 0 and b"Traceback" not in out and b"MarkupError" not in out
    assert "␛]2;PWNED".encode() in out  # the data was on screen, made visible
    found = [seq for seq in SWEEP_RAW if seq in out]
    assert found == []


async def test_each_screen_opens_on_a_hostile_dump(tmp_path: Path) -> None:
    """The pilot half: each screen opens on a stage whose part is `[/bold]` (the trail screen's title
    once read it as markup), with metrics of any JSON type (the timeline once hashed a list)."""
    app = TcdebugApp(load_dump(write_dump(sweep_session(), tmp_path / "dump")), read_only=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        main = main_screen(app)
        main.select(Ref("0/0", "aot_forward.[/bold]"))
        await pilot.pause()
        for key, screen in OPENS.items():
            if key == "R":
                continue  # one rank: the screen says so and stays closed
            await pilot.press(key)
            await wait_until(pilot, lambda s=screen: isinstance(app.screen, s), 10, screen.__name__)
            if screen is TrailScreen:
                title = str(app.screen.query_one("#trail-from").border_title)
                assert safe_line("follow from aot_forward.[/bold]") in title.replace("\\[", "[")
            if screen is TimesScreen:
                text = str(app.screen.query_one("#times-compiles").render())
                assert "␛]2;PWNED" in text and "\x1b" not in text
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is app.main_screen, 10, "the main screen")
        assert app.is_running
