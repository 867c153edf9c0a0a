"""The registry of torch internals (`tcdebug.capture.patches`) and `tcdebug doctor`: every patch of a
torch object goes through the registry and comes back out; `doctor` reports this torch, and a torch
that lacks a symbol (simulated by the registry in the child), in the capture's own words."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tcdebug.capture import patches

ROOT = Path(__file__).resolve().parent.parent
PATCHING_PACKAGES = ("tcdebug/capture", "tcdebug/debuggee")

# Objects the capture and the debuggee assign attributes on, by the name that holds them: none of
# them is torch's. Anything else (torch's classes, modules, config, instances) goes through the
# registry. A method's `self` is its own class's instance (checked separately: only in a method).
OWN_OBJECTS = {
    "acc": "a tcdebug Accuracy payload (debuggee/accuracy.py)",
    "eager_layer": "a tcdebug AccuracyLayer payload",
    "layer": "a tcdebug AccuracyLayer payload",
    "sink": "the debuggee's own tagged output stream (debuggee/streams.py)",
    "ctx": "CaptureContext (capture/base.py)",
    "facts": "provenance's per-compile facts",
    "kernel": "a tcdebug Kernel payload",
    "local": "a threading.local of the unit",
    "log": "a standard-library logging.Logger (its propagate switch)",
    "node": "cudagraph_text.GraphNode, parsed from the DOT file",
    "ns": "argparse.Namespace",
    "reader": "debuggee CommandReader",
    "rec": "the Recording (debuggee Recorder)",
    "recorder": "the debuggee Recorder",
    "rerun": "a tcdebug Rerun payload",
    "shown": "a traceback.TracebackException of the user's error",
    "spec": "the import watch's ModuleSpec of a module being imported (the loader it swapped in)",
    "st": "the recorder's CompileState",
    "stages": "kernel_source's KernelStages",
    "sys": "sys.argv, sys.stdout and sys.stderr of the script's process",
    "table": "a tcdebug AutotuneTable payload",
    "target": "calls' CallTarget, children's target",
    "tuned": "triton_info's TunedKernel",
    "write_ir": "inductor_ir's own wrapper function (attributes the tests read)",
}


def _modules() -> list[Path]:
    files = [f for pkg in PATCHING_PACKAGES for f in sorted((ROOT / pkg).glob("*.py"))]
    return [f for f in files if f.name != "patches.py"]


def _root(node: ast.expr) -> ast.expr:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node


def _own_self(stack: list[ast.AST]) -> bool:
    """Is `self` here a method's own instance? The innermost function taking `self` is a method of
    a class (a wrapper `def f(self, ...)` that replaces torch's method is not)."""
    for i in range(len(stack) - 1, -1, -1):
        node = stack[i]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            a.arg == "self" for a in node.args.args
        ):
            return i > 0 and isinstance(stack[i - 1], ast.ClassDef)
    return False


def _assignments(path: Path) -> list[str]:
    """Every attribute assignment, `setattr` / `delattr` and `__dict__[...] =` in the module that is
    not on one of `OWN_OBJECTS` (or a method's own `self`), as `file:line: code`."""
    tree = ast.parse(path.read_text())
    found: list[str] = []
    rel = path.relative_to(ROOT)

    def visit(node: ast.AST, stack: list[ast.AST]) -> None:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        flat: list[ast.expr] = []
        while targets:
            target = targets.pop()
            if isinstance(target, (ast.Tuple, ast.List)):
                targets.extend(target.elts)
            else:
                flat.append(target)
        for target in flat:
            through_dict = isinstance(target, ast.Subscript) and any(
                isinstance(n, ast.Attribute) and n.attr == "__dict__" for n in ast.walk(target.value)
            )
            if not isinstance(target, ast.Attribute) and not through_dict:
                continue
            root = _root(target)
            name = root.id if isinstance(root, ast.Name) else ""
            if name == "self" and _own_self(stack) and not through_dict:
                continue
            if name in OWN_OBJECTS and not (through_dict and name != "spec"):
                continue
            if through_dict and rel.name == "import_watch.py":
                continue  # the import watch puts a module's real loader back (see its docstring)
            found.append(f"{rel}:{node.lineno}: {ast.unparse(node)[:100]}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr")
        ):
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Name) and first.id == "sys"):
                found.append(f"{rel}:{node.lineno}: {ast.unparse(node)[:100]}")
        inner = (
            [*stack, node]
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            else stack
        )
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, [])
    return found


