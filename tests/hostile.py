"""An adversarial corpus, generated here: TORCH_TRACE logs and dump folders written the way a
hostile or broken producer would write them (imported by the hostile-input tests)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from tcdebug.dump.writer import write_dump
from tcdebug.model.session import (
    CallInfo,
    Compile,
    EntryCheck,
    GraphBreak,
    GuardResult,
    Kernel,
    OutputChunk,
    Rerun,
    Session,
    Stage,
)
from tcdebug.textsafe import safe_line

# Sets the terminal title, writes the clipboard (OSC 52), clears the screen; then markup that
# Textual would run as an action, and a bidi override.
ESCAPES = "\x1b]52;c;SGVsbG8=\x07\x1b]2;PWNED\x07\x1b[2J"
EVIL = f"{ESCAPES}[@click=app.quit]x[/][bold]B\u202eevil\x9b1m\x00\x08"
VISIBLE = "␛]2;PWNED"  # how the title sequence shows once made safe
SAFE_EVIL = safe_line(EVIL)  # how all of it shows
PREFIX = "V1123 10:45:15.432000 6261 torch/_dynamo/x.py:1] "

# Raw bytes that must never reach the terminal from a session (ESC, BEL, C1 CSI).
RAW_SEQUENCES = (b"\x1b]52;", b"\x1b]2;PWNED", b"\x07", b"\xc2\x9b")


def unsafe_bytes(data: bytes) -> list[int]:
    """Every byte below 0x20 other than tab and newline (ESC included), and DEL."""
    return [b for b in data if (b < 0x20 and b not in (0x09, 0x0A)) or b == 0x7F]


def trace_line(envelope: dict, payload: str | None = None) -> str:
    if payload is not None:
        envelope = {
            **envelope,
            "has_payload": hashlib.md5(payload.encode(), usedforsecurity=False).hexdigest(),
        }
    line = PREFIX + json.dumps(envelope) + "\n"
    if payload is not None:
        line += "".join(f"\t{p}\n" for p in payload.split("\n"))
    return line


def hostile_trace(folder: Path, evil: str = EVIL) -> Path:
    """A TORCH_TRACE log with `evil` in the function name, file name, graph-break reason, recompile
    reason, a graph, an artifact name, a kernel name and an unknown event key (a note), and compile
    ids that would be paths (`..`, `../x`, ``)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [trace_line({"str": [f"/tmp/{evil}file.py", 0]})]
    for frame in (0, "..", "../x", ""):
        ids = {"frame_id": frame, "frame_compile_id": 0, "attempt": 0}
        stack = [{"line": 3, "name": f"fn{evil}", "filename": 0}]
        lines.append(trace_line({"dynamo_start": {"stack": stack}, **ids}))
        lines.append(
            trace_line({"dynamo_output_graph": {"sizes": {}}, **ids}, f"class GraphModule:\n  # {evil}")
        )
        reason = f"Graph break in user code at /x.py:1\nGraph Break Reason: {evil}\nUser code traceback:\n"
        reason += f'  File "/tmp/{evil}.py", line 1, in f\n    y = g({evil})\n'
        artifact = {"artifact": {"name": "dynamo_graph_break_reason", "encoding": "string"}, **ids}
        lines.append(trace_line(artifact, reason))
        recompile = {"artifact": {"name": "recompile_reasons", "encoding": "json"}, **ids}
        lines.append(trace_line(recompile, json.dumps([f"size mismatch {evil}"])))
        named = {"artifact": {"name": f"../../{evil}", "encoding": "string"}, **ids}
        lines.append(trace_line(named, f"artifact text {evil}"))
        code = f"# AOT ID: ['0_inference']\ncpp_fused_{evil}_0 = async_compile.cpp_pybinding(['float*'], '''\nvoid kernel() {{}}\n''')\n"
        lines.append(trace_line({"inductor_output_code": {"filename": f"/tmp/{evil}.py"}, **ids}, code))
        metrics = {"co_name": f"fn{evil}", "co_filename": f"/tmp/{evil}file.py", "co_firstlineno": 3}
        lines.append(trace_line({"compilation_metrics": metrics, **ids}))
    lines.append(trace_line({f"unknown{evil}": {}}))
    lines.append(trace_line({"dynamo_start": {"stack": [{"line": "not a number", "name": "x"}]}, "frame_id": 9,
                             "frame_compile_id": 0}))  # fmt: skip
    path = folder / "dedicated_log_torch_trace_hostile.log"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def hostile_session(evil: str = EVIL) -> Session:
    """A session with `evil` in every text field (what a dump's session.json can say)."""
    session = Session(
        script=f"/tmp/{evil}script.py",
        argv=[f"/tmp/{evil}script.py", evil],
        origin="live",
        torch_version=f"2.13{evil}",
        python=f"3.11{evil}",
        device=f"cpu{evil}",
        state="failed",
        exit_code=1,
        error=f"ValueError: {evil}",
        notes=[f"note {evil}"],
        output=[OutputChunk("stdout", f"output {evil}\n")],
    )
    for cid in ("0/0", "!0/0", f"1/0{evil}", "..", "", "."):
        comp = Compile(
            cid, function=f"fn{evil}", filename=f"/tmp/{evil}file.py", firstlineno=3, status="failed"
        )
        comp.error = f"compile error {evil}"
        comp.recompile_reason = f"recompile {evil}"
        comp.graph_breaks = [GraphBreak(cid, f"graph break {evil}", [f'  File "/tmp/{evil}.py", line 1'])]
        comp.metrics = {f"metric{evil}": evil}
        kernel = Kernel(f"cpp_fused_{evil}", "cpp", f"// {evil}", kind=evil, meta={"demangled": evil})
        comp.stages["dynamo_graph"] = Stage("dynamo_graph", title=f"Dynamo {evil}", language="python",
                                            text=f"graph {evil}")  # fmt: skip
        comp.stages["kernel_source.inference"] = Stage(
            "kernel_source",
            part="inference",
            title=evil,
            language="cpp",
            text=f"code {evil}",
            kernels=[kernel],
        )
        comp.stages["guards"] = Stage("guards", status="not_captured", reason=f"not here {evil}")
        session.compiles[cid] = comp
    guard = GuardResult(f"guard {evil}", False, reason=f"reason {evil}", kind=evil, source=evil)
    session.reruns = [
        Rerun(1, function=f"fn{evil}", compile_id="0/0", spec=f"x={evil}", status="failed", error=f"err {evil}",
              checks=[EntryCheck("0/0", False, reason=f"0/0: {evil}", guards=[guard])], produced=[evil])
    ]  # fmt: skip
    session.calls = [
        CallInfo("k", function=f"fn{evil}", filename=f"/tmp/{evil}", compile_ids=["0/0"],
                 inputs=[{"name": f"x{evil}", "kind": "other", "type": evil, "repr": evil}])
    ]  # fmt: skip
    return session


