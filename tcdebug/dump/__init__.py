"""The dump folder: `session.json` (an index) plus one readable text file per stage.

Layout::

    OUT/session.json
    OUT/output.txt                      the script's stdout and stderr
    OUT/compiles/0-0/dynamo_graph.py
    OUT/compiles/0-0/kernel_source.forward.py         named by the stage key only: a new stage renames no file
    OUT/compiles/0-0/kernels/forward/cpp_fused_relu_0.cpp   one folder per part: a forward and a
                                                            backward kernel of one name never share a file
    OUT/compiles/0-0/provenance.json    which lines of every stage hold the same op

`DumpWriter` writes stage files as events arrive, so a crash keeps what came before.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import gc
import hashlib
import itertools
import json
import math
import os
import re
import signal
import stat
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

from tcdebug.analysis import provenance_index as provenance
from tcdebug.analysis.provenance_from_log import ensure_trace_provenance
from tcdebug.model import stages as stage_catalog
from tcdebug.model.events import Event, StageEvent
from tcdebug.model.session import (
    LOADED,
    Compile,
    GraphBreak,
    OutputChunk,
    ProcessInfo,
    Session,
    Stage,
    call_from_dict,
    rerun_from_dict,
    stage_from_dict,
    stage_to_dict,
)
from tcdebug.model.trace_format import capture_of
from tcdebug.torchtext.stage_text import FUSION_LOG_IN_FILE, full_text

FORMAT = "tcdebug-session"  # the marker that says a folder is a tcdebug dump
FORMAT_VERSION = 1
MAX_FILE_BYTES_ENV = "TCDEBUG_MAX_FILE_BYTES"
DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024
_KERNEL_EXT = {"cpp": "cpp", "python": "py", "triton": "py"}
_SAFE_CHARS_RE = re.compile(r"[^0-9A-Za-z_.-]")
_COMPILE_ID_RE = re.compile(r"(?:!?\d+(?:/\d+)*(?:_\d+)?|-/-)(?:@\d+)?(?:#\d+)?")
_MARKER_RE = re.compile(rb'\A\s*\{\s*"format"\s*:\s*"tcdebug-session"')
_tmp_names = itertools.count()


class DumpError(Exception):
    """A one-line problem with a dump folder (reading or writing it)."""


class Unreadable(OSError):
    """A file of a dump that tcdebug will not read; the text is the reason."""


# ----- names --------------------------------------------------------------------------------
def safe_name(name: object, *, hashed: bool = False, max_len: int = 100) -> str:
    """A file-name component for a name that comes from a trace or a script.

    A name of `[0-9A-Za-z_.-]` only, not starting with `.`, is kept as it is. Any other name (and
    every name when `hashed`) gets its other characters replaced by `-` and `~` plus a hash of the
    whole name appended: kept names never hold `~`, so two different names never share a file,
    and `..`, `.`, `""` or `a/b` never leave their folder.
    """
    text = name if isinstance(name, str) else str(name)
    clean = _SAFE_CHARS_RE.sub("-", text)
    if not hashed and clean == text and text and not text.startswith(".") and len(text) <= max_len:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{clean.lstrip('.')[: max_len - 13]}~{digest}"


def compile_dir_name(compile_id: str) -> str:
    """The folder name of a compile: `0/1` -> `0-1`, `!0/1` -> `ca0-1`, `0/0@42` -> `0-0-p42`,
    `0/0#2` -> `0-0-r2`, `-/-` (export, AOTInductor) -> `---`; any other id goes through `safe_name` (hashed, so never the same)."""
    if _COMPILE_ID_RE.fullmatch(compile_id):
        name = compile_id.replace("/", "-").replace("@", "-p").replace("#", "-r")
        return "ca" + name[1:] if name.startswith("!") else name
    return safe_name(compile_id, hashed=True)


def compile_dir(compile_id: str) -> str:
    return "compiles/" + compile_dir_name(compile_id)


def stage_relpath(compile_id: str, stage: Stage) -> str:
    """`compiles/0-0/kernel_source.forward.py`: the stage's own name, never its position, so a
    stage added to the catalogue renames no file. Dumps written before this (`02_dynamo_graph.py`)
    load all the same: the index names each stage's file."""
    return f"{compile_dir(compile_id)}/{safe_name(stage_catalog.kind(stage.stage_id).file_name(stage.part))}"


def write_stage_files(
    out: Path,
    compile_id: str,
    stage: Stage,
    taken: set[str] | None = None,
    *,
    dirs: DirCache | None = None,
    write: bool = True,
) -> None:
    """Write a stage's text (and its kernels) under `out`, setting `stage.file`.

    `taken`: kernel files other stages of the compile already use (each kernel gets its own).
    `dirs`: the folders of `out` opened so far (see `DirCache`), for a dump written in one go.
    `write=False`: only set the file names (another process writes the files)."""
    if not stage.captured:
        return
    rel = stage_relpath(compile_id, stage)
    # the IR after fusion with its fusion log, as the app shows it
    if write:
        write_file(out, rel, full_text(stage), dirs=dirs, fresh=True)
    stage.file = rel
    used = {u.lower() for u in (taken or ())}
    folder = f"{compile_dir(compile_id)}/kernels/{kernel_folder(stage)}"
    for kernel in stage.kernels:
        ext = _KERNEL_EXT.get(kernel.language, "txt")
        base = f"{folder}/{safe_name(kernel.name)}"
        krel, n = f"{base}.{ext}", 1
        while krel.lower() in used:  # case-insensitive: a folder on macOS or Windows
            n += 1
            krel = f"{base}~{n}.{ext}"
        used.add(krel.lower())
        if write:
            write_file(out, krel, kernel.source, dirs=dirs, fresh=True)
        kernel.meta["file"] = krel


def kernel_folder(stage: Stage) -> str:
    """`forward`, `backward`, `inference` for kernel_source; the stage key for other stages with
    kernels: a forward and a backward kernel of one name never share a file."""
    return safe_name(stage.part or "all" if stage.stage_id == "kernel_source" else stage.key)


def _kernel_files(comp: Compile, but: Stage | None = None) -> set[str]:
    return {
        str(k.meta["file"])
        for s in comp.stages.values()
        if s is not but
        for k in s.kernels
        if isinstance(k.meta.get("file"), str)
    }


