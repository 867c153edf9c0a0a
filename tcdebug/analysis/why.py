"""The "why" of a compile: why it exists, why it broke, what was not fused, why CUDA graphs were
skipped or re-recorded, which kernel configs won, and where its compile time went.

Built from the session model only (stdlib): the same answers live, from a dump and from a
TORCH_TRACE log. Each part names the stage it is about, so the UI can jump there. What is
inferred rather than read from torch says so in its text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tcdebug.analysis import compile_phases as compile_times
from tcdebug.analysis.hints import Hint, compile_hints, readable_cause
from tcdebug.analysis.provenance_index import SUBGRAPH_PREFIX
from tcdebug.lazy_re import lazy_re
from tcdebug.model import stages as stage_catalog
from tcdebug.model.payloads import AutotuneTable, ChainStep, Frame, Plain
from tcdebug.model.schema import to_json
from tcdebug.model.session import Compile, GraphBreak, Session, Stage
from tcdebug.model.trace_format import capture_of
from tcdebug.textsafe import safe_line
from tcdebug.torchtext.dynamo_text import split_recompile_reasons
from tcdebug.torchtext.fsdp_breaks import FSDP2_HOOK_NOTE, is_fsdp2_hook
from tcdebug.torchtext.stage_text import ir_and_fusion_log

EXISTS, FAILED, BREAK, FUSION, KERNELS, CUDAGRAPH, CHOICE, TIME = (
    "exists",
    "failed",
    "graph_break",
    "fusion",
    "kernels",
    "cudagraph",
    "kernel_choice",
    "time",
)
CHAIN = "specialization"
HINT = "hint"
CACHE = "cache"


@dataclass(eq=False, repr=False)
class WhyPart(Plain):
    """One part of a compile's explanation: a title, its lines, and the stage it is about."""

    kind: str
    title: str
    lines: list[str] = field(default_factory=list)
    compile_id: str = ""  # the compile the linked stage belongs to
    stage: str = ""  # the stage key it is about ("" = the compile itself)
    data: dict[str, Any] = field(default_factory=dict)


# ----- why it exists ---------------------------------------------------------------------------
_GUARD_LINE = re.compile(r"^[| ]*\+- (?P<kind>[A-Z_]+): (?P<rest>.*)$")
_TENSOR = re.compile(r"tensor '(?P<name>[^']+)'")
_SOURCE = lazy_re(r"\b[LG]\[['\"][^'\"]+['\"]\](?:\.\w+|\[[^\]]*\])*")
_LOCAL = lazy_re(r"\bL\[['\"]([A-Za-z_]\w*)['\"]\]")
_THEN_NOW = re.compile(r"expected (?P<then>[^,;]+), actual (?P<now>[^,;\s]+)")


@dataclass(eq=False, repr=False)
class Guard(Plain):
    """A guard of a compile: its kind, its code, and where the user's code installed it."""

    kind: str
    code: str
    user_line: str = ""  # the user's source text that installed it
    where: str = ""  # file:line in function

    @property
    def text(self) -> str:
        return f"{self.kind}: {self.code}"


def parse_guards(text: str) -> list[Guard]:
    """Dynamo's guard tree text -> its leaf guards, each with the user line Dynamo recorded."""
    guards = []
    for line in text.splitlines():
        m = _GUARD_LINE.match(line)
        if not m or m["kind"] in ("TREE_GUARD_MANAGER",):
            continue
        parts = [p.strip() for p in re.split(r"\s{2,}# ", m["rest"])]
        code = parts[0]
        user_line = where = ""
        if len(parts) >= 3:
            user_line, where = parts[1], parts[2]
        elif len(parts) == 2:
            where = parts[1]
        where = re.sub(r"\s*\(HINT:.*\)$", "", where)
        guards.append(Guard(m["kind"], code, user_line, where))
    return guards


def _is_internal(where: str) -> bool:
    return where.startswith("_dynamo/") or where.startswith("_inductor/")


def find_failing_guard(guards: list[Guard], reason: str) -> Guard | None:
    """The guard of an entry that Dynamo's failure `reason` is about (best match, text-based)."""
    tensor = _TENSOR.search(reason)
    if tensor:
        name = tensor["name"]
        names = (name, f"L['{name}']") if not name.startswith(("L[", "G[")) else (name,)
        for g in guards:
            if g.kind == "TENSOR_MATCH" and any(f"({n}," in g.code for n in names):
                return g
    kind = re.match(r"([A-Z][A-Z_]+) (?:failure|changed)", reason.strip())
    if kind:  # e.g. "GLOBAL_STATE changed: grad_mode", "BACKEND_MATCH failure: ..."
        found = next((g for g in guards if g.kind == kind.group(1)), None)
        if found is not None:
            return found
    body = reason.strip()
    code = re.split(r"\s{2,}# ", body)[0].strip()  # without the source comment Dynamo adds
    for g in guards:  # `n == 2` is the guard `L['n'] == 2`
        if code and code in (g.code, _LOCAL().sub(r"\1", g.code)):
            return g
    for g in guards:
        if body and (body in g.code or g.code in body):
            return g
    for source in _SOURCE().findall(reason):
        for g in guards:
            if source in g.code:
                return g
    return None


