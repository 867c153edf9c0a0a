"""Render the docs' generated tables: the keys (from the app's `Binding`s) and the stages (from the stage
catalogue, `tcdebug.model.stages.STAGE_KINDS`).

Each table sits between marker comments in README.md or a page under docs/:

    <!-- keys:begin -->
    ...generated Markdown...
    <!-- keys:end -->

`keys` is the app's and the main screen's keys, `stages` the stage catalogue, and `keys:<screen>` one
other screen's keys (`keys:rerun`, `keys:diff`, ... see `SCREEN_BLOCKS`).

Usage: `python .ci/readme_tables.py` prints every file whose tables differ from what this script renders
(exit code 1 if any); `python .ci/readme_tables.py --write` rewrites them in place.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRITE_COMMAND = "python .ci/readme_tables.py --write"

# Which help-screen section (`help_screen.key_sections`) each `keys:<name>` block shows.
SCREEN_BLOCKS = {
    "keys:rerun": "re-run editor (r)",
    "keys:diff": "diff (d)",
    "keys:output": "output (o)",
    "keys:ranks": "ranks (R, multi-rank traces)",
    "keys:why": "why (w)",
    "keys:times": "compile times (T)",
    "keys:overview": "overview (O)",
    "keys:search": "search every stage (ctrl+f)",
    "keys:trail": "follow (f)",
    "keys:symbols": "symbols (S)",
    "keys:accuracy": "accuracy (A)",
    "keys:help": "help (?)",
    "keys:doctor": "doctor (D in help)",
}

# `StageKind.expect` in words (the meanings are the comments on the constants in stages.py).
WHEN = {
    "always": "every Dynamo compile",
    "training": "training compiles (an input requires grad)",
    "inference": "inference compiles (no input requires grad)",
    "inductor": "compiles that run Inductor",
    "per_part": "each graph Inductor compiles (forward, backward, inference)",
    "gpu": "CUDA only",
    "export": "torch.export and AOTInductor compiles (`-/-`)",
    "ca_capture": "compiled autograd's captures of a backward (`!N`)",
    "view": "another view of `bytecode_after`",
    "other": "not expected",
}

MARKER = re.compile(r"(<!-- (?P<name>[a-z:_-]+):begin -->\n)(?P<body>.*?)(<!-- (?P=name):end -->)", re.S)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# Key names `help_screen.key_display` leaves as Textual spells them.
KEY_NAMES = {"left_curly_bracket": "{", "right_curly_bracket": "}"}


def _code(key: str) -> str:
    return " / ".join(f"`{KEY_NAMES.get(part.strip(), part.strip())}`" for part in key.split(", "))


def _key_table(rows: list[tuple[str, str, str]]) -> str:
    lines = ["| key | id | what it does |", "| --- | --- | --- |"]
    for key, binding_id, description in rows:
        ident = f"`{binding_id}`" if binding_id else ""
        shown = _code(key) if binding_id else f"`{key}`"
        lines.append(f"| {_cell(shown)} | {ident} | {_cell(description)} |")
    return "\n".join(lines) + "\n"


def key_blocks() -> dict[str, str]:
    """`keys` (the app's keys, then the main screen's) and one `keys:<screen>` block per other screen."""
    from tcdebug.screens.app import TcdebugApp
    from tcdebug.screens.help_screen import key_sections

    sections = dict(key_sections(TcdebugApp.BINDINGS))
    blocks = {"keys": _key_table(sections["everywhere"] + sections["timeline and stage view"])}
    for name, section in SCREEN_BLOCKS.items():
        blocks[name] = _key_table(sections[section])
    return blocks


def stage_block() -> str:
    from tcdebug.model.stages import STAGE_KINDS

    lines = ["| stage id | what it shows | when a compile has it |", "| --- | --- | --- |"]
    for kind in STAGE_KINDS:
        lines.append(f"| `{kind.id}` | {_cell(kind.title)} | {_cell(WHEN.get(kind.expect, kind.expect))} |")
    return "\n".join(lines) + "\n"


def blocks() -> dict[str, str]:
    return {**key_blocks(), "stages": stage_block()}


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def render(text: str, rendered: dict[str, str]) -> str:
    """`text` with every marked block replaced by its rendering (an unknown block name is an error)."""

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in rendered:
            raise SystemExit(f"unknown generated table {name!r}: known are {', '.join(sorted(rendered))}")
        return f"{match.group(1)}{rendered[name]}{match.group(4)}"

    return MARKER.sub(replace, text)


def stale_files(rendered: dict[str, str] | None = None) -> list[Path]:
    """The doc files whose generated tables differ from what this script renders."""
    rendered = blocks() if rendered is None else rendered
    return [path for path in doc_files() if render(path.read_text(), rendered) != path.read_text()]


def main(argv: list[str]) -> int:
    rendered = blocks()
    stale = stale_files(rendered)
    if "--write" in argv:
        for path in stale:
            path.write_text(render(path.read_text(), rendered))
            print(f"updated {path.relative_to(ROOT)}")
        return 0
    for path in stale:
        print(f"{path.relative_to(ROOT)}: generated tables are stale; run `{WRITE_COMMAND}`")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
