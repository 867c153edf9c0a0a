"""The provenance index of one compile: which lines of each stage hold the same op.

Torch-free. The target (`tcdebug.capture.provenance`) builds items and links from torch's own
metadata (node `stack_trace`, `from_node`, `seq_nr`, IR `origins`, Inductor's kernel mappings)
and sends them as `provenance` events; the session folds them into a `ProvenanceIndex` per
compile; the UI asks it for a trail, `--dump` writes it as `provenance.json`.

Items, links and symbols are the dataclasses of `tcdebug.model.payloads` (`ProvItem`,
`ProvLink`, `ProvSymbol`), from the capture through the event to provenance.json.

An *item* is one thing in one stage: a user source line, the bytecode of a source line, an FX
node, an IR scheduler node, a kernel. Its `lines` are 1-based line numbers in that stage's text.
A *link* goes downstream (from source towards kernels) and says how it was known (`how`);
links read from text rather than from torch's objects are marked `inferred`.
"""

from __future__ import annotations

import bisect
import copy
import re
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tcdebug.lazy_re import lazy_re
from tcdebug.model import stages as stage_catalog
from tcdebug.model.payloads import Plain, ProvItem, ProvLink, ProvSymbol
from tcdebug.model.schema import from_json, to_json

__all__ = ["ProvItem", "ProvLink", "ProvSymbol", "ProvenanceFile", "ProvenanceIndex"]

FORMAT_VERSION = 1


def item_id(stage: str, name: str) -> str:
    return f"{stage}|{name}"


@dataclass(eq=False, repr=False)
class TrailStage(Plain):
    """One stage of a trail: the matching items in it and their lines."""

    stage: str
    items: list[ProvItem]
    inferred: bool = False

    @property
    def lines(self) -> list[int]:
        return sorted({n for item in self.items for n in item.lines})


@dataclass(eq=False, repr=False)
class Trail(Plain):
    """Where an item comes from and goes to: its start items and, per stage, the items linked."""

    start: list[ProvItem]
    stages: list[TrailStage]

    def stage(self, key: str) -> TrailStage | None:
        return next((s for s in self.stages if s.stage == key), None)

    def names(self, key: str) -> list[str]:
        stage = self.stage(key)
        return [item.name for item in stage.items] if stage else []


