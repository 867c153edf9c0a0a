"""`wait_for_go_file(ENV)`: wait until the file named by `$ENV` exists (up to 120 s), so a test can
hold a script at one point until it has set something up. Unset: return at once."""

import os
import time


def wait_for_go_file(env: str, timeout: float = 120.0) -> None:
    go = os.environ.get(env)
    deadline = time.monotonic() + timeout
    while go and not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.05)