def exists_parts(session: Session, comp: Compile) -> list[WhyPart]:
    cid = comp.compile_id
    if comp.is_ca_capture:
        return [capture_part(session, comp)]
    capture = capture_of(cid)
    if capture is not None and not comp.recompile_reason and comp.frame_compile_id == 0:
        return [compiled_capture_part(session, comp, capture)]
    if not comp.recompile_reason:
        if comp.frame_compile_id == 0:
            fn = comp.function or "?"
            first = f"First call of {fn}: its frame had no compiled entry yet."
            if fn.startswith("torch_dynamo_resume_in_"):
                first = f"{fn} resumes after a graph break: Dynamo compiles the rest of the function."
            return [WhyPart(EXISTS, "Why this compile exists", [first], cid, "source")]
        return [
            WhyPart(
                EXISTS,
                "Why this compile exists",
                [f"Entry {comp.frame_compile_id} of its frame; torch reported no recompile reason."],
                cid,
                "source",
            )
        ]
    parts = []
    for reason in split_recompile_reasons(comp.recompile_reason):
        entry, text = reason.entry, reason.text
        lines = [f"Recompile: the guards of entry {entry or '?'} failed.", f"Dynamo's reason: {text}"]
        data: dict[str, Any] = {"entry": entry, "reason": text}
        if reason.stack:
            lines.append("User stack Dynamo gave with it (innermost last):")
            lines += [f"  {ln}" if ln.startswith("File ") else f"    {ln}" for ln in reason.stack]
            data["user_stack"] = list(reason.stack)
        then_now = _THEN_NOW.search(text)
        if then_now:
            lines.append(f"Value then: {then_now['then'].strip()}   now: {then_now['now'].strip()}")
            data.update(then=then_now["then"].strip(), now=then_now["now"].strip())
        prev = session.compiles.get(_same_process(entry, cid)) if entry else None
        guard = None
        if prev is not None and "guards" in prev.stages:
            guard = find_failing_guard(parse_guards(prev.stages["guards"].get_text()), text)
        rerun_guard = _rerun_guard(session, cid, entry)
        if guard is not None:
            lines.append(f"Failing guard (matched by text in {entry}'s guards): {guard.text}")
            data["guard"] = guard.text
            frame = _user_frame(prev, guard) if prev is not None else None
            if frame is not None:
                where = f"{frame.file}:{frame.line} in {frame.name}"
                lines.append(f"User line (innermost frame of your code in Dynamo's stack): {frame.code}   ({where})")
                data["user_frame"] = to_json(frame)
            if guard.user_line and not _is_internal(guard.where):
                lines.append(f"Installed by: {guard.user_line}   ({guard.where})")
                data.update(user_line=guard.user_line, where=guard.where)
            elif guard.where:
                lines.append(f"Installed by Dynamo itself ({guard.where}), not by a user line.")
                data["where"] = guard.where
            else:
                lines.append("Dynamo recorded no source line for this guard.")
        elif prev is None:
            lines.append(f"Entry {entry or '?'} is not in this session: its guards cannot be shown.")
        elif text.startswith("BACKEND_MATCH"):
            lines.append(
                "Not a guard of the tree: Dynamo compares each entry's backend with the calling "
                "torch.compile's, and this call used another backend."
            )
        if rerun_guard:
            lines.append(f"Re-run check: {rerun_guard}")
            data["rerun_check"] = rerun_guard
        link = prev.compile_id if prev is not None else cid
        parts.append(WhyPart(EXISTS, "Why this compile exists", lines, link, "guards", data))
    parts += options_parts(session, comp)
    return parts


def capture_part(session: Session, comp: Compile) -> WhyPart:
    """Why compiled autograd's capture (`!N`) exists: a backward ran that its cache had no graph
    for; torch's cache-miss reasons when it logged them, the user's line that ran the backward
    (live: read from the stack as it was captured), and the compiles Dynamo made of the graph."""
    cid = comp.compile_id
    lines = [
        "Compiled autograd traced the autograd graph that a backward call ran into an FX graph "
        "(torch._dynamo.config.compiled_autograd): its cache held no graph for this backward."
    ]
    data: dict[str, Any] = {}
    reasons = [ln.strip() for ln in comp.recompile_reason.splitlines() if ln.strip()]
    if reasons:
        lines.append("Torch's reasons for the cache miss:")
        lines += [f"  {reason}" for reason in reasons]
        data["reasons"] = reasons
    else:
        lines.append("Torch logged no cache-miss reason (it does with TORCH_LOGS=compiled_autograd_verbose).")
    graph = comp.stages.get("ca_graph")
    call = graph.meta.get("backward_call") if graph is not None else None
    if isinstance(call, dict):
        where = f"{call.get('file')}:{call.get('line')} in {call.get('name')}"
        lines.append(f"Backward run by: {call.get('code') or '?'}   ({where})")
        lines.append("  (the innermost frame of your code on the stack as compiled autograd traced it)")
        data["backward_call"] = call
    compiled = [c.compile_id for c in session.ordered_compiles() if capture_of(c.compile_id) == cid]
    if compiled:
        lines.append(f"Dynamo compiled the graph as: {', '.join(compiled)}")
        data["compiled_as"] = compiled
    else:
        lines.append("No compile of the graph by Dynamo in the session so far.")
    link, stage = (compiled[0], "dynamo_graph") if compiled else (cid, "ca_graph")
    return WhyPart(EXISTS, "Why this compile exists", lines, link, stage, data)


def compiled_capture_part(session: Session, comp: Compile, capture: str) -> WhyPart:
    """Why Dynamo compiles `!N/F/0`: compiled autograd handed it the graph it captured (`capture`)."""
    cid = comp.compile_id
    lines = [
        f"Compiled autograd captured a backward as {capture} and hands its graph to Dynamo: "
        f"this is the first compile of that graph's code ({comp.shown_name or '?'})."
    ]
    if capture not in session.compiles:
        lines.append(f"{capture} is not in this session: its graph cannot be shown.")
    link, stage = (capture, "ca_graph") if capture in session.compiles else (cid, "source")
    return WhyPart(EXISTS, "Why this compile exists", lines, link, stage, {"capture": capture})