@dataclass(eq=False, repr=False)
class ProvenanceIndex(Plain):
    """A compile's provenance items, the links between them, and its symbols."""

    items: dict[str, ProvItem] = field(default_factory=dict)
    links: list[ProvLink] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    symbols: dict[str, ProvSymbol] = field(default_factory=dict)  # s77 -> origin, range, hint, guards
    _link_set: set[ProvLink] | None = field(default=None, repr=False, compare=False)  # made at the first `add`
    _down: dict[str, list[ProvLink]] | None = field(default=None, repr=False, compare=False)
    _up: dict[str, list[ProvLink]] | None = field(default=None, repr=False, compare=False)

    # ----- building ------------------------------------------------------------------
    def add(
        self,
        items: Iterable[ProvItem] = (),
        links: Iterable[ProvLink] = (),
        notes: Iterable[str] = (),
        symbols: dict[str, ProvSymbol] | None = None,
    ) -> None:
        for item in items:
            old = self.items.get(item.item_id)
            if old is not None and not item.lines and old.lines:
                continue  # never lose what was located before
            self.items[item.item_id] = item
        if self._link_set is None:
            self._link_set = set()
        for link in links:
            if link not in self._link_set and link.src != link.dst:
                self._link_set.add(link)
                self.links.append(link)
        for note in notes:
            if note not in self.notes:
                self.notes.append(note)
        self.symbols.update(symbols or {})
        self._down = self._up = None

    def _adjacency(self) -> tuple[dict[str, list[ProvLink]], dict[str, list[ProvLink]]]:
        if self._down is None or self._up is None:
            down: dict[str, list[ProvLink]] = {}
            up: dict[str, list[ProvLink]] = {}
            for link in self.links:
                down.setdefault(link.src, []).append(link)
                up.setdefault(link.dst, []).append(link)
            self._down, self._up = down, up
        return self._down, self._up

    # ----- queries -------------------------------------------------------------------
    def in_stage(self, stage: str) -> list[ProvItem]:
        """The items of one stage, in text order (items without lines last)."""
        found = [item for item in self.items.values() if item.stage == stage]
        return sorted(found, key=lambda i: (min(i.lines) if i.lines else 1 << 30, i.name))

    def at_line(self, stage: str, line: int) -> list[ProvItem]:
        """The items of `stage` whose lines include `line` (1-based)."""
        return [item for item in self.in_stage(stage) if line in item.lines]

    def nearest(self, stage: str, line: int) -> ProvItem | None:
        """The item at `line`, else the first one after it, else the last one before it."""
        items = [i for i in self.in_stage(stage) if i.lines]
        if not items:
            return None
        at = [i for i in items if line in i.lines]
        if at:
            return min(at, key=lambda i: len(i.lines))
        after = [i for i in items if min(i.lines) > line]
        return after[0] if after else items[-1]

    def linked(self, item_id: str, *, downstream: bool) -> list[ProvItem]:
        down, up = self._adjacency()
        links = (down if downstream else up).get(item_id, [])
        ids = [link.dst if downstream else link.src for link in links]
        return [self.items[i] for i in ids if i in self.items]

    def trail(self, start_ids: Iterable[str]) -> Trail:
        """Everything upstream and downstream of the start items, grouped by stage in pipeline order.

        Upstream and downstream are walked separately (never down then up), so a kernel that
        fuses two ops does not pull the other op's lines into the trail.
        """
        down, up = self._adjacency()
        start = [i for i in dict.fromkeys(start_ids) if i in self.items]
        reached: dict[str, bool] = {i: False for i in start}  # id -> reached through an inferred link
        for adjacency, forward in ((down, True), (up, False)):
            todo = [(i, False) for i in start]
            seen = set(start)
            while todo:
                current, inferred = todo.pop()
                for link in adjacency.get(current, []):
                    nxt = link.dst if forward else link.src
                    if nxt in seen or nxt not in self.items:
                        continue
                    seen.add(nxt)
                    flag = inferred or link.inferred
                    reached[nxt] = reached.get(nxt, False) or flag
                    todo.append((nxt, flag))
        by_stage: dict[str, list[ProvItem]] = {}
        flags: dict[str, bool] = {}
        for iid, inferred in reached.items():
            item = self.items[iid]
            by_stage.setdefault(item.stage, []).append(item)
            flags[item.stage] = flags.get(item.stage, False) or inferred
        stages = [
            TrailStage(
                key,
                sorted(items, key=lambda i: (min(i.lines) if i.lines else 1 << 30, i.name)),
                flags[key],
            )
            for key, items in sorted(by_stage.items(), key=lambda kv: trail_order(kv[0]))
        ]
        return Trail([self.items[i] for i in start], stages)

    def trail_at(self, stage: str, line: int) -> Trail:
        return self.trail(i.item_id for i in self.at_line(stage, line))

    def by_node(self) -> dict[str, dict[str, Any]]:
        """For each Dynamo FX node: its user source lines and its lines in every stage."""
        out: dict[str, dict[str, Any]] = {}
        for item in self.in_stage("dynamo_graph"):
            trail = self.trail([item.item_id])
            source = trail.stage("source")
            out[item.name] = {
                "source": [i.name for i in source.items] if source else [],
                "stages": {
                    ts.stage: {"lines": ts.lines, "items": [i.name for i in ts.items]} for ts in trail.stages
                },
            }
        return out


def trail_order(key: str) -> tuple[float, int, float, int]:
    """Pipeline order for trail stages: the source first, the forward before the backward."""
    stage_id, part = stage_catalog.split_key(key)
    if stage_id == "source":
        return (-1.0, 0, 0.0, 0)
    return stage_catalog.sort_key(key)


