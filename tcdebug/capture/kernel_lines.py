"""Which lines inside a generated kernel compute which op, from Inductor's codegen state.

While Inductor generates a kernel's body (C++ on CPU, Triton on GPU) it sets the scheduler node
being generated as `V.kernel.current_node` (`Kernel.set_current_node`), and every line of the
body goes through `IndentedBuffer.writeline`. This unit wraps `writeline` (calling torch's own
first, changing nothing it writes) and `set_current_node` (to know when a node can be current),
and, while a node is current, keeps the text of each line
under that node with the post-grad FX nodes the node computes (its IR `origins`).
`tcdebug.capture.provenance` takes these records when the output code is logged and finds each
node's lines inside its kernel's source, so a trail reaches the lines that compute an op rather
than the whole kernel. Without the API (an older torch) the unit is not installed and the
provenance unit links whole kernels and says so.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext, lowering_subgraph

STAGES: tuple[str, ...] = ()
MAX_LINES_PER_NODE = 4000  # a guard against pathological kernels, far above real ones
_ALNUM = re.compile(r"[^\W_]")  # a letter or digit: str.isalnum's characters
_LINES = "provenance (`f`): trails end at whole kernels, not the lines inside them"
SET_CURRENT_NODE = patches.declare(
    "torch._inductor.codegen.common", "Kernel.set_current_node", unit="kernel_lines", breaks=_LINES
)
WRITELINE = patches.declare(
    "torch._inductor.utils", "IndentedBuffer.writeline", unit="kernel_lines", breaks=_LINES
)


@dataclass
class NodeLines:
    """The lines Inductor wrote while one scheduler node was being generated."""

    name: str  # the scheduler node (`op3`)
    origins: list[str]  # the post-grad FX nodes it computes (its own graph's: see `graph`)
    texts: set[str] = field(default_factory=set)  # each line, stripped
    graph: str | None = None  # the subgraph it belongs to (None: the compiled graph)


class KernelLineRecorder:
    """Lines written per scheduler node since the last output code was logged. `graph_name`
    gives the name of the graph being generated: a subgraph's (a higher-order op's graph that
    Inductor lowers on its own) nodes come from its own FX graph, whose node names the compiled
    graph's share, so their origins name nodes of that graph, not of the post-grad stage."""

    def __init__(self, graph_name: Callable[[], str | None] = lambda: None) -> None:
        self.nodes: dict[str, NodeLines] = {}
        self.graph_name = graph_name

    def record(self, node: Any, line: Any) -> None:
        text = getattr(line, "line", line)  # a DeferredLine keeps its text in `line`
        if not isinstance(text, str):
            return
        text = text.strip()
        if not _ALNUM.search(text):
            return  # `{`, `}`: every node has them
        name = str(node.get_name())
        entry = self.nodes.get(name)
        if entry is None:
            entry = self.nodes[name] = NodeLines(name, node_origins(node), graph=self.graph_name())
        if len(entry.texts) < MAX_LINES_PER_NODE:
            entry.texts.add(text)

    def take(self) -> dict[str, NodeLines]:
        """The records of the graph whose output code is being logged (and forget them)."""
        nodes, self.nodes = self.nodes, {}
        return nodes


def node_origins(node: Any) -> list[str]:
    """The post-grad FX nodes a scheduler node (or each node of a fused group) computes."""
    subs = node.get_nodes() if hasattr(node, "get_nodes") else [node]
    names: set[str] = set()
    for sub in subs:
        ir = getattr(sub, "node", None)
        names.update(str(o.name) for o in (getattr(ir, "origins", None) or ()))
    return sorted(names)


def install_inductor(ctx: CaptureContext) -> None:
    from torch._inductor.virtualized import V

    SET_CURRENT_NODE.require()
    WRITELINE.require()
    torch = ctx.torch
    recorder = KernelLineRecorder(lambda: lowering_subgraph(torch))
    original = WRITELINE.get()
    original_set_current_node = SET_CURRENT_NODE.get()
    # How many `set_current_node` blocks are open, in any thread (counted under a lock: `+=` is
    # not atomic). `Kernel.current_node` is set only there, so while none is open no kernel has a
    # current node, and `writeline` skips `V.kernel` (which builds a throwaway NullKernelHandler
    # per line outside kernels).
    open_blocks = [0]
    count_lock = threading.Lock()

    @contextlib.contextmanager
    def set_current_node(self: Any, node: Any) -> Iterator[None]:
        with count_lock:
            open_blocks[0] += 1
        try:
            with original_set_current_node(self, node):
                yield
        finally:
            with count_lock:
                open_blocks[0] -= 1

    def writeline(self: Any, line: Any) -> None:
        original(self, line)
        if not open_blocks[0]:
            return
        try:
            node = getattr(V.kernel, "current_node", None)
            if node is not None and hasattr(node, "get_name"):
                recorder.record(node, line)
        except Exception:  # noqa: BLE001 - never break torch's codegen
            pass

    patches.wrap(SET_CURRENT_NODE, lambda _original: set_current_node)
    patches.wrap(WRITELINE, lambda _original: writeline)
    ctx.options.share(recorder)
