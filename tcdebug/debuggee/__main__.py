"""Entry point of the target process: `python -m tcdebug.debuggee [--mode M] [--break S] [-m] -- ARGV`.

`$TCDEBUG_PROFILE=DIR` (for tcdebug's developers) runs the target under cProfile and writes
`DIR/target-<pid>.prof`, to see what the capture costs (`benchmarks/gpu_overhead.py --profile`).
"""

import os

from tcdebug.debuggee.runner import main

_profile_dir = os.environ.get("TCDEBUG_PROFILE")
if _profile_dir:
    import cProfile

    _profiler = cProfile.Profile()
    try:
        _code = _profiler.runcall(main)
    finally:
        _profiler.dump_stats(os.path.join(_profile_dir, f"target-{os.getpid()}.prof"))
    raise SystemExit(_code)
raise SystemExit(main())
