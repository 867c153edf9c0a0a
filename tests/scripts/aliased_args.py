"""One tensor passed as two arguments, positionally (`f(x, x)`) and by keyword (`g(ids, labels=ids)`,
as a language model's `model(ids, labels=ids)`): a re-run keeps them one tensor."""

import torch


def f(a, b):
    return a * b + 1


def g(ids, labels=None):
    return (ids.float() - labels.float()).abs().sum()


cf = torch.compile(f, backend="aot_eager")
cg = torch.compile(g, backend="aot_eager")
x = torch.randn(8, 4)
ids = torch.randint(0, 100, (2, 16))
cf(x, x)
cg(ids, labels=ids)


@torch._dynamo.disable
def must_be_a_view(base, row):
    if row.untyped_storage().data_ptr() != base.untyped_storage().data_ptr():
        raise ValueError("row is not a view of base")


def h(base, row):
    must_be_a_view(base, row)
    return base.sum() + row.sum()


m = torch.randn(4, 3)
torch.compile(h, backend="aot_eager")(m, m[1])
