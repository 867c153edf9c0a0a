"""The ranks screen on the real two-rank trace (tests/data/traces/ranks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pilot import column_text, screen_lines
from textual.app import App
from textual.widgets import DataTable

from tcdebug import trace
from tcdebug.model.session import Session
from tcdebug.screens.ranks_screen import RanksScreen, rank_rows

RANKS = Path(__file__).resolve().parent / "data" / "traces" / "ranks"


class Host(App[None]):
    """Stands in for the tcdebug app: records what the screen asks for."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.messages: list[tuple[str, str, Session]] = []
        self.callbacks: list[tuple[str, str]] = []

    def on_mount(self) -> None:
        self.push_screen(RanksScreen(self.session, on_select=self._picked))

    def _picked(self, rank: str, session: Session, compile_id: str) -> None:
        self.callbacks.append((rank, compile_id))

    def on_ranks_screen_rank_selected(self, message: RanksScreen.RankSelected) -> None:
        self.messages.append((message.rank, message.compile_id, message.session))


def test_rank_rows() -> None:
    session = trace.load_trace_session(RANKS)
    rows = rank_rows(session)
    assert [(r[0], r[2], r[4], r[6]) for r in rows] == [("0", 4, 1, ""), ("1", 5, 2, "yes")]


async def test_choosing_ranks_and_divergences() -> None:
    session = trace.load_trace_session(RANKS)
    app = Host(session)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        screen: Any = app.screen
        assert isinstance(screen, RanksScreen)
        ranks = screen.query_one("#ranks-table", DataTable)
        divs = screen.query_one("#divergences-table", DataTable)
        assert ranks.row_count == 2 and divs.row_count == len(session.divergences) == 5
        # rank 1's extra compiles make its cache hit/miss pattern differ too (listed last)
        assert [d.kind for d in session.divergences][-1] == "cache"
        assert ranks.has_focus and ranks.cursor_row == 0  # starts on the shown rank
        await pilot.press("down", "enter")
        await pilot.pause()
        assert [(r, c) for r, c, _ in app.messages] == [("1", "")]
        assert app.messages[0][2] is session.ranks["1"]
        assert app.callbacks == [("1", "")]
        await pilot.press("tab", "enter")  # the first divergence: 0/1 compiled on rank 1 only
        await pilot.pause()
        assert app.messages[-1][:2] == ("1", "0/1")
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert app.messages[-1][:2] == ("0", "")
        assert screen.current_rank == "0"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, RanksScreen)


async def test_every_column_of_the_ranks_screen_reads_whole_at_80x24() -> None:
    """At 80x24 the headers are short and the log / status and "what differs" columns wrap: every
    rank's log name and the divergences in view read whole, nothing cut at the right edge."""
    session = trace.load_trace_session(RANKS)
    app = Host(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen: Any = app.screen
        assert isinstance(screen, RanksScreen)
        lines = screen_lines(app)
        assert all(len(line) <= 80 for line in lines)
        ranks = screen.query_one("#ranks-table", DataTable)
        labels = [str(c.label) for c in ranks.ordered_columns]
        header = next(line for line in lines if "rank" in line and labels[-1] in line)
        assert all(label in header for label in labels), (labels, header)
        statuses = column_text(lines, labels[1], labels[-1])
        for rank, name, *_ in rank_rows(session):
            assert "".join(name.split()) in statuses, (rank, name, lines)
        differs = column_text(lines, "compile", "what differs")
        for d in session.divergences[:2]:  # the ones in view
            assert "".join(d.detail.split()) in differs, (d.detail, lines)
        # Wider, the long headers come back and nothing wraps.
        await pilot.resize_terminal(160, 40)
        await pilot.pause()
        assert [str(c.label) for c in ranks.ordered_columns][2:5] == [
            "compiles",
            "graph breaks",
            "recompiles",
        ]
        assert all(ranks.rows[key].height == 1 for key in ranks.rows)


async def test_d_diffs_a_divergence_of_the_collective_sequences() -> None:
    """The gloo job whose ranks compile different collectives (tests/data/traces/collectives): the
    records' divergence is listed with the rank and the first differing item, and `d` on it shows
    the two sequences diffed: rank 1's extra all_reduce_ and wait_tensor."""
    from tcdebug.screens.ranks_screen import RankDiffScreen

    session = trace.load_trace_session(RANKS.parent / "collectives")
    app = Host(session)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen: Any = app.screen
        divs = screen.query_one("#divergences-table", DataTable)
        kinds = [d.kind for d in session.divergences]
        at = kinds.index("collectives")
        await pilot.press("tab", *["down"] * at, "d")
        await pilot.pause()
        assert isinstance(app.screen, RankDiffScreen), kinds
        text = "\n".join(screen_lines(app))
        assert "1/0 collectives: rank 0 vs rank 1" in text
        assert "+all_reduce_ (1/0)" in text and "+wait_tensor (1/0)" in text
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and divs.cursor_row == at
