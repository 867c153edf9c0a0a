"""The dump folder: `session.json` (an index) plus one readable text file per stage.

Layout::

    OUT/session.json
    OUT/output.txt                      the script's stdout and stderr
    OUT/compiles/0-0/02_dynamo_graph.py
    OUT/compiles/0-0/10_kernel_source.forward.py
    OUT/compiles/0-0/kernels/cpp_fused_relu_0.cpp

`DumpWriter` writes stage files as events arrive, so a crash keeps what came before.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

from tcdebug import stages as stage_catalog
from tcdebug.session import (
    LOADED,
    Compile,
    GraphBreak,
    OutputChunk,
    Session,
    Stage,
    call_from_dict,
    rerun_from_dict,
    stage_from_dict,
    stage_to_dict,
)
from tcdebug.stage_text import full_text

FORMAT_VERSION = 1
_KERNEL_EXT = {"cpp": "cpp", "python": "py", "triton": "py"}


class DumpError(Exception):
    pass


def compile_dir(compile_id: str) -> str:
    return "compiles/" + re.sub(r"[^0-9A-Za-z_.-]", "-", compile_id.lstrip("!"))


def stage_relpath(compile_id: str, stage: Stage) -> str:
    kind = stage_catalog.kind(stage.stage_id)
    order = stage_catalog.ORDER.get(stage.stage_id, 99)
    return f"{compile_dir(compile_id)}/{order:02d}_{stage.key}.{kind.ext}"


def write_stage_files(out: Path, compile_id: str, stage: Stage) -> None:
    """Write a stage's text (and its kernels) under `out`, setting `stage.file`."""
    if not stage.captured:
        return
    rel = stage_relpath(compile_id, stage)
    _write(out / rel, full_text(stage))  # the IR after fusion with its fusion log, as the app shows it
    stage.file = rel
    for kernel in stage.kernels:
        krel = f"{compile_dir(compile_id)}/kernels/{kernel.name}.{_KERNEL_EXT.get(kernel.language, 'txt')}"
        _write(out / krel, kernel.source)
        kernel.meta["file"] = krel


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", errors="replace")


def session_index(session: Session) -> dict[str, Any]:
    return {
        "format": "tcdebug-session",
        "version": FORMAT_VERSION,
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
        "trace_stats": session.trace_stats,
        "divergences": [asdict(d) if is_dataclass(d) else d for d in session.divergences],
        "compiles": [
            {
                "compile_id": c.compile_id,
                "function": c.function,
                "filename": c.filename,
                "firstlineno": c.firstlineno,
                "status": c.status,
                "error": c.error,
                "rank": c.rank,
                "recompile_reason": c.recompile_reason,
                "elapsed_s": round(c.elapsed_s, 6),
                "metrics": c.metrics,
                "graph_breaks": [{"reason": gb.reason, "user_stack": gb.user_stack} for gb in c.graph_breaks],
                "stages": [stage_to_dict(s, with_text=False) for s in c.ordered_stages()],
            }
            for c in session.ordered_compiles()
        ],
        "reruns": [_rerun_dict(r) for r in session.reruns],
        "calls": [_rerun_dict(c) for c in session.calls],
    }


def _rerun_dict(rerun: Any) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(rerun)


def write_dump(session: Session, out: str | os.PathLike[str]) -> Path:
    """Write the whole session to `out` (stage files, output.txt, session.json)."""
    out_path = Path(out)
    out_path.mkdir(parents=True, exist_ok=True)
    for comp in session.compiles.values():
        for stage in comp.stages.values():
            if stage.captured and not (stage.file and (out_path / stage.file).exists()):
                write_stage_files(out_path, comp.compile_id, stage)
    write_index(session, out_path)
    return out_path


def write_index(session: Session, out: Path) -> None:
    _write(out / "output.txt", session.output_text())
    tmp = out / "session.json.tmp"
    tmp.write_text(json.dumps(session_index(session), indent=1, default=str), encoding="utf-8")
    os.replace(tmp, out / "session.json")


class DumpWriter:
    """Keeps a dump folder up to date while a live session runs."""

    # The index is rewritten whole; at most this often between compiles, so a run of hundreds
    # of compiles does not spend quadratic time on it. Ends of runs always write it.
    INDEX_INTERVAL_S = 1.0

    def __init__(self, session: Session, out: str | os.PathLike[str]) -> None:
        self.session = session
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self._index_written = 0.0

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "stage":
            stage = self.session.stage(
                event["compile_id"], stage_catalog.stage_key(event["stage"], event.get("part", ""))
            )
            if stage is not None:
                write_stage_files(self.out, event["compile_id"], stage)
                stage.text = None  # the file holds it now
                stage.loader = _file_loader(self.out / stage.file) if stage.file else None
        now = time.monotonic()
        if kind in ("script_end", "rerun", "target_died", "target_exited") or (
            kind == "compile_end" and now - self._index_written >= self.INDEX_INTERVAL_S
        ):
            write_index(self.session, self.out)
            self._index_written = now

    def finish(self) -> Path:
        return write_dump(self.session, self.out)


def _file_loader(path: Path):  # noqa: ANN202 - returns a zero-arg callable
    return lambda: path.read_text(encoding="utf-8", errors="replace")


def load_dump(path: str | os.PathLike[str]) -> Session:
    """Rebuild a session from a dump folder. Stage texts are read when first shown."""
    root = Path(path)
    index_file = root / "session.json" if root.is_dir() else root
    root = index_file.parent
    try:
        index = json.loads(index_file.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DumpError(f"{index_file}: no session.json here (is this a tcdebug dump?)") from exc
    except ValueError as exc:
        raise DumpError(f"{index_file}: not valid JSON ({exc})") from exc
    if not isinstance(index, dict) or index.get("format") != "tcdebug-session":
        raise DumpError(f"{index_file}: not a tcdebug session index")
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
    session.extra["recorded_state"] = index.get("state", "")
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
        )
        comp.graph_breaks = [
            GraphBreak(comp.compile_id, gb.get("reason", ""), list(gb.get("user_stack", [])))
            for gb in c.get("graph_breaks", [])
        ]
        for s in c.get("stages", []):
            stage = stage_from_dict({**s, "stage": s.get("id")})
            if stage.file:
                stage.loader = _file_loader(root / stage.file)
            for kernel in stage.kernels:
                kfile = kernel.meta.get("file")
                if kfile and (root / kfile).exists():
                    kernel.source = (root / kfile).read_text(encoding="utf-8", errors="replace")
            comp.stages[stage.key] = stage
        session.compiles[comp.compile_id] = comp
    session.reruns = [rerun_from_dict(r) for r in index.get("reruns", [])]
    session.calls = [call_from_dict(c) for c in index.get("calls", [])]
    output = root / "output.txt"
    if output.exists():
        session.output = [OutputChunk("stdout", output.read_text(encoding="utf-8", errors="replace"))]
    return session
