"""`kernel_source`: Inductor's output code, split into its kernels.

Inductor logs the output code before it loads it, so what is learnt while it loads
(the `triton_kernel_info` artifact, each Triton kernel's compiled configs) and just after
(the `inductor_provenance_tracking_node_mappings` artifact) is folded into the stage
afterwards: `KernelStages.refresh` sends the stage again, without a pause.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import threading
from collections.abc import Callable
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext
from tcdebug.capture.recording import Recording
from tcdebug.model import stages as stage_catalog
from tcdebug.model.events import Note
from tcdebug.model.session import Kernel
from tcdebug.torchtext.output_code import apply_kernel_info, split_output_code, triton_decorator_meta

STAGES = ("kernel_source",)
_HANDLE = re.compile(r":\d+$")  # provenance names kernels `name:debug_handle`


_BACKWARD = "provenance (`f`): a lazily compiled backward's kernels get no FX-node mapping"
PRE_GRAD_GRAPH_ID = patches.declare(
    "torch._inductor.debug", "_pre_grad_graph_id", unit="kernel_source", breaks=_BACKWARD, kind=patches.SETS
)
KERNEL_NODE_INFO = patches.declare(
    "torch._inductor.debug",
    "_inductor_triton_kernel_to_post_grad_node_info",
    unit="kernel_source",
    breaks=_BACKWARD,
    kind=patches.SETS,
)
DEBUG_HANDLE = patches.declare(
    "torch._inductor.debug",
    "_inductor_kernel_provenance_debug_handle",
    unit="kernel_source",
    breaks="provenance (`f`): kernels named by debug handle in a backward compiled lazily",
    kind=patches.SETS,
)
PROVENANCE_LEVEL = patches.declare(
    "torch._inductor.config",
    "trace.provenance_tracking_level",
    unit="kernel_source",
    breaks="provenance (`f`): whether torch gives its kernel -> FX node table (read, never set)",
    kind=patches.READS,
)

REFRESH_DELAY_S = 0.25  # how long `refresh_soon` gathers changes before it sends them


class KernelStages:
    """The `kernel_source` stages sent so far, so later facts about their kernels reach them.

    Whoever changes a kernel found here holds `lock` meanwhile: `refresh_soon` sends from a
    timer thread."""

    def __init__(self, recorder: Recording) -> None:
        self.rec = recorder
        self.stages: dict[tuple[str, str], list[Kernel]] = {}  # (compile id, stage key) -> kernels
        self.dirty: set[tuple[str, str]] = set()
        self.lock = threading.RLock()
        self._timer: threading.Timer | None = None
        # takes a kernel's Triton facts known before its output code (triton_info sets it, CUDA only)
        self.claim: Callable[[Kernel], None] | None = None
        recorder.fork_resets.append(self._after_fork)

    def _after_fork(self) -> None:
        """In a forked child: the timer thread is the parent's, and may have held the lock."""
        self.lock = threading.RLock()
        self._timer = None

    def add(self, compile_id: str, key: str, kernels: list[Kernel]) -> None:
        with self.lock:
            self.stages[(compile_id, key)] = kernels

    def find(self, name: str, compile_id: str | None = None, backward: bool | None = None) -> Kernel | None:
        """The newest kernel called `name`, in `compile_id` (and its backward part) when given."""
        with self.lock:
            for (cid, key), kernels in reversed(self.stages.items()):
                if compile_id is not None and cid != compile_id:
                    continue
                part = stage_catalog.split_key(key)[1]
                if backward is not None and (stage_catalog.part_base(part) == "backward") != backward:
                    continue
                for kernel in kernels:
                    if kernel.name == name:
                        self.dirty.add((cid, key))
                        return kernel
        return None

    def refresh(self) -> None:
        """Send every stage whose kernels changed since the last refresh, now."""
        with self.lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            dirty, self.dirty = self.dirty, set()
            updates = [
                (cid, key, [copy.deepcopy(k) for k in self.stages[(cid, key)]]) for cid, key in sorted(dirty)
            ]
        for cid, key, kernels in updates:
            self.rec.update_stage(cid, key, kernels=kernels)

    def refresh_soon(self) -> None:
        """Send the changed stages `REFRESH_DELAY_S` from now, with whatever else changes by then.
        Triton kernels are autotuned one by one at their first launch, dozens within a second;
        each refresh sends the whole stage (its text and every kernel), so they go out together."""
        with self.lock:
            if self._timer is not None and self._timer.is_alive():
                return
            self._timer = threading.Timer(REFRESH_DELAY_S, self.refresh)
            self._timer.daemon = True
            self._timer.start()


