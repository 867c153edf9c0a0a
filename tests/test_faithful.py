"""tcdebug observes the run the user would have had: caches and PGO as the environment sets them,
kernels named as torch names them; the compile caches' answers are shown, a miss explained; `--cold`
switches every cache off, and says so."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from conftest import SAMPLES, SCRIPTS, run_tcdebug
from observer import assert_stdout_kept, compare_logs
from pilot import wait_until

from tcdebug.analysis.why import why_markdown
from tcdebug.dump.loader import load_dump
from tcdebug.model import session as model
from tcdebug.model.session import SKIPPED, Session
from tcdebug.screens.app import build_live_app
from tcdebug.screens.symbols_screen import SymbolsScreen
from tcdebug.torchtext.cache_keys import AOT_DETAILS_HINT, AOT_DETAILS_LOGGER, NO_DETAILS
from tcdebug.trace import load_trace_session

PAIR = SCRIPTS / "cache_pair.py"


def _dump(out: Path, *args: str, env: dict[str, str] | None = None) -> Session:
    proc = run_tcdebug("--dump", str(out), *args, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return load_dump(out)


def _verdicts(session: Session) -> list[tuple[str, str, str]]:
    return [(c.compile_id, v.cache, v.result) for c in session.ordered_compiles() for v in c.caches]


def _kernel_names(session: Session) -> dict[str, list[str]]:
    return {
        f"{c.compile_id} {st.key}": sorted(k.name for k in st.kernels)
        for c in session.ordered_compiles()
        for st in c.stages.values()
        if st.stage_id == "kernel_source" and st.captured
    }


def test_first_and_warm_runs_are_the_plain_runs_and_show_their_cache_answers(
    tmp_path: Path,
) -> None:
    """One script, one Inductor cache for tcdebug's runs and another for plain python's.

    - The observer check: nothing tcdebug turns on changes what torch compiles or names (Inductor's
      provenance tracking would rename `cpp_fused_mul_relu_0`). torch's own log of a run under
      tcdebug equals its log of a plain run, for a first run and for a warm second run in the same
      cache (its hits), and the dump's kernels are the log's.
    - The first run misses (nothing to compare); the second hits and says which stages the hit
      skipped; a changed constant misses with the graph as the part of the key that differs;
      `--cold` has no cache answer and every stage."""
    import subprocess

    keys = {"TCDEBUG_CACHE_KEYS_DIR": str(tmp_path / "keys"), "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "c2")}

    def plain(n: int) -> subprocess.CompletedProcess:
        env = dict(
            os.environ, TORCH_TRACE=str(tmp_path / f"plain{n}"), TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "c1")
        )
        proc = subprocess.run(
            [sys.executable, str(PAIR)], env=env, capture_output=True, text=True, timeout=600, check=False
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        return proc

    runs = []
    for n in (1, 2):
        plain_proc = plain(n)
        session = _dump(tmp_path / f"out{n}", str(PAIR), env={**keys, "TORCH_TRACE": str(tmp_path / f"ours{n}")})
        compare_logs(tmp_path / f"plain{n}", tmp_path / f"ours{n}")
        assert _kernel_names(session) == _kernel_names(load_trace_session(tmp_path / f"plain{n}"))
        assert plain_proc.stdout in "".join(chunk.text for chunk in session.output)
        runs.append(session)
    warm_log = load_trace_session(tmp_path / "ours2").compiles["0/0"].metrics.get("cache") or {}
    assert any(counts.get("hit") for counts in warm_log.values()), warm_log

    first, warm = runs
    assert not first.cold and not any(n.startswith("--cold") for n in first.notes)
    assert ("0/0", "fx_graph", "miss") in _verdicts(first), _verdicts(first)
    fx_miss = next(v for v in first.compiles["0/0"].caches if v.cache == "fx_graph")
    assert "no earlier FX graph cache entry" in fx_miss.explanation[0]

    results = {(cache, result) for _cid, cache, result in _verdicts(warm)}
    assert ("fx_graph", "hit") in results or ("aotautograd", "hit") in results, results
    comp = warm.compiles["0/0"]
    skipped = [st for st in comp.stages.values() if st.reason.startswith(SKIPPED)]
    assert skipped and all("cache hit" in st.reason and "(key " in st.reason for st in skipped), [
        st.reason for st in skipped
    ]
    assert comp.stages["kernel_source.forward"].captured  # the output code a hit loads is shown
    assert "## Compile caches" in why_markdown(warm, "0/0")
    index = json.loads((tmp_path / "out2" / "session.json").read_text())
    assert index["compiles"][0]["caches"], "the verdicts are in session.json"
    assert _kernel_names(warm) == _kernel_names(first)

    changed = _dump(tmp_path / "changed", str(PAIR), "3.0", env=keys)
    misses = [v for v in changed.compiles["0/0"].caches if v.cache == "fx_graph" and v.result == "miss"]
    assert misses, _verdicts(changed)
    explained = "\n".join(misses[0].explanation)
    assert "nearest entry" in explained and "gm:" in explained, explained
    # AOTAutograd's lookup carried no hash details (torch's DEBUG log is off): the miss says how to get them
    aot = [v for v in changed.compiles["0/0"].caches if v.cache == "aotautograd" and v.result == "miss"]
    assert aot and aot[0].explanation == [NO_DETAILS, AOT_DETAILS_HINT], _verdicts(changed)

    cold = _dump(tmp_path / "cold", "--cold", str(PAIR), env=keys)
    assert cold.cold and any("force_disable_caches" in n for n in cold.notes), cold.notes
    assert not any(result == "hit" for _c, _k, result in _verdicts(cold))
    for st in cold.compiles["0/0"].stages.values():
        assert not st.reason.startswith(SKIPPED), st.key
    assert cold.compiles["0/0"].stages["inductor_post_grad_graph.forward"].captured


def test_an_aotautograd_miss_is_explained_where_torch_logs_its_hash_details(tmp_path: Path) -> None:
    """With the logger the hint names at DEBUG (docs/compile-caches.md), torch gives AOTAutograd's
    hash details: a changed constant's AOTAutograd miss names the graph as the part that differs."""
    env = {
        "TCDEBUG_CACHE_KEYS_DIR": str(tmp_path / "keys"),
        "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "cache"),
        "TORCH_LOGS": f"+{AOT_DETAILS_LOGGER}",
    }
    _dump(tmp_path / "first", str(PAIR), env=env)
    changed = _dump(tmp_path / "changed", str(PAIR), "3.0", env=env)
    aot = [v for v in changed.compiles["0/0"].caches if v.cache == "aotautograd" and v.result == "miss"]
    assert aot, _verdicts(changed)
    explained = "\n".join(aot[0].explanation)
    assert "nearest entry" in explained and "\ngm:" in explained and AOT_DETAILS_HINT not in explained, explained