# ----- writing without following symlinks ---------------------------------------------------
def _split_rel(rel: str) -> list[str]:
    parts = rel.split("/")
    if not rel or os.path.isabs(rel) or any(p in ("", ".", "..") or "\x00" in p for p in parts):
        raise Unreadable(f"{rel!r} is not a plain relative path")
    return parts


def _open_dir(root: str | os.PathLike[str], parts: list[str], *, create: bool) -> int:
    """A descriptor of root/parts..., walking each part without following a symlink."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=fd)
            try:
                sub = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise Unreadable(f"{part} is a symbolic link or not a folder") from exc
                raise
            os.close(fd)
            fd = sub
    except BaseException:
        os.close(fd)
        raise
    return fd


class DirCache:
    """Descriptors of the folders under one root, each opened (and created) once, walking part
    by part without following a symlink, as `_open_dir` does. A dump of thousands of files
    otherwise re-walks (and re-creates) every folder of every file. At most `limit` stay open
    (least recently used closed first); `close()` closes the rest. One thread uses one cache."""

    def __init__(self, root: str | os.PathLike[str], limit: int = 64) -> None:
        self.root = root
        self.limit = limit
        self._fds: dict[tuple[str, ...], int] = {}

    def __enter__(self) -> DirCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def fd(self, parts: tuple[str, ...]) -> int:
        """The descriptor of root/parts (created as needed); owned by the cache."""
        fd = self._fds.pop(parts, None)
        if fd is None:
            if not parts:
                fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            else:
                fd = _open_child(self.fd(parts[:-1]), parts[-1])
            while len(self._fds) >= self.limit:
                os.close(self._fds.pop(next(iter(self._fds))))
        self._fds[parts] = fd  # last: the most recently used
        return fd

    def close(self) -> None:
        fds, self._fds = self._fds, {}
        for fd in fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)


def _open_child(parent: int, part: str) -> int:
    """A descriptor of the folder `part` in `parent` (created if missing; never a symlink)."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    for attempt in (0, 1):
        try:
            return os.open(part, flags, dir_fd=parent)
        except FileNotFoundError:
            if attempt:
                raise
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, 0o777, dir_fd=parent)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise Unreadable(f"{part} is a symbolic link or not a folder") from exc
            raise
    raise AssertionError("unreachable")


def _write_created(dfd: int, name: str, data: bytes, flags: int) -> None:
    """Create `name` in `dfd` with `flags` (exclusive: FileExistsError when one is there, nothing
    done) and write `data` to it. A file this call created and could not finish is removed."""
    fd = os.open(name, flags, 0o644, dir_fd=dfd)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=dfd)
        raise


def write_file(
    root: str | os.PathLike[str],
    rel: str,
    text: str | bytes,
    *,
    dirs: DirCache | None = None,
    fresh: bool = False,
) -> None:
    """Write `root/rel` whole or not at all: into a fresh file beside it, then renamed over it.
    `fresh`: a file no index names yet (a stage's): when none is there, it is written in place
    (2 system calls fewer; created exclusively, so nothing is followed or replaced).

    No part of `rel` may be a symlink (a planted one is an error, never followed), and a file
    already there is replaced, never written through (so a hard link elsewhere is untouched).
    `dirs`: a `DirCache` of `root` whose folder descriptors are reused. Errors become
    `DumpError` naming the file."""
    data = text.encode("utf-8", errors="replace") if isinstance(text, str) else text
    try:
        parts = _split_rel(rel)
        dfd = dirs.fd(tuple(parts[:-1])) if dirs is not None else _open_dir(root, parts[:-1], create=True)
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            if fresh:
                try:
                    _write_created(dfd, parts[-1], data, flags)
                    return
                except FileExistsError:
                    pass  # one is there: replaced as below
            tmp = f".{parts[-1][:80]}.{os.getpid()}.{next(_tmp_names)}.tmp"
            _write_created(dfd, tmp, data, flags)
            try:
                os.replace(tmp, parts[-1], src_dir_fd=dfd, dst_dir_fd=dfd)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=dfd)
                raise
        finally:
            if dirs is None:
                os.close(dfd)
    except OSError as exc:
        reason = str(exc) if isinstance(exc, Unreadable) else exc.strerror or str(exc)
        raise DumpError(f"{Path(root) / rel}: cannot write it: {reason}") from exc


def make_dirs(root: str | os.PathLike[str], rel: str) -> Path:
    """Create `root/rel` (no symlink followed on the way) and return it."""
    try:
        os.close(_open_dir(root, _split_rel(rel), create=True))
    except OSError as exc:
        raise DumpError(f"{Path(root) / rel}: cannot create it: {exc}") from exc
    return Path(root) / rel


