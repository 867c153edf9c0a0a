"""Many compiles: `tcdebug open LOG --dump OUT` on a synthetic TORCH_TRACE log of N compiles
(100,000 by default), its wall time and peak RSS.

The log is written by `write_log` on the model of the real records in `tests/data/traces/`: per
compile a `dynamo_start` with a short stack, a small `dynamo_output_graph`, the guards
(`dynamo_cpp_guards_str`) and a `compilation_metrics` record (its config strings left out, as the
test logs leave them out); each frame compiles five times, its recompiles with their
`recompile_reasons` artifact (a size, or grad mode in every tenth frame), and every fiftieth frame
has a graph break. `open --dump` runs in a
child process; its peak RSS is `resource.getrusage(RUSAGE_CHILDREN).ru_maxrss` (the largest of
its processes), its CPU time user + sys of them all, read in a fresh process that starts nothing
else. On a busy machine the CPU time says more than the wall time.

`python benchmarks/scale_compiles.py [--compiles N] [--keep-log PATH]`
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from common import ROOT, Section, byte_compile_tcdebug, finish, parse_args, secs

TARGET_S = 30.0
TARGET_MB = 500.0
RECOMPILES = 5  # compiles per frame: frame_compile_id 0..4
BREAK_EVERY = 50  # every fiftieth frame breaks its graph
GRAD_MODE_EVERY = 10  # every tenth frame recompiles for grad mode, not a size
PREFIX = "V1123 16:54:{sec:09.6f} 29293 site-packages/torch/{where}] "
WHERE = {
    "str": "_logging/structured.py:28",
    "dynamo_start": "_dynamo/convert_frame.py:303",
    "dynamo_output_graph": "_dynamo/output_graph.py:2841",
    "dynamo_cpp_guards_str": "_dynamo/guards.py:4552",
    "compilation_metrics": "_dynamo/utils.py:2009",
    "recompile_reasons": "_dynamo/guards.py:5400",
    "dynamo_graph_break_reason": "_dynamo/symbolic_convert.py:5098",
}
SCRIPT = "/home/user/project/model.py"


def _record(kind: str, sec: float, envelope: dict, payload: str | None = None) -> str:
    head = PREFIX.format(sec=sec % 60, where=WHERE[kind])
    if payload is None:
        return head + json.dumps(envelope) + "\n"
    envelope = {**envelope, "has_payload": hashlib.md5(payload.encode(), usedforsecurity=False).hexdigest()}
    body = "".join(f"\t{line}\n" for line in payload.split("\n"))
    return head + json.dumps(envelope) + "\n" + body


def _graph(i: int, size: int) -> str:
    return (
        "class GraphModule(torch.nn.Module):\n"
        f'    def forward(self, L_x_: "f32[{size}][1]cpu"):\n'
        "        l_x_ = L_x_\n"
        "\n"
        f"        # File: {SCRIPT}:{10 + i % 40} in layer_{i % 97}, code: return x.sin() + 1\n"
        f'        sin: "f32[{size}][1]cpu" = l_x_.sin();  l_x_ = None\n'
        f'        add: "f32[{size}][1]cpu" = sin + 1;  sin = None\n'
        "        return (add,)\n"
    )


def _guards(i: int, size: int) -> str:
    return (
        "\nTREE_GUARD_MANAGER:\n"
        "+- RootGuardManager\n"
        "| +- DEFAULT_DEVICE: utils_device.CURRENT_DEVICE == None"
        "  # _dynamo/output_graph.py:1122 in init_ambient_guards\n"
        "| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x', framelocals_idx=0)\n"
        "| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU, BackendSelect), torch.float32,"
        f" device=None, requires_grad=False, size=[{size}], stride=[1])  # return x.sin() + 1  # model.py:{10 + i % 40}\n"
        "\n"
        f"Guard latency = {50 + i % 40}.00 us"
    )


def _metrics(cid: str, i: int, fid: int, fcid: int, start: float, reason: str | None, broke: bool) -> dict:
    return {
        "compile_id": cid,
        "frame_key": str(fid + 1),
        "co_name": f"layer_{fid % 97}",
        "co_filename": SCRIPT,
        "co_firstlineno": 10 + fid % 40,
        "cache_size": fcid,
        "accumulated_cache_size": fcid,
        "guard_count": 4,
        "shape_env_guard_count": 0,
        "graph_op_count": 2,
        "graph_node_count": 4,
        "graph_input_count": 1,
        "start_time": start,
        "entire_frame_compile_time_s": 0.01 + (i % 7) / 1000,
        "backend_compile_time_s": 0.005,
        "fail_type": None,
        "fail_reason": None,
        "restart_reasons": [],
        "has_guarded_code": True,
        "is_forward": True,
        "start_time_us": int(start * 1e6),
        "duration_us": 10000 + (i % 7) * 1000,
        "log_format_version": 3,
        "dynamo_config": "(left out of this log)",
        "recompile_reason": reason,
        "num_graph_breaks": 1 if broke else None,
        "pytorch_version": "2.13.0+cpu",
    }


def compile_ids(n: int) -> Iterator[tuple[int, int, int]]:
    """(index, frame_id, frame_compile_id) of each of `n` compiles."""
    for i in range(n):
        yield i, i // RECOMPILES, i % RECOMPILES


def write_log(path: Path, n: int) -> int:
    """Write a log of `n` compiles to `path`; return its size in bytes."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(_record("str", 0.0, {"str": [SCRIPT, 1]}))
        sec = 0.0
        for i, fid, fcid in compile_ids(n):
            sec += 0.001
            ids = {"frame_id": fid, "frame_compile_id": fcid, "attempt": 0}
            cid = f"{fid}/{fcid}"
            size = 4 + fcid
            stack = [
                {"line": 120, "name": "<module>", "filename": 1, "loc": "main()"},
                {"line": 10 + fid % 40, "name": f"layer_{fid % 97}", "filename": 1},
            ]
            f.write(_record("dynamo_start", sec, {"dynamo_start": {"stack": stack}, **ids}))
            reason = None
            if fcid and fid % GRAD_MODE_EVERY == GRAD_MODE_EVERY - 1:
                reason = "GLOBAL_STATE changed: grad_mode "  # Dynamo's words (a hint: `grad_mode`)
            elif fcid:
                reason = f"tensor 'x' size mismatch at index 0. expected {size - 1}, actual {size}"
            if reason:
                text = json.dumps([f"{fid}/{fcid - 1}: {reason}"])
                art = {"artifact": {"name": "recompile_reasons", "encoding": "json"}}
                f.write(_record("recompile_reasons", sec, {**art, **ids}, text))
            broke = fcid == 0 and fid % BREAK_EVERY == 0
            if broke:
                text = (
                    f"Graph break in user code at {SCRIPT}:{11 + fid % 40}\n"
                    "Graph Break Reason: Failed to trace builtin operator\n"
                    "  Explanation: Dynamo does not know how to trace builtin operator `print`"
                )
                art = {"artifact": {"name": "dynamo_graph_break_reason", "encoding": "string"}}
                f.write(_record("dynamo_graph_break_reason", sec, {**art, **ids}, text))
            sizes = {"l_x_": [size], "sin": [size], "add": [size]}
            f.write(_record("dynamo_output_graph", sec, {"dynamo_output_graph": {"sizes": sizes}, **ids}, _graph(i, size)))
            f.write(_record("dynamo_cpp_guards_str", sec, {"dynamo_cpp_guards_str": {}, **ids}, _guards(i, size)))
            metrics = _metrics(cid, i, fid, fcid, 1795452862.0 + sec, reason, broke)
            f.write(_record("compilation_metrics", sec, {"compilation_metrics": metrics, **ids}))
    return path.stat().st_size


