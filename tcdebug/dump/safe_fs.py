"""The dump folder's files, written and read without following a symlink: safe file names,
`write_file` (whole or not at all), `DirCache`, `read_confined` (a path that stays in the folder, a
regular file under the size cap), and what `--dump OUT` may write into (`prepare_out`)."""

from __future__ import annotations

import contextlib
import errno
import functools
import itertools
import json
import os
import re
import signal
import stat
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, NamedTuple

from tcdebug.lazy_re import lazy_re

MAX_FILE_BYTES_ENV = "TCDEBUG_MAX_FILE_BYTES"
DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024

_SAFE_CHARS_RE = re.compile(r"[^0-9A-Za-z_.-]")
_COMPILE_ID_RE = re.compile(r"(?:!?\d+(?:/\d+)*(?:_\d+)?|-/-)(?:@\d+)?(?:#\d+)?")
_MARKER_RE = lazy_re(rb'\A\s*\{\s*"format"\s*:\s*"tcdebug-session"')
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
    import hashlib  # here: most dumps never need it, and it loads OpenSSL

    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{clean.lstrip('.')[: max_len - 13]}~{digest}"


@functools.lru_cache(maxsize=4096)  # a compile's files are written one after the other
def compile_dir_name(compile_id: str) -> str:
    """The folder name of a compile: `0/1` -> `0-1`, `!0/1` -> `ca0-1`, `0/0@42` -> `0-0-p42`,
    `0/0#2` -> `0-0-r2`, `-/-` (export, AOTInductor) -> `---`; any other id goes through `safe_name` (hashed, so never the same)."""
    if _COMPILE_ID_RE.fullmatch(compile_id):
        name = compile_id.replace("/", "-").replace("@", "-p").replace("#", "-r")
        return "ca" + name[1:] if name.startswith("!") else name
    return safe_name(compile_id, hashed=True)


def compile_dir(compile_id: str) -> str:
    return "compiles/" + compile_dir_name(compile_id)

# ----- writing without following symlinks ---------------------------------------------------
def split_rel(rel: str) -> list[str]:
    parts = rel.split("/")
    if not rel or os.path.isabs(rel) or any(p in ("", ".", "..") or "\x00" in p for p in parts):
        raise Unreadable(f"{rel!r} is not a plain relative path")
    return parts


