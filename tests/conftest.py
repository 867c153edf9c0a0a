"""Shared fixtures: real `torch.compile` runs on the CPU, each run once per test session."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SCRIPTS = Path(__file__).resolve().parent / "scripts"
DATA = Path(__file__).resolve().parent / "data"
# The installed torch as (major, minor), for tests that assert what each torch version does.
TORCH = tuple(int(p) for p in version("torch").split("+")[0].split(".")[:2])


def pytest_configure(config: pytest.Config) -> None:
    """The suite's processes start as from a terminal. Started where Ctrl-C is ignored (a
    background job of a non-interactive shell ignores SIGINT), every tcdebug the tests start
    would inherit the ignoring, and the tests that press Ctrl-C on one would wait in vain."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # tcdebug keeps the user's compile caches on: each test (and each shared run) starts with an
    # empty Inductor cache of its own, so a test sees what a first run compiles, whichever ran
    # before it. Tests of warm runs fill their own. This one is for session-scoped fixtures.
    os.environ[INDUCTOR_CACHE_ENV] = tempfile.mkdtemp(prefix="tct-inductor-")
    _SESSION_ENV.update(os.environ)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(os.environ.get(INDUCTOR_CACHE_ENV, ""), ignore_errors=True)


INDUCTOR_CACHE_ENV = "TORCHINDUCTOR_CACHE_DIR"  # also where automatic-dynamic PGO keeps its profiles
# The environment the shared runs start from, as the session began: a run starts between tests or
# while a test waits, when that test's own settings (monkeypatch.setenv for its children) are in
# `os.environ`, and must not inherit them.
_SESSION_ENV: dict[str, str] = {}


@pytest.fixture(autouse=True)
def fresh_compile_cache(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty Inductor cache (FX graph, AOTAutograd, PGO profiles) for the processes this test
    starts, removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="tct-inductor-"))
    monkeypatch.setenv(INDUCTOR_CACHE_ENV, str(path))
    yield path
    shutil.rmtree(path, ignore_errors=True)


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


