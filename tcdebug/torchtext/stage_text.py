"""The text of a stage as a reader sees it, the same in the app and in a dump's files.

Inductor's fusion log belongs with the IR it produced, so it follows the post-fusion IR. A live
stage keeps it in `meta["fusion_log"]`; a dump keeps it only in the stage's file, after
`FUSION_LOG_MARKER` (session.json says `"fusion_log_in_file": true` there instead).
"""

from __future__ import annotations

from tcdebug.model.session import Stage

FUSION_LOG_MARKER = "# ===== Inductor fusion log ====="
FUSION_LOG_IN_FILE = "fusion_log_in_file"  # a dump's stage meta: the log is in the stage's file


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 kernel`, `2 kernels`."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def full_text(stage: Stage) -> str:
    """The stage text with its fusion log appended (once: a dump's file already holds it)."""
    text = stage.get_text()
    fusion_log = str(stage.meta.get("fusion_log") or "")
    if not fusion_log or FUSION_LOG_MARKER in text:
        return text
    return f"{text.rstrip()}\n\n{FUSION_LOG_MARKER}\n{fusion_log}"


def split_fusion_log(text: str) -> tuple[str, str]:
    """(the IR, the fusion log) of a text `full_text` made; the log is "" where it has none."""
    at = text.find(FUSION_LOG_MARKER)
    if at < 0:
        return text, ""
    return text[:at].rstrip() + "\n", text[at + len(FUSION_LOG_MARKER) + 1 :]


def ir_and_fusion_log(stage: Stage) -> tuple[str, str]:
    """(the stage's text without the fusion log a dump's file appends to it, its fusion log):
    the log from `meta` while live, from the file in a dump. The text is read once."""
    ir, in_file = split_fusion_log(stage.get_text())
    inline = stage.meta.get("fusion_log")
    return ir, str(inline) if inline else in_file


def fusion_log_line(text: str) -> int:
    """The 1-based line where the fusion log starts in `text`, or 0 when it has none."""
    at = text.find(FUSION_LOG_MARKER)
    return text.count("\n", 0, at) + 1 if at >= 0 else 0


def line_count(text: str) -> int:
    """Lines as the stage view shows them (a final newline does not start another line)."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)
