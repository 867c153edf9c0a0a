"""`tcdebug torchrun …`: the command line side of a live multi-rank job (stdlib only).

`tcdebug [options] torchrun ARGS` and `tcdebug [options] -m torch.distributed.run ARGS` run
`python -m tcdebug.debuggee.torchrun ARGS` as the target: torch's own launcher, whose workers start
under `tcdebug.debuggee.rank` (see there). `--dump OUT` writes the layout of a multi-rank trace
dump: `OUT/ranks/N/` for every rank, and OUT itself the lowest rank.
"""

from __future__ import annotations

from pathlib import Path

from tcdebug.analysis.live_ranks import (
    LAUNCHER,
    LiveRanks,
    rank_processes,
    rank_sessions,
    rank_state,
    tagged_output,
)
from tcdebug.dump.safe_fs import make_dirs, remove_dump_files
from tcdebug.dump.writer import write_dump
from tcdebug.model.session import OutputChunk, ProcessInfo, Session
from tcdebug.trace.rank_logs import label_folder

__all__ = ["LiveRanks", "TORCHRUN_MODULE", "check_torchrun_args", "split_torchrun", "write_rank_dumps"]

TORCHRUN_MODULE = LAUNCHER
LAUNCHER_MODULES = ("torch.distributed.run",)
_VALUE_OPTIONS = ("--dump", "--break", "--rerun")


def split_torchrun(argv: list[str]) -> tuple[list[str], list[str] | None]:
    """(tcdebug's options, torchrun's arguments) when `argv` runs torchrun, else (argv, None)."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "torchrun":
            return argv[:i], argv[i + 1 :]
        if arg == "-m":
            if i + 1 < len(argv) and argv[i + 1] in LAUNCHER_MODULES:
                return argv[:i], argv[i + 2 :]
            return argv, None
        if arg in _VALUE_OPTIONS:
            i += 2
            continue
        if not arg.startswith("-"):
            return argv, None  # a script
        i += 1
    return argv, None


def check_torchrun_args(args: list[str]) -> str:
    """A one-line problem with torchrun's arguments, or ""."""
    if not [a for a in args if not a.startswith("-")]:
        return "torchrun needs a training script: tcdebug torchrun --nproc-per-node 2 train.py [args]"
    if any(a in ("--no-python", "--no_python") for a in args):
        return "torchrun --no-python is not supported: tcdebug runs Python workers"
    return ""


def write_rank_dumps(session: Session, out: str) -> list[str]:
    """Rewrite OUT (the whole job, written live) as a multi-rank dump: `ranks/N/` per rank, then
    OUT itself as the lowest rank, with the job's notes and divergences. Returns the labels."""
    sessions = rank_sessions(session, load_text=True)
    if not sessions:
        return []
    remove_dump_files(Path(out))  # the live index and its files; the stages' texts are loaded
    for label, rank_session in sessions.items():
        rank_session.divergences = list(session.divergences)
        write_dump(rank_session, make_dirs(out, f"ranks/{label_folder(label)}"))
    root = next(iter(sessions.values()))
    root.notes = [*session.notes, *root.notes]
    if session.output:
        # OUT/output.txt: the whole job's output as the output pane shows it. It also holds what
        # only the launcher's output has: torchrun's own lines, and what a worker writes below
        # Python, which reaches no rank's channel.
        root.output = [OutputChunk("stdout", tagged_output(session))]
    root.extra = {
        **root.extra,
        "job": {
            "launcher_exit_code": session.exit_code,
            "ranks": {label: rank_state(info, session) for label, info in _infos(session).items()},
        },
    }
    write_dump(root, out)
    return list(sessions)


def _infos(session: Session) -> dict[str, ProcessInfo]:
    return {str(rank): info for rank, info in rank_processes(session).items()}


def rank_summary(session: Session, labels: list[str], out: str) -> str:
    """`ranks: 0 in ranks/0/ (finished (exit code 0)), 1 in ranks/1/ (…) (under OUT/)`."""
    if not labels:
        return "ranks: no rank connected to tcdebug"
    infos = rank_processes(session)
    parts = []
    for label in labels:
        info = infos.get(int(label))
        state = rank_state(info, session) if info is not None else "?"
        parts.append(f"{label} in ranks/{label_folder(label)}/ ({state})")
    divs = len(session.divergences)
    tail = f"; {divs} divergence{'s' if divs != 1 else ''}" if divs else ""
    return f"ranks: {', '.join(parts)} (under {out}/){tail}"
