
import os
os.environ['TORCH_CUDA_ARCH_LIST'] = '9.0a'
os.environ['TORCHINDUCTOR_CACHE_DIR'] = '/tmp/torchinductor_root'
os.environ['TRITON_CACHE_DIR'] = '/tmp/torchinductor_root/triton/0'

import torch
from torch import tensor, device
import torch.fx as fx
from torch._dynamo.testing import rand_strided
from math import inf
import torch._inductor.inductor_prims



import torch._dynamo.config
import torch._inductor.config
import torch._functorch.config
import torch.fx.experimental._config

torch._inductor.config.deterministic = False
torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = 'accuracy'
torch._inductor.config.triton.store_cubin = False
torch._inductor.config.triton.inject_relu_bug_TESTING_ONLY = 'accuracy'
torch._functorch.config.functionalize_rng_ops = False
torch._functorch.config.fake_tensor_allow_unsafe_data_ptr_access = True
torch._functorch.config.unlift_effect_tokens = False
torch._functorch.config.selective_decompose = False



isolate_fails_code_str = None





if "__compile_source__" in globals():
    import inspect as __after_aot_inspect
    import linecache as __after_aot_linecache
    __after_aot_filename = __after_aot_inspect.currentframe().f_code.co_filename
    __after_aot_linecache.cache[__after_aot_filename] = (
        len(__compile_source__),
        None,
        __compile_source__.splitlines(True),
        __after_aot_filename,
    )
# torch version: 2.11.0+cu130
# torch cuda version: 13.0
# torch git version: 70d99e998b4955e0049d13a98d77ae1b14db1f45


# CUDA Info: 
# nvcc: NVIDIA (R) Cuda compiler driver 
# Copyright (c) 2005-2025 NVIDIA Corporation 
# Built on Wed_Aug_20_01:58:59_PM_PDT_2025 
# Cuda compilation tools, release 13.0, V13.0.88 
# Build cuda_13.0.r13.0/compiler.36424714_0 

# GPU Hardware Info: 
# NVIDIA H200 : 1 

torch._higher_order_ops.triton_kernel_wrap.kernel_side_table.reset_table()

from torch.nn import *
class Repro(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()



    def forward(self, arg0_1, arg1_1, arg2_1):
        permute = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        mm_default = torch.ops.aten.mm.default(arg2_1, permute);  arg2_1 = permute = None
        add_tensor = torch.ops.aten.add.Tensor(arg1_1, mm_default);  arg1_1 = mm_default = None
        mul = torch.ops.aten.mul.Tensor(add_tensor, 0.5);  add_tensor = None
        relu = torch.ops.aten.relu.default(mul);  mul = None
        return (relu,)

def load_args(reader):
    buf0 = reader.storage('ed13c34929cb1bf4af46908970adb3ffa8577a99', 2048, device=device(type='cuda', index=0))
    reader.tensor(buf0, (32, 16), is_leaf=True)  # arg0_1
    buf1 = reader.storage('f0440023aaebc6be34f5c0500d1766ce5be4830d', 128, device=device(type='cuda', index=0))
    reader.tensor(buf1, (32,), is_leaf=True)  # arg1_1
    buf2 = reader.storage('74e8e7aed42aa5ce0f0ded53003c5386835d9bcb', 512, device=device(type='cuda', index=0))
    reader.tensor(buf2, (8, 16), is_leaf=True)  # arg2_1
load_args._version = 0
mod = Repro()
import os as _os
_INPUTS = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), 'repro_inputs')
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy='accuracy', command='run', save_dir=_INPUTS, tracing_mode='real', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy='accuracy', command='get_args', save_dir=_INPUTS, tracing_mode='real', check_str=None)
        # mod(*args)