def failure_parts(comp: Compile) -> list[WhyPart]:
    """Why a compile failed, in torch's words: its compilation metrics' `fail_type` and
    `fail_reason` (for Dynamo's limits, its explanation and hints)."""
    reason = str(comp.metrics.get("fail_reason") or "").strip()
    if comp.status != "failed" or not reason:
        return []
    kind = str(comp.metrics.get("fail_type") or "").strip()
    lines = [ln.rstrip() for ln in reason.splitlines() if ln.strip()]
    lines[0] = f"{kind}: {lines[0].strip()}" if kind else lines[0].strip()
    return [WhyPart(FAILED, "Why it failed", lines, comp.compile_id, "", {"fail_type": kind, "fail_reason": reason})]


def options_parts(session: Session, comp: Compile) -> list[WhyPart]:
    """A compile a re-run made under other compile options (@backend, @mode, @fullgraph),
    compared stage by stage with the entry the same inputs would have reused."""
    for rerun in session.reruns:
        options = [p.strip() for p in rerun.spec.split(";") if p.strip().startswith(("@backend", "@mode", "@fullgraph"))]
        if comp.compile_id not in rerun.produced or not options:
            continue
        original_id = next((c.compile_id for c in rerun.checks if c.passed), "") or rerun.compile_id
        original = session.compiles.get(original_id)
        lines = [f"Re-run #{rerun.rerun_id} compiled the same function again with {', '.join(options)}."]
        data: dict[str, Any] = {"rerun": rerun.rerun_id, "options": options, "original": original_id}
        if original is not None and original is not comp:
            lines.append(f"Compared with {original_id} (the entry these inputs would have reused):")
            diff = compare_stages(original, comp)
            data["stages"] = diff
            for key, verdict in diff.items():
                lines.append(f"  {key:<36} {verdict}")
        return [WhyPart(EXISTS, "What-if: other compile options", lines, comp.compile_id, "", data)]
    return []


def compare_stages(old: Compile, new: Compile) -> dict[str, str]:
    """stage key -> "same", "differs", "only in the original", "only here", "not captured here"."""
    out: dict[str, str] = {}
    keys = [s.key for s in old.ordered_stages()] + [s.key for s in new.ordered_stages() if s.key not in old.stages]
    for key in keys:
        a, b = old.stages.get(key), new.stages.get(key)
        if b is None or (a is not None and a.captured and not b.captured):
            out[key] = "only in the original" if b is None else f"not captured here: {b.reason}"
        elif a is None or (b.captured and not a.captured):
            out[key] = "only here"
        elif not a.captured and not b.captured:
            continue
        else:
            out[key] = "same" if a.get_text() == b.get_text() else "differs"
    return out


def _user_frame(prev: Compile, guard: Guard) -> Frame | None:
    """The user's frame Dynamo recorded for `guard` (`tcdebug.capture.guard_provenance`)."""
    for entry in prev.guard_provenance:
        if entry.kind == guard.kind and entry.source and entry.source in guard.code and entry.user is not None:
            return entry.user
    return None


def _same_process(entry: str, cid: str) -> str:
    """Dynamo's entry id as this session's key: same process (`@pid`) and run (`#n`) suffix."""
    suffix = re.search(r"[@#].*$", cid)
    return entry + (suffix.group(0) if suffix and not re.search(r"[@#]", entry) else "")


def _rerun_guard(session: Session, cid: str, entry: str) -> str:
    for rerun in session.reruns:
        if cid not in rerun.produced:
            continue
        for check in rerun.checks:
            if check.compile_id.split("@")[0].split("#")[0] != entry.split("@")[0]:
                continue
            for g in check.guards:
                if g.checked and not g.passed:
                    why = g.reason.removeprefix("failed: ") if g.reason else g.text
                    return f"re-run #{rerun.rerun_id} [{rerun.spec}]: the {g.kind or 'guard'} guard failed: {why}"[:400]
    return ""


# ----- graph breaks -----------------------------------------------------------------------------
_GB_ID = lazy_re(r"/gb/(gb\d+)\.html", re.IGNORECASE)


def parse_graph_break(reason: str) -> dict[str, Any]:
    """Dynamo 2.6+'s structured break text -> gb_type, explanation, hints, context, registry id."""
    out: dict[str, Any] = {"gb_type": "", "explanation": "", "hints": [], "context": "", "registry_id": ""}
    lines = reason.splitlines()
    current = ""
    for i, raw in enumerate(lines):
        line = raw.strip()
        if line.startswith("Explanation:"):
            out["explanation"] = line[len("Explanation:") :].strip()
            current = "explanation"
            if not out["gb_type"]:
                out["gb_type"] = next((p.strip() for p in reversed(lines[:i]) if p.strip()), "")
        elif line.startswith("Hint:"):
            out["hints"].append(line[len("Hint:") :].strip())
            current = "hint"
        elif line.startswith("Developer debug context:"):
            out["context"] = line[len("Developer debug context:") :].strip()
            current = ""
        elif line.startswith("For more details about this graph break"):
            current = ""
        elif line and current == "explanation":
            out["explanation"] += "\n" + line
        elif line and current == "hint" and out["hints"]:
            out["hints"][-1] += " " + line
    m = _GB_ID().search(reason)
    if m:
        out["registry_id"] = m.group(1).upper()
    if out["gb_type"].endswith(":") or out["gb_type"].startswith("Encountered graph break"):
        out["gb_type"] = ""
    return out


def break_parts(comp: Compile) -> list[WhyPart]:
    parts = []
    for i, gb in enumerate(comp.graph_breaks):
        info = parse_graph_break(gb.reason)
        lines = []
        if info["gb_type"]:
            reg = f" [{info['registry_id']}]" if info["registry_id"] else ""
            lines.append(f"Type: {info['gb_type']}{reg}")
            if info["explanation"]:
                lines.append(f"Explanation: {info['explanation']}")
            lines += [f"Hint: {h}" for h in info["hints"]]
        else:
            lines.append(f"Reason: {gb.reason.strip()}")
            lines.append("(this torch gave no registry entry: type, explanation and hints)")
        if is_fsdp2_hook(gb):
            lines.append(FSDP2_HOOK_NOTE)
        lines += _stack_lines(gb)
        parts.append(WhyPart(BREAK, f"Graph break {i + 1}", lines, comp.compile_id, "dynamo_graph", info))
    return parts


