"""What the stage view shows for a timeline row: a header, a text and its language.

Pure functions over the `Session` model, so they are easy to test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable
from dataclasses import dataclass

from rich.text import Text

from tcdebug.analysis.why import cache_lines, choice_table_lines, first_call_note, tables_for_kernel, times_of
from tcdebug.model import stages as stage_catalog
from tcdebug.model.session import SKIPPED, Compile, Kernel, Session, Stage, stance_line
from tcdebug.screens.ref import Ref
from tcdebug.screens.safe_rich import safe_rich
from tcdebug.textsafe import safe_line
from tcdebug.torchtext.output_code import format_config
from tcdebug.torchtext.stage_text import full_text, fusion_log_line, line_count, plural


@dataclass
class View:
    header: Text
    text: str
    language: str = "text"
    key: Hashable | None = None  # names the document, so its highlighting can be reused
    start_line: int = 0  # the line (0-based) the view opens on: the first kernel of a kernel_source


def _compile_title(comp: Compile) -> str:
    return safe_line(f"{comp.compile_id} {comp.shown_name}".strip())


def view_for(session: Session, ref: Ref | None, *, paused_at: tuple[str, str] | None = None) -> View:
    """What to show for `ref`. The header is made safe here; the text is made safe line by line
    where it is painted (`CodeView`)."""
    try:
        view = _view_for(session, ref, paused_at=paused_at)
    except Exception as exc:  # a dump or log of an unexpected shape: say so, never crash the app
        return View(Text(safe_line(f"cannot show this: {type(exc).__name__}: {exc}"), "red"), "")
    view.header = safe_rich(view.header)
    return view


def _view_for(session: Session, ref: Ref | None, *, paused_at: tuple[str, str] | None = None) -> View:
    if ref is None:
        return View(Text("nothing selected", "dim"), _waiting(session))
    comp = session.compiles.get(ref.compile_id)
    if comp is None:
        return View(Text(f"compile {safe_line(ref.compile_id)} is gone", "red"), "")
    if ref.item == "process":
        return _process_view(session, comp)
    if ref.item == "pending":
        return _pending_view(comp, ref)
    if ref.item.startswith("break:"):
        return _break_view(comp, int(ref.item.split(":", 1)[1]))
    if ref.item.startswith("stance:"):
        return _stance_view(session, int(ref.item.split(":", 1)[1]))
    if ref.item == "artifacts":
        names = [st for st in comp.ordered_stages() if st.stage_id.startswith("artifact_")]
        header = Text.assemble(("artifacts ", "bold"), _compile_title(comp))
        lines = [
            f"{plural(len(names), 'artifact record')} of compile {comp.compile_id} (enter or → lists them):",
            "",
        ]
        lines += [f"  {st.key:<48} {st.title}" for st in names]
        return View(header, "\n".join(lines))
    if ref.item == "recompile":
        title = "↻ cache miss " if comp.is_ca_capture else "↻ recompile "
        header = Text.assemble((title, "bold magenta"), _compile_title(comp))
        return View(header, comp.recompile_reason)
    if ref.item == "cache":
        header = Text.assemble(("compile caches ", "bold"), _compile_title(comp))
        text = "\n".join(cache_lines(comp))
        if any(v.result == "hit" for v in comp.caches):
            text += "\n\nStages a hit skipped say so; K restarts the run cold (every cache off)."
        return View(header, text)
    if ref.item == "error":
        return View(Text.assemble(("✗ compile failed ", "bold red"), _compile_title(comp)), comp.error)
    if not ref.key:
        return View(Text.assemble(("compile ", "bold"), _compile_title(comp)), compile_summary(comp))
    stage = comp.stages.get(ref.key)
    if stage is None:
        return _pending_view(comp, ref)
    if ref.kernel:
        kernel = next((k for k in stage.kernels if k.name == ref.kernel), None)
        if kernel is not None:
            return _kernel_view(comp, stage, kernel)
    return _stage_view(comp, stage, paused=paused_at == (comp.compile_id, stage.key))


def _stance_view(session: Session, number: int) -> View:
    """A change of `torch.compiler.set_stance`, or a call a stance ran eagerly or refused."""
    if not 0 <= number < len(session.stance_events):
        return View(Text("this stance event is gone", "red"), "")
    ev = session.stance_events[number]
    title = "stance set " if ev.action == "set" else f"stance {ev.stance}: {ev.action.replace('_', ' ')} "
    header = Text.assemble(("⇄ ", "bold cyan"), (title, "bold"), (ev.function, ""))
    lines = [stance_line(ev), ""]
    if ev.action != "set" and ev.guard.strip():
        lines += [f"compile whose guards failed: {ev.compile_id or '?'}", "failing guard:", ev.guard, ""]
        lines.append(
            "eager_on_recompile runs a call eagerly when no compile's guards pass; fail_on_recompile "
            "raises instead of recompiling."
        )
    if ev.user is not None:
        lines.append(f"your line: {ev.user.file}:{ev.user.line}  {ev.user.code}")
    return View(header, "\n".join(lines))


# A TORCH_TRACE payload whose md5 does not match its record: shown as written, flagged.
MD5_FLAG = " · md5 mismatch: this text may be damaged"


def _process_view(session: Session, first: Compile) -> View:
    """A process of the script: who it is and how it runs."""
    pid = first.pid if session.is_child(first) else None
    label = session.process_label(pid)
    info = session.processes.get(session.main_pid if pid is None else pid)  # type: ignore[arg-type]
    compiles = [
        c.compile_id for c in session.ordered_compiles() if (c.pid if session.is_child(c) else None) == pid
    ]
    lines = [f"process: {label}"]
    if info is not None and info.ppid:
        lines.append(f"parent:  pid {info.ppid}")
    lines.append(f"compiles: {', '.join(compiles)}")
    if info is not None and session.origin == "live":
        how = "ended" if info.ended else ("stepping (pauses at its stages)" if info.stepping else "runs free")
        lines.append(f"now:     {how}")
    if pid is not None:
        lines += [
            "",
            "Processes the script forks run without pausing. To step one, open the palette",
            f"(ctrl+p) and choose 'step {label}'; 'run {label} free' lets it go again.",
        ]
    return View(Text.assemble(("process ", "bold"), label), "\n".join(lines))


def _waiting(session: Session) -> str:
    if session.compiles:
        return "Pick a compile or a stage in the timeline."
    if session.state in ("starting", "running"):
        return "Waiting for the first compile…"
    return "No compiles were captured."


def _stage_view(comp: Compile, stage: Stage, *, paused: bool) -> View:
    header = Text()
    if paused:
        header.append("▶ paused here ", "bold reverse green")
        header.append(" ")
    # Rich drops some control characters on `append`; made safe first, they show instead.
    header.append(safe_line(stage.title or stage.stage_id), "bold")
    header.append(safe_line(f"  {comp.compile_id} {comp.shown_name}  "))
    header.append(safe_line(stage.key), "cyan")
    if not stage.captured and stage.reason.startswith(SKIPPED):
        header.append("\n" + safe_line(stage.reason), "bold cyan")
        header.append("\nK restarts a live run cold: every cache off, every stage compiled", "cyan")
        return View(header, stage.get_text(), "text", key=("stage", comp.compile_id, stage.key, "nc"))
    if not stage.captured:
        header.append("\nnot captured: ", "bold yellow")
        header.append(safe_line(stage.reason or "no reason given"), "yellow")
        return View(header, stage.get_text(), "text", key=("stage", comp.compile_id, stage.key, "nc"))
    text = shown_text(stage)
    lines = line_count(text)
    header.append(f"\n{stage.language} · {plural(lines, 'line')} · +{stage.elapsed_s:.2f}s", "dim")
    start = 0
    hints = []  # a third header line, so an 80-column terminal shows them whole
    if stage.meta.get("md5_mismatch"):
        header.append(MD5_FLAG, "bold red")
    if stage.kernels:
        header.append(f" · {plural(len(stage.kernels), 'kernel')}", "cyan")
        hints.append("] next kernel · W call(), imports")
        start = first_kernel_line(text, stage.kernels[0].name)
    blocks = stage.meta.get("ir_blocks")
    if isinstance(blocks, int) and not isinstance(blocks, bool) and blocks > 1:
        header.append(f" · {blocks} schedulers", "cyan")
        first_subgraph = second_ir_block_line(text)
        if first_subgraph:
            hints.append(f"subgraphs' IR from line {first_subgraph}")
    fusion_at = fusion_log_line(text)
    if fusion_at:
        hints.append(f"fusion log from line {fusion_at}")
    lost = stage.meta.get("lost")
    if isinstance(lost, str) and lost:
        hints.append(lost)
    if hints:
        header.append("\n" + " · ".join(hints), "cyan")
    key = ("stage", comp.compile_id, stage.key, len(text))
    return View(header, text, stage.language, key=key, start_line=start)


def shown_text(stage: Stage) -> str:
    """A captured stage's text as the stage view shows it (and the search across stages reads it)."""
    text = full_text(stage)
    return guards_source_first(text) if stage.stage_id == "guards" else text


