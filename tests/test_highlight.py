"""The highlighters: every recorded stage highlights, quickly, line for line."""

from __future__ import annotations

import concurrent.futures

import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from tcdebug.dump import load_dump
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