def _stack_lines(gb: GraphBreak) -> list[str]:
    if not gb.user_stack:
        return []
    out = ["User stack (innermost last):"]
    for frame in gb.user_stack:
        out += ["  " + ln.strip() for ln in frame.splitlines() if ln.strip() and set(ln.strip()) != {"^"}]
    return out


# ----- hints ---------------------------------------------------------------------------------
def hint_parts(session: Session, comp: Compile, hints: dict[str, list[Hint]] | None = None) -> list[WhyPart]:
    """The common causes this compile shows (`tcdebug.analysis.hints`), each with what to do;
    `hints` as `compile_hints` takes them."""
    return [
        WhyPart(HINT, f"Hint: {h.kind.title}", [h.detail, h.kind.advice] if h.detail else [h.kind.advice], comp.compile_id)
        for h in compile_hints(session, comp, hints)
    ]


# ----- specialization chains --------------------------------------------------------------------
def _where(frame: Frame | None) -> str:
    if frame is None or not frame.file:
        return ""
    name = frame.file.replace("\\", "/").rsplit("/", 1)[-1]
    code = f"  {frame.code.strip()}" if frame.code.strip() else ""
    return f"  at {name}:{frame.line}{code}"


def chain_lines(steps: list[ChainStep]) -> list[str]:
    """A symbol's chain, one line per step with the user's line, then its final state."""
    lines = [f"{i}. {step.step}: {step.text}{_where(step.user)}" for i, step in enumerate(steps, 1)]
    fixed = next((s for s in reversed(steps) if s.step in ("specialized", "replaced")), None)
    narrowed = next((s for s in reversed(steps) if s.step == "range"), None)
    if fixed is not None:
        final = f"{'static' if fixed.step == 'specialized' else 'replaced'}: {fixed.text.split(' (')[0]}"
    elif narrowed is not None:
        final = f"dynamic, {narrowed.text.removeprefix('range narrowed: ').split(' -> ')[-1]}"
    else:
        final = "dynamic"
    return [*lines, f"Final: {final}"]


def chain_source(steps: list[ChainStep]) -> str:
    created = next((s for s in steps if s.step == "created"), None)
    if created is None:
        return ""
    return created.text.split(" = ")[0]


def chain_parts(comp: Compile) -> list[WhyPart]:
    """One part per symbol something narrowed or specialized (a symbol only created is left out)."""
    parts = []
    for symbol, steps in comp.symbol_chains.items():
        if all(step.step == "created" for step in steps):
            continue
        source = chain_source(steps)
        title = f"Specialization of {symbol}" + (f" ({source})" if source else "")
        parts.append(WhyPart(CHAIN, title, chain_lines(steps), comp.compile_id, "guards", {"symbol": symbol}))
    return parts


# ----- fusion ---------------------------------------------------------------------------------
_CANNOT = lazy_re(r"cannot fuse (\S+) with (\S+): (.*)")
_CANDIDATE = lazy_re(r"^\s+(\w+)\(name='(\w+)'\)(?:, (\w+)\()?")
_ORIGINS = lazy_re(r"origins=OrderedSet\(\[([^\]]*)\]\)")
# A scheduler node (`op3`, fused `op3_op4`) and a buffer (`buf2`); a subgraph's (a `torch.cond`
# branch Inductor lowers with its own scheduler) carry its name first: `true_graph_0_op0`.
_NODE_NAME = rf"{SUBGRAPH_PREFIX}op\d\w*"
_IR_NODE = lazy_re(rf"^({_NODE_NAME}): (\w+)\(")
_WRITES = lazy_re(rf"^({_NODE_NAME})\.writes = (.*)$")
_BUF = lazy_re(rf"\b{SUBGRAPH_PREFIX}buf\d+\b")
_SNODE = lazy_re(rf"^({_NODE_NAME})\.snodes\[\d+\] =")
_SUBGRAPH_OF = lazy_re(r"^(\w*?)_?(?:op|buf)\d+")  # `true_graph_0_op0` -> `true_graph_0`; `op3` -> ""
_CALL = lazy_re(r"^\s+(\w+)(?:\.run)?\((.*)\)\s*$")


def refused_pairs(fusion_log: str) -> dict[str, list[tuple[str, str]]]:
    """reason -> node pairs Inductor considered and did not fuse (each pair once)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    seen = set()
    for line in fusion_log.splitlines():
        m = _CANNOT().search(line)
        if not m:
            continue
        pair = (m.group(1), m.group(2))
        reason = m.group(3).strip()
        if (pair, reason) in seen:
            continue
        seen.add((pair, reason))
        groups.setdefault(reason, []).append(pair)
    return groups


_FUSION_ROUND = lazy_re(r"(?:completed fusion round \((\d+)/\d+\): )?fused (\d+) nodes into (\d+) nodes")


@functools.lru_cache(maxsize=8)
def scheduler_runs(fusion_log: str) -> tuple[tuple[int, int], ...]:
    """(nodes before, nodes after) of each scheduler run in a fusion log: a run is its fusion
    rounds (1/10, 2/10, ...); the log of a graph with subgraphs holds one run per scheduler.

    Read line by line, only lines that say `fused `: the pattern's optional start makes a search
    over the whole log try it at every character (slow on a fusion log of megabytes), and a dump re-explains a compile each time its index is rewritten."""
    runs: list[tuple[int, int]] = []
    for line in fusion_log.splitlines():
        if "fused " not in line:
            continue
        for m in _FUSION_ROUND().finditer(line):
            round_no, before, after = m.group(1), int(m.group(2)), int(m.group(3))
            if round_no == "1" or not runs:
                runs.append((before, after))
            else:
                runs[-1] = (runs[-1][0], after)
    return tuple(runs)


@functools.lru_cache(maxsize=8)
def scheduler_graphs(ir_text: str) -> tuple[str, ...]:
    """The graph each scheduler's IR block lowers, in order: "" for the compiled graph, else the
    subgraph's name its nodes start with (`true_graph_0_op0` -> `true_graph_0`)."""
    graphs: list[str] = []
    expect = False
    for line in ir_text.splitlines():
        if line in ("BEFORE FUSION", "AFTER FUSION"):
            expect = True
            continue
        m = _IR_NODE().match(line) if expect else None
        sub = _SUBGRAPH_OF().match(m.group(1)) if m else None
        if sub:
            graphs.append(sub.group(1))
            expect = False
    return tuple(graphs)


