"""Text for the records that carry facts rather than a stage's text: symbolic shapes (symbols
created, sizes specialized, guards added) and the problems draft export worked around.

Pure functions of a record's envelope key and meta (`Record.meta`), standard library only.
"""

from __future__ import annotations

from typing import Any

# Draft export's problems, as tlparse's export report names them.
DATA_DEPENDENT = "Data Dependent Error"
GUARD_EVALUATED = "Guard Evaluated"
MISSING_FAKE_KERNEL = "Missing Fake Kernel"
MISMATCHED_FAKE_KERNEL = "Mismatched Fake Kernel"
# Problems that make a draft export's program differ from what the user's code says.
FAILING = frozenset({DATA_DEPENDENT, MISSING_FAKE_KERNEL, MISMATCHED_FAKE_KERNEL})


def _md(meta: Any) -> dict[str, Any]:
    return meta if isinstance(meta, dict) else {}


def _is_torch_file(filename: str) -> bool:
    return "/torch/" in filename.replace("\\", "/") or filename.startswith("<")


def user_line(meta: Any) -> str:
    """Where in the user's code: the last frame of `user_stack` (else of `stack`) outside torch,
    with its source line, or the `frame_locals` line."""
    md = _md(meta)
    for key in ("user_stack", "stack"):
        frames = md.get(key)
        if not isinstance(frames, list):
            continue
        user = [f for f in frames if isinstance(f, dict) and not _is_torch_file(str(f.get("filename", "")))]
        if user:
            f = user[-1]
            loc = f" `{f['loc']}`" if f.get("loc") else ""
            return f"{f.get('filename', '?')}:{f.get('line', '?')} in {f.get('name', '?')}{loc}"
    locals_ = md.get("frame_locals")
    if isinstance(locals_, dict) and locals_.get("loc"):
        return f"`{locals_['loc']}`"
    return ""


def _sources(md: dict[str, Any]) -> str:
    sources = md.get("symbol_to_sources") or (_md(md.get("frame_locals")).get("symbols"))
    if isinstance(sources, dict) and sources:
        return " (" + ", ".join(f"{k} = {v}" for k, v in sources.items()) + ")"
    return ""


def shape_line(key: str, meta: Any) -> str:
    """One line for a symbolic-shapes record (`records.SHAPES`, `records.DRAFT_EXPORT`)."""
    md = _md(meta)
    at = user_line(md)
    where = f"  at {at}" if at else ""
    if key == "create_symbol":
        source = f" from {md['source']}" if md.get("source") else ""
        return (
            f"symbol {md.get('symbol', '?')} = {md.get('val', '?')}{source}, range {md.get('vr', '?')}{where}"
        )
    if key == "create_unbacked_symbol":
        return f"unbacked symbol {md.get('symbol', '?')}, range {md.get('vr', '?')}{where}"
    if key == "symbolic_shape_specialization":
        sources = md.get("sources")
        named = (
            ", ".join(map(str, sources)) if isinstance(sources, list) and sources else md.get("symbol", "?")
        )
        reason = f" ({md['reason']})" if md.get("reason") else ""
        return f"specialized {named} = {md.get('value', '?')}{reason}{where}"
    if key in ("guard_added", "guard_added_fast"):
        how = " (evaluated)" if md.get("prefix") == "eval" else ""
        return f"guard added{how}: {md.get('expr', '?')}{_sources(md)}{where}"
    if key == "propagate_real_tensors_provenance":
        return (
            f"data-dependent: {md.get('expr', '?')} taken as {md.get('result', '?')} from real tensors{where}"
        )
    if key in ("missing_fake_kernel", "mismatched_fake_kernel"):
        return f"{key.replace('_', ' ')}: torch.ops.{md.get('op', '?')}{where}"
    return f"{key}: {md}"


def export_problem(key: str, meta: Any) -> tuple[str, str] | None:
    """(kind, text) of a problem draft export reports (tlparse's export failures), or None: a
    guard evaluated (`prefix` "eval"), a data-dependent expression decided from real tensors, a
    missing or mismatched fake kernel."""
    md = _md(meta)
    at = user_line(md)
    where = f"\n    at {at}" if at else ""
    if key == "guard_added":
        if md.get("prefix") != "eval":
            return None
        return GUARD_EVALUATED, (
            f"the guard {md.get('expr', '?')} was evaluated{_sources(md)}: it may violate a constraint{where}"
        )
    if key == "propagate_real_tensors_provenance":
        return DATA_DEPENDENT, (
            f"could not tell whether {md.get('expr', '?')} always holds: it was specialized to"
            f" {md.get('result', '?')} and asserts were inserted{_sources(md)}{where}"
        )
    if key == "missing_fake_kernel":
        return MISSING_FAKE_KERNEL, f"torch.ops.{md.get('op', '?')} has no fake kernel{where}"
    if key == "mismatched_fake_kernel":
        return MISMATCHED_FAKE_KERNEL, (
            f"torch.ops.{md.get('op', '?')}'s fake kernel disagrees with the real one: {md.get('reason', '?')}{where}"
        )
    return None


def export_report(problems: list[tuple[str, str]]) -> str:
    """The draft-export report: each problem with its kind, numbered."""
    lines = [f"Draft export: {len(problems)} problem{'s' if len(problems) != 1 else ''}", ""]
    for n, (kind, text) in enumerate(problems, 1):
        lines.append(f"{n}. {kind}: {text}")
    return "\n".join(lines) + "\n"
