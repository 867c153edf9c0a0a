"""Writing a dump: `write_dump` (a whole session, on two cores when it is big), `DumpWriter` (a
live session, as events arrive), the stage and kernel files, why.md and provenance.json.

Files people read with `cat` hold no terminal control: stage and kernel files keep torch's text
with its escapes made visible (`tcdebug.textsafe.safe_text`), and so does why.md."""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from tcdebug.analysis import accuracy_report
from tcdebug.analysis import provenance_index as provenance
from tcdebug.dump.index import (
    IndexCache,
    changed_compile,
    entries_json,
    index_chunks,
    index_json,
    session_index,
)
from tcdebug.dump.safe_fs import (
    AppendFile,
    DirCache,
    DumpError,
    FileCopy,
    UnnamedFile,
    compile_dir,
    drop_aside,
    file_loader,
    is_file,
    put_in_place,
    safe_name,
    signals_held,
    write_aside,
    write_file,
    write_pieces,
)
from tcdebug.lazy_re import lazy_re
from tcdebug.model import stages as stage_catalog
from tcdebug.model.events import AccuracyEvent, Event, StageEvent
from tcdebug.model.session import Compile, Session, Stage
from tcdebug.textsafe import safe_text
from tcdebug.torchtext.stage_text import full_text

_KERNEL_EXT = {"cpp": "cpp", "python": "py", "triton": "py"}

def stage_relpath(compile_id: str, stage: Stage) -> str:
    """`compiles/0-0/kernel_source.forward.py`: the stage's own name, never its position, so a
    stage added to the catalogue renames no file. Dumps written before this (`02_dynamo_graph.py`)
    load all the same: the index names each stage's file."""
    return f"{compile_dir(compile_id)}/{_stage_file_name(stage.stage_id, stage.part)}"


@functools.lru_cache(maxsize=1024)
def _stage_file_name(stage_id: str, part: str) -> str:
    """A stage's file name in its compile's folder: the same for every compile of a big log."""
    return safe_name(stage_catalog.kind(stage_id).file_name(part))


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
        write_file(out, rel, safe_text(full_text(stage)), dirs=dirs, fresh=True)
    stage.file = rel
    if not stage.kernels:
        return
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
            write_file(out, krel, safe_text(kernel.source), dirs=dirs, fresh=True)
        kernel.meta["file"] = krel


def kernel_folder(stage: Stage) -> str:
    """`forward`, `backward`, `inference` for kernel_source; the stage key for other stages with
    kernels: a forward and a backward kernel of one name never share a file."""
    return safe_name(stage.part or "all" if stage.stage_id == "kernel_source" else stage.key)


def _taken(comp: Compile, stage: Stage) -> set[str] | None:
    """`write_stage_files`'s `taken` for `stage` (None for a stage without kernels: most)."""
    return _kernel_files(comp, but=stage) if stage.kernels else None


def _kernel_files(comp: Compile, but: Stage | None = None) -> set[str]:
    return {
        str(k.meta["file"])
        for s in comp.stages.values()
        if s is not but
        for k in s.kernels
        if isinstance(k.meta.get("file"), str)
    }

def write_why_files(
    session: Session,
    out: Path,
    *,
    dirs: DirCache | None = None,
    compiles: list[Compile] | None = None,
    cache: IndexCache | None = None,
    done: bool = False,
) -> None:
    """`compiles/F-C/why.md` for every compile (or those of `compiles`); `done`: the index is
    made elsewhere, so what `cache` holds of each compile is dropped once written (`done_with`)."""
    cache = cache if cache is not None else IndexCache(session)
    for comp in session.compiles.values() if compiles is None else compiles:
        why = safe_text(cache.markdown(comp.compile_id))
        write_file(out, f"{compile_dir(comp.compile_id)}/why.md", why, dirs=dirs)
        if done:
            cache.done_with(comp.compile_id)

