"""Stage view latency on a 20,000-line stage: switch to it, scroll a page, search.

The stage is a real Inductor output-code file (the MLP's backward `kernel_source`) repeated
to 20,000 lines, written into a copy of the MLP dump, so the app reads it as it reads any dump.
Each action is a key press timed to the painted frame (`ui_harness.timed_press`).
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from common import MLP_DUMP, Section, byte_compile_tcdebug, finish, median, ms, parse_args, percentile
from ui_harness import render_frames_fully, settle, timed_press, wait_for

from tcdebug.dump.loader import load_dump
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.main_screen import SearchInput
from tcdebug.screens.widgets.highlight import highlight_lines
from tcdebug.screens.widgets.timeline import Ref

LINES = 20_000
BIG = Ref("0/1", "kernel_source.backward")
TARGET_P95_S = 0.050
SIZE = (120, 40)


def make_big_dump(folder: Path, lines: int = LINES) -> Path:
    """A copy of the MLP dump whose backward kernel_source stage has `lines` lines."""
    out = folder / "big_stage_dump"
    shutil.copytree(MLP_DUMP, out)
    stage_file = out / "compiles" / "0-1" / "10_kernel_source.backward.py"
    unit = stage_file.read_text().splitlines()
    big = [unit[i % len(unit)] for i in range(lines)]
    stage_file.write_text("\n".join(big) + "\n")
    return out


def summary(name: str, samples: list[float]) -> list[str]:
    return [name, str(len(samples)), ms(median(samples)), ms(percentile(samples, 95)), ms(max(samples))]


async def measure_app(dump: Path, samples: int) -> dict[str, list[float]]:
    app = TcdebugApp(load_dump(dump), read_only=True)
    app.owns_process = True  # as `tcdebug` runs it: its own process
    results: dict[str, list[float]] = {
        "switch": [],
        "switch away": [],
        "scroll": [],
        "search": [],
        "next": [],
    }
    async with app.run_test(size=SIZE) as pilot:
        render_frames_fully(app)
        main = app.main_screen
        code = main.code
        refs = main.timeline.refs()
        before = refs[refs.index(BIG) - 1]
        app.jump_to(before)
        await settle(pilot)
        main.timeline.focus()
        await settle(pilot)

        def on_big() -> bool:
            return main.selected == BIG and len(code.lines) == LINES

        # The first switch: the lines on show coloured as they are painted, the whole file's
        # colours from the worker thread once the stage has been on show a moment.
        start = time.perf_counter()
        first_switch = await timed_press(pilot, "down", on_big)
        assert code._prefix, "the first frame of the stage was painted without colours"
        await wait_for(pilot, lambda: code.is_highlighted)
        first_highlight = time.perf_counter() - start
        for _ in range(samples):
            results["switch away"].append(
                await timed_press(pilot, "up", lambda: main.selected == before)  # noqa: B023
            )
            results["switch"].append(await timed_press(pilot, "down", on_big))
        assert code.is_highlighted, "the highlighting was not reused when switching back"

        code.focus()
        # PageDown animates the scroll over a few frames; without the animation the page is
        # painted in one frame, every line of it new: the worst frame a scroll can cost.
        app.animation_level = "none"
        await settle(pilot)

        def still() -> bool:
            return not app.animator.is_being_animated(code, "scroll_y")

        for i in range(samples):
            if i % 10 == 0:
                await timed_press(pilot, "home")
            await wait_for(pilot, lambda: still() and code.scroll_offset.y < LINES - 100)
            y = code.scroll_offset.y
            results["scroll"].append(
                await timed_press(pilot, "pagedown", lambda: still() and code.scroll_offset.y > y)  # noqa: B023
            )

        await timed_press(pilot, "slash", lambda: main.query_one(SearchInput).has_focus)
        keys = ["b", "u", "f", "backspace", "backspace", "backspace"]
        for i in range(len(keys) * max(1, samples // len(keys))):  # whole cycles: the box ends empty
            key = keys[i % len(keys)]
            results["search"].append(await timed_press(pilot, key))
        await timed_press(pilot, "b")
        assert code.search_term == "b" and code.matches, "the search found nothing"
        for _ in range(samples):
            index = code.match_index
            results["next"].append(
                await timed_press(pilot, "down", lambda: code.match_index != index)  # noqa: B023
            )
    results["first switch"] = [first_switch]
    results["first highlight"] = [first_highlight]
    return results


def main(argv: Sequence[str] | None = None) -> int:
    ns = parse_args(__doc__.splitlines()[0], argv)
    byte_compile_tcdebug()
    samples = 6 if ns.quick else 40
    with tempfile.TemporaryDirectory(prefix="tcdebug-bench-") as tmp:
        dump = make_big_dump(Path(tmp))
        text = (dump / "compiles" / "0-1" / "10_kernel_source.backward.py").read_text()
        highlight_runs = []
        for _ in range(1 if ns.quick else 3):
            start = time.perf_counter()
            lines = highlight_lines(text, "python")
            highlight_runs.append(time.perf_counter() - start)
        assert len(lines) == LINES
        results = asyncio.run(measure_app(dump, samples))
    section = Section(
        f"Stage view latency: a {LINES:,}-line kernel_source stage (key press to painted frame)",
        ["action", "n", "p50", "p95", "max"],
    )
    section.rows += [
        summary("switch to the stage (timeline ↓), highlighted before", results["switch"]),
        summary("switch away (timeline ↑)", results["switch away"]),
        summary("scroll a page (PageDown, in one frame)", results["scroll"]),
        summary("search: one keystroke in the / box", results["search"]),
        summary("next match (↓ in the / box)", results["next"]),
        ["first switch (the lines on show coloured)", "1", ms(results["first switch"][0]), "", ""],
        ["first switch to the whole file coloured (worker)", "1", ms(results["first highlight"][0]), "", ""],
        summary("`highlight_lines` on the whole file", highlight_runs),
    ]
    for name in ("switch", "scroll"):
        section.checks[f"{name} p95 <= {TARGET_P95_S * 1000:.0f} ms"] = (
            percentile(results[name], 95) <= TARGET_P95_S
        )
    section.data = {k: v for k, v in results.items()} | {"highlight_lines": highlight_runs}
    section.notes.append(f"terminal {SIZE[0]}x{SIZE[1]}; the file is 20,000 lines, {len(text) / 1e6:.2f} MB")
    return finish(section, ns.json)


if __name__ == "__main__":
    sys.exit(main())