def node_descriptions(fusion_log: str) -> dict[str, str]:
    """IR node -> "Pointwise of relu" from the fusion log's candidate lists."""
    out = {}
    for line in fusion_log.splitlines():
        m = _CANDIDATE().match(line)
        if not m:
            continue
        kind = m.group(3) or m.group(1)
        origins = _ORIGINS().search(line)
        out[m.group(2)] = f"{kind}" + (f" of {origins.group(1)}" if origins else "")
    return out


def kernel_nodes(ir_text: str, output_code: str, kernel_names: list[str]) -> dict[str, list[str]]:
    """kernel -> the post-fusion IR nodes it computes, matched by the buffers its call passes:
    a node belongs to the first kernel call that passes a buffer the node writes."""
    nodes: dict[str, str] = {}
    writes: dict[str, set[str]] = {}
    parent_of: dict[str, str] = {}  # a fused node's members -> the fused node
    pending = ""
    for line in ir_text.splitlines():
        sub = _SNODE().match(line)
        if sub:
            pending = sub.group(1)
            continue
        m = _IR_NODE().match(line)
        if m:
            nodes[m.group(1)] = m.group(2)
            if pending:
                parent_of[m.group(1)] = pending
                pending = ""
            continue
        w = _WRITES().match(line)
        if w:
            writes.setdefault(w.group(1), set()).update(_BUF().findall(w.group(2)))
    names = set(kernel_names)
    out: dict[str, list[str]] = {k: [] for k in kernel_names}
    placed: set[str] = set()
    for line in output_code.splitlines():
        m = _CALL().match(line)
        if not m or m.group(1) not in names:
            continue
        args = set(_BUF().findall(m.group(2)))
        for node, bufs in writes.items():
            if node in placed or nodes.get(node, "").startswith("ExternKernel"):
                continue
            if bufs & args:
                shown = parent_of.get(node, node)
                if shown not in out[m.group(1)]:
                    out[m.group(1)].append(shown)
                placed.update({node, shown, *(n for n, p in parent_of.items() if p == shown)})
    return out


@functools.lru_cache(maxsize=8)  # a few graphs' texts: a compile's parts, not a whole session's
def _fusion_facts(
    fusion_log: str, ir_text: str, output_code: str, kernel_names: tuple[str, ...]
) -> tuple[dict[str, list[tuple[str, str]]], dict[str, str], dict[str, list[str]]]:
    """`refused_pairs`, `node_descriptions` and `kernel_nodes` of one graph, kept: a live dump
    explains a compile again whenever it changes, and these scans are most of the cost. Callers
    copy what they keep."""
    mapping = kernel_nodes(ir_text, output_code, list(kernel_names)) if kernel_names else {}
    return refused_pairs(fusion_log), node_descriptions(fusion_log), mapping


def fusion_parts(comp: Compile) -> list[WhyPart]:
    parts = []
    for stage in comp.ordered_stages():
        if stage.stage_id != "inductor_ir_post_fusion" or not stage.captured:
            continue
        ir, log = ir_and_fusion_log(stage)
        lines: list[str] = []
        kstage = comp.stages.get(stage.key.replace("inductor_ir_post_fusion", "kernel_source"))
        if kstage is not None and not (kstage.captured and kstage.kernels):
            kstage = None
        ir, code, kernel_names = (
            (ir, kstage.get_text(), tuple(k.name for k in kstage.kernels)) if kstage else ("", "", ())
        )
        groups, desc, mapping = _fusion_facts(log, ir, code, kernel_names)
        tag = stage_catalog.part_suffix(stage.part)
        if not log:
            lines.append("torch logged no fusion decisions for this graph.")
        elif groups:
            n = sum(len(p) for p in groups.values())
            lines.append(f"Pairs Inductor considered and did not fuse: {n}")
            for reason, pairs in groups.items():
                lines.append(f"  {reason}: {len(pairs)}")
                for a, b in pairs:
                    lines.append(f"    {a} ({desc.get(a, '?')}) + {b} ({desc.get(b, '?')})")
        else:
            lines.append("Inductor refused no pair it considered.")
        runs = scheduler_runs(log)
        graphs = scheduler_graphs(ir)
        if len(runs) == 1:
            lines.append(f"Scheduler: {runs[0][0]} nodes became {runs[0][1]}.")
        elif runs and len(graphs) == len(runs):
            counts = ", ".join(
                f"{g or 'the graph'} {a} → {b}" for g, (a, b) in zip(graphs, runs, strict=True)
            )
            lines.append(
                f"Schedulers, one per graph Inductor lowered (it fuses within a graph only): {counts} nodes."
            )
        elif runs:
            counts = ", ".join(f"{a} → {b}" for a, b in runs)
            lines.append(f"Schedulers (the graph's, then each subgraph's Inductor lowered): {counts} nodes.")
        data: dict[str, Any] = {"refused": {r: [list(p) for p in ps] for r, ps in groups.items()}}
        if kstage is not None:
            lines.append("IR nodes in each kernel (matched by the buffers each kernel call passes):")
            for kname, ir_nodes in mapping.items():
                names = ", ".join(ir_nodes) or "?"
                note = ""
                kernel = next(k for k in kstage.kernels if k.name == kname)
                if kernel.language == "cpp" and len(ir_nodes) > 1 and not any("_" in n for n in ir_nodes):
                    note = (
                        "  <- one C++ kernel for several scheduler nodes: the CPU backend fused them at "
                        "codegen (loop fusion in CppScheduling), after the scheduler's decisions above"
                    )
                lines.append(f"  {kname}: {names}{note}")
            data["kernels"] = {kname: list(ir_nodes) for kname, ir_nodes in mapping.items()}
        parts.append(WhyPart(FUSION, f"Fusion{tag}", lines, comp.compile_id, stage.key, data))
    return parts


