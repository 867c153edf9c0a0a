"""Multi-rank analyses of the records Inductor logs for tlparse: collective schedules, the
collectives each output code calls, cache hits and misses, the graph execution order, runtime
estimates and tensor metadata.

Each analysis compares what every rank logged and, where the ranks differ, returns a
`Divergence` naming the ranks of each group, the first item that differs and, in `texts`, each
group's whole sequence one item a line (what `d` diffs). `parity` checks one rank on its own: a
collective its output code starts with no `wait_tensor`, or a schedule that does not match the
code (tlparse's Collectives Parity report).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from tcdebug.lazy_re import lazy_re
from tcdebug.model import records
from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import EXECUTION_ORDER, GRAPH_EXECUTIONS, Compile, Session
from tcdebug.trace.divergence import Divergence, ranks_text

Item = tuple[str, str]  # (compile id, what)

# Inductor's output code calls a collective as `torch.ops._c10d_functional.<op>.default(`.
_CALL_RE = lazy_re(r"torch\s*\.\s*ops\s*\.\s*_?c10d_functional\s*\.\s*(\w+)\s*\.\s*default\s*\(")
_COMMENT_RE = lazy_re(r"#.*$|//.*$", re.MULTILINE)
_BLOCK_COMMENT_RE = lazy_re(r"/\*.*?\*/", re.DOTALL)
_KINDS = ("all_reduce", "reduce_scatter", "all_gather", "broadcast", "all_to_all")


def _artifact_texts(comp: Compile, name: str) -> list[str]:
    """The payloads of `comp`'s artifact stages named `name`, in stage order."""
    out = []
    for stage in comp.stages.values():
        if stage.captured and stage.meta.get("artifact") == name:
            try:
                out.append(stage.get_text())
            except OSError:
                continue
    return out


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def short_op(op: str) -> str:
    """`torch.ops._c10d_functional.all_reduce_.default` -> `all_reduce_`."""
    parts = op.split(".")
    return parts[-2] if len(parts) >= 2 and parts[-1] == "default" else op


def collective_sequence(session: Session) -> list[Item]:
    """Every collective the rank's compiles scheduled, in compile order."""
    out: list[Item] = []
    for comp in session.ordered_compiles():
        for text in _artifact_texts(comp, records.COLLECTIVE_SCHEDULE):
            ops = _json(text)
            if isinstance(ops, list):
                out.extend((comp.compile_id, short_op(str(op))) for op in ops)
    return out


def cache_sequence(session: Session) -> list[Item]:
    """Each compile's cache hits, misses and bypasses (per cache), in compile order."""
    out: list[Item] = []
    for comp in session.ordered_compiles():
        cache = comp.metrics.get("cache")
        if not isinstance(cache, dict):  # live: the compile's cache verdicts
            cache = {}
            for verdict in comp.caches:
                counts = cache.setdefault(verdict.cache, {})
                counts[verdict.result] = counts.get(verdict.result, 0) + 1
        for name in sorted(cache):
            counts = cache[name] if isinstance(cache[name], dict) else {}
            for result in sorted(counts):
                n = counts[result]
                out.append((comp.compile_id, f"{name} {result}" + (f" x{n}" if n != 1 else "")))
    return out


def execution_order(session: Session) -> list[Item]:
    """The compiled graphs in the order they ran (runtime data of the log)."""
    order = session.extra.get(EXECUTION_ORDER)
    if not isinstance(order, list):
        order = session.extra.get(GRAPH_EXECUTIONS)
    if not isinstance(order, list):
        return []
    return [(str(g), str(g)) for g in order]


def runtime_estimates(session: Session) -> list[tuple[str, float]]:
    """(compile id, estimated runtime in ns) per graph Inductor estimated, in compile order."""
    out = []
    for comp in session.ordered_compiles():
        for text in _artifact_texts(comp, records.RUNTIME_AND_TENSOR_META):
            data = _json(text)
            ops = data.get("ops") if isinstance(data, dict) else None
            if isinstance(ops, list):
                total = sum(float(op.get("estimated_runtime_ns") or 0) for op in ops if isinstance(op, dict))
                out.append((comp.compile_id, total))
    return out


