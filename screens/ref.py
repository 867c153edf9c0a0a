"""`Ref`: what a timeline row points at (a compile, a stage, a kernel or an item), as a value.

Its `id` is the row's option id; `Ref.from_id` reads one back.
"""

from __future__ import annotations

from dataclasses import dataclass

from tcdebug.model import stages as stage_catalog


def _encode_part(part: str) -> str:
    """A part of an option id: names from a log may hold the separator (\\x1f) or the escape (\\x1e)."""
    if "\x1e" in part or "\x1f" in part:
        return part.replace("\x1e", "\x1e0").replace("\x1f", "\x1e1")
    return part


def _decode_part(part: str) -> str:
    return part.replace("\x1e1", "\x1f").replace("\x1e0", "\x1e") if "\x1e" in part else part


@dataclass(frozen=True, slots=True)
class Ref:
    """What a timeline row points at."""

    compile_id: str
    key: str = ""  # a stage key; "" for the compile row itself
    kernel: str = ""  # a kernel name inside a kernel_source stage
    item: str = ""  # "pending", "break:N", "recompile", "error", "divergence:N"

    @property
    def id(self) -> str:
        return "\x1f".join(map(_encode_part, (self.compile_id, self.key, self.kernel, self.item)))

    @classmethod
    def from_id(cls, option_id: str) -> Ref:
        compile_id, key, kernel, item = map(_decode_part, option_id.split("\x1f"))
        return cls(compile_id, key, kernel, item)

    @property
    def stage_id(self) -> str:
        return stage_catalog.split_key(self.key)[0] if self.key else ""

    @property
    def is_stage(self) -> bool:
        return bool(self.key) and not self.kernel and self.item == ""
