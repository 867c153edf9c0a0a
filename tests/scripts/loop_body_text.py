"""Prints the IR's loop bodies both ways on a real Inductor compile and says whether they agree.

Every `LoopBodyBlock.debug_str` call prints torch's text and tcdebug's cheap text
(`tcdebug.capture.inductor_ir._block_text`); the script prints one JSON line:
{"blocks": N, "subblocks": M, "differ": K}. The compile stops once the IR after fusion is
logged: the C++ build that would follow prints no IR and takes most of the time.
"""

import json
import logging

import torch
from torch._inductor import debug as inductor_debug
from torch._inductor.loop_body import LoopBodyBlock

from tcdebug.capture.inductor_ir import _block_text

counts = {"blocks": 0, "subblocks": 0, "differ": 0}
original = LoopBodyBlock.debug_str


def both_ways(self, name="block"):
    text = original(self, name)
    counts["blocks"] += 1
    counts["subblocks"] += name != "body"
    counts["differ"] += _block_text(self, name) != text
    return text


class IRLogged(Exception):
    pass


log_post_fusion = inductor_debug.log_ir_post_fusion


def stop_after_post_fusion(nodes):
    log_post_fusion(nodes)
    raise IRLogged


LoopBodyBlock.debug_str = both_ways
inductor_debug.log_ir_post_fusion = stop_after_post_fusion
torch.compiler.config.force_disable_caches = True
torch._logging.set_logs(ir_pre_fusion=True, ir_post_fusion=True)
for name in ("torch._inductor.debug.__ir_pre_fusion", "torch._inductor.debug.__ir_post_fusion"):
    log = logging.getLogger(name)
    log.handlers[:] = [logging.NullHandler()]
    log.propagate = False


def f(x, w):
    y = torch.nn.functional.layer_norm(x @ w, (16,))
    y = torch.cat([y, torch.nn.functional.pad(y, (1, 0))[:, :16]], dim=0)
    return torch.softmax(y, dim=-1).amax(0) + torch.where(x[:1] > 0, x[:1], 0.5).sum()


try:
    torch.compile(f)(torch.randn(8, 16), torch.randn(16, 16))
except Exception as exc:  # Dynamo wraps it: BackendCompilerFailed
    assert "IRLogged" in repr(exc) or isinstance(exc.__cause__, IRLogged), exc
print(json.dumps(counts))