MEASURE = """\
import resource, subprocess, sys, time, json
start = time.perf_counter()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
took = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = usage.ru_utime + usage.ru_stime
rss = usage.ru_maxrss / 1024
print(json.dumps({"rc": proc.returncode, "wall_s": took, "cpu_s": cpu, "sys_s": usage.ru_stime, "rss_mb": rss,
                  "stderr": proc.stderr[-2000:]}))
"""


def measure_open_dump(log: Path, out: Path) -> dict:
    """Wall time and peak RSS (MB) of `tcdebug open LOG --dump OUT`, run in a fresh process."""
    cmd = [sys.executable, "-c", MEASURE, sys.executable, "-m", "tcdebug", "open", str(log), "--dump", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT)
    result = json.loads(proc.stdout)
    if result["rc"] != 0:
        raise RuntimeError(f"open --dump failed ({result['rc']}): {result['stderr']}")
    return result


def file_creation_us(folder: Path, folders: int = 400) -> float:
    """Microseconds to create a folder or a file there, as the dump does (a folder and four files
    each): on this project's VM about 30 on a quiet disk, ten times that while the disk settles a
    large delete, which a dump of this size then pays 400,000 times."""
    folder.mkdir()
    started = time.perf_counter()
    for i in range(folders):
        sub = folder / str(i)
        sub.mkdir()
        for name in ("a.py", "b.txt", "why.md", "c.json"):
            (sub / name).write_text("x" * 400)
    return (time.perf_counter() - started) / (folders * 5) * 1e6


