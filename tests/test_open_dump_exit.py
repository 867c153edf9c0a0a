"""`tcdebug open LOG --dump OUT` as its own process ends without tearing the interpreter down
(`cli._exit_now`): what it printed still reaches a file or a pipe whole, and its exit status is the
command's."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import processes_naming

TRACES = Path(__file__).parent / "data" / "traces"

# the same command through `main(argv)`, which an in-process caller uses: it returns
_RETURNING = "import sys; from tcdebug.cli import main; raise SystemExit(main(sys.argv[1:]))"


def _buffered() -> dict[str, str]:
    """The environment without PYTHONUNBUFFERED (CI may set it): stdout to a file is then buffered."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def _log() -> Path:
    return next((TRACES / "graph_breaks").glob("*.log"))


def test_a_summary_written_to_a_file_is_whole(tmp_path: Path) -> None:
    """stdout to a file is block-buffered: the summary is there only if it was flushed before the
    process ended, and it is what the returning path prints."""
    ended, returned = tmp_path / "ended.txt", tmp_path / "returned.txt"
    with ended.open("w") as out:
        fast = subprocess.run(
            [sys.executable, "-m", "tcdebug", "open", str(_log()), "--dump", str(tmp_path / "a")],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env=_buffered(),
        )
    with returned.open("w") as out:
        slow = subprocess.run(
            [sys.executable, "-c", _RETURNING, "open", str(_log()), "--dump", str(tmp_path / "b")],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env=_buffered(),
        )
    assert (fast.returncode, slow.returncode) == (0, 0), fast.stderr + slow.stderr
    text = ended.read_text()
    assert "graph breaks:" in text and "dump:" in text
    assert text.replace(str(tmp_path / "a"), "OUT") == returned.read_text().replace(str(tmp_path / "b"), "OUT")
    assert (tmp_path / "a" / "session.json").is_file()


def test_a_reader_that_leaves_early_gives_status_1_and_no_traceback(tmp_path: Path) -> None:
    """`tcdebug open LOG --dump OUT | head -c 1`: the summary cannot all be written."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tcdebug", "open", str(_log()), "--dump", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_buffered(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(1)
    proc.stdout.close()  # the reader left: the rest of the summary meets a closed pipe
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) in (0, 1)  # 0 only where the whole summary fit the pipe's buffer
    assert "Traceback" not in err
    assert (tmp_path / "out" / "session.json").is_file()


def test_an_error_keeps_its_status_and_its_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tcdebug", "open", str(tmp_path / "missing.log"), "--dump", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"tcdebug: error: no such file or folder: {tmp_path / 'missing.log'}"]


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="lists processes through /proc")
def test_no_process_of_it_outlives_it(tmp_path: Path) -> None:
    """With the log read in child processes: when `open --dump` has ended, none of its processes
    is left (each is waited for, or dies with its parent)."""
    out = tmp_path / "out"
    env = {**_buffered(), "TCDEBUG_TRACE_CHILDREN": "1"}
    printed = tmp_path / "printed.txt"
    with printed.open("w") as sink:  # a file, not a pipe: a process left holding it is not waited for
        done = subprocess.run(
            [sys.executable, "-m", "tcdebug", "open", str(_log()), "--dump", str(out)],
            stdout=sink,
            stderr=subprocess.STDOUT,
            timeout=120,
            env=env,
        )
    assert done.returncode == 0, printed.read_text()
    assert "dump:" in printed.read_text()
    deadline = time.monotonic() + 5
    while processes_naming(str(out)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_naming(str(out)) == []


def test_started_with_stdout_closed_it_writes_the_dump_and_no_traceback(tmp_path: Path) -> None:
    """`tcdebug open LOG --dump OUT >&-`: Python starts with no `sys.stdout`."""
    out = tmp_path / "out"
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" "$@" >&-', sys.executable, "-m", "tcdebug", "open", str(_log()), "--dump", str(out)],
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    assert (out / "session.json").is_file()
