"""`cudagraph`: CUDA graph capture under mode="reduce-overhead" (needs a CUDA device).

Inductor's cudagraph trees (`torch._inductor.cudagraph_trees`) warm a compiled graph up
on its first run and record it into a CUDA graph on the next; each recording is a node
of a tree whose graphs share one memory pool. This unit shows every recording (the
kernels captured, with launch grid and block, read from `CUDAGraph.debug_dump`), the
static inputs, the pool and the node's place in the tree, re-recordings with Inductor's
reason, and skips ("skipping cudagraphs due to mutated inputs") as the stage's result.
"""

from __future__ import annotations

import copy
import functools
import inspect
import logging
import os
import re
import tempfile
import threading
import warnings
from dataclasses import asdict
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext, artifact_logger_handler, cuda_built
from tcdebug.capture.event_points import EventPoints
from tcdebug.capture.recording import Recording
from tcdebug.capture.triton_info import compile_id_str
from tcdebug.model import stages as stage_catalog
from tcdebug.model.event_breaks import EventFacts
from tcdebug.model.session import Kernel
from tcdebug.torchtext.cudagraph_text import NODE_FIELDS, GraphNode, demangle, format_stage, parse_dot
from tcdebug.torchtext.output_code import split_output_code

STAGES = ("cudagraph",)
_TREES = "torch._inductor.cudagraph_trees"
_STAGE = "cudagraph: not captured"
NODE_CHECK_INVARIANTS = patches.declare(
    _TREES,
    "CUDAGraphNode.check_invariants",
    unit="cudagraph",
    breaks="cudagraph: why a graph was re-recorded",
)
MANAGER_MUTATION_CHECK = patches.declare(
    _TREES,
    "CUDAGraphTreeManager._update_non_cudagraph_managed_mutation",
    unit="cudagraph",
    breaks="cudagraph: which function a skipped recording belongs to",
)
MANAGER_RECORD_FUNCTION = patches.declare(
    _TREES, "CUDAGraphTreeManager.record_function", unit="cudagraph", breaks=_STAGE
)
PATH_FROM_ROOT = patches.declare(
    _TREES,
    "CUDAGraphNode._path_from_root",
    unit="cudagraph",
    breaks="cudagraph: a graph's depth in its tree",
    kind=patches.READS,
)
NODE_RECORD = patches.declare(_TREES, "CUDAGraphNode._record", unit="cudagraph", breaks=_STAGE)
NODE_GRAPH = patches.declare(
    _TREES,
    "CUDAGraphNode.graph",
    unit="cudagraph",
    breaks="cudagraph: the recorded graph's nodes (`debug_dump`)",
    kind=patches.SETS,
    on_instance=True,
)
SKIP_LOGGERS = (
    "torch._inductor.cudagraph_utils.__cudagraphs",
    "torch._inductor.cudagraph_trees.__cudagraphs",
)
_FUNCTION_RE = re.compile(r"due to function (\d+) exceeding")
NO_RECORDING = (
    "no CUDA graph was recorded: the compiled graph never ran past its warm-up "
    "(reduce-overhead records on the second call)"
)


def cudagraphs_requested(torch: Any) -> bool:
    """Inside an Inductor compile: does it wrap the graph in CUDA graphs (mode="reduce-overhead")?"""
    try:
        return bool(torch._inductor.config.triton.cudagraphs)
    except AttributeError:
        return False


def describe(t: Any) -> str:
    shape = getattr(t, "shape", None)
    if shape is None:
        if isinstance(t, (int, float)) and not isinstance(t, bool):
            return f"{type(t).__name__} {t}"  # a symbolic size's value for this recording
        return type(t).__name__
    dtype = str(getattr(t, "dtype", "")).replace("torch.", "")
    return f"{dtype}{list(shape)}"


