"""The guard view: every cache entry of a frame checked against a re-run's inputs.

`guard_lines` (pure) turns a `Rerun` into styled lines: per entry a verdict with
Dynamo's own reason, then each guard passing (green) or failing (red) with why.
`GuardView` shows them through the Line API (`StyledView`).
"""

from __future__ import annotations

from rich.text import Text

from tcdebug.model.session import EntryCheck, GuardResult, Rerun
from tcdebug.screens.widgets.styled_view import StyledView
from tcdebug.textsafe import safe_line

PASS, FAIL, UNKNOWN = "✓", "✗", "?"


def verdict(rerun: Rerun) -> tuple[str, str]:
    """(text, style) saying what running with these inputs does to the cache."""
    if rerun.status == "failed" and not rerun.checks:
        return f"cannot re-run: {rerun.error}", "bold red"
    if rerun.status == "ok":
        if rerun.produced:
            return f"ran and recompiled: {', '.join(rerun.produced)} (see the timeline)", "bold magenta"
        return f"ran without recompiling: reused {rerun.reused or 'a cached entry'}", "bold green"
    if rerun.status == "failed":
        made = f" (compiled {', '.join(rerun.produced)})" if rerun.produced else ""
        return f"the re-run failed{made}: {rerun.error}", "bold red"
    if rerun.status == "running":
        return "running…", "bold yellow"
    if not rerun.checks:
        return "no cache entries to check (the guards of this frame are unknown)", "yellow"
    if rerun.reused:
        return f"entry {rerun.reused} matches: it will be reused, nothing will recompile", "bold green"
    return f"no entry matches ({len(rerun.checks)} checked): running it will recompile", "bold red"


def _reason(check: EntryCheck) -> str:
    prefix = f"{check.compile_id}: "
    return check.reason[len(prefix) :] if check.reason.startswith(prefix) else check.reason


def _guard_line(guard: GuardResult) -> list[Text]:
    if not guard.checked:
        glyph, style = UNKNOWN, "yellow"
    elif guard.passed:
        glyph, style = PASS, "green"
    else:
        glyph, style = FAIL, "bold red"
    first, *more = guard.text.splitlines() or [""]
    line = Text("    ")
    line.append(glyph, style)
    line.append(f" {guard.kind:<32} ", "cyan" if guard.passed or not guard.checked else "red")
    line.append(first, "" if guard.passed or not guard.checked else "red")
    if more:
        line.append(f"  (+{len(more)} more)", "dim")
    lines = [line]
    if guard.reason and (not guard.passed or not guard.checked):
        lines.append(Text.assemble("        → ", (guard.reason, style)))
    return lines


def guard_lines(rerun: Rerun | None, *, failing_only: bool = False) -> list[Text]:
    if rerun is None:
        return [
            Text("Press F2 (ctrl+g) to check the guards of every cache entry against these inputs.", "dim")
        ]
    lines: list[Text] = []
    text, style = verdict(rerun)
    lines.append(Text(text, style))
    lines.append(
        Text(
            safe_line(
                f"re-run #{rerun.rerun_id} of {rerun.function or '?'}  [{rerun.spec}]  dynamic={rerun.dynamic}"
            ),
            "dim",
        )
    )
    if rerun.error and rerun.checks:
        lines.append(Text(f"error: {safe_line(rerun.error)}", "red"))
    for check in rerun.checks:
        lines.append(Text(""))
        failed = [g for g in check.guards if g.checked and not g.passed]
        head = Text()
        if check.passed:
            head.append(f"{PASS} {check.compile_id}", "bold green")
            head.append(f"  passes all {len(check.guards)} guards", "green")
            if check.compile_id == rerun.reused:
                head.append("  ← reused", "bold green")
        else:
            head.append(f"{FAIL} {check.compile_id}", "bold red")
            head.append(f"  fails {len(failed)} of {len(check.guards)} guards", "red")
        lines.append(head)
        if check.reason:
            lines.append(
                Text.assemble("    Dynamo: ", (_reason(check), "bold red" if not check.passed else ""))
            )
        shown = failed if failing_only else check.guards
        for guard in shown:
            lines += _guard_line(guard)
        if failing_only and len(shown) < len(check.guards):
            lines.append(Text(f"    … {len(check.guards) - len(shown)} passing guards hidden", "dim"))
    return lines


class GuardView(StyledView):
    """The guard check of one re-run."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.rerun: Rerun | None = None
        self.failing_only = False
        self.read_only = False  # a dump or a log: nothing can be checked

    def show_rerun(self, rerun: Rerun | None) -> None:
        self.rerun = rerun
        if rerun is None and self.read_only:
            self.set_lines([Text("No guard check here: checking guards needs a live session.", "dim")])
            return
        self.set_lines(guard_lines(rerun, failing_only=self.failing_only))

    def toggle_failing_only(self) -> bool:
        self.failing_only = not self.failing_only
        self.show_rerun(self.rerun)
        return self.failing_only
