"""The catalogue of pipeline stages: stable ids, titles, highlight languages and order.

Stage ids are part of the dump format (`session.json`) and of the CLI (`--break`),
so they never change meaning.
"""

from __future__ import annotations

from dataclasses import dataclass

# When a compile has a stage (`StageKind.expect`). Everything that asks "which stages should be
# here?" reads it: the recorder (what it marks `not captured` at the end of a compile), the
# timeline (rows still to come), the tests' expected stage lists (`expected_keys`).
ALWAYS = "always"  # every Dynamo compile; the recorder says why when one never came
TRAINING = "training"  # AOTAutograd's training graphs (an input requires grad)
INFERENCE = "inference"  # AOTAutograd's inference graph (no input requires grad)
INDUCTOR = "inductor"  # once per compile that runs Inductor
PER_PART = "per_part"  # once per graph part Inductor compiles: `id.forward`, `id.backward`, `id.inference`
GPU = "gpu"  # only on a GPU (CUDA graphs): never shown as still to come, never missed on the CPU
EXPORT = "export"  # only torch.export / AOTInductor compiles (keyed `-/-`)
VIEW = "view"  # another stage seen another way (bytecode as Python): never a pause point of its own
OTHER = "other"  # not in the catalogue (`artifact_<name>` of a trace, a newer dump's stage): never expected
EXPECTATIONS = (ALWAYS, TRAINING, INFERENCE, INDUCTOR, PER_PART, GPU, EXPORT, VIEW, OTHER)


@dataclass(frozen=True)
class StageKind:
    id: str
    title: str
    language: str  # a pygments lexer alias, or "text"/"dis"/"guards"/"ir"
    ext: str  # file extension used in dumps
    expect: str = ALWAYS  # when a compile has it: one of EXPECTATIONS
    graph: bool = False  # an FX graph: compared across the ranks of a job, read for provenance in traces
    trace: str = ""  # the structured-trace event key or artifact name that carries it (TORCH_TRACE logs)
    short: str = ""  # the timeline's name for it, when the id is long
    # An AOTAutograd stage the recorder marks `not captured` when a compile of its mode ends
    # without it (False, aot_joint: shown when torch logs it, never reported missing).
    marked_missing: bool = True
    # TORCH_TRACE logs hold it only sometimes (bytecode: resume functions only) or never: the
    # trace converter marks it `not captured` when a compile's log has none.
    maybe_untraced: bool = False

    def file_name(self, part: str = "") -> str:
        """Its file in a dump: the stage key, never a position (`kernel_source.forward.py`), so a
        stage added to the catalogue renames no file."""
        return f"{stage_key(self.id, part)}.{self.ext}"


# In pipeline order (the order shown). Adding a stage: DEVELOPERS.md, "Adding a stage".
STAGE_KINDS: tuple[StageKind, ...] = (
    StageKind("source", "Source of the compiled frame", "python", "py", maybe_untraced=True),
    StageKind("bytecode_before", "Bytecode before Dynamo", "dis", "txt", maybe_untraced=True),
    StageKind("dynamo_graph", "Dynamo FX graph", "python", "py", graph=True, trace="dynamo_output_graph"),
    StageKind(
        "export_program",
        "torch.export program (graph, signature, range constraints)",
        "python",
        "py",
        expect=EXPORT,
    ),
    # The payload ends with the graph's object id (`# graph id: ...`), new in every process: not
    # compared across ranks (`graph=False`).
    StageKind(
        "inductor_pre_grad_graph", "Inductor graph after its pre-grad passes", "python", "py",
        expect=INDUCTOR, trace="after_pre_grad_graph", short="pre_grad",
    ),
    StageKind(
        "aot_joint", "AOTAutograd joint graph", "python", "py",
        expect=TRAINING, graph=True, trace="aot_joint_graph", marked_missing=False,
    ),
    StageKind(
        "aot_forward", "AOTAutograd forward graph", "python", "py",
        expect=TRAINING, graph=True, trace="aot_forward_graph",
    ),
    StageKind(
        "aot_backward", "AOTAutograd backward graph", "python", "py",
        expect=TRAINING, graph=True, trace="aot_backward_graph",
    ),
    StageKind(
        "aot_inference", "AOTAutograd inference graph", "python", "py",
        expect=INFERENCE, graph=True, trace="aot_inference_graph",
    ),
    StageKind(
        "inductor_post_grad_graph", "Inductor post-grad graph", "python", "py",
        expect=PER_PART, graph=True, trace="inductor_post_grad_graph", short="post_grad",
    ),
    StageKind(
        "inductor_ir_pre_fusion", "Inductor IR before fusion", "ir", "txt",
        expect=PER_PART, trace="ir_pre_fusion", short="ir_pre_fusion", maybe_untraced=True,
    ),
    StageKind(
        "inductor_ir_post_fusion", "Inductor IR after fusion", "ir", "txt",
        expect=PER_PART, trace="ir_post_fusion", short="ir_post_fusion", maybe_untraced=True,
    ),
    StageKind("kernel_source", "Fused kernel source", "python", "py", expect=PER_PART),
    StageKind("aoti_wrapper", "AOTInductor wrapper code", "cpp", "cpp", expect=EXPORT),
    StageKind("guards", "Guards", "guards", "txt"),
    StageKind("bytecode_after", "Bytecode after Dynamo", "dis", "txt", maybe_untraced=True),
    StageKind("bytecode_after_python", "Transformed code as Python (depyf)", "python", "py", expect=VIEW),
    StageKind("cudagraph", "CUDA graph capture", "text", "txt", expect=GPU),
)  # fmt: skip

