"""Compile cache verdicts read from TORCH_TRACE logs (`tcdebug open LOG`, `open --dump`).

Real logs of real Inductor compiles on the CPU, from `python tests/scripts/cache_log.py` (no
tcdebug) run twice with one Inductor cache: the first run misses; the second hits with the same key,
then recompiles for a float64 input, a miss its own log explains by the key it looked up before
(the input's dtype differs). Also the committed logs of tests/data/traces."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import INDUCTOR_CACHE_ENV, SCRIPTS, run_tcdebug

from tcdebug import trace
from tcdebug.model.payloads import CacheVerdict
from tcdebug.model.session import SKIPPED, Compile, Session
from tcdebug.screens.widgets.timeline import cache_glyph, cache_summary
from tcdebug.torchtext.cache_keys import FROM_LOG, NONE_IN_LOG, Lookup, explain_miss

SCRIPT = SCRIPTS / "cache_log.py"
TRACES = Path(__file__).resolve().parent / "data" / "traces"


@dataclass
class Logs:
    cold: Path  # the first run's log folder: every lookup misses
    warm: Path  # the second run's: a hit, then the float64 recompile's miss
    cache: Path  # the Inductor cache both runs used


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    """Two plain runs of the script with TORCH_TRACE, one Inductor cache of their own."""
    root = tmp_path_factory.mktemp("cache_logs")
    cache = root / "inductor-cache"
    made = Logs(root / "cold", root / "warm", cache)
    for folder, args in ((made.cold, []), (made.warm, ["float64"])):
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("TORCH_", "TORCHINDUCTOR_", "TCDEBUG_"))
        }
        env.update({"TORCH_TRACE": str(folder), INDUCTOR_CACHE_ENV: str(cache)})
        proc = subprocess.run(
            [sys.executable, str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=300
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
    return made


def _verdict(comp: Compile, cache: str, result: str) -> CacheVerdict:
    found = [v for v in comp.caches if v.cache == cache and v.result == result]
    assert len(found) == 1, [v.headline() for v in comp.caches]
    return found[0]


def _lookups(folder: Path, name: str) -> list[Lookup]:
    """The log's `name` artifacts (`fx_graph_cache_miss`), as the verdicts read them."""
    stats = trace.TraceStats()
    (path,) = folder.glob("*.log")
    found = []
    for record in trace.read_records(path, stats):
        if record.key == "artifact" and record.name == name:
            assert record.ref is not None
            found.append(Lookup.read(record.ref.read()))
    return found


def test_a_first_runs_log_has_its_misses_with_nothing_earlier_to_compare(logs: Logs) -> None:
    session = trace.load_trace_session(logs.cold)
    comp = session.compiles["0/0"]
    miss = _verdict(comp, "fx_graph", "miss")
    assert miss.key.startswith("f") and miss.part == "inference"
    assert miss.explanation[0] == FROM_LOG
    assert miss.explanation[1] == f"no earlier FX graph cache entry with known hash details: {NONE_IN_LOG}"
    assert _verdict(comp, "aotautograd", "miss").key.startswith("a")
    assert cache_glyph(comp) == ("◇", "dim")
    # the metrics still count them
    assert comp.metrics["cache"] == {"aotautograd": {"miss": 1}, "fx_graph": {"miss": 1}}


