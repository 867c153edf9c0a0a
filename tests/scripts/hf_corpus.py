"""Real models from transformers, built from tiny configs with random weights (no download):
GPT-2, BERT and T5, each compiled, run forward and backward (tests/test_corpus.py).

`HF_CORPUS_MODELS=gpt2,bert` keeps some of them; `HF_CORPUS_SEQ=N` changes the sequence length (8).
"""

import os
import sys

import torch
from transformers import (
    BertConfig,
    BertModel,
    GPT2Config,
    GPT2LMHeadModel,
    T5Config,
    T5ForConditionalGeneration,
)

torch.manual_seed(0)
VOCAB, BATCH, SEQ = 100, 2, int(os.environ.get("HF_CORPUS_SEQ", "8"))
# GPT-2 goes through Inductor (kernels, forward and backward); BERT and T5 through aot_eager, which keeps
# the corpus inside CI's time budget. The reference run (TORCH_LOGS) uses backend=eager for all three:
# Dynamo's graph breaks and recompiles do not depend on the backend.
REFERENCE = os.environ.get("HF_CORPUS_BACKEND")
BACKENDS = {"gpt2": REFERENCE or "inductor", "bert": REFERENCE or "aot_eager", "t5": REFERENCE or "aot_eager"}


def tiny_gpt2():
    return GPT2LMHeadModel(GPT2Config(vocab_size=VOCAB, n_positions=32, n_embd=32, n_layer=1, n_head=2))


def tiny_bert():
    config = BertConfig(
        vocab_size=VOCAB,
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=32,
    )
    return BertModel(config, add_pooling_layer=False)


def tiny_t5():
    config = T5Config(
        vocab_size=VOCAB,
        d_model=32,
        d_kv=16,
        d_ff=64,
        num_layers=1,
        num_decoder_layers=1,
        num_heads=2,
        decoder_start_token_id=0,
    )
    return T5ForConditionalGeneration(config)


def ids():
    return torch.randint(0, VOCAB, (BATCH, SEQ))


# Build every model first: transformers registers each model class in a global that Dynamo guards on,
# so a model built later would recompile the others at their next call (and at their re-runs).
BUILD = {"gpt2": tiny_gpt2, "bert": tiny_bert, "t5": tiny_t5}
KEPT = os.environ.get("HF_CORPUS_MODELS", ",".join(BUILD)).split(",")
models = {name: BUILD[name]().train() for name in BUILD if name in KEPT}

if "gpt2" in models:
    print("=== case gpt2", file=sys.stderr, flush=True)
    gpt2 = torch.compile(models["gpt2"], backend=BACKENDS["gpt2"])
    input_ids = ids()
    loss = gpt2(input_ids=input_ids, labels=input_ids).loss  # labels is input_ids: an alias
    loss.backward()
    print(f"gpt2 loss {loss.item():.4f}")

if "bert" in models:
    print("=== case bert", file=sys.stderr, flush=True)
    bert = torch.compile(models["bert"], backend=BACKENDS["bert"])
    loss = bert(
        input_ids=ids(), attention_mask=torch.ones(BATCH, SEQ, dtype=torch.long)
    ).last_hidden_state.sum()
    loss.backward()
    print(f"bert loss {loss.item():.4f}")

if "t5" in models:
    print("=== case t5", file=sys.stderr, flush=True)
    t5 = torch.compile(models["t5"], backend=BACKENDS["t5"])
    loss = t5(input_ids=ids(), decoder_input_ids=ids(), labels=ids()).loss
    loss.backward()
    print(f"t5 loss {loss.item():.4f}")
print("=== end", file=sys.stderr, flush=True)
