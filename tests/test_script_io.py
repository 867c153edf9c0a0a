"""The script's output, stdin, descriptors and signals under tcdebug, as under python.

Every test runs real processes: `tcdebug --dump` (or the controller) on a real script, beside
`python` on the same script where the two must agree."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import DATA, ROOT, SCRIPTS, run_tcdebug

from tcdebug.model import commands, protocol
from tcdebug.model.events import Event, Output
from tcdebug.model.session import OUTPUT_CHUNK_CHARS, Session
from tcdebug.process import proctree
from tcdebug.process.controller import TargetController


def _env(unbuffered: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return env


def _python(script: Path, *args: str, env: dict[str, str] | None = None, stdin: str = "") -> str:
    proc = subprocess.run(
        [sys.executable, str(script), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    return proc.stdout + proc.stderr


def _dump(
    out: Path, script: Path, *args: str, env: dict[str, str], stdin: str | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tcdebug", "--dump", str(out), str(script), *args],
        cwd=ROOT,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


# ----- output ------------------------------------------------------------------------------
def test_output_txt_is_appended_never_rewritten(tmp_path: Path) -> None:
    """output.txt is created once and appended to as the script prints (rewriting it whole as
    it grows is quadratic): its inode never changes during the run."""
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tcdebug", "--dump", str(out), str(SCRIPTS / "prints_slowly.py"), "4"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=_env(unbuffered=True),
    )
    inodes: set[int] = set()
    sizes: list[int] = []
    try:
        while proc.poll() is None:
            try:
                st = os.stat(out / "output.txt")
            except FileNotFoundError:
                pass
            else:
                inodes.add(st.st_ino)
                sizes.append(st.st_size)
            time.sleep(0.05)
    finally:
        proc.wait(timeout=120)
    assert proc.returncode == 0
    text = (out / "output.txt").read_text()
    assert text == _python(SCRIPTS / "prints_slowly.py", "4")
    assert len({s for s in sizes if s}) >= 2, "the output was seen growing"
    inodes.add(os.stat(out / "output.txt").st_ino)
    assert len(inodes) == 1, "output.txt was replaced while it grew"


def test_session_output_chunks_stay_bounded() -> None:
    """`str +=` on a chunk copies it whole: chunks stop growing at OUTPUT_CHUNK_CHARS, so
    appending costs linear time, and the text is the same."""
    session = Session()
    line = "a line of output that is about sixty characters long ......\n"
    for _ in range(20_000):
        session.apply(Output(stream="stdout", text=line))
    session.apply(Output(stream="stderr", text="err\n"))
    assert session.output_text() == line * 20_000 + "err\n"
    assert len(session.output) > 2
    assert all(len(chunk.text) < OUTPUT_CHUNK_CHARS + len(line) for chunk in session.output)
    assert [c.stream for c in session.output[-2:]] == ["stdout", "stderr"]


def test_block_buffered_stdout_keeps_its_order_with_stderr(tmp_path: Path) -> None:
    """Under --dump stdout is block-buffered, as python's is into a file; a write to stderr
    sends stdout's block first, so the order is the order written."""
    out = tmp_path / "out"
    proc = _dump(out, SCRIPTS / "print_then_raise.py", env=_env(unbuffered=False))
    assert proc.returncode == 1, proc.stderr
    text = (out / "output.txt").read_text()
    order = [text.index(s) for s in ("first: stdout", "second: stderr", "third: stdout", "Traceback")]
    assert order == sorted(order), text


def test_many_lines_under_dump_match_python(tmp_path: Path) -> None:
    out = tmp_path / "out"
    script = tmp_path / "lines.py"
    script.write_text('for i in range(200_000):\n    print(f"line {i:08d} " + "x" * 40)\n')
    proc = _dump(out, script, env=_env(unbuffered=False))
    assert proc.returncode == 0, proc.stderr
    assert (out / "output.txt").read_text() == _python(script)