def write_dump(
    session: Session,
    out: str | os.PathLike[str],
    *,
    complete: bool = True,
    provenance_written: frozenset[str] = frozenset(),
    cache: IndexCache | None = None,
    output_written: bool = False,
    meanwhile: Callable[[], object] | None = None,
) -> Path:
    """Write the whole session to `out` (stage files, output.txt, session.json). The compiles of
    `provenance_written` already have their provenance.json as the session holds it; `cache`
    holds what is known of the compiles (see `IndexCache`), where the caller keeps one (a live
    dump's, or `open --dump`'s, whose summary lists the hints it made);
    `output_written`: output.txt already holds the session's output (a live dump appends it).
    `meanwhile`: work on the session (the summary) called once every file is named: while the
    forked writer writes its share, whose cut leaves this process room for it, else at the end."""
    out_path = Path(out)
    out_path.mkdir(parents=True, exist_ok=True)
    # the index names no compile until the end: each compile's files can be written in place
    fresh = not is_file(out_path, "session.json")
    if fresh:  # openable from the start, whatever happens next
        write_file(
            out_path,
            "session.json",
            index_json(session_index(session, complete=False, compiles=False)),
        )
    pending = [
        (comp, stage)
        for comp in session.compiles.values()
        for stage in comp.stages.values()
        if stage.captured and not (stage.file and is_file(out_path, stage.file))
    ]
    done = 0
    # one why per compile, for why.md and the index; a dump written once keeps none of it after
    cache = cache if cache is not None else IndexCache(session, keep=False)
    named = {comp.compile_id for comp, _ in pending}  # their stages get file names now
    cache.forget_entries(named)
    meanwhile = _once(meanwhile) if meanwhile is not None else None  # the writing child may fail after
    aside = _write_in_two(
        out_path,
        session,
        pending,
        complete=complete,
        cache=cache,
        provenance_written=provenance_written,
        fresh=fresh,
        meanwhile=meanwhile,
    )
    if aside is not None:  # all written but the index, put in place last as always (see `write_index`)
        try:
            if not output_written:
                write_file(out_path, "output.txt", session.output_text())
            put_in_place(out_path, aside, "session.json")
        finally:
            drop_aside(out_path, aside)
        return out_path
    cache.forget_entries(named)  # entries made on names `_write_in_two` then took back
    with DirCache(out_path) as dirs:
        try:
            for comp, stage in pending:
                write_stage_files(out_path, comp.compile_id, stage, _taken(comp, stage), dirs=dirs)
                done += 1
        except DumpError:
            for _comp, stage in pending[done:]:  # the index must not name files that are not there
                stage.file = ""
            _try_write_index(session, out_path, complete=complete)
            raise
        write_why_files(session, out_path, dirs=dirs, cache=cache)
        for comp in session.compiles.values():
            if comp.compile_id not in provenance_written:
                write_provenance(out_path, comp, dirs=dirs, origin=session.origin)
            write_accuracy_files(out_path, comp, dirs=dirs)
        write_index(session, out_path, complete=complete, dirs=dirs, cache=cache, output=not output_written)
    if meanwhile is not None:
        meanwhile()
    return out_path


def _once(work: Callable[[], object]) -> Callable[[], None]:
    called: list[bool] = []

    def call() -> None:
        if not called:
            called.append(True)
            work()

    return call


# Below this many stage files, a second process costs more than it saves. Creating a file or a
# folder is much of a dump's cost (from 0.03 ms on a quiet disk to 0.9 ms on a busy one, on a small
# VM), and the forked writer pays from about 30 stages there: a 175-stage rank log's
# `open --dump` is about 10% faster.
PARALLEL_MIN_STAGES = 64
# What `write_dump`'s `meanwhile` (the summary) weighs, in the compiles' own units of work (a
# compile's why and index line, or one stage file): about a third of a unit per compile.
MEANWHILE_UNITS_PER_COMPILE = 1 / 3


class _ChildFailed(Exception):
    """The forked writer of `_write_in_two` did not finish its share."""


def _write_in_two(
    out: Path,
    session: Session,
    pending: list[tuple[Compile, Stage]],
    *,
    complete: bool,
    cache: IndexCache | None = None,
    provenance_written: frozenset[str] = frozenset(),
    fresh: bool = False,
    meanwhile: Callable[[], object] | None = None,
) -> str | None:
    """Write the dump's files on two cores: this process the compiles up to a cut in index order
    (about half the work, less `meanwhile`'s, which it does while the child writes), a forked
    child the rest, each writing a compile's files and its index line together (`_write_share`).
    The child's lines go to a spool file, appended to this process's own into session.json's text
    beside its place (`write_aside`), whose name is returned. This process also names the child's
    stage files as the child does (the same code, without writing). `fresh`: the index on disk
    names no compile yet (`write_file`'s `fresh`). None (nothing done) where that cannot be: few
    stages or one compile, one core, no fork, threads running (forking them is unsafe), or an
    error in either process: the caller then writes them all itself."""
    if (
        len(pending) < PARALLEL_MIN_STAGES
        or (os.cpu_count() or 1) < 2
        or not hasattr(os, "fork")
        or threading.active_count() > 1
    ):
        return None
    compiles = session.ordered_compiles()
    stages: dict[str, list[Stage]] = {}
    for comp, stage in pending:
        stages.setdefault(comp.compile_id, []).append(stage)
    total = len(compiles) + len(pending)  # the work: a compile's why and files, and each stage's file
    extra = len(compiles) * MEANWHILE_UNITS_PER_COMPILE if meanwhile is not None else 0
    cut, done = 0, 0
    while cut < len(compiles) and (done + extra) * 2 < total + extra:
        done += 1 + len(stages.get(compiles[cut].compile_id, ()))
        cut += 1
    cut = min(cut, len(compiles) - 1)  # the child's share is never empty
    mine, theirs = compiles[:cut], compiles[cut:]
    if not mine:
        return None
    cache = cache if cache is not None else IndexCache(session)
    hints = cache.hints()  # worked out once, before the fork: the child's cache shares them
    try:
        spool = UnnamedFile(out)  # the child's index lines
    except OSError:
        return None
    with spool:
        pid = os.fork()
        if pid == 0:  # the child: its share, then out without running any of the parent's exit code
            code = 1
            try:
                gc.disable()  # a collection would write to every object's page: copies of them all
                share = _write_share(
                    out,
                    session,
                    theirs,
                    stages,
                    IndexCache(session, keep=False, hints=hints),
                    provenance_written,
                    fresh=fresh,
                )
                write_pieces(spool.fd, (",\n  " + line for line in share))
                code = 0
            finally:
                os._exit(code)
        return _write_mine(
            out,
            session,
            pending,
            mine,
            theirs,
            stages,
            cache,
            provenance_written,
            complete,
            fresh,
            pid,
            spool.fd,
            meanwhile,
        )