def open_dir(root: str | os.PathLike[str], parts: list[str], *, create: bool) -> int:
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
    by part without following a symlink, as `open_dir` does. A dump of thousands of files
    otherwise re-walks (and re-creates) every folder of every file. At most `limit` stay open
    (least recently used closed first); `close()` closes the rest. One thread uses one cache."""

    def __init__(self, root: str | os.PathLike[str], limit: int = 64, *, new: bool = False) -> None:
        """`new`: most folders are not there yet (a dump written afresh): each is created, then
        opened, rather than looked for first, until a folder below a top one is found there."""
        self.root = root
        self.limit = limit
        self.new = new
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
                parent = self.fd(parts[:-1])
                if self.new:
                    try:
                        os.mkdir(parts[-1], 0o777, dir_fd=parent)
                    except FileExistsError:
                        # a compile's folder made by another process (`EarlyFolders`): look first
                        # from now on (a top folder, such as `compiles/`, the other writer may make)
                        self.new = len(parts) == 1
                fd = _open_child(parent, parts[-1])
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


def _write_created(dfd: int, name: str, data: bytes | Iterable[str | bytes | FileCopy], flags: int) -> None:
    """Create `name` in `dfd` with `flags` (exclusive: FileExistsError when one is there, nothing
    done) and write `data` (bytes, or text in pieces) to it. A file this call created and could
    not finish is removed."""
    fd = os.open(name, flags, 0o644, dir_fd=dfd)
    try:
        try:
            if isinstance(data, bytes):
                _write_all(fd, data)
            else:
                write_pieces(fd, data)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=dfd)
        raise


WRITE_BATCH_BYTES = 1 << 20  # text written in pieces goes out in writes of about this size


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class FileCopy(NamedTuple):
    """A piece for `write_pieces`: the file at `fd` from `offset` to its end, copied within the
    kernel where it can be (`os.copy_file_range`), not through this process."""

    fd: int
    offset: int = 0


_NO_COPY_RANGE = {errno.EXDEV, errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EBADF}


def _copy_rest(src: FileCopy, fd: int) -> None:
    at = src.offset
    copy_range = getattr(os, "copy_file_range", None)
    while copy_range is not None:
        try:
            copied = copy_range(src.fd, fd, 1 << 30, at)
        except OSError as exc:
            if exc.errno not in _NO_COPY_RANGE:
                raise
            break  # not between these files: read and written from here
        if not copied:
            return
        at += copied
    while chunk := os.pread(src.fd, WRITE_BATCH_BYTES, at):
        at += len(chunk)
        _write_all(fd, chunk)


def write_pieces(fd: int, pieces: Iterable[str | bytes | FileCopy]) -> None:
    """Write text (and bytes) pieces to `fd`, in writes of about `WRITE_BATCH_BYTES`; a
    `FileCopy` piece is copied from its file."""
    batch: list[bytes] = []
    size = 0
    for piece in pieces:
        if isinstance(piece, FileCopy):
            _write_all(fd, b"".join(batch))
            batch, size = [], 0
            _copy_rest(piece, fd)
            continue
        data = piece if isinstance(piece, bytes) else piece.encode("utf-8", errors="replace")
        batch.append(data)
        size += len(data)
        if size >= WRITE_BATCH_BYTES:
            _write_all(fd, b"".join(batch))
            batch, size = [], 0
    _write_all(fd, b"".join(batch))


def write_file(
    root: str | os.PathLike[str],
    rel: str,
    text: str | bytes | Iterable[str],
    *,
    dirs: DirCache | None = None,
    fresh: bool = False,
) -> None:
    """Write `root/rel` whole or not at all: into a fresh file beside it, then renamed over it.
    `text` may come in pieces (an iterable of strings), written as they come.
    `fresh`: a file no index names yet (a stage's): when none is there, it is written in place
    (2 system calls fewer; created exclusively, so nothing is followed or replaced).

    No part of `rel` may be a symlink (a planted one is an error, never followed), and a file
    already there is replaced, never written through (so a hard link elsewhere is untouched).
    `dirs`: a `DirCache` of `root` whose folder descriptors are reused. Errors become
    `DumpError` naming the file."""
    data = text.encode("utf-8", errors="replace") if isinstance(text, str) else text
    try:
        parts = split_rel(rel)
        dfd = dirs.fd(tuple(parts[:-1])) if dirs is not None else open_dir(root, parts[:-1], create=True)
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


def write_aside(root: str | os.PathLike[str], rel: str, text: str | bytes | Iterable[str | bytes | FileCopy]) -> str:
    """Write what `root/rel` is to hold into a fresh hidden file beside it, and return that
    file's path under `root`: `put_in_place` then renames it over `rel`, `drop_aside` removes it.
    For a file made while other work goes on and put in place after it. Errors as `write_file`."""
    data = text.encode("utf-8", errors="replace") if isinstance(text, str) else text
    try:
        parts = split_rel(rel)
        dfd = open_dir(root, parts[:-1], create=True)
        try:
            tmp = f".{parts[-1][:80]}.{os.getpid()}.{next(_tmp_names)}.tmp"
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            _write_created(dfd, tmp, data, flags)
        finally:
            os.close(dfd)
    except OSError as exc:
        reason = str(exc) if isinstance(exc, Unreadable) else exc.strerror or str(exc)
        raise DumpError(f"{Path(root) / rel}: cannot write it: {reason}") from exc
    return "/".join([*parts[:-1], tmp])


def put_in_place(root: str | os.PathLike[str], aside: str, rel: str) -> None:
    """Rename `aside` (from `write_aside`) over `rel`, in the same folder of `root`."""
    try:
        parts = split_rel(rel)
        dfd = open_dir(root, parts[:-1], create=True)
        try:
            os.replace(split_rel(aside)[-1], parts[-1], src_dir_fd=dfd, dst_dir_fd=dfd)
        finally:
            os.close(dfd)
    except OSError as exc:
        reason = str(exc) if isinstance(exc, Unreadable) else exc.strerror or str(exc)
        raise DumpError(f"{Path(root) / rel}: cannot write it: {reason}") from exc


def drop_aside(root: str | os.PathLike[str], aside: str) -> None:
    """Remove `aside` (from `write_aside`), if it is there."""
    parts = split_rel(aside)
    with contextlib.suppress(OSError):
        dfd = open_dir(root, parts[:-1], create=False)
        try:
            os.unlink(parts[-1], dir_fd=dfd)
        finally:
            os.close(dfd)


_ENDING_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP back while the block runs (main thread only): a handler that
    raises (tcdebug's SIGTERM does) runs after it, never halfway through a write."""
    previous: set[int | signal.Signals] | None = None
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(AttributeError, OSError, ValueError):
            previous = signal.pthread_sigmask(signal.SIG_BLOCK, _ENDING_SIGNALS)
    try:
        yield
    finally:
        if previous is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class AppendFile:
    """`root/rel` written as a stream: created fresh (exclusively, beside its place, then renamed
    over it, as `write_file` does), then only appended to, so writing N bytes costs N, not the
    square of N for a file rewritten whole as it grows. The descriptor is the file's own: a
    symlink planted at its place later is never written through. Errors become `DumpError`."""

    def __init__(self, root: str | os.PathLike[str], rel: str) -> None:
        self.path = Path(root) / rel
        self.fd = -1
        try:
            parts = split_rel(rel)
            dfd = open_dir(root, parts[:-1], create=True)
            try:
                tmp = f".{parts[-1][:80]}.{os.getpid()}.{next(_tmp_names)}.tmp"
                flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
                self.fd = os.open(tmp, flags, 0o644, dir_fd=dfd)
                try:
                    os.replace(tmp, parts[-1], src_dir_fd=dfd, dst_dir_fd=dfd)
                except BaseException:
                    with contextlib.suppress(OSError):
                        os.unlink(tmp, dir_fd=dfd)
                    self.close()
                    raise
            finally:
                os.close(dfd)
        except OSError as exc:
            raise self._error(exc) from exc

    def _error(self, exc: OSError) -> DumpError:
        reason = str(exc) if isinstance(exc, Unreadable) else exc.strerror or str(exc)
        return DumpError(f"{self.path}: cannot write it: {reason}")

    def write(self, text: str) -> None:
        if self.fd < 0 or not text:
            return
        view = memoryview(text.encode("utf-8", errors="replace"))
        try:
            with signals_held():  # the text is written whole, or not at all
                while view:
                    view = view[os.write(self.fd, view) :]
        except OSError as exc:
            raise self._error(exc) from exc

    def close(self) -> None:
        fd, self.fd = self.fd, -1
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)


