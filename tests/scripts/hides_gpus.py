"""Hides every GPU from itself before importing torch, as scripts pinning a device do."""

import os

os.environ["CUDA_VISIBLE_DEVICES"] = ""

import torch  # noqa: E402

print("CUDA_SEEN", torch.cuda.is_available())
print(torch.compile(lambda x: x + 1, backend="aot_eager")(torch.ones(2)))
