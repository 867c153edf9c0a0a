"""The `source` stage as a map: file line numbers, nodes per line, graph breaks, resume points."""

from __future__ import annotations

import pytest
from pilot import main_screen

from tcdebug.dump.loader import load_dump
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.widgets.timeline import Ref
from tcdebug.torchtext.source_map import resume_line, source_gutter

pytestmark = pytest.mark.slow


def _marks(session, cid: str) -> dict[int, str]:
    """file line -> mark, from the gutter labels."""
    out = {}
    for label, _kind in source_gutter(session.compiles[cid], session.compiles.values()).values():
        number, _, mark = label.strip().partition(" ")
        out[int(number)] = mark.strip()
    return out


def test_graph_break_lines_and_resume_points(graph_breaks_dump):
    session = load_dump(graph_breaks_dump.out)
    first = _marks(session, "0/0")  # normalize: y = torch.sin(x) * 2, then print breaks the graph
    # the break restarts Dynamo's analysis: the source is attempt 0's, the graph attempt 1's (0/0_1)
    assert session.compiles["0/0"].status == "restarted"
    assert not session.compiles["0/0_1"].stages["source"].captured
    assert first[7] == "●2"  # sin and mul
    assert first[8] == "✗"
    assert all(first[n] == "·" for n in (9, 10, 11, 12, 13))  # after the break: not in this graph
    resumed = _marks(session, "1/0")  # torch_dynamo_resume_in_normalize_at_8
    assert resume_line(session.compiles["1/0"].function) == 8
    assert resumed[8] == "▶" and resumed[7] == "·"
    assert resumed[9] == "✗"  # .item() breaks again


async def test_the_source_view_shows_the_map_in_its_gutter(graph_breaks_dump):
    app = TcdebugApp(load_dump(graph_breaks_dump.out), read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        app.jump_to(Ref("0/0", "source"))
        await pilot.pause()
        code = main_screen(app).code
        labels = code.gutter_labels
        assert labels[3][0].strip() == "7 ●2" and labels[3][1] == "nodes"
        assert code.gutter_width == len(labels[3][0]) + 2
        strip = code.render_line(2)  # line 3 of the text: file line 7
        assert strip.text.lstrip().startswith("7 ●2")
        app.jump_to(Ref("0/0_1", "dynamo_graph"))  # the graph Dynamo kept: attempt 1's
        await pilot.pause()
        assert not code.gutter_labels  # other stages keep plain line numbers