# ----- CUDA graphs -------------------------------------------------------------------------------
def cudagraph_parts(comp: Compile) -> list[WhyPart]:
    parts = []
    for stage in comp.ordered_stages():
        if stage.stage_id != "cudagraph" or not stage.captured:
            continue
        meta = stage.meta
        lines: list[str] = []
        if meta.get("skipped"):
            for reason in meta.get("skip_reasons") or ["(no reason given)"]:
                lines.append(f"Skipped: {reason.strip()}")
        records = meta.get("records") or []
        lines.append(f"Recordings: {meta.get('recordings', len(records))}")
        prev: dict[str, str] = {}
        origins = symbol_origins(comp)
        symbols = placeholder_symbols(comp, stage.part)
        for i, rec in enumerate(records):
            inputs = {
                _input_label(x, origins, symbols): str(x.get("desc", "")) for x in rec.get("inputs", [])
            }
            changed = [f"{n}: {prev[n]} -> {d}" for n, d in inputs.items() if n in prev and prev[n] != d]
            head = f"  recording {i + 1}"
            if rec.get("rerecord_reason"):
                lines.append(f"{head}: re-recorded because {rec['rerecord_reason'].splitlines()[0]}")
            elif i == 0:
                dynamic = [f"{n} {d}" for n, d in inputs.items() if d and not _static(rec, n)]
                lines.append(f"{head}: first recording" + (f"; inputs {', '.join(dynamic)}" if dynamic else ""))
            elif changed:
                lines.append(f"{head}: a new size: " + "; ".join(changed))
            else:
                lines.append(f"{head}: a new recording (no input size changed)")
            prev = inputs or prev
        tag = stage_catalog.part_suffix(stage.part)
        parts.append(WhyPart(CUDAGRAPH, f"CUDA graphs{tag}", lines, comp.compile_id, stage.key))
    return parts


def _static(record: dict[str, Any], label: str) -> bool:
    return any(label.startswith(str(x.get("name", x.get("index")))) and x.get("static") for x in record.get("inputs", []))


_SIG = lazy_re(r"def forward\(self, (.*?)\):", re.DOTALL)
_PARAM_ANN = lazy_re(r'(\w+): "(?:\w+)\[([^\]]*)\]')


def symbol_origins(comp: Compile) -> dict[str, str]:
    """ShapeEnv symbol -> where it comes from, e.g. s77 -> "L['x'].size()[0]", read from the
    first input of the Dynamo graph whose annotation uses it (inferred from the graph's text)."""
    stage = comp.stages.get("dynamo_graph")
    if stage is None or not stage.captured:
        return {}
    m = _SIG().search(stage.get_text())
    if not m:
        return {}
    out: dict[str, str] = {}
    for name, dims in _PARAM_ANN().findall(m.group(1)):
        for d, dim in enumerate(x.strip() for x in dims.split(",")):
            if re.fullmatch(r"[su]\d+", dim) and dim not in out:
                source = re.sub(r"^L_(.*)_$", r"\1", name)
                out[dim] = f"{source}.size()[{d}]"
    return out


_SYM_INPUT = lazy_re(r'(\w+): "Sym\(([su]\d+)\)"')


def placeholder_symbols(comp: Compile, part: str) -> dict[str, str]:
    """Inductor graph input -> its ShapeEnv symbol (`arg0_1: "Sym(s77)"` in the post-grad graph)."""
    stage = comp.stages.get("inductor_post_grad_graph" + (f".{part}" if part else ""))
    if stage is None or not stage.captured:
        return {}
    m = _SIG().search(stage.get_text())
    return dict(_SYM_INPUT().findall(m.group(1))) if m else {}


def _input_label(inp: dict[str, Any], origins: dict[str, str], symbols: dict[str, str] | None = None) -> str:
    name = str(inp.get("name", inp.get("index")))
    symbol = str(inp.get("symbol") or (symbols or {}).get(name, ""))
    if symbol:
        return f"{name} ({symbol} = {origins[symbol]})" if symbol in origins else f"{name} ({symbol})"
    return name


# ----- kernel choice ---------------------------------------------------------------------------
_TUNABLES = ("BLOCK_M", "BLOCK_N", "BLOCK_K", "num_warps", "num_stages")