def test_no_torch_object_is_patched_outside_the_registry() -> None:
    found = [line for path in _modules() for line in _assignments(path)]
    assert not found, "patch torch through tcdebug.capture.patches:\n" + "\n".join(found)


def test_the_ast_walk_finds_a_patch(tmp_path: Path) -> None:
    """The walk above can fail: the patches it must find, in a module of the capture's shape."""
    bad = ROOT / "tcdebug" / "capture" / "_walk_probe.py"
    bad.write_text(
        "def install(ctx, torch):\n"
        "    torch._dynamo.config.x = 1\n"
        "    setattr(torch._inductor, 'y', 2)\n"
        "    cls = torch.fx.GraphModule\n"
        "    cls.print_readable = None\n"
        "    torch.__dict__['z'] = 3\n"
        "    def wrapper(self):\n"
        "        self.record_stack_traces = False\n"
        "    class Own:\n"
        "        def __init__(self):\n"
        "            self.fine = 1\n"
    )
    try:
        found = _assignments(bad)
    finally:
        bad.unlink()
    assert len(found) == 5, found


# Private names the capture and the debuggee read that are not torch's.
NOT_TORCH_PRIVATES = {
    "_tcdebug_tuned": "triton_info's own tag on an autotuner (patches.tag)",
    "_initializing": "importlib's ModuleSpec flag (import_watch)",
    "_getframe": "sys._getframe",
    "_exit": "os._exit",
    "_bootstrap": "importlib._bootstrap",
}


def _is_torch_module(parts: list[str]) -> bool:
    """`torch._dynamo.eval_frame` (a module or package of the installed torch), found without
    importing it."""
    if "torch" not in parts:
        return False
    parts = parts[parts.index("torch") :]
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        return False
    base = Path(spec.origin).parent.joinpath(*parts[1:])
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _private_reads(path: Path) -> list[str]:
    """Every read of a private (`_name`) attribute in the module that is neither a method's own
    attribute (`self._x`), a torch module path, nor one of `NOT_TORCH_PRIVATES`: `x._y`,
    `getattr(x, "_y")`, `hasattr(x, "_y")` and `from torch... import _y`, as `file:line: code`."""
    tree = ast.parse(path.read_text())
    rel = path.relative_to(ROOT)
    found: list[str] = []
    for node in ast.walk(tree):
        name = ""
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            if not node.attr.startswith("_") or node.attr.startswith("__"):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls", "patches"):
                continue
            if _is_torch_module(ast.unparse(node).split(".")):
                continue
            name = node.attr
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            name = node.args[1].value
            if not name.startswith("_") or name.startswith("__"):
                continue
            if _is_torch_module([*ast.unparse(node.args[0]).split("."), name]):
                continue
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("torch"):
            private = [a.name for a in node.names if a.name.startswith("_")]
            private = [n for n in private if not _is_torch_module([*node.module.split("."), n])]
            name = private[0] if private else ""
        if name and name not in NOT_TORCH_PRIVATES:
            found.append(f"{rel}:{node.lineno}: {ast.unparse(node)[:100]}")
    return found


def test_every_private_read_goes_through_a_declaration() -> None:
    """A private attribute of torch is read through its declaration (`DECLARED.get(owner=...)`),
    so `doctor` lists it and a torch without it is one `not captured` reason, not an error."""
    found = [line for path in _modules() for line in _private_reads(path)]
    assert not found, "read torch's privates through tcdebug.capture.patches:\n" + "\n".join(found)


def test_the_read_walk_finds_a_private_read() -> None:
    bad = ROOT / "tcdebug" / "capture" / "_read_probe.py"
    bad.write_text(
        "from torch._dynamo.eval_frame import _stance\n"
        "from torch._dynamo import eval_frame\n"
        "def install(ctx, torch, t):\n"
        "    a = torch._dynamo.eval_frame._set_stance\n"
        "    b = getattr(t, '_dynamo_dynamic_indices', None)\n"
        "    c = eval_frame._stance\n"
        "    d = torch._dynamo.eval_frame\n"
        "    e = getattr(torch, '_inductor')\n"
        "    f = sys._getframe(1)\n"
    )
    try:
        found = _private_reads(bad)
    finally:
        bad.unlink()
    assert [line.split(":")[1] for line in found] == ["1", "4", "5", "6"], found