def tensor_meta(session: Session) -> list[Item]:
    """(compile id, each op's output shapes, strides and dtypes) per graph, in compile order."""
    out: list[Item] = []
    for comp in session.ordered_compiles():
        for text in _artifact_texts(comp, records.RUNTIME_AND_TENSOR_META):
            data = _json(text)
            ops = data.get("ops") if isinstance(data, dict) else None
            if not isinstance(ops, list):
                continue
            for op in ops:
                if isinstance(op, dict):
                    outputs = json.dumps(op.get("outputs", []), sort_keys=True, separators=(",", ":"))
                    out.append((comp.compile_id, f"{op.get('name', '?')} {outputs}"))
    return out


def _label(item: Item | None) -> str:
    if item is None:
        return "(nothing)"
    return item[1] if item[0] == item[1] else f"{item[1]} ({item[0]})"


def _sequence_divergence(
    kind: str, what: str, seqs: dict[str, list[Item]], order: list[str]
) -> list[Divergence]:
    """One divergence when the ranks' sequences differ: the groups, and the first item that differs."""
    have = [label for label in order if seqs.get(label)]
    if len(have) < 2 and not any(seqs.get(label) for label in order):
        return []
    # compared by what, not by compile id (tlparse's sequences hold no ids; the ranks of one job
    # may number their compiles differently)
    keyed = {label: tuple(i[1] for i in seqs.get(label, [])) for label in order}
    groups: dict[tuple[Item, ...], list[str]] = {}
    by_key: dict[tuple[str, ...], tuple[Item, ...]] = {}
    for label in order:
        seq = by_key.setdefault(keyed[label], tuple(seqs.get(label, [])))
        groups.setdefault(seq, []).append(label)
    if len(groups) < 2:
        return []
    seq_list = list(groups)
    at = 0
    while all(at < len(s) for s in seq_list) and len({s[at][1] for s in seq_list}) == 1:
        at += 1
    first = " | ".join(
        f"{ranks_text(labels)}: {_label(seq[at] if at < len(seq) else None)}"
        for seq, labels in groups.items()
    )
    counts = " | ".join(f"{ranks_text(labels)}: {len(seq)}" for seq, labels in groups.items())
    cid = next((s[at][0] for s in seq_list if at < len(s)), "-")
    reference = keyed[order[0]]
    return [
        Divergence(
            kind,
            cid,
            f"{what} differ ({counts}); first difference at #{at + 1}: {first}",
            ranks=[label for label in order if keyed[label] != reference],
            groups={f"#{n + 1}": labels for n, labels in enumerate(groups.values())},
            texts={
                ", ".join(labels): "\n".join(_label(i) for i in seq) + "\n"
                for seq, labels in groups.items()
            },
        )
    ]


def _runtime_divergence(sessions: dict[str, Session], order: list[str]) -> list[Divergence]:
    """tlparse's runtime comparison: graph by graph, the fastest and slowest rank's estimate."""
    est = {label: runtime_estimates(sessions[label]) for label in order}
    with_est = [label for label in order if est[label]]
    if len(with_est) < 2:
        return []
    counts = {label: len(est[label]) for label in with_est}
    if len(set(counts.values())) > 1:
        by_count: dict[int, list[str]] = {}
        for label in with_est:
            by_count.setdefault(counts[label], []).append(label)
        detail = "different numbers of graphs with runtime estimates: " + " | ".join(
            f"{ranks_text(ls)}: {n}" for n, ls in by_count.items()
        )
        return [
            Divergence(
                "runtime",
                "-",
                detail,
                ranks=[lb for lb in with_est if counts[lb] != counts[with_est[0]]],
                groups={str(n): ls for n, ls in by_count.items()},
            )
        ]
    worst: tuple[float, int] | None = None
    for i in range(counts[with_est[0]]):
        spread = [est[label][i][1] for label in with_est]
        delta = max(spread) - min(spread)
        if delta > 0 and (worst is None or delta > worst[0]):
            worst = (delta, i)
    if worst is None:
        return []
    i = worst[1]
    values = {label: est[label][i][1] for label in with_est}
    fast = min(with_est, key=lambda lb: values[lb])
    slow = max(with_est, key=lambda lb: values[lb])
    cid = est[slow][i][0]
    detail = (
        f"estimated runtime of graph #{i + 1} differs by {(values[slow] - values[fast]) / 1e6:.3f} ms:"
        f" rank {fast} {values[fast] / 1e6:.3f} ms, rank {slow} {values[slow] / 1e6:.3f} ms"
    )
    texts = {
        label: "\n".join(f"{c}  {v / 1e6:.3f} ms" for c, v in est[label]) + "\n" for label in (fast, slow)
    }
    return [
        Divergence(
            "runtime", cid, detail, ranks=[slow], groups={"fastest": [fast], "slowest": [slow]}, texts=texts
        )
    ]


