"""A big log is read on both cores (tcdebug.trace.worker): this process reads its first part
while a child reads the rest, and in the app a child converts the records. The session must
be exactly the one the serial reader gives, wherever the log is cut, and every child must end
with tcdebug."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, processes_naming

from tcdebug.dump.index import index_json, session_index
from tcdebug.model.session import Session
from tcdebug.trace import TraceStats, load_log, worker
from tcdebug.trace.log_events import iter_trace_events
from tcdebug.trace.reader import read_records, split_point

TRACES = ROOT / "tests" / "data" / "traces"
LOGS = sorted(TRACES.rglob("*.log"))
PREFIX = "V1123 10:42:56.562000 5420 torch/x.py:1] "


def snapshot(session: Session) -> tuple[str, list[str], dict[str, int] | None]:
    return index_json(session_index(session)), list(session.notes), session.trace_stats


def load(path: Path, children: bool, monkeypatch: pytest.MonkeyPatch) -> Session:
    monkeypatch.setenv(worker.CHILDREN_ENV, "1" if children else "0")
    return load_log(path)


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.parent.name)
def test_children_give_the_serial_session(log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    serial = snapshot(load(log, False, monkeypatch))
    assert snapshot(load(log, True, monkeypatch)) == serial


@pytest.mark.parametrize("share", [0.05, 0.5, 0.95])
def test_wherever_the_log_is_cut(share: float, monkeypatch: pytest.MonkeyPatch) -> None:
    log = next((TRACES / "graph_breaks").glob("*.log"))
    monkeypatch.setattr(worker, "FIRST_PART", share)
    serial = snapshot(load(log, False, monkeypatch))
    assert snapshot(load(log, True, monkeypatch)) == serial


def test_a_child_started_beside_threads_is_spawned_not_forked(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    log = next((TRACES / "graph_breaks").glob("*.log"))
    serial = snapshot(load(log, False, monkeypatch))
    forks: list[int] = []
    real_fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or real_fork())
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert snapshot(load(log, True, monkeypatch)) == serial
    finally:
        release.set()
        thread.join()
    assert forks == []  # forking a process with threads is unsafe: `python -m tcdebug.trace.worker`


def record(envelope: dict, lines: list[bytes] | None = None, md5: str | None = None) -> bytes:
    if lines is not None:
        envelope["has_payload"] = md5 or hashlib.md5(b"\n".join(lines)).hexdigest()
    head = (PREFIX + json.dumps(envelope) + "\n").encode()
    return head + b"".join(b"\t" + line + b"\n" for line in lines or [])


def test_a_cut_keeps_interned_names_line_numbers_md5_flags_and_truncation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame = {"frame_id": 0, "frame_compile_id": 0}
    stack = [{"line": 3, "name": "f", "filename": 1}, {"line": 4, "name": "g", "filename": 2}]
    first = record({"str": ["/user/model.py", 1]}) + record({"dynamo_start": {"stack": stack}, **frame})
    second = (
        record({"str": ["/user/late.py", 2]})
        + record({"dynamo_output_graph": {}, **frame}, [b"graph"], md5="0" * 32)  # a wrong md5
        + record({"dynamo_start": {"stack": stack}, "frame_id": 1, "frame_compile_id": 0})
        + record({"inductor_output_code": {}, **frame}, [b"code", b"more"])[:-8]  # truncated
    )
    log = tmp_path / "cut.log"
    log.write_bytes(first + b"\n" * 3 + second)
    cut = split_point(log, len(first) + 1)
    assert cut == len(first) + 1  # a blank line starts no payload: the log can be cut there
    monkeypatch.setattr(worker, "FIRST_PART", cut / log.stat().st_size)

    def records(children: bool) -> tuple[list[tuple], dict[str, int]]:
        stats = TraceStats()
        source = worker.records_in_children(log, stats) if children else read_records(log, stats)
        rows = [
            (r.lineno, r.key, r.envelope, r.md5_ok, r.ref and (r.ref.offset, r.ref.length)) for r in source
        ]
        return rows, stats.as_dict()

    rows, stats = records(True)
    assert (rows, stats) == records(False)
    assert rows[0][2]["dynamo_start"]["stack"][0]["filename"] == "/user/model.py"
    later = rows[-1][2]["dynamo_start"]["stack"]  # interned before the cut and after it
    assert [f["filename"] for f in later] == ["/user/model.py", "/user/late.py"]
    assert [r[3] for r in rows].count(False) == 1 and stats["truncated"] == 1
    assert snapshot(load(log, True, monkeypatch)) == snapshot(load(log, False, monkeypatch))


def test_an_unreadable_log_is_one_line_before_any_child_starts(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a regular file"):
        list(worker.records_in_children(tmp_path, TraceStats()))
    with pytest.raises(FileNotFoundError):
        worker.events_in_child(tmp_path / "missing.log", TraceStats())


def test_events_from_a_child_are_the_serial_events() -> None:
    log = next((TRACES / "graph_breaks").glob("*.log"))
    serial_stats, child_stats = TraceStats(), TraceStats()
    serial = list(iter_trace_events(log, serial_stats, children=False))
    from_child = list(worker.events_in_child(log, child_stats))
    assert [shown(e) for e in from_child] == [shown(e) for e in serial]
    assert child_stats == serial_stats


def shown(event: object) -> tuple[type, dict]:
    """An event's fields, its loader and lazy kernels replaced by the text they give."""
    fields = dict(vars(event))
    if fields.get("loader") is not None:
        fields["loader"] = fields["loader"]()
    if fields.get("lazy_kernels") is not None:
        fields["lazy_kernels"] = [(k.name, k.source) for k in fields["lazy_kernels"]]
    return type(event), fields