def test_every_declaration_says_what_breaks() -> None:
    from tcdebug.capture.install_check import unit_stages

    units = set(unit_stages()) | {"setup"}
    assert len(patches.DECLARED) >= 40
    for private in patches.DECLARED.values():
        assert private.unit in units, private
        assert private.breaks and private.kind in patches.KINDS and private.written_for, private
        assert private.module.split(".")[0] in ("torch", "sympy"), private


class _Base:
    def inherited(self) -> str:
        return "base"


class _Owner(_Base):
    @staticmethod
    def static(x: int) -> int:
        return x + 1

    def method(self) -> str:
        return "own"


def test_wrap_and_uninstall_restore_descriptors_and_inheritance() -> None:
    static = patches.Private("tests", "_Owner.static", "test", "nothing")
    method = patches.Private("tests", "_Owner.method", "test", "nothing")
    inherited = patches.Private("tests", "_Owner.inherited", "test", "nothing")
    raw_static = vars(_Owner)["static"]
    original = patches.wrap(static, lambda orig: lambda x: orig(x) * 10, owner=_Owner)
    assert original is raw_static.__func__
    assert isinstance(vars(_Owner)["static"], staticmethod) and _Owner.static(1) == 20
    patches.wrap(method, lambda orig: lambda self: orig(self) + "!", owner=_Owner)
    patches.wrap(inherited, lambda orig: lambda self: "patched", owner=_Owner)
    assert _Owner().method() == "own!" and _Owner().inherited() == "patched"
    assert [p.path for p in patches.installed()][-3:] == [
        "_Owner.static",
        "_Owner.method",
        "_Owner.inherited",
    ]
    assert patches.uninstall() == []
    assert vars(_Owner)["static"] is raw_static and _Owner().method() == "own"
    assert "inherited" not in vars(_Owner) and _Owner().inherited() == "base"


def test_swapped_and_set_value_come_back() -> None:
    obj = SimpleNamespace(flag=1)
    private = patches.Private("tests", "flag", "test", "nothing", patches.SETS)
    with patches.swapped(private, 2, owner=obj) as before:
        assert before == 1 and obj.flag == 2
    assert obj.flag == 1
    assert patches.set_value(private, 3, owner=obj) == 1 and obj.flag == 3
    patches.uninstall()
    assert obj.flag == 1


def test_missing_symbols_and_the_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    gone = patches.Private("json", "no_such_function", "test", "nothing")
    assert gone.missing() == "`no_such_function` missing"
    assert gone.get(None) is None
    with pytest.raises(patches.MissingPrivate) as raised:
        patches.wrap(gone, lambda orig: orig)
    assert patches.unavailable_reason("9.9", raised.value) == "not on this torch: `no_such_function` missing"
    present = patches.Private("json", "dumps", "test", "nothing")
    local = patches.Private("json", "dumps", "test", "nothing", patches.FRAME_LOCAL, "obj")
    assert present.missing() == "" and local.missing() == ""
    assert (
        patches.Private("json", "dumps", "test", "x", patches.FRAME_LOCAL, "nope").missing()
        == "`dumps:nope` missing"
    )
    monkeypatch.setenv(patches.MISSING_ENV, "dumps")
    assert present.missing() == "`dumps` missing"
    assert local.read_local(sys._getframe(), "default") == "default"


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
    )


def test_the_capture_installs_into_torch_and_uninstalls_to_what_was_there() -> None:
    # --cold: the cache and PGO switches are set too (by default tcdebug leaves them as they are)
    done = _run(str(ROOT / "tests" / "scripts" / "patch_roundtrip.py"), env={"TCDEBUG_COLD": "1"})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    # the hooks every torch the registry was written against has: each was put in and changed torch
    for name in (
        "torch._dynamo.eval_frame.OptimizeContext.__call__",
        "torch._inductor.debug.DebugFormatter._write_ir",
        "torch._inductor.utils.IndentedBuffer.writeline",
        "torch.fx.GraphModule.print_readable",
        "torch._logging._internal.trace_structured",
        "torch.compiler.config.force_disable_caches",
    ):
        assert name in report["installed"] and name in report["changed"], name
    assert report["not_restored"] == [] and report["differs_after"] == [] and report["still_patched"] == 0
    assert report["trace_structured_is_torchs"]


