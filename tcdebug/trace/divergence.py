"""A way the ranks of a job differ (`Divergence`), as the rank analyses report it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Divergence:
    """One way the ranks differ. `groups` maps a value's label to the rank entries that have it.

    Rank entries are labels (`session.ranks` keys): "0", "1", and "1 (2)" for a second log of rank 1.
    """

    # "compile_ids", "graph", "recompile_reason", "status"; from Inductor's records (`rank_records`):
    # "collectives", "collectives_parity", "cache", "execution_order", "tensor_meta", "runtime"
    kind: str
    compile_id: str
    detail: str
    ranks: list[str] = field(default_factory=list)  # entries that differ from the first entry
    groups: dict[str, list[str]] = field(default_factory=dict)
    stage_key: str = ""  # for "graph": the first stage whose graph differs
    texts: dict[str, str] = field(
        default_factory=dict
    )  # each side's sequence, one item a line (`d` diffs them)

    @property
    def summary(self) -> str:
        return f"{self.compile_id} {self.detail}"


def ranks_text(labels: list[str]) -> str:
    """ "rank 1", "ranks 0, 2"."""
    return f"rank{'s' if len(labels) > 1 else ''} {', '.join(labels)}"