class UnnamedFile:
    """A read-write file with no name in `folder`, gone once closed (`with`): `O_TMPFILE` where
    the system has it (no name is ever made, and `tempfile` is not imported), else
    `tempfile.TemporaryFile`'s. `fd` is its descriptor."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self._file: IO[bytes] | None = None
        flag = getattr(os, "O_TMPFILE", 0)
        if flag:
            try:
                self.fd = os.open(folder, flag | os.O_RDWR | os.O_CLOEXEC, 0o600)
                return
            except OSError:  # a file system without it: a named one, removed at once
                pass
        import tempfile

        self._file = tempfile.TemporaryFile(dir=folder)  # noqa: SIM115 (closed by `close`)
        self.fd = self._file.fileno()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
        elif self.fd >= 0:
            os.close(self.fd)
        self.fd = -1

    def __enter__(self) -> UnnamedFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_dirs(root: str | os.PathLike[str], rel: str) -> Path:
    """Create `root/rel` (no symlink followed on the way) and return it."""
    try:
        os.close(open_dir(root, split_rel(rel), create=True))
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
        return stat.S_ISREG(os.fstat(fd).st_mode) and bool(_MARKER_RE().match(os.read(fd, 256)))
    finally:
        os.close(fd)


WRITTEN_NAMES = ("session.json", "output.txt", "compiles", "ranks")
COMPILE_FILES = ("why.md", "provenance.json", "accuracy.md", "repro.py")  # per compile, beside the stage files the index lists


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
    import tempfile  # only for a folder that exists: a new one is made above

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
                parts = split_rel(rel)
                dfd = open_dir(root, parts[:-1], create=False)
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
    raw = os.environ.get(MAX_FILE_BYTES_ENV)
    if not raw:  # unset, as it mostly is (read for every payload of a log)
        return DEFAULT_MAX_FILE_BYTES
    try:
        value = int(raw)
    except ValueError:
        return DEFAULT_MAX_FILE_BYTES
    return value if value > 0 else DEFAULT_MAX_FILE_BYTES


def read_confined(root: str | os.PathLike[str], rel: object, limit: int | None = None) -> str:
    """The text of `root/rel`, where `rel` is a relative path that stays inside `root`, through no
    symlink, to a regular file of at most `limit` bytes. Anything else raises `Unreadable`."""
    if not isinstance(rel, str):
        raise Unreadable(f"file is {type(rel).__name__}, not a path")
    limit = max_file_bytes() if limit is None else limit
    parts = split_rel(rel)
    try:
        dfd = open_dir(root, parts[:-1], create=False)
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
            raise Unreadable(f"{rel}: not a regular file ({file_kind(st.st_mode)})")
        if st.st_size > limit:
            raise Unreadable(
                f"{rel}: {st.st_size} bytes, more than the {limit} allowed ({MAX_FILE_BYTES_ENV})"
            )
        data = f.read(limit + 1)
    if len(data) > limit:
        raise Unreadable(f"{rel}: more than the {limit} bytes allowed ({MAX_FILE_BYTES_ENV})")
    return data.decode("utf-8", errors="replace")


def file_kind(mode: int) -> str:
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

def is_file(root: Path, rel: str) -> bool:
    try:
        parts = split_rel(rel)
        dfd = open_dir(root, parts[:-1], create=False)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.stat(parts[-1], dir_fd=dfd, follow_symlinks=False).st_mode)
    except OSError:
        return False
    finally:
        os.close(dfd)

def file_loader(root: Path, rel: str):  # noqa: ANN202 - returns a zero-arg callable
    def load() -> str:
        try:
            return read_confined(root, rel)
        except Unreadable as exc:
            return f"not readable: {exc}"

    return load
