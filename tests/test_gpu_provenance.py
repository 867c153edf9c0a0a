"""Following an op on CUDA: the relu of samples/mlp.py reaches its Triton kernels (skipped without CUDA).

Run on a GPU box: `python -m pytest -m gpu tests/test_gpu_provenance.py`.
"""

from __future__ import annotations

import pytest
from conftest import SAMPLES, dump_run
from test_gpu_live import _has_cuda

from tcdebug.dump import load_dump

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.slow,
    pytest.mark.skipif(not _has_cuda(), reason="needs a CUDA device"),
]


def test_mlp_relu_trail_reaches_triton_kernels(tmp_path_factory: pytest.TempPathFactory) -> None:
    run = dump_run(tmp_path_factory, "gpu_mlp_provenance", str(SAMPLES / "mlp.py"))
    assert run.returncode == 0, run.stderr
    session = load_dump(run.out)
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
