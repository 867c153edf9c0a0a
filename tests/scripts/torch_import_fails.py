"""An environment switch torch cannot read: its error must look as under python."""

import os

os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = "not-a-number"

import torch  # noqa: E402

torch.compile(lambda x: x + 1, backend="aot_eager")(torch.ones(2))
