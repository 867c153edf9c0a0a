"""Timing user actions in the real app through Textual's pilot, without the pilot's idle sleeps.

`Pilot.press` waits for the process to look idle (at least two 20 ms sleeps), which would
swamp what we measure. `timed_press` sends the same key event, waits until every widget of
the screen has handled its queued messages (no sleeping), then paints synchronously, with the
frame turned into terminal escape sequences as a real terminal driver would. The time is key
press to the painted frame that shows its result.

The app's package is imported before Textual, as the CLI does: it sets Textual's frame rate,
which Textual reads once, when it is first imported.
"""

from __future__ import annotations  # noqa: I001 - the app's package before Textual

import time
import unicodedata
from collections.abc import Callable
from typing import Any

import tcdebug.screens  # noqa: F401 - before Textual (see above)
from textual import events
from textual._compositor import CompositorUpdate
from textual.app import App
from textual.keys import _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot


def render_frames_fully(app: App[Any]) -> None:
    """Headless apps skip turning a frame into escape sequences; do it, so it is timed too."""
    original = app._display

    def display(screen: Any, renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate):
            renderable.render_segments(app.console)
        original(screen, renderable)

    app._display = display  # type: ignore[method-assign]


def key_event(key: str) -> events.Key:
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(key))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


def _pending(app: App[Any]) -> int:
    return sum(node._message_queue.qsize() for node in (app, *app.screen.walk_children(with_self=True)))


async def _drain(pilot: Pilot[Any]) -> None:
    for _ in range(100):
        await pilot._wait_for_screen()
        if not _pending(pilot.app):
            return


async def settle(pilot: Pilot[Any]) -> None:
    """Handle every queued message and paint, until a paint leaves nothing to do.

    A paint can schedule more work (`call_after_refresh`: a non-immediate scroll is applied
    after the next refresh), and that work needs another paint; Textual would do those on its
    next update ticks (up to 1/60 s apart), here they run back to back.
    """
    app = pilot.app
    for _ in range(20):
        await _drain(pilot)
        if app.animation_level == "none" and app.animator._animations:
            app.animator()  # with animations off, one animator tick completes them (else: next tick)
            await _drain(pilot)
        app.screen._on_timer_update()
        if not _pending(app):
            return


async def timed_press(pilot: Pilot[Any], key: str, check: Callable[[], bool] | None = None) -> float:
    """Seconds from a key press to the painted frame; `check` must hold afterwards."""
    app = pilot.app
    event = key_event(key)
    event.set_sender(app)
    start = time.perf_counter()
    app._driver.send_message(event)  # type: ignore[union-attr]
    await settle(pilot)
    elapsed = time.perf_counter() - start
    if check is not None and not check():
        raise AssertionError(f"after pressing {key!r} the app is not where the benchmark expected")
    return elapsed


async def timed_call(pilot: Pilot[Any], action: Callable[[], object]) -> float:
    """Seconds from calling `action` (e.g. a jump from the command palette) to the painted frame."""
    start = time.perf_counter()
    action()
    await settle(pilot)
    return time.perf_counter() - start


async def wait_for(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 120) -> float:
    """Seconds until `condition()` holds, polling every 5 ms."""
    start = time.perf_counter()
    while not condition():
        if time.perf_counter() - start > timeout:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {condition}")
        await pilot.pause(0.005)
    return time.perf_counter() - start
