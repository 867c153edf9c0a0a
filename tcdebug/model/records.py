"""The registry of structured-trace records: what each record kind is, declared once.

One entry per record kind (an envelope key, an artifact's name, a `graph_dump`'s name), as tlparse's
`src/parsers.rs` has one parser per kind in `default_parsers`: which stage it carries (or which other
fact: a graph break, compilation metrics, chromium events, ...), which handler reads it, and how its
part is found. Both readers route through it: the live dispatcher (`tcdebug.capture.base`: a unit
subscribes to a declared record, a per-graph stage's record opens the next subgraph) and the log
converter (`tcdebug.trace.to_session`: one handler per `handler` name), and the log reader keeps the
envelope keys declared here (`ENVELOPE_KEYS`), counting the others as unknown.

Records of a stage come from the stage catalogue (`StageKind.trace`, `StageKind.carrier`): a stage
the generic handler reads needs no entry here. Declared here: the records a special handler reads,
the records that carry no stage, and the records deliberately ignored, each with its reason.

Every record's attempt is its envelope's `attempt` (Dynamo restarting its analysis), its compile its
envelope's `frame_id` / `frame_compile_id` / `compiled_autograd_id`; a record without them belongs to
the compile in flight (live) or to the open `-/-` compile (logs), unless `global_record` is False.

Standard library only (plus the stage catalogue): the UI process and the trace reader load it.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import tcdebug.model.stages as stage_catalog
from tcdebug.model.stages import ARTIFACT, ENVELOPE, GRAPH_DUMP

# ----- handlers: what reads a record (the log converter has one method per name) --------------
STAGE = "stage"  # its payload is its stage's text
OUTPUT_CODE = "output_code"  # Inductor's output code: kernel_source, split into kernels; its AOT id names its part
GUARDS = "guard_tree"  # the guard tree dump: the guards stage, with its guard count
BYTECODE = "bytecode"  # Dynamo's bytecode before / after its transformation
EXPORTED_PROGRAM = "exported_program"  # torch.export's program: ends its `-/-` compile
EXPORT_START = "export_start"  # torch.export starts: a new `-/-` compile
GRAPH_DUMP_FILE = "generated_file"  # generated code dumped as a file (AOTInductor's wrapper and kernels)
DATA_DEPENDENT_ERROR = "data_dependent_error"  # an export failed on a data-dependent guard
COMPILE_START = "compile_start"  # Dynamo starts a frame's compile
COMPILE_END = "compile_end"  # the compile's metrics: it ended (ok or failed)
BACKWARD_END = "backward_end"  # a lazily compiled backward's metrics
GRAPH_BREAK = "graph_break"
DDP_SPLIT = "ddp_split"  # DDPOptimizer's bucket split: a break of the compile, and its split graph
RECOMPILE = "recompile"  # why Dynamo's cache missed
CA_RECOMPILE = "ca_recompile"  # why compiled autograd's cache missed
CACHE_RESULT = "cache_result"  # a cache's hit / miss / bypass: a cache verdict, counted in the compile's metrics
COMPILE_TIMES = "compile_times"  # chromium events: the compile's phase times
LINK = "link"  # a link torch logs (a note)
TORCH_VERSION = "torch_version"
ARTIFACT_STAGE = "artifact_stage"  # any other artifact with a payload: stage `artifact_<name>`
PAYLOAD = "payload"  # an event no handler reads: stage `trace_<key>` when it carries a payload
INTERNED = "interned"  # interned strings, which later records refer to by number
SHAPES = "symbolic_shapes"  # a symbol created, a shape specialized, a guard added: the compile's shapes stage
DRAFT_EXPORT = "draft_export"  # a problem draft export worked around: the export's report
RUNTIME = "runtime"  # what ran after compiling (graph execution order): runtime data, never a compile
IGNORED = "ignored"  # read by nothing: `reason` says why
HANDLERS = (
    STAGE, OUTPUT_CODE, GUARDS, BYTECODE, EXPORTED_PROGRAM, EXPORT_START, GRAPH_DUMP_FILE,
    DATA_DEPENDENT_ERROR, COMPILE_START, COMPILE_END, BACKWARD_END, GRAPH_BREAK, DDP_SPLIT, RECOMPILE,
    CA_RECOMPILE, CACHE_RESULT, COMPILE_TIMES, LINK, TORCH_VERSION, ARTIFACT_STAGE, PAYLOAD, INTERNED,
    SHAPES, DRAFT_EXPORT, RUNTIME, IGNORED,
)  # fmt: skip

# ----- how a record's part is found -------------------------------------------------------------
NO_PART = ""  # once per compile
SUBGRAPH = "subgraph"  # a per-graph stage (`stages.GRAPH_OPENERS`): the subgraph open now; it may open the next
INDUCTOR_PART = "inductor"  # the graph part Inductor is compiling now
AOT_ID = "aot_id"  # its code's AOT id comment (`# AOT ID: ['1_backward']`), else the part Inductor compiles


class RecordKind(NamedTuple):
    """A kind of structured-trace record: how it is carried and recognised, and what handles it."""

    name: str  # the envelope key, the artifact's name, the graph_dump's name; a regex with `pattern`
    handler: str  # one of HANDLERS
    carrier: str = ENVELOPE  # stages.ENVELOPE, ARTIFACT or GRAPH_DUMP
    stage: str = ""  # the catalogue stage it carries (live; the log converter may name it otherwise)
    part: str = NO_PART  # how its part is found
    pattern: bool = False  # `name` is a regular expression over artifact names
    global_record: bool = True  # without a compile id, it belongs to a `-/-` compile (logs)
    opens_inductor: bool = False  # logged first by an Inductor compile of a graph: the part changes (logs)
    reason: str = ""  # why it is ignored, or what it is for

    @property
    def route(self) -> str:
        """The live dispatcher's key (`TraceDispatcher.on`): `artifact:<name>` for an artifact,
        the envelope key otherwise (`graph_dump` for any graph dump)."""
        if self.carrier == ARTIFACT:
            return f"artifact:{self.name}"
        return GRAPH_DUMP if self.carrier == GRAPH_DUMP else self.name


def _part_of_stage(stage_id: str, handler: str) -> str:
    if handler == OUTPUT_CODE:
        return AOT_ID
    if stage_id in stage_catalog.GRAPH_OPENERS:
        return SUBGRAPH
    if stage_catalog.kind(stage_id).expect == stage_catalog.PER_PART:
        return INDUCTOR_PART
    return NO_PART


def _stage_record(
    stage_id: str, handler: str = STAGE, *, name: str = "", carrier: str = "", pattern: bool = False, reason: str = ""
) -> RecordKind:
    """The record of a catalogue stage: its `StageKind.trace`, unless `name` says otherwise."""
    k = stage_catalog.kind(stage_id)
    return RecordKind(
        name or k.trace,
        handler,
        carrier=carrier or k.carrier,
        stage=k.id,
        part=_part_of_stage(k.id, handler),
        pattern=pattern,
        opens_inductor=(name or k.trace) in _OPENS_INDUCTOR,
        reason=reason,
    )


# Records an Inductor compile of a graph logs first (the FX graph cache's result closes it): the
# post-grad graph (its runnable form, before and after the passes) and, without them, the output code.
_OPENS_INDUCTOR = ("fx_graph_runnable", "before_post_grad_graph", "inductor_post_grad_graph", "inductor_output_code")
# Artifacts Inductor logs after a graph's output code, as part of compiling it, by name prefix. Any
# other artifact after the output code is no longer Inductor's (AOTAutograd's runtime wrappers:
# `backward_prologue`, `compiled_function_forward`, ...): with caches on, the FX graph cache record
# closes the compile before them; with caches off (as under tcdebug) none does.
INDUCTOR_AFTER_OUTPUT = ("inductor_", "triton_", "fx_graph_cache_")


def _read_by(trace: str, handler: str, reason: str = "") -> RecordKind:
    """The catalogue's record `trace` (`StageKind.trace`), read by a handler of its own."""
    return _stage_record(stage_catalog.TRACE_NAMES[trace], handler, reason=reason)


