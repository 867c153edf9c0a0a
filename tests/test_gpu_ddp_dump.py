"""A two-GPU torchrun job recorded on the device box (tests run on the CPU).

`tests/data/gpu_ddp_2gpu` was written on two NVIDIA H100 (torch 2.11.0+cu130, triton 3.6.0, nccl) by

    tcdebug --dump gpu_ddp_2gpu torchrun --nproc-per-node 2 samples/ddp.py --steps 2 --mode reduce-overhead

DDP's bucket split gives each rank one Dynamo compile of two subgraphs, each with its own
AOTAutograd and Inductor stages and CUDA graphs; both ranks ran Triton kernels and CUDA graphs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import DATA, run_tcdebug
from pilot import wait_until

from tcdebug.analysis.summary import summary_text
from tcdebug.dump.loader import load_dump
from tcdebug.model.session import Session
from tcdebug.screens.app import TcdebugApp

JOB = DATA / "gpu_ddp_2gpu"
GPU = "cuda (NVIDIA H100 80GB HBM3)"
PARTS = ("forward", "forward_1", "backward", "backward_1")  # two subgraphs, each trained


@pytest.fixture(scope="module")
def ranks() -> dict[str, Session]:
    return {label: load_dump(JOB / "ranks" / label) for label in ("0", "1")}


def test_every_rank_ran_on_its_gpu_with_triton_kernels_and_cuda_graphs(ranks: dict[str, Session]) -> None:
    for label, session in ranks.items():
        assert session.device == GPU and "+cu" in session.torch_version
        assert [p.device for p in session.processes.values()] == [GPU]
        comp = session.compiles["0/0"]
        [split] = [gb.reason for gb in comp.graph_breaks]
        assert split.startswith("DDPOptimizer split (not a Dynamo graph break): 2 subgraphs"), label
        for part in PARTS:
            kernels = comp.stages[f"kernel_source.{part}"].kernels
            assert kernels and all(
                k.language == "python" and k.kind in ("pointwise", "persistent_reduction") for k in kernels
            )
            graph = comp.stages[f"cudagraph.{part}"]
            assert graph.captured and any(k.kind == "triton" for k in graph.kernels), (label, part)
            assert any(k.kind == "extern" for k in graph.kernels)  # cuBLAS / CUTLASS launches, captured too
            # the CUDA graph of a subgraph is the one that runs that subgraph's output code
            captured = {k.meta.get("symbol") for k in graph.kernels if k.kind == "triton"}
            assert captured <= {k.name for k in kernels}, (label, part, captured)


def test_the_job_root_is_rank_0_with_every_ranks_status_and_no_divergence() -> None:
    root = load_dump(JOB)
    assert root.device == GPU and list(root.compiles) == list(load_dump(JOB / "ranks" / "0").compiles)
    assert root.extra["job"]["ranks"] == {"0": "finished (exit code 0)", "1": "finished (exit code 0)"}
    assert root.divergences == []
    head = summary_text(root).splitlines()[0]
    assert head.endswith(f"torch 2.11.0+cu130  {GPU}") and "no CUDA device" not in summary_text(root)


def test_open_a_rank_of_the_job(tmp_path: Path) -> None:
    proc = run_tcdebug("open", str(JOB / "ranks" / "1"), "--dump", str(tmp_path / "out"), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert f"torch 2.11.0+cu130  {GPU}" in proc.stdout
    assert "0/0    forward    1 recording(s), 3 kernels captured" in proc.stdout  # aligned with backward_1
    assert "0/0    backward_1 1 recording(s), 7 kernels captured" in proc.stdout
    # The dump written from it is still rank 1's, with how the rank ended.
    index = json.loads((tmp_path / "out" / "session.json").read_text())
    assert (index["rank"], index["rank_label"]) == (1, "1")
    [process] = index["processes"]
    assert (process["rank"], process["world_size"], process["exit_code"], process["pg_timeout_s"]) == (
        1,
        2,
        0,
        600.0,
    )


async def test_the_app_shows_the_ranks_gpu() -> None:
    app = TcdebugApp(load_dump(JOB / "ranks" / "1"), read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(
            pilot, lambda: GPU in app.screen.query_one("StatusBar").info_plain, what="the header"
        )
