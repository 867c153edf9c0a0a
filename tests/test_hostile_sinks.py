"""No raw path from a session to the terminal: every place the screens and the CLI hand text to
Textual or print it (`Text`, `Static`, `Label`, `Content`, `Option`, `print`, `border_title`,
`title`, ...) gets a constant, something already built (a name, a call), or an f-string whose every
value is made safe (`safe_line`, `safe_label`, ...) or is a number. Toasts are made safe by the
app's one `notify`; the CLI prints only through `tcdebug.textsafe.print_safe`."""

from __future__ import annotations

import ast

from conftest import ROOT

SINK_CALLS = {"Text", "Static", "Label", "Content", "Option", "print", "Panel", "Markdown"}
SINK_ATTRS = {"border_title", "border_subtitle", "title", "sub_title"}
# Calls whose result is safe to interpolate: the sanitizers, and numbers or fixed words.
SAFE_CALLS = {"safe_line", "safe_text", "safe_label", "safe_rich", "print_safe", "len", "plural", "line_span",
              "dynamic_text"}  # fmt: skip
# Calls whose result is shown as built (the sanitizer's own output, or each piece made safe first).
WRAPPERS = {"safe_rich", "safe_label", "print_safe", "fit_encoding"}
# Names that only ever hold numbers or tcdebug's own constants.
NUMBERS = {"start", "first", "last", "n", "rank", "OUTPUT_LINES", "PAGE", "rerun_id"}
NUMERIC_SPECS = set("dfegxn%")
PRAGMA = "# text-safe:"  # a line that says why its text is safe (each piece made safe before)

FILES = sorted([*(ROOT / "screens").rglob("*.py"), ROOT / "tcdebug" / "cli.py"])


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _safe_value(node: ast.expr) -> bool:
    """A value interpolated into a string: made safe, a number, or a constant."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Call):
        return _name(node.func) in SAFE_CALLS
    if isinstance(node, ast.Name | ast.Attribute):
        return _name(node) in NUMBERS
    if isinstance(node, ast.BinOp):
        return _safe_value(node.left) and _safe_value(node.right)
    if isinstance(node, ast.Subscript):
        return _safe_value(node.value)
    if isinstance(node, ast.IfExp):
        return _safe_value(node.body) and _safe_value(node.orelse)
    if isinstance(node, ast.JoinedStr):
        return _safe_text(node)
    return False


def _numeric(value: ast.FormattedValue) -> bool:
    spec = value.format_spec
    if not isinstance(spec, ast.JoinedStr):
        return False
    text = "".join(v.value for v in spec.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return bool(text) and text[-1] in NUMERIC_SPECS


def _safe_text(node: ast.expr) -> bool:
    """Text handed to a sink: a string built here must be built from safe values only."""
    if isinstance(node, ast.JoinedStr):
        return all(
            isinstance(v, ast.Constant)
            or (isinstance(v, ast.FormattedValue) and (_numeric(v) or _safe_value(v.value)))
            for v in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        return all(
            _safe_text(side) if isinstance(side, ast.BinOp) else _safe_value(side)
            for side in (node.left, node.right)
        )
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("format", "join"):
            return False
        return not (isinstance(func, ast.Name) and func.id in ("str", "repr", "format"))
    return True  # a constant, or a name or value built (and checked) elsewhere


def unsafe_sinks(source: str, filename: str = "<code>") -> list[str]:
    """Each place in `source` where a sink gets a string built from values not made safe."""
    tree = ast.parse(source)
    lines = source.splitlines()
    wrapped: set[int] = set()  # ids of nodes inside a wrapper's arguments
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in WRAPPERS:
            wrapped.update(id(n) for arg in node.args for n in ast.walk(arg))
    found = []
    for node in ast.walk(tree):
        if id(node) in wrapped or not hasattr(node, "lineno") or PRAGMA in lines[node.lineno - 1]:
            continue
        if isinstance(node, ast.Call) and _name(node.func) in SINK_CALLS and node.args:
            first = node.args[0]
            if not _safe_text(first) or (_name(node.func) == "print" and not isinstance(first, ast.Constant)):
                found.append(
                    f"{filename}:{node.lineno}: {_name(node.func)}({ast.unparse(node.args[0])[:80]})"
                )
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr in SINK_ATTRS
                    and not _safe_text(node.value)
                ):
                    found.append(f"{filename}:{node.lineno}: .{target.attr} = {ast.unparse(node.value)[:80]}")
    return found


def test_no_sink_gets_text_that_was_not_made_safe() -> None:
    found = [hit for path in FILES for hit in unsafe_sinks(path.read_text(), str(path.relative_to(ROOT)))]
    assert found == []


def test_the_known_holes_are_caught() -> None:
    """The check finds what once reached the terminal raw: the times screen's compile ids, the trail
    screen's title read as markup, and the CLI's summary printed as it was."""
    holes = """
name = f"{comp.compile_id} {safe_line(comp.shown_name)}"
yield Static(Text(f"{comp.compile_id} {safe_line(comp.shown_name)}", style="bold"))
from_list.border_title = f"follow from {self.from_key}"
print(summary_text(session, out=out))
self.title = "tcdebug " + session.script
Label(f"{'{:,}'.format(n)} {name}")
"""
    found = unsafe_sinks(holes)
    assert sorted(hit.split(":")[1] for hit in found) == ["3", "4", "5", "6", "7"], found
    fixed = """
yield Static(safe_label(f"{comp.compile_id} {comp.shown_name}", style="bold"))
from_list.border_title = safe_label(f"follow from {self.from_key}")
print_safe(summary_text(session, out=out))
yield Static(Text(f"{len(rows)} rows, {wall:.3f}s", "dim"))
"""
    assert unsafe_sinks(fixed) == []


def test_the_cli_prints_only_through_print_safe() -> None:
    tree = ast.parse((ROOT / "tcdebug" / "cli.py").read_text())
    raw = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (_name(node.func) == "print" or (_name(node.func) == "write" and "std" in ast.unparse(node.func)))
    ]
    assert raw == []
