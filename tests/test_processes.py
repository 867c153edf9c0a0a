"""Every process of the script, every signal, every interruption: real child processes, real
signals, real pseudo-terminals, the real pilot."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, SCRIPTS, path_report, run_tcdebug
from pilot import status_text, wait_until
from pty_app import Pty

from tcdebug.dump.loader import load_dump
from tcdebug.model import session as model
from tcdebug.screens.app import TcdebugApp, build_live_app
from tcdebug.screens.widgets.timeline import TimelineState, build_rows

pytestmark = pytest.mark.slow

FORK = str(SCRIPTS / "fork_compiles.py")
WORKERS = str(SCRIPTS / "dataloader_workers.py")
HELPER = str(SCRIPTS / "fork_helper.py")
ALT_ON, ALT_OFF = b"\x1b[?1049h", b"\x1b[?1049l"
MOUSE_ON, MOUSE_OFF = b"\x1b[?1000h", b"\x1b[?1000l"
CURSOR_HIDE, CURSOR_SHOW = b"\x1b[?25l", b"\x1b[?25h"


def alive(pid: int) -> bool:
    """Running, not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def gone_soon(pids: list[int], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not any(alive(p) for p in pids)


def read_pids(path: Path, timeout: float = 60.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return [int(p) for p in path.read_text().split()]
        time.sleep(0.1)
    raise AssertionError(f"no pid in {path}")


def index(out: Path) -> dict:
    return json.loads((out / "session.json").read_text())


# ----- forked processes in --dump -----------------------------------------------------------
def test_dump_keeps_a_forked_childs_compiles_under_its_process(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_tcdebug("--dump", str(out), FORK, timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = index(out)
    ids = [c["compile_id"] for c in data["compiles"]]
    child = [c for c in data["compiles"] if "@" in c["compile_id"]]
    # The parent's 0/0 and 0/1, and the child's own 0/1: none overwrites another.
    assert len(ids) == 3 and ids[:2] == ["0/0", "0/1"], ids
    assert len(child) == 1 and child[0]["compile_id"] == f"0/1@{child[0]['pid']}"
    assert child[0]["process"] == f"pid {child[0]['pid']}" and child[0]["pid"] != data["main_pid"]
    assert "rank mismatch" in child[0]["recompile_reason"]
    assert data["complete"] is True
    assert "child 18.41" in (out / "output.txt").read_text()
    session = load_dump(out)
    assert session.compiles[child[0]["compile_id"]].stages["dynamo_graph"].get_text()
    # Opened later, the timeline still groups the compiles by process.
    headers = [str(r.label) for r in build_rows(session, TimelineState()) if str(r.label).startswith("■")]
    assert headers == [f"■ main process (pid {data['main_pid']})", f"■ pid {child[0]['pid']}"]
    assert f"0/1@{child[0]['pid']}" in proc.stdout


def test_dump_keeps_each_dataloader_workers_compile(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_tcdebug("--dump", str(out), WORKERS, timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = index(out)
    compiles = data["compiles"]
    assert sorted(c["process"] for c in compiles) == ["worker 0", "worker 1"]
    assert {c["compile_id"] for c in compiles} == {f"0/0@{c['pid']}" for c in compiles}
    assert len({c["pid"] for c in compiles}) == 2 and data["main_pid"] not in {c["pid"] for c in compiles}
    assert "total 11.826" in (out / "output.txt").read_text()


def test_dump_runs_a_spawned_process_without_recording_its_compiles(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_tcdebug("--dump", str(out), str(SCRIPTS / "spawn_compiles.py"), timeout=300)
    assert proc.returncode == 0, proc.stderr
    text = (out / "output.txt").read_text()
    assert "spawned child computed 9.0" in text and "spawned child exit 0" in text, text
    assert index(out)["compiles"] == []  # a fresh interpreter has no capture hooks


# ----- forked processes in the app ----------------------------------------------------------
def _finished(app) -> bool:
    return app.session.state not in (model.STARTING, model.RUNNING, model.PAUSED)


async def test_app_shows_a_forked_childs_compiles_grouped_by_process() -> None:
    app = build_live_app([FORK])  # stepping: the main process pauses, the child runs free
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session.state == model.PAUSED, what="the first pause")
        assert app.session.paused_pid is None  # the main process
        await pilot.press("g")
        await wait_until(pilot, lambda: _finished(app), what="the end of the script")
        assert app.session.state == model.FINISHED, app.session.status_line
        children = [c for c in app.session.compiles.values() if app.session.is_child(c)]
        assert len(app.session.compiles) == 3 and len(children) == 1
        child = children[0]
        assert child.compile_id == f"0/1@{child.pid}" and child.process == f"pid {child.pid}"
        labels = [str(r.label) for r in build_rows(app.session, TimelineState(live=True))]
        headers = [text for text in labels if text.startswith("■")]
        assert headers == [
            f"■ main process (pid {app.session.main_pid}) · runs free",
            f"■ pid {child.pid} · ended",
        ]
        await pilot.press("q")


async def palette(pilot, command: str) -> None:
    """Run a command from the command palette, typed as a user would."""
    await pilot.press("ctrl+p", *["space" if ch == " " else ch for ch in command])
    await pilot.pause(0.5)
    await pilot.press("enter")


async def test_app_steps_dataloader_workers_chosen_to_step(tmp_path: Path, monkeypatch) -> None:
    go = tmp_path / "go"  # the script forks its workers once this exists: after the command below
    monkeypatch.setenv("DATALOADER_WORKERS_GO", str(go))
    app = build_live_app([WORKERS])
    async with app.run_test(size=(100, 40)) as pilot:
        # Before any worker exists: every process the script forks pauses at its first stage.
        await wait_until(pilot, lambda: app.is_live and app.controller.pid is not None, what="start")
        await palette(pilot, "step new processes")
        await wait_until(pilot, lambda: app.controller.step_new_processes, what="the palette command")
        go.write_text("")
        # Both workers pause at their first stage; `n` then steps the one paused last.
        await wait_until(pilot, lambda: len(app.session.pauses) >= 2, what="both workers' pauses")
        pid = app.session.paused_pid
        assert pid is not None and app.session.processes[pid].label.startswith("worker ")
        assert app.session.paused_at == app.session.pauses[pid] == (f"0/0@{pid}", "source")
        labels = [str(r.label) for r in build_rows(app.session, TimelineState(live=True))]
        assert any(text.endswith(f"(pid {pid}) · stepping") for text in labels), labels
        await pilot.press("n")  # the worker steps on, the others wait
        await wait_until(
            pilot, lambda: app.session.pauses.get(pid) == (f"0/0@{pid}", "bytecode_before"), what="a step"
        )
        await palette(pilot, f"run {app.session.process_label(pid)} free")
        await wait_until(pilot, lambda: not app.session.processes[pid].stepping, what="run free")
        for _ in range(20):  # let every worker run free to the end
            if _finished(app):
                break
            if app.session.paused_pid is not None:
                app.step_process(app.session.paused_pid, False)
            await pilot.pause(0.2)
        await wait_until(pilot, lambda: _finished(app), what="the end of the script")
        assert app.session.state == model.FINISHED, app.session.status_line
        workers = sorted(c.process for c in app.session.compiles.values())
        assert workers == ["worker 0", "worker 1"]
        # The output has its own socket: its last chunk may land just after the script's end.
        await wait_until(pilot, lambda: "total 11.826" in app.session.output_text(), what="the script's output")
        await pilot.press("q")


# ----- output order and tracebacks ----------------------------------------------------------
def test_dump_output_keeps_the_order_and_shows_only_the_scripts_frames(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = run_tcdebug("--dump", str(out), str(SCRIPTS / "print_then_raise.py"), timeout=300)
    assert proc.returncode == 1
    text = (out / "output.txt").read_text()
    order = [text.index(s) for s in ("first: stdout", "second: stderr", "third: stdout", "Traceback")]
    assert order == sorted(order), text
    assert "runner.py" not in text and "runpy" not in text and "tcdebug" not in text, text
    assert 'print_then_raise.py", line 13, in <module>' in text
    assert text.rstrip().endswith("ValueError: boom after print")


async def test_app_output_is_one_ordered_stream_tagged_by_stream() -> None:
    app = build_live_app([str(SCRIPTS / "print_then_raise.py")], mode="run")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.target_exited or app.target_ready, what="the script's end")
        await wait_until(pilot, lambda: "ValueError" in app.session.output_text(), what="the traceback")
        markers = ("first: stdout", "second: stderr", "third: stdout", "Traceback")
        chunks = [(c.stream, c.text) for c in app.session.output if any(m in c.text for m in markers)]
        assert [s for s, _ in chunks] == ["stdout", "stderr", "stdout", "stderr"], chunks
        assert chunks[0][1] == "first: stdout\n" and chunks[1][1] == "second: stderr\n"
        assert chunks[3][1].startswith("Traceback") and "runner.py" not in chunks[3][1]
        await pilot.press("q")


# ----- the script's environment ---------------------------------------------------------------
def _path_reports(args: list[str], cwd: Path, env: dict[str, str], out: Path) -> tuple[dict, dict]:
    """`show_path`'s report under `python ARGS` and under `tcdebug --dump OUT ARGS`."""
    plain = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert plain.returncode == 0, plain.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "tcdebug", "--dump", str(out), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return path_report(plain.stdout), path_report((out / "output.txt").read_text())


@pytest.mark.parametrize("user_path", [None, ["user-libs"], ["user-libs", "ROOT"]])
def test_the_script_sees_the_users_pythonpath_not_tcdebugs(tmp_path: Path, user_path: list[str] | None) -> None:
    """tcdebug starts its target with its own package root first on PYTHONPATH; the script, and
    what it starts, see PYTHONPATH and sys.path exactly as under python (run from the checkout,
    whose root is that package root here; "ROOT" puts it in the user's PYTHONPATH too)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if user_path is not None:
        (tmp_path / "user-libs").mkdir()
        entries = [str(ROOT) if entry == "ROOT" else str(tmp_path / entry) for entry in user_path]
        env["PYTHONPATH"] = os.pathsep.join(entries)
    expected, seen = _path_reports([str(SCRIPTS / "show_path.py")], ROOT, env, tmp_path / "out")
    assert expected["pythonpath"] == env.get("PYTHONPATH")
    assert seen == expected


def test_a_module_sees_sys_path_as_under_python_m(tmp_path: Path) -> None:
    """`tcdebug -m MODULE` puts the working folder first on sys.path once, as `python -m` does."""
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    expected, seen = _path_reports(["-m", "show_path"], SCRIPTS, env, tmp_path / "out")
    assert expected["sys_path"][:2] == [str(SCRIPTS), str(tmp_path)]
    assert seen == expected


# ----- the script's objects -------------------------------------------------------------------
def test_dump_lets_go_of_the_scripts_compiled_module_before_the_interpreter_finalizes(tmp_path: Path) -> None:
    """The re-run records keep a compiled module alive after the script ends; the target drops
    them when it is ended, so the module the script dropped is gone when `atexit` handlers run."""
    proc = run_tcdebug("--dump", str(tmp_path / "out"), str(SCRIPTS / "model_lifetime.py"), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "model at exit: freed" in (tmp_path / "out" / "output.txt").read_text()
    # A forked child that runs on to the script's end serves no re-runs: it lets go at its end.
    proc = run_tcdebug("--dump", str(tmp_path / "fork"), str(SCRIPTS / "model_lifetime.py"), "fork", timeout=300)
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "fork" / "output.txt").read_text()
    assert "model at exit (child): freed" in text and "model at exit: freed" in text, text


def test_dump_writes_the_why_files_while_the_target_exits(tmp_path: Path) -> None:
    """The script has ended; the target's exit (here an atexit handler that waits) can take a
    second or more. The dump writes each compile's why.md meanwhile, not after."""
    out, go = tmp_path / "out", tmp_path / "go"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tcdebug", "--dump", str(out), str(SCRIPTS / "slow_exit.py")],
        cwd=ROOT,
        env={**os.environ, "SLOW_EXIT_GO": str(go)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not list(out.glob("compiles/*/why.md")) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert list(out.glob("compiles/*/why.md")), "no why.md while the target exits"
        assert proc.poll() is None  # still exiting: the atexit handler waits for `go`
    finally:
        go.write_text("")
        _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    assert index(out)["complete"] is True


# ----- exit codes -----------------------------------------------------------------------------
def test_dump_exit_code_of_os_exit_and_of_a_signal(tmp_path: Path) -> None:
    proc = run_tcdebug("--dump", str(tmp_path / "a"), str(SCRIPTS / "exits_hard.py"), "5", timeout=300)
    assert proc.returncode == 5, proc.stderr
    assert "before os._exit" in (tmp_path / "a" / "output.txt").read_text()
    proc = run_tcdebug("--dump", str(tmp_path / "b"), str(SCRIPTS / "exits_hard.py"), "kill", timeout=300)
    assert proc.returncode == 128 + signal.SIGKILL, proc.stderr
    assert "SIGKILL" in proc.stderr


def test_dump_writing_yields_the_cpu_to_the_script(tmp_path: Path) -> None:
    """`--dump` lowers tcdebug's own priority once the script runs; the script keeps its own."""
    proc = run_tcdebug("--dump", str(tmp_path / "out"), str(SCRIPTS / "niceness.py"), timeout=300)
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in (tmp_path / "out" / "output.txt").read_text().splitlines() if x.startswith("script"))
    _, script, _, parent = line.split()
    assert int(parent) == min(int(script) + 10, 19)


# ----- pseudo-terminal helpers ----------------------------------------------------------------
def assert_terminal_restored(out: bytes) -> None:
    assert ALT_ON in out and out.rindex(ALT_OFF) > out.rindex(ALT_ON)
    assert MOUSE_ON in out and out.rindex(MOUSE_OFF) > out.rindex(MOUSE_ON)
    assert out.rindex(CURSOR_SHOW) > out.rindex(CURSOR_HIDE)


# ----- ending: q, signals, helpers that outlive the script ------------------------------------
def test_q_with_a_live_forked_child_ends_it_promptly(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    term = Pty(["--no-pause", HELPER, str(pids), "wait"])
    try:
        term.wait_text(b"Timeline")
        helper = read_pids(pids)
        assert alive(helper[0])
        time.sleep(0.5)
        term.press(b"q")
        start = time.monotonic()
        code = term.wait_exit(timeout=20)
        assert time.monotonic() - start < 15
        assert code == 0
        assert_terminal_restored(term.out)
        assert gone_soon(helper), "the forked helper outlived tcdebug"
    finally:
        term.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_the_app_ends_the_tree_and_restores_the_terminal(tmp_path: Path, sig: int) -> None:
    pids = tmp_path / "pids"
    term = Pty(["--no-pause", HELPER, str(pids), "wait"])
    try:
        term.wait_text(b"Timeline")
        helper = read_pids(pids)
        time.sleep(0.5)
        term.proc.send_signal(sig)
        code = term.wait_exit(timeout=20)
        assert code == 128 + sig
        assert_terminal_restored(term.out)
        assert gone_soon(helper), "the forked helper outlived tcdebug"
    finally:
        term.close()


def test_app_exit_code_of_os_exit() -> None:
    term = Pty(["--no-pause", str(SCRIPTS / "exits_hard.py"), "5"])
    try:
        term.wait_text(b"target died")
        time.sleep(0.3)
        term.press(b"q")
        assert term.wait_exit(timeout=20) == 5
        assert_terminal_restored(term.out)
    finally:
        term.close()


def test_dump_returns_when_the_script_ends_and_ends_its_helpers(tmp_path: Path) -> None:
    """A helper that left the session and lost its parent (setsid, double fork) is still found."""
    pids = tmp_path / "pids"
    start = time.monotonic()
    proc = run_tcdebug("--dump", str(tmp_path / "out"), HELPER, str(pids), "setsid", timeout=120)
    assert time.monotonic() - start < 60  # not the helper's 300 s
    assert proc.returncode == 0, proc.stderr
    helper = read_pids(pids, timeout=1)
    assert gone_soon(helper, timeout=5)
    assert f"ended 1 process(es) that outlived the script's main process: pid {helper[0]}" in proc.stdout


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_dump_finishes_the_dump_and_ends_the_tree(tmp_path: Path, sig: int) -> None:
    out, pids = tmp_path / "out", tmp_path / "pids"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tcdebug", "--dump", str(out), HELPER, str(pids), "wait"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        helper = read_pids(pids)
        target = index(out)["main_pid"]
        output = out / "output.txt"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "helper started" not in output.read_text():
            time.sleep(0.1)  # the index and output.txt are kept current while the script runs
        proc.send_signal(sig)
        stdout, _ = proc.communicate(timeout=20)
        assert proc.returncode == 128 + sig
        data = index(out)
        assert data["complete"] is True and data["state"] == "died"
        assert f"interrupted by {signal.Signals(sig).name}" in data["error"]
        assert [c["compile_id"] for c in data["compiles"]] == ["0/0"]
        assert "helper started" in (out / "output.txt").read_text()
        assert gone_soon([target, *helper]), "the script's processes outlived tcdebug"
        assert "interrupted" in stdout
    finally:
        if proc.poll() is None:
            proc.kill()


async def test_a_killed_dump_still_opens_marked_interrupted(tmp_path: Path) -> None:
    out, pids = tmp_path / "out", tmp_path / "pids"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tcdebug", "--dump", str(out), HELPER, str(pids), "wait"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    helper: list[int] = []
    target = 0
    try:
        helper = read_pids(pids)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not index(out)["compiles"]:
            time.sleep(0.1)  # the index is rewritten at every compile's end
        target = index(out)["main_pid"]
        environ = Path(f"/proc/{target}/environ").read_bytes().split(b"\0")
        socket_path = next(e for e in environ if e.startswith(b"TCDEBUG_CHILD_SOCKET=")).split(b"=", 1)[1]
        private = Path(os.fsdecode(socket_path)).parent
        assert private.is_dir()
        proc.kill()
        proc.wait(timeout=10)
        data = index(out)
        assert data["complete"] is False
        # With tcdebug gone, the target ends the script's processes and itself, and removes the
        # private folder tcdebug had no time to remove.
        assert gone_soon([target, *helper]), "the script's processes outlived a killed tcdebug"
        assert not private.exists(), f"{private} left behind by a killed tcdebug"
        session = load_dump(out)
        assert session.extra["recorded_state"] == "interrupted"
        assert list(session.compiles) == ["0/0"]
        assert session.compiles["0/0"].stages["source"].get_text()
        opened = run_tcdebug("open", str(out), "--dump", str(tmp_path / "copy"), timeout=60)
        assert opened.returncode == 0 and "interrupted" in opened.stdout, opened.stderr
        app = TcdebugApp(load_dump(out), read_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause(0.2)
            assert status_text(app) == "dump: interrupted"
    finally:
        if proc.poll() is None:
            proc.kill()
        for pid in [*helper, target]:  # tcdebug was SIGKILLed: nobody else ends them
            if pid:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
