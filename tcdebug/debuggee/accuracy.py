"""Compare a compile with eager (`A`, `--accuracy`): which layer first differs, and at which node.

On a kept graph (`tcdebug.capture.graph_inputs`: the Dynamo graph and clones of the real inputs of
the call that compiled it) this runs, each on fresh clones of the inputs:

- the graph eagerly in float64 (`torch._dynamo.debug_utils.cast_to_fp64`): the reference;
- the graph eagerly in its own dtypes;
- `aot_eager_decomp_partition` (AOTAutograd with Inductor's decompositions, run eagerly);
- Inductor (`compile_fx`), under the script's Inductor configuration;

and, for a training graph, a backward through each, comparing the input gradients too. Each layer
is judged by `torch._dynamo.utils.same` against the float64 reference, as torch's accuracy minifier
does. When Inductor differs, the post-grad forward graph is compiled again with every float value a
graph output, and the first node beyond the allowance is named; the prefix of the graph that ends
there is written as a repro by `torch._dynamo.repro.after_aot.save_graph_repro`.

The user's program is not touched: inputs are clones, the graph a copy, the RNG state is forked and
restored, and tcdebug's capture is silenced so these compiles add no stages to the session.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import io
import logging
import math
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

from tcdebug.capture.calls import global_state
from tcdebug.capture.graph_inputs import OP_SCHEMA, GraphInputs, KeptGraph
from tcdebug.model.payloads import Accuracy, AccuracyLayer, AccuracyNode

SEED = 1234  # every run of a graph with random ops starts from this seed: the RNG is replayed
MAX_REPRO_BYTES = 16 * 1024 * 1024  # saved inputs larger than this are left out of the repro
_QUIET_LOGGERS = (
    "torch.__trace",
    "torch._inductor.debug.__ir_pre_fusion",
    "torch._inductor.debug.__ir_post_fusion",
    "torch._dynamo.utils",
    "torch._dynamo.debug_utils",
    "torch._dynamo.repro.after_aot",
)
_FILE_LINE = re.compile(r'File "([^"]+)", line (\d+)')


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """tcdebug's capture and torch's accuracy logs off: these compiles are not the script's."""
    loggers = [logging.getLogger(name) for name in _QUIET_LOGGERS]
    before = [log.disabled for log in loggers]
    for log in loggers:
        log.disabled = True
    try:
        yield
    finally:
        for log, was in zip(loggers, before, strict=True):
            log.disabled = was


class Tensors:
    """The compared values of one run: (name, tensor) for each output and input gradient."""

    def __init__(self, values: list[tuple[str, Any]]) -> None:
        self.values = values


def _clone(torch: Any, inputs: list[Any]) -> list[Any]:
    from torch._dynamo.debug_utils import clone_inputs_retaining_gradness

    return list(clone_inputs_retaining_gradness(inputs))


def run_graph(
    torch: Any, fn: Callable[..., Any], inputs: list[Any], *, training: bool, boxed: bool = False
) -> Tensors:
    """Forward (and, training, backward of the summed outputs) on clones of `inputs`."""
    from torch._dynamo.testing import reduce_to_scalar_loss
    from torch.utils._pytree import tree_leaves

    args = _clone(torch, inputs)
    torch.manual_seed(SEED)
    out = fn(list(args)) if boxed else fn(*args)
    leaves = [x for x in tree_leaves(out) if isinstance(x, torch.Tensor)]
    values = [(f"output {i}", t.detach()) for i, t in enumerate(leaves)]
    if training:
        loss = reduce_to_scalar_loss([t for t in leaves if t.requires_grad])
        if isinstance(loss, torch.Tensor) and loss.requires_grad:
            loss.backward()
        for i, a in enumerate(args):
            if isinstance(a, torch.Tensor) and a.requires_grad:
                grad = a.grad if a.grad is not None else torch.zeros_like(a)
                values.append((f"grad of input {i}", grad.detach()))
    return Tensors(values)


def _finite(value: float | None) -> float | None:
    """JSON has no NaN or infinity: such a figure is reported as unknown."""
    return value if value is not None and math.isfinite(value) else None


def _multiplier(torch: Any, res: Any, fp64: Any) -> float:
    """The multiplier `same` applies to eager's error (see `torch._dynamo.utils.same`)."""
    if res.dtype in (torch.float16, torch.bfloat16) or fp64.numel() < 1000:
        return 3.0
    return 2.0


