"""Flex attention with a score_mod, under aot_eager (AOTAutograd's graphs, no Inductor compile):
AOTAutograd traces the score_mod as its own subgraph (`sdpa_score0`), whose nodes torch's
`from_node` attributes to the flex_attention node rather than to Dynamo's `score_mod_0`."""

import torch
from torch.nn.attention.flex_attention import flex_attention


def rel_bias(score, b, h, q, kv):  # noqa: ANN001, ANN201 - flex attention's score_mod signature
    return score + (q - kv).float() * 0.01


def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return flex_attention(q, k, v, score_mod=rel_bias)


q, k, v = (torch.randn(1, 2, 128, 16) for _ in range(3))
print(torch.compile(attend, backend="aot_eager")(q, k, v).shape)
