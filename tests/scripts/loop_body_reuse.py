"""Prints the IR stages as the capture prints them and as torch prints them, on real Inductor
compiles, with loop bodies changed between the two texts, and says whether they agree.

The capture's printing: the sympy memo, loop-body blocks printed cheaply, and each loop body's
text kept from the IR before fusion for the IR after it while nothing it prints from changed
(`tcdebug.capture.inductor_ir.reuse_loop_body_texts`). Torch's printing: its own functions. Between
the two texts of each compile, two loop bodies change the way Inductor changes them: one block
gets a node added, another a node's arguments replaced. Two compiles (static and dynamic
shapes), each stopped once the IR after fusion is logged. Prints one JSON line: {"texts": N,
"differ": K, "bodies": B, "printed": P, "changes_shown": C}: B loop-body texts asked for, P of
them printed (the rest reused), C of the 4 changes seen in the text after fusion.
"""

import json

import torch
from ir_until_fusion import compile_until_post_fusion, log_ir_quietly
from sympy.core._print_helpers import Printable
from torch._inductor import debug as inductor_debug
from torch._inductor.loop_body import LoopBody, LoopBodyBlock

from tcdebug.capture import inductor_ir

counts = {"texts": 0, "differ": 0, "bodies": 0, "printed": 0, "changes_shown": 0}
formatter = inductor_debug.DebugFormatter
torch_write_ir, torch_body, torch_block = formatter._write_ir, LoopBody.debug_str, LoopBodyBlock.debug_str


def printed_body(self):
    counts["printed"] += 1
    return torch_body(self)


LoopBody.debug_str = printed_body
inductor_ir.print_ir_with_sympy_memo(formatter, Printable)
inductor_ir.print_loop_bodies_cheaply(LoopBodyBlock)
forget = inductor_ir.reuse_loop_body_texts(LoopBody, formatter._write_ir.memo_active)
reusing_body = LoopBody.debug_str


def asked_body(self):
    counts["bodies"] += 1
    return reusing_body(self)


LoopBody.debug_str = asked_body
capture_write_ir, capture_body, capture_block = formatter._write_ir, LoopBody.debug_str, LoopBodyBlock.debug_str


def torch_printing(nodes):
    LoopBody.debug_str, LoopBodyBlock.debug_str = torch_body, torch_block
    try:
        return torch_write_ir(nodes)
    finally:
        LoopBody.debug_str, LoopBodyBlock.debug_str = capture_body, capture_block


def both_ways(nodes):
    nodes = list(nodes)
    text = capture_write_ir(nodes)
    counts["texts"] += 1
    counts["differ"] += text != torch_printing(nodes)
    return text


def bodies(nodes):
    return [sub._body for node in nodes for sub in node.get_nodes() if isinstance(getattr(sub, "_body", None), LoopBody)]


changes: list[str] = []


def change_bodies(nodes):
    """Add a node to one body's block; replace the arguments of a node of another."""
    found = bodies(nodes)
    graph = found[0].root_block.graph
    ops = next(n for n in graph.nodes if n.op == "placeholder")
    with graph.inserting_before(next(n for n in graph.nodes if n.op == "output")):
        graph.call_method("constant", (ops, 12345.0, torch.float32))
    node = next(n for n in found[-1].root_block.graph.nodes if n.op == "call_method" and n.target == "load")
    node.args = (*node.args[:1], "renamed_buffer", *node.args[2:])
    changes[:] = ["12345.0", "renamed_buffer"]


formatter._write_ir = staticmethod(both_ways)
log_ir_quietly()
log_pre, log_post = inductor_debug.log_ir_pre_fusion, inductor_debug.log_ir_post_fusion


def pre_then_change(nodes):
    log_pre(nodes)
    change_bodies(nodes)


def post_and_count(nodes):
    text = capture_write_ir(nodes)
    counts["changes_shown"] += sum(change in text for change in changes)
    try:
        log_post(nodes)
    finally:
        forget()


inductor_debug.log_ir_pre_fusion, inductor_debug.log_ir_post_fusion = pre_then_change, post_and_count
for dynamic in (False, True):
    compile_until_post_fusion(dynamic)
print(json.dumps(counts))
