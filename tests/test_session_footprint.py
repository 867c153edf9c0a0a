"""What a session holds per compile, since a log of 100,000 compiles holds them all
(`benchmarks/scale_compiles.py` measures the whole; these check what it rests on), and that what
compiles share is never changed through one of them."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

from tcdebug.model import events as ev
from tcdebug.model.payloads import AutotuneTable, CacheVerdict
from tcdebug.model.session import NOTHING, Session, is_placeholder
from tcdebug.trace import load_trace_session

TRACES = Path(__file__).parent / "data" / "traces"
LOG = TRACES / "graph_breaks"  # four frames, their breaks and restarts


def test_the_compiles_of_a_log_are_slotted_and_share_what_they_lack() -> None:
    session = load_trace_session(LOG)
    comps = list(session.compiles.values())
    assert len(comps) >= 4
    assert not any(hasattr(c, "__dict__") for c in comps)
    assert not any(hasattr(s, "__dict__") for c in comps for s in c.stages.values())
    assert all(c.provenance_index is None for c in comps)  # made at its first use
    without = [c for c in comps if not c.symbol_chains]
    assert len(without) >= 2 and all(c.symbol_chains is NOTHING for c in without)
    # the script's outermost frame called every compiled function: one Frame for all of them
    outer = {id(c.stack[0]) for c in comps if c.stack}
    assert len([c for c in comps if c.stack]) >= 3 and len(outer) == 1


def test_what_one_compile_gains_goes_to_it_alone() -> None:
    session = Session()
    for cid in ("0/0", "1/0"):
        session.apply(ev.CompileStart(compile_id=cid, function="f"))
    session.apply(ev.GraphBreak(compile_id="0/0", reason="print"))
    session.apply(ev.GraphBreak(compile_id="0/0", reason="item"))
    session.apply(ev.Autotune(compile_id="0/0", table=AutotuneTable(name="mm")))
    session.apply(ev.CacheResult(compile_id="0/0", verdict=CacheVerdict(cache="fx_graph", result="hit")))
    session.apply(ev.CompileTimes(compile_id="0/0", times={"wall_s": 1.0}))
    first, other = session.compiles["0/0"], session.compiles["1/0"]
    assert [gb.reason for gb in first.graph_breaks] == ["print", "item"]
    assert [t.name for t in first.autotune_tables] == ["mm"] and [v.result for v in first.caches] == ["hit"]
    assert dict(first.times) == {"wall_s": 1.0}
    assert other.graph_breaks == () and other.autotune_tables == () and other.caches == ()
    assert other.times is NOTHING and not NOTHING
    assert Session().compile("2/0").graph_breaks == ()  # a new compile starts empty again
    for copied in (copy.deepcopy(other), pickle.loads(pickle.dumps(other))):  # noqa: S301 - our own
        assert copied.times is NOTHING and copied.compile_id == "1/0"


@pytest.mark.parametrize("trace", ["mlp", "restart", "two_runs"])
def test_the_stages_a_log_lacks_come_in_one_event_per_compile_as_stage_events_would_add_them(trace: str) -> None:
    """The converter sends a compile's missing stages (source, bytecode, Inductor IR, with the
    attempt that has them, or "not in TORCH_TRACE logs") as one `StagesNotLogged`; the session
    holds what one not-captured `StageEvent` per stage gives, shared stages included."""
    from tcdebug.trace.log_events import iter_trace_events

    log = next((TRACES / trace).glob("*.log"))
    events = list(iter_trace_events(log, children=False))
    bulk = [e for e in events if isinstance(e, ev.StagesNotLogged)]
    assert bulk and len({e.compile_id for e in bulk}) == len(bulk)  # one per compile
    one_by_one, together = Session(origin="trace"), Session(origin="trace")
    for event in events:
        together.apply(event)
        if isinstance(event, ev.StagesNotLogged):
            for stage_id, reason in event.reasons.items():
                one_by_one.apply(
                    ev.StageEvent(compile_id=event.compile_id, stage=stage_id, status="not_captured", reason=reason)
                )
        else:
            one_by_one.apply(event)
    assert together.compiles.keys() == one_by_one.compiles.keys()
    for cid, comp in together.compiles.items():
        other = one_by_one.compiles[cid]
        assert list(comp.stages) == list(other.stages)
        for key, stage in comp.stages.items():
            if not stage.captured:
                same = other.stages[key]
                assert (stage.status, stage.reason, stage.title) == (same.status, same.reason, same.title)
                assert is_placeholder(stage) == is_placeholder(same)
    assert any("not in TORCH_TRACE" in e.reasons.get("source", "") for e in bulk)
