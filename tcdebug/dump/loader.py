"""Reading a dump: `validate_index` checks session.json field by field, `load_dump` rebuilds the
session (stage texts read when first shown), `load_provenance` a compile's provenance.json (or,
in a dump of a TORCH_TRACE log, which has none, the provenance read from its stage files)."""

from __future__ import annotations

import functools
import json
import math
import os
import stat
from pathlib import Path
from typing import Any

from tcdebug.analysis import provenance_index as provenance
from tcdebug.analysis.provenance_from_log import provenance_from_log
from tcdebug.dump.index import COPIED_FIELDS, FORMAT, FORMAT_VERSION, SessionIndex
from tcdebug.dump.safe_fs import (
    MAX_FILE_BYTES_ENV,
    DumpError,
    Unreadable,
    compile_dir,
    file_kind,
    file_loader,
    max_file_bytes,
    open_dir,
    read_confined,
    split_rel,
)
from tcdebug.model import schema
from tcdebug.model import stages as stage_catalog
from tcdebug.model.payloads import PhaseTimes
from tcdebug.model.session import LOADED, Compile, GraphBreak, OutputChunk, Session, Stage


def load_provenance(
    root: Path, compile_id: str, index: provenance.ProvenanceIndex, *, of_log: Compile | None = None
) -> None:
    """A compile's `provenance.json` into `index` (`Compile.provenance_loader` calls it when the
    index is first used), every field checked by the codec; a bad file leaves one line in the
    index's notes (`provenance.json unreadable: items[3].lines: expected a list, got 7`), nothing else.
    `of_log`: the compile, in a dump of a TORCH_TRACE log. Such a dump has no provenance.json: what
    a log gives is read from the graphs' text, so it is read from the stage files, as for the log."""
    try:
        data = json.loads(read_confined(root, f"{compile_dir(compile_id)}/provenance.json"))
    except Unreadable:
        if of_log is not None:
            derived = provenance_from_log(of_log)
            index.add(derived.items.values(), derived.links, derived.notes, derived.symbols)
        return  # none written (or not a plain file of the dump)
    except (ValueError, RecursionError) as exc:
        index.notes.append(f"provenance.json unreadable: {exc}")
        return
    if not isinstance(data, dict):
        index.notes.append(f"provenance.json unreadable: expected an object, got {schema.shown(data)}")
        return
    try:
        provenance.apply_dict(index, data, "")
    except schema.SchemaError as exc:
        index.notes.append(f"provenance.json unreadable: {exc}")


# ----- session.json, validated by its schema ------------------------------------------------
def validate_index(index: Any) -> SessionIndex:
    """session.json's content as a `SessionIndex`, every field checked against the dataclasses
    that define it (`tcdebug.model.schema`); `DumpError` names the first field that has the wrong
    type or is missing, e.g. `session.json: compiles[3].compile_id: expected a string, got 7`."""
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise DumpError(f'session.json: not a tcdebug session index (no "format": "{FORMAT}")')
    version = index.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        raise DumpError(
            f"session.json: version {version} was written by a newer tcdebug (this one reads {FORMAT_VERSION})"
        )
    try:
        checked = schema.from_json(SessionIndex, index)
        _check_inside(checked)
    except schema.SchemaError as exc:
        raise DumpError(f"session.json: {exc}") from None
    return checked


def _check_inside(index: SessionIndex) -> None:
    """What the field types leave open: a compile's phase times have `PhaseTimes`' shape, and
    every file name the index gives is a string a file system can take (no NUL, no lone
    surrogate). `SchemaError` names the first that is not."""
    for i, c in enumerate(index.compiles):
        schema.from_json(PhaseTimes, c.times, f"compiles[{i}].times")
        for j, stage in enumerate(c.stages):
            where = f"compiles[{i}].stages[{j}]"
            _check_file_name(stage.file, f"{where}.file")
            for k, kernel in enumerate(stage.kernels):
                if "file" in kernel.meta:
                    _check_file_name(kernel.meta["file"], f"{where}.kernels[{k}].meta.file")


def _check_file_name(name: object, where: str) -> None:
    if not isinstance(name, str):
        raise schema.SchemaError(where, "a string", name)
    if "\x00" in name:
        raise schema.SchemaError(where, "a file name without NUL", name)
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise schema.SchemaError(where, "a file name without lone surrogates", name) from None


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
        data = json.loads(raw)
    except RecursionError as exc:
        raise DumpError("session.json: not valid JSON (nested too deeply)") from exc
    except ValueError as exc:
        raise DumpError(f"session.json: not valid JSON ({exc})") from exc
    index = validate_index(data)
    session = Session(
        script=index.script,
        argv=index.argv,
        origin="dump",
        torch_version=index.torch_version,
        python=index.python,
        device=index.device,
        cold=index.cold,
        state=LOADED,
        exit_code=index.exit_code,
        error=index.error,
        notes=index.notes,
        extra=index.extra,
    )
    session.rank = index.rank  # the rank this dump is of (a job's rank, or its root: the lowest)
    session.rank_label = index.rank_label
    session.extra["recorded_state"] = index.state
    if index.complete is False:
        # Written by a tcdebug that was killed before it could finish the dump.
        session.extra["recorded_state"] = "interrupted"
        session.extra["interrupted"] = True
        session.notes.append(
            "interrupted: tcdebug ended before this dump was finished; it holds what was written"
        )
    session.main_pid = index.main_pid
    for p in index.processes:
        p.label = p.label or f"pid {p.pid}"
        p.stepping = False  # a dump steps nothing
        p.pg_timeout_s = _seconds_or_none(p.pg_timeout_s)
        session.processes[p.pid] = p
    of_log = index.origin == "trace"  # its compiles' provenance is read from their stage files
    for i, c in enumerate(index.compiles):
        comp = Compile(**{name: getattr(c, name) for name in COPIED_FIELDS})
        comp.graph_breaks = [GraphBreak(comp.compile_id, gb.reason, gb.user_stack) for gb in c.graph_breaks]
        for stage, raw_stage in zip(c.stages, data["compiles"][i]["stages"], strict=True):
            kind = stage_catalog.kind(stage.stage_id)
            stage.title = stage.title or kind.title
            stage.language = raw_stage.get("language") or kind.language
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
        comp.provenance_loader = functools.partial(
            load_provenance, root, comp.compile_id, of_log=comp if of_log else None
        )
        session.compiles[comp.compile_id] = comp
    session.reruns = index.reruns
    session.calls = index.calls
    session.stance_events = index.stances
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
        parts = split_rel(stage.file)
        dfd = open_dir(root, parts[:-1], create=False)
        try:
            st = os.stat(parts[-1], dir_fd=dfd, follow_symlinks=False)
        finally:
            os.close(dfd)
        if stat.S_ISLNK(st.st_mode):
            raise Unreadable(f"{stage.file}: a symbolic link (tcdebug reads only inside the dump folder)")
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable(f"{stage.file}: not a regular file ({file_kind(st.st_mode)})")
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
    stage.loader = file_loader(root, stage.file)