def _extra(parser) -> None:  # noqa: ANN001
    parser.add_argument("--compiles", type=int, default=100_000, help="compiles in the log")
    parser.add_argument("--keep-log", metavar="PATH", help="also keep the generated log here")


def main(argv: Sequence[str] | None = None) -> int:
    ns = parse_args(__doc__.splitlines()[0], argv, _extra)
    byte_compile_tcdebug()
    n = 500 if ns.quick else ns.compiles
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "dedicated_log_torch_trace_scale.log"
        started = time.perf_counter()
        size = write_log(log, n)
        generated = time.perf_counter() - started
        if ns.keep_log:
            Path(ns.keep_log).write_bytes(log.read_bytes())
        creation_us = file_creation_us(Path(tmp) / "probe")
        result = measure_open_dump(log, Path(tmp) / "out")
        folders = sum(1 for _ in os.scandir(Path(tmp) / "out" / "compiles"))
        print(f"open --dump: {result['wall_s']:.2f} s ({result['cpu_s']:.2f} s CPU), {result['rss_mb']:.0f} MB", file=sys.stderr, flush=True)
    section = Section(
        f"Many compiles: `open --dump` on a {n:,}-compile log ({size / 1e6:.0f} MB)",
        ["measure", "figure", "target"],
    )
    section.rows.append(["wall time", secs(result["wall_s"]), f"≤ {TARGET_S:.0f} s"])
    section.rows.append(["CPU time, user + sys (its forked writer included)", secs(result["cpu_s"]), ""])
    section.rows.append(["of which system time", secs(result["sys_s"]), ""])
    section.rows.append(["peak RSS (its largest process)", f"{result['rss_mb']:.0f} MB", f"≤ {TARGET_MB:.0f} MB"])
    section.notes.append(f"log written in {generated:.1f} s; {folders:,} compile folders in OUT")
    section.notes.append(
        f"creating a file or a folder took {creation_us:.0f} µs just before (about 30 on a quiet disk of "
        "this project's VM; ten times that while it settles a large delete, such as the previous run's)"
    )
    section.checks[f"open --dump <= {TARGET_S:.0f} s"] = result["wall_s"] <= TARGET_S
    section.checks[f"peak RSS <= {TARGET_MB:.0f} MB"] = result["rss_mb"] <= TARGET_MB
    section.checks["every compile has its folder"] = folders == n
    section.data = {
        "compiles": n,
        "bytes": size,
        "file_creation_us": creation_us,
        **{k: result[k] for k in ("wall_s", "cpu_s", "sys_s", "rss_mb")},
    }
    return finish(section, ns.json)


if __name__ == "__main__":
    sys.exit(main())