# ----- stdin, closed descriptors, syntax errors -------------------------------------------
def test_stdin_reaches_the_script_under_dump(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = _dump(out, SCRIPTS / "reads_stdin.py", env=_env(unbuffered=True), stdin="alice\n")
    assert proc.returncode == 0, proc.stderr
    assert (out / "output.txt").read_text() == "hello alice\n"


def test_a_closed_stdout_raises_ebadf_as_under_python(tmp_path: Path) -> None:
    for unbuffered in (True, False):
        out = tmp_path / f"out-{unbuffered}"
        env = _env(unbuffered)
        proc = _dump(out, SCRIPTS / "closes_stdout.py", env=env)
        assert proc.returncode == 0, proc.stderr
        text = (out / "output.txt").read_text()
        # python may add an "Exception ignored" line at its exit (its own flush): not compared
        assert text.startswith("before\nprint raised OSError 9\n"), text
        assert _python(SCRIPTS / "closes_stdout.py", env=env).startswith("before\nprint raised OSError 9\n")
        assert "after" not in text and "tcdebug" not in text and "Traceback" not in text, text


def test_a_syntax_errors_output_has_pythons_caret_block(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = _dump(out, SCRIPTS / "syntax_error.py", env=_env(unbuffered=True))
    assert proc.returncode == 1
    text = (out / "output.txt").read_text()
    assert text == _python(SCRIPTS / "syntax_error.py")
    assert "^" in text and text.rstrip().endswith("SyntaxError: invalid syntax")


def test_closing_every_descriptor_never_hangs_the_dump(tmp_path: Path) -> None:
    """`os.closerange(3, 4096)` closes tcdebug's channel and output socket; a file then opened
    under a freed number is never written to; the run ends and says what happened."""
    out = tmp_path / "out"
    proc = _dump(
        out, SCRIPTS / "closes_fds.py", env={**_env(unbuffered=True), "TORCHDYNAMO_BACKEND": "aot_eager"}
    )
    assert proc.returncode == 0, proc.stderr
    text = (out / "output.txt").read_text()
    # after the socket is gone, output goes to the plain descriptors (another pipe: its order
    # against what came before is not kept, as for C code's writes)
    lines = text.splitlines()
    assert {"before", "after", "6.0", "done"} <= set(lines), text
    assert lines.index("6.0") < lines.index("done")
    assert "the script closed tcdebug's channel" in text


# ----- ending -----------------------------------------------------------------------------
def test_sigterm_while_the_script_floods_output_ends_everything(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tcdebug", "--dump", str(out), str(SCRIPTS / "prints_forever.py")],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(unbuffered=True),
    )
    try:
        deadline = time.monotonic() + 120
        while not (out / "output.txt").exists() or (out / "output.txt").stat().st_size < 1_000_000:
            assert time.monotonic() < deadline and proc.poll() is None, "no output"
            time.sleep(0.1)
        script = [p for p in proctree.tree_of(proc.pid) if p.pid != proc.pid]
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)  # a hang fails here
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "interrupted by SIGTERM" in err
    assert script and not proctree.still_alive(script)
    assert (out / "output.txt").read_text().startswith("line 0 ")


def test_quit_during_a_rerun_ends_the_scripts_process() -> None:
    """A Quit that arrives while a re-run runs, before it pauses: the script's process must not
    wait at the re-run's first stage for a command that cannot come (nobody reads its channel)."""
    events: queue.Queue[Event] = queue.Queue()
    controller = TargetController(
        [str(SCRIPTS / "relu_only.py")], mode=protocol.MODE_RUN, on_event=events.put
    )
    controller.start()
    try:
        deadline = time.monotonic() + 240
        while events.get(timeout=max(1, deadline - time.monotonic())).type != "ready":
            pass
        controller.rerun(commands.RunRerun(specs=["x=7"], all=True, mode=protocol.MODE_STEP))
        assert controller.channel is not None
        controller.channel.send(commands.Quit().to_wire())  # the controller leaves
        assert controller.proc is not None
        controller.proc.wait(timeout=120)  # a paused, orphaned process fails here
    finally:
        controller.kill()
        controller.close(timeout=1)


# ----- trace folders ----------------------------------------------------------------------
def test_a_trace_folder_skips_links_out_and_special_files_with_a_note(tmp_path: Path) -> None:
    """A symlinked log that leads out of the folder is not followed, and a FIFO (or a device)
    is never opened: reading one would hang, or drain it (`/proc/kmsg`)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    source = DATA / "traces" / "ranks"
    for log in sorted(source.glob("*.log")):
        shutil.copy(log, logs / log.name)
    outside = tmp_path / "elsewhere.log"
    shutil.copy(next(iter(sorted(source.glob("*.log")))), outside)
    (logs / "dedicated_log_torch_trace_rank_7_link.log").symlink_to(outside)
    os.mkfifo(logs / "dedicated_log_torch_trace_rank_8_fifo.log")
    out = tmp_path / "out"
    proc = run_tcdebug("open", str(logs), "--dump", str(out), timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = (out / "session.json").read_text()
    assert "rank_7_link.log: skipped: a symbolic link out of the folder" in text
    assert "rank_8_fifo.log: skipped: not a regular file (a FIFO)" in text
    assert sorted(p.name for p in (out / "ranks").iterdir()) == ["0", "1"]


def test_the_appended_output_file_never_writes_through_a_planted_symlink(tmp_path: Path) -> None:
    from tcdebug.dump.safe_fs import AppendFile

    victim = tmp_path / "victim.txt"
    victim.write_text("untouched")
    out = tmp_path / "out"
    out.mkdir()
    (out / "output.txt").symlink_to(victim)
    output = AppendFile(out, "output.txt")
    output.write("first\n")
    (out / "output.txt").rename(out / "moved.txt")
    (out / "output.txt").symlink_to(victim)  # planted while it is written: the descriptor is the file's
    output.write("second\n")
    output.close()
    assert victim.read_text() == "untouched"
    assert (out / "moved.txt").read_text() == "first\nsecond\n"


def test_a_huge_line_in_a_trace_folder_is_skipped_without_being_held(tmp_path: Path) -> None:
    """`open --dump` on a folder orders its logs by their first record's time; that look must
    stream a huge line by, as the reader does. Under an address-space cap that a held copy of
    the line breaks, the log opens and the line is skipped with a note."""
    logs = tmp_path / "logs"
    logs.mkdir()
    log = logs / "dedicated_log_torch_trace_long.log"
    with open(log, "wb") as f:
        block = b"x" * (1 << 20)
        for _ in range(250):  # 250 MiB, before any record
            f.write(block)
        f.write(b"\n")
        f.write(next(iter((DATA / "traces" / "mlp").glob("*.log"))).read_bytes())
    out = tmp_path / "out"
    cap = 350 << 20
    limit = f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))"
    proc = subprocess.run(
        [sys.executable, "-c", f"{limit}; import sys; from tcdebug.cli import main; sys.exit(main())"]
        + ["open", str(logs), "--dump", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    log.unlink()
    assert proc.returncode == 0, proc.stderr
    assert (
        "dedicated_log_torch_trace_long.log: 1 lines longer than the limit skipped"
        in (out / "session.json").read_text()
    )