EXPORT_FAILED = "make_fx_fail_partial"  # the artifact that ends an export that failed
COLLECTIVE_SCHEDULE = "inductor_collective_schedule"  # a graph's collectives, as Inductor scheduled them
RUNTIME_AND_TENSOR_META = "inductor_runtime_and_tensor_meta"  # estimated runtime and tensor metadata per op
GRAPH_EXECUTED = "inductor_graph_execution"  # one run of a compiled graph
EXECUTION_ORDER = "graph_execution"  # the order compiled graphs ran in


def _ignored(name: str, reason: str) -> RecordKind:
    return RecordKind(name, IGNORED, global_record=False, reason=reason)


# Records of a stage that a handler of its own reads, and other carriers of a stage.
_SPECIAL_STAGE_RECORDS: tuple[RecordKind, ...] = (
    _read_by("inductor_output_code", OUTPUT_CODE),
    _read_by("dynamo_cpp_guards_str", GUARDS),
    _read_by("exported_program", EXPORTED_PROGRAM, reason="logs name its stage exported_program"),
    _read_by("inductor_aot_wrapper_code", GRAPH_DUMP_FILE, reason="logs name its stage aoti_wrapper_code"),
    _stage_record(
        stage_catalog.OUTPUT_CODE, GRAPH_DUMP_FILE, name="inductor_aot_kernel_code", carrier=GRAPH_DUMP,
        reason="AOTInductor's kernels: kernel_source, split into `extern \"C\"` kernels",
    ),
    _stage_record(
        stage_catalog.TRACE_NAMES["inductor_post_grad_graph"], name="inductor_post_grad_graph", carrier=ENVELOPE,
        reason="older torch logs it as an event of its own",
    ),
    _stage_record(
        stage_catalog.BYTECODE_BEFORE, BYTECODE, name=r"_ORIGINAL_BYTECODE$", carrier=ARTIFACT,
        pattern=True, reason="`<function>_ORIGINAL_BYTECODE` (resume functions only)",
    ),
    _stage_record(
        stage_catalog.BYTECODE_AFTER, BYTECODE, name=r"_MODIFIED_BYTECODE$", carrier=ARTIFACT,
        pattern=True, reason="`<function>_MODIFIED_BYTECODE` (resume functions only)",
    ),
)  # fmt: skip

