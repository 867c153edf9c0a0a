"""Dynamo's size symbols (`s77`, unbacked `u3`) named by their origins (`L['x'].size()[0]`).

Torch-free: reads the symbols a compile's provenance index holds (from its `ShapeEnv`, recorded
in the target) so every screen that shows `s77` can say what it is, the same way the
symbols screen (`S`) does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from tcdebug.model.payloads import ProvSymbol

_SYMBOL = re.compile(r"\b[su]\d+\b")


@dataclass(frozen=True)
class SymbolName:
    name: str  # s77
    origin: str  # L['x'].size()[0], or "origin unknown"
    range: str  # [2, int_oo], or ""
    compiles: tuple[str, ...]  # the compiles whose symbol of this name has this origin


def origin_of(info: ProvSymbol) -> str:
    sources = info.sources
    return ", ".join(sources) if sources else "origin unknown"


def symbols_in(text: str, symbols: dict[str, ProvSymbol]) -> list[str]:
    """The symbols of `symbols` that `text` mentions, in numeric order."""
    if not symbols:
        return []
    found = {m.group(0) for m in _SYMBOL.finditer(text)} & set(symbols)
    return sorted(found, key=_order)


def named(sides: Iterable[tuple[str, str, dict[str, ProvSymbol]]]) -> list[SymbolName]:
    """For each (compile id, text, that compile's symbols): the symbols its text mentions, merged
    where two compiles give one name the same origin."""
    merged: dict[tuple[str, str], SymbolName] = {}
    for compile_id, text, symbols in sides:
        for name in symbols_in(text, symbols):
            info = symbols[name]
            key = (name, origin_of(info))
            old = merged.get(key)
            compiles = (*old.compiles, compile_id) if old else (compile_id,)
            merged[key] = SymbolName(name, key[1], info.range, compiles)
    return sorted(merged.values(), key=lambda s: (_order(s.name), s.compiles))


def legend(entries: list[SymbolName], all_compiles: int) -> str:
    """`s77 = L['x'].size()[0] [2, int_oo] · …`; a compile id in front where not every compile
    shown gives the name that origin."""
    parts = []
    for entry in entries:
        where = f"{', '.join(entry.compiles)}: " if len(entry.compiles) < all_compiles else ""
        rng = f" {entry.range}" if entry.range else ""
        parts.append(f"{where}{entry.name} = {entry.origin}{rng}")
    return " · ".join(parts)


def symbol_for_dim(symbols: dict[str, ProvSymbol], input_name: str, dim: int) -> str:
    """The symbol a compile gave dimension `dim` of input `input_name` (`L['x'].size()[0]`), or ""."""
    wanted = f"L[{input_name!r}].size()[{dim}]"
    for name in sorted(symbols, key=_order):
        if wanted in symbols[name].sources:
            return name
    return ""


def _order(name: str) -> tuple[str, int]:
    head = name.rstrip("0123456789")
    tail = name[len(head) :]
    return head, int(tail) if tail else -1