STAGE_IDS: tuple[str, ...] = tuple(k.id for k in STAGE_KINDS)
_BY_ID = {k.id: k for k in STAGE_KINDS}
ORDER = {k.id: i for i, k in enumerate(STAGE_KINDS)}
# Where each stage sits in the pipeline (the order shown): the catalogue's order.
PIPELINE_ORDER: dict[str, float] = {k.id: float(i) for i, k in enumerate(STAGE_KINDS)}

# Which graph a stage belongs to when one compile runs several backend compiles
# (training compiles the backward lazily, at the first .backward() call).
GRAPH_PARTS = ("forward", "backward", "inference")


def expected(*kinds: str) -> tuple[str, ...]:
    """The ids of the stages expected that way (`expected(ALWAYS)`), in pipeline order."""
    return tuple(k.id for k in STAGE_KINDS if k.expect in kinds)


# Stages every Dynamo compile has: the recorder marks the missing ones `not captured`.
ALWAYS_STAGES = expected(ALWAYS)
# The stages of one Inductor compile: their part is the graph Inductor is compiling at the time.
INDUCTOR_STAGES = expected(PER_PART)
# The FX graph stages, in pipeline order: compared across ranks, and read for provenance in traces.
GRAPH_STAGES = tuple(k.id for k in STAGE_KINDS if k.graph)
# structured-trace event key or artifact name -> stage id (TORCH_TRACE logs; see `StageKind.trace`)
TRACE_NAMES: dict[str, str] = {k.trace: k.id for k in STAGE_KINDS if k.trace}
# AOTAutograd's stages -> the mode their arrival shows it runs in (TRAINING or INFERENCE).
AOT_MODES: dict[str, str] = {k.id: k.expect for k in STAGE_KINDS if k.expect in (TRAINING, INFERENCE)}
# The stages a TORCH_TRACE log may lack (`StageKind.maybe_untraced`), in pipeline order.
MAYBE_UNTRACED: tuple[str, ...] = tuple(k.id for k in STAGE_KINDS if k.maybe_untraced)


def marked_missing(aot_mode: str) -> tuple[str, ...]:
    """The AOTAutograd stages of `aot_mode` (TRAINING or INFERENCE) the recorder marks `not
    captured` when they never came (`StageKind.marked_missing`), in pipeline order."""
    return tuple(k.id for k in STAGE_KINDS if k.expect == aot_mode and k.marked_missing)


def expected_keys(aot_mode: str, *, inductor: bool = True, gpu: bool = False) -> list[str]:
    """The stage keys a Dynamo compile has, in pipeline order: `aot_mode` "inference" or
    "training" (forward and backward), `inductor` when its backend runs Inductor, `gpu` with
    CUDA graphs."""
    parts = ["inference"] if aot_mode == INFERENCE else ["forward", "backward"]
    wanted = {ALWAYS, VIEW, aot_mode} | ({INDUCTOR, PER_PART} if inductor else set()) | ({GPU} if gpu else set())
    keys = [
        stage_key(k.id, part)
        for k in STAGE_KINDS
        if k.expect in wanted
        for part in (parts if k.expect in (PER_PART, GPU) else [""])
    ]
    return sorted(keys, key=sort_key)


def kind(stage_id: str) -> StageKind:
    """The kind for a stage id; unknown ids (e.g. from newer dumps) get a text kind."""
    return _BY_ID.get(stage_id) or StageKind(
        stage_id, stage_id.replace("_", " ").title(), "text", "txt", expect=OTHER
    )


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