# Records that carry no stage of the catalogue.
_OTHER_RECORDS: tuple[RecordKind, ...] = (
    RecordKind("str", INTERNED, global_record=False),
    RecordKind("dynamo_start", COMPILE_START, global_record=False),
    RecordKind("compilation_metrics", COMPILE_END),
    RecordKind("bwd_compilation_metrics", BACKWARD_END),
    RecordKind("aot_autograd_backward_compilation_metrics", BACKWARD_END),
    RecordKind("chromium_event", COMPILE_TIMES, global_record=False),
    RecordKind("link", LINK, global_record=False),
    RecordKind("export", EXPORT_START),
    RecordKind("guard_on_data_dependent_error", DATA_DEPENDENT_ERROR),
    RecordKind("optimize_ddp_split_graph", DDP_SPLIT),
    RecordKind("graph_dump", GRAPH_DUMP_FILE, reason="any other generated file: stage graph_dump_<name>"),
    RecordKind("dynamo_graph_break_reason", GRAPH_BREAK, carrier=ARTIFACT),
    RecordKind("recompile_reasons", RECOMPILE, carrier=ARTIFACT),
    RecordKind("compiled_autograd_compile_reasons", CA_RECOMPILE, carrier=ARTIFACT),
    RecordKind("torch_version", TORCH_VERSION, carrier=ARTIFACT, global_record=False),
    RecordKind(
        r"^(?P<cache>\w+?)_cache_(?P<result>hit|miss|bypass)$", CACHE_RESULT, carrier=ARTIFACT, pattern=True,
        reason="a cache verdict (FX graph, AOTAutograd), counted per cache; the FX graph cache's result also ends an Inductor compile",
    ),
    RecordKind(
        EXPORT_FAILED, ARTIFACT_STAGE, carrier=ARTIFACT,
        reason="the graph traced up to an export's error: that export is over",
    ),
    RecordKind(
        "triton_kernel_info", ARTIFACT_STAGE, carrier=ARTIFACT,
        reason="live: the kernels' Triton facts (kernel_source)",
    ),
    RecordKind(
        "inductor_provenance_tracking_node_mappings", ARTIFACT_STAGE, carrier=ARTIFACT,
        reason="live: kernel -> FX node mapping (kernel_source, provenance)",
    ),
    RecordKind(
        "before_pre_grad_graph", ARTIFACT_STAGE, carrier=ARTIFACT, part=SUBGRAPH,
        reason="logged first for each AOTAutograd graph: opens a compile's next subgraph (logs)",
    ),
    RecordKind(
        COLLECTIVE_SCHEDULE, ARTIFACT_STAGE, carrier=ARTIFACT,
        reason="the collectives Inductor scheduled in a graph: compared across ranks, checked against the output code's waits",
    ),
    RecordKind(
        RUNTIME_AND_TENSOR_META, ARTIFACT_STAGE, carrier=ARTIFACT,
        reason="estimated runtime per op and tensor metadata of a graph: compared across ranks",
    ),
    RecordKind(
        GRAPH_EXECUTED, RUNTIME, carrier=ARTIFACT, global_record=False,
        reason="a compiled graph ran: the rank's execution order",
    ),
    RecordKind(
        EXECUTION_ORDER, RUNTIME, carrier=ARTIFACT, global_record=False,
        reason="the order compiled graphs ran in (record_and_log_graph_execution_order)",
    ),
    RecordKind("compilation_metrics_runtime", RUNTIME, global_record=False, reason="runtime data of a compiled graph"),
    RecordKind("bwd_compilation_metrics_runtime", RUNTIME, global_record=False, reason="runtime data of a compiled graph"),
    RecordKind("create_symbol", SHAPES, reason="a dynamic size becomes a symbol (s0): symbolic shapes stage"),
    RecordKind("create_unbacked_symbol", SHAPES, reason="an unbacked symbol (u0, from .item()): symbolic shapes stage"),
    RecordKind(
        "symbolic_shape_specialization", SHAPES, reason="a dynamic size specialized to a value: symbolic shapes stage"
    ),
    RecordKind("guard_added", SHAPES, reason="a guard on symbols: symbolic shapes stage; evaluated in an export: its report"),
    RecordKind("guard_added_fast", SHAPES, reason="a guard on symbols: symbolic shapes stage"),
    RecordKind(
        "propagate_real_tensors_provenance", DRAFT_EXPORT,
        reason="draft export's data-dependent error, decided from real tensors: the export's report",
    ),
    RecordKind("missing_fake_kernel", DRAFT_EXPORT, reason="an op without a fake kernel: the export's report"),
    RecordKind("mismatched_fake_kernel", DRAFT_EXPORT, reason="a fake kernel that disagrees with the real one: the export's report"),
    RecordKind(
        "after_post_grad_graph", ARTIFACT_STAGE, carrier=ARTIFACT,
        reason="the post-grad graph after Inductor's passes (provenance tracking)",
    ),
    RecordKind(
        "inductor_provenance_tracking_kernel_stack_traces", ARTIFACT_STAGE, carrier=ARTIFACT,
        reason="each kernel's user stack traces (provenance tracking)",
    ),
    RecordKind("fx_graph_runnable", ARTIFACT_STAGE, carrier=ARTIFACT, opens_inductor=True),
    RecordKind("before_post_grad_graph", ARTIFACT_STAGE, carrier=ARTIFACT, opens_inductor=True),
    # Events torch and tlparse know that no handler reads: shown as `trace_<key>` when they carry a payload.
    *(
        RecordKind(key, PAYLOAD)
        for key in (
            "dynamo_guards", "dynamo_error", "inductor_input_graph", "inductor_pre_grad_graph",
            "optimize_ddp_split_child", "restart", "recompile",
        )
    ),
    _ignored(
        "describe_tensor",
        "meta-tensor descriptions of a compile's inputs: the Dynamo graph's placeholders and the guards show their"
        " sizes, dtypes and strides",
    ),
    _ignored("describe_storage", "meta-tensor descriptions of the inputs"),
    _ignored("describe_source", "meta-tensor descriptions of the inputs"),
    _ignored(
        "expression_created",
        "every intermediate symbolic expression (thousands a compile): the symbolic shapes stage lists the"
        " symbols and guards they became",
    ),
    _ignored("dump_file", "a source file torch copies into the log (tlparse shows it; no stage of a compile)"),
    _ignored("propagate_real_tensors", "real-tensor propagation of draft export: its errors come as propagate_real_tensors_provenance"),
)  # fmt: skip


