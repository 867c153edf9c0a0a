"""Reading a dump: `validate_index` checks session.json field by field, `load_dump` rebuilds the
session (stage texts read when first shown), `load_provenance` a compile's provenance.json."""

from __future__ import annotations

import functools
import json
import math
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tcdebug.analysis import provenance_index as provenance
from tcdebug.dump.index import FORMAT, FORMAT_VERSION
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
)


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
