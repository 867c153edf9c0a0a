"""The command palette (`ctrl+p`): jump to any compile, stage or kernel, or run a command."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from tcdebug import stages as stage_catalog
from tcdebug.screens.widgets.timeline import Ref

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
                (f"{cid} {comp.function}", f"compile {cid}: {comp.status}", partial(app.jump_to, Ref(cid)))
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
        entries.append(
            (
                "follow op",
                "the op in the stage view through every stage of its compile (f)",
                app.action_follow,
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
        return entries

    async def discover(self) -> Hits:
        for text, help_text, callback in self._entries():
            if not text.startswith(("break", "remove")):
                yield DiscoveryHit(text, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, help_text, callback in self._entries():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), callback, help=help_text)
