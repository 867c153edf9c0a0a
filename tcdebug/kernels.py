"""Split Inductor's output code into its kernels (pure text work, no torch).

CPU:  `cpp_fused_relu_0 = async_compile.cpp_pybinding([...], r'''<C++>''')`
GPU:  `triton_poi_fused_relu_0 = async_compile.triton('triton_poi_fused_relu_0', '''<Triton>''', ...)`
"""

from __future__ import annotations

import re

from tcdebug.session import Kernel

_DEF_RE = re.compile(
    r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*) = async_compile\.(?P<how>\w+)\((?P<head>[^\n]*?)(?P<quote>r?''')",
    re.MULTILINE,
)
_TRITON_KINDS = {
    "triton_poi": "pointwise",
    "triton_red": "reduction",
    "triton_per": "persistent_reduction",
    "triton_tem": "template",
    "triton_for": "foreach",
    "triton_spl": "split_scan",
    "triton_": "triton",
}
_HEURISTIC_RE = re.compile(r"@triton_heuristics\.(\w+)\(")
_SOURCE_NODES_RE = re.compile(
    r"#\s*Topologically Sorted Source Nodes: \[(?P<nodes>[^\]]*)\](?:, Original ATen: \[(?P<aten>[^\]]*)\])?"
)
_MAPPING_RE = re.compile(r"^#\s+(?P<node>[\w.]+) => (?P<aten>.+)$")


def kernel_kind(name: str, how: str, source: str) -> str:
    if how.startswith("cpp"):
        return "cpp"
    match = _HEURISTIC_RE.search(source)
    if match:
        return {
            "pointwise": "pointwise",
            "reduction": "reduction",
            "persistent_reduction": "persistent_reduction",
            "template": "template",
            "foreach": "foreach",
            "split_scan": "split_scan",
            "cooperative_reduction": "reduction",
        }.get(match.group(1), match.group(1))
    for prefix, kind in _TRITON_KINDS.items():
        if name.startswith(prefix):
            return kind
    return how


def _comment_block_before(code: str, start: int) -> list[str]:
    """The run of `#` comment lines right above the definition at `start`."""
    lines = code[:start].rstrip("\n").split("\n")
    block: list[str] = []
    for line in reversed(lines):
        if line.startswith("#"):
            block.append(line)
        elif line.strip() == "" and not block:
            continue
        else:
            break
    return list(reversed(block))


def split_output_code(code: str) -> list[Kernel]:
    """Every kernel defined in `code`, in definition order, with its provenance comments."""
    kernels: list[Kernel] = []
    for match in _DEF_RE.finditer(code):
        body_start = match.end()
        body_end = code.find("'''", body_start)
        if body_end < 0:
            break
        source = code[body_start:body_end].strip("\n") + "\n"
        name, how = match.group("name"), match.group("how")
        language = "cpp" if how.startswith("cpp") else "python"
        comments = _comment_block_before(code, match.start())
        provenance = _provenance(comments)
        meta: dict[str, str] = {}
        for line in comments:
            if line.startswith("# kernel path:"):
                meta["kernel_path"] = line.split(":", 1)[1].strip()
        kernels.append(
            Kernel(
                name=name,
                language=language,
                source=source,
                kind=kernel_kind(name, how, source),
                provenance=provenance,
                meta=meta,
            )
        )
    _add_call_site_provenance(code, kernels)
    return kernels


def _provenance(comments: list[str]) -> list[str]:
    nodes: list[str] = []
    for line in comments:
        m = _SOURCE_NODES_RE.search(line)
        if m:
            nodes.extend(n.strip() for n in m.group("nodes").split(",") if n.strip())
            continue
        m = _MAPPING_RE.match(line)
        if m:
            entry = f"{m.group('node')} => {m.group('aten').strip()}"
            if entry not in nodes:
                nodes.append(entry)
    return nodes


def _add_call_site_provenance(code: str, kernels: list[Kernel]) -> None:
    """On CPU the source-node comments sit at the call site in `call()`, not at the definition."""
    by_name = {k.name: k for k in kernels if not k.provenance}
    if not by_name:
        return
    last_comment = ""
    for line in code.split("\n"):
        stripped = line.strip()
        if stripped.startswith("# Topologically Sorted Source Nodes"):
            last_comment = stripped
            continue
        call = re.match(r"([A-Za-z_]\w*)(?:\.run)?\(", stripped)
        if call and call.group(1) in by_name and last_comment:
            kernel = by_name.pop(call.group(1))
            kernel.provenance = _provenance([last_comment])
        if stripped and not stripped.startswith("#"):
            if not (call and call.group(1) in by_name):
                last_comment = "" if call else last_comment