def judge(
    torch: Any, ref: Tensors, res: Tensors, fp64: Tensors | None, tol: float, name: str
) -> AccuracyLayer:
    """One layer's verdict by `same` (float64 reference), with the figures behind it."""
    from torch._dynamo.utils import rmse, same

    layer = AccuracyLayer(name=name, verdict="same")
    if len(ref.values) != len(res.values):
        layer.verdict, layer.note = "diverged", f"{len(res.values)} results, eager gives {len(ref.values)}"
        return layer
    worst_ratio = -1.0
    for i, ((label, r), (_, s)) in enumerate(zip(ref.values, res.values, strict=True)):
        f = fp64.values[i][1] if fp64 is not None else r
        if not (r.is_floating_point() and s.is_floating_point()):
            if not torch.equal(r, s):
                layer.verdict, layer.worst, layer.note = "diverged", label, "integer or bool values differ"
                return layer
            continue
        if r.shape != s.shape:
            layer.verdict, layer.worst, layer.note = (
                "diverged",
                label,
                f"shape {list(s.shape)}, eager {list(r.shape)}",
            )
            return layer
        passes = bool(same(r, s, f, tol=tol, equal_nan=True, log_error=lambda *a, **k: None))
        close = bool(torch.allclose(r, s.to(r.dtype), atol=tol, rtol=tol, equal_nan=True))
        diff = (s.double() - r.double()).abs()
        max_abs = float(diff.max().item()) if diff.numel() else 0.0
        if f.dtype == torch.float64 and r.numel():
            error = float(rmse(f, s.double()).item())
            allowance = _multiplier(torch, s, f) * float(rmse(f, r.double()).item()) + tol / 10.0
        else:
            error, allowance = max_abs, tol
        ratio = error / allowance if allowance > 0 and not math.isnan(error) else math.inf
        layer.max_abs = max(layer.max_abs or 0.0, max_abs) if math.isfinite(max_abs) else math.inf
        if not passes and layer.verdict != "diverged":
            layer.verdict, layer.worst, layer.error, layer.allowance = "diverged", label, error, allowance
            worst_ratio = math.inf
        elif passes and not close and layer.verdict == "same":
            layer.verdict = "reassociation"
        if layer.verdict != "diverged" and ratio > worst_ratio:
            worst_ratio, layer.worst, layer.error, layer.allowance = ratio, label, error, allowance
    layer.max_abs, layer.error, layer.allowance = (
        _finite(layer.max_abs),
        _finite(layer.error),
        _finite(layer.allowance),
    )
    return layer


def has_random_ops(torch: Any, gm: Any) -> list[str]:
    """The nodes of `gm` that draw random numbers (torch's `nondeterministic_seeded` tag)."""
    found = []
    tag = getattr(torch.Tag, "nondeterministic_seeded", None)
    for node in gm.graph.nodes:
        tags = getattr(node.target, "tags", ()) if node.op == "call_function" else ()
        name = str(getattr(node.target, "__name__", node.target))
        if (tag is not None and tag in tags) or any(w in name for w in ("dropout", "rand", "bernoulli")):
            found.append(node.name)
    return found


