"""What tcdebug knows about torch's structured trace (`torch.__trace`, TORCH_TRACE logs), in one
place for the live capture (`tcdebug.capture`, `tcdebug.debuggee`) and the log reader
(`tcdebug.trace`): which record is which stage, which Inductor part a record belongs to, the
AOT id of output code, how guards are counted and how compile ids are written.

Plain Python (no torch): the capture reads records as torch logs them, the reader as a log
holds them; both feed the same facts through here.
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass, field

import tcdebug.model.stages as stage_catalog

# ----- records -> stages ----------------------------------------------------------------------
# Envelope keys of the FX graphs Dynamo and AOTAutograd log (the graph stages each carried by an
# event of its own) -> their stage.
FX_GRAPH_KEYS: dict[str, str] = {
    k.trace: k.id
    for k in stage_catalog.STAGE_KINDS
    if k.graph and k.trace and k.carrier == stage_catalog.ENVELOPE
}
# Every record (envelope key, or artifact name) that is a pipeline stage by itself: the stage
# catalogue's `StageKind.trace`.
STAGE_KEYS: dict[str, str] = dict(stage_catalog.TRACE_NAMES)

# ----- which Inductor part ---------------------------------------------------------------------
# torch's name of the graph being compiled (`graph_being_compiled`, `TracingContext.aot_graph_name`)
AOT_GRAPH_NAME = re.compile(r"(\d+)_(forward|backward|inference)")
# Inductor's output code names the AOTAutograd graph it compiled: `# AOT ID: ['0_forward']`.
AOT_ID = re.compile(rf"# AOT ID: \['({AOT_GRAPH_NAME.pattern})'\]")
AOT_ID_WINDOW = 500  # the comment is near the top: only that much of the code is searched


def aot_graph_id(code: str | None) -> tuple[int, str] | None:
    """(AOT id, part) from output code's AOT id comment (`1_backward` -> (1, "backward"))."""
    m = AOT_ID.search((code or "")[:AOT_ID_WINDOW])
    return parse_aot_graph_name(m.group(1)) if m else None


def parse_aot_graph_name(name: object) -> tuple[int, str] | None:
    """(AOT id, part) from torch's name of the graph being compiled (`['1_backward']`)."""
    if isinstance(name, (list, tuple)) and len(name) == 1:
        name = name[0]
    m = AOT_GRAPH_NAME.fullmatch(name) if isinstance(name, str) else None
    return (int(m.group(1)), m.group(2)) if m else None


@dataclass
class Subgraphs:
    """Which of a compile's AOTAutograd graphs a stage belongs to. A backend may run AOTAutograd
    several times in one compile: DDPOptimizer compiles each gradient bucket's `submod_N` on its
    own, one after the other, and their backwards later, in reverse order. Subgraph 0 is the
    first; a per-graph stage (`stages.GRAPH_OPENERS`) that comes again, or comes after a later
    one of its graph, opens the next. Inductor names the graph it compiles by AOT id (`1_forward`),
    which `of_aot_id` ties to the subgraph open at its forward."""

    current: int = 0
    opened: set[str] = field(default_factory=set)  # the opener stages the current subgraph has
    by_aot_id: dict[int, int] = field(default_factory=dict)  # AOT id -> subgraph

    def on_opener(self, stage_id: str) -> int:
        """The subgraph of a per-graph stage arriving now (`inductor_pre_grad_graph`, `aot_*`)."""
        order = stage_catalog.PIPELINE_ORDER.get(stage_id, 0)
        if any(stage_catalog.PIPELINE_ORDER.get(s, 0) >= order for s in self.opened):
            self.current += 1
            self.opened = set()
        self.opened.add(stage_id)
        return self.current

    def of_aot_id(self, aot_id: int, part: str) -> int:
        """The subgraph of Inductor's compile of AOT graph `aot_id`: a forward or inference
        belongs to the subgraph open now; a backward to the subgraph of its forward (the first
        subgraph when its forward was never seen)."""
        if part != "backward":
            return self.by_aot_id.setdefault(aot_id, self.current)
        return self.by_aot_id.get(aot_id, 0)

    def part_of(self, named: tuple[int, str]) -> str:
        """The stage part (`backward_1`) of Inductor's compile of (AOT id, part)."""
        aot_id, base = named
        return stage_catalog.graph_part(base, self.of_aot_id(aot_id, base))

    @property
    def count(self) -> int:
        return self.current + 1


