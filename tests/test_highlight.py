"""The highlighters: every recorded stage highlights, quickly, line for line."""

from __future__ import annotations

import concurrent.futures

import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from tcdebug.dump.loader import load_dump
from tcdebug.screens.widgets.highlight import clean_line, highlight_lines, plain_lines

STAGES = [
    (name, comp.compile_id, stage)
    for name in ("mlp_cpu", "graph_breaks_cpu")
    for comp in load_dump(DATA / name).ordered_compiles()
    for stage in comp.ordered_stages()
    if stage.captured
]


@pytest.mark.parametrize(
    ("name", "compile_id", "stage"), STAGES, ids=[f"{n}-{c}-{s.key}" for n, c, s in STAGES]
)
def test_every_recorded_stage_highlights_line_for_line(name, compile_id, stage):
    text = stage.get_text()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        # A lexer rule that matches the empty string would spin forever: bound it.
        lines = pool.submit(highlight_lines, text, stage.language).result(timeout=10)
    assert [line.plain for line in lines] == plain_lines(text)
    if stage.language != "text" and len(text) > 40:
        assert any(span.style for line in lines for span in line.spans), "nothing was coloured"


def test_escapes_and_control_characters_show_as_visible_text():
    assert clean_line("\x1b[31mred\x1b[0m\tend\x07") == "␛[31mred␛[0m    end\\x07"
    assert clean_line("\x1b]52;c;aGk=\x07\x1b]2;PWNED\x07") == "␛]52;c;aGk=\\x07␛]2;PWNED\\x07"
    assert clean_line("progress 10%\rprogress 100%") == "progress 100%"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(["a", " ", "\t", "\n", "\r", "\x1b", "\x00", "\u202e", "é", "["])))
def test_plain_lines_skips_the_per_line_cleaning_only_where_it_would_change_nothing(text: str) -> None:
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    assert plain_lines(text) == [clean_line(line) for line in lines]


WARM_PROBE = """
import asyncio, sys
from tcdebug.screens.app import build_live_app
from tcdebug.model.session import FINISHED
from tcdebug.screens.widgets import highlight as h

LEXERS = {"python": h.PythonLexer, "cpp": h.CppLexer, "dis": h.DisLexer, "guards": h.GuardsLexer, "ir": h.IRLexer}
assert sorted(LEXERS) == sorted(h.WARMED_LANGUAGES)

def compiled():  # the languages whose lexer has compiled its patterns (on its first use)
    return sorted(name for name, cls in LEXERS.items() if "_tokens" in cls.__dict__)

async def main():
    print("BEFORE", compiled())
    app = build_live_app([sys.argv[1]], mode="run")
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(600):
            warming = [w for w in app.workers if w.group == "warm-lexers" and not w.is_finished]
            if app.session.state == FINISHED and app.session.output_text() and not warming:
                break
            await pilot.pause(0.05)
        print("AFTER", compiled(), [str(l) for l in app.session.output_text().splitlines()])
        await pilot.press("q")

asyncio.run(main())
"""


def test_the_live_app_readies_every_lexer_while_its_target_starts():
    """Pygments compiles a lexer's patterns on its first use (Python's ~25 ms): the live app does
    that in a worker thread as the target starts, not when the first stage is painted. A script
    that compiles nothing shows no stage: in a fresh process, only that worker used the lexers."""
    import subprocess
    import sys

    from conftest import ROOT, SCRIPTS

    proc = subprocess.run(
        [sys.executable, "-c", WARM_PROBE, str(SCRIPTS / "no_torch.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert lines[0] == "BEFORE []", proc.stdout
    assert lines[1] == "AFTER ['cpp', 'dis', 'guards', 'ir', 'python'] ['NO_TORCH False']", proc.stdout
