"""The script meets torch as under `python`: tcdebug imports none of torch before the script does,
so switches a script puts in `os.environ` before its imports are read, and the capture is
installed at the script's first import of Dynamo (`tcdebug.debuggee.import_watch`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conftest import ROOT, SCRIPTS, run_tcdebug

import tcdebug
from tcdebug.dump.loader import load_dump

MARKERS = ("TORCH_BEFORE_SCRIPT", "DYNAMO_AFTER_IMPORT_TORCH", "CONFIG_READ", "NO_TORCH", "INDUCTOR_")


def _python(script: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(script.relative_to(ROOT)), *args], cwd=ROOT, capture_output=True, text=True, timeout=600, env=env
    )


def _tcdebug(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`run_tcdebug`, with `env` (when given) as the whole environment."""
    if env is None:
        return run_tcdebug(*args)
    return subprocess.run(
        [sys.executable, "-m", "tcdebug", *args], cwd=ROOT, capture_output=True, text=True, timeout=600, env=env
    )


def _marked(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(MARKERS)]


def _both(
    tmp_path: Path, script: Path, *args: str, env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess, str, Path]:
    """The script under python and under `tcdebug --dump`, side by side, both with `env` as their
    whole environment when given; tcdebug's output.txt."""
    out = tmp_path / "out"
    with ThreadPoolExecutor(2) as pool:
        plain = pool.submit(_python, script, *args, env=env)
        dumped = pool.submit(_tcdebug, "--dump", str(out), str(script.relative_to(ROOT)), *args, env=env)
        plain_run, dump_run = plain.result(), dumped.result()
    assert plain_run.returncode == dump_run.returncode, dump_run.stderr[-2000:]
    return plain_run, (out / "output.txt").read_text(), out


def _capture_notes(out: Path) -> list[str]:
    return [n for n in json.loads((out / "session.json").read_text())["notes"] if "not supported" in n or "capture" in n]


def test_switches_set_before_import_torch_are_read_as_under_python(tmp_path):
    plain, output, out = _both(tmp_path, SCRIPTS / "env_before_import.py")
    assert plain.returncode == 0, plain.stderr[-2000:]
    assert _marked(output) == _marked(plain.stdout)
    assert "TORCH_BEFORE_SCRIPT False False" in output and "CONFIG_READ True True" in output
    # TORCH_LOGS is read by `import torch`: the script's own setting reports its recompile
    assert "Recompiling function f" in plain.stderr and "Recompiling function f" in output
    # ...and the capture still saw both compiles, from the first one on
    session = load_dump(out)
    assert sorted(session.compiles) == ["0/0", "0/1"]
    for comp in session.compiles.values():
        assert comp.stages["dynamo_graph"].captured and comp.stages["guards"].captured
    assert _capture_notes(out) == []


def test_dynamo_imported_from_inside_inductor_still_installs_every_unit(tmp_path):
    """`import torch._inductor.config` imports Dynamo while Inductor's package is half imported:
    the capture waits for the outermost torch import, so no unit meets a half-imported Inductor."""
    proc = run_tcdebug("--dump", str(tmp_path / "out"), str(SCRIPTS / "env_before_import.py"), "--inductor-config-first")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _capture_notes(tmp_path / "out") == []
    session = load_dump(tmp_path / "out")
    assert sorted(session.compiles) == ["0/0", "0/1"]
    assert session.compiles["0/0"].stages["aot_inference"].captured


def test_inductors_compiler_is_imported_when_pythons_is_and_its_hooks_still_go_in(tmp_path):
    """The capture's Inductor hooks go in once the script's torch has imported Inductor's compiler,
    no earlier than a plain run does; an aot_eager compile imports none of it. The Inductor
    compile's stages are all captured."""
    plain, output, out = _both(tmp_path, SCRIPTS / "inductor_import.py")
    assert plain.returncode == 0, plain.stderr[-2000:]
    marked = [line for line in _marked(output) if not line.startswith("INDUCTOR_MODULES")]
    assert _marked(output) == _marked(plain.stdout)  # the Inductor modules after aot_eager too
    assert marked == [
        "INDUCTOR_AFTER_AOT_EAGER False",
        "INDUCTOR_BEFORE_FIRST_CALL True",  # torch.compile's Inductor wrapper imports it
        "INDUCTOR_AFTER_FIRST_CALL True",
    ]
    assert _capture_notes(out) == []
    session = load_dump(out)
    inductor = next(c for c in session.compiles.values() if c.function == "under_inductor")
    for key in ("inductor_ir_pre_fusion.inference", "inductor_ir_post_fusion.inference", "kernel_source.inference"):
        assert inductor.stages[key].captured, key
    (kernel,) = inductor.stages["kernel_source.inference"].kernels
    # the second step's hooks went in: the lines Inductor wrote for each node link the kernel to them
    trail = inductor.provenance.trail([f"kernel_source.inference|{kernel.name}"])
    assert trail.names("inductor_post_grad_graph.inference"), inductor.provenance.notes
    assert "cos" in inductor.stages["inductor_ir_post_fusion.inference"].get_text()


