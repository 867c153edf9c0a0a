"""Each compile's Dynamo graph and the real inputs of the call that compiled it, for `--accuracy`.

Off unless asked (`enable()`, from the target's `--accuracy`): it keeps a copy of every graph and
of its inputs, parameters included, until the target ends. At the `dynamo_output_graph` record,
just before Dynamo hands the graph to the backend, it copies the graph module (the one the
provenance unit saw printed) and clones the graph's example inputs, which Dynamo holds as the
real tensors of the call being compiled. Nothing torch compiles or runs is changed.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext
from tcdebug.capture.calls import capture_global_state
from tcdebug.capture.provenance import ProvenanceCapture

STAGES: tuple[str, ...] = ()
OP_SCHEMA = patches.declare(
    "torch._ops",
    "OpOverload._schema",
    unit="graph_inputs",
    breaks="accuracy (`--accuracy`): the bisection compares nodes that mutate an input too",
    kind=patches.READS,
    on_instance=True,
)
_enabled = False


def enable() -> None:
    """Keep graphs and inputs (the target's `--accuracy`)."""
    global _enabled
    _enabled = True


def enabled() -> bool:
    return _enabled


@dataclass
class KeptGraph:
    """A compile's Dynamo graph (a copy) and clones of its inputs at the compiling call."""

    compile_id: str
    gm: Any
    inputs: list[Any]
    state: dict[str, Any]
    backend: str = ""
    notes: list[str] = field(default_factory=list)


class GraphInputs:
    """The kept graphs, by compile id (the session's key)."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.kept: dict[str, KeptGraph] = {}
        self.missed: dict[str, str] = {}  # compile id -> why nothing was kept
        self.errors: list[str] = []

    def keep(self, cid: str, gm: Any, examples: list[Any], state: dict[str, Any]) -> None:
        torch = self.torch
        inputs: list[Any] = []
        for value in examples:
            if isinstance(value, torch.Tensor):
                with torch.no_grad():
                    clone = value.detach().clone()
                clone.requires_grad_(
                    value.requires_grad and (clone.is_floating_point() or clone.is_complex())
                )
                inputs.append(clone)
            elif isinstance(value, (int, float, bool)) or value is None:
                inputs.append(value)
            else:
                self.missed[cid] = f"an input of type {type(value).__name__} cannot be kept"
                return
        self.kept[cid] = KeptGraph(cid, copy.deepcopy(gm), inputs, state)


def _current_output(torch: Any) -> Any:
    from torch._dynamo.symbolic_convert import InstructionTranslator

    tx = InstructionTranslator.current_tx()
    return tx.output if tx is not None else None


def install(ctx: CaptureContext) -> None:
    torch = ctx.torch
    store = GraphInputs(torch)
    ctx.options.share(store)
    prov = ctx.options.shared(ProvenanceCapture)

    def on_graph(cid: str, md: dict[str, Any], payload: str | None) -> None:
        if not _enabled:
            return
        try:
            gm = prov.graph_for(payload or "") if prov is not None else None
            output = _current_output(torch)
            if gm is None or output is None:
                store.missed[cid] = "the graph module or Dynamo's output graph was not found"
                return
            with output.restore_global_state():
                state = capture_global_state(torch)
            store.keep(cid, gm, list(output.example_inputs()), state)
        except Exception as exc:  # noqa: BLE001 - keeping must never break the compile
            store.missed[cid] = f"{type(exc).__name__}: {exc}"

    ctx.handler.on("dynamo_output_graph", on_graph)
