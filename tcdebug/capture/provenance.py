"""The provenance index: which lines of every stage hold the same op, from torch's own metadata.

Sources, in the order a trail crosses them:
- user source lines and bytecode: each Dynamo node's `stack_trace`; each instruction's `dis`
  position in the original code object;
- FX graphs: the `GraphModule` behind each logged graph (recognised by its `print_readable` text,
  so the printed stage and the nodes read are the same graph); node `meta`: `from_node`
  (NodeSource: which node of which earlier graph it came from), `seq_nr` (links the backward
  nodes to the forward op they differentiate), `original_aten`; the post-grad graph keeps the
  names of the AOT graph it was made from (same node);
- Inductor IR: each scheduler node's buffers and their `origins` / `origin_node` (post-grad
  nodes), and which pre-fusion nodes each post-fusion node holds;
- kernels: Inductor's provenance tracking (`_inductor_triton_kernel_to_post_grad_node_info`,
  filled while it generates code, for the forward and the backward) and its kernel stack traces.

This unit subscribes before the stage units, so a stage's provenance arrives before the target
pauses there. It never changes what torch prints.
"""

from __future__ import annotations

import collections
import dis
import logging
import os
import re
import sys
from types import CodeType, FrameType
from typing import Any

from tcdebug.analysis import provenance_index as prov
from tcdebug.analysis.provenance_index import item_id
from tcdebug.capture import patches
from tcdebug.capture.base import (
    CaptureContext,
    artifact_logger_handler,
    current_compile_key,
    lowering_subgraph,
)
from tcdebug.capture.frame import COMPILE_CODE, dis_listing, find_compile_frame, source_text
from tcdebug.capture.kernel_lines import KernelLineRecorder, NodeLines
from tcdebug.capture.kernel_source import KERNEL_NODE_INFO, PROVENANCE_OFF
from tcdebug.model import stages as stage_catalog
from tcdebug.model.events import Provenance
from tcdebug.model.payloads import ProvItem, ProvLink, ProvSymbol
from tcdebug.model.trace_format import FX_GRAPH_KEYS

STAGES: tuple[str, ...] = ()
GRAPH_KEYS = FX_GRAPH_KEYS  # structured-trace key -> stage id
_DEF = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*) = async_compile\.", re.MULTILINE)
_DIS_OFFSET = re.compile(r"^\s*(?:\d+\s+)?(?:>>\s*)?(\d+)\s+[A-Z][A-Z_0-9]+")
_HANDLE = re.compile(r":\d+$")
_IR_LINKS = "provenance (`f`): IR nodes are not linked to their FX nodes"
PRE_FUSION_NODES = patches.frame_local(
    "torch._inductor.debug", "log_ir_pre_fusion", "nodes", unit="provenance", breaks=_IR_LINKS
)
POST_FUSION_NODES = patches.frame_local(
    "torch._inductor.debug", "log_ir_post_fusion", "nodes", unit="provenance", breaks=_IR_LINKS
)
KERNEL_STACK_TRACE = patches.declare(
    "torch._inductor.debug",
    "_inductor_kernel_stack_trace",
    unit="provenance",
    breaks="provenance (`f`): kernels without an FX-node mapping are not linked by stack trace",
    kind=patches.READS,
)
TRACING_CONTEXT = patches.declare(
    "torch._guards",
    "TracingContext.try_get",
    unit="provenance",
    breaks="symbols (`S`): size symbols' origins, ranges and guards",
    kind=patches.READS,
)
PRINT_READABLE = patches.declare(
    "torch.fx", "GraphModule.print_readable", unit="provenance", breaks="provenance (`f`): not captured"
)


class CompileFacts:
    """What one compile's provenance needs to remember between records."""

    def __init__(self) -> None:
        # id(graph) -> (stage key, its subgraph path: "" for the stage's top graph)
        self.graph_stage: dict[int, tuple[str, str]] = {}
        self.nodes: dict[str, dict[str, int]] = {}  # stage key -> node name -> seq_nr
        self.filename = ""
        self.first = 0
        self.last = 0
        self.line_offset = 0
        self.bytecode_lines: set[int] = set()  # file lines with bytecode items
        self.pre_ir: dict[str, dict[str, str]] = {}  # part -> pre-fusion node name -> item id
        self.subgraphs: dict[str, list[str]] = {}  # graph stage key -> its subgraph modules' paths
        self.hops: dict[str, dict[str, list[str]]] = {}  # graph stage key -> higher-order op -> its subgraphs
        # post-fusion IR stage key -> node -> the buffers it writes: nodes of generated kernels, of
        # extern kernels (each placed by its own kind of call)
        self.ir_writes: dict[str, dict[str, list[str]]] = {}
        self.ir_extern_writes: dict[str, dict[str, list[str]]] = {}