# ----- (de)serialisation ------------------------------------------------------------
def item_to_dict(item: ProvItem) -> dict[str, Any]:
    """`asdict(item)`, written out: asdict is slow, and a dump writes thousands of items."""
    out = item_fields(item)
    out["lines"], out["meta"] = copy.deepcopy(item.lines), copy.deepcopy(item.meta)
    return out


def item_fields(item: ProvItem) -> dict[str, Any]:
    """`item_to_dict` sharing the item's lists and dicts: for text made at once (a file, an event)."""
    return {
        "item_id": item.item_id,
        "stage": item.stage,
        "name": item.name,
        "kind": item.kind,
        "lines": item.lines,
        "detail": item.detail,
        "meta": item.meta,
    }


def link_to_list(link: ProvLink) -> list[Any]:
    """A link's JSON row, as the codec writes it (`ProvLink.JSON_LIST`), without its walk."""
    return [link.src, link.dst, link.how, link.inferred]


@dataclass(eq=False, repr=False)
class ProvenanceFile(Plain):
    """provenance.json: what `index_to_dict` writes and `apply_dict` reads, checked by the codec."""

    format: str = "tcdebug-provenance"
    version: int = FORMAT_VERSION
    compile_id: str = ""
    items: list[ProvItem] = field(default_factory=list)
    links: list[ProvLink] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    symbols: dict[str, ProvSymbol] = field(default_factory=dict)
    nodes: dict[str, Any] = field(default_factory=dict)  # `by_node`, for readers of the file alone


def index_to_dict(index: ProvenanceIndex, compile_id: str = "") -> dict[str, Any]:
    """provenance.json's content. It shares the index's lists and dicts: encode it, do not keep it."""
    return {
        "format": "tcdebug-provenance",
        "version": FORMAT_VERSION,
        "compile_id": compile_id,
        "items": [item_fields(i) for i in index.items.values()],
        "links": [link_to_list(link) for link in index.links],
        "notes": list(index.notes),
        "symbols": to_json(index.symbols),
        "nodes": index.by_node(),
    }


def apply_dict(index: ProvenanceIndex, d: Any, where: str = "provenance.json") -> None:
    """Fold a `provenance.json`'s content into `index`, every field checked by the codec: a field
    of the wrong type raises `SchemaError` (one line naming it, under `where`) and folds nothing."""
    data = from_json(ProvenanceFile, d, where)
    index.add(data.items, data.links, data.notes, data.symbols)


def index_from_dict(d: Any, where: str = "provenance.json") -> ProvenanceIndex:
    index = ProvenanceIndex()
    apply_dict(index, d, where)
    return index


# ----- locating things in stage texts (shared by the target and the trace reader) ------
_FX_LINE = lazy_re(r"^\s+([A-Za-z_][A-Za-z0-9_]*)(?:: [^=]*?)? = ")
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")  # a Python name in a line of output code or graph text
_FX_CLASS = re.compile(r"^class ([A-Za-z_<][^(:]*)\(")
# What a subgraph's IR names (a `torch.cond` branch with its own scheduler) start with:
# `true_graph_0_op0`, `true_graph_0_buf0`.
SUBGRAPH_PREFIX = r"(?:[A-Za-z_]\w*?_)?"
# `op3`, fused `op3_op4` (`buf` in older torch), with a subgraph's prefix
_IR_NAME_PART = rf"{SUBGRAPH_PREFIX}(?:op|buf)\d+"
_IR_HEADER = lazy_re(rf"^({_IR_NAME_PART}(?:_{_IR_NAME_PART})*): ")
_FRAME = lazy_re(r'File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<fn>[^\n]+)')


