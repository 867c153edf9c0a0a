"""The script's paths are python's: `__file__` and its code's file name are absolute (python >= 3.9
makes them so), `sys.argv[0]` is as given; and tcdebug's frames are told by where tcdebug is
installed, not by a folder named `tcdebug` in the path, which a user's project may well have (a
clone of this repository is one)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import run_tcdebug

from tcdebug.dump.loader import load_dump

SCRIPT = '''\
import sys

import torch


def f(x):
    x = x + 1
    torch._dynamo.graph_break()
    return x * 2


print("PATHS", __file__, sys._getframe().f_code.co_filename, sys.argv[0], sys.path[0], flush=True)
torch.compile(f, backend="aot_eager")(torch.ones(3))
raise ValueError("boom in a folder named tcdebug")
'''
BREAK_LINE = 8  # torch._dynamo.graph_break()
RAISE_LINE = 14


def _traceback_lines(text: str) -> list[str]:
    lines = text.splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last):"))
    return lines[start:]


def test_script_paths_and_frames_are_pythons_in_a_folder_named_tcdebug(tmp_path: Path) -> None:
    project = tmp_path / "tcdebug"
    (project / "proj").mkdir(parents=True)
    script = project / "proj" / "paths.py"
    script.write_text(SCRIPT)
    plain = subprocess.run(
        [sys.executable, "proj/paths.py"], cwd=project, capture_output=True, text=True, timeout=600
    )
    proc = run_tcdebug("--dump", str(tmp_path / "out"), "proj/paths.py", cwd=project)
    assert plain.returncode == proc.returncode == 1, proc.stderr[-2000:]
    output = (tmp_path / "out" / "output.txt").read_text()

    paths = next(line for line in output.splitlines() if line.startswith("PATHS "))
    assert paths == next(line for line in plain.stdout.splitlines() if line.startswith("PATHS "))
    assert paths.split()[1:] == [str(script), str(script), "proj/paths.py", str(script.parent)]

    # the traceback is python's, the script's frame included
    assert _traceback_lines(output) == _traceback_lines(plain.stderr)
    assert f'File "{script}", line {RAISE_LINE}, in <module>' in output

    session = load_dump(tmp_path / "out")
    assert session.error == f"ValueError: boom in a folder named tcdebug (proj/paths.py:{RAISE_LINE})"
    (gb,) = session.graph_breaks()
    assert any(re.search(rf'File "{re.escape(str(script))}", line {BREAK_LINE}, in f', frame) for frame in gb.user_stack), (
        gb.user_stack
    )
    comp = session.compiles["0/0"]
    assert comp.filename == str(script)
