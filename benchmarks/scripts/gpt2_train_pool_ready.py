"""`gpt2_train.py` with Inductor's Triton compile pool started and ready before the first compile.

Inductor starts its pool of compile workers at the first compile and, until the workers answer,
compiles Triton kernels in the main process. How many kernels land on either side depends on
when the workers come up, which moves whole-run times by seconds from run to run. With the pool
ready first, every variant compiles every kernel in the workers, and what is left to compare is
the compile work itself. The compiles stay cold (caches off). On the CPU this is `gpt2_train.py`.
"""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gpt2_train import main  # noqa: E402


def ready_pool() -> None:
    if not torch.cuda.is_available():
        return
    from torch._inductor.async_compile import AsyncCompile

    AsyncCompile.warm_pool()
    AsyncCompile.wakeup()
    AsyncCompile.wait_pool_ready()


if __name__ == "__main__":
    ready_pool()
    main()