def fx_graph_lines(text: str) -> Iterator[tuple[int, str, str]]:
    """(1-based line number, subgraph path, line) for each line of a `print_readable` graph.

    `print_readable` prints each subgraph module (a `torch.cond` branch, a flex-attention
    score_mod, a `nested_compile_region` body) as a class nested in its parent's; its nodes'
    names are that graph's own, so they are qualified by the path of classes they sit in
    (`cond_true_0`, `true_graph_0.true_graph_0`; "" for the top graph)."""
    stack: list[tuple[int, str]] = []  # (indent, class name) of the nested classes open
    for number, line in enumerate(text.splitlines(), 1):
        body = line.lstrip()
        if not body:
            yield number, ".".join(name for _, name in stack), line
            continue
        indent = len(line) - len(body)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        m = _FX_CLASS.match(body)
        if m and indent > 0:
            stack.append((indent, m.group(1)))
        elif m:
            stack.clear()  # the top graph's class
        yield number, ".".join(name for _, name in stack), line


def qualified(path: str, name: str) -> str:
    """A node's name as its items have it: `cond_true_0.sin` in a subgraph, `sin` in the top graph."""
    return f"{path}.{name}" if path else name


def paired_subgraph_nodes(
    src_names: Iterable[str],
    src_hops: dict[str, list[str]],
    dst_names: Iterable[str],
    dst_hops: dict[str, list[str]],
) -> list[tuple[str, str]]:
    """(src node, dst node) of the same name in subgraphs that one higher-order op node (the same
    name in both graphs) passes in the same place: AOTAutograd renames Dynamo's subgraphs
    (`cond_true_0` is `true_graph_0`, flex attention's `score_mod_0` is `sdpa_score0`). `*_hops`:
    higher-order op node -> the paths of the subgraphs it passes, in order."""
    renamed: dict[str, str] = {}  # src subgraph path -> dst subgraph path
    for _ in range(4):  # a subgraph's own higher-order ops, once their subgraph is paired
        for hop, subgraphs in src_hops.items():
            head, _dot, tail = hop.rpartition(".")
            other = dst_hops.get(qualified(renamed.get(head, head), tail) if head else hop)
            if other is not None and len(other) == len(subgraphs):
                renamed.update(zip(subgraphs, other, strict=True))
    known = set(dst_names)
    out: list[tuple[str, str]] = []
    for name in sorted(src_names):
        path, _dot, node = name.rpartition(".")
        target = qualified(renamed[path], node) if path in renamed else ""
        if target in known:
            out.append((name, target))
    return out


def subgraph_nodes(hops: dict[str, list[str]], names: Iterable[str]) -> list[tuple[str, str]]:
    """(higher-order op node, node of a subgraph it passes): the op runs those nodes, so following
    `cond` leads into both branches. `hops`: op node -> the paths of the subgraphs it passes."""
    passed: dict[str, list[str]] = {}
    for hop, paths in hops.items():
        for path in paths:
            passed.setdefault(path, []).append(hop)
    out: list[tuple[str, str]] = []
    for name in sorted(names):
        path = name.rpartition(".")[0]
        if path:
            out += [(hop, name) for hop in passed.get(path, [])]
    return out


def subgraph_links(key: str, hops: dict[str, list[str]], names: Iterable[str]) -> list[ProvLink]:
    """The links from each higher-order op node of the graph stage `key` into its subgraphs'
    nodes (`subgraph_nodes`): read from the op's arguments, so not inferred."""
    return [
        ProvLink(item_id(key, hop), item_id(key, node), "runs its subgraph's node")
        for hop, node in subgraph_nodes(hops, names)
    ]


