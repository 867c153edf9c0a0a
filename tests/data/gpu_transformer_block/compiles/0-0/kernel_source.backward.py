# AOT ID: ['0_backward']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: /tmp/torchinductor_root/tmpkl38yb5s/6c/c6cvyeaxtz4va3wzuc7iwmz3dm6tzwcx6t2vyyywnrgv6sascgww.py
# Topologically Sorted Source Nodes: [view_18, sum_2], Original ATen: [aten.view, aten.sum]
# Source node to ATen node mapping:
#   sum_2 => sum_2
#   view_18 => view_18
# Graph fragment:
#   %tangents_1 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0" = PlaceHolder[target=tangents_1]
#   %view_18 : Tensor "f32[32, 64][64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%tangents_1, [32, 64]), kwargs = {})
#   %sum_2 : Tensor "f32[1, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_18, [0], True), kwargs = {})
#   return %sum_2
triton_per_fused_sum_view_0 = async_compile.triton('triton_per_fused_sum_view_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 32},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_sum_view_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 8704, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_sum_view_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
    r0_numel = 32
    R0_BLOCK: tl.constexpr = 32
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/tmpkl38yb5s/h5/ch5462zd5caozevomve6f7pg7gltrfygyqveogkbxadgbtqldfjq.py
# Topologically Sorted Source Nodes: [view_20, input_1, input_2, mul_8, mul_9, mul_10, exp_1, mul_11, mul_12, add_8, mul_13], Original ATen: [aten.view, aten.gelu, aten.gelu_backward]
# Source node to ATen node mapping:
#   add_8 => add_8
#   exp_1 => exp_1
#   input_1 => view_15
#   input_2 => add_5, erf, mul_5
#   mul_10 => mul_10
#   mul_11 => mul_11
#   mul_12 => mul_12
#   mul_13 => mul_13
#   mul_8 => mul_8
#   mul_9 => mul_9
#   view_20 => view_20
# Graph fragment:
#   %mm : Tensor "f32[32, 256][256, 1]cuda:0" = PlaceHolder[target=mm]
#   %addmm_2 : Tensor "f32[32, 256][256, 1]cuda:0" = PlaceHolder[target=addmm_2]
#   %view_20 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm, [2, 16, 256]), kwargs = {})
#   %view_15 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [2, 16, 256]), kwargs = {})
#   %mul_5 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_15, 0.7071067811865476), kwargs = {})
#   %erf : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.erf.default](args = (%mul_5,), kwargs = {})
#   %add_5 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%erf, 1), kwargs = {})
#   %mul_8 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_5, 0.5), kwargs = {})
#   %mul_9 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_15, %view_15), kwargs = {})
#   %mul_10 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_9, -0.5), kwargs = {})
#   %exp_1 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%mul_10,), kwargs = {})
#   %mul_11 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%exp_1, 0.3989422804014327), kwargs = {})
#   %mul_12 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_15, %mul_11), kwargs = {})
#   %add_8 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_8, %mul_12), kwargs = {})
#   %mul_13 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_20, %add_8), kwargs = {})
#   return %mul_13
triton_poi_fused_gelu_gelu_backward_view_1 = async_compile.triton('triton_poi_fused_gelu_gelu_backward_view_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8192}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_gelu_gelu_backward_view_1', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 131072}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_gelu_gelu_backward_view_1(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8192
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), None)
    tmp1 = tl.load(in_ptr0 + (x0), None)
    tmp2 = tl.full([1], 0.7071067811865476, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = libdevice.erf(tmp3)
    tmp5 = tl.full([1], 1.0, tl.float32)
    tmp6 = tmp4 + tmp5
    tmp7 = tl.full([1], 0.5, tl.float32)
    tmp8 = tmp6 * tmp7
    tmp9 = tmp1 * tmp1
    tmp10 = tl.full([1], -0.5, tl.float32)
    tmp11 = tmp9 * tmp10
    tmp12 = libdevice.exp(tmp11)
    tmp13 = tl.full([1], 0.3989422804014327, tl.float32)
    tmp14 = tmp12 * tmp13
    tmp15 = tmp1 * tmp14
    tmp16 = tmp8 + tmp15
    tmp17 = tmp0 * tmp16
    tl.store(in_out_ptr0 + (x0), tmp17, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/tmpkl38yb5s/it/citev6a5d3y4m4rjvfrrvgd2oyelqsiy3gbwiko6itxu3m6fashg.py
# Topologically Sorted Source Nodes: [view_20, input_1, input_2, mul_8, mul_9, mul_10, exp_1, mul_11, mul_12, add_8, mul_13, view_21, sum_3], Original ATen: [aten.view, aten.gelu, aten.gelu_backward, aten.sum]
# Source node to ATen node mapping:
#   add_8 => add_8
#   exp_1 => exp_1
#   input_1 => view_15
#   input_2 => add_5, erf, mul_5
#   mul_10 => mul_10
#   mul_11 => mul_11
#   mul_12 => mul_12
#   mul_13 => mul_13
#   mul_8 => mul_8
#   mul_9 => mul_9
#   sum_3 => sum_3
#   view_20 => view_20
#   view_21 => view_21
# Graph fragment:
#   %mul_13 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0" = PlaceHolder[target=mul_13]
#   %view_20 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm, [2, 16, 256]), kwargs = {})
#   %view_15 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [2, 16, 256]), kwargs = {})
#   %mul_5 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_15, 0.7071067811865476), kwargs = {})
#   %erf : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.erf.default](args = (%mul_5,), kwargs = {})
#   %add_5 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%erf, 1), kwargs = {})
#   %mul_8 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_5, 0.5), kwargs = {})
#   %mul_9 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_15, %view_15), kwargs = {})
#   %mul_10 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_9, -0.5), kwargs = {})
#   %exp_1 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%mul_10,), kwargs = {})
#   %mul_11 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%exp_1, 0.3989422804014327), kwargs = {})
#   %mul_12 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_15, %mul_11), kwargs = {})
#   %add_8 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_8, %mul_12), kwargs = {})
#   %mul_13 : Tensor "f32[2, 16, 256][4096, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_20, %add_8), kwargs = {})
#   %view_21 : Tensor "f32[32, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mul_13, [32, 256]), kwargs = {})
#   %sum_3 : Tensor "f32[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_21, [0], True), kwargs = {})
#   return %sum_3
triton_per_fused_gelu_gelu_backward_sum_view_2 = async_compile.triton('triton_per_fused_gelu_gelu_backward_sum_view_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 32},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_gelu_gelu_backward_sum_view_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 34816, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_gelu_gelu_backward_sum_view_2(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 256
    r0_numel = 32
    R0_BLOCK: tl.constexpr = 32
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 256*r0_1), xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/tmpkl38yb5s/5u/c5ufqxnrqua5dfofxyhg27fq74tpg2yexdfy3e7qcvtjyygoctha.py
# Topologically Sorted Source Nodes: [view_23, mul_15, mul_16, sum_4, linear_1, x, layer_norm_1, mul_17, sum_5, mul_18, sub_5, sub_6, div_2, mul_19, add_9], Original ATen: [aten.view, aten.native_layer_norm_backward, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   add_9 => add_9
#   div_2 => div_2
#   layer_norm_1 => mul_2, sub_3
#   linear_1 => view_13
#   mul_15 => mul_15
#   mul_16 => mul_16
#   mul_17 => mul_17
#   mul_18 => mul_18
#   mul_19 => mul_19
#   sub_5 => sub_5
#   sub_6 => sub_6
#   sum_4 => sum_4
#   sum_5 => sum_5
#   view_23 => view_23
#   x => add_2
# Graph fragment:
#   %mm_2 : Tensor "f32[32, 64][64, 1]cuda:0" = PlaceHolder[target=mm_2]
#   %primals_8 : Tensor "f32[64][1]cuda:0" = PlaceHolder[target=primals_8]
#   %primals_1 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0" = PlaceHolder[target=primals_1]
#   %addmm_1 : Tensor "f32[32, 64][64, 1]cuda:0" = PlaceHolder[target=addmm_1]
#   %getitem_6 : Tensor "f32[2, 16, 1][16, 1, 1]cuda:0" = PlaceHolder[target=getitem_6]
#   %rsqrt_1 : Tensor "f32[2, 16, 1][16, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_1]
#   %tangents_1 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0" = PlaceHolder[target=tangents_1]
#   %sum_4 : Tensor "f32[2, 16, 1][16, 1, 32]cuda:0" = PlaceHolder[target=sum_4]
#   %sum_5 : Tensor "f32[2, 16, 1][16, 1, 32]cuda:0" = PlaceHolder[target=sum_5]
#   %view_23 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_2, [2, 16, 64]), kwargs = {})
#   %mul_15 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_23, %primals_8), kwargs = {})
#   %mul_16 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_15, 64), kwargs = {})
#   %sum_4 : Tensor "f32[2, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_15, [2], True), kwargs = {})
#   %view_13 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [2, 16, 64]), kwargs = {})
#   %add_2 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%primals_1, %view_13), kwargs = {})
#   %sub_3 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_2, %getitem_6), kwargs = {})
#   %mul_2 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_3, %rsqrt_1), kwargs = {})
#   %mul_17 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_15, %mul_2), kwargs = {})
#   %sum_5 : Tensor "f32[2, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_17, [2], True), kwargs = {})
#   %mul_18 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_2, %sum_5), kwargs = {})
#   %sub_5 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_16, %sum_4), kwargs = {})
#   %sub_6 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub_5, %mul_18), kwargs = {})
#   %div_2 : Tensor "f32[2, 16, 1][16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%rsqrt_1, 64), kwargs = {})
#   %mul_19 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_2, %sub_6), kwargs = {})
#   %add_9 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tangents_1, %mul_19), kwargs = {})
#   return %sum_4,%sum_5,%add_9
triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_3 = async_compile.triton('triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 32, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 7, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 256, 'r0_': 49408}}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_3(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 32
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp8 = tl.load(in_ptr3 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp10 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr5 + (x0), xmask, eviction_policy='evict_last')
    tmp19 = tl.load(in_ptr6 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(xmask, tmp3, 0)
    tmp6 = tl.sum(tmp5, 1)[:, None].to(tl.float32)
    tmp9 = tmp7 + tmp8
    tmp11 = tmp9 - tmp10
    tmp13 = tmp11 * tmp12
    tmp14 = tmp2 * tmp13
    tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
    tmp17 = tl.where(xmask, tmp15, 0)
    tmp18 = tl.sum(tmp17, 1)[:, None].to(tl.float32)
    tmp20 = tl.full([1, 1], 0.015625, tl.float32)
    tmp21 = tmp12 * tmp20
    tmp22 = tl.full([1, 1], 64.0, tl.float32)
    tmp23 = tmp2 * tmp22
    tmp24 = tmp23 - tmp6
    tmp25 = tmp13 * tmp18
    tmp26 = tmp24 - tmp25
    tmp27 = tmp21 * tmp26
    tmp28 = tmp19 + tmp27
    tl.store(out_ptr2 + (r0_1 + 64*x0), tmp28, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/tmpkl38yb5s/ev/cevdcnt4den7ynmnfs3daba45fynbhmz33uttrarussry2met7pb.py
# Topologically Sorted Source Nodes: [view_26, view_27, permute_21, clone_4], Original ATen: [aten.view, aten.transpose, aten.clone]
# Source node to ATen node mapping:
#   clone_4 => clone_4
#   permute_21 => permute_21
#   view_26 => view_26
#   view_27 => view_27
# Graph fragment:
#   %mm_4 : Tensor "f32[32, 64][64, 1]cuda:0" = PlaceHolder[target=mm_4]
#   %view_26 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_4, [2, 16, 64]), kwargs = {})
#   %view_27 : Tensor "f32[2, 16, 4, 16][1024, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_26, [2, 16, 4, 16]), kwargs = {})
#   %permute_21 : Tensor "f32[2, 4, 16, 16][1024, 16, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_27, [0, 2, 1, 3]), kwargs = {})
#   %clone_4 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_21,), kwargs = {memory_format: torch.contiguous_format})
#   return %clone_4
triton_poi_fused_clone_transpose_view_4 = async_compile.triton('triton_poi_fused_clone_transpose_view_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2048}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_clone_transpose_view_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 24576}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_clone_transpose_view_4(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 2048
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 16)
    x1 = ((xindex // 16) % 16)
    x2 = ((xindex // 256) % 4)
    x3 = xindex // 1024
    x4 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 16*x2 + 64*x1 + 1024*x3), xmask)
    tl.store(out_ptr0 + (x4), tmp0, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/tmpkl38yb5s/hf/chfctxkijd3o6wcotogmcr73zwwq6j5aptnxjpeg7mnh2agkooxj.py
# Topologically Sorted Source Nodes: [view_30, mul_21, sum_9, neg, fma, triu, where_2, div_3], Original ATen: [aten.view, aten._softmax_backward_data, aten.triu, aten.masked_fill, aten.div]
# Source node to ATen node mapping:
#   div_3 => div_3
#   fma => fma
#   mul_21 => mul_21
#   neg => neg
#   sum_9 => sum_9
#   triu => full_default_1
#   view_30 => view_30
#   where_2 => where_2
# Graph fragment:
#   %bmm_3 : Tensor "f32[8, 16, 16][256, 16, 1]cuda:0" = PlaceHolder[target=bmm_3]
#   %expand_2 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = PlaceHolder[target=expand_2]
#   %convert_element_type : Tensor "b8[16, 16][16, 1]cuda:0" = PlaceHolder[target=convert_element_type]
#   %sum_9 : Tensor "f32[2, 4, 16, 1][64, 16, 1, 128]cuda:0" = PlaceHolder[target=sum_9]
#   %view_30 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm_3, [2, 4, 16, 16]), kwargs = {})
#   %mul_21 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_30, %div_1), kwargs = {})
#   %sum_9 : Tensor "f32[2, 4, 16, 1][64, 16, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_21, [-1], True), kwargs = {})
#   %neg : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%div_1,), kwargs = {})
#   %fma : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.fma.default](args = (%neg, %sum_9, %mul_21), kwargs = {})
#   %full_default_1 : Tensor "f32[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_2 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%convert_element_type, %full_default_1, %fma), kwargs = {})
#   %div_3 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%where_2, 4.0), kwargs = {})
#   return %sum_9,%div_3
triton_per_fused__softmax_backward_data_div_masked_fill_triu_view_5 = async_compile.triton('triton_per_fused__softmax_backward_data_div_masked_fill_triu_view_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 128, 'r0_': 16},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'in_ptr1': '*i1', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__softmax_backward_data_div_masked_fill_triu_view_5', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 33024}}
)
@triton.jit
def triton_per_fused__softmax_backward_data_div_masked_fill_triu_view_5(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 128
    r0_numel = 16
    R0_BLOCK: tl.constexpr = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    x2 = (xindex % 16)
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 16*x0), xmask, other=0.0)
    tmp1 = tl.load(in_ptr0 + (r0_1 + 16*x0), xmask, other=0.0)
    tmp7 = tl.load(in_ptr1 + (r0_1 + 16*x2), xmask, eviction_policy='evict_last', other=0.0).to(tl.int1)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(xmask, tmp3, 0)
    tmp6 = tl.sum(tmp5, 1)[:, None].to(tl.float32)
    tmp8 = -tmp1
    tmp9 = tl.fma(tmp8, tmp6, tmp2)
    tmp10 = tl.full([1, 1], 0.0, tl.float32)
    tmp11 = tl.where(tmp7, tmp10, tmp9)
    tmp12 = tl.full([1, 1], 0.25, tl.float32)
    tmp13 = tmp11 * tmp12
    tl.store(in_out_ptr0 + (r0_1 + 16*x0), tmp13, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/tmpkl38yb5s/no/cnoinc7onyciegqknq7nwqyvlx24mbgfnpq6cmgit5rccp247svd.py
# Topologically Sorted Source Nodes: [view_29, view_32, view_33, permute_26, permute_27, clone_5, view_34, permute_28, view_35, permute_29, clone_6, view_36, cat], Original ATen: [aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.cat]
# Source node to ATen node mapping:
#   cat => cat
#   clone_5 => clone_5
#   clone_6 => clone_6
#   permute_26 => permute_26
#   permute_27 => permute_27
#   permute_28 => permute_28
#   permute_29 => permute_29
#   view_29 => view_29
#   view_32 => view_32
#   view_33 => view_33
#   view_34 => view_34
#   view_35 => view_35
#   view_36 => view_36
# Graph fragment:
#   %bmm_5 : Tensor "f32[8, 16, 16][256, 16, 1]cuda:0" = PlaceHolder[target=bmm_5]
#   %bmm_4 : Tensor "f32[8, 16, 16][256, 16, 1]cuda:0" = PlaceHolder[target=bmm_4]
#   %bmm_2 : Tensor "f32[8, 16, 16][256, 16, 1]cuda:0" = PlaceHolder[target=bmm_2]
#   %view_29 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm_2, [2, 4, 16, 16]), kwargs = {})
#   %view_32 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm_4, [2, 4, 16, 16]), kwargs = {})
#   %view_33 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm_5, [2, 4, 16, 16]), kwargs = {})
#   %permute_26 : Tensor "f32[2, 4, 16, 16][1024, 256, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_32, [0, 1, 3, 2]), kwargs = {})
#   %permute_27 : Tensor "f32[2, 16, 4, 16][1024, 16, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_29, [0, 2, 1, 3]), kwargs = {})
#   %clone_5 : Tensor "f32[2, 16, 4, 16][1024, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_27,), kwargs = {memory_format: torch.contiguous_format})
#   %view_34 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_5, [2, 16, 64]), kwargs = {})
#   %permute_28 : Tensor "f32[2, 16, 4, 16][1024, 1, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%permute_26, [0, 2, 1, 3]), kwargs = {})
#   %view_35 : Tensor "f32[2, 16, 64][1024, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_28, [2, 16, 64]), kwargs = {})
#   %permute_29 : Tensor "f32[2, 16, 4, 16][1024, 16, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_33, [0, 2, 1, 3]), kwargs = {})
#   %clone_6 : Tensor "f32[2, 16, 4, 16][1024, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_29,), kwargs = {memory_format: torch.contiguous_format})
#   %view_36 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_6, [2, 16, 64]), kwargs = {})
#   %cat : Tensor "f32[2, 16, 192][3072, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%view_36, %view_35, %view_34], 2), kwargs = {})
#   return %cat
triton_poi_fused__unsafe_view_cat_clone_transpose_view_6 = async_compile.triton('triton_poi_fused__unsafe_view_cat_clone_transpose_view_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 32, 'x': 256}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__unsafe_view_cat_clone_transpose_view_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 8192, 'x': 57344}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__unsafe_view_cat_clone_transpose_view_6(in_ptr0, in_ptr1, in_ptr2, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 32
    xnumel = 192
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y0 = (yindex % 16)
    y1 = yindex // 16
    y3 = yindex
    tmp0 = x2
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 64, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (16*y0 + 256*((((x2) // 16) % 4)) + 1024*y1 + (((x2) % 16))), tmp4 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp6 = tmp0 >= tmp3
    tmp7 = tl.full([1, 1], 128, tl.int64)
    tmp8 = tmp0 < tmp7
    tmp9 = tmp6 & tmp8
    tmp10 = tl.load(in_ptr1 + (y0 + 16*((-64) + x2) + 1024*y1), tmp9 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp11 = tmp0 >= tmp7
    tmp12 = tl.full([1, 1], 192, tl.int64)
    tmp13 = tmp0 < tmp12
    tmp14 = tl.load(in_ptr2 + (16*y0 + 256*(((((-128) + x2) // 16) % 4)) + 1024*y1 + ((((-128) + x2) % 16))), tmp11 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp15 = tl.where(tmp9, tmp10, tmp14)
    tmp16 = tl.where(tmp4, tmp5, tmp15)
    tl.store(out_ptr0 + (x2 + 192*y3), tmp16, xmask & ymask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/tmpkl38yb5s/o5/co53phii4ltrzhb57cxwwhyodrn37jus6orfr6w5on3bjr6ell5g.py
# Topologically Sorted Source Nodes: [view_29, view_32, view_33, permute_26, permute_27, clone_5, view_34, permute_28, view_35, permute_29, clone_6, view_36, cat, view_37, sum_10], Original ATen: [aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.cat, aten.sum]
# Source node to ATen node mapping:
#   cat => cat
#   clone_5 => clone_5
#   clone_6 => clone_6
#   permute_26 => permute_26
#   permute_27 => permute_27
#   permute_28 => permute_28
#   permute_29 => permute_29
#   sum_10 => sum_10
#   view_29 => view_29
#   view_32 => view_32
#   view_33 => view_33
#   view_34 => view_34
#   view_35 => view_35
#   view_36 => view_36
#   view_37 => view_37
# Graph fragment:
#   %cat : Tensor "f32[2, 16, 192][3072, 192, 1]cuda:0" = PlaceHolder[target=cat]
#   %view_29 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm_2, [2, 4, 16, 16]), kwargs = {})
#   %view_32 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm_4, [2, 4, 16, 16]), kwargs = {})
#   %view_33 : Tensor "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm_5, [2, 4, 16, 16]), kwargs = {})
#   %permute_26 : Tensor "f32[2, 4, 16, 16][1024, 256, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_32, [0, 1, 3, 2]), kwargs = {})
#   %permute_27 : Tensor "f32[2, 16, 4, 16][1024, 16, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_29, [0, 2, 1, 3]), kwargs = {})
#   %clone_5 : Tensor "f32[2, 16, 4, 16][1024, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_27,), kwargs = {memory_format: torch.contiguous_format})
#   %view_34 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_5, [2, 16, 64]), kwargs = {})
#   %permute_28 : Tensor "f32[2, 16, 4, 16][1024, 1, 256, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%permute_26, [0, 2, 1, 3]), kwargs = {})
#   %view_35 : Tensor "f32[2, 16, 64][1024, 1, 16]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%permute_28, [2, 16, 64]), kwargs = {})
#   %permute_29 : Tensor "f32[2, 16, 4, 16][1024, 16, 256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_33, [0, 2, 1, 3]), kwargs = {})
#   %clone_6 : Tensor "f32[2, 16, 4, 16][1024, 64, 16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute_29,), kwargs = {memory_format: torch.contiguous_format})
#   %view_36 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_6, [2, 16, 64]), kwargs = {})
#   %cat : Tensor "f32[2, 16, 192][3072, 192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%view_36, %view_35, %view_34], 2), kwargs = {})
#   %view_37 : Tensor "f32[32, 192][192, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%cat, [32, 192]), kwargs = {})
#   %sum_10 : Tensor "f32[1, 192][192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_37, [0], True), kwargs = {})
#   return %sum_10
triton_per_fused__unsafe_view_cat_clone_sum_transpose_view_7 = async_compile.triton('triton_per_fused__unsafe_view_cat_clone_sum_transpose_view_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 32},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__unsafe_view_cat_clone_sum_transpose_view_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 26112, 'r0_': 0}}
)
@triton.jit
def triton_per_fused__unsafe_view_cat_clone_sum_transpose_view_7(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 192
    r0_numel = 32
    R0_BLOCK: tl.constexpr = 32
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 192*r0_1), xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/tmpkl38yb5s/yr/cyr67op3d44kmf7rdvdfpngffmy4h7a37w7nfeaqy46r2txjha36.py
# Topologically Sorted Source Nodes: [view_23, linear_1, x, layer_norm_1, mul_20, sum_6, sum_7, view_39, layer_norm, mul_27, sum_13, sum_14], Original ATen: [aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
# Source node to ATen node mapping:
#   layer_norm => mul, sub
#   layer_norm_1 => mul_2, sub_3
#   linear_1 => view_13
#   mul_20 => mul_20
#   mul_27 => mul_27
#   sum_13 => sum_13
#   sum_14 => sum_14
#   sum_6 => sum_6
#   sum_7 => sum_7
#   view_23 => view_23
#   view_39 => view_39
#   x => add_2
# Graph fragment:
#   %mm_2 : Tensor "f32[32, 64][64, 1]cuda:0" = PlaceHolder[target=mm_2]
#   %primals_1 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0" = PlaceHolder[target=primals_1]
#   %addmm_1 : Tensor "f32[32, 64][64, 1]cuda:0" = PlaceHolder[target=addmm_1]
#   %getitem_6 : Tensor "f32[2, 16, 1][16, 1, 1]cuda:0" = PlaceHolder[target=getitem_6]
#   %rsqrt_1 : Tensor "f32[2, 16, 1][16, 1, 1]cuda:0" = PlaceHolder[target=rsqrt_1]
#   %mm_6 : Tensor "f32[32, 64][64, 1]cuda:0" = PlaceHolder[target=mm_6]
#   %getitem_1 : Tensor "f32[2, 16, 1][16, 1, 1]cuda:0" = PlaceHolder[target=getitem_1]
#   %rsqrt : Tensor "f32[2, 16, 1][16, 1, 1]cuda:0" = PlaceHolder[target=rsqrt]
#   %view_23 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_2, [2, 16, 64]), kwargs = {})
#   %view_13 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [2, 16, 64]), kwargs = {})
#   %add_2 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%primals_1, %view_13), kwargs = {})
#   %sub_3 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add_2, %getitem_6), kwargs = {})
#   %mul_2 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_3, %rsqrt_1), kwargs = {})
#   %mul_20 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_23, %mul_2), kwargs = {})
#   %sum_6 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_20, [0, 1]), kwargs = {})
#   %sum_7 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_23, [0, 1]), kwargs = {})
#   %view_39 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_6, [2, 16, 64]), kwargs = {})
#   %sub : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%primals_1, %getitem_1), kwargs = {})
#   %mul : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub, %rsqrt), kwargs = {})
#   %mul_27 : Tensor "f32[2, 16, 64][1024, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_39, %mul), kwargs = {})
#   %sum_13 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_27, [0, 1]), kwargs = {})
#   %sum_14 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%view_39, [0, 1]), kwargs = {})
#   return %sum_6,%sum_7,%sum_13,%sum_14
triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_8 = async_compile.triton('triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 32},
    reduction_hint=ReductionHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*fp32', 'in_ptr6': '*fp32', 'in_ptr7': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 8, 'num_store': 4, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': True, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 34816, 'r0_': 512}}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_8(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, out_ptr0, out_ptr1, out_ptr2, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
    r0_numel = 32
    R0_BLOCK: tl.constexpr = 32
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp2 = tl.load(in_ptr2 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp4 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr4 + (r0_1), None, eviction_policy='evict_last')
    tmp17 = tl.load(in_ptr5 + (x0 + 64*r0_1), xmask, other=0.0)
    tmp18 = tl.load(in_ptr6 + (r0_1), None, eviction_policy='evict_last')
    tmp20 = tl.load(in_ptr7 + (r0_1), None, eviction_policy='evict_last')
    tmp3 = tmp1 + tmp2
    tmp5 = tmp3 - tmp4
    tmp7 = tmp5 * tmp6
    tmp8 = tmp0 * tmp7
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(xmask, tmp9, 0)
    tmp12 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tmp13 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(xmask, tmp13, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None].to(tl.float32)
    tmp19 = tmp1 - tmp18
    tmp21 = tmp19 * tmp20
    tmp22 = tmp17 * tmp21
    tmp23 = tl.broadcast_to(tmp22, [XBLOCK, R0_BLOCK])
    tmp25 = tl.where(xmask, tmp23, 0)
    tmp26 = tl.sum(tmp25, 1)[:, None].to(tl.float32)
    tmp27 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
    tmp29 = tl.where(xmask, tmp27, 0)
    tmp30 = tl.sum(tmp29, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp12, xmask)
    tl.store(out_ptr1 + (x0), tmp16, xmask)
    tl.store(out_ptr2 + (x0), tmp26, xmask)
    tl.store(out_ptr3 + (x0), tmp30, xmask)
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        primals_1, primals_4, primals_6, primals_8, primals_10, primals_12, getitem_1, rsqrt, view, convert_element_type, div_1, view_12, addmm_1, getitem_6, rsqrt_1, view_14, addmm_2, view_16, permute_23, permute_24, permute_25, tangents_1 = args
        args.clear()
        assert_size_stride(primals_1, (2, 16, 64), (1024, 64, 1))
        assert_size_stride(primals_4, (192, 64), (64, 1))
        assert_size_stride(primals_6, (64, 64), (64, 1))
        assert_size_stride(primals_8, (64, ), (1, ))
        assert_size_stride(primals_10, (256, 64), (64, 1))
        assert_size_stride(primals_12, (64, 256), (256, 1))
        assert_size_stride(getitem_1, (2, 16, 1), (16, 1, 1))
        assert_size_stride(rsqrt, (2, 16, 1), (16, 1, 1))
        assert_size_stride(view, (32, 64), (64, 1))
        assert_size_stride(convert_element_type, (16, 16), (16, 1))
        assert_size_stride(div_1, (2, 4, 16, 16), (1024, 256, 16, 1))
        assert_size_stride(view_12, (32, 64), (64, 1))
        assert_size_stride(addmm_1, (32, 64), (64, 1))
        assert_size_stride(getitem_6, (2, 16, 1), (16, 1, 1))
        assert_size_stride(rsqrt_1, (2, 16, 1), (16, 1, 1))
        assert_size_stride(view_14, (32, 64), (64, 1))
        assert_size_stride(addmm_2, (32, 256), (256, 1))
        assert_size_stride(view_16, (32, 256), (256, 1))
        assert_size_stride(permute_23, (8, 16, 16), (256, 1, 16))
        assert_size_stride(permute_24, (8, 16, 16), (256, 1, 16))
        assert_size_stride(permute_25, (8, 16, 16), (256, 1, 16))
        assert_size_stride(tangents_1, (2, 16, 64), (1024, 64, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf2 = empty_strided_cuda((1, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_18, sum_2], Original ATen: [aten.view, aten.sum]
            # [Provenance debug handles] triton_per_fused_sum_view_0:1
            stream0 = get_raw_stream(0)
            triton_per_fused_sum_view_0.run(tangents_1, buf2, 64, 32, stream=stream0)
            buf0 = empty_strided_cuda((32, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_18, input_3, permute_9, mm], Original ATen: [aten.view, aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:2
            extern_kernels.mm(reinterpret_tensor(tangents_1, (32, 64), (64, 1), 0), primals_12, out=buf0)
            del primals_12
            buf3 = reinterpret_tensor(buf0, (2, 16, 256), (4096, 256, 1), 0); del buf0  # reuse
            # Topologically Sorted Source Nodes: [view_20, input_1, input_2, mul_8, mul_9, mul_10, exp_1, mul_11, mul_12, add_8, mul_13], Original ATen: [aten.view, aten.gelu, aten.gelu_backward]
            # [Provenance debug handles] triton_poi_fused_gelu_gelu_backward_view_1:3
            stream0 = get_raw_stream(0)
            triton_poi_fused_gelu_gelu_backward_view_1.run(buf3, addmm_2, 8192, stream=stream0)
            del addmm_2
            buf6 = empty_strided_cuda((1, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_20, input_1, input_2, mul_8, mul_9, mul_10, exp_1, mul_11, mul_12, add_8, mul_13, view_21, sum_3], Original ATen: [aten.view, aten.gelu, aten.gelu_backward, aten.sum]
            # [Provenance debug handles] triton_per_fused_gelu_gelu_backward_sum_view_2:4
            stream0 = get_raw_stream(0)
            triton_per_fused_gelu_gelu_backward_sum_view_2.run(buf3, buf6, 256, 32, stream=stream0)
            buf4 = empty_strided_cuda((32, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_20, input_1, input_2, mul_8, mul_9, mul_10, exp_1, mul_11, mul_12, add_8, mul_13, view_21, permute_13, mm_2], Original ATen: [aten.view, aten.gelu, aten.gelu_backward, aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:5
            extern_kernels.mm(reinterpret_tensor(buf3, (32, 256), (256, 1), 0), primals_10, out=buf4)
            del primals_10
            buf11 = empty_strided_cuda((2, 16, 64), (1024, 64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_23, mul_15, mul_16, sum_4, linear_1, x, layer_norm_1, mul_17, sum_5, mul_18, sub_5, sub_6, div_2, mul_19, add_9], Original ATen: [aten.view, aten.native_layer_norm_backward, aten.add, aten.native_layer_norm]
            # [Provenance debug handles] triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_3:6
            stream0 = get_raw_stream(0)
            triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_3.run(buf4, primals_8, primals_1, addmm_1, getitem_6, rsqrt_1, tangents_1, buf11, 32, 64, stream=stream0)
            del primals_8
            buf14 = empty_strided_cuda((1, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_24, sum_8], Original ATen: [aten.view, aten.sum]
            # [Provenance debug handles] triton_per_fused_sum_view_0:7
            stream0 = get_raw_stream(0)
            triton_per_fused_sum_view_0.run(buf11, buf14, 64, 32, stream=stream0)
            buf12 = empty_strided_cuda((32, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_24, linear_1, permute_17, mm_4], Original ATen: [aten.view, aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:8
            extern_kernels.mm(reinterpret_tensor(buf11, (32, 64), (64, 1), 0), primals_6, out=buf12)
            del primals_6
            buf15 = empty_strided_cuda((2, 4, 16, 16), (1024, 256, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_26, view_27, permute_21, clone_4], Original ATen: [aten.view, aten.transpose, aten.clone]
            # [Provenance debug handles] triton_poi_fused_clone_transpose_view_4:9
            stream0 = get_raw_stream(0)
            triton_poi_fused_clone_transpose_view_4.run(buf12, buf15, 2048, stream=stream0)
            buf17 = reinterpret_tensor(buf12, (8, 16, 16), (256, 16, 1), 0); del buf12  # reuse
            # Topologically Sorted Source Nodes: [view_26, view_27, permute_21, clone_4, view_28, bmm_3], Original ATen: [aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.bmm]
            # [Provenance debug handles] extern_kernels.bmm:10
            extern_kernels.bmm(reinterpret_tensor(buf15, (8, 16, 16), (256, 16, 1), 0), permute_23, out=buf17)
            del permute_23
            buf19 = reinterpret_tensor(buf17, (2, 4, 16, 16), (1024, 256, 16, 1), 0); del buf17  # reuse
            # Topologically Sorted Source Nodes: [view_30, mul_21, sum_9, neg, fma, triu, where_2, div_3], Original ATen: [aten.view, aten._softmax_backward_data, aten.triu, aten.masked_fill, aten.div]
            # [Provenance debug handles] triton_per_fused__softmax_backward_data_div_masked_fill_triu_view_5:11
            stream0 = get_raw_stream(0)
            triton_per_fused__softmax_backward_data_div_masked_fill_triu_view_5.run(buf19, div_1, convert_element_type, 128, 16, stream=stream0)
            del convert_element_type
            buf16 = empty_strided_cuda((8, 16, 16), (256, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_26, view_27, permute_21, clone_4, view_28, matmul_1, permute_22, bmm_2], Original ATen: [aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.bmm]
            # [Provenance debug handles] extern_kernels.bmm:12
            extern_kernels.bmm(reinterpret_tensor(div_1, (8, 16, 16), (256, 1, 16), 0), reinterpret_tensor(buf15, (8, 16, 16), (256, 16, 1), 0), out=buf16)
            del div_1
            buf20 = reinterpret_tensor(buf15, (8, 16, 16), (256, 16, 1), 0); del buf15  # reuse
            # Topologically Sorted Source Nodes: [view_30, mul_21, neg, fma, triu, where_2, div_3, view_31, bmm_4], Original ATen: [aten.view, aten._softmax_backward_data, aten.triu, aten.masked_fill, aten.div, aten.bmm]
            # [Provenance debug handles] extern_kernels.bmm:13
            extern_kernels.bmm(permute_24, reinterpret_tensor(buf19, (8, 16, 16), (256, 16, 1), 0), out=buf20)
            del permute_24
            buf21 = empty_strided_cuda((8, 16, 16), (256, 16, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_30, mul_21, neg, fma, triu, where_2, div_3, view_31, bmm_5], Original ATen: [aten.view, aten._softmax_backward_data, aten.triu, aten.masked_fill, aten.div, aten.bmm]
            # [Provenance debug handles] extern_kernels.bmm:14
            extern_kernels.bmm(reinterpret_tensor(buf19, (8, 16, 16), (256, 16, 1), 0), permute_25, out=buf21)
            del buf19
            del permute_25
            buf22 = empty_strided_cuda((2, 16, 192), (3072, 192, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_29, view_32, view_33, permute_26, permute_27, clone_5, view_34, permute_28, view_35, permute_29, clone_6, view_36, cat], Original ATen: [aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.cat]
            # [Provenance debug handles] triton_poi_fused__unsafe_view_cat_clone_transpose_view_6:15
            stream0 = get_raw_stream(0)
            triton_poi_fused__unsafe_view_cat_clone_transpose_view_6.run(buf21, buf20, buf16, buf22, 32, 192, stream=stream0)
            del buf16
            del buf20
            del buf21
            buf13 = empty_strided_cuda((64, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_24, permute_18, permute_20], Original ATen: [aten.view, aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:16
            extern_kernels.mm(reinterpret_tensor(buf11, (64, 32), (1, 64), 0), view_12, out=buf13)
            del view_12
            buf25 = empty_strided_cuda((1, 192), (192, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_29, view_32, view_33, permute_26, permute_27, clone_5, view_34, permute_28, view_35, permute_29, clone_6, view_36, cat, view_37, sum_10], Original ATen: [aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.cat, aten.sum]
            # [Provenance debug handles] triton_per_fused__unsafe_view_cat_clone_sum_transpose_view_7:17
            stream0 = get_raw_stream(0)
            triton_per_fused__unsafe_view_cat_clone_sum_transpose_view_7.run(buf22, buf25, 192, 32, stream=stream0)
            buf23 = reinterpret_tensor(buf11, (32, 64), (64, 1), 0); del buf11  # reuse
            # Topologically Sorted Source Nodes: [view_29, view_32, view_33, permute_26, permute_27, clone_5, view_34, permute_28, view_35, permute_29, clone_6, view_36, cat, view_37, linear, permute_30, mm_6], Original ATen: [aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.cat, aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:18
            extern_kernels.mm(reinterpret_tensor(buf22, (32, 192), (192, 1), 0), primals_4, out=buf23)
            del primals_4
            buf9 = empty_strided_cuda((64, ), (1, ), torch.float32)
            buf10 = empty_strided_cuda((64, ), (1, ), torch.float32)
            buf26 = empty_strided_cuda((64, ), (1, ), torch.float32)
            buf27 = empty_strided_cuda((64, ), (1, ), torch.float32)
            # Topologically Sorted Source Nodes: [view_23, linear_1, x, layer_norm_1, mul_20, sum_6, sum_7, view_39, layer_norm, mul_27, sum_13, sum_14], Original ATen: [aten.view, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward]
            # [Provenance debug handles] triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_8:19
            stream0 = get_raw_stream(0)
            triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_8.run(buf4, primals_1, addmm_1, getitem_6, rsqrt_1, buf23, getitem_1, rsqrt, buf9, buf10, buf26, buf27, 64, 32, stream=stream0)
            del addmm_1
            del buf23
            del buf4
            del getitem_1
            del getitem_6
            del primals_1
            del rsqrt
            del rsqrt_1
            buf24 = empty_strided_cuda((192, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_29, view_32, view_33, permute_26, permute_27, clone_5, view_34, permute_28, view_35, permute_29, clone_6, view_36, cat, view_37, permute_31, permute_33], Original ATen: [aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.cat, aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:20
            extern_kernels.mm(reinterpret_tensor(buf22, (192, 32), (1, 192), 0), view, out=buf24)
            del buf22
            del view
            buf5 = empty_strided_cuda((256, 64), (64, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_20, input_1, input_2, mul_8, mul_9, mul_10, exp_1, mul_11, mul_12, add_8, mul_13, view_21, permute_14, permute_16], Original ATen: [aten.view, aten.gelu, aten.gelu_backward, aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:21
            extern_kernels.mm(reinterpret_tensor(buf3, (256, 32), (1, 256), 0), view_14, out=buf5)
            del buf3
            del view_14
            buf1 = empty_strided_cuda((64, 256), (256, 1), torch.float32)
            # Topologically Sorted Source Nodes: [view_18, permute_10, permute_12], Original ATen: [aten.view, aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:22
            extern_kernels.mm(reinterpret_tensor(tangents_1, (64, 32), (1, 64), 0), view_16, out=buf1)
            del tangents_1
            del view_16
        return (None, buf26, buf27, buf24, reinterpret_tensor(buf25, (192, ), (1, ), 0), buf13, reinterpret_tensor(buf14, (64, ), (1, ), 0), buf9, buf10, buf5, reinterpret_tensor(buf6, (256, ), (1, ), 0), buf1, reinterpret_tensor(buf2, (64, ), (1, ), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_1 = rand_strided((2, 16, 64), (1024, 64, 1), device='cuda:0', dtype=torch.float32)
    primals_4 = rand_strided((192, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_6 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_8 = rand_strided((64, ), (1, ), device='cuda:0', dtype=torch.float32)
    primals_10 = rand_strided((256, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    primals_12 = rand_strided((64, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    getitem_1 = rand_strided((2, 16, 1), (16, 1, 1), device='cuda:0', dtype=torch.float32)
    rsqrt = rand_strided((2, 16, 1), (16, 1, 1), device='cuda:0', dtype=torch.float32)
    view = rand_strided((32, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    convert_element_type = rand_strided((16, 16), (16, 1), device='cuda:0', dtype=torch.bool)
    div_1 = rand_strided((2, 4, 16, 16), (1024, 256, 16, 1), device='cuda:0', dtype=torch.float32)
    view_12 = rand_strided((32, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    addmm_1 = rand_strided((32, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    getitem_6 = rand_strided((2, 16, 1), (16, 1, 1), device='cuda:0', dtype=torch.float32)
    rsqrt_1 = rand_strided((2, 16, 1), (16, 1, 1), device='cuda:0', dtype=torch.float32)
    view_14 = rand_strided((32, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    addmm_2 = rand_strided((32, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    view_16 = rand_strided((32, 256), (256, 1), device='cuda:0', dtype=torch.float32)
    permute_23 = rand_strided((8, 16, 16), (256, 1, 16), device='cuda:0', dtype=torch.float32)
    permute_24 = rand_strided((8, 16, 16), (256, 1, 16), device='cuda:0', dtype=torch.float32)
    permute_25 = rand_strided((8, 16, 16), (256, 1, 16), device='cuda:0', dtype=torch.float32)
    tangents_1 = rand_strided((2, 16, 64), (1024, 64, 1), device='cuda:0', dtype=torch.float32)
    return [primals_1, primals_4, primals_6, primals_8, primals_10, primals_12, getitem_1, rsqrt, view, convert_element_type, div_1, view_12, addmm_1, getitem_6, rsqrt_1, view_14, addmm_2, view_16, permute_23, permute_24, permute_25, tangents_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
