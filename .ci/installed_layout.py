"""Run mypy or import-linter on the package as it is installed (`tcdebug.screens` comes from `screens/`).

pyproject's `package-dir` maps `screens/` to `tcdebug.screens` and `samples/` to `tcdebug.samples`.
An editable install does that with an import hook that neither mypy nor import-linter can follow, so
this script builds the installed layout as a tree of symlinks under `build/installed_layout/` (read from
pyproject, rebuilt on every run, so new files are seen) and runs the tool there with pyproject's
settings (`[tool.mypy]`, `[tool.importlinter]`). Messages name files by their installed path
(`tcdebug/screens/app.py` is `screens/app.py`).
Usage: `python .ci/installed_layout.py mypy [mypy args]` or `python .ci/installed_layout.py lint-imports`.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "installed_layout"


def build_tree() -> Path:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    package_dir: dict[str, str] = config.get("package-dir", {})
    if TREE.is_symlink() or TREE.is_file():
        TREE.unlink()
    elif TREE.exists():
        shutil.rmtree(TREE)  # only symlinks and folders this script made; rmtree never follows links
    for package in sorted(config["packages"]):
        source = ROOT / package_dir.get(package, package.replace(".", "/"))
        target = TREE / package.replace(".", "/")
        target.mkdir(parents=True, exist_ok=True)
        for entry in source.iterdir():
            if entry.suffix in (".py", ".pyi") and entry.is_file():
                os.symlink(entry, target / entry.name)
    return TREE


def run_mypy(args: list[str]) -> int:
    from mypy import api

    os.chdir(TREE)
    config = ["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache")]
    out, err, status = api.run([*config, *args])
    sys.stdout.write(out)
    sys.stderr.write(err)
    return status


def run_lint_imports() -> int:
    from importlinter.cli import lint_imports

    os.chdir(TREE)
    sys.path.insert(0, str(TREE))
    cache = str(ROOT / ".import_linter_cache")
    return lint_imports(config_filename=str(ROOT / "pyproject.toml"), cache_dir=cache, no_logo=True)


def main() -> int:
    tool, args = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
    if tool not in ("mypy", "lint-imports"):
        sys.stderr.write("usage: python .ci/installed_layout.py mypy|lint-imports [args]\n")
        return 2
    build_tree()
    return run_mypy(args) if tool == "mypy" else run_lint_imports()


if __name__ == "__main__":
    sys.exit(main())