def choice_table_lines(table: AutotuneTable) -> list[str]:
    """One autotune table (`tcdebug.capture.autotune`): every choice, time, share, tile sizes."""
    lines = [f"{table.name or '?'}({table.sizes}): {len(table.choices)} choices"]
    best = table.winner
    for ch in table.choices:
        tiles = " ".join(f"{k}={ch.params[k]}" for k in _TUNABLES if k in ch.params)
        mark = "*" if ch.name == best else " "
        t = f"{ch.time_ms:.4f} ms" if ch.time_ms is not None else "   failed"
        s = f"{ch.share * 100:5.1f}%" if ch.share is not None else "    -"
        lines.append(f" {mark}{ch.name or '?':<28} {t:>12} {s}  {tiles}")
    if best:
        lines.append(f"  winner: {best}")
    return lines


def tables_for_kernel(comp: Compile, stage: Stage, kernel_name: str) -> list[AutotuneTable]:
    """The autotune table(s) behind a template kernel: the stage's tables whose winner is a
    template (it has tile sizes), matched in order with its template kernels (inferred)."""
    tables = [t for t in comp.autotune_tables if t.stage == stage.key]
    won = [t for t in tables if any(c.name == t.winner and c.params for c in t.choices)]
    templates = [k.name for k in stage.kernels if k.kind == "template"]
    if kernel_name not in templates:
        return []
    if len(won) == len(templates):
        return [won[templates.index(kernel_name)]]
    return won


def choice_parts(comp: Compile) -> list[WhyPart]:
    parts = []
    tables = comp.autotune_tables
    for stage in comp.ordered_stages():
        if stage.stage_id != "kernel_source":
            continue
        for kernel in stage.kernels:
            if kernel.configs and kernel.chosen_config is not None:
                lines = [f"{kernel.name}: {len(kernel.configs)} configs tried; chosen: {kernel.chosen_config}"]
                parts.append(WhyPart(CHOICE, f"Kernel choice: {kernel.name}", lines, comp.compile_id, stage.key))
    for table in tables:
        lines = choice_table_lines(table)
        parts.append(
            WhyPart(CHOICE, f"Autotune: {table.name or '?'}", lines, comp.compile_id, table.stage)
        )
    return parts


# ----- compile time ----------------------------------------------------------------------------
def times_of(comp: Compile) -> Mapping[str, Any]:
    """The compile's phase times: measured from torch's timers, else inferred from its metrics."""
    return comp.times or compile_times.phases_from_metrics(comp.metrics)


def wall_of(comp: Compile) -> float:
    """`times_of(comp)`'s wall time (0.0 for none), without inferring its phases."""
    if comp.times:
        return float(comp.times.get("wall_s") or 0.0)
    return compile_times.wall_from_metrics(comp.metrics)


def first_call_note(comp: Compile, times: Mapping[str, Any] | None = None) -> str:
    """How much of a compile's measured time passed before its first call returned, when torch
    timed more under its id afterwards: a training compile's backward, compiled at `.backward()`.
    The compile list shows the first number (the frame's compile), the compile times the second.
    `times`: its `times_of`, where the caller has it."""
    wall = float((times if times is not None else times_of(comp)).get("wall_s") or 0.0)
    if comp.elapsed_s <= 0 or wall < comp.elapsed_s + 0.05:
        return ""
    later = "its backward, compiled at .backward()" if _has_backward(comp) else "compiled after it"
    return f"{comp.elapsed_s:.2f}s before its first call returned, the rest {later}"


def _has_backward(comp: Compile) -> bool:
    return any(stage_catalog.part_base(st.part) == "backward" for st in comp.stages.values() if st.captured)


def time_parts(comp: Compile) -> list[WhyPart]:
    times = times_of(comp)
    if not times:
        return [WhyPart(TIME, "Compile time", ["torch reported no phase times for this compile."], comp.compile_id)]
    lines = [f"Wall time {times['wall_s']:.3f}s ({times.get('source', '')}):"]
    paused = compile_times.paused_note(times)
    if paused:
        lines.append(f"({paused} at tcdebug's pause points, not counted in any phase)")
    note = first_call_note(comp, times)
    if note:
        lines.append(f"({note})")
    lines += compile_times.bar_lines(times, width=24)
    return [WhyPart(TIME, "Compile time", lines, comp.compile_id, "", dict(times))]


def cache_lines(comp: Compile) -> list[str]:
    """Each compile cache's answer for the compile, and for a miss what differs from the nearest
    entry (`tcdebug.torchtext.cache_keys`)."""
    lines: list[str] = []
    for verdict in comp.caches:
        line = verdict.headline()
        if verdict.reason:
            line += f": {verdict.reason}"
        if verdict.time_saved_s:
            line += f" · saved {verdict.time_saved_s:.2f}s of compiling"
        lines.append(line)
        lines += [f"    {text}" for text in verdict.explanation]
    return lines


def cache_parts(comp: Compile) -> list[WhyPart]:
    if not comp.caches:
        return []
    return [WhyPart(CACHE, "Compile caches", cache_lines(comp), comp.compile_id)]


# ----- the whole answer -------------------------------------------------------------------------
def explain(session: Session, compile_id: str, hints: dict[str, list[Hint]] | None = None) -> list[WhyPart]:
    """The compile's why; `hints` (`hints_by_compile` of the session's hints), when given, are
    used as they are instead of worked out for this compile."""
    comp = session.compiles.get(compile_id)
    if comp is None:
        return []
    return [
        *exists_parts(session, comp),
        *cache_parts(comp),
        *failure_parts(comp),
        *break_parts(comp),
        *hint_parts(session, comp, hints),
        *chain_parts(comp),
        *time_parts(comp),
        *fusion_parts(comp),
        *cudagraph_parts(comp),
        *choice_parts(comp),
    ]


def why_dict(session: Session, compile_id: str, parts: list[WhyPart] | None = None) -> list[dict[str, Any]]:
    """session.json's `why`: `parts` (explained already) or the compile's explanation. Like
    `asdict` of each part, but sharing its lists and dicts (asdict copies them, deeply: most of
    a live dump's index cost): encode it, do not keep it."""
    return [
        {"kind": p.kind, "title": p.title, "lines": p.lines, "compile_id": p.compile_id, "stage": p.stage, "data": p.data}
        for p in (explain(session, compile_id) if parts is None else parts)
    ]


