"""Every IR text of an Inductor compile's stage, not just the last one logged.

Inductor runs one scheduler per graph it lowers: the compiled graph, then each subgraph of a
higher-order op it lowers itself (`torch.cond`'s branches, `invoke_subgraph`, ...), and each
scheduler logs its IR before and after fusion. The IR stages hold all of them, in the order
torch logged them, each still starting with torch's own `BEFORE FUSION` / `AFTER FUSION` line.
Both the inductor_ir unit (the stage's text) and the provenance unit (where each node's lines are
in that text) read a record through `IrTexts.add`, which places each record once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

SEPARATOR = "\n\n"  # between two schedulers' texts


@dataclass(frozen=True)
class PlacedText:
    text: str  # the stage's whole text so far, this record's last
    first_line: int  # the line (0-based) of the stage's text where this record's text starts
    blocks: int  # how many schedulers' texts the stage holds
    lines: int  # how many lines `text` has


class IrTexts:
    """The IR texts so far of the compile and part a stage was last logged for (one per stage:
    a compile's schedulers run one after another; a record of another compile starts afresh)."""

    def __init__(self) -> None:
        self._current: dict[str, tuple[tuple[str, str], PlacedText]] = {}  # stage -> (cid, part), text
        self._last: tuple[logging.LogRecord, PlacedText] | None = None

    def add(self, record: logging.LogRecord, stage_id: str, compile_id: str, part: str) -> PlacedText:
        """Place `record` (a message of `stage_id`'s artifact logger) in its stage's text; the same
        record again gives the same answer (each unit's handler asks)."""
        if self._last is not None and self._last[0] is record:
            return self._last[1]
        message = record.getMessage()
        before = self._current.get(stage_id)
        if before is None or before[0] != (compile_id, part):
            placed = PlacedText(message, 0, 1, message.count("\n") + 1)
        else:
            so_far = before[1]
            first = so_far.lines + SEPARATOR.count("\n") - 1
            placed = PlacedText(
                so_far.text + SEPARATOR + message, first, so_far.blocks + 1, first + message.count("\n") + 1
            )
        self._current[stage_id] = ((compile_id, part), placed)
        self._last = (record, placed)
        return placed
