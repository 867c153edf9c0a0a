"""The Triton and CUDA-graph views, from dumps recorded on a GPU (tests run on the CPU).

`tests/data/gpu_*` were written by `tcdebug --dump` on an NVIDIA H100 (torch 2.11.0+cu130,
triton 3.6.0); `tests/data/gpu_dot/` holds a raw `CUDAGraph.debug_dump` from the same box.
Re-record them with the commands in tests/test_gpu_live.py's docstring.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA, run_tcdebug

from tcdebug.analysis.summary import summary_text
from tcdebug.dump.loader import load_dump
from tcdebug.model.session import Session
from tcdebug.torchtext.cudagraph_text import format_stage, parse_dot
from tcdebug.torchtext.output_code import config_dict, format_config, split_output_code, triton_decorator_meta

TRITON_KINDS = {"pointwise", "reduction", "persistent_reduction", "template"}


def _load(name: str) -> Session:
    return load_dump(DATA / name)


@pytest.fixture(scope="module")
def mlp() -> Session:
    return _load("gpu_mlp")


@pytest.fixture(scope="module")
def cudagraphs() -> Session:
    return _load("gpu_cudagraphs")


def test_recorded_on_cuda(mlp: Session, cudagraphs: Session) -> None:
    for session in (mlp, cudagraphs, _load("gpu_transformer_block")):
        assert session.device.startswith("cuda (NVIDIA"), session.device
        assert "+cu" in session.torch_version


def test_mlp_kernels_are_triton_with_kind_configs_and_chosen_config(mlp: Session) -> None:
    stage = mlp.compiles["0/0"].stages["kernel_source.inference"]
    assert "async_compile.triton(" in stage.get_text()
    names = [k.name for k in stage.kernels]
    assert names == ["triton_poi_fused_addmm_relu_0"]
    kernel = stage.kernels[0]
    assert kernel.kind == "pointwise"
    assert "@triton.jit" in kernel.source and "def triton_poi_fused_addmm_relu_0(" in kernel.source
    assert len(kernel.configs) >= 1 and all("num_warps" in c and "XBLOCK" in c for c in kernel.configs)
    assert kernel.chosen_config in kernel.configs
    autotune = kernel.meta["autotune"]
    assert autotune["cache_state"] == "force_disabled"  # tcdebug switches the caches off
    assert autotune["chosen_by"] in ("only config", "benchmarked at first launch")
    triton = kernel.meta["triton"]
    assert triton["heuristic"] == "pointwise" and triton["kernel_name"] == kernel.name
    assert triton["size_hints"] == {"x": 1024}  # 8 x 128 elements
    assert "relu" in kernel.meta["fx_nodes"]  # from inductor_provenance_tracking_node_mappings


def test_training_compile_has_triton_kernels_for_both_graphs(mlp: Session) -> None:
    comp = mlp.compiles["0/1"]
    forward = comp.stages["kernel_source.forward"].kernels
    backward = comp.stages["kernel_source.backward"].kernels
    assert forward and backward
    for kernel in forward + backward:
        assert kernel.name.startswith("triton_") and kernel.kind in TRITON_KINDS
        assert kernel.chosen_config is not None, kernel.name
    assert any(k.kind != "pointwise" for k in backward)  # the bias gradient is a reduction


def test_benchmarked_kernels_carry_their_timings(cudagraphs: Session) -> None:
    kernels = cudagraphs.compiles["0/0"].stages["kernel_source.inference"].kernels
    tuned = [k for k in kernels if k.meta["autotune"].get("chosen_by") == "benchmarked at first launch"]
    assert tuned, "some kernel had several configs and was benchmarked at its first launch"
    for kernel in tuned:
        timings = kernel.meta["autotune"]["timings_ms"]
        assert len(timings) == len(kernel.configs) > 1
        best = min(t for t in timings if t is not None)
        assert kernel.configs[timings.index(best)] == kernel.chosen_config


def test_transformer_block_kernel_kinds(tmp_path: Path) -> None:
    session = _load("gpu_transformer_block")
    kinds = {
        k.kind
        for s in session.compiles["0/0"].stages.values()
        if s.stage_id == "kernel_source"
        for k in s.kernels
    }
    assert {"pointwise", "persistent_reduction"} <= kinds


def test_cudagraph_recording_lists_kernels_in_launch_order_with_grids(cudagraphs: Session) -> None:
    stage = cudagraphs.compiles["0/0"].stages["cudagraph.inference"]
    assert stage.captured and not stage.meta["skipped"]
    graph_kernels = stage.kernels
    triton_names = [k.name for k in cudagraphs.compiles["0/0"].stages["kernel_source.inference"].kernels]
    # Inductor's Triton kernels, in the order the wrapper launches them, between cuBLAS matmuls
    captured_triton = [k.meta["symbol"] for k in graph_kernels if k.meta["symbol"].startswith("triton_")]
    assert captured_triton == triton_names
    for kernel in graph_kernels:
        assert len(kernel.meta["grid"]) == 3 and len(kernel.meta["block"]) == 3
        assert all(isinstance(v, int) and v >= 1 for v in kernel.meta["grid"] + kernel.meta["block"])
    assert [k.meta["launch_index"] for k in graph_kernels] == sorted(
        k.meta["launch_index"] for k in graph_kernels
    )
    relu = next(k for k in graph_kernels if k.meta["symbol"] == "triton_poi_fused_addmm_relu_0")
    assert "@triton.jit" in relu.source  # the stage links back to the kernel's source
    xblock, warps = _chosen(cudagraphs, "triton_poi_fused_addmm_relu_0")
    assert relu.meta["grid"][0] == 1024 // xblock and relu.meta["block"][0] == 32 * warps
    text = stage.get_text()
    assert "triton_poi_fused_addmm_relu_0" in text and "grid (" in text and "block (" in text
    assert "memory pool:" in text and "cudagraph tree: a root" in text
    assert "static (parameter, buffer or marked static)" in text


def _chosen(session: Session, name: str) -> tuple[int, int]:
    kernel = next(
        k for k in session.compiles["0/0"].stages["kernel_source.inference"].kernels if k.name == name
    )
    assert kernel.chosen_config is not None
    return kernel.chosen_config["XBLOCK"], kernel.chosen_config["num_warps"]


def test_cudagraph_rerecording_has_its_reason(cudagraphs: Session) -> None:
    stage = cudagraphs.compiles["0/0"].stages["cudagraph.inference"]
    assert stage.meta["recordings"] == 2
    reasons = stage.meta["rerecord_reasons"]
    assert len(reasons) == 1 and "static input data pointer changed" in reasons[0]
    first, second = stage.meta["records"]
    assert first["parent"] is None and first["rerecord_reason"] == ""
    assert second["graph_id"] != first["graph_id"] and second["tree_nodes"] == 2
    assert "re-recording #2" in stage.get_text() and "re-recorded because: static input" in stage.get_text()


def test_cudagraph_skip_is_a_result_with_its_reason(cudagraphs: Session) -> None:
    stage = cudagraphs.compiles["1/0"].stages["cudagraph.inference"]
    assert stage.captured  # a skip is what happened, not a missing stage
    assert stage.meta["skipped"] and stage.meta["recordings"] == 0
    assert "mutated inputs" in stage.meta["skip_reasons"][0]
    assert stage.get_text().startswith("CUDA graphs skipped: skipping cudagraphs due to mutated inputs")
    assert "total.add_" in stage.get_text()  # Inductor names the line that mutates


def test_mlp_on_gpu_has_no_cudagraph_stage(mlp: Session) -> None:
    # default mode: no CUDA graphs were asked for, so there is no stage to miss
    assert all(s.stage_id != "cudagraph" for c in mlp.compiles.values() for s in c.stages.values())


def test_summary_reports_cuda_graphs(cudagraphs: Session) -> None:
    text = summary_text(cudagraphs)
    assert "cuda graphs: 2" in text
    assert "2 recording(s)" in text and "re-recorded: static input data pointer changed" in text
    assert "skipped: skipping cudagraphs due to mutated inputs (1 instances)" in text
    assert "no CUDA device" not in text


@pytest.mark.slow
def test_tcdebug_open_rewrites_a_gpu_dump(tmp_path: Path) -> None:
    out = tmp_path / "again"
    proc = run_tcdebug("open", str(DATA / "gpu_cudagraphs"), "--dump", str(out), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "cuda graphs: 2" in proc.stdout
    again = load_dump(out)
    stage = again.compiles["0/0"].stages["cudagraph.inference"]
    assert stage.meta["recordings"] == 2 and len(stage.kernels) == 4
    recorded = load_dump(DATA / "gpu_cudagraphs").compiles["0/0"].stages["cudagraph.inference"]
    assert recorded.file == stage.file == "compiles/0-0/cudagraph.inference.txt"  # named by its key
    assert (out / stage.file).read_text() == (DATA / "gpu_cudagraphs" / recorded.file).read_text()


def test_parse_dot_reads_debug_dump() -> None:
    nodes = parse_dot((DATA / "gpu_dot" / "matmul_relu_sum.dot").read_text())
    assert [n.type for n in nodes] == ["KERNEL", "KERNEL"]
    gemm, triton = nodes
    assert gemm.name.startswith("sm80_xmma_gemm") and gemm.grid == [2, 2, 1] and gemm.block == [64, 1, 1]
    assert gemm.shared_mem == 6528
    assert triton.name == "triton_per_fused_add_relu_sum_0" and triton.grid == [64, 1, 1]
    assert triton.block == [64, 1, 1]


def test_parse_dot_follows_edges_not_node_ids() -> None:
    dot = (
        'digraph dot {\n"graph_1_node_0"[label="{KERNEL\n| {ID | 0 | b\\<\\<\\<1,32,0\\>\\>\\>}}"];\n'
        '"graph_1_node_1"[label="{KERNEL\n| {ID | 1 | a\\<\\<\\<\\{4,2\\},\\{8,4\\},16\\>\\>\\>}}"];\n'
        '"graph_1_node_2"[label="{MEMSET\n| {ID | 2}}"];\n'
        '"graph_1_node_1" -> "graph_1_node_0";\n"graph_1_node_2" -> "graph_1_node_1";\n}\n'
    )
    nodes = parse_dot(dot)
    assert [(n.type, n.name) for n in nodes] == [("MEMSET", ""), ("KERNEL", "a"), ("KERNEL", "b")]
    assert nodes[1].grid == [4, 2, 1] and nodes[1].block == [8, 4, 1] and nodes[1].shared_mem == 16
    text = format_stage([{"graph_id": 3, "nodes": [n.__dict__ for n in nodes]}], [])
    assert "[memset]" in text and "grid (4, 2, 1)" in text


def test_triton_decorator_and_configs_from_recorded_source(mlp: Session) -> None:
    code = mlp.compiles["0/1"].stages["kernel_source.backward"].get_text()
    kernels = split_output_code(code)
    assert kernels and all(k.kind in TRITON_KINDS for k in kernels)
    for kernel in kernels:
        meta = triton_decorator_meta(kernel.source)
        assert meta["heuristic"] == kernel.kind and meta["kernel_name"] == kernel.name
        assert isinstance(meta["size_hints"], dict) and meta["device"].startswith("DeviceProperties(")
    assert config_dict([["XBLOCK", 128], ["num_warps", 4], ["num_stages", 1]]) == {
        "XBLOCK": 128,
        "num_warps": 4,
        "num_stages": 1,
    }
    assert format_config({"num_warps": 4, "XBLOCK": 128}) == "XBLOCK=128, num_warps=4"
