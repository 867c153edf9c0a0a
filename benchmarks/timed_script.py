"""Runs a script like `python SCRIPT ARGS` and records how long its body took.

`python benchmarks/timed_script.py SCRIPT [ARGS...]`, also as the script under
`tcdebug --dump`. torch is imported before the clock starts, so the time is the script's own
work (Dynamo's and Inductor's imports at its first compile, compiles and runs) plus whatever the
capture hooks add, which tcdebug installs when Dynamo has been imported (their Inductor part when
Inductor's compiler has). It also records the wall time from `$TCDEBUG_BENCH_T0` (set by
the benchmark just before it started the command) to the script's end, and the CPU time
(user + sys) this process used from its start to the script's end: the script's compiles and the
capture hooks, without compile workers or tcdebug's parent, so it moves far less between runs than
wall time does. All three go, as seconds, to the file `$TCDEBUG_BENCH_TIMING`.

At the script's end it calls `os.times()`, which nothing else in the process calls: under
valgrind, `capture_instructions.py` has callgrind count the instructions up to that call.
"""

import os
import resource
import runpy
import sys
import time

import torch  # noqa: F401 - imported before the clock starts, see above


def main() -> None:
    script, args = sys.argv[1], sys.argv[2:]
    sys.argv = [script, *args]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    start = time.perf_counter()
    runpy.run_path(script, run_name="__main__")
    elapsed = time.perf_counter() - start
    os.times()  # the script's end, for callgrind's --dump-before (capture_instructions.py)
    since_launch = time.time() - float(os.environ.get("TCDEBUG_BENCH_T0", "nan"))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime
    out = os.environ.get("TCDEBUG_BENCH_TIMING")
    if out:
        with open(out, "w") as fh:
            fh.write(f"{elapsed:.6f} {since_launch:.6f} {cpu:.6f}\n")


if __name__ == "__main__":
    main()
