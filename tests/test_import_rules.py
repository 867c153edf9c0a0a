"""The UI process never imports torch; the core never imports textual."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TORCH_SIDE = ("tcdebug/debuggee", "tcdebug/capture")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_core_never_imports_textual():
    offenders = [p for p in (ROOT / "tcdebug").rglob("*.py") if {"textual", "rich"} & _imports(p)]
    assert offenders == []


def test_ui_side_never_imports_torch_in_source():
    files = list((ROOT / "screens").rglob("*.py")) + [
        p for p in (ROOT / "tcdebug").rglob("*.py") if not str(p.relative_to(ROOT)).startswith(TORCH_SIDE)
    ]
    offenders = [p for p in files if {"torch", "triton"} & _imports(p)]
    assert offenders == []


def test_importing_the_ui_process_modules_loads_no_torch():
    code = (
        "import sys, tcdebug.cli, tcdebug.process.controller, tcdebug.dump.loader, tcdebug.dump.writer, tcdebug.model.session, tcdebug.trace, tcdebug.analysis.summary\n"
        "import importlib.util\n"
        "if importlib.util.find_spec('tcdebug.screens.app'):\n"
        "    import tcdebug.screens.app\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'triton'))\n"
        "print(bad)\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr + proc.stdout


def test_core_modules_load_without_textual():
    code = (
        "import sys, builtins\n"
        "real = builtins.__import__\n"
        "def guard(name, *a, **k):\n"
        "    if name.split('.')[0] == 'textual': raise ImportError('textual blocked')\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = guard\n"
        "import tcdebug.cli, tcdebug.process.controller, tcdebug.dump.loader, tcdebug.dump.writer, tcdebug.model.session, tcdebug.analysis.summary, tcdebug.model.protocol\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


def test_no_top_level_screens_package_is_installed():
    """`screens/` ships as `tcdebug.screens`; site-packages must not gain a `screens` module."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "screens" not in config["packages"]
    assert config["package-dir"]["tcdebug.screens"] == "screens"


def test_import_contracts_hold_on_the_installed_layout():
    """`[tool.importlinter]` contracts, checked with tcdebug.screens where it is installed."""
    proc = subprocess.run(
        [sys.executable, ".ci/installed_layout.py", "lint-imports"], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"Contracts: \d+ kept, 0 broken", proc.stdout), proc.stdout


def test_ci_runs_the_readme_test_command_verbatim():
    readme = (ROOT / "README.md").read_text()
    command = next(line for line in (ROOT / ".ci" / "run").read_text().splitlines() if "pytest" in line)
    assert f"\n{command}\n" in readme
    assert "installed_layout.py mypy" in command and "installed_layout.py lint-imports" in command


def _imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize(
    ("module", "allowed"),
    [
        ("model/trace_format.py", {"tcdebug.model.stages"}),
        ("model/records.py", {"tcdebug.model.stages"}),
        (
            "model/events.py",
            {"tcdebug.model.protocol", "tcdebug.model.stages", "tcdebug.model.schema", "tcdebug.model.payloads"},
        ),
        ("model/commands.py", {"tcdebug.model.protocol", "tcdebug.model.schema"}),
        ("model/payloads.py", set()),
        ("model/schema.py", set()),
    ],
)
def test_the_vocabulary_and_the_trace_format_import_only_the_standard_library(module: str, allowed: set[str]):
    """Both sides of the channel (and the trace reader) load them: no torch, no textual, no model."""
    imported = _imported_modules(ROOT / "tcdebug" / module)
    outside = {m for m in imported if m.split(".")[0] not in sys.stdlib_module_names and m != "__future__"}
    assert outside == allowed


def _events_by_name(path: Path) -> list[str]:
    """Where `path` names an event by a string: `x.send("note", ...)` / `emit("note")` / `build("note")`,
    or sends a hand-made wire dict `send({"type": "note", ...})`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        first = node.args[0]
        by_name = isinstance(first, ast.JoinedStr) or (isinstance(first, ast.Constant) and isinstance(first.value, str))
        wire_dict = isinstance(first, ast.Dict) and any(
            isinstance(k, ast.Constant) and k.value == "type" for k in first.keys
        )
        if name in {"send", "emit", "build", "event"} and (by_name or wire_dict):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_capture_units_and_the_target_send_typed_events_never_a_type_by_name():
    """Events are dataclasses of `tcdebug.model.events` (`rec.emit(Note(text=...))`): mypy checks their
    type and fields; a string type or a hand-made `{"type": ...}` dict would be checked only at run time."""
    files = [p for side in TORCH_SIDE for p in sorted((ROOT / side).rglob("*.py"))]
    assert len(files) > 20
    assert [hit for p in files for hit in _events_by_name(p)] == []


# ----- no import cycles --------------------------------------------------------------------------
def _module_files() -> dict[str, Path]:
    """Every module of the package by name (`screens/` is installed as `tcdebug.screens`)."""
    modules: dict[str, Path] = {}
    for folder, package in ((ROOT / "tcdebug", "tcdebug"), (ROOT / "screens", "tcdebug.screens")):
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join([package, *parts])] = path
    return modules


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """The nodes of a module that run: everything but the bodies of `if TYPE_CHECKING:`."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    return [node for node in ast.walk(tree) if id(node) not in skipped]


def _import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports, at its top level or in a function (TYPE_CHECKING-only
    imports left out). `from a.b import c` imports module `a.b.c` where that is one, else `a.b`."""
    modules = _module_files()

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps: set[str] = set()
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                deps.update(filter(None, (owner(alias.name) for alias in node.names)))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{anchor}.{base}" if base else anchor
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    target = full if full in modules else owner(base)
                    if target:
                        deps.add(target)
        deps.discard(name)
        graph[name] = deps
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each as one cycle's path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(_cycle_path(graph, set(component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _cycle_path(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """One cycle through a strongly connected component: `a -> b -> a`."""
    start = min(component)
    path, seen = [start], {start}
    while True:
        nexts = sorted(w for w in graph[path[-1]] if w in component)
        back = next((w for w in nexts if w in seen), None)
        if back is not None:
            return [*path[path.index(back) :], back]
        path.append(nexts[0])
        seen.add(nexts[0])


def test_the_package_has_no_import_cycle():
    graph = _import_graph()
    assert "tcdebug.capture.base" in graph and "tcdebug.model.records" in graph
    cycles = _cycles(graph)
    assert cycles == [], "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def test_capture_base_knows_no_capture_unit():
    """Units register what they share (`CaptureOptions.share`): base imports none of them (the patch
    registry is not a unit)."""
    units = {m for m in _import_graph()["tcdebug.capture.base"] if m.startswith("tcdebug.capture.")}
    assert units <= {"tcdebug.capture.ir_texts", "tcdebug.capture.patches", "tcdebug.capture.recording"}, units


def test_no_two_modules_share_a_name() -> None:
    """A module's name says what it does: two files of one name (`events.py` in two folders) can only be
    told apart by reading them."""
    seen: dict[str, list[str]] = {}
    for folder in ("tcdebug", "screens"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name not in ("__init__.py", "__main__.py"):
                seen.setdefault(path.name, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}