# AOTAutograd's stages, by the mode they show it runs in.
AOT_MODES: dict[str, str] = stage_catalog.AOT_MODES


def inductor_part(aot_mode: str, keys: Container[str], subgraph: int = 0) -> str:
    """The part the next Inductor compile of a compile builds: `inference`, `forward`, or
    `backward` once the forward's kernels of `subgraph` are in (`keys`: the compile's stage keys
    so far); "" when no AOTAutograd graph was seen (`aot_mode` "")."""
    if aot_mode == "inference":
        return "inference"
    if aot_mode == "training":
        forward = stage_catalog.stage_key(stage_catalog.OUTPUT_CODE, stage_catalog.graph_part("forward", subgraph))
        return "backward" if forward in keys else "forward"
    return ""


# ----- DDPOptimizer --------------------------------------------------------------------------
def ddp_split_reason(payload: str) -> str:
    """The reason of DDPOptimizer's split, from its `optimize_ddp_split_graph` record (the split
    graph, one `submod_N` per bucket), as the capture and the log reader both show it."""
    names = sorted(set(re.findall(r"\b(submod_[0-9]{1,6})\b", payload)), key=lambda n: int(n.split("_")[1]))
    parts = f" ({', '.join(names)})" if names else ""
    n = len(names) or "several"
    return (
        f"DDPOptimizer split (not a Dynamo graph break): {n} subgraphs{parts} at DDP gradient-bucket "
        "boundaries, one per bucket, so each bucket's all-reduce overlaps the backward "
        "(DistributedDataParallel with torch._dynamo.config.optimize_ddp); each subgraph's AOTAutograd "
        "and Inductor stages are its own: `subgraph N` is submod_N, subgraph 0 has the plain parts"
    )


# ----- guards ---------------------------------------------------------------------------------
GUARD_MARK = "+- "  # a node of the guard tree dump (`dynamo_cpp_guards_str`)


def count_guards(text: str) -> int:
    """The guards in (part of) a guard tree dump: its `+- ` lines that are no GuardManager."""
    if GUARD_MARK not in text:
        return 0
    return sum(1 for line in text.split("\n") if GUARD_MARK in line and "GuardManager" not in line)


# ----- compile ids ----------------------------------------------------------------------------
def format_compile_id(frame: object, frame_compile: object, compiled_autograd: object = None) -> str | None:
    """Dynamo's compile id as torch writes it: `0/1`, `!2/0/1` under compiled autograd, `!2` for
    compiled autograd's own records (no frame); None when there is no frame id."""
    has_frame = frame is not None and frame_compile is not None
    if compiled_autograd is not None:
        return f"!{compiled_autograd}" + (f"/{frame}/{frame_compile}" if has_frame else "")
    return f"{frame}/{frame_compile}" if has_frame else None


CA_CAPTURE_NAME = "compiled autograd"  # what a capture (`!N`) is shown as: it compiles no function
_CA_CAPTURE = re.compile(r"!\d+(?:_\d+)?(?:[#@].*)?")


def is_compiled_autograd_capture(compile_id: str) -> bool:
    """Compiled autograd's own capture of a backward graph (`!N`, no Dynamo frame; with tcdebug's
    `#run` and `@pid` suffixes)? Dynamo then compiles that graph as `!N/F/C`."""
    return _CA_CAPTURE.fullmatch(compile_id) is not None


def capture_of(compile_id: str) -> str | None:
    """For `!N/F/C` (Dynamo compiling the graph compiled autograd captured), the key of that
    capture: `!N` with the id's own `#run` and `@pid` suffixes; else None."""
    if not compile_id.startswith("!") or is_compiled_autograd_capture(compile_id):
        return None
    head, sep, _ = compile_id[1:].partition("/")
    if not (sep and head.isascii() and head.isdigit()):
        return None
    core = compile_id.partition("@")[0].partition("#")[0]
    return f"!{head}{compile_id[len(core) :]}"


def with_attempt(compile_id: str, attempt: int) -> str:
    """The id of restart attempt `attempt` (`0/0_1`); attempt 0 is the id itself."""
    return f"{compile_id}_{attempt}" if attempt else compile_id