def _write_mine(
    out: Path,
    session: Session,
    pending: list[tuple[Compile, Stage]],
    mine: list[Compile],
    theirs: list[Compile],
    stages: dict[str, list[Stage]],
    cache: IndexCache,
    provenance_written: frozenset[str],
    complete: bool,
    fresh: bool,
    pid: int,
    spool: int,
    meanwhile: Callable[[], object] | None = None,
) -> str | None:
    """The parent's side of `_write_in_two`: its share, `meanwhile`, session.json beside its place
    (its own lines, then the child's from `spool`), the child waited for; None where anything
    failed, every stage then named as it was."""
    # how the stages were named, to name them so again if anything fails; most have no name yet
    # and no kernels (a log's), and are kept as none: a list of 200,000 stages is 24 MB
    names = [
        (stage, stage.file, [k.meta.get("file") for k in stage.kernels])
        for _, stage in pending
        if stage.file or stage.kernels
    ]
    reaped: list[int] = []

    def child_ended() -> bool:
        if not reaped:
            reaped.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
        return reaped[0] == 0

    def chunks() -> Iterator[str | bytes | FileCopy]:
        head = session_index(session, complete=complete, compiles=False, cache=cache)
        yield index_json(head).removesuffix("[]\n}").removesuffix("[]}") + "[\n  "
        for n, line in enumerate(_write_share(out, session, mine, stages, cache, provenance_written, fresh=fresh)):
            yield line if n == 0 else ",\n  " + line
        if meanwhile is not None:  # every stage file is named: the child's were before this share
            meanwhile()
        if not child_ended():
            raise _ChildFailed
        yield FileCopy(spool)  # the child's lines: hundreds of megabytes for a big log
        yield "\n ]\n}"

    aside: str | None = None
    try:
        for comp in theirs:  # named as the child names them
            for stage in stages.get(comp.compile_id, ()):
                write_stage_files(out, comp.compile_id, stage, _taken(comp, stage), write=False)
        aside = write_aside(out, "session.json", chunks())
    except (DumpError, _ChildFailed):
        if not reaped:
            os.kill(pid, signal.SIGKILL)
    finally:
        child_ended()
    if aside is not None:
        return aside
    for _, stage in pending:
        stage.file = ""
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
    compiles: list[Compile],
    stages: dict[str, list[Stage]],
    cache: IndexCache,
    provenance_written: frozenset[str],
    *,
    fresh: bool,
) -> Iterator[str]:
    """One process's share of `_write_in_two`: for each of `compiles`, the files of its `stages`,
    its why.md, provenance.json and accuracy files; then its index line, yielded. What `cache`
    held of the compile is dropped once its line is made (`done_with`)."""
    with DirCache(out, new=fresh) as dirs:
        for comp in compiles:
            cid = comp.compile_id
            for stage in stages.get(cid, ()):
                write_stage_files(out, cid, stage, _taken(comp, stage), dirs=dirs)
            why = safe_text(cache.markdown(cid))
            write_file(out, f"{compile_dir(cid)}/why.md", why, dirs=dirs, fresh=fresh)
            if cid not in provenance_written:
                write_provenance(out, comp, dirs=dirs, fresh=fresh, origin=session.origin)
            write_accuracy_files(out, comp, dirs=dirs)
            line = cache.line(comp)
            cache.done_with(cid)
            yield line


def _try_write_index(session: Session, out: Path, *, complete: bool) -> None:
    with contextlib.suppress(DumpError):
        write_index(session, out, complete=complete)

