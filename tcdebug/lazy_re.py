"""Regular expressions compiled at their first use, so that a module's patterns cost nothing when
it is imported for a path that never uses them (`open LOG --dump` of a small log)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import AnyStr


def lazy_re(pattern: AnyStr, flags: int = 0) -> Callable[[], re.Pattern[AnyStr]]:
    """A function returning `re.compile(pattern, flags)` (a str or bytes pattern), compiled at
    its first call."""
    return cache(lambda: re.compile(pattern, flags))