def processes_naming(*parts: str) -> list[int]:
    """The processes whose command line holds every one of `parts` (Linux: read from /proc; a
    forked process keeps its parent's command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if all(part.encode() in cmdline for part in parts):
                found.append(int(entry.name))
    return found


def dump_run(tmp_path_factory: pytest.TempPathFactory, name: str, *script: str) -> DumpRun:
    out = tmp_path_factory.mktemp(name) / "out"
    return _dump(out, script)


def _dump(out: Path, args: tuple[str, ...]) -> DumpRun:
    proc = run_tcdebug("--dump", str(out), *args)
    return DumpRun(out, proc.returncode, proc.stdout, proc.stderr)


# ----- runs shared by many tests, in the background ------------------------------------------------
# Most tests keep one of the two cores busy (a target process, or the app with its target). The runs
# that session-scoped fixtures need (`tcdebug --dump` of a sample, a script under plain python) start
# when the first test does, one at a time at a lower priority, and fill the other core (two at a
# time slowed the tests beside them more than they gained); the modules whose tests need them run
# last. Plain processes, no threads: tests that fork (`tcdebug.dump.writer` forks only when its
# process has no other thread) still do.
BACKGROUND_SLOTS = 1
BACKGROUND_NICE = 10
SHARED_RUN_TIMEOUT_S = 600  # a run still going then is ended, and its fixture sees its failure


@dataclass
class SharedRun:
    """A process a fixture needs: `argv` with `{dir}` in it or in `env`'s values replaced by a
    folder of its own (`env` entries of None are taken out of the test's environment); for a
    dump, `tcdebug --dump {dir}/out ARGS`."""

    folder: str
    argv: tuple[str, ...]
    env: dict[str, str | None]
    cwd: Path
    dump: bool
    fixture: str  # the fixture that needs it: a test that uses this fixture needs the run


_SHARED: dict[str, SharedRun] = {}  # run name -> the run
_FIRST_NEEDED: dict[str, int] = {}  # run name -> index of the first collected test that needs it


def share_dump(
    name: str, folder: str, *args: str, env: dict[str, str | None] | None = None, fixture: str = ""
) -> None:
    """Declare the `tcdebug --dump OUT ARGS` run `shared_dumps.get(name)` returns, needed by the
    fixture `fixture` (by default the one named `name`). Call it at import time, before the tests
    are collected."""
    argv = (sys.executable, "-m", "tcdebug", "--dump", "{dir}/out", *args)
    _SHARED[name] = SharedRun(folder, argv, env or {}, ROOT, True, fixture or name)


def share_process(
    name: str, *argv: str, env: dict[str, str | None] | None = None, cwd: Path = ROOT, fixture: str = ""
) -> None:
    """Declare a process whose result `shared_dumps.process(name)` returns, needed by the fixture
    `fixture` (by default the one named `name`)."""
    _SHARED[name] = SharedRun(name, tuple(argv), env or {}, cwd, False, fixture or name)


def share_trace(name: str, script: Path, *, fixture: str, env_var: str = "TORCH_TRACE") -> None:
    """Declare `python SCRIPT` under plain torch with `env_var`=DIR/trace (an empty cache of its own,
    as every shared run), as a shared process: its log is in `shared_dumps.folder(name) / "trace"`."""
    env = {env_var: "{dir}/trace"}
    share_process(name, sys.executable, str(script), env=env, fixture=fixture)


def _runs_needed(item: pytest.Item) -> list[str]:
    fixtures = set(getattr(item, "fixturenames", ()))
    return [name for name, run in _SHARED.items() if run.fixture in fixtures]


# Tests that run on one torch only (marked `one_torch`): CI's second torch leg (`.ci/run`,
# `-m "not one_torch"`) leaves them out, to stay within CI's time; each still runs in the first leg.
# - The modules that test tcdebug's own machinery, the same whichever torch runs beneath it. A module
#   that reads a torch API, or checks what a torch release does, is never listed here.
# - The tests of the transformers corpus (`ONE_TORCH_FIXTURES`): its GPT-2/BERT/T5 training runs are
#   the suite's costliest shared runs; on the second torch the samples, the graph-break zoo and
#   compiled autograd cover the same capture.
ONE_TORCH_MODULES = frozenset(
    {
        # processes, signals, terminals and the script's I/O, paths and timing
        "test_processes", "test_script_io", "test_script_paths", "test_pause_times", "test_terminal",
        "test_ui_80x24_fixes", "test_ui_small_terminal",
        # hostile and bad input: files, dumps and logs from others
        "test_bad_input", "test_hostile_files", "test_hostile_fuzz", "test_hostile_sinks",
        "test_hostile_sweep", "test_hostile_ui", "test_textsafe", "test_schema", "test_rerun_spec",
        # the docs, the README's flows, the Dockerfile, the benchmarks' harness and the suite's own
        "test_docs", "test_shared_runs", "test_readme_flows", "test_readme_tables", "test_dockerfile", "test_benchmarks_smoke",
        # recorded logs read without torch
        "test_trace_fast_paths", "test_trace_format", "test_trace_reader_runs", "test_trace_screen",
        "test_ui_status_bar", "test_ui_trace_logs",
    }
)  # fmt: skip
ONE_TORCH_FIXTURES = frozenset({"hf", "hf_observer"})  # tests/test_corpus.py


@pytest.hookimpl(tryfirst=True)  # before `-m` selects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests of `ONE_TORCH_MODULES`, and tests that use `ONE_TORCH_FIXTURES`, are marked `one_torch`."""
    missing = {name for name in ONE_TORCH_MODULES if not (ROOT / "tests" / f"{name}.py").is_file()}
    if missing:
        raise pytest.UsageError(f"conftest.ONE_TORCH_MODULES names no test module: {sorted(missing)}")
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if Path(str(item.fspath)).stem in ONE_TORCH_MODULES or fixtures & ONE_TORCH_FIXTURES:
            item.add_marker(pytest.mark.one_torch)


# after `-m` and `-k` have selected (every collection_modifyitems has run): only the runs those tests need
def pytest_collection_finish(session: pytest.Session) -> None:
    """Modules with a test that needs a shared run go last (in their order), so the runs have the
    rest of the suite's time; then each run is ranked by the first test that needs it."""
    items = session.items
    late = {getattr(item, "module", None) for item in items if _runs_needed(item)}
    items[:] = sorted(items, key=lambda item: getattr(item, "module", None) in late)  # a stable sort
    _FIRST_NEEDED.clear()
    for index, item in enumerate(items):
        for name in _runs_needed(item):
            _FIRST_NEEDED.setdefault(name, index)


_NICE_EXEC = "import os, sys; os.nice(int(sys.argv[1])); os.execv(sys.argv[2], sys.argv[2:])"


class _Running:
    def __init__(self, run: SharedRun, where: Path, nice: int) -> None:
        self.run, self.where = run, where
        argv = [a.replace("{dir}", str(where)) for a in run.argv]
        env = dict(_SESSION_ENV or os.environ)
        env[INDUCTOR_CACHE_ENV] = str(where / "inductor-cache")  # empty: see `pytest_configure`
        for key, value in run.env.items():
            env.pop(key, None)
            if value is not None:
                env[key] = value.replace("{dir}", str(where))
        self.stdout, self.stderr = open(where / "stdout.txt", "wb"), open(where / "stderr.txt", "wb")  # noqa: SIM115
        # started through a tiny exec that lowers its priority first (no preexec_fn: the test
        # process may have threads)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _NICE_EXEC, str(nice), *argv] if nice else argv,
            cwd=run.cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.stdout,
            stderr=self.stderr,
            start_new_session=True,
        )
        self.deadline = time.monotonic() + SHARED_RUN_TIMEOUT_S
        self.result: subprocess.CompletedProcess | None = None

    def poll(self) -> bool:
        """True once the process has ended (or was ended at its deadline)."""
        if self.result is not None:
            return True
        code = self.proc.poll()
        if code is None and time.monotonic() > self.deadline:
            self.stop()
            code = self.proc.wait()
        if code is None:
            return False
        self.stdout.close()
        self.stderr.close()
        self.result = subprocess.CompletedProcess(
            self.proc.args,
            code,
            (self.where / "stdout.txt").read_text(errors="replace"),
            (self.where / "stderr.txt").read_text(errors="replace"),
        )
        return True

    def stop(self) -> None:
        """End the run's process group (a tcdebug ends its own tree on SIGTERM)."""
        for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.proc.wait(wait)
                return
            except subprocess.TimeoutExpired:
                continue