# ----- OUT: what --dump may write into ------------------------------------------------------
def is_dump_dir(path: str | os.PathLike[str]) -> bool:
    """True when `path` holds a session.json (a regular file) that starts with tcdebug's marker."""
    try:
        fd = os.open(Path(path) / "session.json", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and bool(_MARKER_RE.match(os.read(fd, 256)))
    finally:
        os.close(fd)


WRITTEN_NAMES = ("session.json", "output.txt", "compiles", "ranks")
COMPILE_FILES = ("why.md", "provenance.json")  # per compile, beside the stage files the index lists


def prepare_out(out: str | os.PathLike[str], *, force: bool = False) -> Path:
    """Check (before anything runs) that `--dump OUT` may write OUT, and make it ready.

    OUT must be absent (it is created), an empty folder, or an earlier tcdebug dump (the files it
    lists are removed). Anything else is refused with a `DumpError`, nothing touched. `force`
    writes into a non-dump folder beside its files, as long as none has a name tcdebug writes."""
    path = Path(out)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        try:
            path.mkdir()
        except OSError as exc:
            raise DumpError(f"{out}: cannot create the dump folder: {exc.strerror or exc}") from exc
        return path
    except OSError as exc:
        raise DumpError(f"{out}: {exc.strerror or exc}") from exc
    if stat.S_ISLNK(st.st_mode):
        raise DumpError(f"{out}: is a symbolic link; give the folder itself")
    if not stat.S_ISDIR(st.st_mode):
        raise DumpError(f"{out}: exists and is not a folder")
    try:
        entries = os.listdir(path)
        probe = tempfile.NamedTemporaryFile(dir=path, prefix=".tcdebug-probe-")  # noqa: SIM115
        probe.close()
    except OSError as exc:
        raise DumpError(f"{out}: not writable ({exc.strerror or exc})") from exc
    if not entries:
        return path
    if is_dump_dir(path):
        remove_dump_files(path)
        return path
    if not force:
        raise DumpError(
            f"{out}: not empty and not a tcdebug dump; refusing to write into it "
            "(give a new or empty folder, or --force to write beside its files)"
        )
    clash = sorted(set(entries) & set(WRITTEN_NAMES))
    if clash:
        raise DumpError(f"{out}: --force would replace {', '.join(clash)}, which tcdebug did not write")
    return path


def remove_dump_files(root: Path) -> None:
    """Remove what an earlier dump in `root` lists (stage, kernel, index and output files), then
    the folders left empty. Files it does not list, and symlinks, stay (tcdebug did not write them)."""
    rels: set[object] = {"session.json", "output.txt", "session.json.tmp"}
    try:
        index = json.loads(read_confined(root, "session.json"))
    except (OSError, ValueError, RecursionError):
        index = {}
    compiles = index.get("compiles") if isinstance(index, dict) else None
    for c in compiles if isinstance(compiles, list) else []:
        if isinstance(c, dict) and isinstance(c.get("compile_id"), str):
            rels.update(f"{compile_dir(c['compile_id'])}/{name}" for name in COMPILE_FILES)
        for s in c.get("stages", []) if isinstance(c, dict) and isinstance(c.get("stages"), list) else []:
            if not isinstance(s, dict):
                continue
            rels.add(s.get("file"))
            for k in s.get("kernels", []) if isinstance(s.get("kernels"), list) else []:
                rels.add(
                    k.get("meta", {}).get("file")
                    if isinstance(k, dict) and isinstance(k.get("meta"), dict)
                    else None
                )
    for rel in rels:
        if isinstance(rel, str) and rel:
            with contextlib.suppress(OSError):
                parts = _split_rel(rel)
                dfd = _open_dir(root, parts[:-1], create=False)
                try:
                    if stat.S_ISREG(os.stat(parts[-1], dir_fd=dfd, follow_symlinks=False).st_mode):
                        os.unlink(parts[-1], dir_fd=dfd)
                finally:
                    os.close(dfd)
    ranks = root / "ranks"
    if ranks.is_dir() and not ranks.is_symlink():
        for sub in ranks.iterdir():
            if sub.is_dir() and not sub.is_symlink() and is_dump_dir(sub):
                remove_dump_files(sub)
    for top in ("compiles", "ranks"):
        if (root / top).is_symlink():
            continue
        for dirpath, _dirs, _files in os.walk(root / top, topdown=False):
            with contextlib.suppress(OSError):
                os.rmdir(dirpath)  # only when empty; a symlink is never a dirpath here


# ----- reading, confined to the dump folder -------------------------------------------------
def max_file_bytes() -> int:
    """The most bytes tcdebug reads of one file of a dump ($TCDEBUG_MAX_FILE_BYTES, default 256 MiB)."""
    try:
        value = int(os.environ.get(MAX_FILE_BYTES_ENV, ""))
    except ValueError:
        return DEFAULT_MAX_FILE_BYTES
    return value if value > 0 else DEFAULT_MAX_FILE_BYTES


def read_confined(root: str | os.PathLike[str], rel: object, limit: int | None = None) -> str:
    """The text of `root/rel`, where `rel` is a relative path that stays inside `root`, through no
    symlink, to a regular file of at most `limit` bytes. Anything else raises `Unreadable`."""
    if not isinstance(rel, str):
        raise Unreadable(f"file is {type(rel).__name__}, not a path")
    limit = max_file_bytes() if limit is None else limit
    parts = _split_rel(rel)
    try:
        dfd = _open_dir(root, parts[:-1], create=False)
    except Unreadable as exc:
        raise Unreadable(f"{rel}: {exc} (tcdebug reads only inside the dump folder)") from exc
    except OSError as exc:
        raise Unreadable(f"{rel}: {exc.strerror or exc}") from exc
    try:
        try:
            fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dfd)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise Unreadable(
                    f"{rel}: a symbolic link (tcdebug reads only inside the dump folder)"
                ) from exc
            raise Unreadable(f"{rel}: {exc.strerror or exc}") from exc
    finally:
        os.close(dfd)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable(f"{rel}: not a regular file ({_file_kind(st.st_mode)})")
        if st.st_size > limit:
            raise Unreadable(
                f"{rel}: {st.st_size} bytes, more than the {limit} allowed ({MAX_FILE_BYTES_ENV})"
            )
        data = f.read(limit + 1)
    if len(data) > limit:
        raise Unreadable(f"{rel}: more than the {limit} bytes allowed ({MAX_FILE_BYTES_ENV})")
    return data.decode("utf-8", errors="replace")


def _file_kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a folder"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def session_index(
    session: Session, *, complete: bool = True, compiles: bool = True, cache: IndexCache | None = None
) -> dict[str, Any]:
    """session.json's content; `compiles=False` leaves the compiles out (an empty list). Each
    compile's entry comes from `cache` where given, else is made afresh."""
    cache = cache if cache is not None else IndexCache(session)
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        # False while a live run is still writing it: a dump whose tcdebug was killed says so.
        "complete": complete,
        "origin": session.origin,
        "script": session.script,
        "argv": session.argv,
        "torch_version": session.torch_version,
        "python": session.python,
        "device": session.device,
        "state": session.state,
        "exit_code": session.exit_code,
        "error": session.error,
        "notes": session.notes,
        "extra": session.extra,
        "rank": session.rank,
        "rank_label": session.rank_label,  # "1 (2)": the second log of rank 1
        "trace_stats": session.trace_stats,
        "divergences": [asdict(d) if is_dataclass(d) and not isinstance(d, type) else d for d in session.divergences],
        "main_pid": session.main_pid,
        "processes": [asdict(p) for p in session.processes.values()],
        "compiles": [cache.entry(c) for c in (session.ordered_compiles() if compiles else ())],
        "reruns": [_rerun_dict(r) for r in session.reruns],
        "calls": [_rerun_dict(c) for c in session.calls],
    }


# Events that change no compile (`Session.apply`; a why reads no session state they set). Any
# other event without a compile id (a rerun) may change any compile's why.
_COMPILE_NEUTRAL = frozenset(
    (
        "hello", "torch", "process", "process_end", "process_exit", "ready", "resumed", "note", "output",
        "trace_info", "error", "script_end", "calls", "target_died", "target_exited",
    )
)