def paired_subgraph_links(
    src: tuple[str, Iterable[str], dict[str, list[str]]],
    dst: tuple[str, Iterable[str], dict[str, list[str]]],
    skip: Container[str] = (),
) -> list[ProvLink]:
    """Inferred links between the same-named nodes of paired subgraphs (`paired_subgraph_nodes`)
    of two graph stages, each given as (stage key, node names, higher-order op -> subgraphs);
    none to a destination node in `skip` (one torch's `from_node` already links)."""
    (src_key, src_names, src_hops), (dst_key, dst_names, dst_hops) = src, dst
    return [
        ProvLink(item_id(src_key, a), item_id(dst_key, b), "same node name in the paired subgraph", inferred=True)
        for a, b in paired_subgraph_nodes(src_names, src_hops, dst_names, dst_hops)
        if b not in skip
    ]


def fx_node_lines(text: str) -> dict[str, int]:
    """Qualified node name (`qualified`) -> its 1-based line in a `print_readable` graph (the first
    definition wins)."""
    out: dict[str, int] = {}
    for number, path, line in fx_graph_lines(text):
        m = _FX_LINE().match(line)
        if m and not line.lstrip().startswith(("def ", "class ", "#")):
            out.setdefault(qualified(path, m.group(1)), number)
    return out


def subgraph_path(graph_name: str, paths: Iterable[str]) -> str | None:
    """The path of the subgraph module (`true_graph_0`, `true_graph_0.true_graph_0`) that Inductor
    lowered as the graph named `graph_name` (its names joined by `_`), among `paths`."""
    for path in paths:
        if path and (path == graph_name or path.replace(".", "_") == graph_name):
            return path
    return None


def caller_graphs(callers: Iterable[str], paths: Iterable[str]) -> set[str]:
    """The subgraph paths of the functions that call a kernel (`OutputCodeLines.callers`): "" for
    the compiled graph's code and for a function that is no subgraph's (a CUDA-graph `partition_0`)."""
    known = list(paths)
    return {(subgraph_path(c, known) or "") if c else "" for c in callers} or {""}


def names_in_graphs(graphs: Iterable[str], names: Iterable[str], known: Container[str]) -> list[str]:
    """Node names of the graph being lowered (how torch's origins and kernel mapping give them) as
    the items of `graphs`: the compiled graph's ("") as they are, a subgraph's qualified by its
    path and only those `known` (the origins also name the calling op and its inputs' producers)."""
    names = list(names)
    out: list[str] = []
    for graph in sorted(graphs):
        if graph:
            out += [q for n in names if (q := qualified(graph, n)) in known]
        else:
            out += names
    return list(dict.fromkeys(out))


def ir_node_lines(text: str, start: int = 0) -> dict[str, list[int]]:
    """Scheduler node name (`op1`, `op3_op4`) -> the lines of its block in Inductor's IR dump,
    from line `start` (0-based) on: line numbers count from the text's first line, 1-based."""
    lines = text.splitlines()
    headers = [
        (n, m.group(1)) for n, line in enumerate(lines[start:], start + 1) if (m := _IR_HEADER().match(line))
    ]
    out: dict[str, list[int]] = {}
    for k, (head, name) in enumerate(headers):
        end = headers[k + 1][0] - 1 if k + 1 < len(headers) else len(lines)
        while end > head and (not lines[end - 1].strip() or lines[end - 1].startswith(("AFTER", "BEFORE"))):
            end -= 1
        if name not in out:
            out[name] = list(range(head, end + 1))
    return out