class SharedDumps:
    """The shared runs of this test session: queued in the order the collected tests first need
    them, started `BACKGROUND_SLOTS` at a time (between tests, and while a fixture waits)."""

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        self.factory = factory
        self.queue = sorted(_FIRST_NEEDED, key=_FIRST_NEEDED.__getitem__)
        self.running: dict[str, _Running] = {}
        self.pump()

    def _start(self, name: str, nice: int) -> None:
        run = _SHARED[name]
        self.queue.remove(name)
        self.running[name] = _Running(run, self.factory.mktemp(run.folder), nice)

    def pump(self) -> None:
        busy = sum(not r.poll() for r in self.running.values())
        while self.queue and busy < BACKGROUND_SLOTS:
            self._start(self.queue[0], BACKGROUND_NICE)
            busy += 1

    def _wait(self, name: str) -> _Running:
        if name not in self.running:  # a test waits on it now: it starts ahead of the queue
            if name not in self.queue:  # its `fixture` is used by no collected test
                warnings.warn(f"shared run {name}: no collected test uses its fixture {_SHARED[name].fixture}", stacklevel=3)
                self.queue.append(name)
            self._start(name, 0)
        running = self.running[name]
        while not running.poll():
            self.pump()
            time.sleep(0.05)
        self.pump()
        return running

    def folder(self, name: str) -> Path:
        """The run's own folder (its `{dir}`), once it has started."""
        return self.running[name].where

    def process(self, name: str) -> subprocess.CompletedProcess:
        result = self._wait(name).result
        assert result is not None
        return result

    def get(self, name: str) -> DumpRun:
        running = self._wait(name)
        result = running.result
        assert result is not None and running.run.dump, name
        return DumpRun(running.where / "out", result.returncode, result.stdout, result.stderr)

    def close(self) -> None:
        self.queue.clear()
        for running in self.running.values():
            if not running.poll():
                running.stop()
                running.poll()


_BACKGROUND: list[SharedDumps] = []


@pytest.fixture(scope="session")
def shared_dumps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedDumps]:
    dumps = SharedDumps(tmp_path_factory)
    _BACKGROUND.append(dumps)
    yield dumps
    _BACKGROUND.remove(dumps)
    dumps.close()


@pytest.fixture(autouse=True, scope="session")
def _start_shared_runs(request: pytest.FixtureRequest) -> None:
    """The shared runs start with the session's first test, whichever it is."""
    if _FIRST_NEEDED:
        request.getfixturevalue("shared_dumps")


def pytest_runtest_teardown(item: pytest.Item) -> None:
    for dumps in _BACKGROUND:
        dumps.pump()


# The samples' dumps also write torch's own TORCH_TRACE log (DIR/trace), for the observer check
# against plain runs of the samples (tests/test_corpus.py).
OBSERVED_SAMPLES = {
    "mlp_dump": "mlp.py",
    "graph_breaks_dump": "graph_breaks.py",
    "dynamic_dump": "dynamic_shapes.py",
    "transformer_dump": "transformer_block.py",  # a training compile with many fused kernels
}
for _name, _sample in OBSERVED_SAMPLES.items():
    share_dump(_name, _name.removesuffix("_dump"), str(SAMPLES / _sample), env={"TORCH_TRACE": "{dir}/trace"})
# tests/scripts/cond_subgraphs.py: torch.cond under Inductor, a scheduler per branch
share_dump("cond_dump", "cond", str(SCRIPTS / "cond_subgraphs.py"))
# tests/scripts/hop_subgraphs.py: nested_compile_region and while_loop, their subgraphs lowered apart
share_dump("hop_dump", "hop", str(SCRIPTS / "hop_subgraphs.py"))
# samples/relu_bug.py under --accuracy: Inductor miscompiles its relu (tests/test_accuracy.py)
share_dump("relu_accuracy_dump", "relu_accuracy", "--accuracy", str(SAMPLES / "relu_bug.py"))
share_dump(
    "relu_train_accuracy_dump", "relu_train_accuracy", "--accuracy", str(SAMPLES / "relu_bug.py"), "--train",
    fixture="relu_train_accuracy",
)


@pytest.fixture(scope="session")
def relu_accuracy_dump(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("relu_accuracy_dump")


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
