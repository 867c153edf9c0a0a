"""Following an op on CUDA: the relu of samples/mlp.py reaches its Triton kernels, and every backward
Triton kernel carries torch's FX-node mapping.

Live on a GPU box (`python -m pytest -m gpu tests/test_gpu_provenance.py`), and on the CPU from
the dumps recorded there with the same code (`tests/data/gpu_mlp`, `tests/data/gpu_transformer_block`),
down to the lines inside the Triton kernels.
"""

from __future__ import annotations

import pytest
from conftest import DATA, SAMPLES, dump_run
from test_gpu_live import _has_cuda

from tcdebug.dump.loader import load_dump
from tcdebug.model.session import Session

needs_cuda = [
    pytest.mark.gpu,
    pytest.mark.slow,
    pytest.mark.skipif(not _has_cuda(), reason="needs a CUDA device"),
]


def check_relu_trail(session: Session) -> None:
    index = session.compiles["0/1"].provenance
    trail = index.trail(["dynamo_graph|relu"])
    assert trail.names("aot_forward") == ["relu"]
    assert any("threshold_backward" in i.detail for i in trail.stage("aot_backward").items)
    forward = trail.names("kernel_source.forward")
    assert forward and all(name.startswith("triton_") for name in forward), forward
    text = session.stage("0/1", "kernel_source.forward").get_text().splitlines()
    marked = [text[n - 1] for n in trail.stage("kernel_source.forward").lines]
    assert any("async_compile.triton(" in line for line in marked)
    assert any(".run(" in line for line in marked)
    assert any(name.startswith("triton_") for name in trail.names("kernel_source.backward"))
    for comp in session.compiles.values():  # every kernel leads back to mlp.py:18
        for item in comp.provenance.items.values():
            if item.stage.startswith("kernel_source"):
                assert comp.provenance.trail([item.item_id]).names("source") == ["mlp.py:18"], item.item_id


def check_triton_kernel_lines(session: Session) -> None:
    """The relu trail marks the lines inside the Triton kernels that Inductor wrote while
    generating relu's (and its gradient's) node: live on CUDA, and in the recorded dump."""
    index = session.compiles["0/1"].provenance
    trail = index.trail(["dynamo_graph|relu"])
    # The backward kernel fuses relu's gradient (op3) with the bias gradient's sum (op5): only
    # op3's lines are relu's (the fused IR group `op3_op5` does not lead into op5's lines).
    for part, computes, not_there in (("forward", "maximum", None), ("backward", "tl.where", "tl.sum(")):
        key = f"kernel_source.{part}"
        inside = [i for i in trail.stage(key).items if i.kind == "kernel_lines"]
        assert inside, (key, trail.names(key), index.notes)
        text = session.stage("0/1", key).get_text().splitlines()
        marked = [text[n - 1].strip() for item in inside for n in item.lines]
        assert any(computes in line for line in marked), marked
        assert not any("async_compile.triton(" in line or line.startswith("def ") for line in marked)
        if not_there:
            assert not any(not_there in line for line in marked), marked  # the fused sum stays out
        back = index.trail([inside[0].item_id])  # and back from those lines to the user's line
        assert back.names("source") == ["mlp.py:18"]


def check_backward_kernels_have_fx_nodes(session: Session) -> None:
    """Every backward kernel used to fall back to names scraped from comments."""
    assert session.device.startswith("cuda")
    backward = [
        k
        for c in session.compiles.values()
        for s in c.stages.values()
        if s.key == "kernel_source.backward"
        for k in s.kernels
    ]
    assert backward and all(k.name.startswith("triton_") for k in backward)
    assert all(k.meta.get("fx_nodes") for k in backward), [
        k.name for k in backward if not k.meta.get("fx_nodes")
    ]
    files = [k.meta["file"] for c in session.compiles.values() for s in c.stages.values() for k in s.kernels]
    assert len(files) == len(set(files))  # no two kernels share a file


@pytest.mark.parametrize("mark", [pytest.param(0, marks=needs_cuda)])
def test_mlp_relu_trail_reaches_triton_kernels(tmp_path_factory: pytest.TempPathFactory, mark: int) -> None:
    run = dump_run(tmp_path_factory, "gpu_mlp_provenance", str(SAMPLES / "mlp.py"))
    assert run.returncode == 0, run.stderr
    session = load_dump(run.out)
    check_relu_trail(session)
    check_triton_kernel_lines(session)


def test_recorded_gpu_mlp_relu_trail_reaches_triton_kernels() -> None:
    session = load_dump(DATA / "gpu_mlp")
    check_relu_trail(session)
    check_triton_kernel_lines(session)


def test_recorded_gpu_backward_kernels_have_fx_nodes() -> None:
    check_backward_kernels_have_fx_nodes(load_dump(DATA / "gpu_transformer_block"))