def test_observer_pgo_second_run_compiles_dynamic_at_once_as_plain_torch_does(tmp_path: Path) -> None:
    """Automatic-dynamic PGO stays on under tcdebug: a first run recompiles for a new size and
    records it; a second run in the same cache folder (and job id, which keys torch's profiles)
    compiles dynamic at once. torch's own logs of both runs under tcdebug equal its logs of the
    plain runs."""
    import subprocess

    script = SCRIPTS / "pgo_dynamic.py"
    job = {"TORCH_COMPILE_JOB_ID": "tcdebug-pgo-test"}
    compiles: dict[str, list[list[str]]] = {"plain": [], "ours": []}
    for n in (1, 2):
        env = dict(
            os.environ,
            TORCH_TRACE=str(tmp_path / f"plain{n}"),
            TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "c1"),
            **job,
        )
        plain = subprocess.run(
            [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=600, check=False
        )
        assert plain.returncode == 0, plain.stderr[-2000:]
        env = {
            "TORCH_TRACE": str(tmp_path / f"ours{n}"),
            "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "c2"),
            **job,
        }
        session = _dump(tmp_path / f"out{n}", str(script), env=env)
        compare_logs(tmp_path / f"plain{n}", tmp_path / f"ours{n}")
        assert_stdout_kept(plain.stdout, "".join(chunk.text for chunk in session.output))
        compiles["plain"].append(list(load_trace_session(tmp_path / f"plain{n}").compiles))
        compiles["ours"].append(list(session.compiles))
    assert compiles["plain"] == [["0/0", "0/1"], ["0/0"]], compiles  # the profile took effect
    assert compiles["ours"] == compiles["plain"]


async def test_symbols_are_known_while_paused_at_the_dynamo_graph() -> None:
    """Paused at the Dynamo graph of the automatic-dynamic recompile, whose graph already shows a
    size symbol, `S` lists that symbol instead of saying every size is static."""
    app = build_live_app([str(SAMPLES / "dynamic_shapes.py")], mode="continue", breakpoints={"dynamo_graph"})
    app.breakpoints = {"dynamo_graph"}
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(3):
            await wait_until(
                pilot,
                lambda: app.session.state == model.PAUSED and app.session.paused_at is not None,
                what="a pause at a Dynamo graph",
            )
            cid, key = app.session.paused_at  # type: ignore[misc]
            if cid == "0/1":
                break
            await pilot.press("c")
            await wait_until(pilot, lambda at=(cid, key): app.session.paused_at != at, what="the next pause")
        assert app.session.paused_at == ("0/1", "dynamo_graph"), app.session.paused_at
        comp = app.session.compiles["0/1"]
        assert comp.status == "compiling" and "s" in comp.stages["dynamo_graph"].get_text()
        await pilot.press("S")
        await wait_until(pilot, lambda: isinstance(app.screen, SymbolsScreen), what="the symbols screen")
        screen = app.screen
        assert isinstance(screen, SymbolsScreen)
        assert screen.symbols, "no symbols while paused at a dynamic graph"
        title = str(screen.query_one("#symbols-title").render())
        assert "static" not in title, title
        await pilot.press("escape")
        await pilot.press("q")


@pytest.mark.parametrize("cold", [False, True])
def test_cold_flag_reaches_the_script_only_when_asked(tmp_path: Path, cold: bool) -> None:
    """`--cold` sets torch's own switches for the script's process tree; without it the script's
    environment has none of them."""
    script = tmp_path / "env.py"
    script.write_text(
        "import os, torch\n"
        "print('ENV', os.environ.get('TORCHINDUCTOR_FORCE_DISABLE_CACHES'), "
        "os.environ.get('TORCH_DYNAMO_AUTOMATIC_DYNAMIC_LOCAL_PGO'), "
        "torch.compiler.config.force_disable_caches)\n"
        "torch.compile(lambda x: x + 1, backend='eager')(torch.ones(2))\n"
    )
    session = _dump(tmp_path / "out", *(["--cold"] if cold else []), str(script))
    text = "".join(chunk.text for chunk in session.output)
    assert ("ENV 1 0 True" if cold else "ENV None None False") in text, text
    assert session.cold is cold


async def test_the_app_shows_a_hit_its_row_and_the_stage_it_skipped() -> None:
    """A compile cache's answers as the timeline's glyph and row, the row's view, and a stage a hit
    skipped saying so with the key that restarts cold (mlp's recorded dump, plus the verdicts a
    warm run sends)."""
    from pilot import header_text, screen_lines, shown_text

    from tcdebug.model.events import CacheResult, StageEvent
    from tcdebug.model.payloads import CacheVerdict
    from tcdebug.screens.app import TcdebugApp
    from tcdebug.screens.widgets.timeline import Ref

    session = load_dump(Path(__file__).parent / "data" / "mlp_cpu")
    hit = CacheVerdict(cache="fx_graph", result="hit", key="fabc123def456ghi789", part="inference")
    session.apply(CacheResult(compile_id="0/0", verdict=hit))
    session.apply(
        StageEvent(
            compile_id="0/0",
            stage="inductor_ir_post_fusion",
            part="inference",
            status="not_captured",
            reason="x",
        )
    )
    stage = session.compiles["0/0"].stages["inductor_ir_post_fusion.inference"]
    assert stage.reason == "skipped: FX graph cache hit [inference] (key fabc123def456ghi…)"
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert any("◆ cache: FX graph hit (" in line for line in screen_lines(app)), screen_lines(app)
        app.jump_to(Ref("0/0", item="cache"))
        await pilot.pause()
        assert "FX graph cache hit [inference]" in shown_text(app)
        app.jump_to(Ref("0/0", "inductor_ir_post_fusion.inference"))
        await pilot.pause()
        assert "skipped: FX graph cache hit" in header_text(app) and "K restarts" in header_text(app)
        await pilot.press("K")  # a dump: nothing to restart, said in a notification
        await pilot.pause()
        assert not app.restart_cold


async def test_restart_cold_from_the_palette_ends_the_run_for_a_cold_one(tmp_path: Path) -> None:
    """ "restart cold" is offered in a live run with the user's caches; choosing it ends the run
    with `restart_cold` set, which `run_live` answers with the same script under `--cold`."""
    script = tmp_path / "tiny.py"
    script.write_text("import torch\ntorch.compile(lambda x: x * 2, backend='eager')(torch.ones(2))\n")
    app = build_live_app([str(script)], mode="run")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.target_ready or app.target_exited, what="the script's end")
        assert app.can_restart_cold and not app.session.cold
        await pilot.press("ctrl+p")
        await pilot.press(*"restart cold")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.restart_cold, timeout=30, what="restart cold chosen")
    assert app.restart_cold