class ProvenanceCapture:
    def __init__(self, ctx: CaptureContext) -> None:
        self.ctx = ctx
        self.torch = ctx.torch
        self.rec = ctx.recorder
        self.printed: collections.deque[tuple[Any, str]] = collections.deque(maxlen=12)
        self.facts: dict[str, CompileFacts] = {}
        self.shape_envs: dict[str, Any] = {}  # compile id -> its ShapeEnv, until its guards are logged

    def fact(self, cid: str) -> CompileFacts:
        return self.facts.setdefault(cid, CompileFacts())

    def send(self, cid: str, items: list[ProvItem], links: list[ProvLink], **extra: Any) -> None:
        if not items and not links and not extra:
            return
        self.rec.emit(Provenance(compile_id=cid, items=items, links=links, **extra))

    # ----- graphs ----------------------------------------------------------------------
    def remember_print(self, gm: Any, text: str) -> None:
        self.printed.append((gm, text))

    def graph_for(self, payload: str) -> Any:
        return next((gm for gm, text in reversed(self.printed) if text == payload), None)

    def on_start(self, cid: str, md: dict[str, Any], payload: str | None) -> None:
        """Source lines and the bytecode of each line, from the code object Dynamo compiles."""
        self.facts.pop(cid, None)  # a restarted compile begins anew
        facts = self.fact(cid)
        frame = find_compile_frame(self.torch)
        code = COMPILE_CODE.read_local(frame)
        if not isinstance(code, CodeType):
            self.send(cid, [], [], reset=True)
            return
        text, offset = source_text(code)
        facts.filename, facts.line_offset = code.co_filename, offset
        count = text.count("\n")
        facts.first, facts.last = offset + 2, offset + count
        items: list[ProvItem] = []
        links: list[ProvLink] = []
        src_lines = text.splitlines()
        for k in range(2, count + 1):
            line = k + offset
            code_text = src_lines[k - 1].strip() if k - 1 < len(src_lines) else ""
            if code_text and not code_text.startswith("#"):
                items.append(self.source_item(facts, line, code_text))
        listing = dis_listing(code, "original bytecode")
        offset_line = {}
        for number, row in enumerate(listing.splitlines(), 1):
            m = _DIS_OFFSET.match(row)
            if m:
                offset_line[int(m.group(1))] = number
        by_line: dict[int, list[int]] = {}
        current: int | None = None
        for inst in dis.get_instructions(code):
            lineno = _instruction_line(inst, current)
            current = lineno
            if isinstance(lineno, int) and inst.offset in offset_line:
                by_line.setdefault(lineno, []).append(offset_line[inst.offset])
        for line, rows in by_line.items():
            bid = item_id("bytecode_before", str(line))
            items.append(ProvItem(bid, "bytecode_before", f"line {line}", "bytecode", sorted(set(rows))))
            links.append(ProvLink(self.source_id(facts.filename, line), bid, "dis_positions"))
            facts.bytecode_lines.add(line)
        self.send(cid, items, links, reset=True)

    def source_id(self, filename: str, line: int) -> str:
        return item_id("source", f"{filename}:{line}")

    def source_item(
        self, facts: CompileFacts, line: int, code_text: str = "", filename: str = ""
    ) -> ProvItem:
        filename = filename or facts.filename
        inside = _same_file(filename, facts.filename) and facts.first <= line <= facts.last
        return ProvItem(
            self.source_id(facts.filename if inside else filename, line),
            "source",
            f"{os.path.basename(filename)}:{line}",
            "source_line",
            [line - facts.line_offset] if inside else [],
            code_text,
            {"file": filename, "line": line, **({} if inside else {"outside": True})},
        )

    def on_graph(self, stage: str):  # noqa: ANN201
        def handle(cid: str, md: dict[str, Any], payload: str | None) -> None:
            if stage == "inductor_post_grad_graph":
                part = self.rec.inductor_part(cid)
            elif stage in stage_catalog.GRAPH_OPENERS:
                part = self.rec.subgraph_part(cid)
            else:
                part = ""
            key = stage_catalog.stage_key(stage, part)
            self.graph(cid, key, payload or "")

        return handle

    def on_pre_grad(self, cid: str, md: dict[str, Any], payload: str | None) -> None:
        """The pre-grad graphs hold the Dynamo graph's nodes: AOT nodes' `from_node` may name them."""
        gm = self.graph_for(payload or "")
        if gm is not None:
            for path, module in graph_modules(gm):
                self.fact(cid).graph_stage.setdefault(id(module.graph), ("dynamo_graph", path))

    def graph(self, cid: str, key: str, payload: str) -> None:
        facts = self.fact(cid)
        if key == "dynamo_graph":
            tc = TRACING_CONTEXT.get()()
            shape_env = getattr(getattr(tc, "fake_mode", None), "shape_env", None)
            if shape_env is not None:
                self.shape_envs[cid] = shape_env
                self.send_symbols(cid, shape_env)  # before the pause at the Dynamo graph
        gm = self.graph_for(payload)
        if gm is None:
            self.send(cid, [], [], notes=[f"{key}: the graph object behind the logged text was not found"])
            return
        modules = graph_modules(gm)
        for path, module in modules:
            facts.graph_stage[id(module.graph)] = (key, path)
        lines = prov.fx_node_lines(payload)
        items: list[ProvItem] = []
        links: list[ProvLink] = []
        names: dict[str, int] = {}
        stage_id, part = stage_catalog.split_key(key)
        aot_of_part = stage_catalog.aot_key_for_part(part) if stage_id == "inductor_post_grad_graph" else ""
        # the AOTAutograd graphs of this stage's subgraph (DDP's bucket split compiles several)
        joint_key = stage_catalog.stage_key("aot_joint", part)
        forward_key = stage_catalog.stage_key("aot_forward", part)
        forward = facts.nodes.get(forward_key, {})
        frames_of: dict[str, list[dict[str, Any]]] = {}  # nodes of one line share its stack trace
        from_dynamo_subgraph: set[str] = set()  # nodes whose from_node names a Dynamo subgraph's node
        hops: dict[str, list[str]] = {}  # higher-order op node -> the subgraph modules it passes
        hop_type = getattr(getattr(self.torch, "_ops", None), "HigherOrderOperator", ())
        for path, node in ((path, node) for path, module in modules for node in module.graph.nodes):
            if node.op not in ("call_function", "call_method", "call_module"):
                continue
            name = prov.qualified(path, node.name)
            if isinstance(node.target, hop_type):
                hops[name] = [prov.qualified(path, str(a.target)) for a in _subgraph_args(node.args)]
            meta = node.meta
            seq_nr = meta.get("seq_nr")
            seq = seq_nr if isinstance(seq_nr, int) and seq_nr >= 0 else -1
            names[name] = seq
            iid = item_id(key, name)
            detail = [_target_name(node)]
            aten = meta.get("original_aten")
            if aten is not None and str(aten) not in detail[0]:
                detail.append(f"from {aten}")
            if seq >= 0:
                detail.append(f"seq_nr {seq}")
            trace = meta.get("stack_trace") or ""
            frames = frames_of.get(trace)
            if frames is None:
                frames = frames_of[trace] = prov.stack_frames(trace)
            span = next((f.get("span") for f in reversed(frames) if f.get("span")), "")
            if path:
                detail.append(f"in subgraph {path}")
            items.append(
                ProvItem(
                    iid,
                    key,
                    name,
                    "fx_node",
                    [lines[name]] if name in lines else [],
                    " · ".join(detail),
                    {"code": span} if span else {},
                )
            )
            for source, src_name, how in _from_nodes(meta.get("from_node")):
                src_key, src_path = facts.graph_stage.get(source, ("", ""))
                if src_key and src_key != key:
                    if src_key == "dynamo_graph" and src_path:
                        from_dynamo_subgraph.add(name)
                    links.append(
                        ProvLink(
                            item_id(src_key, prov.qualified(src_path, src_name)), iid, f"from_node ({how})"
                        )
                    )
            if stage_id == "dynamo_graph":
                items_, links_ = self.source_links(facts, frames, iid)
                items += items_
                links += links_
            elif stage_id in ("aot_forward", "aot_backward", "aot_inference"):
                if name in facts.nodes.get(joint_key, {}):
                    links.append(ProvLink(item_id(joint_key, name), iid, "same node (partitioner)"))
            if stage_id == "aot_backward" and name in forward:
                links.append(ProvLink(item_id(forward_key, name), iid, "same node (recomputed)"))
            elif stage_id == "aot_backward" and seq >= 0:
                links += [
                    ProvLink(item_id(forward_key, fwd), iid, "seq_nr")
                    for fwd, fseq in forward.items()
                    if fseq == seq
                ]
            elif stage_id == "aot_joint" and meta.get("partitioner_tag") == "is_backward" and seq >= 0:
                links += [
                    ProvLink(item_id(joint_key, other), iid, "seq_nr")
                    for other, fseq in names.items()
                    if fseq == seq and other != name and other not in facts.nodes.get(f"_bwd:{joint_key}", {})
                ]
                facts.nodes.setdefault(f"_bwd:{joint_key}", {})[name] = seq
            if stage_id == "inductor_post_grad_graph" and aot_of_part:
                if name in facts.nodes.get(aot_of_part, {}):
                    links.append(ProvLink(item_id(aot_of_part, name), iid, "same node"))
        facts.nodes[key] = names
        facts.subgraphs[key] = [path for path, _module in modules if path]
        facts.hops[key] = hops
        links += prov.subgraph_links(key, hops, names)
        if stage_id in ("aot_joint", "aot_forward", "aot_backward", "aot_inference"):
            # torch's from_node does not always reach Dynamo's subgraph (flex attention's score_mod
            # nodes name the flex_attention node): pair the subgraphs the same op passes
            dynamo = ("dynamo_graph", facts.nodes.get("dynamo_graph", {}), facts.hops.get("dynamo_graph", {}))
            links += prov.paired_subgraph_links(dynamo, (key, names, hops), skip=from_dynamo_subgraph)
        self.send(cid, items, links)

    def source_links(
        self, facts: CompileFacts, frames: list[dict[str, Any]], iid: str
    ) -> tuple[list[ProvItem], list[ProvLink]]:
        """A Dynamo node's user lines: its innermost frame and every frame inside the compiled code."""
        items: list[ProvItem] = []
        links: list[ProvLink] = []
        for k, frame in enumerate(frames):
            inside = _same_file(frame["file"], facts.filename) and facts.first <= frame["line"] <= facts.last
            if not inside and k != len(frames) - 1:
                continue
            item = self.source_item(facts, frame["line"], frame.get("code", ""), frame["file"])
            items.append(item)
            if inside and frame["line"] in facts.bytecode_lines:
                bid = item_id("bytecode_before", str(frame["line"]))
                links.append(ProvLink(bid, iid, "stack_trace"))
            else:
                links.append(ProvLink(item.item_id, iid, "stack_trace"))
        return items, links

    # ----- Inductor IR -----------------------------------------------------------------
    def on_ir(self, stage: str):  # noqa: ANN201
        nodes_local = PRE_FUSION_NODES if stage.endswith("pre_fusion") else POST_FUSION_NODES
        target = nodes_local.get().__code__

        def handle(record: logging.LogRecord) -> None:
            frame: FrameType | None = sys._getframe(1)
            while frame is not None and frame.f_code is not target:
                frame = frame.f_back
            if frame is None:
                return
            nodes = nodes_local.read_local(frame) or []
            cid = self.current_cid()
            if cid is None:
                return
            part = self.rec.inductor_part(cid)
            placed = self.ctx.options.ir_texts.add(record, stage, cid, part)
            self.ir(
                cid,
                stage,
                part,
                placed.text,
                nodes,
                first_line=placed.first_line,
                subgraph=lowering_subgraph(self.torch),
            )

        return handle

    def current_cid(self) -> str | None:
        return current_compile_key(self.torch, self.rec)

    def ir(
        self,
        cid: str,
        stage: str,
        part: str,
        text: str,
        nodes: list[Any],
        first_line: int = 0,
        subgraph: str | None = None,
    ) -> None:
        """The IR nodes of one scheduler's text, which starts at `first_line` of the stage's `text`
        (`tcdebug.capture.ir_texts`): each node's lines are found from there on. The nodes of a
        `subgraph` (a higher-order op's graph Inductor lowered on its own) come from that graph's
        FX nodes: their origins are linked to the post-grad stage's nodes of that subgraph
        (`true_graph_0.sin`), never to the compiled graph's nodes of the same name."""
        facts = self.fact(cid)
        key = f"{stage}.{part}" if part else stage
        post_key = f"inductor_post_grad_graph.{part}" if part else "inductor_post_grad_graph"
        blocks = prov.ir_node_lines(text, start=first_line)
        pre = facts.pre_ir.setdefault(part, {})
        path = self.subgraph_path(facts, post_key, subgraph)
        items: list[ProvItem] = []
        links: list[ProvLink] = []
        for snode in nodes:
            name = str(snode.get_name())
            iid = item_id(key, name)
            outputs = [str(b.get_name()) for b in _safe(lambda s=snode: s.get_outputs(), [])]
            kind = type(snode).__name__
            items.append(
                ProvItem(
                    iid, key, name, "ir_node", blocks.get(name, []), f"{', '.join(outputs)} · {kind}".strip()
                )
            )
            for sub in _safe(lambda s=snode: s.get_nodes(), [snode]):
                sub_name = str(sub.get_name())
                if stage.endswith("post_fusion") and sub_name in pre:
                    links.append(ProvLink(pre[sub_name], iid, "fusion" if sub is not snode else "same node"))
                    continue
                for origin in self.post_grad_names(facts, post_key, path, subgraph, _origins(sub)):
                    links.append(ProvLink(item_id(post_key, origin), iid, "origins"))
            if stage.endswith("pre_fusion"):
                pre[name] = iid
            else:  # the post-grad nodes each post-fusion node computes, to match kernels by
                writes = facts.ir_extern_writes if "Extern" in kind else facts.ir_writes
                writes.setdefault(key, {})[name] = outputs  # its buffers place it in a kernel
                facts.nodes[f"ir:{key}:{name}"] = {
                    o: 0
                    for sub in _safe(snode.get_nodes, [])
                    for o in self.post_grad_names(facts, post_key, path, subgraph, _origins(sub))
                }
        notes = []
        if subgraph is not None and path is None and nodes and stage.endswith("pre_fusion"):  # once for both
            notes.append(
                f"the IR nodes of subgraph {subgraph}{stage_catalog.part_suffix(part)} are not linked to "
                "post-grad FX nodes: the post-grad stage has no subgraph of that name"
            )
        self.send(cid, items, links, **({"notes": notes} if notes else {}))

    def subgraph_path(self, facts: CompileFacts, post_key: str, subgraph: str | None) -> str | None:
        """The post-grad stage's subgraph module that Inductor lowered as graph `subgraph`."""
        if subgraph is None:
            return None
        return prov.subgraph_path(subgraph, facts.subgraphs.get(post_key, ()))

    def post_grad_names(
        self, facts: CompileFacts, post_key: str, path: str | None, subgraph: str | None, origins: list[str]
    ) -> list[str]:
        """The post-grad items of `origins` (node names of the graph being lowered). A subgraph's IR
        nodes also carry the origins of the higher-order op that called it (`cond`, its inputs'
        producers): only the subgraph's own nodes are its items."""
        if subgraph is not None and path is None:
            return []
        return prov.names_in_graphs([path or ""], origins, facts.nodes.get(post_key, {}))

    # ----- kernels ---------------------------------------------------------------------
    def on_output_code(self, cid: str, md: dict[str, Any], payload: str | None) -> None:
        code = payload or ""
        part = self.rec.inductor_part(cid, code)
        key = f"kernel_source.{part}" if part else "kernel_source"
        post_key = f"inductor_post_grad_graph.{part}" if part else "inductor_post_grad_graph"
        ir_key = f"inductor_ir_post_fusion.{part}" if part else "inductor_ir_post_fusion"
        facts = self.fact(cid)
        mapping = dict(KERNEL_NODE_INFO.get(None) or {})
        traces = dict(KERNEL_STACK_TRACE.get(None) or {})
        handles: dict[str, list[str]] = {}
        for handle in list(mapping) + list(traces):
            name = _HANDLE.sub("", str(handle))
            if str(handle) not in handles.setdefault(name, []):
                handles[name].append(str(handle))
        items: list[ProvItem] = []
        links: list[ProvLink] = []
        notes: list[str] = []
        defined = _DEF.findall(code)
        located = prov.OutputCodeLines(code)
        ir_groups = {k.rsplit(":", 1)[1]: v for k, v in facts.nodes.items() if k.startswith(f"ir:{ir_key}:")}
        owners = kernel_owners(  # a generated kernel's nodes by its calls, an extern node by its call
            located,
            [(n, name) for name in dict.fromkeys(defined) for n in located.calls.get(name, [])],
            facts.ir_writes.get(ir_key, {}),
        ) | kernel_owners(
            located,
            [
                (n + 1, h if name.startswith("extern_kernels.") else name)  # the item's name, as below
                for name, hs in handles.items()
                if name.startswith("extern_kernels.") or name not in defined
                for h in hs
                for n in located.handles.get(h, [])
            ],
            facts.ir_extern_writes.get(ir_key, {}),
        )
        recorder = self.ctx.options.shared(KernelLineRecorder)
        written = recorder.take() if recorder is not None else {}
        if recorder is None:
            notes.append(
                f"{key}: the lines inside each kernel are not linked (the kernel_lines capture unit is "
                "not installed: this torch lacks its API, or it was switched off); the trail marks whole kernels"
            )
        by_lines: dict[str, list[str]] = {}
        if not mapping and written:  # provenance tracking off: each node's kernel from its lines
            by_lines = nodes_by_kernel_lines(located, list(dict.fromkeys(defined)), written)
            notes.append(f"{key}: {PROVENANCE_OFF}")
        for name in dict.fromkeys(defined + list(handles)):
            # An extern kernel (addmm, mm) is one item per call: each call is a different op.
            ids = handles.get(name, []) if name.startswith("extern_kernels.") else [name]
            for one in ids:
                hs = [one] if one != name else handles.get(name, [])
                lines = prov.kernel_lines(located, name, hs)
                if not lines:
                    continue
                iid = item_id(key, one)
                extern = name.startswith("extern_kernels.")
                post_nodes = [n for h in hs for n in mapping.get(h, [])] or by_lines.get(name, [])
                graphs = prov.caller_graphs(located.callers(name, hs), facts.subgraphs.get(post_key, ()))
                linked = prov.names_in_graphs(graphs, post_nodes, facts.nodes.get(post_key, {}))
                if not extern and recorder is not None:
                    inside = self.lines_inside(
                        located, name, key, iid, post_nodes, written, ir_groups, post_key, graphs, facts
                    )
                    if inside:
                        items += inside[0]
                        links += inside[1]
                        lines = kernel_head_lines(located, name)
                    else:
                        notes.append(
                            f"{key}: no line of {name} was written while Inductor generated one of its "
                            "nodes; the trail marks the whole kernel"
                        )
                fused = ", ".join(dict.fromkeys(post_nodes))
                label = f"{name} (extern kernel)" if extern else (f"fuses {fused}" if fused else "kernel")
                items.append(
                    ProvItem(
                        iid,
                        key,
                        one,
                        "extern_kernel" if extern else "kernel",
                        lines,
                        label,
                        {"post_grad": post_nodes},
                    )
                )
                for node in linked:
                    links.append(ProvLink(item_id(post_key, node), iid, "kernel_provenance"))
                for group, origins in ir_groups.items():
                    if owners.get(group, one) == one and set(origins) & set(linked):
                        links.append(ProvLink(item_id(ir_key, group), iid, "origins ∩ kernel_provenance"))
                    elif not mapping and owners.get(group) == one:
                        # without torch's kernel table a kernel's nodes come from its lines, which can
                        # miss one: the kernel whose call first passes a buffer the node writes has it
                        links.append(ProvLink(item_id(ir_key, group), iid, "the kernel's call writes its buffer"))
                if not post_nodes:
                    frames = [f for h in hs for t in traces.get(h, []) for f in prov.stack_frames(t)[-1:]]
                    for frame in frames:
                        src = self.source_item(facts, frame["line"], frame.get("code", ""), frame["file"])
                        items.append(src)
                        links.append(ProvLink(src.item_id, iid, "kernel stack trace"))
                    if not frames:
                        notes.append(f"{key}: torch recorded no FX node and no stack trace for {name}")
        self.send(cid, items, links, notes=notes)

    def lines_inside(
        self,
        located: prov.OutputCodeLines,
        name: str,
        key: str,
        kernel_iid: str,
        post_nodes: list[str],
        written: dict[str, NodeLines],
        ir_groups: dict[str, dict[str, int]],
        post_key: str,
        graphs: set[str],
        facts: CompileFacts,
    ) -> tuple[list[ProvItem], list[ProvLink]] | None:
        """One item per scheduler node of kernel `name`: the lines of the kernel's source that
        Inductor wrote while generating that node (`V.kernel.current_node`), among the nodes of
        the graphs whose code calls the kernel (`graphs`)."""
        first, last = located.defs.get(name, (0, -1))
        if last <= first:
            return None
        fused = set(post_nodes)
        nodes = [
            n
            for n in written.values()
            if n.origins
            and set(n.origins) <= fused
            and (self.subgraph_path(facts, post_key, n.graph) or "") in graphs
        ]
        if not nodes:
            return None
        body = located.text_lines[first : last - 1]  # the lines strictly inside the definition
        items: list[ProvItem] = []
        links: list[ProvLink] = []
        for node in nodes:
            found = [first + 1 + k for k, text in enumerate(body) if text.strip() in node.texts]
            if not found:
                continue
            iid = item_id(key, f"{name}/{node.name}")
            of_graph = f" (subgraph {node.graph})" if node.graph else ""
            items.append(
                ProvItem(
                    iid,
                    key,
                    f"{name}/{node.name}",
                    "kernel_lines",
                    found,
                    f"lines of {node.name} computing {', '.join(node.origins)}{of_graph}",
                    {"kernel": name, "scheduler_node": node.name, "post_grad": list(node.origins)}
                    | ({"subgraph": node.graph} if node.graph else {}),
                )
            )
            path = self.subgraph_path(facts, post_key, node.graph)
            for origin in self.post_grad_names(facts, post_key, path, node.graph, node.origins):
                links.append(ProvLink(item_id(post_key, origin), iid, "codegen (current node)"))
            links.append(ProvLink(iid, kernel_iid, "lines of the kernel"))
            ir_key = key.replace("kernel_source", "inductor_ir_post_fusion", 1)
            # The post-fusion IR node, when it is this node alone: a fused group (`op3_op5`) holds
            # other nodes' lines too, and a link from it would lead relu's trail into the sum's lines.
            if node.name in ir_groups:
                links.append(ProvLink(item_id(ir_key, node.name), iid, "codegen (scheduler node)"))
        return (items, links) if items else None

    def on_compile_end(self, cid: str, md: dict[str, Any], payload: str | None) -> None:
        """Let go of the graphs printed during the compile (they may hold large constants)."""
        self.printed.clear()
        self.shape_envs.pop(cid, None)

    # ----- symbols ---------------------------------------------------------------------
    def on_guards(self, cid: str, md: dict[str, Any], payload: str | None) -> None:
        """Each symbolic size: where it comes from, its range, its hint and the guards on it."""
        shape_env = self.shape_envs.pop(cid, None)
        if shape_env is None:
            return
        self.send_symbols(cid, shape_env)

    def send_symbols(self, cid: str, shape_env: Any) -> None:
        """The symbols of the compile's `ShapeEnv` as they are now: sent with the Dynamo graph
        (which already names them) and again with the guards (which add theirs)."""
        symbols: dict[str, ProvSymbol] = {}
        guards = [(g.expr, str(g.expr)) for g in getattr(shape_env, "guards", [])]
        # torch 2.13 renamed var_to_val (which now warns) to backed_var_to_val.
        hints = getattr(shape_env, "backed_var_to_val", None)
        if hints is None:
            hints = getattr(shape_env, "var_to_val", {})
        for sym, sources in dict(getattr(shape_env, "var_to_sources", {})).items():
            rng = shape_env.var_to_range.get(sym)
            hint = hints.get(sym)
            symbols[str(sym)] = ProvSymbol(
                sources=[_source_name(s) for s in sources],
                range=f"[{rng.lower}, {rng.upper}]" if rng is not None else "",
                hint=str(hint) if hint is not None else "",
                guards=[text for expr, text in guards if sym in getattr(expr, "free_symbols", ())],
            )
        if symbols:
            self.send(cid, [], [], symbols=symbols)