def test_a_child_that_dies_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    log = next((TRACES / "graph_breaks").glob("*.log"))
    stream = worker.events_in_child(log, TraceStats())
    stream.proc.kill()
    with pytest.raises(OSError, match="the log reader process ended unexpectedly"):
        list(stream)
    assert stream.proc.returncode is not None


def _processes_reading(path: Path) -> list[int]:
    return processes_naming("tcdebug.trace.worker", str(path))


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="lists processes through /proc")
async def test_the_app_reads_a_big_log_in_children_that_end_when_it_quits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tcdebug.screens.app import TcdebugApp
    from tcdebug.trace import new_trace_session

    seed = next((TRACES / "graph_breaks").glob("*.log")).read_bytes()
    log = tmp_path / "big.log"
    # ~330 MB, a few seconds of reading (the app reads 122 MB in about 1.4 s), still going when the
    # app quits; written in pieces, never held whole
    with log.open("wb") as f:
        for _ in range(250):
            f.write(seed)
    monkeypatch.setenv(worker.CHILDREN_ENV, "1")
    app = TcdebugApp(new_trace_session(log), read_only=True, stream_trace=str(log))
    async with app.run_test(size=(100, 30)) as pilot:
        deadline = time.monotonic() + 30
        seen: set[int] = set()  # every child seen: the reader of the second part may end first
        while len(seen) < 2 and time.monotonic() < deadline:
            seen.update(_processes_reading(log))
            await pilot.pause(0.02)
        children = sorted(seen)
        # the converter, and the reader of the log's second part; where none started, the app
        # reads the log itself (`_read_trace`: an OSError starting them), and says what it holds
        assert len(children) == 2, (
            children,
            app._trace_children,
            app.session.extra.get("recorded_state"),
            len(os.listdir("/proc/self/fd")),
            [n.message for n in app._notifications],
        )
        assert app.session.extra.get("recorded_state")  # still reading
        await pilot.press("q")
    deadline = time.monotonic() + 2  # far sooner than the children would finish reading
    while _processes_reading(log) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _processes_reading(log) == []
    for pid in children:
        assert (
            not Path(f"/proc/{pid}").exists()
            or b"Z" in Path(f"/proc/{pid}/stat").read_bytes().split(b")")[1][:3]
        )
    assert os.path.exists(log)
    log.unlink()  # pytest keeps the last runs' folders: not a third of a gigabyte of them


