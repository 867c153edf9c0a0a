"""The Textual app (installed as `tcdebug.screens`); it imports no torch.

Textual paints a screen at most `TEXTUAL_FPS` times a second (60 by default) and reads the
setting once, when it is first imported. A stage that arrives just after a frame waits for the
next one, up to 17 ms at 60; the app asks for 120 unless the user set it
(`benchmarks/live_latency.py`). The user's script does not inherit that setting: see
`script_environ`.
"""

from __future__ import annotations

import os

FRAME_RATE_ENV = "TEXTUAL_FPS"
FRAME_RATE = "120"
_FRAME_RATE_IS_OURS = FRAME_RATE_ENV not in os.environ
if _FRAME_RATE_IS_OURS:
    os.environ[FRAME_RATE_ENV] = FRAME_RATE


def script_environ() -> dict[str, str]:
    """The environment the user's script starts with: this process's, less the frame rate set here."""
    env = dict(os.environ)
    if _FRAME_RATE_IS_OURS and env.get(FRAME_RATE_ENV) == FRAME_RATE:
        del env[FRAME_RATE_ENV]
    return env