def second_ir_block_line(text: str) -> int:
    """The line (1-based) where an IR stage's second scheduler's text starts (the first subgraph
    Inductor lowered with its own scheduler), or 0."""
    for n, line in enumerate(text.splitlines()[1:], 2):
        if line in ("BEFORE FUSION", "AFTER FUSION"):
            return n
    return 0


_GUARD_COMMENT_RE = re.compile(r"^(?P<tree>[| ]*\+- )(?P<guard>\S.*?)\s{2,}# (?P<source>.+)$")


def guards_source_first(text: str) -> str:
    """Dynamo's guard tree with each guard's source comment on the line above it, at the guard's
    indentation, instead of after the guard (often 200 columns to the right)."""
    out = []
    for line in text.split("\n"):
        match = _GUARD_COMMENT_RE.match(line)
        if match is None:
            out.append(line)
            continue
        tree, source = match.group("tree"), match.group("source")
        if "  # " in source:  # "<code>  # <file:line> in <fn>": where first, then the code
            code, where = source.rsplit("  # ", 1)
            source = f"{where}: {code}"
        out.append(f"{tree[:-3]}   # {source}")
        out.append(f"{tree}{match.group('guard')}")
    return "\n".join(out)


def first_kernel_line(text: str, name: str) -> int:
    """The 0-based line where kernel `name` is defined in output code, with the comment block
    above it (its fused nodes); 0 when it is not found."""
    lines = text.split("\n")
    prefix = f"{name} = "
    for number, line in enumerate(lines):
        if line.startswith(prefix):
            while number > 0 and lines[number - 1].startswith("#"):
                number -= 1
            return number
    return 0


