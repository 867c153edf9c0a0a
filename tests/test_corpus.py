"""A corpus of real programs, each run once through tcdebug and once through plain torch.

- tests/scripts/hf_corpus.py: transformers GPT-2, BERT and T5 from tiny configs (random weights,
  no download), forward and backward, through `--dump` and `--rerun`.
- tests/scripts/graph_break_zoo.py: graph breaks, recompiles, dynamic shapes and backends in the
  style of PyTorch's Dynamo tests.

Every program asserts: every stage present or `not captured: <reason>`; graph breaks and
recompiles equal to what `TORCH_LOGS=graph_breaks,recompiles` (and `torch._dynamo.explain`) report
for the same program, run in a subprocess; no tcdebug frame in any stage; no two kernels sharing
a file.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import (
    OBSERVED_SAMPLES,
    ROOT,
    SAMPLES,
    SCRIPTS,
    TORCH,
    SharedDumps,
    run_tcdebug,
    share_dump,
    share_process,
    share_trace,
)
from observer import assert_stdout_kept, compare_logs

import tcdebug
from tcdebug.analysis.why import explain, why_markdown
from tcdebug.dump.loader import load_dump
from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import SKIPPED, Compile, Session

pytestmark = pytest.mark.slow

ZOO = SCRIPTS / "graph_break_zoo.py"
HF = SCRIPTS / "hf_corpus.py"
OUR_DIR = str(Path(tcdebug.__file__).resolve().parent)
FRAME_STAGES = stage_catalog.ALWAYS_STAGES


def share_reference(
    name: str, fixture: str, script: Path, *args: str, env: dict[str, str | None] | None = None
) -> None:
    """The program under plain torch (no tcdebug), with TORCH_LOGS=graph_breaks,recompiles, as
    a shared run."""
    environ = {"TORCH_LOGS": "graph_breaks,recompiles", **(env or {})}
    share_process(name, sys.executable, str(script), *args, env=environ, cwd=script.parent, fixture=fixture)


def per_case_logs(stderr: str) -> dict[str, dict[str, int]]:
    """Graph breaks and recompiles TORCH_LOGS reported between `=== case NAME` markers."""
    out: dict[str, dict[str, int]] = {}
    for chunk in re.split(r"^=== ", stderr, flags=re.MULTILINE)[1:]:
        head, _, body = chunk.partition("\n")
        if head.startswith("case "):
            out[head[5:].strip()] = {
                # the first of a kind, and repeats (Dynamo logs those without the user stack)
                "breaks": body.count("Graph break in user code")
                + body.count("Graph break (user stack suppressed due to duplicate graph break)"),
                "recompiles": body.count("Recompiling function"),
            }
    return out


def ours_in(text: str) -> bool:
    """A tcdebug frame (its package's files) in a text."""
    return OUR_DIR in text or re.search(r"tcdebug[/\\](capture|target|screens)[/\\]", text) is not None


def check_stages_and_files(session: Session) -> None:
    files: list[str] = []
    for comp in session.compiles.values():
        keys = set(comp.stages)
        if comp.is_ca_capture:  # compiled autograd's capture of a backward: no Dynamo frame
            assert keys == set(stage_catalog.expected(stage_catalog.CA_CAPTURE)), (comp.compile_id, sorted(keys))
        else:
            assert set(FRAME_STAGES) <= keys, (comp.compile_id, sorted(keys))
        if not comp.is_ca_capture and comp.stages["dynamo_graph"].captured and comp.status == "ok":
            assert keys & {"aot_forward", "aot_inference"}, (comp.compile_id, sorted(keys))
        for stage in comp.stages.values():
            text = stage.get_text()
            if stage.captured:
                assert text.strip(), (comp.compile_id, stage.key)
            else:
                assert stage.reason.strip() and text == f"not captured: {stage.reason}", (
                    comp.compile_id,
                    stage.key,
                )
            assert not ours_in(text), (comp.compile_id, stage.key)
            for kernel in stage.kernels:
                assert not ours_in(kernel.source)
                files.append(kernel.meta["file"])
    assert len(files) == len(set(files)), sorted(f for f in files if files.count(f) > 1)
    for gb in session.graph_breaks():
        assert not any(ours_in(line) for line in gb.user_stack), gb.user_stack


def counts_by_case(session: Session, cases: dict[str, list[str]]) -> dict[str, dict[str, int]]:
    """Breaks and recompiles per case; a compile belongs to the case whose function name it contains."""

    def case_of(comp: Compile) -> str:
        found = [case for case, names in cases.items() if any(n in comp.function for n in names)]
        assert len(found) == 1, (comp.compile_id, comp.function, found)
        return found[0]

    out = {case: {"breaks": 0, "recompiles": 0} for case in cases}
    for comp in session.compiles.values():
        case = case_of(comp)
        out[case]["breaks"] += len(comp.graph_breaks)
        out[case]["recompiles"] += bool(comp.recompile_reason)
    return out


# ----- the graph-break zoo --------------------------------------------------------------------------
# Both with TORCH_TRACE: the observer test compares torch's own logs of the two runs.
share_dump("zoo_dump", "zoo", str(ZOO), env={"TORCH_TRACE": "{dir}/trace"}, fixture="zoo")
share_reference("zoo_logs", "zoo", ZOO, env={"TORCH_TRACE": "{dir}/trace"})
share_reference("zoo_explained", "zoo", ZOO, "--explain", env={"TORCH_LOGS": None})


@pytest.fixture(scope="session")
def zoo(shared_dumps: SharedDumps) -> tuple[Session, dict, dict]:
    proc = shared_dumps.get("zoo_dump")
    logs, explained = shared_dumps.process("zoo_logs"), shared_dumps.process("zoo_explained")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert logs.returncode == 0, logs.stderr[-3000:]
    assert explained.returncode == 0, explained.stderr[-3000:]
    line = next(x for x in explained.stdout.splitlines() if x.startswith("EXPLAIN "))
    session = load_dump(proc.out)
    # every compile was started and named (a capture unit that failed says why in the notes)
    unnamed = [c.compile_id for c in session.ordered_compiles() if not c.function]
    assert not unnamed, (unnamed, session.notes)
    return session, per_case_logs(logs.stderr), json.loads(line.removeprefix("EXPLAIN "))


def test_zoo_breaks_and_recompiles_match_torch(zoo) -> None:
    session, logs, explained = zoo
    cases = {case: [f"{case}_"] for case in logs}
    ours = counts_by_case(session, cases)
    assert ours == logs
    for case, breaks in explained.items():
        assert ours[case]["breaks"] == breaks, case
    # the zoo has what it claims: breaks, recompiles, and cases with neither
    assert sum(c["breaks"] for c in logs.values()) >= 6 and sum(c["recompiles"] for c in logs.values()) >= 2
    assert logs["rc_dynamic"] == logs["rc_mark"] == {"breaks": 0, "recompiles": 0}


def test_observer_zoo_under_tcdebug_is_the_plain_run(zoo, shared_dumps: SharedDumps) -> None:
    """The graph-break zoo: torch's log of the run under tcdebug equals its log of the plain run."""
    compare_logs(shared_dumps.folder("zoo_logs") / "trace", shared_dumps.folder("zoo_dump") / "trace")


def test_zoo_stages_frames_and_kernel_files(zoo) -> None:
    session, _logs, _explained = zoo
    check_stages_and_files(session)
    by_function = {c.function: c for c in session.ordered_compiles()}
    # backends: eager runs no AOTAutograd, aot_eager no Inductor, and each says so
    assert "did not run AOTAutograd" in by_function["be_eager_fn"].stages["aot_forward"].reason
    assert (
        by_function["be_custom_fn"].stages["aot_forward"].reason
        == "backend be_custom_backend did not run AOTAutograd, or the graph had no ops"
    )
    assert (
        by_function["be_aot_fn"].stages["kernel_source.backward"].reason
        == "backend aot_eager does not run Inductor"
    )
    assert by_function["gb_autograd_fn"].stages["kernel_source.backward"].captured
    (failed,) = [c for c in session.compiles.values() if c.function == "fg_break_fn"]
    assert failed.status == "failed" and failed.stages["guards"].reason.startswith("the compile failed")


# ----- transformers models --------------------------------------------------------------------------
HF_CASES = {"gpt2": ["GPT2"], "bert": ["Bert"], "t5": ["T5"]}


# --accuracy: the no-false-alarm check (test_corpus_models_compare_the_same) shares this run; the
# comparison runs after the script, so the other tests see the same compiles.
share_dump("hf_dump", "hf", "--accuracy", "--rerun", "input_ids=2,8", str(HF), fixture="hf")
share_reference("hf_logs", "hf", HF, env={"HF_CORPUS_BACKEND": "eager"})


@pytest.fixture(scope="session")
def hf(shared_dumps: SharedDumps) -> tuple[Session, dict]:
    proc, logs = shared_dumps.get("hf_dump"), shared_dumps.process("hf_logs")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert logs.returncode == 0, logs.stderr[-3000:]
    return load_dump(proc.out), per_case_logs(logs.stderr)


# The observer check on the corpus models: plain `TORCH_TRACE=DIR python hf_corpus.py`, and the
# same under `tcdebug --dump` with TORCH_TRACE set too (no --accuracy, no --rerun: nothing added).
share_trace("hf_plain_trace", HF, fixture="hf_observer")
share_dump(
    "hf_observed",
    "hf_observed",
    str(HF),
    env={"TORCH_TRACE": "{dir}/trace", "TCDEBUG_CACHE_KEYS_DIR": "{dir}/keys"},
    fixture="hf_observer",
)


@pytest.fixture(scope="session")
def hf_observer(shared_dumps: SharedDumps) -> tuple[Path, Path, str, str]:
    plain, ours = shared_dumps.process("hf_plain_trace"), shared_dumps.get("hf_observed")
    assert plain.returncode == 0, plain.stderr[-3000:]
    assert ours.returncode == 0, ours.stderr[-3000:]
    output = (ours.out / "output.txt").read_text()
    return shared_dumps.folder("hf_plain_trace") / "trace", shared_dumps.folder("hf_observed") / "trace", plain.stdout, output


def test_observer_hf_models_under_tcdebug_are_the_plain_run(hf_observer) -> None:
    """GPT-2, BERT and T5 training: torch's log of the run under tcdebug equals its log of the plain
    run (compiles and attempts, graphs, kernels, cache answers, recompile reasons), and so does the
    script's stdout."""
    plain_log, our_log, plain_stdout, our_output = hf_observer
    compare_logs(plain_log, our_log)
    assert plain_stdout.count("loss") == 3, plain_stdout
    assert_stdout_kept(plain_stdout, our_output)



def test_a_warm_gpt2_run_shows_its_hits_and_a_longer_sequence_is_a_miss_explained(
    hf_observer, shared_dumps: SharedDumps, tmp_path: Path
) -> None:
    """GPT-2 again in the first run's Inductor cache: its FX graph and AOTAutograd entries hit, and
    each stage a hit skipped says so. A longer sequence misses, and the miss names the part of the
    key that differs from the nearest entry."""
    first = shared_dumps.folder("hf_observed")
    env = {
        "TORCHINDUCTOR_CACHE_DIR": str(first / "inductor-cache"),
        "TCDEBUG_CACHE_KEYS_DIR": str(first / "keys"),
        "HF_CORPUS_MODELS": "gpt2",
    }
    proc = run_tcdebug("--dump", str(tmp_path / "warm"), str(HF), env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    warm = load_dump(tmp_path / "warm")
    verdicts = {(v.cache, v.result) for c in warm.compiles.values() for v in c.caches}
    assert ("fx_graph", "hit") in verdicts and ("fx_graph", "miss") not in verdicts, verdicts
    hit = next(c for c in warm.ordered_compiles() if any(v.result == "hit" for v in c.caches))
    skipped = [st for st in hit.stages.values() if st.reason.startswith(SKIPPED)]
    assert skipped and all("cache hit" in st.reason for st in skipped), [st.reason for st in skipped]
    assert "## Compile caches" in why_markdown(warm, hit.compile_id)

    proc = run_tcdebug("--dump", str(tmp_path / "longer"), str(HF), env={**env, "HF_CORPUS_SEQ": "12"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    longer = load_dump(tmp_path / "longer")
    misses = [v for c in longer.compiles.values() for v in c.caches if v.cache == "fx_graph" and v.result == "miss"]
    assert misses, [(c.compile_id, c.caches) for c in longer.ordered_compiles()]
    explained = "\n".join(line for miss in misses for line in miss.explanation)
    assert "nearest entry" in explained, explained

for _sample in OBSERVED_SAMPLES.values():
    share_trace(f"plain_{_sample}", SAMPLES / _sample, fixture="samples_observer")


@pytest.fixture(scope="session")
def samples_observer(shared_dumps: SharedDumps) -> SharedDumps:
    return shared_dumps


@pytest.mark.parametrize("dump", sorted(OBSERVED_SAMPLES))
def test_observer_samples_under_tcdebug_are_the_plain_runs(samples_observer: SharedDumps, dump: str) -> None:
    """Each CPU sample: torch's log of its run under tcdebug equals its log of a plain run, and the
    plain run's stdout is the dump's."""
    sample = OBSERVED_SAMPLES[dump]
    plain, ours = samples_observer.process(f"plain_{sample}"), samples_observer.get(dump)
    assert plain.returncode == 0, plain.stderr[-3000:]
    assert ours.returncode == 0, ours.stderr[-3000:]
    compare_logs(samples_observer.folder(f"plain_{sample}") / "trace", samples_observer.folder(dump) / "trace")
    assert plain.stdout.strip()
    assert_stdout_kept(plain.stdout, (ours.out / "output.txt").read_text())


def test_hf_models_forward_and_backward_every_stage(hf) -> None:
    session, _logs = hf
    check_stages_and_files(session)
    backward = [c for c in session.compiles.values() if c.stages.get("kernel_source.backward", None)]
    assert any(c.stages["kernel_source.backward"].captured for c in backward)
    calls = {c.function for c in session.calls}
    assert {"GPT2LMHeadModel.forward", "BertModel.forward", "T5ForConditionalGeneration.forward"} <= calls


def test_hf_breaks_and_recompiles_match_torch(hf) -> None:
    session, logs = hf
    total = {
        "breaks": sum(c["breaks"] for c in logs.values()),
        "recompiles": sum(c["recompiles"] for c in logs.values()),
    }
    assert len(session.graph_breaks()) == total["breaks"]
    assert len(session.recompiles()) == total["recompiles"]


def test_hf_reruns_replay_the_call(hf) -> None:
    session, _logs = hf
    by_function = {r.function: r for r in session.reruns}
    assert set(by_function) == {
        "GPT2LMHeadModel.forward",
        "BertModel.forward",
        "T5ForConditionalGeneration.forward",
    }
    for function, rerun in by_function.items():
        assert rerun.status == "ok", (function, rerun.error)
        assert rerun.checks, function  # the frame Dynamo compiled (a `*args, **kwargs` wrapper) is checked
        assert rerun.produced == [], (function, [c.reason for c in rerun.checks])  # nothing recompiles
        assert rerun.reused in {c.compile_id for c in rerun.checks if c.passed}, function
    gpt2 = next(c for c in session.calls if c.function == "GPT2LMHeadModel.forward")
    labels = next(i for i in gpt2.inputs if i["leaf"] == "labels")
    assert labels["alias_of"] in ("input_ids", "kwargs['input_ids']"), labels


def test_hf_each_fused_ir_node_leads_to_the_kernel_that_computes_it(hf) -> None:
    """A post-fusion IR node computed in a generated kernel is linked to that kernel only: the
    one whose call first passes a buffer the node writes, as the why layer places it. torch's
    kernel mapping also names ops a kernel recomputes (a layer norm's input add) or reads, so
    sharing origins with another kernel's mapping does not link a node to it."""
    session, _logs = hf
    checked = 0
    for comp in session.compiles.values():
        placed = {
            part.stage.replace("inductor_ir_post_fusion", "kernel_source"): part.data.get("kernels", {})
            for part in explain(session, comp.compile_id)
            if part.title.startswith("Fusion")
        }
        for key, kernels in placed.items():
            ir_key = key.replace("kernel_source", "inductor_ir_post_fusion")
            for item in comp.provenance.in_stage(ir_key):
                if not item.detail.endswith(("· SchedulerNode", "· FusedSchedulerNode")):
                    continue
                linked = {
                    i.name
                    for i in comp.provenance.linked(item.item_id, downstream=True)
                    if i.kind == "kernel"
                }
                owners = {k for k, nodes in kernels.items() if item.name in nodes}
                if not owners:
                    continue  # no call passes a buffer it writes (written in place): not placed either way
                assert linked == owners, (comp.compile_id, ir_key, item.name, linked, owners)
                checked += 1
    assert checked >= 10


# ----- compiled autograd ----------------------------------------------------------------------------
# Inside a compiled function, Dynamo compiles any frame it does not skip: compiled autograd's
# backward calls torch functions that the capture wraps, so the wrappers must be skipped as the
# torch functions are, or the session holds compiles of tcdebug's own code.
CA = SCRIPTS / "compiled_autograd.py"
# Both runs with compiled autograd's verbose log: torch then logs why its cache missed.
CA_LOGS = {"TORCH_LOGS": "compiled_autograd_verbose"}
share_dump(
    "ca_dump",
    "compiled_autograd",
    str(CA),
    env={"TORCH_TRACE": "{dir}/trace", **CA_LOGS},
    fixture="compiled_autograd",
)
share_process(
    "ca_trace",
    sys.executable,
    str(CA),
    env={"TORCH_TRACE": "{dir}/trace", **CA_LOGS},
    fixture="compiled_autograd",
)


@pytest.fixture(scope="session")
def compiled_autograd(shared_dumps: SharedDumps) -> tuple[Session, Session]:
    from tcdebug.trace import load_trace_session

    proc, plain = shared_dumps.get("ca_dump"), shared_dumps.process("ca_trace")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert plain.returncode == 0, plain.stderr[-3000:]
    return load_dump(proc.out), load_trace_session(shared_dumps.folder("ca_trace") / "trace")


def test_compiled_autograd_compiles_what_plain_torch_compiles(compiled_autograd) -> None:
    """The compiles under tcdebug are those torch's own trace of a plain run logs: compiled
    autograd's captures of the two backwards (`!0`, `!1`), the step, the graphs Dynamo compiles
    from the captures (`!0/1/0`, `!1/F/0`) and the step's resume; none of tcdebug's functions,
    nor of the classes it defines."""
    session, plain = compiled_autograd
    ours = {c.compile_id: c.function for c in session.ordered_compiles()}
    theirs = {c.compile_id: c.function for c in plain.ordered_compiles()}  # a restart's attempts too
    assert ours == theirs
    assert {"!0", "!1"} <= set(ours) and any(cid.startswith("!0/") for cid in ours), ours
    for comp in session.compiles.values():
        assert not ours_in(comp.filename) and not comp.filename.startswith("<string>"), comp.compile_id
    check_stages_and_files(session)


def test_observer_compiled_autograd_under_tcdebug_is_the_plain_run(
    compiled_autograd, shared_dumps: SharedDumps
) -> None:
    """torch's own log of the run under tcdebug equals its log of the plain run (each with an
    empty cache): compiles, graphs (compiled autograd's backward inlined with the cache on), kernel
    names, cache hits and misses, recompile reasons."""
    compare_logs(shared_dumps.folder("ca_trace") / "trace", shared_dumps.folder("ca_dump") / "trace")


def test_compiled_autograds_capture_in_a_trace_log_is_not_a_failed_compile(compiled_autograd) -> None:
    """In torch's log, compiled autograd's capture (`!0`) has its graph and no compile end."""
    _session, plain = compiled_autograd
    capture = plain.compiles["!0"]
    assert capture.status == "ok" and not capture.error
    assert capture.stages["ca_graph"].captured


def test_compiled_autograds_captures_are_compiles_with_their_graphs_live_and_in_a_log(
    compiled_autograd, shared_dumps: SharedDumps
) -> None:
    """Each capture (`!N`) is a compile whose stages are compiled autograd's graph as traced and
    as handed to Dynamo, the same text live as in torch's log of a plain run, and nothing a
    Dynamo frame has (no source, bytecode or IR marked missing). Why it exists: torch's reason
    for the cache miss, the line that ran the backward (live: read from the stack), and the
    compile Dynamo made of it, whose own why points back at the capture. A cache miss of
    compiled autograd is not a recompile of a frame."""
    session, plain = compiled_autograd
    lines = CA.read_text().splitlines()
    for n, line in ((0, "loss.backward()"), (1, "total.backward()")):
        cid = f"!{n}"
        live, logged = session.compiles[cid], plain.compiles[cid]
        assert live.status == "ok" and live.shown_name == "compiled autograd" and not live.function
        for comp in (live, logged):
            # a log adds its symbolic-shapes stage (the records of the capture's symbols), live has none
            shown = sorted(k for k in comp.stages if k != "trace_symbolic_shapes")
            assert shown == ["ca_graph", "ca_graph_pre_reordering"], (comp.compile_id, sorted(comp.stages))
            assert comp.times["wall_s"] > 0, comp.times  # torch's `compiled_autograd` timer
            assert f"class CompiledAutograd{n}(torch.nn.Module)" in comp.stages["ca_graph"].get_text()
            assert comp.recompile_reason.startswith(f"{cid}: Cache miss due to new autograd node"), comp.recompile_reason
        for stage in ("ca_graph", "ca_graph_pre_reordering"):
            assert live.stages[stage].get_text() == logged.stages[stage].get_text(), stage
        compiled = next(c.compile_id for c in session.ordered_compiles() if c.compile_id.startswith(f"{cid}/"))
        for sess, comp in ((session, live), (plain, logged)):
            (part,) = [p for p in explain(sess, comp.compile_id) if p.kind == "exists"]
            assert part.data["reasons"] == [comp.recompile_reason] and part.data["compiled_as"] == [compiled]
            assert (part.compile_id, part.stage) == (compiled, "dynamo_graph")
            (back,) = [p for p in explain(sess, compiled) if p.kind == "exists"]
            assert (back.compile_id, back.stage, back.data["capture"]) == (cid, "ca_graph", cid), back
        call = live.stages["ca_graph"].meta["backward_call"]
        assert (call["file"], call["code"]) == (str(CA), line) and lines[call["line"] - 1].strip() == line, call
        assert "backward_call" not in logged.stages["ca_graph"].meta  # a log holds no such stack
        # the dump's why.md, written before Dynamo's compile of the graph came, names it
        why_md = (Path(shared_dumps.get("ca_dump").out) / "compiles" / f"ca{n}" / "why.md").read_text()
        assert f"Dynamo compiled the graph as: {compiled}" in why_md, why_md
    # No capture is a recompile. torch 2.14 recompiles one frame of the stdlib's inspect: it looks
    # attributes up with inspect.getattr_static where 2.13 used hasattr (eval_frame.py:
    # `_initialize_hook` in `OptimizedModule._initialize`, then `get_compiler_config` in
    # `_TorchDynamoContext.__call__`). Compiled autograd hands the step's backward graph to
    # torch.compile while the step's frame runs eagerly at its graph break, Dynamo's frame callback
    # installed, so Dynamo compiles inspect's Python frames (plain torch too), and the second lookup
    # misses the guard `attr == '_initialize_hook'` of inspect._check_class: a recompile of it.
    for sess in (session, plain):
        recompiled = sess.recompiles()
        if TORCH >= (2, 14):
            assert [c.function for c in recompiled] == ["_check_class"], [c.compile_id for c in recompiled]
            assert "attr == '_initialize_hook'" in recompiled[0].recompile_reason, recompiled[0].recompile_reason
        else:
            assert [c.compile_id for c in recompiled] == [], [c.compile_id for c in recompiled]


async def test_the_app_shows_a_capture_as_compiled_autograd_with_its_cache_miss_and_graph(compiled_autograd) -> None:
    from pilot import header_text, main_screen, shown_text

    from tcdebug.screens.app import TcdebugApp
    from tcdebug.screens.widgets.timeline import Ref

    session, _plain = compiled_autograd
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        rows = [str(label) for label in main_screen(app).timeline.labels()]
        assert any(row.strip().startswith("▾ !0 compiled autograd ✓ ↻") for row in rows), rows
        assert any("↻ cache miss: !0: Cache miss due to new autograd node" in row for row in rows), rows
        app.jump_to(Ref("!0", "ca_graph"))
        await pilot.pause()
        assert "Compiled autograd graph" in header_text(app)
        assert "class CompiledAutograd0(torch.nn.Module)" in shown_text(app)


def test_dynamo_skips_tcdebugs_files_but_not_the_bundled_samples() -> None:
    """Installed, the samples are in tcdebug's folder (`tcdebug/samples/mlp.py`): they are user
    scripts that Dynamo must compile. Checked on the installed layout (`.ci/installed_layout.py`
    builds it), with torch's own rule for files."""
    spec = importlib.util.spec_from_file_location("installed_layout", ROOT / ".ci" / "installed_layout.py")
    assert spec is not None and spec.loader is not None
    layout = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(layout)
    tree = layout.build_tree()
    code = (
        "import json, os, torch, tcdebug\n"
        "from tcdebug.capture.setup import keep_dynamo_out\n"
        "from torch._dynamo import trace_rules\n"
        "keep_dynamo_out(torch)\n"
        "root = os.path.dirname(tcdebug.__file__)\n"
        "names = ['samples/mlp.py', 'capture/calls.py', 'analysis/why.py', 'debuggee/runner.py']\n"
        "skipped = {n: trace_rules.check_file(os.path.join(root, n)).skipped for n in names}\n"
        "print(json.dumps([root, skipped, trace_rules._recompile_re.__module__]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env, cwd=tree)
    assert proc.returncode == 0, proc.stderr[-2000:]
    root, skipped, recompile_module = json.loads(proc.stdout.strip().splitlines()[-1])
    assert Path(root) == tree / "tcdebug" and (tree / "tcdebug" / "samples" / "mlp.py").is_file()
    assert skipped == {
        "samples/mlp.py": False,
        "capture/calls.py": True,
        "analysis/why.py": True,
        "debuggee/runner.py": True,
    }
    assert recompile_module == "torch._dynamo.trace_rules"  # the skip list's pattern compiled once, by torch's own


def test_corpus_models_compare_the_same(hf: tuple[Session, dict], shared_dumps: SharedDumps) -> None:
    """No false alarm: every corpus compile whose graph was kept compares the same as eager (or float
    reassociation) by torch's criterion, in every layer, gradients included (docs/accuracy.md)."""
    session = hf[0]
    compared = {cid: c.accuracy for cid, c in session.compiles.items() if c.accuracy is not None}
    functions = {session.compiles[cid].function for cid in compared}
    assert {"forward"} <= functions  # each model's forward graph was kept and compared
    training = [acc for acc in compared.values() if acc.training]
    assert training, "the corpus trains: its graphs compare gradients too"
    for cid, acc in compared.items():
        assert acc.status == "same", f"{cid}: {acc.summary}; {acc.layers}; {acc.not_compared}"
        assert {layer.name for layer in acc.layers} == {"eager", "aot_eager", "inductor"}
        assert all(layer.verdict in ("reference", "same", "reassociation") for layer in acc.layers)
    assert "accuracy:" in shared_dumps.get("hf_dump").stdout
