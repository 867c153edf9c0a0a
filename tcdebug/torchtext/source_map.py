"""The `source` stage as a map: a gutter label per line of the stage text (torch-free).

Each source line shows its real line number in the file and a mark:
`●3` the line produced 3 Dynamo graph nodes (from the provenance index; of the attempt that kept
the graph, where Dynamo restarted its analysis), `✗` a graph break
here, `▶` a resume function resumes here, `·` no graph node because the frame's graph ended at
an earlier graph break (or, in a resume function, the line runs before the resume point).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tcdebug.model.session import Compile
from tcdebug.torchtext.dynamo_text import earlier_attempt_reason

_RESUME = re.compile(r"^torch_dynamo_resume_in_.+_at_(\d+)$")
_FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')

NODES, BREAK, RESUME, NONE, PLAIN = "nodes", "break", "resume", "none", "plain"


def resume_line(function: str) -> int | None:
    """The line a Dynamo resume function (`torch_dynamo_resume_in_f_at_12`) resumes at."""
    m = _RESUME.match(function or "")
    return int(m.group(1)) if m else None


def break_lines(comp: Compile, filename: str) -> list[int]:
    """Lines of `filename` where this compile's graph breaks happened (the innermost user frame)."""
    out: list[int] = []
    for gb in comp.graph_breaks:
        frames = [m for entry in gb.user_stack for m in _FRAME.finditer(entry)]
        inside = [int(m.group("line")) for m in frames if m.group("file") == filename]
        if inside:
            out.append(inside[-1])
    return out


def source_gutter(comp: Compile, compiles: Iterable[Compile] = ()) -> dict[int, tuple[str, str]]:
    """1-based line of the `source` stage text -> (gutter label, kind); empty when unknown. Of
    `compiles` (the session's), the attempts that restarted from `comp` (their `source` names it:
    `earlier_attempt_reason`) count the nodes of the graph Dynamo kept for this source."""
    stage = comp.stages.get("source")
    if stage is None or not stage.captured:
        return {}
    offset = stage.meta.get("line_offset")
    filename = str(stage.meta.get("filename") or comp.filename)
    if not isinstance(offset, int):
        return {}
    text_lines = stage.get_text().splitlines()
    reads_here = earlier_attempt_reason(comp.compile_id)
    graphs = [comp, *(c for c in compiles if getattr(c.stages.get("source"), "reason", "") == reads_here)]
    graphs = [g for g in graphs if g.provenance.items]
    breaks = break_lines(comp, filename)
    first_break = min(breaks) if breaks else None
    resume = resume_line(comp.function)
    width = len(str(len(text_lines) + offset))
    out: dict[int, tuple[str, str]] = {}
    for k in range(2, len(text_lines) + 1):
        line = k + offset
        nodes = sum(_node_count(g, filename, line) for g in graphs)
        if line in breaks:
            mark, kind = "✗", BREAK
        elif resume is not None and line == resume:
            mark, kind = "▶", RESUME
        elif nodes:
            mark, kind = (f"●{nodes}" if nodes < 100 else "●++"), NODES
        elif not text_lines[k - 1].strip() or text_lines[k - 1].lstrip().startswith("#"):
            mark, kind = "", PLAIN
        elif (first_break is not None and line > first_break) or (resume is not None and line < resume):
            mark, kind = "·", NONE
        else:
            mark, kind = "", PLAIN
        out[k] = (f"{line:>{width}} {mark:<3}", kind)
    return out


def _node_count(comp: Compile, filename: str, line: int) -> int:
    index = comp.provenance
    sid = f"source|{filename}:{line}"
    found: set[str] = set()
    for nxt in index.linked(sid, downstream=True):
        below = index.linked(nxt.item_id, downstream=True) if nxt.stage == "bytecode_before" else [nxt]
        found.update(n.item_id for n in below if n.stage == "dynamo_graph")
    return len(found)