def _changed_compile(event: Event) -> str | None:
    """The id of the compile `event` may change, "" for none, None for any."""
    compile_id = getattr(event, "compile_id", None)
    if isinstance(compile_id, str):
        return compile_id
    return "" if event.type in _COMPILE_NEUTRAL else None


class IndexCache:
    """What session.json says of each compile (its entry, its JSON line, its why from
    `tcdebug.analysis.why.explain`), made once and kept until an event may change it (`forget`). A live
    dump rewrites session.json every second and at every compile's end; explaining and encoding
    every compile each time cost more than the rest of the run's dump writing."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._parts: dict[str, list[Any] | str] = {}  # compile id -> its WhyParts, or why it has none
        self._whys: dict[str, list[dict[str, Any]]] = {}
        self._entries: dict[str, dict[str, Any]] = {}
        self._lines: dict[str, str] = {}

    def parts(self, compile_id: str) -> list[Any] | str:
        """The compile's `WhyPart`s, or the error that stopped explaining it."""
        from tcdebug.analysis.why import explain

        if compile_id not in self._parts:
            try:
                self._parts[compile_id] = explain(self.session, compile_id)
            except Exception as exc:  # noqa: BLE001 - a why that cannot be built must not cost the dump
                self._parts[compile_id] = str(exc)
        return self._parts[compile_id]

    def as_dicts(self, compile_id: str) -> list[dict[str, Any]]:
        """session.json's `why` of the compile."""
        from tcdebug.analysis.why import why_dict

        if compile_id not in self._whys:
            parts = self.parts(compile_id)
            self._whys[compile_id] = (
                [{"kind": "error", "title": "why", "lines": [f"could not explain: {parts}"]}]
                if isinstance(parts, str)
                else why_dict(self.session, compile_id, parts)
            )
        return self._whys[compile_id]

    def markdown(self, compile_id: str) -> str:
        """why.md of the compile."""
        from tcdebug.analysis.why import why_markdown

        parts = self.parts(compile_id)
        if isinstance(parts, str):
            return f"could not explain {compile_id}: {parts}\n"
        return why_markdown(self.session, compile_id, parts)

    def entry(self, c: Compile) -> dict[str, Any]:
        """The compile's entry in session.json's `compiles`."""
        if c.compile_id not in self._entries:
            self._entries[c.compile_id] = self._entry(c)
        return self._entries[c.compile_id]

    def line(self, c: Compile) -> str:
        """`entry` as session.json's line of it (see `index_json`)."""
        if c.compile_id not in self._lines:
            self._lines[c.compile_id] = json.dumps(self.entry(c), default=str)
        return self._lines[c.compile_id]

    def _entry(self, c: Compile) -> dict[str, Any]:
        return {
            "compile_id": c.compile_id,
            "function": c.function,
            "filename": c.filename,
            "firstlineno": c.firstlineno,
            "status": c.status,
            "error": c.error,
            "rank": c.rank,
            "process": c.process,
            "pid": c.pid,
            "recompile_reason": c.recompile_reason,
            "elapsed_s": round(c.elapsed_s, 6),
            "metrics": c.metrics,
            "times": c.times,
            "autotune_tables": c.autotune_tables,
            "guard_provenance": c.guard_provenance,
            "why": self.as_dicts(c.compile_id),
            "graph_breaks": [{"reason": gb.reason, "user_stack": gb.user_stack} for gb in c.graph_breaks],
            "stages": [_stage_entry(s) for s in c.ordered_stages()],
        }

    def forget_entries(self, compile_ids: set[str]) -> None:
        """Drop these compiles' entries (their stages' files changed), keeping their whys."""
        for compile_id in compile_ids:
            self._entries.pop(compile_id, None)
            self._lines.pop(compile_id, None)

    def forget(self, event: Event) -> None:
        """Drop what `event` (applied to the session) may have changed."""
        changed = _changed_compile(event)
        # compiled autograd's capture `!N` names the compiles Dynamo makes of its graph, later
        also = capture_of(changed) if changed else None
        for kept in (self._parts, self._whys, self._entries, self._lines):
            if changed is None:
                kept.clear()
            elif changed:
                kept.pop(changed, None)
                if also is not None:
                    kept.pop(also, None)


def _stage_entry(stage: Stage) -> dict[str, Any]:
    """A stage in session.json: its text is in its file, and so is its fusion log (see
    `full_text`), which is most of a big graph's index when kept inline."""
    entry = stage_to_dict(stage, with_text=False)
    if stage.file and stage.meta.get("fusion_log"):
        entry["meta"] = {k: v for k, v in stage.meta.items() if k != "fusion_log"}
        entry["meta"][FUSION_LOG_IN_FILE] = True
    return entry


def write_why_files(
    session: Session,
    out: Path,
    *,
    dirs: DirCache | None = None,
    compiles: list[Compile] | None = None,
    cache: IndexCache | None = None,
) -> None:
    """`compiles/F-C/why.md` for every compile (or those of `compiles`)."""
    cache = cache if cache is not None else IndexCache(session)
    for comp in session.compiles.values() if compiles is None else compiles:
        write_file(out, f"{compile_dir(comp.compile_id)}/why.md", cache.markdown(comp.compile_id), dirs=dirs)


def _rerun_dict(rerun: Any) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(rerun)


def write_dump(
    session: Session,
    out: str | os.PathLike[str],
    *,
    complete: bool = True,
    provenance_written: frozenset[str] = frozenset(),
    cache: IndexCache | None = None,
) -> Path:
    """Write the whole session to `out` (stage files, output.txt, session.json). The compiles of
    `provenance_written` already have their provenance.json as the session holds it; `cache`
    holds what is known of the compiles (see `IndexCache`), where a live dump kept it."""
    out_path = Path(out)
    out_path.mkdir(parents=True, exist_ok=True)
    if not _is_file(out_path, "session.json"):  # openable from the start, whatever happens next
        write_file(
            out_path,
            "session.json",
            index_json(session_index(session, complete=False, compiles=False)),
        )
    ensure_trace_provenance(session)
    pending = [
        (comp, stage)
        for comp in session.compiles.values()
        for stage in comp.stages.values()
        if stage.captured and not (stage.file and _is_file(out_path, stage.file))
    ]
    done = 0
    cache = cache if cache is not None else IndexCache(session)  # one why per compile, for why.md and the index
    named = {comp.compile_id for comp, _ in pending}  # their stages get file names now
    cache.forget_entries(named)
    index = _write_in_two(
        out_path, session, pending, complete=complete, cache=cache, provenance_written=provenance_written
    )
    if index is not None:  # all written but the index, last as always (see `write_index`)
        write_file(out_path, "output.txt", session.output_text())
        write_file(out_path, "session.json", index)
        return out_path
    cache.forget_entries(named)  # entries made on names `_write_in_two` then took back
    with DirCache(out_path) as dirs:
        try:
            for comp, stage in pending:
                write_stage_files(out_path, comp.compile_id, stage, _kernel_files(comp, but=stage), dirs=dirs)
                done += 1
        except DumpError:
            for _comp, stage in pending[done:]:  # the index must not name files that are not there
                stage.file = ""
            _try_write_index(session, out_path, complete=complete)
            raise
        write_why_files(session, out_path, dirs=dirs, cache=cache)
        for comp in session.compiles.values():
            if comp.compile_id not in provenance_written:
                write_provenance(out_path, comp, dirs=dirs)
        write_index(session, out_path, complete=complete, dirs=dirs, cache=cache)
    return out_path


