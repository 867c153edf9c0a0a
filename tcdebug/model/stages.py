"""The catalogue of pipeline stages: stable ids, titles, highlight languages and order.

Stage ids are part of the dump format (`session.json`) and of the CLI (`--break`),
so they never change meaning.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

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
CA_CAPTURE = "ca_capture"  # only compiled autograd's captures of a backward (keyed `!N`)
VIEW = "view"  # another stage seen another way (bytecode as Python): never a pause point of its own
OTHER = "other"  # not in the catalogue (`artifact_<name>` of a trace, a newer dump's stage): never expected
EXPECTATIONS = (ALWAYS, TRAINING, INFERENCE, INDUCTOR, PER_PART, GPU, EXPORT, CA_CAPTURE, VIEW, OTHER)

# How a structured-trace record is named (`StageKind.carrier`, `records.RecordKind.carrier`).
ENVELOPE = "envelope"  # its envelope key: `{"dynamo_output_graph": {...}, "frame_id": 0, ...}`
ARTIFACT = "artifact"  # an `artifact` record, by its metadata's name
GRAPH_DUMP = "graph_dump"  # a `graph_dump` record (a generated file), by its metadata's name
CARRIERS = (ENVELOPE, ARTIFACT, GRAPH_DUMP)


class StageKind(NamedTuple):
    """A stage of the pipeline: its id, title, language, dump extension and trace record."""

    id: str
    title: str
    language: str  # a pygments lexer alias, or "text"/"dis"/"guards"/"ir"
    ext: str  # file extension used in dumps
    expect: str = ALWAYS  # when a compile has it: one of EXPECTATIONS
    graph: bool = False  # an FX graph: compared across the ranks of a job, read for provenance in traces
    # The structured-trace record that carries it (TORCH_TRACE logs, and the live dispatcher's route):
    # its name and `carrier`: an envelope key (ENVELOPE), an `artifact` record's name (ARTIFACT), a
    # `graph_dump` record's name (GRAPH_DUMP); "" for a stage no record carries (a hook captures it).
    # `tcdebug.model.records` registers it, and declares the records that carry no stage.
    trace: str = ""
    carrier: str = ENVELOPE
    short: str = ""  # the timeline's name for it, when the id is long
    # An AOTAutograd stage the recorder marks `not captured` when a compile of its mode ends
    # without it (False, aot_joint: shown when torch logs it, never reported missing).
    marked_missing: bool = True
    # TORCH_TRACE logs hold it only sometimes (bytecode: resume functions only) or never: the
    # trace converter marks it `not captured` when a compile's log has none.
    maybe_untraced: bool = False
    # Why a compile that ended has no such stage (the recorder's `not captured` reason): `missing`
    # when it had a Dynamo graph ("" for torch's silence, `NOT_REPORTED`), `missing_without_graph`
    # when Dynamo produced none ("" for `missing`).
    missing: str = ""
    missing_without_graph: str = ""
    inductor: bool = False  # Inductor's compile of a graph produces it: its arrival shows Inductor ran
    # An AOTAutograd graph: the Inductor part that compiles it (`forward`), and the stage of the other
    # graph of its pair (aot_forward <-> aot_backward).
    aot_part: str = ""
    partner: str = ""
    updatable: bool = False  # facts keep arriving after it was sent (`Recorder.update_stage`)

    def file_name(self, part: str = "") -> str:
        """Its file in a dump: the stage key, never a position (`kernel_source.forward.py`), so a
        stage added to the catalogue renames no file."""
        return f"{stage_key(self.id, part)}.{self.ext}"


# In pipeline order (the order shown). Adding a stage: DEVELOPERS.md, "Adding a stage".
STAGE_KINDS: tuple[StageKind, ...] = (
    StageKind("source", "Source of the compiled frame", "python", "py", maybe_untraced=True),
    StageKind("bytecode_before", "Bytecode before Dynamo", "dis", "txt", maybe_untraced=True),
    StageKind(
        "dynamo_graph", "Dynamo FX graph", "python", "py", graph=True, trace="dynamo_output_graph",
        missing="Dynamo produced no graph for this frame (nothing to compile, or it was skipped)",
    ),
    StageKind(
        "export_program",
        "torch.export program (graph, signature, range constraints)",
        "python",
        "py",
        expect=EXPORT, trace="exported_program",
    ),
    # Compiled autograd's capture of the autograd graph a backward call runs (`!N`): the graph as
    # traced, then after compiled autograd reorders its hooks and accumulations (what Dynamo gets).
    StageKind(
        "ca_graph_pre_reordering", "Compiled autograd graph, as traced (before reordering)", "python", "py",
        expect=CA_CAPTURE, trace="compiled_autograd_graph_pre_reordering", carrier=ARTIFACT, short="ca_traced",
        marked_missing=False,
    ),
    StageKind(
        "ca_graph", "Compiled autograd graph", "python", "py",
        expect=CA_CAPTURE, trace="compiled_autograd_graph",
    ),
    # The payload ends with the graph's object id (`# graph id: ...`), new in every process: not
    # compared across ranks (`graph=False`).
    StageKind(
        "inductor_pre_grad_graph", "Inductor graph after its pre-grad passes", "python", "py",
        expect=INDUCTOR, trace="after_pre_grad_graph", carrier=ARTIFACT, short="pre_grad", inductor=True,
    ),
    StageKind(
        "aot_joint", "AOTAutograd joint graph", "python", "py",
        expect=TRAINING, graph=True, trace="aot_joint_graph", marked_missing=False,
    ),
    StageKind(
        "aot_forward", "AOTAutograd forward graph", "python", "py",
        expect=TRAINING, graph=True, trace="aot_forward_graph",
        missing="torch did not report this AOTAutograd graph", aot_part="forward", partner="aot_backward",
    ),
    StageKind(
        "aot_backward", "AOTAutograd backward graph", "python", "py",
        expect=TRAINING, graph=True, trace="aot_backward_graph",
        missing="torch did not report this AOTAutograd graph", aot_part="backward", partner="aot_forward",
    ),
    StageKind(
        "aot_inference", "AOTAutograd inference graph", "python", "py",
        expect=INFERENCE, graph=True, trace="aot_inference_graph",
        missing="torch did not report the inference graph", aot_part="inference",
    ),
    StageKind(
        "inductor_post_grad_graph", "Inductor post-grad graph", "python", "py",
        expect=PER_PART, graph=True, trace="inductor_post_grad_graph", carrier=ARTIFACT, short="post_grad",
        inductor=True,
    ),
    StageKind(
        "inductor_ir_pre_fusion", "Inductor IR before fusion", "ir", "txt",
        expect=PER_PART, trace="ir_pre_fusion", carrier=ARTIFACT, short="ir_pre_fusion", maybe_untraced=True,
        inductor=True,
    ),
    StageKind(
        "inductor_ir_post_fusion", "Inductor IR after fusion", "ir", "txt",
        expect=PER_PART, trace="ir_post_fusion", carrier=ARTIFACT, short="ir_post_fusion", maybe_untraced=True,
        inductor=True,
    ),
    StageKind(
        "kernel_source", "Fused kernel source", "python", "py",
        expect=PER_PART, trace="inductor_output_code", inductor=True, updatable=True,
    ),
    StageKind(
        "aoti_wrapper", "AOTInductor wrapper code", "cpp", "cpp",
        expect=EXPORT, trace="inductor_aot_wrapper_code", carrier=GRAPH_DUMP, inductor=True,
    ),
    StageKind(
        "guards", "Guards", "guards", "txt", trace="dynamo_cpp_guards_str",
        missing_without_graph="Dynamo installed no guarded code for this frame",
    ),
    StageKind(
        "bytecode_after", "Bytecode after Dynamo", "dis", "txt", maybe_untraced=True,
        missing_without_graph="Dynamo installed no guarded code for this frame",
    ),
    StageKind("bytecode_after_python", "Transformed code as Python (depyf)", "python", "py", expect=VIEW),
    StageKind("cudagraph", "CUDA graph capture", "text", "txt", expect=GPU),
)  # fmt: skip

STAGE_IDS: tuple[str, ...] = tuple(k.id for k in STAGE_KINDS)
_BY_ID = {k.id: k for k in STAGE_KINDS}
# The stages other code names by role: a compile's source, its Dynamo graph (has Dynamo produced one?), a part's
# output code (a part that has it is compiled), Dynamo's bytecode before and after (sent after the
# guards), compiled autograd's graph.
SOURCE = _BY_ID["source"].id
DYNAMO_GRAPH = _BY_ID["dynamo_graph"].id
OUTPUT_CODE = _BY_ID["kernel_source"].id
BYTECODE_BEFORE = _BY_ID["bytecode_before"].id
CA_GRAPH = _BY_ID["ca_graph"].id  # the graph a compiled autograd capture (`!N`) ends with
BYTECODE_AFTER = _BY_ID["bytecode_after"].id
NOT_REPORTED = "torch did not report this stage"  # a missing stage's reason when nothing says more
ORDER = {k.id: i for i, k in enumerate(STAGE_KINDS)}
# Where each stage sits in the pipeline (the order shown): the catalogue's order.
PIPELINE_ORDER: dict[str, float] = {k.id: float(i) for i, k in enumerate(STAGE_KINDS)}

# Which graph a stage belongs to when one compile runs several backend compiles
# (training compiles the backward lazily, at the first .backward() call).
GRAPH_PARTS = ("forward", "backward", "inference")
# The stages of one AOTAutograd graph of a compile, each stage once per graph: pre-grad passes,
# AOTAutograd's graphs, Inductor's per-part stages.
SUBGRAPH_EXPECTATIONS = (INDUCTOR, TRAINING, INFERENCE, PER_PART)
# Stages that open a compile's next AOTAutograd graph when they come again (see
# `trace_format.Subgraphs`): the per-graph stages logged once per graph, before its Inductor parts.
GRAPH_OPENERS = ("inductor_pre_grad_graph", "aot_joint", "aot_forward", "aot_backward", "aot_inference")
SUBGRAPH = "subgraph"  # the part of a per-graph stage of subgraph N >= 1: `subgraph_1`


def graph_part(base: str, subgraph: int) -> str:
    """A stage's part in a compile that compiles several AOTAutograd graphs (DDPOptimizer's
    bucket split: one per `submod_N`): subgraph 0 keeps the plain part (`forward`, "" for a
    per-graph stage), subgraph N >= 1 gets `forward_N`, `backward_N`, `inference_N`, or
    `subgraph_N` for a per-graph stage (`aot_forward.subgraph_1`)."""
    if subgraph <= 0:
        return base
    return f"{base or SUBGRAPH}_{subgraph}"


def split_part(part: str) -> tuple[str, int]:
    """(`forward`, 1) from `forward_1`; ("", 1) from `subgraph_1`; (`forward`, 0) from `forward`."""
    base, sep, n = part.rpartition("_")
    if sep and n.isascii() and n.isdigit() and len(n) <= 6 and (base in GRAPH_PARTS or base == SUBGRAPH):
        return ("" if base == SUBGRAPH else base), int(n)
    return part, 0


def part_base(part: str) -> str:
    """`backward` for `backward` and `backward_2`: which graph of its AOTAutograd graph a part is."""
    return split_part(part)[0]


def part_label(part: str) -> str:
    """The part as titles say it: `forward`, `forward, subgraph 1`, `subgraph 1`."""
    base, subgraph = split_part(part)
    if not subgraph:
        return part
    return f"{base}, subgraph {subgraph}" if base else f"subgraph {subgraph}"


def part_suffix(part: str) -> str:
    """What a title adds for a part: ` (backward)`, ` (backward, subgraph 1)`; "" for none."""
    return f" ({part_label(part)})" if part else ""


def aot_key_for_part(part: str) -> str:
    """The key of the AOTAutograd graph an Inductor part compiles: `aot_forward` for `forward`,
    `aot_backward.subgraph_1` for `backward_1`; "" for a part that is none of them."""
    base, subgraph = split_part(part)
    stage_id = AOT_GRAPH_OF_PART.get(base)
    if stage_id is None:
        return ""
    return stage_key(stage_id, graph_part("", subgraph))


def subgraph_parts(parts: tuple[str, ...] | list[str], subgraphs: int) -> list[str]:
    """`parts` (forward, backward; "" for the per-graph stages) for each of a compile's
    `subgraphs` AOTAutograd graphs."""
    return [graph_part(p, n) for n in range(max(1, subgraphs)) for p in parts]


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
# The stages Inductor's compile of a graph produces (`StageKind.inductor`): one of them shows it ran.
INDUCTOR_PRODUCED: frozenset[str] = frozenset(k.id for k in STAGE_KINDS if k.inductor)
# Inductor's graph part (`forward`) -> the AOTAutograd graph it compiles (`StageKind.aot_part`).
AOT_GRAPH_OF_PART: dict[str, str] = {k.aot_part: k.id for k in STAGE_KINDS if k.aot_part}
# Stages whose facts keep arriving after they were sent (`StageKind.updatable`).
UPDATABLE: tuple[str, ...] = tuple(k.id for k in STAGE_KINDS if k.updatable)


def missing_reason(stage_id: str, *, has_graph: bool = True) -> str:
    """Why a compile that ended has no `stage_id` (`StageKind.missing`): `has_graph` when Dynamo
    produced a graph for it."""
    k = kind(stage_id)
    if not has_graph and k.missing_without_graph:
        return k.missing_without_graph
    return k.missing or NOT_REPORTED


def marked_missing(expect: str) -> tuple[str, ...]:
    """The stages expected `expect` (an AOTAutograd mode, TRAINING or INFERENCE, or CA_CAPTURE)
    that the recorder marks `not captured` when they never came (`StageKind.marked_missing`), in
    pipeline order."""
    return tuple(k.id for k in STAGE_KINDS if k.expect == expect and k.marked_missing)


def expected_keys(
    aot_mode: str, *, inductor: bool = True, gpu: bool = False, subgraphs: int = 1
) -> list[str]:
    """The stage keys a Dynamo compile has, in pipeline order: `aot_mode` "inference" or
    "training" (forward and backward), `inductor` when its backend runs Inductor, `gpu` with
    CUDA graphs, `subgraphs` AOTAutograd graphs (DDPOptimizer's bucket split)."""
    parts = ["inference"] if aot_mode == INFERENCE else ["forward", "backward"]
    wanted = {ALWAYS, VIEW, aot_mode} | ({INDUCTOR, PER_PART} if inductor else set()) | ({GPU} if gpu else set())
    keys = []
    for k in STAGE_KINDS:
        if k.expect not in wanted:
            continue
        if k.expect in (PER_PART, GPU):
            keys += [stage_key(k.id, part) for part in subgraph_parts(parts, subgraphs)]
        elif k.expect in SUBGRAPH_EXPECTATIONS:
            keys += [stage_key(k.id, part) for part in subgraph_parts([""], subgraphs)]
        else:
            keys.append(k.id)
    return sorted(keys, key=sort_key)


def kind(stage_id: str) -> StageKind:
    """The kind for a stage id; unknown ids (e.g. from newer dumps) get a text kind."""
    return _BY_ID.get(stage_id) or StageKind(
        stage_id, stage_id.replace("_", " ").title(), "text", "txt", expect=OTHER
    )


def artifact_stage_id(name: str) -> str:
    """The stage id of a structured-trace artifact shown as it is (`artifact_<name>`)."""
    return "artifact_" + re.sub(r"\W", "_", name)


def stage_key(stage_id: str, part: str = "") -> str:
    """The key of a stage inside one compile: `kernel_source` or `kernel_source.backward`."""
    return f"{stage_id}.{part}" if part else stage_id


def split_key(key: str) -> tuple[str, str]:
    stage_id, _, part = key.partition(".")
    return stage_id, part


@functools.lru_cache(maxsize=4096)  # few distinct keys, asked for on every sort of every compile's stages
@functools.lru_cache(maxsize=4096)  # a session's stage keys are few; every compile's stages are sorted
def sort_key(key: str) -> tuple[float, int, float, int]:
    """Pipeline order: per stage id, forward parts before backward parts; a compile's
    AOTAutograd graphs (subgraphs) one after the other, their backwards after every forward
    (Inductor compiles a backward at the first .backward())."""
    stage_id, part = split_key(key)
    base, subgraph = split_part(part)
    order = PIPELINE_ORDER.get(stage_id, 99)
    part_rank = {"": 0, "forward": 0, "inference": 0, "backward": 1}.get(base, 2)
    if base == "backward" and AOT_GRAPH_OF_PART.get("backward") != stage_id:
        return (100.0, subgraph, order, part_rank)
    if stage_id in _SUBGRAPH_STAGES:
        return (_SUBGRAPH_START, subgraph, order, part_rank)
    return (order, subgraph, order, part_rank)


_SUBGRAPH_STAGES = frozenset(k.id for k in STAGE_KINDS if k.expect in SUBGRAPH_EXPECTATIONS)
_SUBGRAPH_START = min(PIPELINE_ORDER[s] for s in _SUBGRAPH_STAGES)