def graph_modules(gm: Any) -> list[tuple[str, Any]]:
    """The graph module and every subgraph module in it, with its path, as `print_readable` nests
    them (it prints each child that has a `graph`)."""
    out = [("", gm)]
    todo = [("", gm)]
    while todo:
        path, module = todo.pop(0)
        for child_name, child in _safe(lambda m=module: list(m.named_children()), []):
            if hasattr(child, "graph") and hasattr(child.graph, "nodes"):
                child_path = prov.qualified(path, child_name)
                out.append((child_path, child))
                todo.append((child_path, child))
    return out


def _subgraph_args(value: Any) -> list[Any]:
    """The `get_attr` nodes (subgraph modules) among a higher-order op's arguments, in order."""
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _subgraph_args(v)]
    if isinstance(value, dict):
        return [x for v in value.values() for x in _subgraph_args(v)]
    return [value] if getattr(value, "op", None) == "get_attr" else []


def nodes_by_kernel_lines(
    located: prov.OutputCodeLines, kernels: list[str], written: dict[str, NodeLines]
) -> dict[str, list[str]]:
    """Kernel name -> the post-grad nodes it computes, where Inductor's kernel table is off: each
    scheduler node belongs to the one kernel whose body holds most of the lines written while
    Inductor generated it (a tie places it nowhere)."""
    bodies: dict[str, set[str]] = {}
    for name in kernels:
        first, last = located.defs.get(name, (0, -1))
        if last > first:
            bodies[name] = {text.strip() for text in located.text_lines[first : last - 1]}
    out: dict[str, list[str]] = {}
    for node in written.values():
        scores = sorted(((len(node.texts & body), name) for name, body in bodies.items()), reverse=True)
        if not scores or scores[0][0] == 0 or (len(scores) > 1 and scores[1][0] == scores[0][0]):
            continue
        names = out.setdefault(scores[0][1], [])
        names += [origin for origin in node.origins if origin not in names]
    return out