PARALLEL_MIN_STAGES = 1000  # below this, a second process costs more than it saves


def _write_in_two(
    out: Path,
    session: Session,
    pending: list[tuple[Compile, Stage]],
    *,
    complete: bool,
    cache: IndexCache | None = None,
    provenance_written: frozenset[str] = frozenset(),
) -> str | None:
    """Write the dump's files but the index on two cores: a forked child writes every other
    compile's (stage files, why.md, provenance.json), this process the rest, names the child's
    stage files as the child does (the same code, without writing) and makes session.json's
    text, which it returns. Each compile's folder is written by one process only. None (nothing
    done) where that cannot be: few stages, one core, no fork, threads running (forking them is
    unsafe), or an error in either process: the caller then writes them all itself, as it
    always did."""
    if (
        len(pending) < PARALLEL_MIN_STAGES
        or (os.cpu_count() or 1) < 2
        or not hasattr(os, "fork")
        or threading.active_count() > 1
    ):
        return None
    order = {cid: n for n, cid in enumerate(session.compiles)}
    mine = [(comp, stage) for comp, stage in pending if order[comp.compile_id] % 2 == 0]
    theirs = [(comp, stage) for comp, stage in pending if order[comp.compile_id] % 2 == 1]
    my_compiles = [comp for cid, comp in session.compiles.items() if order[cid] % 2 == 0]
    their_compiles = [comp for cid, comp in session.compiles.items() if order[cid] % 2 == 1]
    pid = os.fork()
    if pid == 0:  # the child: its share, then out without running any of the parent's exit code
        code = 1
        try:
            gc.disable()  # a collection would write to every object's page: copies of them all
            _write_share(out, session, theirs, their_compiles, IndexCache(session), provenance_written)
            code = 0
        finally:
            os._exit(code)
    index: str | None = None
    names = [(stage, stage.file, [k.meta.get("file") for k in stage.kernels]) for _, stage in pending]
    try:
        for comp, stage in theirs:  # named as the child names them
            write_stage_files(out, comp.compile_id, stage, _kernel_files(comp, but=stage), write=False)
        cache = cache if cache is not None else IndexCache(session)
        _write_share(out, session, mine, my_compiles, cache, provenance_written)
        index = index_text(session, complete=complete, cache=cache)
    except DumpError:
        os.kill(pid, signal.SIGKILL)
    finally:
        _, status = os.waitpid(pid, 0)
    if index is not None and os.waitstatus_to_exitcode(status) == 0:
        return index
    for stage, file, kernel_files in names:  # as they were: the caller names them afresh
        stage.file = file
        for kernel, kernel_file in zip(stage.kernels, kernel_files, strict=True):
            if kernel_file is None:
                kernel.meta.pop("file", None)
            else:
                kernel.meta["file"] = kernel_file
    return None


def _write_share(
    out: Path,
    session: Session,
    stages: list[tuple[Compile, Stage]],
    compiles: list[Compile],
    cache: IndexCache,
    provenance_written: frozenset[str],
) -> None:
    """One process's share of `_write_in_two`: the files of `stages`, and the why.md and
    provenance.json of `compiles`."""
    with DirCache(out) as dirs:
        for comp, stage in stages:
            write_stage_files(out, comp.compile_id, stage, _kernel_files(comp, but=stage), dirs=dirs)
        write_why_files(session, out, dirs=dirs, compiles=compiles, cache=cache)
        for comp in compiles:
            if comp.compile_id not in provenance_written:
                write_provenance(out, comp, dirs=dirs)


def _try_write_index(session: Session, out: Path, *, complete: bool) -> None:
    with contextlib.suppress(DumpError):
        write_index(session, out, complete=complete)


def _is_file(root: Path, rel: str) -> bool:
    try:
        parts = _split_rel(rel)
        dfd = _open_dir(root, parts[:-1], create=False)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.stat(parts[-1], dir_fd=dfd, follow_symlinks=False).st_mode)
    except OSError:
        return False
    finally:
        os.close(dfd)


def write_index(
    session: Session,
    out: Path,
    *,
    complete: bool = True,
    dirs: DirCache | None = None,
    cache: IndexCache | None = None,
) -> None:
    """output.txt, then session.json: each replaced whole (see `write_file`). `complete` is false
    while a live run still writes it: a dump whose tcdebug was killed says so."""
    write_file(out, "output.txt", session.output_text(), dirs=dirs)
    text = index_text(session, complete=complete, cache=cache)
    write_file(out, "session.json", text, dirs=dirs)


def index_json(index: dict[str, Any]) -> str:
    """session.json's text: indented, one compile per line. Indenting everything would use
    json's pure-Python encoder, seconds for a session of hundreds of compiles."""
    compiles = index.get("compiles", [])
    return _index_text(index, [json.dumps(c, default=str) for c in compiles])


def index_text(session: Session, *, complete: bool = True, cache: IndexCache | None = None) -> str:
    """`index_json(session_index(...))`, each compile's line taken from `cache` where it has it."""
    cache = cache if cache is not None else IndexCache(session)
    head = session_index(session, complete=complete, compiles=False, cache=cache)
    return _index_text(head, [cache.line(c) for c in session.ordered_compiles()])


def _index_text(index: dict[str, Any], compile_lines: list[str]) -> str:
    rest = {k: v for k, v in index.items() if k != "compiles"}
    head = json.dumps({**rest, "compiles": []}, indent=1, default=str)
    if not compile_lines:
        return head
    body = ",\n  ".join(compile_lines)
    return head.removesuffix("[]\n}").removesuffix("[]}") + "[\n  " + body + "\n ]\n}"


