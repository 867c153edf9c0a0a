"""The Dockerfile, checked without a Docker engine: what it copies exists, and its install
command works (in a fresh venv that reuses this machine's torch: no CUDA torch is downloaded)."""

from __future__ import annotations

import fnmatch
import os
import shlex
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in DOCKERFILE.read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        full = (pending + line).strip()
        pending = ""
        word, _, rest = full.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def copies() -> list[tuple[list[str], str]]:
    """Each COPY from the build context: (sources, destination)."""
    result = []
    for word, args in instructions():
        if word != "COPY":
            continue
        parts = [p for p in shlex.split(args) if not p.startswith("--chown") and not p.startswith("--chmod")]
        assert not any(p.startswith("--from") for p in parts), "a multi-stage COPY: extend this test"
        result.append((parts[:-1], parts[-1]))
    return result


def ignored(path: str) -> bool:
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return any(fnmatch.fnmatch(path, p) or path.split("/")[0] == p for p in patterns)


def test_every_copy_source_exists_and_is_not_dockerignored() -> None:
    found = copies()
    assert found, "the Dockerfile copies nothing"
    for sources, _dest in found:
        matched = []
        for source in sources:
            if any(ch in source for ch in "*?["):
                matched += [p for p in ROOT.glob(source) if not ignored(p.name)]
                continue  # a pattern may match nothing, as long as the COPY copies something
            assert (ROOT / source).exists(), f"COPY {source}: not in the repository"
            assert not ignored(source), f"COPY {source}: excluded by .dockerignore"
            matched.append(ROOT / source)
        assert matched, f"COPY {' '.join(sources)}: copies nothing"


def test_image_is_pinned_runs_as_a_user_and_starts_the_mlp_sample() -> None:
    steps = instructions()
    args = {word: rest for word, rest in steps}
    base = next(rest for word, rest in steps if word == "ARG" and rest.startswith("BASE="))
    image = base.partition("=")[2]
    assert ":" in image and not image.endswith(":latest"), image
    assert "cuda" in image  # a CUDA build of torch, with Triton
    assert args["USER"] not in ("root", "0")
    assert args["CMD"] == '["tcdebug", "samples/mlp.py"]'
    copied = [s for sources, _ in copies() for s in sources]
    assert "samples" in copied and (ROOT / "samples" / "mlp.py").is_file()
    env = " ".join(rest for word, rest in steps if word == "ENV")
    assert "LANG=C.UTF-8" in env  # box-drawing characters over SSH-forwarded terminals
    assert "TERM=" not in env  # TERM comes from `docker run -e TERM`, never baked in


def _install_command() -> tuple[list[str], str]:
    """The Dockerfile's `pip install` arguments, and the image folder it installs from."""
    for word, args in instructions():
        if word == "RUN" and "pip install" in args:
            command = args.split("&&")[0]
            words = shlex.split(command)
            after = words[words.index("install") + 1 :]
            options = [w for w in after if w.startswith("-")]
            targets = [w for w in after if not w.startswith("-")]
            assert len(targets) == 1, command
            return options, targets[0]
    raise AssertionError("no pip install in the Dockerfile")


@pytest.mark.slow
def test_install_command_works_in_a_fresh_venv(tmp_path: Path) -> None:
    options, target = _install_command()
    # Lay out the build context the way the COPY lines before the install do.
    image_root = tmp_path / "image"
    workdir = "/"
    for word, args in instructions():
        if word == "WORKDIR":
            workdir = args
        if word == "RUN" and "pip install" in args:
            break
        if word == "COPY":
            parts = [p for p in shlex.split(args) if not p.startswith("--")]
            dest = Path(parts[-1]) if parts[-1].startswith("/") else Path(workdir) / parts[-1]
            sources = [p for s in parts[:-1] for p in (sorted(ROOT.glob(s)) if "*" in s else [ROOT / s])]
            for src in sources:
                to = image_root / dest.relative_to("/")
                if src.is_dir():
                    to = to if parts[-1].endswith("/") is False and len(parts) == 2 else to / src.name
                    shutil.copytree(src, to, ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    to.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(src, to / src.name)
    source_dir = image_root / Path(target).relative_to("/")
    assert (source_dir / "pyproject.toml").is_file()

    env_dir = tmp_path / "venv"
    # A venv of its own (not the base interpreter's site-packages, whose setuptools may be too old
    # to build a wheel). It sees this environment's packages (torch, textual) through a .pth file, so
    # no torch is downloaded; the build gets setuptools from pyproject's build-system (pip's build
    # isolation, from the index pip is configured with), as the image's own install does.
    venv.EnvBuilder(system_site_packages=False, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    here = [p for p in sys.path if p.rstrip("/").endswith(("site-packages", "dist-packages"))]
    nested_site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(nested_site, "_outer_env.pth").write_text("\n".join(here) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    install = [str(python), "-m", "pip", "install", *options, str(source_dir)]
    proc = subprocess.run(install, capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]

    check = (
        "import torch, tcdebug, tcdebug.screens.app, pathlib; "
        "print(tcdebug.__file__); "
        "print(sorted(p.name for p in pathlib.Path(tcdebug.screens.app.__file__).parent.glob('*.tcss')))"
    )
    proc = subprocess.run(
        [str(python), "-c", check], capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    first, tcss = proc.stdout.splitlines()[:2]
    assert first.startswith(str(env_dir)), f"tcdebug imported from {first}, not the fresh install"
    assert "main_screen.tcss" in tcss
    proc = subprocess.run(
        [str(env_dir / "bin" / "tcdebug"), "--version"], capture_output=True, text=True, timeout=120, env=env
    )
    assert proc.returncode == 0 and proc.stdout.startswith("tcdebug "), proc.stderr