def kernel_owners(
    located: prov.OutputCodeLines, calls: list[tuple[int, str]], writes: dict[str, list[str]]
) -> dict[str, str]:
    """Post-fusion IR node -> the kernel item that computes it: of the `calls` (line, item), the
    first in the output code that names a buffer the node writes (a buffer is written before it
    is read). torch's kernel mapping also names the nodes a kernel recomputes or reads through a
    template's prologue, so origins shared with a kernel's mapping alone do not place a node."""
    group_of = {buf: group for group, bufs in writes.items() for buf in bufs}
    owners: dict[str, str] = {}
    for n, name in sorted(calls):
        if not 0 < n <= len(located.text_lines):
            continue
        for word in prov.IDENTIFIER.findall(located.text_lines[n - 1]):
            group = group_of.get(word)
            if group is not None:
                owners.setdefault(group, name)
    return owners


def kernel_head_lines(located: prov.OutputCodeLines, name: str) -> list[int]:
    """A kernel's definition line and its call sites: where the trail points once the lines
    inside the kernel are linked one op at a time."""
    first, _last = located.defs.get(name, (0, -1))
    return sorted({first, *located.calls.get(name, [])} - {0})


def _instruction_line(inst: dis.Instruction, current: int | None) -> int | None:
    """The source line of an instruction: its position (3.11+), else the last line started."""
    positions = getattr(inst, "positions", None)
    lineno = getattr(positions, "lineno", None)
    if isinstance(lineno, int):
        return lineno
    started = getattr(inst, "line_number", None) or inst.starts_line
    return started if isinstance(started, int) and not isinstance(started, bool) else current


