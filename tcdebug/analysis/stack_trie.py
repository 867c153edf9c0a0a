"""The stack trie: which lines of the user's code led to which compiles (tlparse's stack trie).

Each compile's call sites (`Compile.stack`, outermost first) are a path from the script's top
level down to the compiled function; paths that share their start share the trie's nodes, so a
loop that compiles many times shows its line once, with every compile it led to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tcdebug.model.payloads import Plain
from tcdebug.model.session import Compile, Frame


@dataclass(eq=False, repr=False)
class TrieNode(Plain):
    """A frame of the call-site trie: its children, and the compiles whose stacks end here."""

    frame: Frame | None = None
    children: dict[tuple[str, int, str], TrieNode] = field(default_factory=dict)
    compiles: list[str] = field(default_factory=list)  # compile ids whose path ends here


def build(compiles: list[Compile]) -> TrieNode:
    """The trie of every compile that has call sites, in the order given."""
    root = TrieNode()
    for comp in compiles:
        if not comp.stack:
            continue
        node = root
        for frame in comp.stack:
            key = (frame.file, frame.line, frame.name)
            node = node.children.setdefault(key, TrieNode(frame))
        node.compiles.append(comp.compile_id)
    return root


def _short(path: str) -> str:
    return path.rsplit("/", 1)[-1] or path


def trie_lines(compiles: list[Compile], *, indent: str = "  ", max_lines: int = 200) -> list[str]:
    """The trie as indented text: `file.py:12 in main  x = model(x)  → 0/0, 0/1`. A chain of
    nodes with one child each stays on its own lines (it is the path); at most `max_lines`."""
    root = build(compiles)
    lines: list[str] = []

    def walk(node: TrieNode, depth: int) -> None:
        for child in node.children.values():
            if len(lines) >= max_lines:
                return
            f = child.frame
            assert f is not None
            code = f"  {f.code.strip()}" if f.code.strip() else ""
            ids = f"  → {', '.join(child.compiles)}" if child.compiles else ""
            lines.append(f"{indent}{'  ' * depth}{_short(f.file)}:{f.line} in {f.name}{code}{ids}")
            walk(child, depth + 1)

    walk(root, 0)
    return lines
