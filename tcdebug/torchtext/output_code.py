"""Split Inductor's output code into its kernels (pure text work, no torch).

CPU:  `cpp_fused_relu_0 = async_compile.cpp_pybinding([...], r'''<C++>''')`
GPU:  `triton_poi_fused_relu_0 = async_compile.triton('triton_poi_fused_relu_0', '''<Triton>''', ...)`
"""

from __future__ import annotations

import ast
import re
from typing import Any

from tcdebug.lazy_re import lazy_re
from tcdebug.model.session import Kernel

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
_HEURISTIC_RE = lazy_re(r"@triton_heuristics\.(\w+)\(")
_SOURCE_NODES_RE = lazy_re(
    r"#\s*Topologically Sorted Source Nodes: \[(?P<nodes>[^\]]*)\](?:, Original ATen: \[(?P<aten>[^\]]*)\])?"
)
_MAPPING_RE = lazy_re(r"^#\s+(?P<node>[\w.]+) => (?P<aten>.+)$")


def kernel_kind(name: str, how: str, source: str) -> str:
    if how.startswith("cpp"):
        return "cpp"
    match = _HEURISTIC_RE().search(source)
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
        m = _SOURCE_NODES_RE().search(line)
        if m:
            nodes.extend(n.strip() for n in m.group("nodes").split(",") if n.strip())
            continue
        m = _MAPPING_RE().match(line)
        if m:
            entry = f"{m.group('node')} => {m.group('aten').strip()}"
            if entry not in nodes:
                nodes.append(entry)
    return nodes


def _add_call_site_provenance(code: str, kernels: list[Kernel]) -> None:
    """On CPU the source-node comments sit at the call site in `call()`, not at the definition.
    A comment belongs to the next call: one to another callee (`extern_kernels.mm(...)`) takes it,
    so the kernel called after that gets none rather than the other call's nodes."""
    by_name = {k.name: k for k in kernels if not k.provenance}
    if not by_name:
        return
    last_comment = ""
    for line in code.split("\n"):
        stripped = line.strip()
        if stripped.startswith("# Topologically Sorted Source Nodes"):
            last_comment = stripped
            continue
        call = re.match(r"([A-Za-z_][\w.]*?)(?:\.run)?\(", stripped)
        if call and call.group(1) in by_name and last_comment:
            kernel = by_name.pop(call.group(1))
            kernel.provenance = _provenance([last_comment])
        if stripped and not stripped.startswith("#"):
            if not (call and call.group(1) in by_name):
                last_comment = "" if call else last_comment


# ----- Triton kernels: decorator metadata and autotune configs ------------------------
_DECORATOR_RE = lazy_re(r"^@triton_heuristics\.(?P<heuristic>\w+)\(", re.MULTILINE)
_INDUCTOR_META_KEYS = (
    "kernel_name",
    "grid_type",
    "mutated_arg_names",
    "num_load",
    "num_store",
    "num_reduction",
    "kernel_num_gb",
    "kernel_flop",
    "autotune_hints",
    "optimize_mem",
    "no_x_dim",
)
_TRITON_META_KEYS = ("device", "constants", "signature")
_TEMPLATE_KEYS = ("num_stages", "num_warps", "num_consumer_groups", "num_buffers_warp_spec")


def _literal(node: ast.AST) -> Any:
    """An AST value as plain data: literals as themselves, calls and names as their source text."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Dict):
        return {
            str(_literal(k)) if k is not None else "**": _literal(v)
            for k, v in zip(node.keys, node.values, strict=False)
        }
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [_literal(e) for e in node.elts]
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
    ):
        return -node.operand.value  # type: ignore[operator]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "set"
        and not node.args
    ):
        return []
    return ast.unparse(node)


def _decorator_call(source: str) -> tuple[str, ast.Call] | None:
    match = _DECORATOR_RE().search(source)
    if not match:
        return None
    start = match.start() + 1  # after '@'
    end = source.find("\n@triton.jit", start)
    if end < 0:
        end = source.find("\ndef ", start)
    if end < 0:
        return None
    try:
        expr = ast.parse(source[start:end].strip(), mode="eval").body
    except SyntaxError:
        return None
    return (match.group("heuristic"), expr) if isinstance(expr, ast.Call) else None


def triton_decorator_meta(source: str) -> dict[str, Any]:
    """What `@triton_heuristics.<kind>(...)` above a Triton kernel says about it.

    Returns e.g. `{"heuristic": "pointwise", "size_hints": {"x": 1024}, "num_load": 2, ...}`;
    empty when the source has no such decorator (CPU kernels, user-written Triton).
    """
    found = _decorator_call(source)
    if found is None:
        return {}
    heuristic, call = found
    kwargs = {kw.arg: _literal(kw.value) for kw in call.keywords if kw.arg}
    meta: dict[str, Any] = {"heuristic": heuristic}
    for key in ("size_hints", "reduction_hint", "tile_hint", "min_elem_per_thread"):
        if key in kwargs:
            meta[key] = kwargs[key]
    for key in _TEMPLATE_KEYS:
        if key in kwargs:
            meta[key] = kwargs[key]
    inductor_meta = kwargs.get("inductor_meta")
    if isinstance(inductor_meta, dict):
        meta.update({k: inductor_meta[k] for k in _INDUCTOR_META_KEYS if k in inductor_meta})
    triton_meta = kwargs.get("triton_meta")
    if isinstance(triton_meta, dict):
        meta.update({k: triton_meta[k] for k in _TRITON_META_KEYS if k in triton_meta})
    return meta


def config_dict(config: Any) -> dict[str, Any]:
    """A Triton config as a flat dict: `{"XBLOCK": 128, "num_warps": 4, "num_stages": 1}`.

    Takes Inductor's hashable form (a sequence of `(name, value)` pairs, as the
    `triton_kernel_info` artifact's `best_config`/`only_config` hold it) or a dict.
    """
    if isinstance(config, dict):
        return dict(config)
    out: dict[str, Any] = {}
    for item in config or ():
        if isinstance(item, (list, tuple)) and len(item) == 2:
            out[str(item[0])] = item[1]
    return out


def format_config(config: dict[str, Any]) -> str:
    """`XBLOCK=128, num_warps=4, num_stages=1` (block sizes first, launch options last)."""
    launch = ("num_warps", "num_stages", "num_ctas", "maxnreg")
    first = [f"{k}={v}" for k, v in config.items() if k not in launch]
    last = [f"{k}={config[k]}" for k in launch if k in config]
    return ", ".join(first + last)


def apply_kernel_info(kernel: Kernel, info: dict[str, Any]) -> None:
    """Fold one kernel's entry of the `triton_kernel_info` artifact into the kernel."""
    autotune = kernel.meta.setdefault("autotune", {})
    if "autotune_cache_state" in info:
        autotune["cache_state"] = info["autotune_cache_state"]
    if "num_configs" in info:
        autotune["num_configs"] = info["num_configs"]
    if "compile_time_us" in info:
        autotune["compile_time_us"] = info["compile_time_us"]
    for key in ("best_config", "only_config"):
        if info.get(key):
            chosen = config_dict(info[key])
            kernel.chosen_config = chosen
            if chosen not in kernel.configs:
                kernel.configs.append(chosen)
            autotune["chosen_by"] = "autotune cache" if key == "best_config" else "only config"
