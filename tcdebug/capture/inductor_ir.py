"""`inductor_ir_pre_fusion` / `inductor_ir_post_fusion`: the scheduler's IR, from the
artifact loggers of `torch._inductor.debug`: every scheduler of the Inductor compile, its
subgraphs' too (`tcdebug.capture.ir_texts`). Fusion decisions come from the `fusion` artifact
logger and are attached to the post-fusion stage."""

from __future__ import annotations

import inspect
import itertools
import logging
import operator
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext, artifact_logger_handler, current_compile_key

_T = TypeVar("_T")

STAGES = ("inductor_ir_pre_fusion", "inductor_ir_post_fusion")

PRE = "torch._inductor.debug.__ir_pre_fusion"
POST = "torch._inductor.debug.__ir_post_fusion"
FUSION = "torch._inductor.scheduler.__fusion"


_SPEED = "inductor IR stages: printed by torch alone, slower (the text is the same)"
BLOCK_DEBUG_STR = patches.declare(
    "torch._inductor.loop_body", "LoopBodyBlock.debug_str", unit="inductor_ir", breaks=_SPEED
)
BODY_DEBUG_STR = patches.declare(
    "torch._inductor.loop_body", "LoopBody.debug_str", unit="inductor_ir", breaks=_SPEED
)
WRITE_IR = patches.declare(
    "torch._inductor.debug", "DebugFormatter._write_ir", unit="inductor_ir", breaks=_SPEED
)
SYMPY_STR = patches.declare(
    "sympy.core._print_helpers", "Printable.__str__", unit="inductor_ir", breaks=_SPEED, kind=patches.REPLACES
)
SYMPY_REPR = patches.declare(
    "sympy.core._print_helpers",
    "Printable.__repr__",
    unit="inductor_ir",
    breaks=_SPEED,
    kind=patches.REPLACES,
)
FX_CODEGEN = patches.declare(
    "torch.fx.graph",
    "Graph._codegen",
    unit="inductor_ir",
    breaks=_SPEED,
    kind=patches.READS,
    on_instance=True,
)
PRE_FUSION_LOG = patches.declare(
    "torch._inductor.debug",
    "ir_pre_fusion_log",
    unit="inductor_ir",
    breaks="inductor_ir_pre_fusion, inductor_ir_post_fusion: not captured",
    kind=patches.READS,
)

LOOP_BODY_CHECKS = 8  # loop bodies printed both ways before the cheap way is trusted
_DEL_SUFFIX = re.compile(r";[^\n]*")


def _block_text(block: Any, name: str) -> str:
    """What `LoopBodyBlock.debug_str(name)` prints, from the graph's code alone: torch builds a
    throwaway `GraphModule` (copying attributes, compiling its code) per block only to read
    its `.code`, which is `graph.python_code(root_module="self").src`."""
    code = block.graph.python_code(root_module="self").src
    return _DEL_SUFFIX.sub("", code.strip().replace("def forward(", f"def {name}("))


def print_loop_bodies_cheaply(block_class: Any) -> None:
    """Print the IR's loop bodies (`LoopBodyBlock.debug_str`) without a GraphModule per block:
    about half of the IR stages' cost, which a plain run does not pay. The first
    `LOOP_BODY_CHECKS` blocks are printed both ways; if any text differs, or the cheap way
    fails, torch's own printing is used from then on, so the stage is always torch's text."""
    state = {"checked": 0, "trusted": True}

    def make(original: Any) -> Any:
        return lambda self, name="block": debug_str(original, self, name)

    def debug_str(original: Any, self: Any, name: str) -> str:
        if not state["trusted"]:
            return original(self, name)
        try:
            text = _block_text(self, name)
        except Exception:  # noqa: BLE001 - torch's own way, from now on
            state["trusted"] = False
            return original(self, name)
        if state["checked"] < LOOP_BODY_CHECKS:
            state["checked"] += 1
            torch_text = original(self, name)
            if torch_text != text:
                state["trusted"] = False
                return torch_text
        return text

    patches.wrap(BLOCK_DEBUG_STR, make, owner=block_class)


Parts = tuple[tuple[int, ...], list[object]]  # (how many of each, the objects): see `loop_body_parts`


def same_parts(a: Parts, b: Parts) -> bool:
    """Two `loop_body_parts` hold the very same objects, in the same places."""
    return a[0] == b[0] and len(a[1]) == len(b[1]) and all(map(operator.is_, a[1], b[1]))


