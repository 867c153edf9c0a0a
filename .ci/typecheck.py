"""Run mypy on the package as it is installed (`tcdebug.screens` comes from `screens/`).

pyproject's `package-dir` maps `screens/` to `tcdebug.screens` and `samples/` to `tcdebug.samples`.
An editable install does that with an import hook that mypy cannot follow, so this script builds the
installed layout as a tree of symlinks under `build/typecheck/` (read from pyproject, rebuilt on every
run, so new files are seen) and runs mypy on it with pyproject's `[tool.mypy]` settings.
Usage: `python .ci/typecheck.py [extra mypy args]`.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "typecheck"


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


def main() -> int:
    from mypy import api

    build_tree()
    os.chdir(TREE)
    config = ["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache")]
    out, err, status = api.run([*config, *sys.argv[1:]])
    sys.stdout.write(out)
    sys.stderr.write(err)
    return status


if __name__ == "__main__":
    sys.exit(main())
