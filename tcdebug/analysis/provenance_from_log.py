"""The provenance index of a compile read from a TORCH_TRACE log (torch-free).

A log carries less than a live capture: no node `meta`, no IR, no bytecode positions. What it
has: the graphs' `# File: path:line` comments (source line -> nodes, read from text: inferred),
node names shared by the graphs of one compile (inferred), and, when Inductor's provenance
tracking was on (`INDUCTOR_PROVENANCE=1`, or `TORCH_COMPILE_DEBUG=1`), its
`inductor_provenance_tracking_node_mappings` (pre-grad -> post-grad nodes, kernel -> post-grad
nodes) and `..._kernel_stack_traces` (kernel -> source lines) artifacts, which are torch's own
links. The index's notes say which links the log lacks.

`ensure_trace_provenance(session, compiles)` fills the compiles of a trace session that have no
index yet; the app calls it for the compile it follows. A log's `--dump` writes no
`provenance.json`: `load_dump` reads each compile's from the dump's stage files at its first use.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from typing import Any

from tcdebug.analysis.provenance_index import (
    IDENTIFIER,
    OutputCodeLines,
    ProvenanceIndex,
    ProvItem,
    ProvLink,
    caller_graphs,
    fx_graph_lines,
    item_id,
    kernel_lines,
    names_in_graphs,
    paired_subgraph_links,
    qualified,
    stack_frames,
    subgraph_links,
)
from tcdebug.lazy_re import lazy_re
from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import Compile, Session

GRAPH_STAGES = stage_catalog.GRAPH_STAGES
_FILE_COMMENT = re.compile(
    r"^\s*# File: (?P<file>.+?):(?P<line>\d+) in (?P<fn>[^,]+)(?:, code: (?P<code>.*))?$"
)
# `name: "f32[4]" = target(...)`, or an operator or item node, which `print_readable` writes as
# Python: `add: "f32[4]" = relu + 1`, `getitem = cond[0]` (never a bare name or `self.attr`)
_NODE = re.compile(
    r"^\s+(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:: [^=]*?)? = "
    r"(?:(?P<target>[A-Za-z_][\w.]*)\(|(?P<expr>(?![A-Za-z_]\w*\s*(?:;|$))(?!self\.)[^;]+))"
)
_HANDLE = lazy_re(r":\d+$")
_SUBMODULE = re.compile(r"^\s+([A-Za-z_]\w*) = self\.([A-Za-z_]\w*)\s*$")  # `cond_true_0 = self.cond_true_0`
MAPPINGS = "artifact_inductor_provenance_tracking_node_mappings"
STACKS = "artifact_inductor_provenance_tracking_kernel_stack_traces"


def ensure_trace_provenance(session: Session, compiles: Iterable[Compile] | None = None) -> None:
    """Read the provenance of a TORCH_TRACE session's compiles (those of `compiles`; None: all)
    from their stages, where they have none yet. The app asks for the compile it follows: a log
    of 100,000 compiles is not read whole for one."""
    if session.origin != "trace":
        return
    for comp in session.compiles.values() if compiles is None else compiles:
        if not comp.provenance.items and not comp.provenance.notes:
            comp.provenance = provenance_from_log(comp)


def _json(comp: Compile, key: str) -> dict[str, Any] | None:
    stage = comp.stages.get(key)
    if stage is None or not stage.captured:
        return None
    try:
        data = json.loads(stage.get_text() or "{}")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def provenance_from_log(comp: Compile) -> ProvenanceIndex:
    items: list[ProvItem] = []
    links: list[ProvLink] = []
    notes: list[str] = []
    names: dict[str, set[str]] = {}  # stage key -> node names
    hops: dict[str, dict[str, list[str]]] = {}  # stage key -> higher-order op node -> its subgraphs
    sources: dict[str, ProvItem] = {}
    for key, stage in comp.stages.items():
        stage_id = stage_catalog.split_key(key)[0]
        if stage_id not in GRAPH_STAGES or not stage.captured:
            continue
        current: ProvItem | None = None
        names[key] = set()
        hops[key] = {}
        modules: dict[tuple[str, str], str] = {}  # (path, local) -> the subgraph module it holds
        for number, path, line in fx_graph_lines(stage.get_text()):
            attr = _SUBMODULE.match(line)
            if attr:
                modules[(path, attr.group(1))] = qualified(path, attr.group(2))
                continue
            comment = _FILE_COMMENT.match(line)
            if comment:
                fname, lineno = comment.group("file"), int(comment.group("line"))
                sid = item_id("source", f"{fname}:{lineno}")
                current = sources.get(sid) or ProvItem(
                    sid,
                    "source",
                    f"{os.path.basename(fname)}:{lineno}",
                    "source_line",
                    [],
                    (comment.group("code") or "").strip(),
                    {"file": fname, "line": lineno},
                )
                sources[sid] = current
                continue
            if not line.strip():
                current = None
                continue
            node = _NODE.match(line)
            if node is None:
                continue
            name = qualified(path, node.group("name"))  # a subgraph's node: `cond_true_0.sin`
            names[key].add(name)
            if (node.group("target") or "").startswith("torch.ops.higher_order."):
                args = IDENTIFIER.findall(line[node.end() :])
                hops[key][name] = [modules[(path, a)] for a in args if (path, a) in modules]
            iid = item_id(key, name)
            detail = node.group("target") or node.group("expr").strip()
            items.append(ProvItem(iid, key, name, "fx_node", [number], detail))
            if current is not None:
                links.append(ProvLink(current.item_id, iid, "# File: comment", inferred=True))
    items.extend(sources.values())
    parts = [
        part
        for stage_id, part in map(stage_catalog.split_key, comp.stages)
        if stage_id == "kernel_source" and stage_catalog.part_base(part) in stage_catalog.GRAPH_PARTS
    ]
    for key in names:
        stage_id, part = stage_catalog.split_key(key)
        links += subgraph_links(key, hops.get(key, {}), names[key])
        if stage_id in ("aot_forward", "aot_backward"):
            links += _same_names(names, stage_catalog.stage_key("aot_joint", part), key)
        if stage_id == "aot_forward" or stage_id == "aot_inference":
            links += _same_names(names, "dynamo_graph", key)
            # a log has no `from_node` to say that AOTAutograd renamed Dynamo's subgraphs
            dynamo = ("dynamo_graph", names.get("dynamo_graph", set()), hops.get("dynamo_graph", {}))
            links += paired_subgraph_links(dynamo, (key, names[key], hops.get(key, {})))
        if stage_id == "inductor_post_grad_graph":
            links += _same_names(names, stage_catalog.aot_key_for_part(part), key)
    if any(stage_catalog.split_key(key)[0] == "aot_backward" for key in names):
        notes.append(
            "the log has no seq_nr: backward nodes reach the source only through `# File:` comments (inferred)"
        )
    notes.append("the log has no Inductor IR (before/after fusion): IR nodes are not in the trail")
    for part in parts:
        k_items, k_links, k_notes = _kernels(comp, part, names)
        items += k_items
        links += k_links
        notes += k_notes
    index = ProvenanceIndex()
    index.add(items, links, notes)
    return index


def _same_names(names: dict[str, set[str]], src: str, dst: str) -> list[ProvLink]:
    return [
        ProvLink(item_id(src, n), item_id(dst, n), "same node name", inferred=True)
        for n in sorted(names.get(src, set()) & names.get(dst, set()))
    ]


def _kernels(
    comp: Compile, part: str, names: dict[str, set[str]]
) -> tuple[list[ProvItem], list[ProvLink], list[str]]:
    key = f"kernel_source.{part}"
    post_key = f"inductor_post_grad_graph.{part}"
    code = OutputCodeLines(comp.stages[key].get_text())
    mapping = _json(comp, f"{MAPPINGS}.{part}")
    stacks = _json(comp, f"{STACKS}.{part}") or {}
    items: list[ProvItem] = []
    links: list[ProvLink] = []
    notes: list[str] = []
    if mapping is None:
        notes.append(
            f"{part}: the log has no inductor_provenance_tracking_node_mappings "
            "(record it with INDUCTOR_PROVENANCE=1): kernels are not linked to graph nodes"
        )
        mapping = {}
    kernel_to_post = mapping.get("cppCodeToPost") or {}
    if not kernel_to_post and mapping:
        notes.append(
            f"{part}: Inductor logged an empty kernel mapping: kernels reach the source only through "
            "its kernel stack traces"
        )
    for pre, posts in (mapping.get("preToPost") or {}).items():
        for post in posts or []:
            links.append(
                ProvLink(item_id("dynamo_graph", str(pre)), item_id(post_key, str(post)), "preToPost")
            )
    known = names.get(post_key, set())  # the post-grad graph's nodes, and each subgraph's path
    paths = sorted({name.rsplit(".", 1)[0] for name in known if "." in name})
    handles: dict[str, list[str]] = {}
    for handle in list(kernel_to_post) + list(stacks):
        handles.setdefault(_HANDLE().sub("", str(handle)), [])
        if str(handle) not in handles[_HANDLE().sub("", str(handle))]:
            handles[_HANDLE().sub("", str(handle))].append(str(handle))
    for name, hs in handles.items():
        extern = name.startswith("extern_kernels.")
        for group in [[h] for h in hs] if extern else [hs]:
            one = group[0] if extern else name
            lines = kernel_lines(code, name, group)
            if not lines:
                continue
            iid = item_id(key, one)
            posts = [str(n) for h in group for n in kernel_to_post.get(h, []) or []]
            fused = ", ".join(dict.fromkeys(posts))
            label = f"{name} (extern kernel)" if extern else (f"fuses {fused}" if fused else "kernel")
            items.append(ProvItem(iid, key, one, "extern_kernel" if extern else "kernel", lines, label))
            graphs = caller_graphs(code.callers(name, group), paths)
            for post in names_in_graphs(graphs, posts, known):
                links.append(ProvLink(item_id(post_key, post), iid, "kernel_provenance"))
            if not posts:
                for h in group:
                    for trace in stacks.get(h, []) or []:
                        for frame in stack_frames(str(trace))[-1:]:
                            sid = item_id("source", f"{frame['file']}:{frame['line']}")
                            items.append(
                                ProvItem(
                                    sid,
                                    "source",
                                    f"{os.path.basename(frame['file'])}:{frame['line']}",
                                    "source_line",
                                    [],
                                    frame.get("code", ""),
                                    {"file": frame["file"], "line": frame["line"]},
                                )
                            )
                            links.append(ProvLink(sid, iid, "kernel stack trace"))
    return items, links, notes
