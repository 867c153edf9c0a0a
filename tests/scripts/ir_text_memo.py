"""Prints the IR stages both ways on real Inductor compiles and says whether they agree.

Every `DebugFormatter._write_ir` call prints torch's text, then the text printed with tcdebug's
sympy memo (`tcdebug.capture.inductor_ir.print_ir_with_sympy_memo`, its checks off), counting the
sympy `str()` and `repr()` calls each way, then the text printed as the capture does it, the first texts
checked against torch's printing of a sample of their nodes. Two compiles: static shapes, and
dynamic ones (symbolic sizes and indices). Each stops once the IR after fusion is logged. Prints
one JSON line: {"texts": N, "differ": K, "checked_differ": C, "checked_trusted": bool,
"str_calls_torch": A, "str_calls_memo": B, "restored": bool}.
"""

import json

from ir_until_fusion import compile_until_post_fusion, log_ir_quietly
from sympy.core._print_helpers import Printable
from torch._inductor import debug as inductor_debug

from tcdebug.capture import inductor_ir

counts = {"texts": 0, "differ": 0, "checked_differ": 0, "str_calls_torch": 0, "str_calls_memo": 0}
calls = [0]
sympy_str = Printable.__dict__["__str__"]


def counted_str(self):
    calls[0] += 1
    return sympy_str(self)


Printable.__str__ = Printable.__repr__ = counted_str  # sympy's __repr__ is its __str__
formatter = inductor_debug.DebugFormatter
torch_write_ir = formatter._write_ir
inductor_ir.print_ir_with_sympy_memo(formatter, Printable, checks=0)
memo_write_ir = formatter._write_ir


class Checked:  # printed as the capture prints: its first texts checked
    _write_ir = staticmethod(torch_write_ir)


inductor_ir.print_ir_with_sympy_memo(Checked, Printable)


def both_ways(nodes):
    calls[0] = 0
    torch_text = torch_write_ir(nodes)
    counts["str_calls_torch"] += calls[0]
    calls[0] = 0
    memo_text = memo_write_ir(nodes)
    counts["str_calls_memo"] += calls[0]
    counts["texts"] += 1
    counts["differ"] += memo_text != torch_text
    counts["checked_differ"] += Checked._write_ir(nodes) != torch_text
    return torch_text


formatter._write_ir = staticmethod(both_ways)
log_ir_quietly()
for dynamic in (False, True):
    compile_until_post_fusion(dynamic)
counts["restored"] = Printable.__dict__["__str__"] is Printable.__dict__["__repr__"] is counted_str
counts["checked_trusted"] = Checked._write_ir.trusted()
print(json.dumps(counts))