def _catalogue_records() -> tuple[RecordKind, ...]:
    special = {(r.carrier, r.name) for r in _SPECIAL_STAGE_RECORDS}
    return tuple(
        _stage_record(k.id)
        for k in stage_catalog.STAGE_KINDS
        if k.trace and (k.carrier, k.trace) not in special
    )


# Every declared record kind: the catalogue's stages read by the generic handler, then the rest.
RECORDS: tuple[RecordKind, ...] = _catalogue_records() + _SPECIAL_STAGE_RECORDS + _OTHER_RECORDS

_EXACT: dict[tuple[str, str], RecordKind] = {(r.carrier, r.name): r for r in RECORDS if not r.pattern}
_PATTERNS: tuple[tuple[re.Pattern[str], RecordKind], ...] = tuple(
    (re.compile(r.name), r) for r in RECORDS if r.pattern
)
# The envelope keys a log reader keeps (every event key torch 2.4 .. 2.13 and tlparse know); the
# others are counted as unknown.
ENVELOPE_KEYS: frozenset[str] = frozenset(
    {r.name for r in RECORDS if r.carrier == ENVELOPE} | {ARTIFACT, GRAPH_DUMP}
)
# Envelope keys no handler reads (`IGNORED`).
IGNORED_KEYS: frozenset[str] = frozenset(r.name for r in RECORDS if r.handler == IGNORED)
# Id-less records that open no `-/-` compile (`RecordKind.global_record`), by envelope key or artifact name.
NOT_GLOBAL: frozenset[str] = frozenset(r.name for r in RECORDS if not r.global_record)
# Live routes of the records that carry a per-graph stage -> that stage (`stages.GRAPH_OPENERS`).
OPENER_ROUTES: dict[str, str] = {r.route: r.stage for r in RECORDS if r.part == SUBGRAPH and r.stage}
_ROUTES: frozenset[str] = frozenset(r.route for r in RECORDS if not r.pattern)

