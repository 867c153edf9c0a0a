"""The `S` screen: the symbolic sizes of a compile (`s77`), each with where it comes from.

For each symbol, from the compile's ShapeEnv (recorded in the target): its origin
(`L['x'].size()[0]`, from `var_to_sources`), its value range (`var_to_range`), its hint (the
value seen when it was created), the guards that mention it, and its specialization chain: where it
was created, then each guard, replacement or range refinement that narrowed or specialized it, with
the user's line, and its final state. Up/down pick a symbol.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from tcdebug.analysis.why import chain_lines, chain_source
from tcdebug.model.payloads import ChainStep, ProvSymbol
from tcdebug.model.session import Compile
from tcdebug.textsafe import safe_line


def symbol_summary(name: str, info: ProvSymbol) -> Text:
    sources = info.sources
    text = Text(f"{safe_line(name):<8}", "bold")
    text.append(f"{safe_line(sources[0]) if sources else 'origin unknown':<28} ", "cyan")
    text.append(f"range {safe_line(info.range or '?')}  hint {safe_line(info.hint or '?')}", "dim")
    return text


def symbol_detail(name: str, info: ProvSymbol, chain: list[ChainStep] | None = None) -> Text:
    text = Text(f"{safe_line(name)}\n", "bold")
    sources = info.sources
    text.append("origin   ", "dim")
    text.append(", ".join(safe_line(s) for s in sources) or "not recorded (a derived or unbacked symbol)")
    text.append("\nrange    ", "dim")
    text.append(safe_line(info.range or "not recorded"))
    text.append("\nhint     ", "dim")
    text.append(safe_line(info.hint or "none (no value seen)"))
    guards = info.guards
    text.append(f"\nguards   {len(guards)} mention it", "dim")
    for guard in guards[:40]:
        text.append(f"\n  {safe_line(guard)}")
    if chain:
        text.append("\nchain    how it was narrowed or specialized, in order", "dim")
        for line in chain_lines(chain):
            text.append(f"\n  {safe_line(line)}", "bold" if line.startswith("Final:") else "")
    return text


class SymbolsScreen(Screen[None]):
    CSS_PATH = "symbols_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,S", "app.pop_screen", "Back", id="close_symbols"),
    ]

    def __init__(self, comp: Compile) -> None:
        super().__init__()
        self.comp = comp
        known = dict(comp.provenance.symbols)
        for symbol, steps in comp.symbol_chains.items():  # a symbol specialized away has only its chain
            if symbol not in known:
                source = chain_source(steps)
                known[symbol] = ProvSymbol(sources=[source] if source else [])
        self.symbols = dict(sorted(known.items(), key=lambda kv: _symbol_order(kv[0])))

    def compose(self) -> ComposeResult:
        yield Static(id="symbols-title")
        yield OptionList(id="symbols-list")
        yield Static(id="symbols-detail")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        title = f"symbolic sizes of {self.comp.compile_id} {self.comp.shown_name}: {len(self.symbols)}"
        if not self.symbols and self.comp.status == "compiling":
            title += " (none known so far: Dynamo is still compiling this frame)"
        elif not self.symbols:
            title += " (all sizes static: nothing was made dynamic)"
        self.query_one("#symbols-title", Static).update(Text(safe_line(title), "bold"))
        options = self.query_one("#symbols-list", OptionList)
        for name, info in self.symbols.items():
            options.add_option(Option(symbol_summary(name, info), id=name))
        if self.symbols:
            options.highlighted = 0
            self._show(next(iter(self.symbols)))
        options.focus()

    @on(OptionList.OptionHighlighted, "#symbols-list")
    def _moved(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option.id or "")

    def _show(self, name: str) -> None:
        info = self.symbols.get(name)
        if info is not None:
            chain = self.comp.symbol_chains.get(name)
            self.query_one("#symbols-detail", Static).update(symbol_detail(name, info, chain))


def _symbol_order(name: str) -> tuple[str, int]:
    head = name.rstrip("0123456789")
    tail = name[len(head) :]
    return head, int(tail) if tail else -1