def compare(torch: Any, kept: KeptGraph) -> Accuracy:
    """The whole comparison of one kept compile (see the module's docstring)."""
    from torch._dynamo.debug_utils import cast_to_fp64

    started = time.monotonic()
    tol = float(getattr(torch._dynamo.config, "repro_tolerance", 1e-3))
    acc = Accuracy(compile_id=kept.compile_id, tolerance=tol)
    gm, inputs = kept.gm, kept.inputs
    acc.kept_bytes = sum(t.untyped_storage().nbytes() for t in inputs if isinstance(t, torch.Tensor))
    acc.training = bool(kept.state.get("grad_enabled", True)) and any(
        isinstance(t, torch.Tensor) and t.requires_grad for t in inputs
    )
    random_nodes = has_random_ops(torch, gm)
    devices = sorted({t.device.index or 0 for t in inputs if isinstance(t, torch.Tensor) and t.is_cuda})
    with (
        torch.random.fork_rng(devices=devices),
        global_state(torch, kept.state),
        _quiet(),
        torch._inductor.config.patch(fallback_random=True) if random_nodes else contextlib.nullcontext(),
    ):
        if random_nodes:
            acc.notes.append(
                f"random ops ({', '.join(random_nodes[:4])}): every run replays one RNG seed, and Inductor "
                "draws with eager's generator (fallback_random)"
            )
        run = lambda fn, boxed=False: run_graph(torch, fn, inputs, training=acc.training, boxed=boxed)  # noqa: E731
        fp64: Tensors | None = None
        try:
            fp64_gm, fp64_inputs = cast_to_fp64(copy.deepcopy(gm), _clone(torch, inputs))
            fp64 = run_graph(torch, fp64_gm, fp64_inputs, training=acc.training)
        except Exception as exc:  # noqa: BLE001 - compared with eager's own tolerance instead
            acc.not_compared.append(
                f"float64 reference: {_one_line(exc)}; compared with eager by tolerance {tol}"
            )
        try:
            eager = run(gm)
        except Exception as exc:  # noqa: BLE001
            acc.status, acc.summary = (
                "failed",
                f"the graph does not run eagerly on its saved inputs: {_one_line(exc)}",
            )
            return _done(acc, started)
        eager_layer = judge(torch, eager, eager, fp64, tol, "eager")
        eager_layer.verdict = "reference"
        if fp64 is not None:
            eager_layer.note = "the graph in its own dtypes; the float64 run is the reference"
        acc.layers.append(eager_layer)
        post_grad: list[Any] = []
        for name, build in (("aot_eager", _aot_eager), ("inductor", _inductor(post_grad))):
            try:
                compiled = build(torch, copy.deepcopy(gm), _clone(torch, inputs))
                result = run(compiled)
            except Exception as exc:  # noqa: BLE001 - this layer's own failure is the answer
                acc.layers.append(AccuracyLayer(name=name, verdict="failed", note=_one_line(exc)))
                continue
            acc.layers.append(judge(torch, eager, result, fp64, tol, name))
        first = next((lay for lay in acc.layers if lay.verdict in ("diverged", "failed")), None)
        if first is None:
            acc.status = "same"
            reassoc = [lay.name for lay in acc.layers if lay.verdict == "reassociation"]
            acc.summary = "no layer differs beyond tolerance" + (
                f" ({', '.join(reassoc)}: float reassociation, within the float64 reference's allowance)"
                if reassoc
                else ""
            )
            return _done(acc, started)
        acc.layer = first.name
        acc.status = "diverged" if first.verdict == "diverged" else "failed"
        what = "differs beyond tolerance" if first.verdict == "diverged" else "fails to run"
        acc.summary = f"{_LAYER_NAMES.get(first.name, first.name)} {what}"
        if first.name == "inductor" and first.verdict == "diverged":
            forward = next((g for g, backward in post_grad if not backward), None)
            if forward is None:
                acc.not_compared.append("bisect: Inductor's post-grad graph was not seen")
            else:
                bisect(torch, acc, forward, inputs, tol)
    return _done(acc, started)


_LAYER_NAMES = {"aot_eager": "AOTAutograd/decompositions (aot_eager)", "inductor": "Inductor"}


def _done(acc: Accuracy, started: float) -> Accuracy:
    acc.elapsed_s = round(time.monotonic() - started, 3)
    return acc


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:300]


def _aot_eager(torch: Any, gm: Any, inputs: list[Any]) -> Any:
    from torch._dynamo.backends.debugging import aot_eager_decomp_partition

    return aot_eager_decomp_partition(gm, inputs)


def _inductor(post_grad: list[Any]) -> Callable[[Any, Any, list[Any]], Any]:
    """Inductor's `compile_fx`, keeping each graph it compiles, after its post-grad passes."""

    def build(torch: Any, gm: Any, inputs: list[Any]) -> Any:
        from torch._inductor.compile_fx import compile_fx, compile_fx_inner

        def inner(graph: Any, example_inputs: Any, **kwargs: Any) -> Any:
            compiled = compile_fx_inner(graph, example_inputs, **kwargs)
            post_grad.append((graph, bool(kwargs.get("is_backward"))))
            return compiled

        return compile_fx(gm, inputs, inner_compile=inner)

    return build


# ----- bisecting the post-grad graph --------------------------------------------------------------
def _float_values(torch: Any, gm: Any) -> list[Any]:
    """The nodes whose value is a float tensor, made by a call that mutates nothing."""
    nodes = []
    for node in gm.graph.nodes:
        if node.op != "call_function":
            continue
        val = node.meta.get("val")
        schema = OP_SCHEMA.get(None, owner=node.target)
        if schema is not None and schema.is_mutable:
            continue
        if isinstance(val, torch.Tensor) and val.is_floating_point():
            nodes.append(node)
    return nodes