def entries_json(data: dict[str, Any]) -> str:
    """`data` as JSON, each entry of a top-level list or dict on a line of its own. json's C
    encoder makes every line; `json.dumps(indent=...)` would encode in Python, generator by
    generator: seconds for the provenance files of a big session."""
    if not all(type(k) is str for k in data):
        return json.dumps(data, default=str)
    fields = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            body = "[\n  " + ",\n  ".join(json.dumps(v, default=str) for v in value) + "\n ]"
        elif isinstance(value, dict) and value and all(type(k) is str for k in value):
            entries = (f"{json.dumps(k)}: {json.dumps(v, default=str)}" for k, v in value.items())
            body = "{\n  " + ",\n  ".join(entries) + "\n }"
        else:
            body = json.dumps(value, default=str)
        fields.append(f" {json.dumps(key)}: {body}")
    return "{\n" + ",\n".join(fields) + "\n}" if fields else "{}"


def write_provenance(out: Path, comp: Compile, *, dirs: DirCache | None = None) -> None:
    """`compiles/F-C/provenance.json`: the compile's provenance index (see tcdebug.analysis.provenance_index)."""
    if comp.provenance.items:
        text = entries_json(provenance.index_to_dict(comp.provenance, comp.compile_id))
        write_file(out, f"{compile_dir(comp.compile_id)}/provenance.json", text, dirs=dirs)


def load_provenance(root: Path, compile_id: str, index: provenance.ProvenanceIndex) -> None:
    """A compile's `provenance.json` into `index` (`Compile.provenance_loader` calls it when the
    index is first used); a bad file leaves a note in the index, nothing else."""
    try:
        data = json.loads(read_confined(root, f"{compile_dir(compile_id)}/provenance.json"))
    except Unreadable:
        return  # none written (or not a plain file of the dump)
    except (ValueError, RecursionError) as exc:
        index.notes.append(f"provenance.json unreadable: {exc}")
        return
    try:
        if isinstance(data, dict):
            provenance.apply_dict(index, data)
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        index.notes.append(f"provenance.json unreadable: {exc}")


class DumpWriter:
    """Keeps a dump folder up to date while a live session runs.

    session.json is written at once (an empty session), so OUT is an openable dump from the
    start. A write that fails (a full disk) raises `DumpError`; what was written stays consistent."""

    # The index is rewritten whole (atomically, marked `"complete": false` until `finish`): at
    # every compile's end and the end of the script, and for anything else at most this often,
    # so a dump is openable at any moment, even after tcdebug was killed.
    INDEX_INTERVAL_S = 1.0

    def __init__(self, session: Session, out: str | os.PathLike[str]) -> None:
        self.session = session
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self._dirty = False
        self._index = IndexCache(session)  # what the index says of each compile, kept between rewrites
        self._provenance_written: set[str] = set()  # compiles whose provenance.json is up to date
        self._write_index()

    def on_event(self, event: Event) -> None:
        """Write what `event` (already applied to the session) brought."""
        kind = event.type
        self._index.forget(event)
        changed = _changed_compile(event)
        self._provenance_written.discard(changed or "")  # only a compile's own events change it
        if isinstance(event, StageEvent):
            stage = self.session.stage(event.compile_id, event.key)
            if stage is not None:
                comp = self.session.compiles[event.compile_id]
                try:
                    write_stage_files(self.out, event.compile_id, stage, _kernel_files(comp, but=stage))
                except DumpError:
                    stage.file = ""
                    _try_write_index(self.session, self.out, complete=False)
                    raise
                if stage.file:
                    stage.text = None  # the file holds it now
                    stage.loader = _file_loader(self.out, stage.file)
        self._dirty = True
        ended = self.session.compiles.get(changed or "") if kind == "compile_end" else None
        if ended is not None:  # written now, not all at the end
            write_provenance(self.out, ended)
            self._provenance_written.add(ended.compile_id)
        if kind in ("compile_end", "script_end", "rerun", "target_died", "target_exited"):
            self._write_index()
        else:
            self.tick()

    def tick(self) -> None:
        """Write what changed if the index is older than `INDEX_INTERVAL_S` (call it now and then)."""
        if self._dirty and time.monotonic() - self._index_written >= self.INDEX_INTERVAL_S:
            self._write_index()

    def _write_index(self) -> None:
        write_index(self.session, self.out, complete=False, cache=self._index)
        self._index_written = time.monotonic()
        self._dirty = False

    def prepare_finish(self) -> None:
        """Write every compile's why.md, and the provenance.json of those that changed since
        their end, now (the script has ended): the target takes a second or more to exit, and
        `finish` then only rewrites what changed meanwhile."""
        write_why_files(self.session, self.out, cache=self._index)
        for comp in self.session.compiles.values():
            if comp.compile_id not in self._provenance_written:
                write_provenance(self.out, comp)
                self._provenance_written.add(comp.compile_id)

    def finish(self) -> Path:
        """The final index (`"complete": true`): the run ended, or was interrupted and says so."""
        return write_dump(
            self.session,
            self.out,
            complete=True,
            provenance_written=frozenset(self._provenance_written),
            cache=self._index,
        )


def _file_loader(root: Path, rel: str):  # noqa: ANN202 - returns a zero-arg callable
    def load() -> str:
        try:
            return read_confined(root, rel)
        except Unreadable as exc:
            return f"not readable: {exc}"

    return load


