"""Which frames are tcdebug's own, or runpy's (which runs the script): never shown as the user's.

Decided by the file's path against where this package lives, not by a `/tcdebug/` in the path:
a user's project may well sit in a folder of that name (a clone of this repository does). The
samples installed with the package are scripts like any other."""

from __future__ import annotations

import os
import re
import runpy

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_SAMPLES_DIR = os.path.join(PACKAGE_DIR, "samples") + os.sep
_RUNPY = os.path.abspath(runpy.__file__)
_FRAME_FILE = re.compile(r'^\s*File "(?P<file>[^"]*)", line \d+')


def is_ours(filename: str) -> bool:
    """Is this code file tcdebug's (its installed samples excepted) or runpy's?"""
    if filename == "<frozen runpy>":
        return True
    if not filename or filename.startswith("<"):
        return False
    path = os.path.abspath(filename)
    return path == _RUNPY or (path.startswith(PACKAGE_DIR) and not path.startswith(_SAMPLES_DIR))


def is_our_frame_line(line: str) -> bool:
    """Is this `  File "PATH", line N, in F` line of a printed traceback one of ours?"""
    m = _FRAME_FILE.match(line)
    return m is not None and is_ours(m.group("file"))
