"""Regenerate the TORCH_TRACE logs under tests/data/traces/ that come from tests/scripts/traces/.

    python tests/scripts/make_traces.py [NAME ...]     # default: all of them

Each case runs a real script with torch on the CPU, then drops the bulky records tcdebug does
not show (chromium events, tensor descriptions, config dumps) so the committed logs stay small;
every record kept is byte-for-byte what torch wrote. See tests/data/traces/README.md.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "traces"
OUT = HERE.parent / "data" / "traces"

# Records dropped from committed logs (tcdebug ignores them; they are most of a log's bytes).
DROP_KEYS = {
    "chromium_event",
    "describe_storage",
    "describe_tensor",
    "describe_source",
    "expression_created",
    "create_symbol",
    "guard_added_fast",
    "guard_added",
    "symbolic_shape_specialization",
}
DROP_ARTIFACTS = {
    "fx_graph_runnable",
    "torch._functorch.config",
    "inductor_provenance_tracking_node_mappings",
}


def _record_name(line: bytes) -> str:
    brace = line.find(b"{")
    try:
        envelope = json.loads(line[brace:])
    except ValueError:
        return ""
    for key, value in envelope.items():
        if key in ("rank", "frame_id", "frame_compile_id", "attempt", "compiled_autograd_id", "has_payload"):
            continue
        if key == "artifact" and isinstance(value, dict):
            return str(value.get("name", ""))
        return key
    return ""


def _small_metrics(line: bytes) -> bytes:
    """compilation_metrics without its config dumps (`*_config` strings of 10-40 KB each)."""
    brace = line.find(b"{")
    envelope = json.loads(line[brace:])
    metrics = envelope["compilation_metrics"]
    for key, value in list(metrics.items()):
        if key.endswith("_config") and isinstance(value, str) and len(value) > 1000:
            metrics[key] = "(left out of this test log)"
    return line[:brace] + json.dumps(envelope).encode() + b"\n"


def trim(src: Path, dst: Path, keep_artifacts: tuple[str, ...] = (), keep_chromium: bool = False) -> None:
    """Copy `src` to `dst` without the dropped records (a record = its line and payload lines)."""
    keep = True
    out: list[bytes] = []
    drop = DROP_KEYS - {"chromium_event"} if keep_chromium else DROP_KEYS
    for line in src.read_bytes().splitlines(keepends=True):
        if not line.startswith(b"\t"):
            name = _record_name(line)
            keep = name not in drop and (name not in DROP_ARTIFACTS or name in keep_artifacts)
            if keep and name == "compilation_metrics":
                line = _small_metrics(line)
        if keep:
            out.append(line)
    dst.write_bytes(b"".join(out))


def run(
    script: str,
    trace_dir: Path,
    *args: str,
    env_var: str = "TORCH_TRACE",
    extra_env: dict[str, str] | None = None,
) -> None:
    env = dict(
        os.environ,
        TORCHINDUCTOR_FORCE_DISABLE_CACHES="1",
        TORCH_DYNAMO_AUTOMATIC_DYNAMIC_LOCAL_PGO="0",
        **(extra_env or {}),
    )
    env[env_var] = str(trace_dir)
    subprocess.run([sys.executable, str(SCRIPTS / script), *args], env=env, check=True, cwd=SCRIPTS)


def logs(folder: Path) -> list[Path]:
    return sorted(folder.glob("dedicated_log_torch_trace*.log"), key=lambda p: p.stat().st_mtime)


def fresh(name: str) -> Path:
    dst = OUT / name
    shutil.rmtree(dst, ignore_errors=True)
    dst.mkdir(parents=True)
    return dst


def single(name: str, script: str, env_var: str = "TORCH_TRACE") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        run(script, Path(tmp), env_var=env_var)
        (log,) = logs(Path(tmp))
        trim(log, fresh(name) / log.name)


def make_export() -> None:
    single("export", "export_dde.py", env_var="TORCH_DTRACE")


def make_aoti() -> None:
    single("aoti", "aoti_cpu.py")


def make_restart() -> None:
    single("restart", "restart.py")


def make_two_runs() -> None:
    """restart.py run twice; both runs appended to one log (as two jobs sharing a log file)."""
    with tempfile.TemporaryDirectory() as tmp:
        run("restart.py", Path(tmp))
        run("restart.py", Path(tmp))
        first, second = logs(Path(tmp))
        joined = Path(tmp) / "joined.log"
        joined.write_bytes(first.read_bytes() + second.read_bytes())
        trim(joined, fresh("two_runs") / "dedicated_log_torch_trace_two_runs.log")


def make_reset() -> None:
    single("reset", "reset_rerun.py")


def make_dup_ranks() -> None:
    """ranks_dup.py, then a shorter second run into the same folder, of which rank 1's log is kept."""
    with tempfile.TemporaryDirectory() as tmp:
        run("ranks_dup.py", Path(tmp))
        first = set(logs(Path(tmp)))
        run("ranks_dup.py", Path(tmp), "--short")
        second = [p for p in logs(Path(tmp)) if p not in first and "rank_1_" in p.name]
        dst = fresh("dup_ranks")
        for log in sorted(first) + second:
            trim(log, dst / log.name)


def make_cond() -> None:
    """torch.cond with Inductor's provenance tracking on: each branch's kernels, mapped to the
    branch's own node names."""
    with tempfile.TemporaryDirectory() as tmp:
        run("../cond_subgraphs.py", Path(tmp), extra_env={"INDUCTOR_PROVENANCE": "1"})
        (log,) = logs(Path(tmp))
        trim(log, fresh("cond") / log.name, keep_artifacts=("inductor_provenance_tracking_node_mappings",))


def make_tensorify() -> None:
    single("tensorify", "tensorify_restart.py")


def make_collectives() -> None:
    """Two gloo ranks whose compiled graphs' collectives differ (with chromium events, for the
    compile-time timeline)."""
    with tempfile.TemporaryDirectory() as tmp:
        run("collectives_diverge.py", Path(tmp))
        dst = fresh("collectives")
        for log in logs(Path(tmp)):
            trim(log, dst / log.name, keep_chromium=True)


CASES = {
    "export": make_export,
    "aoti": make_aoti,
    "restart": make_restart,
    "two_runs": make_two_runs,
    "reset": make_reset,
    "dup_ranks": make_dup_ranks,
    "cond": make_cond,
    "tensorify": make_tensorify,
    "collectives": make_collectives,
}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(CASES):
        CASES[name]()
        print(name, sum(p.stat().st_size for p in (OUT / name).glob("*.log")), "bytes")