def test_a_warm_runs_log_shows_its_hits_and_explains_a_miss_by_the_keys_before_it(logs: Logs) -> None:
    cold_key = _verdict(trace.load_trace_session(logs.cold).compiles["0/0"], "fx_graph", "miss").key
    session = trace.load_trace_session(logs.warm)
    first, recompile = session.compiles["0/0"], session.compiles["0/1"]

    hit = _verdict(first, "fx_graph", "hit")
    assert hit.key == cold_key and hit.part == "inference"
    assert hit.time_saved_s and hit.time_saved_s > 0
    assert _verdict(first, "aotautograd", "hit").key
    assert cache_glyph(first) == ("◆", "green")
    assert cache_summary(first) == "FX graph hit (inf), AOTAutograd hit"
    skipped = [st.reason for st in first.stages.values() if st.reason.startswith(SKIPPED)]
    assert skipped and all("AOTAutograd cache hit (key " in r for r in skipped), skipped

    miss = _verdict(recompile, "fx_graph", "miss")
    assert miss.key != cold_key
    assert cache_glyph(recompile) == ("◇", "dim")
    assert miss.explanation[0] == FROM_LOG
    assert miss.explanation[1].startswith(f"nearest entry {cold_key[:16]}…: 1 of ")
    assert miss.explanation[2].startswith("example_inputs[0]: TensorMetadata(dtype=torch.float64")
    assert "(entry: TensorMetadata(dtype=torch.float32" in miss.explanation[2]
    # the live capture's wording, from the same hash details (its store holding the hit's key)
    (hit_lookup,) = _lookups(logs.warm, "fx_graph_cache_hit")
    (miss_lookup,) = _lookups(logs.warm, "fx_graph_cache_miss")
    live = explain_miss(miss_lookup.key, miss_lookup.components, {hit.key: hit_lookup.components}, "FX graph")
    assert miss.explanation[1:] == live


def test_open_dump_of_a_log_writes_the_verdicts_to_session_json_and_why_md(
    logs: Logs, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    proc = run_tcdebug("open", "--dump", str(out), str(logs.warm))
    assert proc.returncode == 0, proc.stderr[-3000:]
    index = json.loads((out / "session.json").read_text())
    caches = {c["compile_id"]: c["caches"] for c in index["compiles"]}
    assert {(v["cache"], v["result"]) for v in caches["0/0"]} == {("fx_graph", "hit"), ("aotautograd", "hit")}
    fx_miss = next(v for v in caches["0/1"] if v["cache"] == "fx_graph")
    assert fx_miss["result"] == "miss" and fx_miss["explanation"][0] == FROM_LOG
    why_hit = (out / "compiles" / "0-0" / "why.md").read_text()
    assert "## Compile caches" in why_hit and "FX graph cache hit [inference] (key " in why_hit
    why_miss = (out / "compiles" / "0-1" / "why.md").read_text()
    assert FROM_LOG in why_miss and "example_inputs[0]: TensorMetadata(dtype=torch.float64" in why_miss


def test_reading_a_log_writes_no_kept_keys(
    logs: Logs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log is the store: nothing goes to the live capture's folder of kept keys."""
    monkeypatch.setenv("TCDEBUG_CACHE_KEYS_DIR", str(tmp_path / "keys"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    session = trace.load_trace_session(logs.warm)
    assert session.compiles["0/1"].caches
    assert not (tmp_path / "keys").exists() and not (tmp_path / "xdg").exists()


# ----- committed logs ------------------------------------------------------------------------------
def test_committed_warm_log_has_hits_for_each_graph() -> None:
    """tests/data/traces/mlp is a second run: every lookup hits, each FX graph in its part."""
    session = trace.load_trace_session(TRACES / "mlp")
    inference, training = session.compiles["0/0"], session.compiles["0/1"]
    assert [(v.cache, v.result, v.part) for v in inference.caches] == [
        ("fx_graph", "hit", "inference"),
        ("aotautograd", "hit", ""),
    ]
    assert [(v.cache, v.result, v.part) for v in training.caches] == [
        ("fx_graph", "hit", "forward"),
        ("fx_graph", "hit", "backward"),
        ("aotautograd", "hit", ""),
    ]
    assert all(v.key and not v.explanation for c in (inference, training) for v in c.caches)
    assert cache_glyph(training) == ("◆", "green")


def test_committed_log_explains_each_miss_by_an_earlier_graph() -> None:
    """tests/data/traces/graph_breaks: each graph between the breaks misses; from the second on,
    the nearest earlier key differs in its graph (`gm`)."""
    session: Session = trace.load_trace_session(TRACES / "graph_breaks")
    misses = [v for c in session.ordered_compiles() for v in c.caches if v.cache == "fx_graph"]
    assert len(misses) >= 3 and all(v.result == "miss" for v in misses)
    assert NONE_IN_LOG in misses[0].explanation[1]
    for verdict in misses[1:]:
        assert verdict.explanation[0] == FROM_LOG
        assert verdict.explanation[1].startswith("nearest entry ")
        assert any(line.startswith("gm: ") for line in verdict.explanation[2:]), verdict.explanation
