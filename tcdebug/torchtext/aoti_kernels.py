"""Split AOTInductor's C++ kernel code (the `inductor_aot_kernel_code` dump) into its kernels.

On the CPU the file holds one `extern "C"` function per fused kernel, after shared includes.
"""

from __future__ import annotations

import re

from tcdebug.lazy_re import lazy_re
from tcdebug.model.session import Kernel

_EXTERN_RE = lazy_re(r'^extern "C"[^\n(]*?\b(?P<name>[A-Za-z_]\w*)\s*\(', re.MULTILINE)


def split_cpp_kernels(code: str) -> list[Kernel]:
    """One kernel per `extern "C"` function, in file order; its text runs to the next one."""
    matches = list(_EXTERN_RE().finditer(code))
    kernels = []
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(code)
        source = code[m.start() : end].rstrip("\n") + "\n"
        kernels.append(Kernel(name=m["name"], language="cpp", source=source, kind="cpp"))
    return kernels
