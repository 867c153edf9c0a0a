"""The GPT-2 of the test corpus (tests/scripts/hf_corpus.py): transformers GPT-2 from a tiny config,
in training mode (dropout on), one compiled forward and backward with `labels=input_ids`.
Used by `benchmarks/accuracy_cost.py`."""

import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)
model = GPT2LMHeadModel(GPT2Config(vocab_size=100, n_positions=32, n_embd=32, n_layer=1, n_head=2)).train()
compiled = torch.compile(model)
input_ids = torch.randint(0, 100, (2, 8))
loss = compiled(input_ids=input_ids, labels=input_ids).loss
loss.backward()
print(f"loss {loss.item():.4f}")