def call_line(text: str) -> int | None:
    """The 0-based line of the wrapper's `def call(` in output code, if any."""
    for number, line in enumerate(text.split("\n")):
        if line.lstrip().startswith("def call("):  # a module function, or `Runner.call` (torch 2.8+)
            return number
    return None


def _kernel_view(comp: Compile, stage: Stage, kernel: Kernel) -> View:
    index = stage.kernels.index(kernel)
    header = Text.assemble(
        (f"kernel {index + 1}/{len(stage.kernels)} ", "bold"),
        (safe_line(kernel.name), "bold cyan"),
        safe_line(f"  {comp.compile_id} {stage.key}"),
    )
    details = [kernel.kind or kernel.language]
    if kernel.configs:
        details.append(plural(len(kernel.configs), "config"))
    if kernel.chosen_config:
        details.append("chosen " + format_config(kernel.chosen_config))
    if "grid" in kernel.meta:
        details.append(f"grid {_dims(kernel.meta['grid'])} block {_dims(kernel.meta.get('block'))}")
    header.append("\n" + safe_line(" · ".join(str(d) for d in details)), "dim")
    if stage.meta.get("md5_mismatch"):
        header.append(MD5_FLAG, "bold red")
    language = "cpp" if kernel.language in ("cpp", "c++") else "python" if kernel.language else "text"
    comment = "//" if language == "cpp" else "#"
    info = kernel_info_lines(kernel)
    for table in tables_for_kernel(comp, stage, kernel.name):  # max-autotune: every choice it weighed
        info += ["", "autotune choices (* = the winner):", *choice_table_lines(table)]
    preamble = "".join(f"{comment} {line}\n" if line else f"{comment}\n" for line in info)
    text = f"{preamble}\n{kernel.source}" if info else kernel.source
    meta_size = len(json.dumps(kernel.meta, sort_keys=True, default=str))
    key = ("kernel", comp.compile_id, stage.key, kernel.name, len(kernel.source), meta_size)
    return View(header, text, language, key=key)