def hostile_dump(out: Path, evil: str = EVIL) -> Path:
    """A dump folder written from `hostile_session` (session.json holds `evil` everywhere)."""
    write_dump(hostile_session(evil), out)
    return out


def files_outside(root: Path, base: Path) -> list[Path]:
    """Files under `base` (recursively, no symlink followed) that are not under `root`."""
    root = root.resolve()
    return [p for p in base.rglob("*") if not p.resolve().is_relative_to(root) and not p.is_symlink()]


def svg_text(svg: str) -> str:
    """The visible text of an exported SVG screenshot (tags removed, entities decoded)."""
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


# Every kind of hostile text at once, for the key sweep: OSC 52 and a title, CSI, DCS, a C1 CSI,
# Textual markup and a Rich link, bidi overrides and zero-width characters.
DCS = "\x1bPq#0;2;0;0;0#0~~@@vv\x1b\\"
SWEEP_EVIL = f"{EVIL}{DCS}[link=https://evil.example]L[/link][/bold]\u202dz\u200bw\u200dj\u2060\ufeff"
# Bytes from SWEEP_EVIL that must never reach the terminal raw (Textual writes its own CSI
# sequences, and a BEL to end its own OSC 22, so those are not searched for alone).
SWEEP_RAW = (
    *(seq for seq in RAW_SEQUENCES if seq != b"\x07"),
    b"PWNED\x07",
    b"\x1b[2J[@click",
    b"\x1bPq",
    b"\x1b]8;",  # a hyperlink: `[link=...]` read as markup
    "\u202e".encode(),
    "\u202d".encode(),
    "\u200b".encode(),
    "\u200d".encode(),
    "\u2060".encode(),
    "\ufeff".encode(),
)


def sweep_session(evil: str = SWEEP_EVIL) -> Session:
    """`hostile_session`, and what the other screens show: a stage whose part is markup with the
    provenance `f` follows from it, symbols (`S`), phase times (`T`) and metrics of any JSON type."""
    from tcdebug.analysis.provenance_index import ProvenanceIndex
    from tcdebug.model.payloads import ProvItem, ProvLink, ProvSymbol

    session = hostile_session(evil)
    for comp in session.compiles.values():
        key = "aot_forward.[/bold]"
        comp.stages[key] = Stage("aot_forward", part="[/bold]", title=f"AOT {evil}", language="python",
                                 text=f"def forward(x):\n    relu = x  # {evil}\n")  # fmt: skip
        comp.stages["dynamo_graph"].text = f"def forward(x):\n    y = x  # {evil}\n"
        index = ProvenanceIndex()
        items = [
            ProvItem(f"{key}|relu{evil}", key, f"relu{evil}", "fx_node", [2], detail=evil),
            ProvItem(f"dynamo_graph|y{evil}", "dynamo_graph", f"y{evil}", "fx_node", [2], detail=evil),
        ]
        index.add(items, [ProvLink(items[1].item_id, items[0].item_id, f"how{evil}")], [f"note {evil}"],
                  {f"s0{evil}": ProvSymbol([f"L['x{evil}']"], f"[2, {evil}]", evil, [f"guard {evil}"])})  # fmt: skip
        comp.provenance = index
        comp.times = {"wall_s": 1.0, "measured_s": 0.5, "phases": {f"phase{evil}": 0.5, "Codegen": 0.25},
                      "source": f"source {evil}"}  # fmt: skip
        comp.metrics = {**comp.metrics, "dynamo_cumulative_compile_time_us": [1, 2], "fail_reason": [evil],
                        "fail_type": {"x": evil}}  # fmt: skip
    return session
