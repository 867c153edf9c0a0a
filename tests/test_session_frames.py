"""`Session.same_frame`: the compiles of one frame (what `d` diffs and the footer offers), read from
an index that follows the session as compiles are added and their rank and pid are set later."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tcdebug.model.session import Compile, Session

IDS = st.sampled_from(
    [
        "0/0",
        "0/1",
        "0/0_1",
        "0/2",
        "1/0",
        "1/1",
        "-/0/0",
        "!ca/0/0",
        "!ca/0/1",
        "0/0@71",
        "0/1@71",
        "0/0#2",
        "x",
    ]
)
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("add"), IDS),
        st.tuples(st.just("rank"), IDS, st.sampled_from([None, 0, 1])),
        st.tuples(st.just("pid"), IDS, st.sampled_from([None, 71, 72])),
        st.tuples(st.just("ask"), IDS),
    ),
    max_size=40,
)


def by_scan(session: Session, compile_id: str) -> list[Compile]:
    """Every compile of `compile_id`'s frame, by a pass over all of them."""
    comp = session.compiles.get(compile_id)
    if comp is None:
        return []
    same = [
        c
        for c in session.compiles.values()
        if (c.frame_id, c.rank, c.pid, c.compile_id[:1])
        == (comp.frame_id, comp.rank, comp.pid, compile_id[:1])
    ]
    return sorted(same, key=session.order_key)


@settings(max_examples=300, deadline=None)
@given(STEPS)
def test_same_frame_is_a_scan_of_every_compile_whatever_was_added_or_set_between_questions(steps) -> None:
    session = Session()
    for step in steps:
        kind, compile_id = step[0], step[1]
        if kind == "add":
            session.compile(compile_id)
        elif kind in ("rank", "pid") and compile_id in session.compiles:
            setattr(session.compiles[compile_id], kind, step[2])
        for asked in {compile_id, "0/0", "!ca/0/0"}:
            assert [c.compile_id for c in session.same_frame(asked)] == [
                c.compile_id for c in by_scan(session, asked)
            ]


def test_same_frame_of_a_session_whose_compiles_dict_was_replaced() -> None:
    session = Session()
    for cid in ("0/0", "0/1", "1/0"):
        session.compile(cid)
    assert [c.compile_id for c in session.same_frame("0/0")] == ["0/0", "0/1"]
    session.compiles = {cid: Compile(cid) for cid in ("0/0", "0/3")}
    assert [c.compile_id for c in session.same_frame("0/0")] == ["0/0", "0/3"]
    assert session.same_frame("0/1") == []
