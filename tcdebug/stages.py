"""The catalogue of pipeline stages: stable ids, titles, highlight languages and order.

Stage ids are part of the dump format (`session.json`) and of the CLI (`--break`),
so they never change meaning.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StageKind:
    id: str
    title: str
    language: str  # a pygments lexer alias, or "text"/"dis"/"guards"/"ir"
    ext: str  # file extension used in dumps


STAGE_KINDS: tuple[StageKind, ...] = (
    StageKind("source", "Source of the compiled frame", "python", "py"),
    StageKind("bytecode_before", "Bytecode before Dynamo", "dis", "txt"),
    StageKind("dynamo_graph", "Dynamo FX graph", "python", "py"),
    StageKind("aot_joint", "AOTAutograd joint graph", "python", "py"),
    StageKind("aot_forward", "AOTAutograd forward graph", "python", "py"),
    StageKind("aot_backward", "AOTAutograd backward graph", "python", "py"),
    StageKind("aot_inference", "AOTAutograd inference graph", "python", "py"),
    StageKind("inductor_post_grad_graph", "Inductor post-grad graph", "python", "py"),
    StageKind("inductor_ir_pre_fusion", "Inductor IR before fusion", "ir", "txt"),
    StageKind("inductor_ir_post_fusion", "Inductor IR after fusion", "ir", "txt"),
    StageKind("kernel_source", "Fused kernel source", "python", "py"),
    StageKind("guards", "Guards", "guards", "txt"),
    StageKind("bytecode_after", "Bytecode after Dynamo", "dis", "txt"),
    StageKind("bytecode_after_python", "Transformed code as Python (depyf)", "python", "py"),
    StageKind("cudagraph", "CUDA graph capture", "text", "txt"),
    # Appended so the dump file numbers (`ORDER`) of the stages above never change.
    StageKind("export_program", "torch.export program (graph, signature, range constraints)", "python", "py"),
    StageKind("aoti_wrapper", "AOTInductor wrapper code", "cpp", "cpp"),
)

STAGE_IDS: tuple[str, ...] = tuple(k.id for k in STAGE_KINDS)
_BY_ID = {k.id: k for k in STAGE_KINDS}
ORDER = {k.id: i for i, k in enumerate(STAGE_KINDS)}
# Where each stage sits in the pipeline (the order shown); later additions slot in between.
PIPELINE_ORDER: dict[str, float] = {
    **ORDER,
    "export_program": ORDER["dynamo_graph"] + 0.5,
    "aoti_wrapper": ORDER["kernel_source"] + 0.5,
}

# Which graph a stage belongs to when one compile runs several backend compiles
# (training compiles the backward lazily, at the first .backward() call).
GRAPH_PARTS = ("forward", "backward", "inference")
# The stages of one Inductor compile: their part is the graph Inductor is compiling at the time.
INDUCTOR_STAGES = (
    "inductor_post_grad_graph",
    "inductor_ir_pre_fusion",
    "inductor_ir_post_fusion",
    "kernel_source",
)

# The FX graph stages, in pipeline order: compared across ranks, and read for provenance in traces.
GRAPH_STAGES = (
    "dynamo_graph",
    "aot_joint",
    "aot_forward",
    "aot_backward",
    "aot_inference",
    "inductor_post_grad_graph",
)


def kind(stage_id: str) -> StageKind:
    """The kind for a stage id; unknown ids (e.g. from newer dumps) get a text kind."""
    return _BY_ID.get(stage_id) or StageKind(stage_id, stage_id.replace("_", " ").title(), "text", "txt")


def stage_key(stage_id: str, part: str = "") -> str:
    """The key of a stage inside one compile: `kernel_source` or `kernel_source.backward`."""
    return f"{stage_id}.{part}" if part else stage_id


def split_key(key: str) -> tuple[str, str]:
    stage_id, _, part = key.partition(".")
    return stage_id, part


def sort_key(key: str) -> tuple[float, int]:
    """Pipeline order: per stage id, forward parts before backward parts."""
    stage_id, part = split_key(key)
    part_rank = {"": 0, "forward": 0, "inference": 0, "backward": 1}.get(part, 2)
    # backward-part inductor stages run after the forward compile finished.
    if part == "backward" and stage_id not in ("aot_backward",):
        return (100 + PIPELINE_ORDER.get(stage_id, 99), part_rank)
    return (PIPELINE_ORDER.get(stage_id, 99), part_rank)
