"""CUDA graph recordings as text (pure text work, no torch).

`parse_dot` reads what `torch.cuda.CUDAGraph.debug_dump(path)` writes (CUDA's
`cudaGraphDebugDotPrint` in verbose mode): one DOT node per graph node, kernel nodes
labelled with the kernel's name and launch dimensions. `format_records` renders the
recordings of one compiled graph for the `cudagraph` stage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_NODE_RE = re.compile(r'^\s*"(?P<id>[^"]+)"\s*\[(?P<attrs>.*?)\];?\s*$', re.MULTILINE | re.DOTALL)
_EDGE_RE = re.compile(r'"(?P<src>[^"]+)"\s*->\s*"(?P<dst>[^"]+)"')
_LABEL_RE = re.compile(r'label="(?P<label>(?:[^"\\]|\\.)*)"', re.DOTALL)
_NODE_NUM_RE = re.compile(r"node_(\d+)$")
_LAUNCH_RE = re.compile(r"(?P<name>[A-Za-z_$][\w$.:]*)\s*<<<\s*(?P<args>[^>]*)>>>")
_FIELD_RE = re.compile(
    r"\{\s*(?P<key>gridDim|blockDim|sharedMemBytes|sharedMem)\s*\|\s*(?P<value>\{[^{}]*\}|[^|{}]+)\s*\}"
)
_TYPES = (
    "KERNEL",
    "MEMCPY",
    "MEMSET",
    "HOST",
    "EMPTY",
    "EVENT_RECORD",
    "WAIT_EVENT",
    "EXT_SEMAS_SIGNAL",
    "EXT_SEMAS_WAIT",
    "MEM_ALLOC",
    "MEM_FREE",
    "GRAPH",
    "CONDITIONAL",
    "BATCH_MEM_OP",
)


@dataclass
class GraphNode:
    """One node of a recorded CUDA graph."""

    index: int  # launch order
    type: str  # KERNEL, MEMCPY, MEMSET, ...
    name: str = ""  # the kernel's name for kernel nodes
    grid: list[int] = field(default_factory=list)
    block: list[int] = field(default_factory=list)
    shared_mem: int | None = None
    demangled: str = ""  # for C++ kernels (cuBLAS, ATen): `c++filt`'s reading of `name`
    label: str = ""  # the node's whole DOT label, unescaped

    @property
    def display(self) -> str:
        """A short name: Triton kernels as named, C++ kernels without their template arguments."""
        if not self.demangled:
            return self.name
        text, depth, out = self.demangled, 0, []
        for ch in text:
            if ch in "<(":
                depth += 1
            elif ch in ">)":
                depth -= 1
            elif depth == 0:
                out.append(ch)
        short = "".join(out).strip()
        return short.rsplit(" ", 1)[-1] if short else self.name


def _unescape(label: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) in "nl" else m.group(1), label)


def _ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"\d+", text)]


def launch_args(text: str) -> list[list[int]]:
    """`{2,2},64,6528` -> [[2, 2, 1], [64, 1, 1], [6528]]: grid, block (padded to 3 dims), shared memory."""
    parts = [p.strip() for p in re.findall(r"\{[^{}]*\}|[^,{}]+", text) if p.strip()]
    out = []
    for i, part in enumerate(parts):
        values = _ints(part)
        if i < 2 and values:
            values = (values + [1, 1, 1])[:3] if len(values) < 3 else values
        out.append(values)
    return out


def _node_from_label(dot_id: str, label: str) -> GraphNode:
    text = _unescape(label)
    flat = " ".join(text.split())
    node_type = next((t for t in _TYPES if re.search(rf"\b{t}\b", flat)), "")
    node = GraphNode(index=0, type=node_type or "NODE", label=text.strip())
    launch = _LAUNCH_RE.search(flat)
    if launch:
        node.name = launch.group("name")
        args = launch_args(launch.group("args"))
        if len(args) > 0:
            node.grid = args[0]
        if len(args) > 1:
            node.block = args[1]
        if len(args) > 2 and args[2]:
            node.shared_mem = args[2][0]
        if not node_type:
            node.type = "KERNEL"
    for match in _FIELD_RE.finditer(flat):
        values = _ints(match.group("value"))
        key = match.group("key")
        if key == "gridDim" and values:
            node.grid = values
        elif key == "blockDim" and values:
            node.block = values
        elif values:
            node.shared_mem = values[0]
    return node


def parse_dot(dot: str) -> list[GraphNode]:
    """The graph's nodes in launch order (a topological order of the DOT's edges)."""
    nodes: dict[str, GraphNode] = {}
    order: list[str] = []
    for match in _NODE_RE.finditer(dot):
        dot_id, attrs = match.group("id"), match.group("attrs")
        label = _LABEL_RE.search(attrs)
        if label is None:
            continue
        nodes[dot_id] = _node_from_label(dot_id, label.group("label"))
        order.append(dot_id)
    edges: dict[str, list[str]] = {k: [] for k in order}
    indegree = dict.fromkeys(order, 0)
    for match in _EDGE_RE.finditer(dot):
        src, dst = match.group("src"), match.group("dst")
        if src in edges and dst in indegree:
            edges[src].append(dst)
            indegree[dst] += 1

    def position(dot_id: str) -> tuple[int, int]:
        num = _NODE_NUM_RE.search(dot_id)
        return (int(num.group(1)) if num else 1 << 30, order.index(dot_id))

    ready = sorted((k for k, d in indegree.items() if d == 0), key=position)
    result: list[str] = []
    while ready:
        current = ready.pop(0)
        result.append(current)
        for nxt in edges[current]:
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                ready.append(nxt)
                ready.sort(key=position)
    result += [k for k in order if k not in result]  # cycles cannot happen; keep anything left
    out = []
    for i, dot_id in enumerate(result):
        node = nodes[dot_id]
        node.index = i
        out.append(node)
    return out


NODE_FIELDS = ("index", "type", "name", "grid", "block", "shared_mem", "demangled")


def demangle(names: list[str]) -> dict[str, str]:
    """C++ symbol names (`_Z...`) -> readable ones, through `c++filt` when it is installed."""
    import shutil
    import subprocess

    mangled = sorted({n for n in names if n.startswith("_Z")})
    tool = shutil.which("c++filt")
    if not mangled or tool is None:
        return {}
    try:
        proc = subprocess.run([tool], input="\n".join(mangled), capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return {}
    readable = proc.stdout.splitlines()
    return {m: r for m, r in zip(mangled, readable, strict=False) if r and r != m}


def dims(values: list[int]) -> str:
    return "(" + ", ".join(str(v) for v in values) + ")" if values else "-"


def node_line(node: GraphNode, width: int = 44) -> str:
    if node.type == "KERNEL":
        shared = f"  smem {node.shared_mem}" if node.shared_mem else ""
        name = node.display or "?"
        return f"  {node.index + 1:>3}  {name:<{width}} grid {dims(node.grid):<14} block {dims(node.block)}{shared}"
    return f"  {node.index + 1:>3}  [{node.type.lower()}]"


def format_record(record: dict[str, Any]) -> str:
    """One recording of a compiled graph into a CUDA graph, as the stage shows it."""
    lines = []
    what = "re-recording" if record.get("rerecord_reason") else "recording"
    lines.append(
        f"CUDA graph {record.get('graph_id', '?')}: {what} #{record.get('recording', 1)} of "
        f"{record.get('function', '?')} ({record.get('mode', '?')})"
    )
    if record.get("rerecord_reason"):
        lines.append(f"  re-recorded because: {record['rerecord_reason']}")
    parent = record.get("parent")
    tree = f"child of CUDA graph {parent}" if parent is not None else "a root"
    lines.append(
        f"  cudagraph tree: {tree} on cuda:{record.get('device', 0)}, depth {record.get('depth', 0)}"
        f", tree now holds {record.get('tree_nodes', '?')} recorded graph(s)"
    )
    lines.append(f"  memory pool: {record.get('pool', '?')}  (shared by every graph of the tree)")
    inputs = record.get("inputs", [])
    static = [i for i in inputs if i.get("static")]
    lines.append(f"  inputs: {len(inputs)}, static (address baked into the graph): {len(static)}")
    for inp in inputs:
        tag = inp.get("why_static", "") if inp.get("static") else "copied into the graph's buffer each replay"
        if inp.get("symbol"):  # a symbolic size: one recording per value (w names where it comes from)
            tag = f"symbolic size {inp['symbol']}: this recording's value"
        lines.append(
            f"    {inp.get('index', '?'):>3} {inp.get('name', ''):<16} {inp.get('desc', ''):<24} {tag}"
        )
    nodes = record.get("nodes", [])
    kernels = [n for n in nodes if n.get("type") == "KERNEL"]
    lines.append(f"  graph nodes: {len(nodes)} ({len(kernels)} kernels), in launch order:")
    width = max([len(n.get("name", "")) for n in kernels] + [20])
    for n in nodes:
        lines.append(
            node_line(GraphNode(**{k: v for k, v in n.items() if k != "label"}), width=min(width, 72))
        )
    if record.get("dot_error"):
        lines.append(f"  (graph nodes not read: {record['dot_error']})")
    return "\n".join(lines)


def format_stage(records: list[dict[str, Any]], skips: list[str]) -> str:
    parts = []
    for reason in skips:
        parts.append(f"CUDA graphs skipped: {reason}")
    parts += [format_record(r) for r in records]
    return "\n\n".join(parts) + "\n"