def _source_name(source: Any) -> str:
    """`L['x'].size()[0]`: a Dynamo Source's name (a method in older torch, a property in newer)."""
    name = getattr(source, "name", None)
    if callable(name):
        name = _safe(name, None)
    return name if isinstance(name, str) else str(source)


def _same_file(a: str, b: str) -> bool:
    return bool(a) and bool(b) and (a == b or os.path.abspath(a) == os.path.abspath(b))


def _safe(fn: Any, default: Any) -> Any:
    try:
        return fn()
    except Exception:  # noqa: BLE001 - a torch without the attribute: leave it out
        return default


def _target_name(node: Any) -> str:
    target = node.target
    if isinstance(target, str):
        return target
    name = getattr(target, "__name__", None) or str(target)
    if "OpOverload" in type(target).__name__:
        return f"aten.{target}" if not str(target).startswith(("aten.", "prims.")) else str(target)
    module = getattr(target, "__module__", "") or ""
    if module.startswith("torch") and "." not in name:
        return f"torch.{name}" if module in ("torch", "torch._C._VariableFunctions") else f"{module}.{name}"
    return name


def _from_nodes(sources: Any) -> list[tuple[int, str, str]]:
    """(graph id, node name, pass name) of every NodeSource in a node's `from_node` chain."""
    out: list[tuple[int, str, str]] = []
    todo = list(sources or [])
    while todo:
        ns = todo.pop(0)
        name, graph_id = getattr(ns, "name", None), getattr(ns, "graph_id", None)
        if isinstance(name, str) and isinstance(graph_id, int):
            out.append((graph_id, name, str(getattr(ns, "pass_name", ""))))
        todo.extend(getattr(ns, "from_node", None) or [])
    return out