def loop_body_parts(body: Any) -> Parts:
    """Everything `LoopBody.debug_str` prints a body from: its loop ranges, its index expressions
    and its blocks, and for each block's graph what `Graph.python_code` (without `verbose`) prints
    its code from: the code generator and, per node, its kind, target, arguments, name and type.
    FX never changes a node's `args` or `kwargs` in place (they are immutable; a change sets new
    ones), so the same objects print the same text."""
    blocks = [("body", body.root_block), *body.subblocks.items()]
    shape = [len(body.var_ranges), len(body.indexing_exprs), len(blocks)]
    objects: list[object] = [*itertools.chain(*body.var_ranges.items(), *body.indexing_exprs.items())]
    for name, block in blocks:
        graph = block.graph
        nodes = list(graph.nodes)
        shape.append(len(nodes))
        objects += (name, block, graph, FX_CODEGEN.get(None, owner=graph))
        for n in nodes:
            objects += (n, n.op, n.target, n.args, n.kwargs, n.name, n.type, n.meta.get("is_wrapped"))
    return tuple(shape), objects


def reuse_loop_body_texts(body_class: Any, mode: Callable[[], object]) -> Callable[[], None]:
    """Print a loop body (`LoopBody.debug_str`) once for the IR before fusion and the IR after it:
    most scheduler nodes keep their loop body through fusion, and loop bodies are about half of
    the two texts' printing. A body is printed again when anything it prints from is not the very
    object it was (`loop_body_parts`): Inductor replaces a body, a block or a node's arguments when
    it changes them, and a node added or removed changes the graph's node list. A text is reused
    only in the printing `mode` it was printed in (with the sympy memo or by torch alone), so the
    memo's checks compare two printings. Returns the function that forgets the texts kept (the IR
    stage calls it once the text after fusion is printed)."""
    kept: dict[int, tuple[Any, object, Parts, str]] = {}  # id(body) -> (body, mode, its parts, its text)

    def make(original: Any) -> Any:
        return lambda self: debug_str(original, self)

    def debug_str(original: Any, self: Any) -> str:
        try:
            parts = loop_body_parts(self)
        except Exception:  # noqa: BLE001 - not a body as this torch's: printed as torch prints it
            return original(self)
        now = mode()
        entry = kept.get(id(self))
        if entry is not None and entry[0] is self and entry[1] == now and same_parts(entry[2], parts):
            return entry[3]
        text = original(self)
        kept[id(self)] = (self, now, parts, text)  # the body is kept, so its id is not reused meanwhile
        return text

    patches.wrap(BODY_DEBUG_STR, make, owner=body_class)
    return kept.clear


IR_TEXT_CHECKS = 2  # IR texts checked before printing with a sympy memo is trusted
IR_CHECK_NODES = 8  # nodes of a checked text that torch prints too


def check_sample(nodes: Sequence[Any], count: int = IR_CHECK_NODES) -> list[Any]:
    """Up to `count` nodes spread over the whole list (its first and last among them)."""
    if len(nodes) <= count:
        return list(nodes)
    step = (len(nodes) - 1) / (count - 1)
    return [nodes[round(i * step)] for i in range(count)]


def print_ir_with_sympy_memo(formatter: Any, printable: Any, checks: int | None = None) -> None:
    """Print the IR stages (`DebugFormatter._write_ir`) with each sympy expression printed once
    per text: the IR names the same index expressions in every dependency, layout and loop body,
    so the memo saves most of the printing. While a text is printed, `Printable.__str__` (and `__repr__`, where it
    is the same function, as in sympy) keeps the string of each expression object it printed;
    sympy expressions are immutable and no user code runs meanwhile, so the text is torch's.

    The first `checks` texts (default `IR_TEXT_CHECKS`) are checked: with the memo still holding
    what the text used, a sample of its nodes (`check_sample`) is printed again, then by torch
    without the memo. If the two differ, or the memo fails, the text is printed by torch and
    torch's own printing is used from then on. Torch prints only the sample, not a second whole
    text. The class attributes are put back after each text."""
    original = inspect.getattr_static(formatter, "_write_ir").__func__
    checks = IR_TEXT_CHECKS if checks is None else checks
    lock = threading.Lock()
    state: dict[str, Any] = {
        "depth": 0,
        "memo": {},
        "saved": None,
        "names": (),
        "checked": 0,
        "trusted": True,
    }

    def memo_str(self: Any) -> str:
        memo = state["memo"]
        kept = memo.get(id(self))
        if kept is not None and kept[0] is self:
            return kept[1]
        text = state["saved"](self)
        memo[id(self)] = (self, text)  # the object is kept, so its id is not reused meanwhile
        return text

    def with_memo(print_all: Callable[[], _T]) -> _T:
        with lock:
            if state["depth"] == 0:
                saved = printable.__dict__["__str__"]
                # sympy's `__repr__` is the same function (`__repr__ = __str__`): the IR's
                # containers (dependencies, layouts' sizes, loop ranges) print their
                # expressions through it
                state["names"] = (
                    (SYMPY_STR, SYMPY_REPR) if printable.__dict__.get("__repr__") is saved else (SYMPY_STR,)
                )
                state["saved"], state["memo"] = saved, {}
                for private in state["names"]:
                    patches.put(private, memo_str, owner=printable)
            state["depth"] += 1
        try:
            return print_all()
        finally:
            with lock:
                state["depth"] -= 1
                if state["depth"] == 0:
                    for private in state["names"]:
                        patches.put(private, state["saved"], owner=printable)
                    state["memo"] = {}

    def write_ir(nodes: Any) -> str:
        if not state["trusted"]:
            return original(nodes)
        if state["checked"] >= checks:
            return with_memo(lambda: original(nodes))
        state["checked"] += 1
        nodes = list(nodes)  # printed more than once: an iterator would be empty the second time
        sample = check_sample(nodes)
        try:
            text, sample_text = with_memo(lambda: (original(nodes), original(sample)))
            same = sample_text == original(sample)
        except Exception:  # noqa: BLE001 - torch's own way, from now on
            same = False
        if not same:
            state["trusted"] = False
            return original(nodes)
        return text

    write_ir.trusted = lambda: state["trusted"]  # type: ignore[attr-defined]  # read by the tests
    write_ir.memo_active = lambda: state["depth"] > 0  # type: ignore[attr-defined]
    patches.wrap(WRITE_IR, lambda _original: write_ir, owner=formatter)