def test_a_script_without_torch_runs_without_it(tmp_path):
    proc = run_tcdebug("--dump", str(tmp_path / "out"), str(SCRIPTS / "no_torch.py"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "NO_TORCH False" in (tmp_path / "out" / "output.txt").read_text()
    index = json.loads((tmp_path / "out" / "session.json").read_text())
    assert index["torch_version"] == "" and index["compiles"] == []


def test_a_failed_torch_import_shows_pythons_traceback(tmp_path):
    """The watch's frame sits inside every torch import; a failing one must not show it (nor the
    import system's frames, which python hides)."""
    plain, output, _ = _both(tmp_path, SCRIPTS / "torch_import_fails.py")
    assert plain.returncode == 1

    def frames(text: str) -> list[str]:
        # python names the script by its absolute path, tcdebug as it was given (relative here)
        text = text.replace(f'"{ROOT}/', '"')
        return [line.strip() for line in text.splitlines() if line.strip().startswith("File ")]

    expected = frames(plain.stderr)
    package = str(Path(tcdebug.__file__).resolve().parent)  # not "tcdebug": a venv's path may hold it
    assert expected and package not in output and "tcdebug.debuggee" not in output
    assert frames(output) == expected
    assert output.rstrip().splitlines()[-1] == plain.stderr.rstrip().splitlines()[-1]
    assert "not-a-number" in output.rstrip().splitlines()[-1]


def test_the_script_its_subprocesses_and_compile_workers_see_the_environment_python_gives(tmp_path):
    """tcdebug passes its target a channel, an output socket, the children's socket and
    `PYTHONUNBUFFERED`, and its package root on `PYTHONPATH`, through the environment: the target
    takes them out before the script runs, so the script, a subprocess it starts and Inductor's
    compile workers see what they see under python. A `PYTHONUNBUFFERED` the user set stays."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHONUNBUFFERED", "PYTHONPATH", "TCDEBUG"))}
    for case, user_env in enumerate(({}, {"PYTHONUNBUFFERED": "x", "PYTHONPATH": "/nowhere/user-entry"})):
        (tmp_path / str(case)).mkdir()
        plain, output, _ = _both(tmp_path / str(case), SCRIPTS / "env_seen.py", env={**base, **user_env})
        assert plain.returncode == 0, plain.stderr[-2000:]
        seen = [line for line in output.splitlines() if line.startswith("ENV_")]
        assert len(seen) == 3, output[-2000:]
        assert seen == [line for line in plain.stdout.splitlines() if line.startswith("ENV_")]
        assert "TCDEBUG" not in "".join(seen)
        assert seen[0] == ("ENV_SCRIPT {}" if case == 0 else f"ENV_SCRIPT {json.dumps(user_env, sort_keys=True)}")


def _frame_rates(env: dict[str, str]) -> str:
    code = (
        "import tcdebug.cli, tcdebug.screens.app, tcdebug.screens as s, textual.constants as c;"
        "print(c.MAX_FPS, s.script_environ().get('TEXTUAL_FPS'))"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip()


def test_the_app_paints_at_120_frames_a_second_unless_the_user_set_a_rate():
    base = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    assert _frame_rates(base) == "120 None"  # ours: the script does not inherit it
    assert _frame_rates({**base, "TEXTUAL_FPS": "30"}) == "30 30"


async def test_the_live_apps_script_does_not_see_the_apps_frame_rate():
    from pilot import wait_until

    from tcdebug.screens import FRAME_RATE_ENV, script_environ
    from tcdebug.screens.app import build_live_app

    assert os.environ.get(FRAME_RATE_ENV)  # set here, by the user or by the app's package
    expected = repr(script_environ().get(FRAME_RATE_ENV))
    app = build_live_app([str(SCRIPTS / "frame_rate_seen.py")], mode="run")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "FRAME_RATE_SEEN" in app.session.output_text(), what="the script's line")
        await pilot.press("q")
    line = next(x for x in app.session.output_text().splitlines() if x.startswith("FRAME_RATE_SEEN"))
    assert line == f"FRAME_RATE_SEEN {expected}"