class CudagraphStages:
    """Per (compile id, part): the recordings and skips seen so far, sent as one stage."""

    def __init__(self, rec: Recording, points: EventPoints | None = None) -> None:
        self.rec = rec
        self.points = points  # event breakpoints: a skip or a re-recording may pause there
        self.requested: dict[tuple[str, str], bool] = {}
        self.records: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.skips: dict[tuple[str, str], list[str]] = {}
        # (compile id, part) -> Triton kernel name -> source, for the kernels a graph captured
        self.kernel_sources: dict[tuple[str, str], dict[str, str]] = {}
        # Which subgraph a CUDA-graphed function runs, when a compile has several (DDP's bucket
        # split): (compile id, forward/backward/inference) -> the parts Inductor built, in order,
        # and each one's output code file; function id -> its part, once placed.
        self.built: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self.placed: dict[Any, str] = {}

    def send(self, cid: str, part: str) -> None:
        key = (cid, part)
        records, skips = self.records.get(key, []), self.skips.get(key, [])
        latest = records[-1] if records else {}
        sources = self.kernel_sources.get(key, {})
        kernels = [
            graph_kernel(latest.get("graph_id", 0), n, sources)
            for n in latest.get("nodes", [])
            if n["type"] == "KERNEL"
        ]
        meta: dict[str, Any] = {
            "skipped": bool(skips) and not records,
            "skip_reasons": list(skips),
            "recordings": len(records),
            "rerecord_reasons": [r["rerecord_reason"] for r in records if r.get("rerecord_reason")],
            "records": [{k: v for k, v in r.items() if k != "nodes"} for r in records],
            "graph_nodes": latest.get("nodes", []),
        }
        text = format_stage(records, skips)
        self.rec.stage(
            cid, "cudagraph", text, part=part, kernels=[copy.deepcopy(k) for k in kernels], meta=meta
        )

    def subgraph_part(self, cid: str, mode: str, function_id: Any, model_file: str) -> str:
        """The part (`forward_1`) of the function CUDA graphs wrap: the one whose output code file
        its model was loaded from; else, inferred, the next one Inductor built for that mode
        (cudagraph trees wrap a function at its first run, and Inductor compiled each part of a
        mode in the order they first run)."""
        if function_id in self.placed:
            return self.placed[function_id]
        built = self.built.get((cid, mode), [])
        part = next((p for p, path in built if path and path == model_file), "")
        if not part:
            taken = set(self.placed.values())
            part = next((p for p, _ in built if p not in taken), mode)
        self.placed[function_id] = part
        return part

    def skipped(self, cid: str, part: str, reason: str) -> None:
        reasons = self.skips.setdefault((cid, part), [])
        if reason in reasons:
            return
        reasons.append(reason)
        self.send(cid, part)
        if self.points is not None and self.rec.wants_event("cudagraph_skip"):
            self.points.pause(cid, EventFacts("cudagraph_skip", detail=reason), stack=[])

    def recorded(self, cid: str, part: str, record: dict[str, Any]) -> None:
        records = self.records.setdefault((cid, part), [])
        record["recording"] = len(records) + 1
        records.append(record)
        self.send(cid, part)
        reason = record.get("rerecord_reason")
        if reason and self.points is not None and self.rec.wants_event("cudagraph_rerecord"):
            self.points.pause(cid, EventFacts("cudagraph_rerecord", detail=str(reason)), stack=[])

    def finish(self) -> None:
        for (cid, part), wanted in self.requested.items():
            if wanted and (cid, part) not in self.records and (cid, part) not in self.skips:
                self.rec.not_captured(cid, "cudagraph", NO_RECORDING, part=part)


def graph_kernel(graph_id: Any, node: dict[str, Any], sources: dict[str, str]) -> Kernel:
    """A kernel node of a recorded graph, as a stage kernel (with its Triton source when Inductor's)."""
    short = GraphNode(**{k: v for k, v in node.items() if k in NODE_FIELDS}).display
    source = sources.get(node.get("name", ""))
    meta = {
        "launch_index": node["index"],
        "grid": node.get("grid", []),
        "block": node.get("block", []),
        "shared_mem": node.get("shared_mem"),
        "symbol": node.get("name", ""),
    }
    if node.get("demangled"):
        meta["demangled"] = node["demangled"]
    return Kernel(
        name=f"g{graph_id}_{node['index'] + 1:02d}_{short}",
        language="python" if source else "text",
        source=source
        or f"{node.get('demangled') or node.get('name')}\n\nno source: not an Inductor-generated kernel\n",
        kind="triton" if source else "extern",
        meta=meta,
    )