def install_inductor(ctx: CaptureContext) -> None:
    torch = ctx.torch
    from torch._inductor import debug as inductor_debug  # noqa: F401 - the loggers live there

    PRE_FUSION_LOG.require()
    rec = ctx.recorder
    fusion_lines: list[str] = []
    formatter = getattr(inductor_debug, "DebugFormatter", None)
    try:
        from sympy.core._print_helpers import Printable  # type: ignore[import-untyped]
    except ImportError:
        Printable = None  # noqa: N806 - an older sympy: torch's own printing
    if (
        formatter is not None
        and isinstance(inspect.getattr_static(formatter, "_write_ir", None), staticmethod)
        and Printable is not None
        and callable(Printable.__dict__.get("__str__"))
    ):
        print_ir_with_sympy_memo(formatter, Printable)
    forget_loop_bodies: Callable[[], None] = lambda: None  # noqa: E731 - until a torch has loop bodies
    try:
        from torch._inductor.loop_body import LoopBody, LoopBodyBlock

        if callable(getattr(LoopBodyBlock, "debug_str", None)):
            print_loop_bodies_cheaply(LoopBodyBlock)
        if callable(getattr(LoopBody, "debug_str", None)):
            memo_active = getattr(WRITE_IR.get(None), "memo_active", None)
            forget_loop_bodies = reuse_loop_body_texts(LoopBody, memo_active or (lambda: None))
    except ImportError:
        pass  # an older torch: its own printing

    def current_cid() -> str | None:
        return current_compile_key(torch, rec)

    ir_texts = ctx.options.ir_texts
    # The last post-fusion stage's fusion log: the one so far when its text grows (`blocks > 1`:
    # the same compile and part, see `IrTexts`).
    last_fusion_log = [""]

    def on_fusion(record: logging.LogRecord) -> None:
        fusion_lines.append(record.getMessage())

    def on_ir(stage_id: str):  # noqa: ANN202
        def handle(record: logging.LogRecord) -> None:
            if stage_id == "inductor_ir_post_fusion":
                forget_loop_bodies()  # this scheduler's texts are printed
            cid = current_cid()
            if cid is None:
                return
            part = rec.inductor_part(cid)
            placed = ir_texts.add(record, stage_id, cid, part)
            meta: dict[str, Any] = {"ir_blocks": placed.blocks} if placed.blocks > 1 else {}
            if stage_id == "inductor_ir_post_fusion":
                logged = "\n".join(fusion_lines)
                before = last_fusion_log[0] if placed.blocks > 1 else ""
                fusion_log = last_fusion_log[0] = "\n".join(x for x in (before, logged) if x)
                if fusion_log:
                    meta["fusion_log"] = fusion_log
                fusion_lines.clear()
            if stage_id == "inductor_ir_pre_fusion":
                fusion_lines.clear()
            rec.stage(cid, stage_id, placed.text, part=part, meta=meta)

        return handle

    for name, handler in (
        (PRE, artifact_logger_handler(on_ir("inductor_ir_pre_fusion"))),
        (POST, artifact_logger_handler(on_ir("inductor_ir_post_fusion"))),
        (FUSION, artifact_logger_handler(on_fusion)),
    ):
        log = logging.getLogger(name)
        log.setLevel(logging.DEBUG)
        log.propagate = False
        log.addHandler(handler)
        ctx.options.artifact_handlers.append((name, handler))
