"""`tcdebug open LOG --dump OUT` imports only what reading a log and writing a dump need: not the
app (textual, rich, pygments), not torch, not the live side (the controller, the script's process,
the capture, the channel's socket)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TRACES = Path(__file__).parent / "data" / "traces"

NOT_IMPORTED = (
    "textual",
    "rich",
    "pygments",
    "torch",
    "tcdebug.screens",
    "tcdebug.process",
    "tcdebug.debuggee",
    "tcdebug.capture",
    "tcdebug.model.commands",
    "tcdebug.model.rerun_spec",
    "socket",
    # the child-process reader's: a log below `tcdebug.trace.worker.FORK_MIN_BYTES` is read in process
    "pickle",
    "subprocess",
)

_RUN = """
import contextlib, io, json, sys
from tcdebug.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["open", sys.argv[1], "--dump", sys.argv[2]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _modules_of_open_dump(log: Path, out: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(log), str(out)], capture_output=True, text=True, check=True
    )
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["code"] == 0, done.stderr
    assert (out / "session.json").exists()
    return list(result["modules"])


def test_open_dump_of_a_log_imports_only_what_it_needs(tmp_path: Path) -> None:
    log = next((TRACES / "mlp").glob("*.log"))
    modules = _modules_of_open_dump(log, tmp_path / "out")
    unneeded = [m for m in modules if any(m == n or m.startswith(n + ".") for n in NOT_IMPORTED)]
    assert unneeded == []
    assert "tcdebug.trace.to_session" in modules and "tcdebug.dump.writer" in modules


# Standard modules a small log's `open --dump` does without, each a few milliseconds of its start:
# hashlib loads OpenSSL (the reader checks md5s with Python's own), tempfile and shutil come with a
# named temporary file (the writer's spool has no name) and with argparse measuring the terminal;
# base64 only decodes an accuracy comparison's saved inputs.
NOT_IMPORTED_STDLIB = ("hashlib", "_hashlib", "tempfile", "shutil", "base64")


def test_open_dump_of_a_small_log_skips_costly_standard_modules(tmp_path: Path) -> None:
    """Run without `site` (whose `.pth` hooks may import them first), tcdebug found by path. The
    log has enough stages for the dump to be written on two processes, through the spool."""
    import tcdebug

    log = next((TRACES / "two_runs").glob("*.log"))
    env = {**os.environ, "PYTHONPATH": str(Path(tcdebug.__file__).resolve().parent.parent)}

    def modules(code: str, *args: str) -> set[str]:
        done = subprocess.run(
            [sys.executable, "-S", "-c", code, *args], capture_output=True, text=True, check=True, env=env
        )
        return set(json.loads(done.stdout.splitlines()[-1])["modules"])

    at_start = modules("import json, sys; print(json.dumps({'modules': sorted(sys.modules)}))")
    used = modules(_RUN, str(log), str(tmp_path / "out")) - at_start
    assert "tcdebug.dump.writer" in used and (tmp_path / "out" / "session.json").exists()
    assert sorted(used & set(NOT_IMPORTED_STDLIB)) == []


def test_cli_module_imports_no_command(tmp_path: Path) -> None:
    """Importing the console entry point's module loads none of the commands' modules."""
    done = subprocess.run(
        [sys.executable, "-c", "import json, sys, tcdebug.cli; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    modules = json.loads(done.stdout)
    assert [m for m in modules if m.startswith("tcdebug.") and m not in ("tcdebug.cli", "tcdebug.textsafe")] == []


_FROZEN = """
import contextlib, gc, io, os, sys
from tcdebug import cli
log, out, entry = sys.argv[1], sys.argv[2], sys.argv[3] == "entry"
argv = ["open", log, "--dump", out]

def report(code):  # the entry point ends the process in `_exit_now` and never returns
    sys.__stdout__.write(f"{code} {gc.get_freeze_count()}\\n")
    sys.__stdout__.flush()
    os._exit(code)

cli._exit_now = report
if entry:
    sys.argv = ["tcdebug", *argv]
with contextlib.redirect_stdout(io.StringIO()):
    code = cli.main() if entry else cli.main(argv)
print(code, gc.get_freeze_count())
"""


def test_only_tcdebugs_own_process_freezes_what_it_imported(tmp_path: Path) -> None:
    """`tcdebug` (`main()` as the process's entry point) freezes the objects its imports made, so
    no collection walks them again; `main(argv)` called by another program freezes nothing of its."""
    log = next((TRACES / "mlp").glob("*.log"))
    counts = {}
    for how in ("entry", "caller"):
        done = subprocess.run(
            [sys.executable, "-c", _FROZEN, str(log), str(tmp_path / how), how],
            capture_output=True,
            text=True,
            check=True,
        )
        code, counts[how] = map(int, done.stdout.split()[-2:])
        assert code == 0, done.stderr
    assert counts["entry"] > 10_000 and counts["caller"] == 0, counts