def test_doctor_on_this_torch() -> None:
    done = _run("-m", "tcdebug", "doctor")
    assert done.returncode == 0, done.stdout + done.stderr
    text = done.stdout
    import torch  # the test process may import torch; the doctor's report comes from its child

    assert f"torch {torch.__version__}" in text.splitlines()[0]
    for unit in ("provenance", "frame", "inductor_ir", "kernel_source", "calls", "trace_filter"):
        assert any(line.split()[:2] == [unit, "installs"] for line in text.splitlines()), unit
    assert "every feature is available" in text
    from tcdebug.capture.install_check import unit_modules

    unit_modules()  # every declaration, as the child has them
    count = len(patches.DECLARED)
    assert f"private torch APIs: {count} of {count} present" in text
    assert "result: every core stage is available" in text
    as_json = json.loads(_run("-m", "tcdebug", "doctor", "--json").stdout)
    assert {s["stage"] for s in as_json["stages"] if s["core"]} >= {"source", "dynamo_graph", "kernel_source"}


def test_doctor_on_a_torch_without_a_symbol() -> None:
    """A removed symbol, simulated by the registry in the child: the core stages it feeds are
    unavailable (exit 1), and a feature that only degrades is named with what breaks."""
    env = {patches.MISSING_ENV: "_compile:code,_inductor_kernel_provenance_debug_handle"}
    done = _run("-m", "tcdebug", "doctor", env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    reason = "not on this torch: `_compile:code` missing"
    assert f"  {'frame':<18} {reason}" in lines
    assert f"  {'source':<26} {reason} (core)" in lines
    assert f"  {'bytecode_before':<26} {reason} (core)" in lines
    assert any(
        line.startswith("  provenance (`f`): ")
        and line.endswith(": not on this torch: `_inductor_kernel_provenance_debug_handle` missing")
        for line in lines
    ), done.stdout
    assert "  missing  torch._dynamo.convert_frame._compile:code  [frame, frame local]" in lines
    assert lines[-1] == "result: core stages unavailable on this torch: source, bytecode_before"


def test_a_run_says_the_doctors_words(tmp_path: Path) -> None:
    """The capture's own `not captured` note for a stage whose symbol is missing is the doctor's."""
    script = tmp_path / "tiny.py"
    script.write_text(
        "import torch\n\n@torch.compile(backend='eager')\ndef f(x):\n    return x.sin() + 1\n\nf(torch.ones(3))\n"
    )
    out = tmp_path / "out"
    done = _run("-m", "tcdebug", "--dump", str(out), str(script), env={patches.MISSING_ENV: "_compile:code"})
    assert done.returncode == 0, done.stderr
    index = json.loads((out / "session.json").read_text())
    reason = "not on this torch: `_compile:code` missing"
    assert f"frame: {reason}" in index["notes"]
    stages = {s["key"]: s for s in index["compiles"][0]["stages"]}
    assert reason in json.dumps(stages["source"]), stages["source"]
    assert "dynamo_graph" in stages and reason not in json.dumps(stages["dynamo_graph"])


def test_doctor_without_torch_and_on_a_torch_without_the_apis(tmp_path: Path) -> None:
    """No torch: one line, exit 2. A torch with none of the APIs (an old or stripped torch, here a
    stand-in package): every unit says why it did not install, and the exit code is 1."""
    absent = tmp_path / "absent"
    (absent / "torch").mkdir(parents=True)
    (absent / "torch" / "__init__.py").write_text("raise ImportError('no torch in this environment')\n")
    done = _run("-m", "tcdebug", "doctor", env={"PYTHONPATH": str(absent)})
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr == "tcdebug: error: cannot import torch: no torch in this environment\n"
    bare = tmp_path / "bare"
    (bare / "torch").mkdir(parents=True)
    (bare / "torch" / "__init__.py").write_text("__version__ = '2.0.0'\n")
    done = _run("-m", "tcdebug", "doctor", env={"PYTHONPATH": str(bare)})
    assert done.returncode == 1, done
    lines = done.stdout.splitlines()
    assert lines[0] == "tcdebug doctor: torch 2.0.0 (CPU build), Python " + ".".join(
        map(str, sys.version_info[:3])
    )
    reason = "not on this torch: `torch._dynamo` missing"
    assert f"  {'frame':<18} {reason}" in lines and f"  {'kernel_source':<26} {reason} (core)" in lines, (
        done.stdout
    )
    assert "Traceback" not in done.stdout + done.stderr
    assert lines[-1].startswith("result: core stages unavailable on this torch: source, bytecode_before")