def provenance_by_kernel(mapping: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    """Kernel name -> {"post_grad": [...], "pre_grad": [...]} from Inductor's node mappings."""
    post_to_pre = mapping.get("postToPre") or {}
    out: dict[str, dict[str, list[str]]] = {}
    for handle, post_nodes in (mapping.get("cppCodeToPost") or {}).items():
        name = _HANDLE.sub("", str(handle))
        entry = out.setdefault(name, {"post_grad": [], "pre_grad": []})
        for node in post_nodes or []:
            if node not in entry["post_grad"]:
                entry["post_grad"].append(node)
            for pre in post_to_pre.get(node, []):
                if pre not in entry["pre_grad"]:
                    entry["pre_grad"].append(pre)
    return out


PROVENANCE_OFF = (
    "Inductor's provenance tracking is off (turning it on renames kernels: cpp_fused_0 becomes "
    "cpp_fused_expand_mm_0), so torch gives no kernel -> FX node table: kernels are linked to nodes "
    "by the lines Inductor wrote for each node, and extern kernel calls are not linked. "
    "INDUCTOR_PROVENANCE=1 gives the table, with torch's renamed kernels"
)

# The stage header's line for the same.
PROVENANCE_OFF_SHORT = (
    "provenance tracking off (it renames kernels): kernels linked to FX nodes by their lines"
)


def provenance_tracking(torch: Any) -> bool:
    """Is Inductor's provenance tracking on, as the user's environment set it? tcdebug never
    turns it on: at level 1 Inductor names kernels after their nodes, so the run would differ."""
    return bool(PROVENANCE_LEVEL.get(0))


class BackwardProvenance:
    """Gives a lazily compiled backward the provenance state its forward compile had.

    Inductor fills its kernel -> FX node tables inside `reset_provenance_globals()` around the
    forward compile (`compile_fx`), and dumps them only `if _pre_grad_graph_id`. The backward is
    compiled later, at the first `.backward()`, after that context restored the id to None: torch
    then logs an empty `inductor_provenance_tracking_node_mappings` for every backward (and its
    kernel table keeps entries of earlier backward compiles). When the backward's post-grad graph
    is logged (before its kernels are generated), the forward's graph id is put back and the
    kernel table and debug handles start empty, as for a forward; they are restored afterwards.
    """

    def __init__(self, torch: Any) -> None:
        PRE_GRAD_GRAPH_ID.require()
        KERNEL_NODE_INFO.require()
        # (compile id, subgraph) -> its forward's pre-grad graph id
        self.forward_ids: dict[tuple[str, int], int] = {}
        self.saved: dict[patches.Private, Any] | None = None

    def post_grad_graph(self, cid: str, part: str) -> None:
        base, subgraph = stage_catalog.split_part(part)
        graph_id = PRE_GRAD_GRAPH_ID.get()
        if base != "backward":
            if isinstance(graph_id, int) and graph_id:
                self.forward_ids[(cid, subgraph)] = graph_id
            return
        if graph_id:
            return  # this torch keeps the state itself
        handle = DEBUG_HANDLE.get(None)
        self.saved = {PRE_GRAD_GRAPH_ID: graph_id, KERNEL_NODE_INFO: KERNEL_NODE_INFO.get()}
        patches.put(PRE_GRAD_GRAPH_ID, self.forward_ids.get((cid, subgraph), -1))
        patches.put(KERNEL_NODE_INFO, {})
        if handle is not None:
            self.saved[DEBUG_HANDLE] = handle
            patches.put(DEBUG_HANDLE, 0)

    def restore(self) -> None:
        saved, self.saved = self.saved, None
        for private, value in (saved or {}).items():
            patches.put(private, value)


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder
    import torch._inductor.config  # noqa: F401 - the provenance switch lives there

    tracking = provenance_tracking(ctx.torch)
    stages = KernelStages(rec)
    ctx.options.share(stages)
    early_info: dict[str, dict[str, Any]] = {}  # kernel info that came before its output code

    def on_kernel_info(cid: str, md: dict[str, Any], payload: str | None) -> None:
        try:
            info = json.loads(payload or "{}")
        except ValueError:
            return
        if not isinstance(info, dict):
            return
        with stages.lock:
            for name, entry in info.items():
                if not isinstance(entry, dict):
                    continue
                kernel = stages.find(name, cid)
                if kernel is None:
                    early_info[name] = entry
                else:
                    apply_kernel_info(kernel, entry)
        stages.refresh()

    def on_provenance(cid: str, md: dict[str, Any], payload: str | None) -> None:
        try:
            mapping = json.loads(payload or "{}")
        except ValueError:
            return
        if not isinstance(mapping, dict):
            return
        with stages.lock:
            for name, nodes in provenance_by_kernel(mapping).items():
                kernel = stages.find(name, cid)
                if kernel is None:
                    continue
                kernel.meta["fx_nodes"] = nodes["post_grad"]
                if nodes["pre_grad"]:
                    kernel.meta["pre_grad_nodes"] = nodes["pre_grad"]
        stages.refresh()

    def on_output_code(cid: str, md: dict[str, Any], payload: str | None) -> None:
        code = payload or ""
        part = rec.inductor_part(cid, code)
        kernels = split_output_code(code)
        for kernel in kernels:
            triton = triton_decorator_meta(kernel.source) if kernel.language == "python" else {}
            if triton:
                kernel.meta["triton"] = triton
            info = early_info.pop(kernel.name, None)
            if info:
                apply_kernel_info(kernel, info)
            if stages.claim is not None:  # triton_info's registry (CUDA only)
                stages.claim(kernel)
        early_info.clear()
        stages.add(cid, f"kernel_source.{part}" if part else "kernel_source", kernels)
        meta: dict[str, Any] = {
            "path": (md.get("inductor_output_code") or {}).get("filename", ""),
            "kernel_count": len(kernels),
        }
        if not tracking and kernels:
            meta["lost"] = PROVENANCE_OFF_SHORT
        rec.stage(
            cid, "kernel_source", code, part=part, kernels=[copy.deepcopy(k) for k in kernels], meta=meta
        )

    def on_compile_end(cid: str, md: dict[str, Any], payload: str | None) -> None:
        stages.refresh()

    @functools.cache
    def backward_provenance() -> BackwardProvenance | None:
        """Made at the first post-grad graph, not at install: Inductor is imported by then."""
        try:
            return BackwardProvenance(ctx.torch)
        except patches.MissingPrivate as exc:
            rec.emit(Note(text=f"kernel_source: backward kernels get no FX-node mapping: {exc}"))
            return None

    def on_post_grad_graph(cid: str, md: dict[str, Any], payload: str | None) -> None:
        if not tracking:  # no tables to fill: Inductor's provenance globals stay as torch has them
            return
        provenance = backward_provenance()
        if provenance is not None:
            provenance.post_grad_graph(cid, rec.inductor_part(cid))

    def on_provenance_done(cid: str, md: dict[str, Any], payload: str | None) -> None:
        provenance = backward_provenance()
        if provenance is not None:
            provenance.restore()

    rec.finalizers.append(stages.refresh)
    ctx.handler.on("inductor_output_code", on_output_code)
    ctx.handler.on("compilation_metrics", on_compile_end)
    ctx.handler.on("bwd_compilation_metrics", on_compile_end)
    ctx.handler.on("artifact:triton_kernel_info", on_kernel_info)
    ctx.handler.on("artifact:inductor_provenance_tracking_node_mappings", on_provenance)
    ctx.handler.on("artifact:inductor_post_grad_graph", on_post_grad_graph)
    ctx.handler.on("artifact:inductor_provenance_tracking_node_mappings", on_provenance_done)
