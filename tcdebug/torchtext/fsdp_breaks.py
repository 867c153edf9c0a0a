"""FSDP2 (`torch.distributed.fsdp.fully_shard`) in a compile: which graph breaks are its hooks.

FSDP2 registers module hooks on every module given to `fully_shard` (all-gather the parameters
before its forward, reshard after; the same around the backward). torch wraps them in
`torch._dynamo.disable(..., reason="skipping FSDP hooks")` (`_fully_shard/_fsdp_common.py`), so
Dynamo never traces them: a compiled forward that calls an FSDP module breaks its graph there, and
the module's own forward becomes a new frame. torch's break text does not name FSDP: torch 2.13
says "Attempted to call function marked as skipped", torch 2.14 "Call to `torch._dynamo.disable()`"
(with a hint to move that call, which is FSDP2's own); the user stack's innermost frame, in FSDP2's
own files, is what tells it apart. That is inferred from the stack, and said so. Stdlib only.
"""

from __future__ import annotations

from tcdebug.model.session import GraphBreak

FSDP2_DIR = "torch/distributed/fsdp/_fully_shard/"

FSDP2_HOOK_NOTE = (
    "FSDP2 hook (inferred from the user stack): a fully_shard module's hook (all-gather or reshard of "
    "its parameters), which torch runs outside the graph (torch._dynamo.disable, reason \"skipping FSDP "
    "hooks\"); the FSDP module's own forward is compiled as a frame of its own"
)


def is_fsdp2_hook(gb: GraphBreak) -> bool:
    """The break happened at an FSDP2 hook: the innermost frame of its user stack is in FSDP2's files."""
    if not gb.user_stack:
        return False
    innermost = gb.user_stack[-1].replace("\\", "/")
    return FSDP2_DIR in innermost
