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
    "ranks",
    "help",
    "quit",
)


def _name(key: Binding | FooterKey) -> tuple[str, str, str]:
    """What tells one footer key from another: a binding's, or a mounted key's."""
    return (key.key, key.action, key.description)


# Kept whatever else the footer has to drop for room.
ALWAYS = ("help", "quit")
# Help and Quit by keys a text box does not take (the app binds f1; Textual binds ctrl+q), shown
# where `?` and `q` are not: while a text box has the focus.
TYPED_AWAY = (
    Binding("f1", "app.help", "Help", id="help", tooltip="Every key"),
    Binding("ctrl+q", "app.quit", "Quit", id="quit", tooltip="Quit; the target is ended cleanly"),
)


def _kept(binding: Binding) -> bool:
    """Help, Quit, and the key that closes a screen (escape) stay whatever the width."""
    return binding.id in ALWAYS or "escape" in binding.key.split(",")


def _rank(binding: Binding, order: tuple[str, ...] = ORDER) -> int:
    """Where a key goes: by its place in `order`, others after those, Help and Quit last."""
    if binding.id in ALWAYS:
        return len(order) + 1 + ALWAYS.index(binding.id)
    return order.index(binding.id) if binding.id in order else len(order)


class KeyFooter(Footer):
    """`order`: binding ids in the order they show (the main screen's `ORDER`); another screen
    passes `()`, so its own keys come first, then the app's, then Help and Quit."""

    def __init__(
        self, *, order: tuple[str, ...] = ORDER, compact: bool = False, id: str | None = None
    ) -> None:
        super().__init__(compact=compact, show_command_palette=False, id=id)
        self.order = order

    _painted: tuple[Any, ...] | None = None  # what the keys on show were composed from
    # Every key the screen's bindings may show, kept mounted (hidden when not wanted): a key that
    # comes and goes with the stage (`]` on kernel stages) is shown or hidden in place.
    _known: dict[tuple[str, str, str], Binding]

    def _shown(self) -> list[tuple[Binding, bool, str]]:
        seen: set[str] = set()
        shown: list[tuple[Binding, bool, str]] = []
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                shown.append((binding, enabled, tooltip))
        ids = {binding.id for binding, _, _ in shown}
        for binding in TYPED_AWAY:  # a text box has the focus: ? and q would be typed into it
            if binding.id not in ids:
                shown.append((binding, True, binding.tooltip))
        shown.sort(key=lambda item: _rank(item[0], self.order))
        return self._fitted(shown)

    def _fitted(self, shown: list[tuple[Binding, bool, str]]) -> list[tuple[Binding, bool, str]]:
        """The keys that fit the terminal's width: the least used go first; Help, Quit and a
        screen's way back never (a footer cut at its right end would lose exactly those)."""
        room = self.app.size.width
        widths = [self._cells(binding) for binding, _, _ in shown]
        while sum(widths) > room:
            droppable = [i for i, (binding, _, _) in enumerate(shown) if not _kept(binding)]
            if not droppable:
                break
            last = max(droppable, key=lambda i: (_rank(shown[i][0], self.order), i))
            del shown[last], widths[last]
        return shown

    def _cells(self, binding: Binding) -> int:
        """Cells a key takes in the footer: ` key description ` (compact: no padding between)."""
        return len(self.app.get_key_display(binding)) + len(binding.description) + (2 if self.compact else 4)

    def _signature(self, shown: list[tuple[Binding, bool, str]]) -> tuple[Any, ...]:
        return tuple(
            (binding.key, binding.description, binding.action, enabled, tooltip)
            for binding, enabled, tooltip in shown
        )

    def update_now(self) -> None:
        """Show the keys of the screen's current state in this frame (the screen changed what
        they depend on): with the keys already mounted, in place; else a recompose, later."""
        if not self.is_attached or not self._bindings_ready:
            return
        shown = self._shown()
        signature = self._signature(shown)
        if signature != self._painted and self._update_in_place(shown):
            self._painted = signature

    def on_resize(self) -> None:
        if self.is_attached and self._bindings_ready:
            self.call_after_refresh(self._recompose_if_changed)  # room for more keys, or for fewer

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """Recompose only when the keys on show changed: the bindings are refreshed on every
        selection, and a recompose (a dozen widgets mounted and styled) is costly."""
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        if not self.is_attached:
            return
        shown = self._shown()
        signature = self._signature(shown)
        if signature == self._painted:
            return
        if self._update_in_place(shown):
            self._painted = signature
            return
        await self.recompose()

    def _update_in_place(self, shown: list[tuple[Binding, bool, str]]) -> bool:
        """Show, hide, enable and disable the keys already mounted, when every key wanted is
        among them in the order wanted: moving between stages then mounts nothing (a `]` that
        comes and goes with kernel stages). False when a recompose is needed."""
        mounted = list(self.query_children(FooterKey))
        by_name = {_name(key): key for key in mounted}
        wanted = [_name(binding) for binding, _, _ in shown]
        if len(set(wanted)) != len(wanted) or any(name not in by_name for name in wanted):
            return False
        places = [mounted.index(by_name[name]) for name in wanted]
        if places != sorted(places):
            return False
        showing = set(wanted)
        for key in mounted:
            key.display = _name(key) in showing
        for (_, enabled, tooltip), name in zip(shown, wanted, strict=True):
            key = by_name[name]
            key._disabled = not enabled  # what FooterKey reads on a click
            key.set_class(not enabled, "-disabled")
            key.tooltip = tooltip or None
        self.styles.grid_size_columns = len(shown)
        return True

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        shown = self._shown()
        self._painted = self._signature(shown)
        self.styles.grid_size_columns = len(shown)
        wanted = {_name(binding): (binding, enabled, tooltip) for binding, enabled, tooltip in shown}
        known = dict(getattr(self, "_known", {}))
        for _, bindings in self.screen._modal_binding_chain:  # what may show later, hidden for now
            for _, binding in bindings:
                if binding.show:
                    known.setdefault(_name(binding), binding)
        # The keys wanted now in their order, the hidden ones at their rank among them.
        hidden = [name for name in known if name not in wanted]
        place = {name: (_rank(wanted[name][0], self.order), i) for i, name in enumerate(wanted)}
        place |= {name: (_rank(known[name], self.order), len(wanted) + i) for i, name in enumerate(hidden)}
        keys = sorted(place, key=place.__getitem__)
        self._known = {name: wanted[name][0] if name in wanted else known[name] for name in keys}
        for name in keys:
            binding, enabled, tooltip = wanted[name] if name in wanted else (known[name], False, "")
            key = FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)
            key.display = name in wanted
            yield key

    def shown_keys(self) -> list[str]:
        """The keys on show, as displayed (for tests)."""
        return [key.key_display for key in self.query(FooterKey) if key.display]