def install_inductor(ctx: CaptureContext) -> None:
    torch, rec = ctx.torch, ctx.recorder
    stages = CudagraphStages(rec, ctx.options.shared(EventPoints))
    local = threading.local()

    @functools.cache
    def has_cuda() -> bool:
        """Asked inside the first compile that wants CUDA graphs, not at install: asking
        initializes CUDA, which a plain run has not done before the script uses it."""
        available = bool(torch.cuda.is_available())
        if not available:
            rec.mark_unavailable("cudagraph", "no CUDA device")
        return available

    def on_output_code(cid: str, md: dict[str, Any], payload: str | None) -> None:
        if not cudagraphs_requested(torch):
            return
        part = rec.inductor_part(cid, payload)
        local.last_part = (cid, part)
        if not has_cuda():
            rec.not_captured(cid, "cudagraph", "no CUDA device", part=part)
            return
        stages.requested[(cid, part)] = True
        path = str((md.get("inductor_output_code") or {}).get("filename", "") or "")
        stages.built.setdefault((cid, stage_catalog.part_base(part)), []).append((part, path))
        stages.kernel_sources[(cid, part)] = {
            k.name: k.source for k in split_output_code(payload or "") if k.language == "python"
        }

    ctx.handler.on("inductor_output_code", on_output_code)
    if not cuda_built(torch):
        rec.mark_unavailable("cudagraph", "no CUDA device")
        return

    from torch._inductor import cudagraph_trees as trees

    def function_place(manager: Any, function_id: Any) -> tuple[str | None, str]:
        torch_id = compile_id_str(getattr(manager, "id_to_compile_id", {}).get(function_id))
        cid = rec.key(torch_id) if torch_id is not None else None
        mode = getattr(manager, "id_to_mode", {}).get(function_id)
        part = str(getattr(mode, "name", "") or "").lower()
        if cid is None or not part:
            return cid, part
        return cid, stages.subgraph_part(cid, part, function_id, model_file(manager, function_id))

    managers: list[Any] = []  # the tree managers seen (one per device)

    def function_of_message(message: str) -> tuple[Any, Any] | None:
        found = _FUNCTION_RE.search(message)
        if found is None:
            return None
        for manager in managers:
            for function_id in getattr(manager, "id_to_compile_id", {}):
                if getattr(function_id, "id", None) == int(found.group(1)):
                    return manager, function_id
        return None

    def on_skip(record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "skipping cudagraph" not in message:
            return
        where = getattr(local, "function", None) or function_of_message(message)
        cid, part = function_place(*where) if where else (None, "")
        if cid is None:
            try:
                current = torch._guards.CompileContext.current_compile_id()
            except Exception:  # noqa: BLE001
                current = None
            torch_id = compile_id_str(current)
            cid = rec.key(torch_id) if torch_id is not None else None
            last = getattr(local, "last_part", None)
            if last and last[0] == cid:
                part = part or last[1]
        if cid is None:
            last = getattr(local, "last_part", None)
            if last is None:
                return
            cid, part = last
        stages.skipped(cid, part, message.strip())

    for name in SKIP_LOGGERS:
        logging.getLogger(name).addHandler(artifact_logger_handler(on_skip))

    manager_cls, node_cls = trees.CUDAGraphTreeManager, trees.CUDAGraphNode
    failures: dict[Any, str] = {}  # function id -> why its last recorded graph could not be replayed

    def make_check(original: Any) -> Any:
        def check_invariants(self: Any, inputs: Any) -> Any:
            result = original(self, inputs)
            try:
                status, logger = result
                if getattr(status, "name", "") != "SUCCESS":
                    fid = self.wrapped_function.id
                    failures[fid] = _safe_reason(status, logger)
            except Exception:  # noqa: BLE001
                pass
            return result

        return check_invariants

    def make_mutation_check(original: Any) -> Any:
        def update(self: Any, function_id: Any, inputs: Any) -> Any:
            before = getattr(local, "function", None)
            local.function = (self, function_id)
            try:
                return original(self, function_id, inputs)
            finally:
                local.function = before

        return update

    def make_record_function(original: Any) -> Any:
        def record_function(self: Any, new_inputs: Any, function_id: Any) -> Any:
            if self not in managers:
                managers.append(self)
            before = getattr(local, "recording", None)
            local.recording = (self, function_id, failures.pop(function_id, ""))
            try:
                return original(self, new_inputs, function_id)
            finally:
                local.recording = before

        return record_function

    def make_record(original: Any) -> Any:
        def _record(self: Any, model: Any, inputs: Any) -> Any:
            context = getattr(local, "recording", None)
            try:
                record = describe_node(self, inputs, context)
                kept = keep_graph(torch, self)
            except Exception:  # noqa: BLE001
                record, kept = None, False
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*DEBUG: ")
                outputs = original(self, model, inputs)
                if record is not None:
                    record.update(read_graph(self.graph))
                if kept:
                    self.graph.instantiate()  # what capture_end does when the graph is not kept
            if record is not None and context is not None:
                manager, function_id, _ = context
                cid, part = function_place(manager, function_id)
                record["tree_nodes"] = _count_nodes(manager) + 1  # this node joins the tree after _record
                if cid is not None:
                    stages.recorded(cid, part, record)
            return outputs

        return _record

    patches.wrap(NODE_CHECK_INVARIANTS, make_check, owner=node_cls)
    patches.wrap(MANAGER_MUTATION_CHECK, make_mutation_check, owner=manager_cls)
    patches.wrap(MANAGER_RECORD_FUNCTION, make_record_function, owner=manager_cls)
    patches.wrap(NODE_RECORD, make_record, owner=node_cls)
    rec.finalizers.append(stages.finish)


def model_file(manager: Any, function_id: Any) -> str:
    """The file of the code a CUDA-graphed function runs: Inductor's output code module."""
    try:
        model = manager.ids_to_funcs[function_id].model
        model = inspect.unwrap(model)
        return str(inspect.getfile(model))
    except Exception:  # noqa: BLE001 - a wrapper without a file: placed by order
        return ""


def _safe_reason(status: Any, logger: Any) -> str:
    try:
        text = str(logger()).strip()
    except Exception:  # noqa: BLE001
        text = ""
    return text or str(getattr(status, "name", status))


def _count_nodes(manager: Any) -> int:
    count, todo = 0, [n for nodes in (getattr(manager, "roots", None) or {}).values() for n in nodes]
    while todo:
        node = todo.pop()
        count += 1
        todo.extend(n for nodes in node.children.values() for n in nodes)
    return count


def _symbol(placeholder: Any) -> str:
    val = getattr(placeholder, "meta", {}).get("val") if hasattr(placeholder, "meta") else None
    node = getattr(val, "node", None)
    expr = getattr(node, "expr", None)
    return str(expr) if expr is not None and type(val).__name__ == "SymInt" else ""


def describe_node(node: Any, inputs: list[Any], context: Any) -> dict[str, Any]:
    """What a CUDAGraphNode is about to record: its place in the tree, pool and inputs."""
    wrapped = node.wrapped_function
    manager, function_id, reason = context if context is not None else (None, None, "")
    placeholders = list(getattr(wrapped, "placeholders", ()) or ())
    static = set(getattr(node, "static_input_idxs", []) or wrapped.static_input_idxs)
    param_like = set(wrapped.static_input_idxs)
    managed = set(getattr(node, "cudagraph_managed_idxs", []) or [])
    mutated = set(getattr(wrapped, "mutated_input_idxs", ()) or ())
    described = []
    for i, t in enumerate(inputs):
        name = getattr(placeholders[i], "name", "") if i < len(placeholders) else ""
        why = ""
        if i in managed:
            why = "output of an earlier graph in the tree"
        elif i in param_like:
            why = "static (parameter, buffer or marked static)"
        entry = {"index": i, "name": name, "desc": describe(t), "static": i in static, "why_static": why}
        symbol = _symbol(placeholders[i]) if i < len(placeholders) else ""
        if symbol:
            entry["symbol"] = symbol  # e.g. s77: the ShapeEnv symbol this int input carries
        if i in mutated:
            entry["mutated"] = True
        described.append(entry)
    parent = node.parent
    mode = manager.id_to_mode.get(function_id) if manager is not None else None
    get_name = getattr(manager, "get_func_name", None)
    return {
        "graph_id": getattr(node.id, "id", node.id),
        "function": get_name(function_id) if get_name and function_id is not None else "",
        "function_id": getattr(function_id, "id", function_id),
        "mode": str(getattr(mode, "name", "") or "").lower(),
        "parent": getattr(parent.id, "id", parent.id) if parent is not None else None,
        "depth": len(list(PATH_FROM_ROOT.get([], owner=node))) - 1,
        "device": node.device,
        "pool": str(node.cuda_graphs_pool),
        "inputs": described,
        "rerecord_reason": reason,
    }


def keep_graph(torch: Any, node: Any) -> bool:
    """Make the node capture into a graph that keeps its cudaGraph_t, so `debug_dump` can
    print it. Returns True when the graph must then be instantiated by hand.

    With torch 2.11, `enable_debug_mode()` alone left `debug_dump` writing nothing (the
    cudaGraph_t is freed at the end of capture unless `keep_graph=True`); a torch without
    `keep_graph` still keeps it in debug mode.
    """
    try:
        patches.put(NODE_GRAPH, torch.cuda.CUDAGraph(keep_graph=True), owner=node)
        return hasattr(node.graph, "instantiate")
    except TypeError:
        node.graph.enable_debug_mode()
        return False


def read_graph(graph: Any) -> dict[str, Any]:
    """The recorded graph's nodes, from the DOT file `debug_dump` writes."""
    fd, path = tempfile.mkstemp(prefix="tcdebug-cudagraph-", suffix=".dot")
    os.close(fd)
    try:
        graph.debug_dump(path)
        with open(path, encoding="utf-8", errors="replace") as fh:
            dot = fh.read()
        if not dot.strip():
            return {"nodes": [], "dot_error": "debug_dump wrote nothing"}
        nodes = parse_dot(dot)
        readable = demangle([n.name for n in nodes])
        for node in nodes:
            node.demangled = readable.get(node.name, "")
        return {"nodes": [{k: v for k, v in asdict(n).items() if k != "label"} for n in nodes]}
    except Exception as exc:  # noqa: BLE001
        return {"nodes": [], "dot_error": f"{type(exc).__name__}: {exc}"}
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