def _origins(sub: Any) -> list[str]:
    """The post-grad nodes an IR node computes. Like Inductor's own kernel mapping: an extern
    kernel's `origin_node` when it has one (its `origins` also hold its inputs' producers)."""
    node = getattr(sub, "node", None)
    if node is None:
        return []
    origin = getattr(node, "origin_node", None)
    if origin is not None and "Extern" in type(sub).__name__:
        return [str(origin.name)]
    return sorted(str(o.name) for o in getattr(node, "origins", ()) or ())


def install(ctx: CaptureContext) -> None:
    cap = ProvenanceCapture(ctx)
    ctx.options.share(cap)

    def make(original: Any) -> Any:
        def print_readable(self: Any, *args: Any, **kwargs: Any) -> Any:
            text = original(self, *args, **kwargs)
            if isinstance(text, str):
                cap.remember_print(self, text)
            return text

        return print_readable

    patches.wrap(PRINT_READABLE, make)
    on = ctx.handler.on
    on("dynamo_start", cap.on_start)
    for trace_key, stage in GRAPH_KEYS.items():
        on(trace_key, cap.on_graph(stage))
    on("artifact:before_pre_grad_graph", cap.on_pre_grad)
    on("artifact:after_pre_grad_graph", cap.on_pre_grad)
    on("artifact:inductor_post_grad_graph", cap.on_graph("inductor_post_grad_graph"))
    on("inductor_output_code", cap.on_output_code)
    on("dynamo_cpp_guards_str", cap.on_guards)
    on("compilation_metrics", cap.on_compile_end)
    on("bwd_compilation_metrics", cap.on_compile_end)


def install_inductor(ctx: CaptureContext) -> None:
    """The IR stages' provenance, once the script's torch has imported Inductor's compiler."""
    from torch._inductor import debug as inductor_debug

    cap = ctx.options.shared(ProvenanceCapture)
    if cap is None:
        return  # `install` failed: said in its note
    if hasattr(inductor_debug, "log_ir_pre_fusion"):
        for name, stage in (
            ("torch._inductor.debug.__ir_pre_fusion", "inductor_ir_pre_fusion"),
            ("torch._inductor.debug.__ir_post_fusion", "inductor_ir_post_fusion"),
        ):
            handler = artifact_logger_handler(cap.on_ir(stage))
            log = logging.getLogger(name)
            log.setLevel(logging.DEBUG)
            log.addHandler(handler)
            ctx.options.artifact_handlers.append((name, handler))