def _sub_graph(torch: Any, gm: Any, outputs: list[Any], *, prune: bool = False) -> tuple[Any, list[int]]:
    """`gm`'s nodes up to the last of `outputs`, returning them; with `prune`, only the
    placeholders they use. Returns the module and the indices of the placeholders kept."""
    graph = torch.fx.Graph()
    env: dict[Any, Any] = {}
    last = outputs[-1]
    for node in gm.graph.nodes:
        if node.op == "output":
            break
        env[node] = graph.node_copy(node, lambda n: env[n])
        if node is last:
            break
    graph.output(tuple(env[n] for n in outputs))
    graph.eliminate_dead_code()
    kept: list[int] = []
    for i, node in enumerate([n for n in graph.nodes if n.op == "placeholder"]):
        if prune and not node.users:
            graph.erase_node(node)
        else:
            kept.append(i)
    graph.lint()
    return torch.fx.GraphModule(gm, graph), kept


def bisect(torch: Any, acc: Accuracy, post: Any, inputs: list[Any], tol: float) -> None:
    """The first node of the post-grad forward graph whose compiled value leaves the allowance."""
    from torch._dynamo.debug_utils import cast_to_fp64
    from torch._inductor.compile_fx import compile_fx_inner

    placeholders = [n for n in post.graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(inputs) or any(
        isinstance(v, torch.Tensor)
        and isinstance(p.meta.get("val"), torch.Tensor)
        and tuple(p.meta["val"].shape) != tuple(v.shape)
        for p, v in zip(placeholders, inputs, strict=False)
    ):
        acc.not_compared.append(
            "bisect: the post-grad graph's inputs do not line up with the Dynamo graph's (AOTAutograd rewrote them)"
        )
        return
    candidates = _float_values(torch, post)
    if not candidates:
        acc.not_compared.append("bisect: the post-grad graph computes no float value")
        return
    args = [v.detach() if isinstance(v, torch.Tensor) else v for v in inputs]
    with torch.no_grad():
        every, _ = _sub_graph(torch, post, candidates)
        eager = Tensors([(n.name, t) for n, t in zip(candidates, every(*_clone(torch, args)), strict=True)])
        fp64: Tensors | None = None
        try:
            fp64_gm, fp64_args = cast_to_fp64(copy.deepcopy(every), _clone(torch, args))
            fp64 = Tensors([(n.name, t) for n, t in zip(candidates, fp64_gm(*fp64_args), strict=True)])
        except Exception as exc:  # noqa: BLE001
            acc.not_compared.append(f"bisect: no float64 reference of the post-grad graph: {_one_line(exc)}")
        compiled = compile_fx_inner(copy.deepcopy(every), _clone(torch, args))
        res = Tensors(
            [(n.name, t) for n, t in zip(candidates, compiled(list(_clone(torch, args))), strict=True)]
        )
    for i, node in enumerate(candidates):
        verdict = judge(
            torch,
            Tensors([eager.values[i]]),
            Tensors([res.values[i]]),
            Tensors([fp64.values[i]]) if fp64 is not None else None,
            tol,
            node.name,
        )
        if verdict.verdict == "diverged":
            acc.node = _node(node, verdict)
            break
    if acc.node is None:
        acc.not_compared.append(
            "bisect: no single node of the post-grad graph differs when each value is kept in memory "
            "(the divergence comes from fusion)"
        )
        return
    node = next(n for n in candidates if n.name == acc.node.name)
    try:
        write_repro(torch, acc, post, node, args)
    except Exception as exc:  # noqa: BLE001 - the report stands without its repro
        acc.notes.append(f"repro not written: {_one_line(exc)}")


def _node(node: Any, layer: AccuracyLayer) -> AccuracyNode:
    from torch._ops import OpOverload

    filename, line, code = _user_line(str(node.meta.get("stack_trace") or ""))
    target = str(getattr(node.target, "__name__", node.target))
    if isinstance(node.target, OpOverload):
        target = f"aten.{target}" if "aten" in str(node.target.namespace) else str(node.target)
    return AccuracyNode(
        name=node.name,
        target=target,
        filename=filename,
        line=line,
        code=code,
        max_abs=layer.max_abs,
        error=layer.error,
        allowance=layer.allowance,
        reassociation=layer.verdict == "reassociation",
    )


def _user_line(stack: str) -> tuple[str, int, str]:
    """The last frame of a node's stack trace: file, line, that line's text."""
    lines = stack.splitlines()
    for i in range(len(lines) - 1, -1, -1):
        found = _FILE_LINE.search(lines[i])
        if found:
            code = lines[i + 1].strip() if i + 1 < len(lines) else ""
            return found.group(1), int(found.group(2)), code
    return "", 0, ""


# ----- the repro --------------------------------------------------------------------------------
REPRO_INPUTS = "repro_inputs"


def write_repro(torch: Any, acc: Accuracy, post: Any, node: Any, args: list[Any]) -> None:
    """The prefix of the post-grad graph that ends at `node`, with its saved inputs, written by
    torch's `save_graph_repro`: under plain python it compiles it with Inductor and raises
    `AccuracyError` as the comparison did."""
    from torch._dynamo.repro.after_aot import save_graph_repro

    prefix, kept = _sub_graph(torch, post, [node], prune=True)
    prefix_args = [args[i] for i in kept]
    with tempfile.TemporaryDirectory(prefix="tcdebug-repro-") as tmp:
        save_dir = os.path.join(tmp, REPRO_INPUTS)
        size = sum(a.untyped_storage().nbytes() for a in prefix_args if isinstance(a, torch.Tensor))
        buf = io.StringIO()
        if size > MAX_REPRO_BYTES:
            acc.notes.append(f"repro: inputs of {size} bytes not saved; it draws random inputs")
            save_graph_repro(buf, prefix, prefix_args, "inductor_accuracy", accuracy="accuracy")
            acc.repro = buf.getvalue()
            return
        save_graph_repro(
            buf,
            prefix,
            prefix_args,
            "inductor_accuracy",
            save_dir=save_dir,
            accuracy="accuracy",
            stable_hash=True,
        )
        text = buf.getvalue().replace(repr(save_dir), "_INPUTS")
        here = (
            "import os as _os\n"
            f"_INPUTS = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), {REPRO_INPUTS!r})\n"
        )
        acc.repro = text.replace("if __name__ == '__main__':", here + "if __name__ == '__main__':", 1)
        for root, _dirs, files in os.walk(save_dir):
            for name in files:
                path = os.path.join(root, name)
                rel = os.path.relpath(path, tmp)
                with open(path, "rb") as fh:
                    acc.repro_inputs[rel] = base64.b64encode(fh.read()).decode("ascii")


# ----- the service --------------------------------------------------------------------------------
class AccuracyService:
    """Serves `CheckAccuracy` after the script has ended, on the target's main thread."""

    def __init__(self, torch: Any, store: GraphInputs | None, emit: Callable[[Any], None]) -> None:
        self.torch = torch
        self.store = store
        self.emit = emit

    def handle(self, compile_id: str, every: bool) -> None:
        from tcdebug.model.events import AccuracyEvent

        store = self.store
        if store is None:
            self.emit(AccuracyEvent(accuracy=_refused(compile_id, "the capture could not keep graphs")))
            return
        ids = list(store.kept) if every else [compile_id]
        if every:
            for cid, why in store.missed.items():
                self.emit(AccuracyEvent(accuracy=_refused(cid, f"its graph was not kept: {why}")))
        for cid in ids:
            kept = store.kept.get(cid)
            if kept is None:
                why = store.missed.get(cid) or (
                    "start tcdebug with --accuracy to keep each compile's graph and inputs"
                    if not store.kept and not store.missed
                    else "no Dynamo graph was kept for this compile: it has none (no op to compile, a failed compile, or not a Dynamo compile)"
                )
                self.emit(AccuracyEvent(accuracy=_refused(cid, why)))
                continue
            self.emit(AccuracyEvent(accuracy=Accuracy(compile_id=cid, status="running", summary="comparing")))
            try:
                acc = compare(self.torch, kept)
            except Exception as exc:  # noqa: BLE001 - one compile's failure is its answer
                acc = Accuracy(
                    compile_id=cid, status="failed", summary=f"the comparison failed: {_one_line(exc)}"
                )
            self.emit(AccuracyEvent(accuracy=acc))


def _refused(cid: str, why: str) -> Accuracy:
    return Accuracy(compile_id=cid, status="not_comparable", summary=why)
