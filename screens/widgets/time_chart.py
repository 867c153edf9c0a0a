"""Compile time as horizontal bars: one bar per phase (`TimeChart`), or one stacked bar (`mini_bar`).

The numbers come from `tcdebug.analysis.compile_phases` (measured phases; "other" is inferred).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.widgets import Static

from tcdebug.analysis.compile_phases import OTHER, PHASES, text_bar
from tcdebug.textsafe import safe_line

PHASE_COLORS = dict(
    zip(
        PHASES,
        (
            "magenta",
            "bright_magenta",
            "white",
            "cyan",
            "bright_cyan",
            "blue",
            "bright_blue",
            "green",
            "yellow",
            "red",
            "bright_red",
            "grey50",
        ),
        strict=True,
    )
)


def chart_text(times: Mapping[str, Any], *, width: int = 30) -> Text:
    """One line per phase: label, bar, seconds, share of the wall time."""
    phases: dict[str, float] = times.get("phases") or {}
    wall = float(times.get("wall_s") or 0.0) or sum(phases.values())
    text = Text()
    if not phases or wall <= 0:
        text.append("torch reported no phase times", style="dim")
        return text
    labels = {p: safe_line(p) + (" (inferred)" if p == OTHER else "") for p in phases}
    label_w = max(len(v) for v in labels.values())
    for i, (phase, secs) in enumerate(phases.items()):
        share = float(secs) / wall
        if i:
            text.append("\n")
        text.append(f"{labels[phase]:<{label_w}} ")
        text.append(text_bar(share, width), style=PHASE_COLORS.get(phase, "white"))
        text.append(f" {float(secs):8.3f}s {share * 100:5.1f}%")
    measured = float(times.get("measured_s") or 0.0)
    text.append(f"\nwall {wall:.3f}s", style="bold")
    if measured:
        text.append(f" · measured phases {measured / wall * 100:.0f}% of it", style="dim")
    if times.get("source"):
        text.append(f" · {safe_line(str(times['source']))}", style="dim")
    return text


def mini_bar(times: Mapping[str, Any], *, width: int = 8) -> Text:
    """A stacked bar of `width` cells, each phase coloured, then the wall time."""
    phases: dict[str, float] = times.get("phases") or {}
    wall = float(times.get("wall_s") or 0.0) or sum(phases.values())
    text = Text()
    if not phases or wall <= 0:
        return text
    cells = 0
    for phase, secs in phases.items():
        n = round(float(secs) / wall * width)
        n = min(n, width - cells)
        if n > 0:
            text.append("█" * n, style=PHASE_COLORS.get(phase, "white"))
            cells += n
    if cells < width:
        text.append("░" * (width - cells), style="grey30")
    text.append(f" {wall:.1f}s", style="dim")
    return text


class TimeChart(Static):
    """A phase chart for one compile or the whole run."""

    def show_times(self, times: dict[str, Any], *, width: int = 30) -> None:
        self.update(chart_text(times, width=width))
