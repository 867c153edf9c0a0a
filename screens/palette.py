"""The command palette (`ctrl+p`): jump to any compile, stage or kernel, or run a command."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.markup import escape

from tcdebug.analysis.live_ranks import is_rank_job
from tcdebug.model import event_breaks
from tcdebug.model import stages as stage_catalog
from tcdebug.screens.ref import Ref
from tcdebug.textsafe import safe_line

if TYPE_CHECKING:
    from tcdebug.screens.app import TcdebugApp


class JumpCommands(Provider):
    """Every compile, stage and kernel of the session, by compile id, function and stage."""

    def _entries(self) -> list[tuple[str, str, Callable[[], None]]]:
        app = cast("TcdebugApp", self.app)
        entries: list[tuple[str, str, Callable[[], None]]] = []
        for comp in app.session.ordered_compiles():
            cid = comp.compile_id
            entries.append(
                (f"{cid} {comp.shown_name}", f"compile {cid}: {comp.status}", partial(app.jump_to, Ref(cid)))
            )
            for stage in comp.ordered_stages():
                help_text = stage.title if stage.captured else f"not captured: {stage.reason}"
                entries.append((f"{cid} {stage.key}", help_text, partial(app.jump_to, Ref(cid, stage.key))))
                for kernel in stage.kernels:
                    entries.append(
                        (
                            f"{cid} {stage.key} {kernel.name}",
                            f"kernel ({kernel.kind or kernel.language})",
                            partial(app.jump_to, Ref(cid, stage.key, kernel=kernel.name)),
                        )
                    )
        for pid, info in app.session.processes.items():
            if info.main or info.ended or not app.is_live:
                continue
            label = app.session.process_label(pid)
            verb, stepping = (f"run {label} free", False) if info.stepping else (f"step {label}", True)
            help_text = "it runs without pausing" if stepping is False else "pause at its next stage"
            entries.append((verb, help_text, partial(app.step_process, pid, stepping)))
        if app.is_live and is_rank_job(app.session):
            entries.append(
                (
                    "lockstep off" if app.lockstep else "lockstep on",
                    "n, c and g drive the rank paused now (choose which ranks step: step rank N)"
                    if app.lockstep
                    else "n, c and g drive every rank together",
                    partial(app.set_lockstep, not app.lockstep),
                )
            )
        if app.is_live:
            new = app.controller is not None and app.controller.step_new_processes
            entries.append(
                (
                    "run new processes free" if new else "step new processes",
                    "processes the script forks from now on"
                    + (" run free" if new else " pause at their first stage"),
                    partial(app.step_new_processes, not new),
                )
            )
        if app.can_restart_cold:
            entries.append(
                (
                    "restart cold",
                    "run the script again with every compile cache and PGO off: no stage skipped by a cache hit (K)",
                    app.request_restart_cold,
                )
            )
        entries.append(
            (
                "follow op",
                "the op in the stage view through every stage of its compile (f)",
                app.action_follow,
            )
        )
        entries.append(
            (
                "accuracy",
                "compare the selected compile with eager: the layer, node and line that differ (A)",
                app.action_accuracy,
            )
        )
        entries.append(
            (
                "search every stage",
                "find text in every stage of every compile; enter shows the line (ctrl+f)",
                app.action_search_all,
            )
        )
        entries.append(
            (
                "overview",
                "most expensive compiles, recompile causes, graph-break types; enter shows one (O)",
                app.action_overview,
            )
        )
        entries.append(
            (
                "symbols",
                "the symbolic sizes of the selected compile: origin, range, hint, guards (S)",
                app.action_symbols,
            )
        )
        for kind in stage_catalog.STAGE_KINDS:
            verb = "remove breakpoint" if kind.id in app.breakpoints else "break"
            entries.append(
                (
                    f"{verb} on {kind.id}",
                    f"stop at every {kind.title}",
                    partial(app.toggle_breakpoint, kind.id),
                )
            )
        for event in event_breaks.EVENT_KINDS:
            verb = "remove breakpoint" if event.id in app.breakpoints else "break"
            unavailable = app.session.unavailable_events.get(event.id)
            note = f" (can't be had on this torch: {unavailable})" if unavailable else ""
            flt = f"; --break {event.id}:FILTER filters by {event.filter}" if event.filter else ""
            entries.append(
                (
                    f"{verb} on {event.id}",
                    f"stop when {event.title}{flt}{note}",
                    partial(app.toggle_breakpoint, event.id),
                )
            )
        return entries

    def _safe_entries(self) -> list[tuple[str, str, Callable[[], None]]]:
        """Entries with names from scripts, logs and dumps made safe; the help text escaped, as
        the palette reads it as markup (the prompt is given as `Content`, never read as markup)."""
        return [
            (safe_line(text), escape(safe_line(help_text)), cb) for text, help_text, cb in self._entries()
        ]

    async def discover(self) -> Hits:
        for text, help_text, callback in self._safe_entries():
            if not text.startswith(("break", "remove", "step ", "run ")):
                yield DiscoveryHit(Content(text), callback, text=text, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, help_text, callback in self._safe_entries():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, _highlight(matcher, text), callback, text=text, help=help_text)


def _highlight(matcher: Any, text: str) -> Content:
    """`Matcher.highlight` without reading `text` as markup."""
    content = Content(text)
    score, offsets = matcher.fuzzy_search.match(matcher.query, text)
    if not score:
        return content
    for offset in offsets:
        if not text[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