# ----- session.json, validated field by field -----------------------------------------------
_STR, _INT, _NUM, _BOOL, _LIST, _DICT = (
    "a string",
    "an integer",
    "a number",
    "true or false",
    "a list",
    "an object",
)
_CHECKS: dict[str, Callable[[Any], bool]] = {
    _STR: lambda v: isinstance(v, str),
    _INT: lambda v: isinstance(v, int) and not isinstance(v, bool),
    _NUM: lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    _BOOL: lambda v: isinstance(v, bool),
    _LIST: lambda v: isinstance(v, list),
    _DICT: lambda v: isinstance(v, dict),
}
# field -> (expected, may be null); a field missing is fine unless listed in _REQUIRED.
_TOP = {
    "format": (_STR, False), "version": (_INT, False), "origin": (_STR, False), "script": (_STR, False),
    "argv": (_LIST, False), "torch_version": (_STR, False), "python": (_STR, False),
    "device": (_STR, False), "state": (_STR, False), "exit_code": (_INT, True), "error": (_STR, False),
    "notes": (_LIST, False), "extra": (_DICT, False), "rank": (_INT, True), "trace_stats": (_DICT, False),
    "divergences": (_LIST, False), "compiles": (_LIST, False), "reruns": (_LIST, False),
    "calls": (_LIST, False), "rank_label": (_STR, False), "main_pid": (_INT, True), "processes": (_LIST, False),
}  # fmt: skip
_PROCESS = {
    "pid": (_INT, False), "label": (_STR, False), "ppid": (_INT, False), "main": (_BOOL, False),
    "stepping": (_BOOL, False), "ended": (_BOOL, False), "rank": (_INT, True), "world_size": (_INT, True),
    "exit_code": (_INT, True), "error": (_STR, False), "pg_timeout_s": (_NUM, True), "device": (_STR, False),
}  # fmt: skip
_COMPILE = {
    "compile_id": (_STR, False), "function": (_STR, False), "filename": (_STR, False),
    "firstlineno": (_INT, False), "status": (_STR, False), "error": (_STR, False), "rank": (_INT, True),
    "recompile_reason": (_STR, False), "elapsed_s": (_NUM, False), "metrics": (_DICT, False),
    "graph_breaks": (_LIST, False), "stages": (_LIST, False),
}  # fmt: skip
_BREAK = {"reason": (_STR, False), "user_stack": (_LIST, False)}
_STAGE = {
    "id": (_STR, False), "key": (_STR, False), "part": (_STR, False), "title": (_STR, False),
    "language": (_STR, False), "status": (_STR, False), "reason": (_STR, False), "file": (_STR, False),
    "elapsed_s": (_NUM, False), "meta": (_DICT, False), "kernels": (_LIST, False), "text": (_STR, True),
}  # fmt: skip
_KERNEL = {
    "name": (_STR, False), "language": (_STR, False), "kind": (_STR, False), "configs": (_LIST, False),
    "chosen_config": (_DICT, True), "provenance": (_LIST, False), "meta": (_DICT, False),
    "source": (_STR, False),
}  # fmt: skip
_RERUN = {
    "rerun_id": (_INT, False), "function": (_STR, False), "compile_id": (_STR, False), "spec": (_STR, False),
    "inputs": (_LIST, False), "checks": (_LIST, False), "reused": (_STR, False), "produced": (_LIST, False),
    "status": (_STR, False), "error": (_STR, False), "token": (_STR, False), "dynamic": (_STR, False),
    "key": (_STR, False),
}  # fmt: skip
_CHECK = {
    "compile_id": (_STR, False),
    "passed": (_BOOL, False),
    "reason": (_STR, False),
    "guards": (_LIST, False),
}
_GUARD = {
    "text": (_STR, False), "passed": (_BOOL, False), "reason": (_STR, False), "kind": (_STR, False),
    "source": (_STR, False), "checked": (_BOOL, False),
}  # fmt: skip
_CALL = {
    "key": (_STR, False), "function": (_STR, False), "filename": (_STR, False), "firstlineno": (_INT, False),
    "compile_ids": (_LIST, False), "inputs": (_LIST, False), "dynamic": (_BOOL, True),
    "grad_enabled": (_BOOL, False), "count": (_INT, False), "guard_check": (_STR, False),
}  # fmt: skip


def _shown(value: Any) -> str:
    try:
        text = json.dumps(value, default=str)
    except (ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:39] + "…"


def _check_object(
    value: Any, where: str, fields: dict[str, tuple[str, bool]], required: tuple[str, ...] = ()
) -> None:
    if not isinstance(value, dict):
        raise DumpError(f"session.json: {where}: expected {_DICT}, got {_shown(value)}")
    for name in required:
        if name not in value:
            raise DumpError(f"session.json: {where + '.' if where else ''}{name}: missing")
    for name, (expected, nullable) in fields.items():
        if name in value and not (value[name] is None and nullable) and not _CHECKS[expected](value[name]):
            raise DumpError(
                f"session.json: {where + '.' if where else ''}{name}: expected {expected}, got {_shown(value[name])}"
            )


def _check_items(items: list[Any], where: str, expected: str) -> None:
    for i, item in enumerate(items):
        if not _CHECKS[expected](item):
            raise DumpError(f"session.json: {where}[{i}]: expected {expected}, got {_shown(item)}")


def validate_index(index: Any) -> None:
    """Raise `DumpError` naming the first field of a session.json that has the wrong type or is
    missing, e.g. `session.json: compiles[3].compile_id: expected a string, got 7`."""
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise DumpError(f'session.json: not a tcdebug session index (no "format": "{FORMAT}")')
    _check_object(index, "", _TOP, required=("format", "version"))
    if index["version"] > FORMAT_VERSION:
        raise DumpError(
            f"session.json: version {index['version']} was written by a newer tcdebug (this one reads {FORMAT_VERSION})"
        )
    for name in ("argv", "notes"):
        _check_items(index.get(name, []), name, _STR)
    for i, process in enumerate(index.get("processes", [])):
        _check_object(process, f"processes[{i}]", _PROCESS, required=("pid",))
    for i, comp in enumerate(index.get("compiles", [])):
        where = f"compiles[{i}]"
        _check_object(comp, where, _COMPILE, required=("compile_id",))
        for j, gb in enumerate(comp.get("graph_breaks", [])):
            _check_object(gb, f"{where}.graph_breaks[{j}]", _BREAK)
            _check_items(gb.get("user_stack", []), f"{where}.graph_breaks[{j}].user_stack", _STR)
        for j, stage in enumerate(comp.get("stages", [])):
            swhere = f"{where}.stages[{j}]"
            _check_object(stage, swhere, _STAGE, required=("id",))
            for k, kernel in enumerate(stage.get("kernels", [])):
                _check_object(kernel, f"{swhere}.kernels[{k}]", _KERNEL)
                _check_items(kernel.get("configs", []), f"{swhere}.kernels[{k}].configs", _DICT)
    for i, rerun in enumerate(index.get("reruns", [])):
        _check_object(rerun, f"reruns[{i}]", _RERUN)
        _check_items(rerun.get("produced", []), f"reruns[{i}].produced", _STR)
        _check_items(rerun.get("inputs", []), f"reruns[{i}].inputs", _DICT)
        for j, check in enumerate(rerun.get("checks", [])):
            _check_object(check, f"reruns[{i}].checks[{j}]", _CHECK)
            for k, guard in enumerate(check.get("guards", [])):
                _check_object(guard, f"reruns[{i}].checks[{j}].guards[{k}]", _GUARD)
    for i, call in enumerate(index.get("calls", [])):
        _check_object(call, f"calls[{i}]", _CALL)
        _check_items(call.get("compile_ids", []), f"calls[{i}].compile_ids", _STR)
        _check_items(call.get("inputs", []), f"calls[{i}].inputs", _DICT)