def _dims(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(str(v) for v in value) + ")"
    return str(value)


def kernel_info_lines(kernel: Kernel) -> list[str]:
    """What tcdebug knows about a kernel besides its source: origin, autotuning, launch."""
    meta = kernel.meta
    lines: list[str] = [f"{kernel.name} · {kernel.kind or kernel.language}"]
    fx_nodes = meta.get("fx_nodes") or kernel.provenance
    if fx_nodes:
        lines.append("fused FX nodes: " + ", ".join(str(n) for n in fx_nodes))
    else:  # every kernel has the same header, whatever its source said
        lines.append("fused FX nodes: not recorded")
    if meta.get("pre_grad_nodes"):
        lines.append("from pre-grad nodes: " + ", ".join(str(n) for n in meta["pre_grad_nodes"]))
    autotune = meta.get("autotune") or {}
    timings = autotune.get("timings_ms") or []
    if kernel.configs:
        how = autotune.get("chosen_by", "")
        lines.append(f"autotune: {len(kernel.configs)} config(s)" + (f", {how}" if how else ""))
        for i, config in enumerate(kernel.configs):
            chosen = kernel.chosen_config is not None and config == kernel.chosen_config
            timing = (
                f"  {timings[i]:.4f} ms" if i < len(timings) and isinstance(timings[i], (int, float)) else ""
            )
            lines.append(
                f"  {'*' if chosen else ' '} {format_config(config)}{timing}{'  <- chosen' if chosen else ''}"
            )
    elif kernel.chosen_config:
        lines.append("config: " + format_config(kernel.chosen_config))
    triton = meta.get("triton") or {}
    facts = []
    if triton.get("size_hints"):
        facts.append("size hints " + ", ".join(f"{k}={v}" for k, v in triton["size_hints"].items()))
    for name, label in (("num_load", "loads"), ("num_store", "stores"), ("num_reduction", "reductions")):
        if name in triton:
            facts.append(f"{label} {triton[name]}")
    if triton.get("mutated_arg_names"):
        facts.append("mutates " + ", ".join(triton["mutated_arg_names"]))
    if facts:
        lines.append(" · ".join(facts))
    if "grid" in meta:
        launch = f"launch #{meta.get('launch_index', 0) + 1}: grid {_dims(meta['grid'])}, block {_dims(meta.get('block'))}"
        if meta.get("shared_mem"):
            launch += f", shared memory {meta['shared_mem']} B"
        lines.append(launch)
    if meta.get("demangled"):
        lines.append("symbol: " + str(meta["demangled"]))
    return lines


def _pending_view(comp: Compile, ref: Ref) -> View:
    kind = stage_catalog.kind(ref.stage_id)
    header = Text.assemble(
        (kind.title, "bold dim"),
        safe_line(f"  {comp.compile_id} {comp.shown_name}  "),
        (safe_line(ref.key), "dim"),
    )
    return View(
        header, f"Not reached yet: the target has not produced {kind.id} for compile {comp.compile_id}."
    )


def _break_view(comp: Compile, number: int) -> View:
    try:
        gb = comp.graph_breaks[number]
    except IndexError:
        return View(Text("graph break is gone", "red"), "")
    header = Text.assemble(("⚠ graph break ", "bold yellow"), _compile_title(comp))
    text = gb.reason
    if gb.user_stack:
        text += "\n\nUser stack:\n" + "\n".join(gb.user_stack)
    return View(header, text)


def compile_summary(comp: Compile) -> str:
    lines = [f"compile {comp.compile_id}: {comp.shown_name or '?'}"]
    if comp.filename:
        lines.append(f"  at {comp.filename}:{comp.firstlineno}")
    lines.append(f"  status: {comp.status}" + (f" ({comp.error})" if comp.error else ""))
    if comp.elapsed_s:
        note = first_call_note(comp)
        if note:  # torch timed more under this id after the first call returned
            lines.append(f"  compile time: {times_of(comp)['wall_s']:.2f}s ({note})")
        else:
            lines.append(f"  compile time: {comp.elapsed_s:.2f}s")
    if comp.recompile_reason:
        because = "traced because" if comp.is_ca_capture else "recompiled because"
        lines.append(f"  {because}: {comp.recompile_reason}")
    for gb in comp.graph_breaks:
        lines.append(f"  graph break: {gb.reason}")
    lines.append("")
    lines.append("stages:")
    for stage in comp.ordered_stages():
        note = "" if stage.captured else f"  (not captured: {stage.reason})"
        kernels = f"  [{plural(len(stage.kernels), 'kernel')}]" if stage.kernels else ""
        lines.append(f"  {stage.key:<28} {stage.title}{kernels}{note}")
    if comp.metrics:
        lines.append("")
        lines.append("metrics:")
        for name, value in sorted(comp.metrics.items()):
            lines.append(f"  {name}: {value}")
    return "\n".join(lines)
