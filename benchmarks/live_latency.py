"""Live latency: a stage produced in the target to its row painted in the app, and `n` to the
next stage painted.

The app runs live through the pilot (120x40) on `scripts/eager_shapes.py` (aot_eager: many
stages fast). Two runs, each in a fresh process:

- **arrival** (`--run`: the script runs free): for every stage event, from the moment the
  controller's reader thread receives it from the channel to the first painted frame after the
  timeline was synced with it (`MainScreen.refresh_session` ran after the app applied it). The socketpair itself adds microseconds; the target's send is not timed (the
  target is another process with its own clock).
- **step** (stepping, paused at every stage): `n` pressed to the frame that shows the next
  paused stage. The target's own work between the step command and the next stage (running
  the compile up to it) is measured (command sent → stage event received) and reported apart;
  "UI share" is the total minus that.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from common import BENCH, Section, byte_compile_tcdebug, finish, median, ms, parse_args, percentile

SCRIPT = BENCH / "scripts" / "eager_shapes.py"
SIZE = (120, 40)
TARGET_P95_S = 0.050


async def drive(mode: str, breaks: int, steps: int) -> dict[str, list[float]]:
    from ui_harness import render_frames_fully  # noqa: I001 - first: it imports the app's package before Textual
    from textual._compositor import CompositorUpdate

    from tcdebug.model import session as model
    from tcdebug.screens.app import TcdebugApp, build_live_app
    from tcdebug.screens.main_screen import MainScreen

    app = build_live_app([str(SCRIPT), str(breaks)], mode=mode)
    app.owns_process = True  # as `tcdebug` runs it: its own process
    lock = threading.Lock()
    received: dict[int, float] = {}  # id(event) -> when the reader thread got it
    handled: list[float] = []  # receive times of stage events handled, not painted yet
    arrivals: list[float] = []
    frames: list[float] = []
    sent: list[float] = []

    forward = app.forward_event

    def forward_event(event: Any) -> None:
        if event.type == "stage":
            with lock:
                received[id(event)] = time.perf_counter()
        forward(event)

    app.forward_event = forward_event  # type: ignore[method-assign]
    on_target_event = TcdebugApp.on_target_event

    applied: list[float] = []  # receive times of stage events applied, their row not synced yet

    def handle(self: Any, message: Any) -> None:  # Textual finds handlers on the class
        with lock:
            t = received.pop(id(message.event), None)
        if t is not None:
            applied.append(t)
        on_target_event(self, message)

    TcdebugApp.on_target_event = handle  # type: ignore[method-assign]
    refresh_session = MainScreen.refresh_session

    def synced(self: Any) -> None:  # the timeline holds the rows of the events applied so far
        refresh_session(self)
        handled.extend(applied)
        applied.clear()

    MainScreen.refresh_session = synced  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        render_frames_fully(app)
        display = app._display

        def painted(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            if isinstance(renderable, CompositorUpdate):
                now = time.perf_counter()
                frames.append(now)
                arrivals.extend(now - t for t in handled)
                handled.clear()

        app._display = painted  # type: ignore[method-assign]
        assert app.controller is not None
        step = app.controller.send

        def send(cmd: str, *args: Any, **kw: Any) -> bool:
            if cmd == "step":
                sent.append(time.perf_counter())
            return step(cmd, *args, **kw)

        app.controller.send = send  # type: ignore[method-assign]
        totals: list[float] = []
        target: list[float] = []
        start = time.perf_counter()
        while time.perf_counter() - start < 300:
            state = app.session.state
            if state not in (model.STARTING, model.RUNNING, model.PAUSED):
                break
            if mode == "step" and state == model.PAUSED and len(totals) < steps and not handled:
                where = app.session.paused_at
                await asyncio.sleep(0.05)  # the pause is painted, the app idle
                n_frames, n_arrivals = len(frames), len(arrivals)
                pressed = time.perf_counter()
                await pilot.press("n")
                while time.perf_counter() - pressed < 60:
                    moved = app.session.paused_at != where or app.session.state != model.PAUSED
                    if moved and len(arrivals) > n_arrivals and len(frames) > n_frames:
                        break
                    await asyncio.sleep(0.001)
                else:
                    print("no frame after a step", file=sys.stderr)
                    break
                if app.session.state != model.PAUSED:
                    print("not paused after a step:", app.session.state, file=sys.stderr)
                    break
                total = frames[-1] - pressed
                got = arrivals[-1]  # received -> painted of the stage that paused
                work = max(0.0, (frames[-1] - got) - sent[-1]) if sent else 0.0
                totals.append(total)
                target.append(work)
                continue
            if mode == "step" and state == model.PAUSED and len(totals) >= steps:
                await pilot.press("g")  # run to the end
            await asyncio.sleep(0.005)
        await pilot.press("q")
    from textual import constants

    fps = [float(constants.MAX_FPS)]
    if mode == "step":
        return {"fps": fps, "total": totals, "target": target, "ui": [a - b for a, b in zip(totals, target, strict=True)]}
    return {"fps": fps, "arrival": arrivals}


def child(mode: str, breaks: int, steps: int, out: str) -> int:
    Path(out).write_text(json.dumps(asyncio.run(drive(mode, breaks, steps))))
    return 0


def run_child(mode: str, breaks: int, steps: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.json"
        proc = subprocess.run(
            [sys.executable, __file__, "--child", mode, str(breaks), str(steps), str(out)],
            capture_output=True,
            text=True,
            timeout=900,
        )
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"live app ({mode}) failed:\n{proc.stderr[-3000:]}")
        return json.loads(out.read_text())


def stats_row(name: str, values: list[float]) -> list[str]:
    if not values:
        return [name, "0", "", "", ""]
    return [name, str(len(values)), ms(median(values)), ms(percentile(values, 95)), ms(max(values))]


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "--child":
        return child(argv[1], int(argv[2]), int(argv[3]), argv[4])
    ns = parse_args(__doc__.splitlines()[0], argv)
    byte_compile_tcdebug()
    breaks, steps = (2, 5) if ns.quick else (20, 40)
    free = run_child("run", breaks, 0)
    stepping = run_child("step", breaks, steps)
    section = Section(
        f"Live latency: eager_shapes.py {breaks} (key press or stage to painted frame)",
        ["measure", "n", "p50", "p95", "max"],
    )
    section.rows += [
        stats_row("stage received → its row painted (script runs free)", free["arrival"]),
        stats_row("`n` → next stage painted, total", stepping["total"]),
        stats_row("  of which the target's work (step sent → stage received)", stepping["target"]),
        stats_row("  UI share (total − target's work)", stepping["ui"]),
    ]
    section.data = {"free": free, "step": stepping}
    section.checks["stage to painted row p95 <= 50 ms"] = bool(free["arrival"]) and (
        percentile(free["arrival"], 95) <= TARGET_P95_S
    )
    section.checks["step (UI share) p95 <= 50 ms"] = bool(stepping["ui"]) and (
        percentile(stepping["ui"], 95) <= TARGET_P95_S
    )
    section.notes.append("the app runs through Textual's pilot; frames are turned into escape sequences")
    section.notes.append(f"Textual's frame rate: {stepping.get('fps', ['?'])[0]} a second (`TEXTUAL_FPS`)")
    return finish(section, ns.json)


if __name__ == "__main__":
    sys.exit(main())
