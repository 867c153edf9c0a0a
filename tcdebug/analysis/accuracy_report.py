"""The comparison of a compile with eager (`A`, `--accuracy`), as text: for the app, the dump's
accuracy.md and the summary printed after `--dump`.

The target reports the layers, the first diverging post-grad node and its user line from the
node's stack trace (`tcdebug.model.payloads.Accuracy`); the kernel that computes the node comes
from the compile's provenance, the same links `f` follows.
"""

from __future__ import annotations

from dataclasses import dataclass

from tcdebug.analysis.provenance_index import item_id
from tcdebug.model.payloads import Accuracy, AccuracyLayer
from tcdebug.model.session import Compile

REPRO_FILE = "repro.py"
REPORT_FILE = "accuracy.md"
LAYER_TITLES = {
    "eager": "eager (own dtypes)",
    "aot_eager": "AOTAutograd/decompositions (aot_eager)",
    "inductor": "Inductor",
}
VERDICTS = {
    "reference": "reference",
    "same": "same (within tolerance)",
    "reassociation": "float reassociation (beyond eager's tolerance, within the float64 allowance)",
    "diverged": "DIFFERS beyond tolerance",
    "failed": "failed to run",
    "skipped": "not run",
}


@dataclass
class Located:
    """Where the diverging node lies in the compile's own stages (from its provenance)."""

    graph: str = ""  # the post-grad stage key
    kernels: tuple[str, ...] = ()
    source: tuple[str, ...] = ()  # "file:line" items of the source stage


def post_grad_key(acc: Accuracy) -> str:
    return "inductor_post_grad_graph." + ("forward" if acc.training else "inference")


def locate(comp: Compile) -> Located:
    """The diverging node's post-grad stage, kernels and user lines, through provenance."""
    acc = comp.accuracy
    if acc is None or acc.node is None:
        return Located()
    key = post_grad_key(acc)
    index = comp.provenance
    start = item_id(key, acc.node.name)
    if start not in index.items:
        return Located(graph=key)
    trail = index.trail([start])
    kernels = tuple(
        item.name
        for ts in trail.stages
        if ts.stage.startswith("kernel_source")
        for item in ts.items
        if item.kind in ("kernel", "extern_kernel")
    )
    source = trail.stage("source")
    return Located(graph=key, kernels=kernels, source=tuple(i.name for i in source.items) if source else ())


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


def layer_line(layer: AccuracyLayer) -> str:
    title = LAYER_TITLES.get(layer.name, layer.name)
    verdict = VERDICTS.get(layer.verdict, layer.verdict)
    figures = ""
    if layer.verdict != "failed" and layer.error is not None:
        figures = (
            f"  max |diff| {_num(layer.max_abs)}, RMSE vs float64 {_num(layer.error)}"
            f" (allowed {_num(layer.allowance)}) at {layer.worst}"
        )
    note = f"  {layer.note}" if layer.note else ""
    return f"{title}: {verdict}{figures}{note}"


def report_lines(comp: Compile) -> list[str]:
    """The report, one fact a line."""
    acc = comp.accuracy
    if acc is None:
        return [f"compile {comp.compile_id}: not compared (press A, or run with --accuracy)"]
    head = f"compile {comp.compile_id} {comp.function}".rstrip()
    if acc.status == "running":
        return [f"{head}: comparing with eager..."]
    lines = [f"{head}: {acc.summary}"]
    if acc.status == "not_comparable":
        return lines
    kind = "training (outputs and input gradients)" if acc.training else "inference (outputs)"
    lines.append(
        f"compared: {kind}, by torch._dynamo.utils.same with the float64 reference, tol {acc.tolerance:g}"
    )
    lines += ["  " + layer_line(layer) for layer in acc.layers]
    if acc.node is not None:
        node = acc.node
        where = locate(comp)
        lines.append(
            f"first diverging node of {where.graph or 'the post-grad graph'}: {node.name} ({node.target})"
        )
        if node.filename:
            lines.append(f"  user line: {node.filename}:{node.line}  {node.code}")
        elif where.source:
            lines.append(f"  user line: {', '.join(where.source)}")
        lines.append(f"  kernel: {', '.join(where.kernels) if where.kernels else '(not in the provenance)'}")
        kind = "float reassociation" if node.reassociation else "not float reassociation"
        lines.append(
            f"  error: RMSE vs float64 {_num(node.error)}, allowed {_num(node.allowance)}, "
            f"max |diff| {_num(node.max_abs)} ({kind})"
        )
    lines += [f"not compared: {text}" for text in acc.not_compared]
    lines += [f"note: {text}" for text in acc.notes]
    if acc.repro:
        lines.append(f"repro: python {REPRO_FILE} (in the compile's dump folder) raises AccuracyError")
    lines.append(f"took {acc.elapsed_s:.1f}s; the kept inputs hold {acc.kept_bytes / 1024:.0f} KiB")
    return lines


def report_markdown(comp: Compile) -> str:
    return (
        "# Accuracy of compile "
        + comp.compile_id
        + "\n\n"
        + "\n".join(
            f"- {line.strip()}" if line.startswith("  ") else line + "\n" for line in report_lines(comp)
        )
        + "\n"
    )


def summary_line(comp: Compile) -> str:
    """One line for the summary printed after `--dump`."""
    acc = comp.accuracy
    if acc is None:
        return ""
    text = f"accuracy {comp.compile_id}: {acc.summary}"
    if acc.node is not None:
        where = locate(comp)
        line = f"{acc.node.filename}:{acc.node.line}" if acc.node.filename else ", ".join(where.source)
        kernel = ", ".join(where.kernels) or "?"
        text += f"; first diverging node {acc.node.name} at {line}, kernel {kernel}"
    return text
