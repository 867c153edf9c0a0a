"""The footer: the keys that do something in the current state, the most used first.

Textual's `Footer` lists the focused widget's keys before the screen's and the app's; here the
order is fixed by binding id (stepping first), and `check_action` decides what shows at all.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
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
    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        seen: set[str] = set()
        shown: list[tuple[Binding, bool, str]] = []
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                shown.append((binding, enabled, tooltip))
        shown.sort(key=lambda item: _rank(item[0]))
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