def why_markdown(session: Session, compile_id: str, parts: list[WhyPart] | None = None) -> str:
    """why.md: `parts` (explained already) or the compile's explanation, as Markdown."""
    comp = session.compiles.get(compile_id)
    if comp is None:
        return ""
    out = [f"# Why {comp.label}", ""]
    for part in explain(session, compile_id) if parts is None else parts:
        link = f" (stage `{part.stage}` of {part.compile_id})" if part.stage else ""
        out += [f"## {part.title}{link}", "", "```", *part.lines, "```", ""]
    return "\n".join(out)


def stage_for(comp: Compile, key: str) -> Stage | None:
    return comp.stages.get(key)


def recompile_cause_rows(session: Session) -> list[tuple[str, str]]:
    """(cause, compile id) for the script's own recompiles, each cause once per recompile. A
    compile a re-run produced is left out: its reasons are the re-run's guard checks (every older
    entry failing again, e.g. the first compile's grad mode), not something the script did."""
    by_rerun = {cid for rerun in session.reruns for cid in rerun.produced}
    out: list[tuple[str, str]] = []
    for c in session.recompiles():
        if c.compile_id in by_rerun:
            continue
        seen: set[str] = set()
        for reason in split_recompile_reasons(c.recompile_reason):
            text = readable_cause(reason.text)
            cause = re.sub(r"expected .*", "", text).strip(" .") if "expected" in text else text
            if cause and cause not in seen:
                seen.add(cause)
                out.append((cause, c.compile_id))
    return out


def recompile_causes(session: Session) -> list[str]:
    """The causes of the script's own recompiles, each cause once per recompile."""
    return [cause for cause, _ in recompile_cause_rows(session)]


@dataclass
class OverviewRow:
    """One row of the overview: its text, and the compiles (or one graph break) it is about."""

    text: str
    compile_ids: list[str] = field(default_factory=list)  # the first is where `enter` goes
    count: int = 1
    seconds: float = 0.0
    item: str = ""  # a timeline item of the first compile (`break:N`, `recompile`), or ""


@dataclass
class OverviewSection:
    """A heading of the overview (`most expensive compiles`, ...) and its rows, biggest first."""

    kind: str  # "expensive", "recompile_causes", "break_types"
    title: str
    rows: list[OverviewRow] = field(default_factory=list)


def _break_type(gb: GraphBreak) -> str:
    info = parse_graph_break(gb.reason)
    t = info["gb_type"] or gb.reason.strip().splitlines()[0][:80] if gb.reason.strip() else "?"
    return t + (" (at an FSDP2 hook)" if is_fsdp2_hook(gb) else "")


def _counted(pairs: list[tuple[str, str, str]], limit: int | None) -> list[OverviewRow]:
    """Rows of (text, compile id, item) counted by text, most frequent first (first seen on ties)."""
    rows: dict[str, OverviewRow] = {}
    named: dict[str, set[str]] = {}  # each row's compile ids: searching its list per pair is quadratic
    for text, cid, item in pairs:
        row = rows.get(text)
        if row is None:
            rows[text] = OverviewRow(text, [cid], 1, item=item)
            continue
        row.count += 1
        seen = named.get(text)
        if seen is None:
            seen = named[text] = set(row.compile_ids)
        if cid not in seen:
            seen.add(cid)
            row.compile_ids.append(cid)
    ordered = sorted(rows.values(), key=lambda r: -r.count)
    return ordered if limit is None else ordered[:limit]


def overview(session: Session, n: int | None = 3) -> list[OverviewSection]:
    """The most expensive compiles, the recompile causes and the graph-break types, counted, each
    row naming its compiles: the end of the `--dump` summary (`n` rows each) and the app's `O`
    screen (`n=None`: every row)."""
    sections: list[OverviewSection] = []
    comps = session.ordered_compiles()
    timed = sorted(
        ((wall_of(c) or c.elapsed_s or 0.0, c) for c in comps), key=lambda t: -t[0]
    )
    if timed:
        rows = []
        for secs, c in timed if n is None else timed[:n]:
            times = times_of(c)
            phases = times.get("phases") or {}
            top = f"  mostly {max(phases.items(), key=lambda kv: kv[1])[0]}" if phases else ""
            note = first_call_note(c, times)
            text = f"{c.compile_id:<6} {c.shown_name:<24} {secs:7.2f}s{top}" + (f" ({note})" if note else "")
            rows.append(OverviewRow(text, [c.compile_id], 1, secs))
        sections.append(OverviewSection("expensive", "most expensive compiles", rows))
    causes = [(cause, cid, "recompile") for cause, cid in recompile_cause_rows(session)]
    if causes:
        sections.append(OverviewSection("recompile_causes", "recompile causes", _counted(causes, n)))
    breaks = [
        (_break_type(gb), c.compile_id, f"break:{i}")
        for c in comps
        for i, gb in enumerate(c.graph_breaks)
    ]
    if breaks:
        sections.append(OverviewSection("break_types", "graph break types", _counted(breaks, n)))
    return sections


def top_reasons(session: Session, n: int = 3) -> list[str]:
    """The end of the `--dump` summary: most expensive compiles, recompile causes, break types."""
    lines: list[str] = []
    for section in overview(session, n):
        if not lines:
            lines.append("top reasons:")
        lines.append(f"  {section.title}:")
        for row in section.rows:
            if section.kind == "expensive":
                lines.append(f"    {row.text}")
            else:
                lines.append(f"    {row.count}x {row.text}")
    return [safe_line(line) for line in lines]  # reasons and names come from logs: printable only
