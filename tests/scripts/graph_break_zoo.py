"""A graph-break zoo in the style of PyTorch's Dynamo tests, one script for one run (tests/test_corpus.py).

Every case's functions are named `<case>_...`, so compiles (and their resume functions) map to
cases. `python graph_break_zoo.py` runs every case (under tcdebug, or with TORCH_LOGS for the
reference); `--explain` prints `torch._dynamo.explain`'s graph-break count per case as JSON.
"""

import json
import sys

import torch

torch.manual_seed(0)
BACKEND = "inductor"
CASES = {}  # case -> (run, whether `run.explain` (fn, args) is compared with torch._dynamo.explain)


def case(explain=True):
    def register(run):
        name = run.__name__.removesuffix("_run")
        CASES[name] = (run, explain)
        return run

    return register


def x4():
    return torch.randn(4)


# ----- graph breaks -------------------------------------------------------------------------------
def gb_print_fn(x):
    y = x.sin()
    print("gb_print: a print breaks the graph")
    return y.cos()


@case()
def gb_print_run():
    torch.compile(gb_print_fn, backend=BACKEND)(x4())


gb_print_run.explain = (gb_print_fn, (x4(),))


def gb_item_fn(x):
    if x.sum().item() > 0:  # data-dependent branch on a Python scalar
        return x + 1
    return x - 1


@case()
def gb_item_run():
    torch.compile(gb_item_fn, backend=BACKEND)(torch.ones(4))


gb_item_run.explain = (gb_item_fn, (torch.ones(4),))


def gb_builtin_fn(x):
    y = x * 2
    torch._dynamo.graph_break()  # Dynamo's own skip marker: an explicit break
    return y + 1


@case()
def gb_builtin_run():
    torch.compile(gb_builtin_fn, backend=BACKEND)(x4())


gb_builtin_run.explain = (gb_builtin_fn, (x4(),))


def gb_generator_gen(x):
    for i in range(3):
        yield x * i


def gb_generator_fn(x):
    return sum(gb_generator_gen(x))


@case()
def gb_generator_run():
    torch.compile(gb_generator_fn, backend=BACKEND)(x4())


gb_generator_run.explain = (gb_generator_fn, (x4(),))


def gb_try_fn(x):
    try:
        raise ValueError("handled inside the graph")
    except ValueError:
        y = x.exp()
    return y


@case()
def gb_try_run():
    torch.compile(gb_try_fn, backend=BACKEND)(x4())


gb_try_run.explain = (gb_try_fn, (x4(),))


class gb_autograd_Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


def gb_autograd_fn(x):
    return gb_autograd_Square.apply(x).sum()


@case()
def gb_autograd_run():
    torch.compile(gb_autograd_fn, backend=BACKEND)(torch.randn(4, requires_grad=True)).backward()


gb_autograd_run.explain = (gb_autograd_fn, (torch.randn(4, requires_grad=True),))


def gb_nested_inner(x):
    return x.relu()


gb_nested_inner_compiled = torch.compile(gb_nested_inner, backend=BACKEND)


def gb_nested_fn(x):
    return gb_nested_inner_compiled(x) + 1


@case(explain=False)
def gb_nested_run():
    torch.compile(gb_nested_fn, backend=BACKEND)(x4())


# ----- recompiles and dynamic shapes ---------------------------------------------------------------
def rc_int_fn(x, n):
    return x * n


@case(explain=False)
def rc_int_run():
    f = torch.compile(rc_int_fn, backend=BACKEND)
    for n in (2, 3, 4):  # 2 is specialized, 3 recompiles as dynamic, 4 reuses it
        f(x4(), n)


def rc_dynamic_fn(x):
    return x.cos() + 1


@case(explain=False)
def rc_dynamic_run():
    f = torch.compile(rc_dynamic_fn, backend=BACKEND, dynamic=True)
    for n in (4, 6, 8):
        f(torch.randn(n))


def rc_mark_fn(x):
    return x.sin() * 2


@case(explain=False)
def rc_mark_run():
    f = torch.compile(rc_mark_fn, backend=BACKEND)
    for n in (5, 7):
        t = torch.randn(n)
        torch._dynamo.mark_dynamic(t, 0)
        f(t)


def rc_static_fn(x):
    return x.tanh()


@case(explain=False)
def rc_static_run():
    f = torch.compile(rc_static_fn, backend=BACKEND, dynamic=False)
    for n in (3, 5):
        f(torch.randn(n))


def fg_break_fn(x):
    print("fg_break: not allowed under fullgraph")
    return x + 1


@case(explain=False)
def fg_break_run():
    try:
        torch.compile(fg_break_fn, backend=BACKEND, fullgraph=True)(x4())
    except Exception as exc:  # noqa: BLE001 - the expected Unsupported error
        print("fg_break raised", type(exc).__name__)


# ----- backends -----------------------------------------------------------------------------------
def be_eager_fn(x):
    y = x + 1
    print("be_eager")
    return y * 2


def be_aot_fn(x):
    y = x.sin()
    print("be_aot")
    return y * 2


def be_custom_fn(x):
    y = x.cos()
    print("be_custom")
    return y * 2


def be_custom_backend(gm, example_inputs):
    return gm.forward


@case()
def be_eager_run():
    torch.compile(be_eager_fn, backend="eager")(x4())


@case()
def be_aot_run():
    torch.compile(be_aot_fn, backend="aot_eager")(torch.randn(4, requires_grad=True)).sum().backward()


@case()
def be_custom_run():
    torch.compile(be_custom_fn, backend=be_custom_backend)(x4())


be_eager_run.explain = (be_eager_fn, (x4(),))
be_aot_run.explain = (be_aot_fn, (x4(),))
be_custom_run.explain = (be_custom_fn, (x4(),))


def main() -> None:
    if "--explain" in sys.argv:
        counts = {}
        for name, (run, explain) in CASES.items():
            if explain:
                torch._dynamo.reset()
                fn, args = run.explain
                counts[name] = torch._dynamo.explain(fn)(*args).graph_break_count
        print("EXPLAIN " + json.dumps(counts))
        return
    for name, (run, _target) in CASES.items():
        print(f"=== case {name}", file=sys.stderr, flush=True)
        run()
    print("=== end", file=sys.stderr, flush=True)


main()
