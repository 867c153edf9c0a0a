"""Shared fixtures: real `torch.compile` runs on the CPU, each run once per test session."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SCRIPTS = Path(__file__).resolve().parent / "scripts"
DATA = Path(__file__).resolve().parent / "data"


def pytest_configure(config: pytest.Config) -> None:
    """The suite's processes start as from a terminal. Started where Ctrl-C is ignored (a
    background job of a non-interactive shell ignores SIGINT), every tcdebug the tests start
    would inherit the ignoring, and the tests that press Ctrl-C on one would wait in vain."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@dataclass
class DumpRun:
    out: Path
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def contained_tmpdir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """TMPDIR for the processes a test starts: a short folder of its own (a Unix socket's path must
    stay short), removed after the test with what was left in it. torchrun leaves a
    `torchelastic_*` log folder there at every run, as it does under plain `torchrun`."""
    path = Path(tempfile.mkdtemp(prefix="tct"))
    monkeypatch.setenv("TMPDIR", str(path))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run_tcdebug(
    *args: str, cwd: Path | None = None, timeout: float = 600, env: dict | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tcdebug", *args],
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def path_report(text: str) -> dict:
    """The JSON line `tests/scripts/show_path.py` prints, from a run's output."""
    line = next(line for line in text.splitlines() if line.startswith("PATH_REPORT "))
    return json.loads(line.split(" ", 1)[1])


def dump_run(tmp_path_factory: pytest.TempPathFactory, name: str, *script: str) -> DumpRun:
    out = tmp_path_factory.mktemp(name) / "out"
    return _dump(out, script)


def _dump(out: Path, args: tuple[str, ...]) -> DumpRun:
    proc = run_tcdebug("--dump", str(out), *args)
    return DumpRun(out, proc.returncode, proc.stdout, proc.stderr)


# ----- dumps shared by many tests, run two at a time ------------------------------------------------
# A `tcdebug --dump` of a sample spends much of its time in one Python thread, so two of them on this
# project's two cores take little longer than one. The session's first test that needs any of them
# starts every one the collected tests need, in the order they are first needed.
_SHARED: dict[str, tuple[str, tuple[str, ...]]] = {}  # fixture name -> (folder name, tcdebug args)
_FIRST_NEEDED: dict[str, int] = {}  # fixture name -> index of the first collected test that needs it


def share_dump(fixture: str, folder: str, *args: str) -> None:
    """Declare the `tcdebug --dump OUT ARGS` run that the fixture `fixture` returns (through
    `shared_dumps.get`). Call it at import time, before the tests are collected."""
    _SHARED[fixture] = (folder, tuple(args))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    _FIRST_NEEDED.clear()
    for index, item in enumerate(items):
        for name in getattr(item, "fixturenames", ()):
            if name in _SHARED:
                _FIRST_NEEDED.setdefault(name, index)


class SharedDumps:
    """The pool's threads end once every run is done: a test process with other threads alive
    would, for one, never take `tcdebug.dump`'s forked writer (it forks only when alone)."""

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        self.factory = factory
        self.runs: dict[str, Future[DumpRun]] = {}
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="shared-dump")
        for name in sorted(_FIRST_NEEDED, key=_FIRST_NEEDED.__getitem__):
            folder, args = _SHARED[name]
            out = factory.mktemp(folder) / "out"  # here, not in the pool's threads
            self.runs[name] = self.pool.submit(_dump, out, args)
        for run in self.runs.values():  # once all are submitted: the last one done ends the pool
            run.add_done_callback(self._done)

    def _done(self, _run: Future[DumpRun]) -> None:
        if all(run.done() for run in self.runs.values()):
            self.pool.shutdown(wait=False)  # its idle threads exit

    def get(self, name: str) -> DumpRun:
        run = self.runs.get(name)
        if run is None:  # not needed by a collected test (asked for by name): run it here
            folder, args = _SHARED[name]
            return _dump(self.factory.mktemp(folder) / "out", args)
        return run.result()


@pytest.fixture(scope="session")
def shared_dumps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedDumps]:
    dumps = SharedDumps(tmp_path_factory)
    yield dumps
    dumps.pool.shutdown(cancel_futures=True)


share_dump("mlp_dump", "mlp", str(SAMPLES / "mlp.py"))
share_dump("graph_breaks_dump", "graph_breaks", str(SAMPLES / "graph_breaks.py"))
share_dump("dynamic_dump", "dynamic", str(SAMPLES / "dynamic_shapes.py"))
# samples/transformer_block.py: a training compile with many fused kernels
share_dump("transformer_dump", "transformer", str(SAMPLES / "transformer_block.py"))
# tests/scripts/cond_subgraphs.py: torch.cond under Inductor, a scheduler per branch
share_dump("cond_dump", "cond", str(SCRIPTS / "cond_subgraphs.py"))
# tests/scripts/hop_subgraphs.py: nested_compile_region and while_loop, their subgraphs lowered apart
share_dump("hop_dump", "hop", str(SCRIPTS / "hop_subgraphs.py"))


@pytest.fixture(scope="session")
def mlp_dump(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("mlp_dump")


@pytest.fixture(scope="session")
def graph_breaks_dump(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("graph_breaks_dump")


@pytest.fixture(scope="session")
def dynamic_dump(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("dynamic_dump")


@pytest.fixture(scope="session")
def transformer_dump(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("transformer_dump")


@pytest.fixture(scope="session")
def cond_dump(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("cond_dump")


@pytest.fixture(scope="session")
def hop_dump(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("hop_dump")
