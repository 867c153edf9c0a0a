"""Prints the IR's loop bodies both ways on a real Inductor compile and says whether they agree.

Every `LoopBodyBlock.debug_str` call prints torch's text and tcdebug's cheap text
(`tcdebug.capture.inductor_ir._block_text`); the script prints one JSON line:
{"blocks": N, "subblocks": M, "differ": K}. The compile stops once the IR after fusion is
logged: the C++ build that would follow prints no IR and takes most of the time.
"""

import json

from ir_until_fusion import compile_until_post_fusion, log_ir_quietly
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


LoopBodyBlock.debug_str = both_ways
log_ir_quietly()
compile_until_post_fusion()
print(json.dumps(counts))