class OutputCodeLines:
    """Where each kernel is defined and called in Inductor's output code, read in one pass."""

    _DEF = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*) = ")
    _CALL = re.compile(r"^\s+([A-Za-z_][A-Za-z0-9_.]*?)(?:\.run)?\(")
    _HANDLE = re.compile(r"\[Provenance debug handles\] (\S+)\s*$")
    _FUNCTION = re.compile(r"^def ([A-Za-z_][A-Za-z0-9_]*)\(")

    def __init__(self, code: str) -> None:
        self.count = 0
        self.defs: dict[str, tuple[int, int]] = {}  # name -> (first, last) line of its definition
        self.calls: dict[str, list[int]] = {}
        # where each top-level function starts, and its name: a subgraph's (`def true_graph_0(args):`,
        # which Inductor writes for each subgraph it lowers on its own), "" for anything else
        self.function_starts: list[int] = [0]
        self.function_names: list[str] = [""]
        self.handles: dict[str, list[int]] = {}  # debug handle -> its comment line
        self.text_lines = code.splitlines()
        open_def: tuple[str, int] | None = None
        for n, line in enumerate(self.text_lines, 1):
            self.count = n
            if open_def is not None:
                if line.lstrip().startswith(("'''", '"""')):
                    self.defs[open_def[0]] = (open_def[1], n)
                    open_def = None
                continue
            m = self._DEF.match(line)
            if m and "async_compile." in line:
                if line.count("'''") + line.count('"""') == 1:  # the kernel's source string opens here
                    open_def = (m.group(1), n)
                else:
                    self.defs[m.group(1)] = (n, n)
                continue
            if line[:1].strip() and not line.startswith("#"):
                m = self._FUNCTION.match(line)
                function = m.group(1) if m and m.group(1) != "call" else ""
                if function != self.function_names[-1]:
                    self.function_starts.append(n)
                    self.function_names.append(function)
            m = self._CALL.match(line)
            if m:
                self.calls.setdefault(m.group(1), []).append(n)
            m = self._HANDLE.search(line)
            if m:
                self.handles.setdefault(m.group(1), []).append(n)

    def callers(self, name: str, handles: Iterable[str] = ()) -> set[str]:
        """The top-level functions that call kernel `name` (at its debug `handles`' call sites when
        given): "" is the compiled graph's code, any other name may be a subgraph's function."""
        at = [n for h in handles for n in self.handles.get(h, [])] or self.calls.get(name, [])
        return {self.function_names[bisect.bisect_right(self.function_starts, n) - 1] for n in at}

    def lines(self, name: str, handles: Iterable[str] = ()) -> list[int]:
        out: set[int] = set()
        if not name.startswith("extern_kernels."):
            first, last = self.defs.get(name, (0, -1))
            out.update(range(first, last + 1))
            out.update(self.calls.get(name, []))
        for handle in handles:
            for n in self.handles.get(handle, []):
                out.add(n)
                if n < self.count:
                    out.add(n + 1)
        return sorted(out)


def kernel_lines(code: str | OutputCodeLines, name: str, handles: Iterable[str] = ()) -> list[int]:
    """The lines of kernel `name` in Inductor's output code: its definition and its call sites.

    `handles` are Inductor's provenance debug handles (`name:3`), found in the
    `# [Provenance debug handles]` comment above each call. Pass an `OutputCodeLines` to
    locate many kernels of one output code.
    """
    index = code if isinstance(code, OutputCodeLines) else OutputCodeLines(code)
    return index.lines(name, handles)


def stack_frames(stack_trace: str) -> list[dict[str, Any]]:
    """`File "f", line n, in fn` frames of a node's `stack_trace`, outermost first, with the code
    line and the column span the `^^^` marker points at (when torch recorded one)."""
    frames: list[dict[str, Any]] = []
    lines = stack_trace.splitlines()
    for k, line in enumerate(lines):
        m = _FRAME().search(line)
        if not m:
            continue
        frame: dict[str, Any] = {"file": m.group("file"), "line": int(m.group("line")), "fn": m.group("fn")}
        if k + 1 < len(lines) and not _FRAME().search(lines[k + 1]):
            code = lines[k + 1]
            frame["code"] = code.strip()
            if k + 2 < len(lines) and set(lines[k + 2].strip()) <= {"^", "~"} and lines[k + 2].strip():
                marks = lines[k + 2]
                first = len(marks) - len(marks.lstrip())
                span = code[first : len(marks.rstrip())].strip()
                while span.endswith(")") and span.count(")") > span.count("("):
                    span = span[:-1]  # the marker may run past the call's own closing parenthesis
                if span:
                    frame["span"] = span
        frames.append(frame)
    return frames
