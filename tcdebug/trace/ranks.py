"""Several ranks: find one log per rank and say where the ranks diverge.

A distributed job writes `dedicated_log_torch_trace_rank_N_<random>.log` per rank. Ranks that
compile different graphs, or recompile for different reasons, are a classic cause of hangs
(collectives that do not match), so `divergences()` lists them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tcdebug import stages as stage_catalog
from tcdebug.session import Session

LOG_GLOB = "dedicated_log_torch_trace*"
_RANK_RE = re.compile(r"rank_(\d+)_")
# Graph stages compared across ranks (by payload md5), in pipeline order.
GRAPH_STAGES = (
    "dynamo_graph",
    "aot_joint",
    "aot_forward",
    "aot_backward",
    "aot_inference",
    "inductor_post_grad_graph",
)


@dataclass
class Divergence:
    """One way the ranks differ. `groups` maps a value's label to the ranks that have it."""

    kind: str  # "compile_ids", "graph", "recompile_reason", "status"
    compile_id: str
    detail: str
    ranks: list[int] = field(default_factory=list)  # ranks that differ from the first rank
    groups: dict[str, list[int]] = field(default_factory=dict)
    stage_key: str = ""  # for "graph": the first stage whose graph differs

    @property
    def summary(self) -> str:
        return f"{self.compile_id} {self.detail}"


def rank_of_file(path: Path) -> int | None:
    m = _RANK_RE.search(path.name)
    return int(m.group(1)) if m else None


def find_trace_logs(path: str | Path) -> list[Path]:
    """The log files at `path`: the file itself, or the TORCH_TRACE logs in a folder."""
    root = Path(path)
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise FileNotFoundError(f"no such file or folder: {root}")
    logs = sorted(p for p in root.glob(LOG_GLOB) if p.is_file())
    if not logs:
        logs = sorted(p for p in root.glob("*.log") if p.is_file())
    if not logs:
        raise ValueError(f"no TORCH_TRACE logs ({LOG_GLOB} or *.log) in {root}")
    return logs


def _graph_md5s(session: Session, compile_id: str) -> dict[str, str]:
    comp = session.compiles.get(compile_id)
    if comp is None:
        return {}
    return {
        key: str(stage.meta.get("md5", ""))
        for key, stage in comp.stages.items()
        if stage.captured and stage_catalog.split_key(key)[0] in GRAPH_STAGES
    }


def _groups(values: dict[int, str]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {}
    for rank in sorted(values):
        groups.setdefault(values[rank], []).append(rank)
    return groups


def _ranks_text(ranks: list[int]) -> str:
    return f"rank{'s' if len(ranks) > 1 else ''} {', '.join(map(str, ranks))}"


def divergences(sessions: dict[int, Session]) -> list[Divergence]:
    """Where the ranks differ: compile ids, graphs for the same id, recompile reasons, outcome."""
    if len(sessions) < 2:
        return []
    all_ranks = sorted(sessions)
    first = all_ranks[0]
    comps = {c.compile_id: c for r in reversed(all_ranks) for c in sessions[r].compiles.values()}
    ids = sorted(comps, key=lambda cid: (comps[cid].frame_id, comps[cid].frame_compile_id, cid))
    out: list[Divergence] = []
    for cid in ids:
        have = [r for r in all_ranks if cid in sessions[r].compiles]
        if len(have) < len(all_ranks):
            missing = [r for r in all_ranks if r not in have]
            reasons = {sessions[r].compiles[cid].recompile_reason.strip() for r in have} - {""}
            why = f", recompile: {sorted(reasons)[0].splitlines()[0]}" if reasons else ""
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
        out.extend(_graph_divergence(sessions, cid, have))
        reasons = {r: sessions[r].compiles[cid].recompile_reason.strip() for r in have}
        if len(set(reasons.values())) > 1:
            groups = _groups({r: v or "(no recompile)" for r, v in reasons.items()})
            out.append(
                Divergence(
                    "recompile_reason",
                    cid,
                    "recompiles for different reasons: "
                    + "; ".join(f"{_ranks_text(rs)}: {v.splitlines()[0]}" for v, rs in groups.items()),
                    ranks=[r for r in have if reasons[r] != reasons[have[0]]],
                    groups=groups,
                )
            )
        statuses = {r: sessions[r].compiles[cid].status for r in have}
        if len(set(statuses.values())) > 1:
            groups = _groups(statuses)
            out.append(
                Divergence(
                    "status",
                    cid,
                    "ends differently: " + "; ".join(f"{_ranks_text(rs)}: {v}" for v, rs in groups.items()),
                    ranks=[r for r in have if statuses[r] != statuses[have[0]]],
                    groups=groups,
                )
            )
    return out


def _graph_divergence(sessions: dict[int, Session], cid: str, have: list[int]) -> list[Divergence]:
    md5s = {r: _graph_md5s(sessions[r], cid) for r in have}
    keys = sorted({k for m in md5s.values() for k in m}, key=stage_catalog.sort_key)
    differing = [k for k in keys if len({md5s[r].get(k, "") for r in have}) > 1]
    if not differing:
        return []
    key = differing[0]
    values = {r: md5s[r].get(key, "") for r in have}
    labels: dict[str, str] = {}
    for r in have:  # "graph A", "graph B", ... in rank order; "" is a missing stage
        labels.setdefault(values[r], "(none)" if not values[r] else f"graph {chr(65 + len(labels))}")
    groups = _groups({r: labels[values[r]] for r in have})
    title = stage_catalog.kind(stage_catalog.split_key(key)[0]).title
    more = (
        f" (and {len(differing) - 1} later graph{'s' if len(differing) > 2 else ''})"
        if len(differing) > 1
        else ""
    )
    detail = f"{title} differs: " + " | ".join(f"{_ranks_text(rs)}: {g}" for g, rs in groups.items()) + more
    return [
        Divergence(
            "graph",
            cid,
            detail,
            ranks=[r for r in have if values[r] != values[have[0]]],
            groups=groups,
            stage_key=key,
        )
    ]
