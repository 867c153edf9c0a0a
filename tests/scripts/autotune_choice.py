"""Inductor autotunes a matmul on the CPU (tests/test_event_breaks.py): max-autotune with frozen
weights gives the C++ GEMM template and aten's mm to choose from."""

import torch
import torch._inductor.config as inductor_config

inductor_config.freezing = True
inductor_config.max_autotune_gemm_backends = "CPP,ATEN"

lin = torch.nn.Linear(64, 64)
f = torch.compile(lambda x: lin(x).relu(), mode="max-autotune-no-cudagraphs")
with torch.no_grad():
    f(torch.randn(32, 64))  # EVENT: autotune
