"""torch.export and AOTInductor texts (pure text work, no torch): kernels, range constraints, ids.

Export and AOTInductor compiles have no Dynamo frame (tlparse shows them as `[-/-]`); tcdebug
keys them `-/-`, then `-/-#2`, `-/-#3`, ... in the order they start.
"""

from __future__ import annotations

import re

from tcdebug.model.session import Kernel

FRAMELESS_ID = "-/-"
_EXTERN_RE = re.compile(r'^extern "C"\s+\S+\s+(?P<name>[A-Za-z_]\w*)\s*\(', re.MULTILINE)
_RANGE_RE = re.compile(r"^Range constraints: (?P<body>.*)$", re.MULTILINE)


def frameless_id(n: int) -> str:
    """The key of the n-th (1-based) compile without a Dynamo frame: `-/-`, `-/-#2`, ..."""
    return FRAMELESS_ID if n <= 1 else f"{FRAMELESS_ID}#{n}"


def split_cpp_kernels(code: str) -> list[Kernel]:
    """The `extern "C"` kernels of AOTInductor's kernel file (`*.kernel.cpp`), in order."""
    starts = list(_EXTERN_RE.finditer(code))
    kernels = []
    for i, match in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(code)
        source = code[match.start() : end].rstrip() + "\n"
        kernels.append(Kernel(name=match.group("name"), language="cpp", source=source, kind="cpp"))
    return kernels


def export_constraints(program_text: str) -> str:
    """The guards of an exported program: its range constraints and input signature, as text."""
    out = ["# torch.export: what the exported program assumes of its inputs", ""]
    found = _RANGE_RE.search(program_text)
    out.append("Range constraints (symbol: value range):")
    body = found.group("body").strip() if found else ""
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1]
    items = [item.strip() for item in re.split(r",\s*(?=\w+:)", body) if item.strip()]
    out += [f"  {item}" for item in items] or ["  (none: every input shape is static)"]
    signature = _section(program_text, "Graph signature:")
    if signature:
        out += ["", "Graph signature:", *signature]
    return "\n".join(out) + "\n"


def _section(text: str, header: str) -> list[str]:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == header:
            body = []
            for nxt in lines[i + 1 :]:
                if nxt and not nxt.startswith((" ", "\t")):
                    break
                body.append(nxt.rstrip())
            return [b for b in body if b.strip()]
    return []