def load_dump(path: str | os.PathLike[str]) -> Session:
    """Rebuild a session from a dump folder. Stage texts are read when first shown.

    Every file is read through `read_confined`: a path that leaves the folder, a symlink, a FIFO,
    a device or a file over the size cap makes that stage say `not readable: <reason>`."""
    root = Path(path)
    if not root.is_dir():
        if root.name != "session.json":
            raise DumpError(f"{path}: not a dump folder")
        root = root.parent
    try:
        raw = read_confined(root, "session.json")
    except Unreadable as exc:
        if isinstance(exc.__cause__, FileNotFoundError) or not (root / "session.json").exists():
            raise DumpError(f"{root}: no session.json here (is this a tcdebug dump?)") from exc
        raise DumpError(f"{root / 'session.json'}: not readable: {exc}") from exc
    try:
        index = json.loads(raw)
    except RecursionError as exc:
        raise DumpError("session.json: not valid JSON (nested too deeply)") from exc
    except ValueError as exc:
        raise DumpError(f"session.json: not valid JSON ({exc})") from exc
    validate_index(index)
    session = Session(
        script=index.get("script", ""),
        argv=list(index.get("argv", [])),
        origin="dump",
        torch_version=index.get("torch_version", ""),
        python=index.get("python", ""),
        device=index.get("device", ""),
        state=LOADED,
        exit_code=index.get("exit_code"),
        error=index.get("error", ""),
        notes=list(index.get("notes", [])),
        extra=dict(index.get("extra", {})),
    )
    session.rank = index.get("rank")  # the rank this dump is of (a job's rank, or its root: the lowest)
    session.rank_label = index.get("rank_label", "")
    session.extra["recorded_state"] = index.get("state", "")
    if index.get("complete") is False:
        # Written by a tcdebug that was killed before it could finish the dump.
        session.extra["recorded_state"] = "interrupted"
        session.extra["interrupted"] = True
        session.notes.append(
            "interrupted: tcdebug ended before this dump was finished; it holds what was written"
        )
    session.main_pid = index.get("main_pid")  # an integer or null: checked by validate_index
    for p in index.get("processes", []):  # each checked by validate_index
        session.processes[p["pid"]] = ProcessInfo(
            pid=p["pid"],
            label=p.get("label") or f"pid {p['pid']}",
            ppid=p.get("ppid", 0),
            main=p.get("main", False),
            ended=p.get("ended", False),
            device=p.get("device", ""),
            rank=p.get("rank"),
            world_size=p.get("world_size"),
            exit_code=p.get("exit_code"),
            error=p.get("error", ""),
            pg_timeout_s=_seconds_or_none(p.get("pg_timeout_s")),
        )
    for c in index.get("compiles", []):
        comp = Compile(
            compile_id=c["compile_id"],
            function=c.get("function", ""),
            filename=c.get("filename", ""),
            firstlineno=c.get("firstlineno", 0),
            status=c.get("status", "ok"),
            error=c.get("error", ""),
            recompile_reason=c.get("recompile_reason", ""),
            elapsed_s=c.get("elapsed_s", 0.0),
            metrics=dict(c.get("metrics", {})),
            rank=c.get("rank"),
            process=str(c.get("process") or ""),
            pid=c.get("pid") if isinstance(c.get("pid"), int) else None,
            times=dict(c.get("times") or {}),
            autotune_tables=list(c.get("autotune_tables") or []),
            guard_provenance=list(c.get("guard_provenance") or []),
        )
        comp.graph_breaks = [
            GraphBreak(comp.compile_id, gb.get("reason", ""), list(gb.get("user_stack", [])))
            for gb in c.get("graph_breaks", [])
        ]
        for s in c.get("stages", []):
            stage = stage_from_dict({**s, "stage": s.get("id")})
            if stage.file:
                _attach_file(root, stage)
            for kernel in stage.kernels:
                kfile = kernel.meta.get("file")
                if kfile:
                    try:
                        kernel.source = read_confined(root, kfile)
                    except Unreadable as exc:
                        kernel.source = f"not readable: {exc}"
            comp.stages[stage.key] = stage
        comp.provenance_loader = functools.partial(load_provenance, root, comp.compile_id)
        session.compiles[comp.compile_id] = comp
    session.reruns = [rerun_from_dict(r) for r in index.get("reruns", [])]
    session.calls = [call_from_dict(c) for c in index.get("calls", [])]
    if (root / "output.txt").exists() or (root / "output.txt").is_symlink():
        try:
            session.output = [OutputChunk("stdout", read_confined(root, "output.txt"))]
        except Unreadable as exc:
            session.notes.append(f"output.txt not readable: {exc}")
    return session


def _seconds_or_none(value: int | float | None) -> float | None:
    return float(value) if value is not None and math.isfinite(value) else None


def _attach_file(root: Path, stage: Stage) -> None:
    """Check the stage's file now (path, type, size) and read it lazily; a bad one says why."""
    try:
        parts = _split_rel(stage.file)
        dfd = _open_dir(root, parts[:-1], create=False)
        try:
            st = os.stat(parts[-1], dir_fd=dfd, follow_symlinks=False)
        finally:
            os.close(dfd)
        if stat.S_ISLNK(st.st_mode):
            raise Unreadable(f"{stage.file}: a symbolic link (tcdebug reads only inside the dump folder)")
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable(f"{stage.file}: not a regular file ({_file_kind(st.st_mode)})")
        if st.st_size > max_file_bytes():
            raise Unreadable(f"{stage.file}: {st.st_size} bytes, more than allowed ({MAX_FILE_BYTES_ENV})")
    except Unreadable as exc:
        stage.text, stage.loader = f"not readable: {exc}", None
        stage.meta["not_readable"] = str(exc)
        return
    except OSError as exc:
        stage.text, stage.loader = f"not readable: {stage.file}: {exc.strerror or exc}", None
        stage.meta["not_readable"] = str(exc)
        return
    stage.loader = _file_loader(root, stage.file)