def write_index(
    session: Session,
    out: Path,
    *,
    complete: bool = True,
    dirs: DirCache | None = None,
    cache: IndexCache | None = None,
    output: bool = True,
) -> None:
    """output.txt (unless `output` is false: a live dump appends it), then session.json: each
    replaced whole (see `write_file`). `complete` is false while a live run still writes it: a
    dump whose tcdebug was killed says so."""
    if output:
        write_file(out, "output.txt", session.output_text(), dirs=dirs)
    write_file(out, "session.json", index_chunks(session, complete=complete, cache=cache), dirs=dirs)

_REPRO_INPUT = lazy_re(r"repro_inputs(/[A-Za-z0-9_.-]+)+")


def write_accuracy_files(out: Path, comp: Compile, *, dirs: DirCache | None = None) -> None:
    """`compiles/F-C/accuracy.md`, and where the comparison wrote one, `repro.py` with its saved
    inputs under `repro_inputs/` (`python repro.py` there runs it)."""
    acc = comp.accuracy
    if acc is None or not acc.done:
        return
    folder = compile_dir(comp.compile_id)
    write_file(out, f"{folder}/{accuracy_report.REPORT_FILE}", accuracy_report.report_markdown(comp), dirs=dirs)
    if not acc.repro:
        return
    import base64  # here: only an accuracy comparison's repro has inputs to decode
    import binascii

    for rel, data in acc.repro_inputs.items():
        if not _REPRO_INPUT().fullmatch(rel) or any(part in (".", "..") for part in rel.split("/")):
            continue  # only torch's content-store names, inside repro_inputs/
        try:
            blob = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            continue
        write_file(out, f"{folder}/{rel}", blob, dirs=dirs)
    write_file(out, f"{folder}/{accuracy_report.REPRO_FILE}", acc.repro, dirs=dirs)


def write_provenance(
    out: Path, comp: Compile, *, dirs: DirCache | None = None, fresh: bool = False, origin: str = ""
) -> None:
    """`compiles/F-C/provenance.json`: the compile's provenance index (see
    tcdebug.analysis.provenance_index). None for a compile of a TORCH_TRACE log (`origin`
    "trace"): what a log gives is read from the graphs' text, which the stage files hold, so
    `load_dump` reads it from them when it is first used, as the app does for the log."""
    if origin == "trace":
        return
    index = comp.provenance
    if index.items:
        text = entries_json(provenance.index_to_dict(index, comp.compile_id))
        write_file(out, f"{compile_dir(comp.compile_id)}/provenance.json", text, dirs=dirs, fresh=fresh)

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
        # output.txt grows as the script writes: appended, never rewritten. `_output_at` is how
        # far it holds `session.output` (a chunk's index, and characters of that chunk).
        self._output = AppendFile(self.out, "output.txt")
        self._output_at = (0, 0)
        self._append_output()
        self._write_index()

    def _append_output(self) -> None:
        """Append what the session's output gained since the last call."""
        chunks = self.session.output
        index, offset = self._output_at
        pieces: list[str] = []
        while index < len(chunks):
            text = chunks[index].text
            pieces.append(text[offset:] if offset else text)
            if index == len(chunks) - 1:  # it may grow further
                offset = len(text)
                break
            index, offset = index + 1, 0
        with signals_held():  # where it stands moves with what is written, even on SIGTERM
            self._output.write("".join(pieces))
            self._output_at = (index, offset)

    def on_event(self, event: Event) -> None:
        """Write what `event` (already applied to the session) brought."""
        kind = event.type
        if kind == "output":
            self._append_output()
            return  # no compile, no index entry: session.json does not name the output
        self._index.forget(event)
        changed = changed_compile(event)
        self._provenance_written.discard(changed or "")  # only a compile's own events change it
        if isinstance(event, StageEvent):
            stage = self.session.stage(event.compile_id, event.key)
            if stage is not None:
                comp = self.session.compiles[event.compile_id]
                try:
                    write_stage_files(self.out, event.compile_id, stage, _taken(comp, stage))
                except DumpError:
                    stage.file = ""
                    _try_write_index(self.session, self.out, complete=False)
                    raise
                if stage.file:
                    stage.text = None  # the file holds it now
                    stage.loader = file_loader(self.out, stage.file)
        if isinstance(event, AccuracyEvent):
            compared = self.session.compiles.get(event.accuracy.compile_id)
            if compared is not None:
                write_accuracy_files(self.out, compared)
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
        self._append_output()
        write_index(self.session, self.out, complete=False, cache=self._index, output=False)
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
        try:
            self._append_output()
        finally:
            self._output.close()
        return write_dump(
            self.session,
            self.out,
            complete=True,
            provenance_written=frozenset(self._provenance_written),
            cache=self._index,
            output_written=True,
        )