async def test_the_app_says_it_reads_a_log_itself_when_no_reader_process_can_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Starting the reader processes fails for real (no Python to start them with): the app reads
    the log itself, whole, and says why it is slower."""
    import sys

    from tcdebug.screens.app import TcdebugApp
    from tcdebug.trace import new_trace_session

    log = next((TRACES / "graph_breaks").glob("*.log"))
    monkeypatch.setenv(worker.CHILDREN_ENV, "1")
    monkeypatch.setattr(sys, "executable", str(Path(tempfile.gettempdir()) / "no-such-python"))
    app = TcdebugApp(new_trace_session(log), read_only=True, stream_trace=str(log))
    async with app.run_test(size=(100, 30)) as pilot:
        deadline = time.monotonic() + 30
        while app.session.extra.get("recorded_state") and time.monotonic() < deadline:
            await pilot.pause(0.05)
        messages = [n.message for n in app._notifications]
        assert any("reader processes could not start" in m for m in messages), messages
        assert app._trace_children is None
        assert len(app.session.compiles) == len(load(log, False, monkeypatch).compiles) >= 4
        await pilot.press("q")


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("trace", ["graph_breaks", "mlp_provenance"])
def test_a_dump_written_by_two_processes_is_the_serial_dump(
    trace: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tcdebug.dump import writer as dump

    log = next((TRACES / trace).glob("*.log"))
    dump.write_dump(load(log, False, monkeypatch), tmp_path / "serial")
    session = load(log, True, monkeypatch)
    forks = []
    real_fork = os.fork
    monkeypatch.setattr(dump.os, "fork", lambda: forks.append(1) or real_fork())
    monkeypatch.setattr(dump, "PARALLEL_MIN_STAGES", 1)
    dump.write_dump(session, tmp_path / "two")
    assert forks == [1]
    tree = _tree(tmp_path / "two")
    assert tree == _tree(tmp_path / "serial")
    assert any(name.endswith("why.md") for name in tree)
    assert not any(name.endswith("provenance.json") for name in tree)  # read from the stage files


def test_when_the_writing_child_fails_the_dump_is_written_serially_as_always(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child that fails leaves its share unwritten; this process then names and writes every
    file itself, and the index (made once already, on names it took back) says what the serial
    dump says."""
    from tcdebug.dump import writer as dump

    log = next((TRACES / "mlp_provenance").glob("*.log"))
    dump.write_dump(load(log, False, monkeypatch), tmp_path / "serial")
    session = load(log, True, monkeypatch)
    parent, real_share = os.getpid(), dump._write_share
    shares = []

    def failing_in_the_child(*args: object, **kwargs: object) -> Iterator[str]:
        if os.getpid() != parent:
            raise OSError("the child's disk is full")
        shares.append(1)
        yield from real_share(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(dump, "_write_share", failing_in_the_child)
    monkeypatch.setattr(dump, "PARALLEL_MIN_STAGES", 1)
    calls: list[int] = []
    dump.write_dump(session, tmp_path / "two", meanwhile=lambda: calls.append(1))
    assert shares == [1]  # this process's share ran (the child's ran in the child), then the fallback
    assert calls == [1]  # the summary's work, once, though the files were then written again
    assert _tree(tmp_path / "two") == _tree(tmp_path / "serial")


def test_the_summary_is_made_while_the_child_writes_with_every_stage_file_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`open --dump` makes its summary while the forked writer writes its share: before the index
    is in place, in this process, with every stage file named as the serial dump names it, so
    the summary is the serial one."""
    import json

    from tcdebug.analysis.summary import summary_text
    from tcdebug.dump import writer as dump

    log = next((TRACES / "graph_breaks").glob("*.log"))
    serial = load(log, False, monkeypatch)
    dump.write_dump(serial, tmp_path / "serial")
    expected = summary_text(serial, out="OUT")
    session = load(log, True, monkeypatch)
    monkeypatch.setattr(dump, "PARALLEL_MIN_STAGES", 1)
    seen: list[tuple[int, str, list[object]]] = []

    def meanwhile() -> None:
        index = json.loads((tmp_path / "two" / "session.json").read_text())
        seen.append((os.getpid(), summary_text(session, out="OUT"), index["compiles"]))

    forks: list[int] = []
    real_fork = os.fork
    monkeypatch.setattr(dump.os, "fork", lambda: forks.append(1) or real_fork())
    dump.write_dump(session, tmp_path / "two", meanwhile=meanwhile)
    assert forks == [1]
    assert [(pid, text) for pid, text, _ in seen] == [(os.getpid(), expected)]
    assert seen[0][2] == []  # the index named no compile yet: the dump was not finished
    assert "stage files" in expected and _tree(tmp_path / "two") == _tree(tmp_path / "serial")


def _children_of(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="lists processes through /proc")
def test_ctrl_c_ends_open_dump_and_its_reader_child(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    seed = next((TRACES / "graph_breaks").glob("*.log")).read_bytes()
    log = tmp_path / "big.log"
    log.write_bytes(seed * 200)  # ~260 MB: still reading when Ctrl-C comes, even on a fast machine
    env = {**os.environ, worker.CHILDREN_ENV: "1"}
    cmd = [sys.executable, "-m", "tcdebug", "open", str(log), "--dump", str(tmp_path / "out")]
    proc = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not _children_of(proc.pid) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    children = _children_of(proc.pid)
    assert children, "no reader child started"
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in a terminal: the whole foreground group
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err.decode().strip().splitlines()[-1] == "tcdebug: interrupted"
    deadline = time.monotonic() + 5
    while any(_running(c) for c in children) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(_running(c) for c in children)


def test_a_fresh_stage_file_is_written_in_place_and_never_through_a_link(tmp_path: Path) -> None:
    from tcdebug.dump.safe_fs import DumpError, write_file

    write_file(tmp_path, "a/new.py", "new", fresh=True)
    assert (tmp_path / "a" / "new.py").read_text() == "new"
    outside = tmp_path / "outside.txt"
    outside.write_text("theirs")
    os.link(outside, tmp_path / "a" / "linked.py")
    write_file(tmp_path, "a/linked.py", "ours", fresh=True)  # there already: replaced, not written into
    assert outside.read_text() == "theirs" and (tmp_path / "a" / "linked.py").read_text() == "ours"
    (tmp_path / "a" / "sym.py").symlink_to(outside)
    write_file(tmp_path, "a/sym.py", "ours", fresh=True)  # the link is replaced, never followed
    assert outside.read_text() == "theirs" and not (tmp_path / "a" / "sym.py").is_symlink()
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(DumpError):
        write_file(tmp_path, "b/x.py", "ours", fresh=True)
    assert not (tmp_path / "a" / "x.py").exists()


def test_without_a_temporary_file_one_process_reads_it_all(monkeypatch: pytest.MonkeyPatch) -> None:
    log = next((TRACES / "graph_breaks").glob("*.log"))
    serial = snapshot(load(log, False, monkeypatch))

    def no_room() -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "TemporaryFile", no_room)  # the worker imports it where it reads in parts
    monkeypatch.setattr(worker, "ChildStream", None)  # never reached
    assert snapshot(load(log, True, monkeypatch)) == serial


def test_a_forked_helper_leaves_ctrl_c_to_its_parent() -> None:
    import signal

    from tcdebug.forked import Forked

    def run() -> int:  # exit 0 only where a Ctrl-C cannot raise KeyboardInterrupt in the child
        ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        return 0 if ignored and signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set()) else 1

    child = Forked(run)
    assert child.wait() == 0
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the parent's, as it was
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
