"""The footer: the keys that do something in the current state, the most used first.

Textual's `Footer` lists the focused widget's keys before the screen's and the app's; here the
order is fixed by binding id (stepping first), and `check_action` decides what shows at all.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

# Binding ids, in the order the footer shows them; others follow in Textual's order.
ORDER = (
    "step",
    "continue",
    "run",
    "breakpoint",
    "rerun",
    "diff",
    "search",
    "next_kernel",
    "output",
    "zoom",
    "help",
    "quit",
)


def _rank(binding: Binding) -> int:
    return ORDER.index(binding.id) if binding.id in ORDER else len(ORDER)


class KeyFooter(Footer):
    _painted: tuple[Any, ...] | None = None  # what the keys on show were composed from

    def _shown(self) -> list[tuple[Binding, bool, str]]:
        seen: set[str] = set()
        shown: list[tuple[Binding, bool, str]] = []
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                shown.append((binding, enabled, tooltip))
        shown.sort(key=lambda item: _rank(item[0]))
        return shown

    def _signature(self, shown: list[tuple[Binding, bool, str]]) -> tuple[Any, ...]:
        return tuple(
            (binding.key, binding.description, binding.action, enabled, tooltip)
            for binding, enabled, tooltip in shown
        )

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """Recompose only when the keys on show changed: the bindings are refreshed on every
        selection, and a recompose (a dozen widgets mounted and styled) cost ~10 ms a time."""
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        if not self.is_attached or self._signature(self._shown()) == self._painted:
            return
        await self.recompose()

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        shown = self._shown()
        self._painted = self._signature(shown)
        self.styles.grid_size_columns = len(shown)
        for binding, enabled, tooltip in shown:
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)

    def shown_keys(self) -> list[str]:
        """The keys on show, as displayed (for tests)."""
        return [key.key_display for key in self.query(FooterKey)]