_OTHER_ARTIFACT = RecordKind("", ARTIFACT_STAGE, carrier=ARTIFACT)
_OTHER_GRAPH_DUMP = _EXACT[(ENVELOPE, GRAPH_DUMP)]
_UNKNOWN = RecordKind("", PAYLOAD)


def lookup(key: str, name: str = "") -> RecordKind:
    """The kind of a record with envelope key `key` (`name`: an artifact's or a graph dump's name).
    An artifact no entry names is ARTIFACT_STAGE; an envelope key none names, PAYLOAD."""
    if key == ARTIFACT:
        found = _EXACT.get((ARTIFACT, name))
        if found is not None:
            return found
        for regex, kind in _PATTERNS:
            if regex.search(name):
                return kind
        return _OTHER_ARTIFACT
    if key == GRAPH_DUMP:
        return _EXACT.get((GRAPH_DUMP, name), _OTHER_GRAPH_DUMP)
    return _EXACT.get((ENVELOPE, key), _UNKNOWN)


def stage_record(stage_id: str) -> RecordKind:
    """The record that carries a catalogue stage (`StageKind.trace`); KeyError for one no record carries."""
    k = stage_catalog.kind(stage_id)
    if not k.trace:
        raise KeyError(f"no structured-trace record carries stage {stage_id!r}")
    return _EXACT[(k.carrier, k.trace)]


def stage_route(stage_id: str) -> str:
    """The live dispatcher's key of the record that carries `stage_id`."""
    return stage_record(stage_id).route


def route(name: str, carrier: str = ENVELOPE) -> str:
    """The live dispatcher's key of a declared record; KeyError for one the registry does not declare."""
    found = _EXACT.get((carrier, name))
    if found is None:
        raise KeyError(f"structured-trace record {carrier}:{name!r} is not in tcdebug.model.records")
    return found.route


def is_route(key: str) -> bool:
    """Is `key` the route of a record the registry knows (`TraceDispatcher.on` takes only those): a
    declared record, or any artifact (one not declared is ARTIFACT_STAGE). An envelope key not
    declared is not: the log reader drops its records, so what a unit made of it live, a log never has."""
    return key in _ROUTES or key.startswith(f"{ARTIFACT}:")


def pattern_groups(kind: RecordKind, name: str) -> dict[str, str]:
    """The named groups of a pattern record's name (`cache`, `result` of a cache's result)."""
    m = re.search(kind.name, name) if kind.pattern else None
    return m.groupdict() if m else {}


def handled_by(handler: str) -> tuple[RecordKind, ...]:
    """The declared records a handler reads."""
    return tuple(r for r in RECORDS if r.handler == handler)
