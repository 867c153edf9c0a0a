"""`tcdebug torchrun …`: live multi-rank jobs through torch's own launcher (gloo, CPU, 2 ranks)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SCRIPTS, TORCH, path_report
from pilot import column_text, screen_lines, wait_until
from textual.widgets import DataTable, Static

from tcdebug.analysis.live_ranks import LiveRanks, lockstep_plan, rank_processes, rank_sessions, tagged_output
from tcdebug.model import session as model
from tcdebug.model.session import Session
from tcdebug.process import proctree
from tcdebug.process.launch import split_torchrun
from tcdebug.screens.app import TcdebugApp, build_live_app
from tcdebug.screens.diff_screen import DiffScreen
from tcdebug.screens.ranks_screen import RanksScreen
from tcdebug.screens.why_screen import WhyScreen
from tcdebug.screens.widgets.timeline import Ref, TimelineState, build_rows

pytestmark = pytest.mark.usefixtures("contained_tmpdir")  # torchrun's leftovers stay in the test's folder

ROOT = Path(__file__).resolve().parent.parent
DDP = str(ROOT / "samples" / "ddp.py")
DIVERGE = str(ROOT / "samples" / "rank_divergence.py")
FSDP = str(ROOT / "samples" / "fsdp.py")


def test_split_torchrun_finds_the_launcher_after_tcdebugs_options() -> None:
    assert split_torchrun(["--dump", "out", "torchrun", "--nproc-per-node", "2", "t.py", "-m"]) == (
        ["--dump", "out"],
        ["--nproc-per-node", "2", "t.py", "-m"],
    )
    assert split_torchrun(["-m", "torch.distributed.run", "--nnodes", "1", "t.py"]) == (
        [],
        ["--nnodes", "1", "t.py"],
    )
    assert split_torchrun(["--dump", "torchrun", "t.py"]) == (["--dump", "torchrun", "t.py"], None)  # OUT
    assert split_torchrun(["train.py", "torchrun"]) == (["train.py", "torchrun"], None)  # a script's argument
    assert split_torchrun(["-m", "pkg", "torchrun"]) == (["-m", "pkg", "torchrun"], None)


async def palette(pilot, command: str) -> None:
    """Run a command from the command palette, typed as a user would."""
    await pilot.press("ctrl+p", *["space" if ch == " " else ch for ch in command])
    await pilot.pause(0.5)
    await pilot.press("enter")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_dump(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`tcdebug --dump OUT torchrun --nproc-per-node 2 ARGS` on a free port (other jobs on the
    machine may hold torchrun's default 29500). A run that does not end in 150 s fails the test
    with the process tree as it was (the whole tree is then ended)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "tcdebug", "--dump", str(out), "torchrun", "--master-port", str(free_port())]
    proc = subprocess.Popen(
        [*cmd, "--nproc-per-node", "2", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=out.parent,
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=150)
    except subprocess.TimeoutExpired:
        # The target runs in a session of its own: list and end every descendant, not one session.
        family = [proc.pid, *(p.pid for p in proctree.tree_of(proc.pid))]
        tree = subprocess.run(
            ["ps", "-o", "pid,ppid,sid,stat,wchan:20,args", "-p", ",".join(map(str, family))],
            capture_output=True,
            text=True,
        ).stdout
        stacks = "".join(native_stacks(pid) for pid in family)
        for pid in family:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        stdout, stderr = proc.communicate()
        pytest.fail(
            f"tcdebug --dump torchrun did not end in 150 s; its processes:\n{tree}\n"
            f"their threads' native stacks:\n{stacks}\nstderr:\n{stderr[-3000:]}"
        )
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


def native_stacks(pid: int) -> str:
    """Every thread's native stack of a process, where gdb is installed (the frames of a hang:
    a futex wait says little without them)."""
    gdb = shutil.which("gdb")
    if gdb is None:
        return ""
    try:
        proc = subprocess.run(
            [gdb, "-p", str(pid), "-batch", "-nx", "-ex", "thread apply all bt 30"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        return f"== {pid}: gdb did not answer in 60 s\n"
    frames = [line for line in proc.stdout.splitlines() if line.startswith(("#", "Thread"))]
    return f"== {pid}\n" + "\n".join(frames[:400]) + "\n"


def index(path: Path) -> dict:
    return json.loads((path / "session.json").read_text())


@pytest.mark.slow
def test_dump_of_a_ddp_job_writes_both_ranks(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_dump(out, DDP, "--backend", "aot_eager", "--steps", "1")
    assert proc.returncode == 0, proc.stderr[-3000:]
    ranks = {n: index(out / "ranks" / n) for n in ("0", "1")}
    ids = {n: [c["compile_id"] for c in ix["compiles"]] for n, ix in ranks.items()}
    assert ids["0"] and ids["0"] == ids["1"]  # Dynamo's own ids, the same on both ranks
    root = index(out)
    assert root["rank"] == 0 and [c["compile_id"] for c in root["compiles"]] == ids["0"]  # OUT: rank 0
    assert root["extra"]["job"]["ranks"] == {"0": "finished (exit code 0)", "1": "finished (exit code 0)"}
    assert not [d for d in root["divergences"] if d["kind"] == "graph"]  # DDP: the same graphs
    # DDPOptimizer split the model's graph at the bucket boundary: shown as that graph break's reason.
    [split] = [gb["reason"] for c in root["compiles"] for gb in c["graph_breaks"]]
    assert split.startswith("DDPOptimizer split (not a Dynamo graph break): 2 subgraphs (submod_0, submod_1)")
    assert "rank 1: loss" in (out / "ranks" / "1" / "output.txt").read_text()
    assert "ranks: 0 in ranks/0/" in proc.stdout
    # each rank's own device, sent at its end (the job's note on CUDA follows them)
    assert [ix["device"] for ix in ranks.values()] == ["cpu", "cpu"]
    assert [p["device"] for ix in ranks.values() for p in ix["processes"]] == ["cpu", "cpu"]
    # each rank's process-group timeout (gloo's default here) arrives once its capture is in: a rank
    # imports nothing of torch before its script
    timeouts = {p["rank"]: p["pg_timeout_s"] for ix in ranks.values() for p in ix["processes"]}
    assert timeouts == {0: 1800.0, 1: 1800.0}


@pytest.mark.slow
def test_dump_keeps_the_launchers_output_and_each_rank_lets_go_of_the_scripts_module(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_dump(out, str(SCRIPTS / "model_lifetime.py"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    job = (out / "output.txt").read_text()
    assert "Setting OMP_NUM_THREADS environment variable for each process" in job  # torchrun's own
    # Each rank's lines, marked; what a rank prints from an atexit handler (after it reported its
    # exit) is its output too.
    for rank in (0, 1):  # the ranks run at once: their lines interleave, each rank's in its order
        mine = [line.removeprefix(f"[rank {rank}] ") for line in job.splitlines() if line.startswith(f"[rank {rank}] ")]
        assert "called the compiled module" in mine and "model at exit: freed" in mine, job
        assert mine.index("called the compiled module") < mine.index("model at exit: freed"), job
    assert job.count("model at exit: freed") == 2 and "alive" not in job, job
    rank1 = (out / "ranks" / "1" / "output.txt").read_text()
    assert rank1.endswith("model at exit: freed\n"), rank1
    assert "OMP_NUM_THREADS" not in rank1 and "dynamo_pgo" not in rank1  # tcdebug's PGO switch: no noise


def test_each_rank_sees_the_users_pythonpath_not_tcdebugs(tmp_path: Path) -> None:
    """The ranks start with tcdebug's package root first on PYTHONPATH; each rank's script sees
    PYTHONPATH and sys.path as `python SCRIPT` does, with the job's PYTHONPATH."""
    out, script = tmp_path / "out", str(SCRIPTS / "show_path.py")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    plain = subprocess.run([sys.executable, script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert plain.returncode == 0, plain.stderr
    expected = path_report(plain.stdout)
    proc = run_dump(out, script)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for rank in (0, 1):
        text = (out / "ranks" / str(rank) / "output.txt").read_text()
        assert path_report(text) == expected, text


@pytest.mark.slow
def test_dump_flags_a_forced_divergence_and_a_rank_that_left_early(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_dump(out, DIVERGE, "--exit-early")
    assert proc.returncode == 0, proc.stderr[-3000:]
    # Printed the moment each was known, naming the compile, the ranks and what differs.
    assert "divergence: 0/0 Dynamo FX graph differs: rank 0: graph A | rank 1: graph B" in proc.stderr
    assert "divergence: 1/0 compiled on rank 0 only (not on rank 1)" in proc.stderr
    root = index(out)
    kinds = {(d["kind"], d["compile_id"]) for d in root["divergences"]}
    assert kinds == {("graph", "0/0"), ("compile_ids", "1/0")}
    assert [c["compile_id"] for c in index(out / "ranks" / "1")["compiles"]] == ["0/0"]
    assert [c["compile_id"] for c in index(out / "ranks" / "0")["compiles"]] == ["0/0", "1/0"]
    assert index(out / "ranks" / "1")["exit_code"] == 0
    assert "rank 1: leaving early" in (out / "ranks" / "1" / "output.txt").read_text()
    assert "tanh" in next((out / "ranks" / "1" / "compiles").glob("0-0*/*dynamo_graph*")).read_text()


@pytest.mark.slow
def test_dump_of_an_fsdp2_job_writes_both_ranks_and_names_the_fsdp_hook_breaks(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_dump(out, FSDP, "--backend", "aot_eager", "--steps", "1")
    assert proc.returncode == 0, proc.stderr[-3000:]
    ranks = {n: index(out / "ranks" / n) for n in ("0", "1")}
    for label, ix in ranks.items():
        comps = {c["compile_id"]: c for c in ix["compiles"]}
        # Net.forward (0/0) breaks at block 0's FSDP2 pre-forward hook inside its loop: Dynamo falls
        # back to eager for that frame; each Block.forward compiles on its own (1/1: block 1's input
        # requires grad, block 0's does not).
        assert list(comps) == ["0/0", "1/0", "1/1"], list(comps)
        assert comps["0/0"]["function"] == "forward" and comps["0/0"]["status"] == "failed"
        [gb] = comps["0/0"]["graph_breaks"]
        assert "_fully_shard/_fsdp_common.py" in gb["user_stack"][-1]
        assert "requires_grad mismatch" in comps["1/1"]["recompile_reason"]
        assert {s["id"] for s in comps["1/0"]["stages"] if s["status"] == "captured"} >= {"dynamo_graph", "aot_forward"}
        why = next((out / "ranks" / label / "compiles").glob("0-0*/why.md")).read_text()
        assert "FSDP2 hook (inferred from the user stack)" in why
        assert "graph break in a for/while loop" in why  # why Dynamo ran Net.forward eagerly
    assert not index(out)["divergences"]  # every rank: the same compiles, graphs and breaks
    # FSDP2's hook wrapper calls torch._dynamo.disable(hook, ...) while Dynamo traces it. torch 2.14's
    # Dynamo stops at that call with a break type of its own (GB0376, "Call to
    # `torch._dynamo.disable()`", variables/functions.py); torch 2.13 stopped at the same call as a
    # call to a skipped function. One break per rank either way, counted together.
    if TORCH >= (2, 14):
        hook_break = "Call to `torch._dynamo.disable()` (at an FSDP2 hook)"
    else:
        hook_break = "Attempted to call function marked as skipped (at an FSDP2 hook)"
    assert f"1x {hook_break}" not in proc.stdout
    assert f"2x {hook_break}" in proc.stdout, proc.stdout
    assert "rank 1: loss" in (out / "ranks" / "1" / "output.txt").read_text()


@pytest.mark.slow
async def test_app_steps_an_fsdp2_job_in_lockstep_and_explains_the_fsdp_hook_break() -> None:
    app = build_live_app(
        ["tcdebug.debuggee.torchrun", "--nproc-per-node", "2", FSDP, "--backend", "aot_eager", "--steps", "1"],
        module=True,
    )

    def pauses() -> list[tuple[str, str]]:
        infos = rank_processes(app.session)
        found = [app.session.pauses.get(i.pid) for i in infos.values()]
        return [p for p in found if p is not None] if len(infos) == 2 and all(found) else []

    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: len(pauses()) == 2, what="both ranks paused")
        assert pauses() == [("0/0@r0", "source"), ("0/0@r1", "source")]
        seen = [pauses()]
        while len(seen) < 4:  # n: both step together, through Net.forward (0/0) into Block.forward (1/0)
            await pilot.press("n")
            await wait_until(pilot, lambda: pauses() not in ([], seen[-1]), what="the next stage")
            await wait_until(pilot, lambda: core_ids(pauses()) == 1, what="both ranks at one stage")
            seen.append(pauses())
        # Across the FSDP2 hooks' all-gathers (eager, between the compiles), both ranks together.
        assert [cid for cid, _ in seen[-1]] == ["1/0@r0", "1/0@r1"], seen
        await pilot.press("g")
        await wait_until(pilot, lambda: app.session.state == model.FINISHED, what="the end")
        for rank in (0, 1):
            ids = [c.compile_id for c in app.session.ordered_compiles() if c.compile_id.endswith(f"@r{rank}")]
            assert ids == [f"0/0@r{rank}", f"1/0@r{rank}", f"1/1@r{rank}"], ids
        assert not app.session.divergences
        app.main_screen.select(Ref("0/0@r1"))
        await pilot.pause(0.2)
        await pilot.press("w")  # why 0/0 broke: at block 0's FSDP2 hook
        assert isinstance(app.screen, WhyScreen)
        lines = [line for part in app.screen.parts for line in part.lines]
        assert any(line.startswith("FSDP2 hook (inferred from the user stack)") for line in lines), lines
        await pilot.press("escape")
        await pilot.press("q")


def core_ids(pauses: list[tuple[str, str]]) -> int:
    """How many different (compile id without the rank, stage) the ranks are paused at."""
    return len({(cid.rsplit("@r", 1)[0], key) for cid, key in pauses})


def rank_job(*events: dict) -> Session:
    """A live torchrun session from events as the controller delivers them (no torch)."""
    s = Session()
    for ev in [
        {
            "type": "hello",
            "pid": 100,
            "script": "tcdebug.debuggee.torchrun",
            "argv": ["tcdebug.debuggee.torchrun"],
        },
        {"type": "process", "pid": 200, "rank": 0, "label": "rank 0", "stepping": True},
        {"type": "process", "pid": 201, "rank": 1, "label": "rank 1", "stepping": True},
        *events,
    ]:
        s.apply(ev)
    return s


def stage(pid: int, rank: int, cid: str, key: str, paused: bool = True) -> dict:
    return {
        "type": "stage",
        "pid": pid,
        "rank": rank,
        "compile_id": f"{cid}@r{rank}",
        "stage": key,
        "paused": paused,
    }


def start(pid: int, rank: int, cid: str) -> dict:
    return {
        "type": "compile_start",
        "pid": pid,
        "rank": rank,
        "compile_id": f"{cid}@r{rank}",
        "function": "f",
    }


def test_lockstep_waits_for_every_rank_then_brings_the_ones_behind_up() -> None:
    s = rank_job(start(200, 0, "0/0"), stage(200, 0, "0/0", "dynamo_graph"))
    assert lockstep_plan(s) == ([], ["1"])  # rank 1 still runs: n waits for it
    s.apply(start(201, 1, "0/0"))
    s.apply(stage(201, 1, "0/0", "source"))
    assert lockstep_plan(s) == ([201], [])  # rank 1 is behind: only it steps
    s.apply(stage(201, 1, "0/0", "dynamo_graph"))
    assert lockstep_plan(s) == ([200, 201], [])  # the same stage of the same compile: both step
    s.processes[200].stepping = False  # `run rank 0 free`: lockstep follows rank 1 alone
    assert lockstep_plan(s) == ([201], [])


def test_each_rank_keeps_its_own_device_and_the_launchers_cpu_is_not_the_jobs() -> None:
    """The launcher never touches CUDA (`cpu` at its end); the ranks report `cuda (NAME)` at theirs.
    Each rank's session has its own device, and the summary does not claim the job had no GPU."""
    from tcdebug.analysis.summary import summary_text

    cuda = "cuda (NVIDIA H200)"
    s = rank_job(
        {"type": "torch", "pid": 200, "rank": 0, "torch_version": "2.11.0", "device": ""},  # capture in
        {"type": "torch", "pid": 200, "rank": 0, "torch_version": "2.11.0", "device": cuda},  # its end
        {"type": "torch", "pid": 201, "rank": 1, "torch_version": "2.11.0", "device": cuda},
        {"type": "torch", "pid": 100, "torch_version": "2.11.0", "device": "cpu"},  # the launcher's end
    )
    assert s.device == "cpu" and s.shown_device() == f"{cuda} (ranks)"
    assert [r.device for r in rank_sessions(s).values()] == [cuda, cuda]
    assert "no CUDA device" not in summary_text(s)
    assert summary_text(s).splitlines()[0].endswith("torch 2.11.0  cuda (NVIDIA H200) (ranks)")
    plain = rank_job({"type": "torch", "pid": 100, "torch_version": "2.13.0", "device": "cpu"})
    plain.processes[200].device = plain.processes[201].device = "cpu"
    assert plain.shown_device() == "cpu" and "no CUDA device" in summary_text(plain)


def test_a_missing_compile_is_flagged_only_once_the_rank_went_past_it() -> None:
    s = rank_job()
    live = LiveRanks(s)
    for ev in [
        start(200, 0, "0/0"),
        {"type": "compile_end", "pid": 200, "rank": 0, "compile_id": "0/0@r0", "status": "ok"},
        start(200, 0, "0/1"),
        {"type": "compile_end", "pid": 200, "rank": 0, "compile_id": "0/1@r0", "status": "ok"},
        start(201, 1, "0/0"),
        {"type": "compile_end", "pid": 201, "rank": 1, "compile_id": "0/0@r1", "status": "ok"},
    ]:
        s.apply(ev)
        assert live.update(ev) == []  # rank 1 may still recompile 0/1: nothing known yet
    ev = start(201, 1, "1/0")  # rank 1 went on to the next frame without 0/1
    s.apply(ev)
    [div] = live.update(ev)
    assert div.summary == "0/1 compiled on rank 0 only (not on rank 1)"
    assert live.update({"type": "compile_end", "pid": 201, "compile_id": "1/0@r1"}) == []  # said once
    ev = {"type": "process_exit", "pid": 201, "exit_code": 3, "error": "the script called sys.exit(3)"}
    s.apply(ev)
    [div] = live.update(ev)
    assert div.summary == "- rank 1 failed (exit code 3: the script called sys.exit(3)) while rank 0 went on"


def test_a_backward_a_rank_has_not_compiled_yet_is_not_missing_until_the_rank_is_past_it() -> None:
    """Inductor compiles a backward at the first `.backward()`, after its compile ended (DDP's
    bucket split: one per subgraph, last first). A rank that has not reached it yet lacks nothing."""
    s = rank_job()
    live = LiveRanks(s)

    def graph(pid: int, rank: int, part: str, text: str) -> dict:
        return {
            "type": "stage",
            "pid": pid,
            "rank": rank,
            "compile_id": f"0/0@r{rank}",
            "stage": "inductor_post_grad_graph",
            "part": part,
            "status": "captured",
            "text": text,
            "paused": False,
        }

    def end(pid: int, rank: int) -> dict:
        return {"type": "compile_end", "pid": pid, "rank": rank, "compile_id": f"0/0@r{rank}", "status": "ok"}

    for ev in [
        start(200, 0, "0/0"),
        end(200, 0),
        start(201, 1, "0/0"),
        end(201, 1),
        graph(201, 1, "backward_1", "subgraph 1's backward"),  # rank 1 first: rank 0 is still in its forward
        graph(201, 1, "backward", "subgraph 0's backward"),
        {"type": "process_exit", "pid": 201, "exit_code": 0},  # rank 1 is done: rank 0 may still compile both
    ]:
        s.apply(ev)
        assert [d for d in live.update(ev) if d.kind == "graph"] == [], ev
    ev = graph(200, 0, "backward_1", "subgraph 1's backward")
    s.apply(ev)
    assert live.update(ev) == []
    ev = {"type": "process_exit", "pid": 200, "exit_code": 0}  # rank 0 ends without subgraph 0's backward
    s.apply(ev)
    graphs = [d for d in live.update(ev) if d.kind == "graph"]
    assert [d.detail for d in graphs] == ["Inductor post-grad graph differs: rank 0: (none) | rank 1: graph B"]
    assert graphs[0].stage_key == "inductor_post_grad_graph.backward"


def test_a_divergence_seen_while_a_rank_still_compiled_is_completed_in_place() -> None:
    s = rank_job({"type": "process", "pid": 202, "rank": 2, "label": "rank 2", "stepping": True})
    live = LiveRanks(s)

    def end(pid: int, rank: int, breaks: int) -> list:
        new = []
        for ev in [
            start(pid, rank, "0/0"),
            *[{"type": "graph_break", "pid": pid, "rank": rank, "compile_id": f"0/0@r{rank}", "reason": "x"}]
            * breaks,
            {"type": "compile_end", "pid": pid, "rank": rank, "compile_id": f"0/0@r{rank}", "status": "ok"},
        ]:
            s.apply(ev)
            new += live.update(ev)
        return new

    assert end(200, 0, 1) == []
    [div] = end(201, 1, 0)  # rank 2 still runs: flagged with what is known
    assert div.detail == "breaks differently: rank 0: 1 graph break; rank 1: 0 graph breaks"
    assert end(202, 2, 1) == []  # not new, but completed
    [div] = s.divergences
    assert div.detail == "breaks differently: ranks 0, 2: 1 graph break; rank 1: 0 graph breaks"


def test_the_output_pane_marks_each_ranks_lines() -> None:
    s = rank_job(
        {"type": "output", "stream": "stderr", "text": "launcher says\n"},
        {"type": "output", "stream": "stdout", "rank": 0, "pid": 200, "text": "a\nb"},
        {"type": "output", "stream": "stdout", "rank": 1, "pid": 201, "text": "c\n"},
        {"type": "output", "stream": "stdout", "rank": 0, "pid": 200, "text": " more\n"},
    )
    assert tagged_output(s) == "launcher says\n[rank 0] a\n[rank 0] b\n[rank 1] c\n[rank 0]  more\n"
    assert [c.text for c in rank_sessions(s)["1"].output] == ["c\n"]  # OUT/ranks/1/output.txt


def shown_ranks(screen: RanksScreen) -> dict[str, str]:
    """Rank -> the status the open ranks screen paints now (its table, not the session)."""
    table = screen.query_one("#ranks-table", DataTable)
    return {str(table.get_row_at(i)[1]): str(table.get_row_at(i)[-1]) for i in range(table.row_count)}


def shown_divergences(screen: RanksScreen) -> list[str]:
    table = screen.query_one("#divergences-table", DataTable)
    return [" ".join(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]


def shown_output(screen: RanksScreen) -> str:
    pane = screen.query_one("#rank-output", Static)
    return f"{pane.border_title}\n{pane.render()}"


@pytest.mark.slow
async def test_four_ranks_live_lockstep_divergence_early_exit_on_the_ranks_screen_as_it_happens() -> None:
    """4 ranks in lockstep (n from the main screen and from `R`), one rank followed alone, then
    released: `R` stays open while they diverge, leave and finish; its rows, divergences and the
    output pane refresh as events arrive. The timeline warns under each rank's diverging compile
    and `d` diffs two ranks' versions."""
    app = build_live_app(
        ["tcdebug.debuggee.torchrun", "--nproc-per-node", "4", DIVERGE, "--exit-early"], module=True
    )

    def pauses() -> list[tuple[str, str]]:
        infos = rank_processes(app.session)
        found = [app.session.pauses.get(i.pid) for i in infos.values()]
        return [p for p in found if p is not None] if len(infos) == 4 and all(found) else []

    told: list[str] = []  # every toast, as the user saw it
    notify = app.notify
    app.notify = lambda msg, **kw: (told.append(msg), notify(msg, **kw))[1]  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: len(pauses()) == 4, what="all four ranks paused")
        assert pauses() == [(f"0/0@r{r}", "source") for r in range(4)]  # lockstep: the same stage
        assert "process group timeout 30 min" in " ".join(told)
        await pilot.press("R")
        screen = app.screen
        assert isinstance(screen, RanksScreen)
        assert shown_ranks(screen) == {str(r): "paused at source of 0/0" for r in range(4)}
        assert "(nothing printed yet)" in shown_output(screen)
        await pilot.press("n")  # n from the open ranks screen: all four step together
        await wait_until(
            pilot,
            lambda: set(shown_ranks(screen).values()) == {"paused at bytecode_before of 0/0"},
            what="the open screen shows every rank's next stage",
        )
        assert app.screen is screen  # never closed and reopened
        await pilot.press("escape")
        labels = [str(r.label) for r in build_rows(app.session, TimelineState(live=True))]
        assert any(text.startswith("■ rank 3 (pid") and "paused at" in text for text in labels), labels
        # Follow one rank: lockstep off, n drives only the rank paused last; the others stay put.
        await palette(pilot, "lockstep off")
        assert not app.lockstep
        before = pauses()
        followed = app.session.paused_pid
        await pilot.press("n")
        await wait_until(pilot, lambda: app.session.pauses.get(followed) not in (None, *before), what="one step")
        others = [i.pid for i in rank_processes(app.session).values() if i.pid != followed]
        assert all(app.session.pauses.get(pid) in before for pid in others)  # still where they were
        await palette(pilot, "lockstep on")
        assert app.lockstep
        await pilot.press("R")
        screen = app.screen
        assert isinstance(screen, RanksScreen)
        await pilot.press("g")  # release every rank: rank 1 leaves after 0/0, the others go on
        await wait_until(
            pilot,
            lambda: set(shown_ranks(screen).values()) == {"finished (exit code 0)"},
            what="every rank finished, on the open screen",
        )
        await wait_until(pilot, lambda: len(shown_divergences(screen)) >= 2, what="the divergences")
        divs = shown_divergences(screen)
        assert any(d.startswith("0/0 graph 1 ") and "rank 1: graph B" in d for d in divs), divs
        assert "1/0 compile ids 1 compiled on ranks 0, 2, 3 only (not on rank 1)" in divs, divs
        table = screen.query_one("#ranks-table", DataTable)
        rows = {str(table.get_row_at(i)[1]): table.get_row_at(i) for i in range(4)}
        assert [rows[str(r)][2] for r in range(4)] == ["2", "1", "2", "2"]  # compiles: rank 1 left early
        assert [rows[str(r)][6] for r in range(4)] == ["", "yes", "", ""]  # diverges
        await pilot.press("down")  # the cursor on rank 1: its output
        assert "output of rank 1" in shown_output(screen) and "rank 1: leaving early" in shown_output(screen)
        await pilot.press("down")
        assert "rank 2: done" in shown_output(screen) and "leaving early" not in shown_output(screen)
        assert app.screen is screen
        await pilot.press("enter")  # rank 2's first compile on the main screen
        assert app.screen is app.main_screen and app.main_screen.selected.compile_id == "0/0@r2"
        assert any("ranks diverge: 0/0 Dynamo FX graph differs" in t for t in told), told
        labels = [str(r.label) for r in build_rows(app.session, TimelineState(live=True))]
        # Flagged as soon as two ranks had ended 0/0, completed as the others ended it.
        warned = [t for t in labels if t.startswith("  ≠ Dynamo FX graph differs: ranks 0, 2, 3: graph A")]
        assert len(warned) == 4 and all("rank 1: graph B" in t for t in warned), labels  # under each 0/0
        assert any("■ rank 1 (pid" in text and "finished (exit code 0)" in text for text in labels), labels
        app.main_screen.select(Ref("0/0@r1", "dynamo_graph"))
        await pilot.pause(0.2)
        await pilot.press("d")  # two ranks' versions of the diverging compile
        assert isinstance(app.screen, DiffScreen) and app.screen.other_id == "0/0@r0"
        await pilot.press("escape")
        await pilot.press("q")


async def test_the_open_ranks_screen_shows_each_ranks_state_and_output_as_events_arrive() -> None:
    """The events a live job's controller delivers, through the app's own event path (no torch):
    the open `R` screen repaints a rank that runs, pauses, prints and dies."""
    app = TcdebugApp(Session())
    async with app.run_test(size=(100, 30)) as pilot:
        for ev in [
            {"type": "hello", "pid": 100, "script": "tcdebug.debuggee.torchrun", "argv": ["x"]},
            {"type": "process", "pid": 200, "rank": 0, "label": "rank 0", "stepping": True},
            {"type": "process", "pid": 201, "rank": 1, "label": "rank 1", "stepping": True},
        ]:
            app.forward_event(ev)
        await wait_until(pilot, lambda: len(app.session.ranks) == 2, what="two ranks")
        await pilot.press("R")
        screen = app.screen
        assert isinstance(screen, RanksScreen)
        assert shown_ranks(screen) == {"0": "running", "1": "running"}
        for ev in [
            start(200, 0, "0/0"),
            stage(200, 0, "0/0", "dynamo_graph"),
            {"type": "output", "stream": "stdout", "rank": 0, "pid": 200, "text": "step 1 [red]\n"},
            {"type": "process_end", "pid": 201},  # rank 1 ended without an exit code (killed)
        ]:
            app.forward_event(ev)
        await wait_until(pilot, lambda: shown_ranks(screen)["1"].startswith("died"), 20, "rank 1 died")
        assert shown_ranks(screen) == {
            "0": "paused at dynamo_graph of 0/0",
            "1": "died (no exit code reached tcdebug: killed, or os._exit)",
        }
        assert "output of rank 0" in shown_output(screen) and "step 1 [red]" in shown_output(screen)
        divs = shown_divergences(screen)
        assert any("rank ended" in d and "rank 1 died" in d for d in divs), divs
        assert app.screen is screen


async def test_at_80x24_the_ranks_screen_shows_each_live_status_whole() -> None:
    """At 80x24 the statuses of a live job wrap in the last column, never cut ("paused at dyna…")."""
    app = TcdebugApp(Session())
    async with app.run_test(size=(80, 24)) as pilot:
        for ev in [
            {"type": "hello", "pid": 100, "script": "tcdebug.debuggee.torchrun", "argv": ["x"]},
            {"type": "process", "pid": 200, "rank": 0, "label": "rank 0", "stepping": True},
            {"type": "process", "pid": 201, "rank": 1, "label": "rank 1", "stepping": True},
            start(200, 0, "0/0"),
            stage(200, 0, "0/0", "inductor_post_grad_graph"),
            {"type": "process_end", "pid": 201},
        ]:
            app.forward_event(ev)
        await wait_until(pilot, lambda: len(app.session.ranks) == 2, what="two ranks")
        await pilot.press("R")
        screen = app.screen
        assert isinstance(screen, RanksScreen)
        await wait_until(pilot, lambda: shown_ranks(screen)["1"].startswith("died"), 20, "rank 1 died")
        await pilot.pause()
        assert shown_ranks(screen)["0"] == "paused at inductor_post_grad_graph of 0/0"
        statuses = column_text(screen_lines(app), "rank", "log / status")
        for rank, status in shown_ranks(screen).items():
            assert "".join(status.split()) in statuses, (rank, status, statuses)


@pytest.mark.slow
def test_a_live_jobs_collective_schedules_are_compared_as_a_logs(
    tmp_path: Path, fresh_compile_cache: Path
) -> None:
    """Live, each rank's collective schedules are kept as the log's artifact stages and its graph
    execution order as the log's; once every rank has ended the ranks are compared as tlparse
    compares a log's: rank 1's extra all-reduce is a `collectives` divergence naming the first
    differing item, and its other order of graphs an `execution_order` one, printed and kept."""
    out = tmp_path / "out"
    proc = run_dump(out, str(SCRIPTS / "torchrun_collectives.py"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    detail = "collective sequences differ (rank 0: 2 | rank 1: 4); first difference at #3"
    assert f"divergence: 1/0 {detail}: rank 0: (nothing) | rank 1: all_reduce_ (1/0)" in proc.stderr
    kinds = {d["kind"]: d for d in index(out)["divergences"]}
    assert kinds["collectives"]["compile_id"] == "1/0" and kinds["collectives"]["ranks"] == ["1"], kinds
    assert kinds["execution_order"]["ranks"] == ["1"], kinds
    assert "collectives_parity" not in kinds
    for rank, reduces in (("0", 1), ("1", 2)):
        schedules = (out / "ranks" / rank / "compiles").glob("*/artifact_inductor_collective_schedule*")
        assert sum(f.read_text().count("all_reduce_") for f in schedules) == reduces, rank
    assert index(out / "ranks" / "1")["extra"]["execution_order"] == ["0/0", "1/0"]  # total, then step
