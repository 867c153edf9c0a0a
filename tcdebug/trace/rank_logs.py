"""Several ranks: find one log per rank and say where the ranks diverge.

A distributed job writes `dedicated_log_torch_trace_rank_N_<random>.log` per rank. Ranks that
compile different graphs, or recompile for different reasons, are a classic cause of hangs
(collectives that do not match), so `divergences()` lists them. Every log is its own entry: a
second log of one rank (a restarted rank, two jobs into one folder) is labelled "1 (2)".
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import Session, Stage
from tcdebug.trace.divergence import Divergence, ranks_text
from tcdebug.trace.rank_records import parity, record_divergences

LOG_GLOB = "dedicated_log_torch_trace*"
_RANK_RE = re.compile(r"rank_(\d+)(?=[_.]|$)")
GRAPH_STAGES = stage_catalog.GRAPH_STAGES  # compared across ranks (by payload md5)


def rank_of_file(path: Path) -> int | None:
    """The rank a log's file name gives (`dedicated_log_torch_trace_rank_2.log`, `..._rank_0_6u3f.log`),
    as tlparse names ranks; None when the name has none."""
    m = _RANK_RE.search(path.name)
    return int(m.group(1)) if m else None


def rank_label(rank: int, n: int) -> str:
    """The entry label of the n-th log (1-based) that reports `rank`: "1", then "1 (2)"."""
    return str(rank) if n == 1 else f"{rank} ({n})"


def rank_number(label: str) -> int:
    """The rank an entry label stands for ("1 (2)" -> 1)."""
    head = label.split(" ", 1)[0]
    return int(head) if head.isdigit() else -1


def label_folder(label: str) -> str:
    """A folder name for an entry label: "1", "1_2" (labels are made of numbers only)."""
    return label.replace(" (", "_").replace(")", "")


def find_trace_logs(path: str | Path) -> list[Path]:
    """The log files at `path`: the file itself, or the TORCH_TRACE logs in a folder."""
    return scan_trace_logs(path)[0]


def scan_trace_logs(path: str | Path) -> tuple[list[Path], list[str]]:
    """The log files at `path` (the file itself, or the TORCH_TRACE logs in a folder), and a note
    for each file of the folder skipped: a symlink that leads out of the folder, or anything but
    a regular file (a FIFO, a device), which would hang or drain on reading (a dump's folder is
    read the same way: `tcdebug.dump.safe_fs.read_confined`)."""
    root = Path(path)
    if root.is_file():
        return [root], []
    if not root.is_dir():
        raise FileNotFoundError(f"no such file or folder: {root}")
    notes: list[str] = []
    logs = _regular_logs(root, LOG_GLOB, notes)
    if not logs:
        notes = []
        logs = _regular_logs(root, "*.log", notes)
    if not logs:
        raise ValueError(f"no TORCH_TRACE logs ({LOG_GLOB} or *.log) in {root}")
    return logs, notes


def _regular_logs(root: Path, pattern: str, notes: list[str]) -> list[Path]:
    inside = root.resolve()
    logs: list[Path] = []
    for candidate in sorted(root.glob(pattern)):
        try:
            st = os.lstat(candidate)
            if stat.S_ISLNK(st.st_mode):
                target = candidate.resolve()
                if not target.is_relative_to(inside):
                    notes.append(f"{candidate.name}: skipped: a symbolic link out of the folder ({target})")
                    continue
                st = os.stat(candidate)
        except (OSError, RuntimeError) as exc:  # a dangling link, a loop
            notes.append(f"{candidate.name}: skipped: {getattr(exc, 'strerror', None) or exc}")
            continue
        if stat.S_ISDIR(st.st_mode):
            continue
        if not stat.S_ISREG(st.st_mode):
            notes.append(f"{candidate.name}: skipped: not a regular file ({_kind(st.st_mode)})")
            continue
        logs.append(candidate)
    return logs


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device")):
        if test(mode):
            return name
    return "a device" if stat.S_ISBLK(mode) else "a special file"


# ----- normalising what legitimately differs between processes -------------------------------
_NORMALISE = (
    (re.compile(r"\bcuda:\d+"), "cuda:N"),
    (re.compile(r"(device\(type='cuda', index=)\d+"), r"\1N"),
    (re.compile(r"(___check_(?:obj|type)_id\([^\n]*?,\s*)\d+(?=\))"), r"\1<id>"),
    (re.compile(r"\b0x[0-9a-fA-F]{4,}\b"), "0x<addr>"),
)


def normalise(text: str) -> str:
    """`text` without device indices and object addresses, which differ per rank by design."""
    for pattern, repl in _NORMALISE:
        text = pattern.sub(repl, text)
    return text


Settled = Callable[[str, str], bool]  # (rank label, compile id) -> no more stages of it can come


def _digest(stage: Stage) -> str:
    import hashlib  # here: a single log never compares graphs, and hashlib loads OpenSSL

    text = stage.get_text()
    return hashlib.md5(normalise(text).encode(), usedforsecurity=False).hexdigest()


def _graph_stages(session: Session, compile_id: str) -> dict[str, Stage]:
    comp = session.compiles.get(compile_id)
    if comp is None:
        return {}
    return {
        key: stage
        for key, stage in comp.stages.items()
        if stage.captured and stage_catalog.split_key(key)[0] in GRAPH_STAGES
    }


def _groups(values: dict[str, str], order: list[str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for label in order:
        if label in values:
            groups.setdefault(values[label], []).append(label)
    return groups


_ranks_text = ranks_text  # the name the comparisons above use


def divergences(sessions: dict[str, Session], settled: Settled | None = None) -> list[Divergence]:
    """Where the ranks differ: compile ids, graphs for the same id, recompile reasons, outcome.

    A rank with several logs compiled an id if any of its logs did; graphs, reasons and outcomes
    are compared between every log that has the id. Device indices and object addresses are
    normalised first (`normalise`): rank N runs on cuda:N, and its objects live elsewhere.
    `settled(label, compile_id)`, live: whether that rank can send no more stages of the compile
    (a graph it lacks counts as missing only then); None: every entry is complete (logs, dumps).
    """
    if len(sessions) < 2:
        return []
    order = list(sessions)
    first = order[0]
    numbers = {label: rank_number(label) for label in order}
    comps = {c.compile_id: c for label in reversed(order) for c in sessions[label].compiles.values()}
    ids = sorted(
        comps, key=lambda cid: (comps[cid].run, comps[cid].frame_id, comps[cid].frame_compile_id, cid)
    )
    out: list[Divergence] = []
    for cid in ids:
        have = [label for label in order if cid in sessions[label].compiles]
        ranks_with = {numbers[label] for label in have}
        missing = [label for label in order if numbers[label] not in ranks_with]
        if missing:
            why_set = {sessions[label].compiles[cid].recompile_reason.strip() for label in have} - {""}
            why = f", recompile: {sorted(why_set)[0].splitlines()[0]}" if why_set else ""
            out.append(
                Divergence(
                    "compile_ids",
                    cid,
                    f"compiled on {_ranks_text(have)} only (not on {_ranks_text(missing)}){why}",
                    ranks=missing if first in have else have,
                    groups={"compiled": have, "not compiled": missing},
                )
            )
        if len(have) < 2:
            continue
        out.extend(_graph_divergence(sessions, cid, have, settled))
        raw = {label: sessions[label].compiles[cid].recompile_reason.strip() for label in have}
        reasons = {label: normalise(v) for label, v in raw.items()}
        if len(set(reasons.values())) > 1:
            shown = {label: raw[label] or "(no recompile)" for label in have}
            by_reason = _groups({label: reasons[label] for label in have}, have)
            out.append(
                Divergence(
                    "recompile_reason",
                    cid,
                    "recompiles for different reasons: "
                    + "; ".join(
                        f"{_ranks_text(ls)}: {shown[ls[0]].splitlines()[0]}" for ls in by_reason.values()
                    ),
                    ranks=[label for label in have if reasons[label] != reasons[have[0]]],
                    groups={shown[ls[0]]: ls for ls in by_reason.values()},
                )
            )
        statuses = {label: sessions[label].compiles[cid].status for label in have}
        if len(set(statuses.values())) > 1:
            groups = _groups(statuses, have)
            out.append(
                Divergence(
                    "status",
                    cid,
                    "ends differently: " + "; ".join(f"{_ranks_text(ls)}: {v}" for v, ls in groups.items()),
                    ranks=[label for label in have if statuses[label] != statuses[have[0]]],
                    groups=groups,
                )
            )
    if settled is None:  # logs and dumps: the records of the whole run are there
        out.extend(record_divergences(sessions, order))
        for label in order:
            out.extend(parity(sessions[label], label))
    return out


def _graph_divergence(
    sessions: dict[str, Session], cid: str, have: list[str], settled: Settled | None = None
) -> list[Divergence]:
    stages = {label: _graph_stages(sessions[label], cid) for label in have}
    keys = sorted({k for m in stages.values() for k in m}, key=stage_catalog.sort_key)
    values: dict[str, dict[str, str]] = {}  # stage key -> entry -> what is compared
    for key in keys:
        present = {label: stages[label].get(key) for label in have}
        if settled is not None:  # a stage a rank may still send (a lazy backward) is not missing yet
            present = {label: st for label, st in present.items() if st is not None or settled(label, cid)}
            if len(present) < 2:
                continue
        md5s = {
            label: str(st.meta.get("md5", "")) if st is not None and not st.meta.get("md5_mismatch") else ""
            for label, st in present.items()
        }
        if all(md5s.values()) and len(set(md5s.values())) == 1:
            continue  # the same payload everywhere: no need to read it
        values[key] = {label: _digest(st) if st is not None else "" for label, st in present.items()}
    differing = [k for k in keys if k in values and len(set(values[k].values())) > 1]
    if not differing:
        return []
    key = differing[0]
    value = values[key]
    have = [label for label in have if label in value]
    labels: dict[str, str] = {}
    for label in have:  # "graph A", "graph B", ... in entry order; "" is a missing stage
        labels.setdefault(value[label], "(none)" if not value[label] else f"graph {chr(65 + len(labels))}")
    groups = _groups({label: labels[value[label]] for label in have}, have)
    title = stage_catalog.kind(stage_catalog.split_key(key)[0]).title
    more = (
        f" (and {len(differing) - 1} later graph{'s' if len(differing) > 2 else ''})"
        if len(differing) > 1
        else ""
    )
    detail = f"{title} differs: " + " | ".join(f"{_ranks_text(ls)}: {g}" for g, ls in groups.items()) + more
    return [
        Divergence(
            "graph",
            cid,
            detail,
            ranks=[label for label in have if value[label] != value[have[0]]],
            groups=groups,
            stage_key=key,
        )
    ]