def record_divergences(sessions: dict[str, Session], order: list[str]) -> list[Divergence]:
    """The analyses tlparse makes across ranks, from the records of every rank's log."""
    out: list[Divergence] = []
    out += _sequence_divergence(
        "collectives", "collective sequences", {lb: collective_sequence(sessions[lb]) for lb in order}, order
    )
    out += _sequence_divergence(
        "cache", "cache hit/miss patterns", {lb: cache_sequence(sessions[lb]) for lb in order}, order
    )
    out += _sequence_divergence(
        "execution_order",
        "graph execution orders",
        {lb: execution_order(sessions[lb]) for lb in order},
        order,
    )
    out += _sequence_divergence(
        "tensor_meta", "tensor metadata", {lb: tensor_meta(sessions[lb]) for lb in order}, order
    )
    out += _runtime_divergence(sessions, order)
    return out


def _kind(op: str) -> str | None:
    op = op.rstrip("_")
    for name in _KINDS:
        if name in op:
            return name
    return "reduce" if "reduce" in op else None


def parity(session: Session, label: str) -> list[Divergence]:
    """Compiles whose output code starts a collective it never waits for, or calls other
    collectives than its schedule lists (tlparse's Collectives Parity)."""
    out = []
    for comp in session.ordered_compiles():
        schedules = _artifact_texts(comp, records.COLLECTIVE_SCHEDULE)
        if not schedules:
            continue
        scheduled: Counter[str] = Counter()
        for text in schedules:
            ops = _json(text)
            for op in ops if isinstance(ops, list) else []:
                kind = _kind(short_op(str(op)))
                if kind:
                    scheduled[kind] += 1
        code_text = "\n".join(
            stage.get_text()
            for key, stage in comp.stages.items()
            if stage.captured and stage_catalog.split_key(key)[0] == stage_catalog.OUTPUT_CODE
        )
        code_text = _COMMENT_RE().sub("", _BLOCK_COMMENT_RE().sub("", code_text))
        called: Counter[str] = Counter()
        waits = 0
        for m in _CALL_RE().finditer(code_text):
            if m.group(1) == "wait_tensor":
                waits += 1
            elif kind := _kind(m.group(1)):
                called[kind] += 1
        missing = max(0, sum(called.values()) - waits)
        offset = sum(abs(scheduled[k] - called[k]) for k in set(scheduled) | set(called))
        if not (missing or offset):
            continue
        parts = []
        if missing:
            parts.append(f"{missing} collective{'s' if missing != 1 else ''} without a wait_tensor")
        if offset:
            parts.append(
                f"schedule and output code differ by {offset} collective{'s' if offset != 1 else ''}"
            )
        out.append(
            Divergence(
                "collectives_parity",
                comp.compile_id,
                f"rank {label}: " + ", ".join(parts) + " in the output code",
                ranks=[label],
                groups={"scheduled": [label]},
                texts={
                    "schedule": "\n".join(f"{k} x{n}" for k, n in sorted(scheduled.items())) + "\n",
                    "output code": "\n".join(f"{k} x{n}" for k, n in sorted(called.items()))
                    + f"\nwait_tensor x{waits}\n",
                },
            )
        )
    return out
