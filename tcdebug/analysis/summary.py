"""The short text summary printed after `--dump` (and `tcdebug open --dump`)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tcdebug.analysis import accuracy_report
from tcdebug.analysis.compile_phases import bar_lines, is_timed, paused_note, run_totals, timeline_lines
from tcdebug.analysis.hints import Hint, break_where, hint_lines, readable_cause
from tcdebug.analysis.stack_trie import trie_lines
from tcdebug.analysis.why import times_of, top_reasons
from tcdebug.errors import first_line
from tcdebug.model.session import Compile, Rerun, Session, stance_line
from tcdebug.textsafe import safe_line
from tcdebug.torchtext.dynamo_text import split_recompile_reasons


def short_reason(reason: str) -> str:
    """The line of a graph-break reason that says what happened, not the preamble."""
    for line in reason.strip().splitlines():
        line = line.strip()
        if line and not line.startswith("Encountered graph break when attempting"):
            return first_line(line)
    return first_line(reason)


def _where(filename: str, line: int, shown: dict[str, str]) -> str:
    """`path:line`, the path relative to the working folder where it lies inside it; `shown`
    keeps each file's path (a few files, named by every compile of a big log)."""
    path = shown.get(filename)
    if path is None:
        rel = os.path.relpath(filename) if filename else ""
        path = shown[filename] = rel if rel and not rel.startswith("..") else filename
    return f"{path}:{line}" if path else ""


def _cudagraph_lines(compiles: list[Compile]) -> list[str]:
    """`cuda graphs: 2` and one line per compiled graph: recordings, or why it was skipped."""
    found = [
        (c, s)
        for c in compiles
        if any(s.stage_id == "cudagraph" for s in c.stages.values())  # few have one: sorted only then
        for s in c.ordered_stages()
        if s.stage_id == "cudagraph" and s.captured
    ]
    if not found:
        return []
    lines = [f"cuda graphs: {len(found)}"]
    width = max(9, *(len(stage.part) for _, stage in found))  # `backward_1`: a subgraph's part
    for comp, stage in found:
        meta = stage.meta
        where = f"  {comp.compile_id:<6} {stage.part or '-':<{width}}"
        if meta.get("skipped"):
            reasons = meta.get("skip_reasons") or ["?"]
            reason = str(reasons[0]).split(" Found from")[0].strip().rstrip(".")
            lines.append(f"{where} skipped: {first_line(reason)}")
            continue
        kernels = len(stage.kernels)
        line = f"{where} {meta.get('recordings', 0)} recording(s), {kernels} kernels captured"
        rerecords = meta.get("rerecord_reasons") or []
        if rerecords:
            line += f"; re-recorded: {first_line(str(rerecords[-1]), 100)}"
        lines.append(line)
    return lines


def _time_lines(compiles: list[Compile], total: dict[str, Any]) -> list[str]:
    """Where compile time went: the whole run (`run_totals`), as text bars (per compile: why.md)."""
    if not total["phases"]:
        return []
    paused = paused_note(total)
    head = f"compile time: {total['wall_s']:.2f}s over {len(compiles)} compiles"
    return [head + (f" ({paused} at pause points, not counted)" if paused else ""), *bar_lines(total)]


def _phase_pass(compiles: list[Compile]) -> tuple[list[tuple[str, Mapping[str, Any]]], dict[str, Any]]:
    """One pass over the compiles' phase times: those torch timed (the timeline's rows), and the
    run's totals. Times inferred from metrics are made and dropped one at a time: a log of
    100,000 compiles would otherwise hold them all at once."""
    timed: list[tuple[str, Mapping[str, Any]]] = []

    def each() -> Iterator[Mapping[str, Any]]:
        for c in compiles:
            t = times_of(c)
            if is_timed(t):
                timed.append((c.compile_id, t))
            if t:
                yield t

    total = run_totals(each())
    return timed, total


def summary_text(session: Session, *, out: str | None = None, hints: list[Hint] | None = None) -> str:
    """The `--dump` summary. `hints`: the session's hints (`session_hints`), where the caller
    has them (the dump's `IndexCache` made them for the compiles' whys)."""
    lines: list[str] = []
    head = f"tcdebug: {session.script or '(trace)'}"
    if session.torch_version:
        head += f"  torch {session.torch_version}"
    device = session.shown_device()
    if device:
        head += f"  {device}"
    lines.append(head)
    compiles = session.ordered_compiles()
    lines.append(f"compiles: {len(compiles)}")
    shown: dict[str, str] = {}
    for comp in compiles:
        captured = sum(1 for s in comp.stages.values() if s.captured)
        missing = len(comp.stages) - captured
        where = _where(comp.filename, comp.firstlineno, shown)
        rank = f"[rank {comp.rank}] " if comp.rank is not None else ""
        if session.is_child(comp) and comp.process != f"rank {comp.rank}":  # a process the script forked
            rank += f"[{safe_line(comp.process)[:60] or f'pid {comp.pid}'}] "
        status = "" if comp.status in ("ok", "compiling") else f"  {comp.status.upper()}"
        extra = f", {missing} not captured" if missing else ""
        lines.append(
            f"  {rank}{comp.compile_id:<6} {comp.shown_name:<28} {captured:>2} stages{extra}"
            f"  {comp.elapsed_s:.2f}s  {where}{status}"
        )
        if comp.error:
            lines.append(f"         error: {first_line(comp.error)}")
    breaks = session.graph_breaks()
    lines.append(f"graph breaks: {len(breaks)}")
    for gb in breaks:
        lines.append(f"  {gb.compile_id:<6} {short_reason(gb.reason)}")
        where = break_where(gb)
        if where:
            lines.append(f"         at {where}")
    recompiles = session.recompiles()
    lines.append(f"recompiles: {len(recompiles)}")
    for comp in recompiles:
        causes = [f"{r.entry}: {readable_cause(r.text)}" for r in split_recompile_reasons(comp.recompile_reason)]
        lines.append(f"  {comp.compile_id:<6} {'; '.join(causes) or first_line(comp.recompile_reason)}")
    lines.extend(_cudagraph_lines(compiles))
    if session.stance_events:  # torch.compiler.set_stance: each change, and each call a stance acted on
        lines.append(f"stances: {len(session.stance_events)}")
        lines += [f"  {stance_line(ev)}" for ev in session.stance_events]
    if session.reruns:
        lines.append(f"re-runs: {len(session.reruns)}")
        for rerun in session.reruns:
            lines += rerun_lines(rerun)
    compared = [c for c in compiles if c.accuracy is not None]
    if compared:
        lines.append(f"accuracy: {len(compared)} compiles compared with eager (accuracy.md per compile)")
        lines += ["  " + accuracy_report.summary_line(c) for c in compared]
    for note in session.notes:
        lines.append(f"note: {note}")
    if device.startswith("cpu") and session.origin == "live":  # no process of it used CUDA
        lines.append("note: cudagraph and Triton stages: not captured (no CUDA device)")
    if session.exit_code not in (None, 0) or session.error:
        lines.append(f"script: {session.status_line}")
    if out:
        files = sum(1 for c in compiles for s in c.stages.values() if s.file)
        lines.append(f"dump: {out}/ (session.json, output.txt, {files} stage files, why.md per compile)")
    timed, total = _phase_pass(compiles)
    lines.extend(timeline_and_call_sites(compiles, timed))
    lines.extend(_time_lines(compiles, total))
    lines.extend(top_reasons(session))
    lines.extend(hint_lines(session, hints))  # the summary ends with the top reasons and the hints
    # Names, reasons and notes come from scripts, logs and dumps: one sanitizer for all of it.
    return "\n".join(safe_line(line) for line in lines)


TIMELINE_WIDTH = 60
MAX_TRIE_LINES = 40


def timeline_and_call_sites(compiles: list[Compile], timed: Sequence[tuple[str, Mapping[str, Any]]]) -> list[str]:
    """The compile-time timeline (each compile's phases on one time axis, from torch's timed
    events) and the stack trie of the compiles' call sites, where the session has them.
    `timed`: the compiles' (id, phase times) that torch timed (`_phase_pass`)."""
    lines: list[str] = []
    timeline = timeline_lines(timed, TIMELINE_WIDTH)
    if timeline:
        lines.append("compile-time timeline:")
        lines += timeline
    trie = trie_lines(compiles, max_lines=MAX_TRIE_LINES)
    if trie:
        lines.append("call sites (stack trie):")
        lines += trie
    return lines


def rerun_lines(rerun: Rerun) -> list[str]:
    """A re-run: its verdict, then each cache entry's guard check."""
    dynamic = f" dynamic={rerun.dynamic}" if rerun.dynamic else ""
    head = f"  #{rerun.rerun_id} {rerun.function or '?'} [{rerun.spec}]{dynamic}: {rerun.status}"
    if rerun.status == "ok" and rerun.produced:
        head += f", recompiled {', '.join(rerun.produced)}"
    elif rerun.status == "ok" and rerun.reused:
        head += f", reused {rerun.reused} (no recompile)"
    elif rerun.status == "checked" and rerun.checks:
        head += f", would reuse {rerun.reused}" if rerun.reused else ", would recompile"
    lines = [head]
    for check in rerun.checks:
        failed = sum(1 for g in check.guards if g.checked and not g.passed)
        verdict = "passes" if check.passed else f"fails ({failed} of {len(check.guards)} guards)"
        reason = (
            check.reason.split(": ", 1)[1]
            if check.reason.startswith(f"{check.compile_id}: ")
            else check.reason
        )
        lines.append(
            f"      guards of {check.compile_id} {verdict}" + (f": {first_line(reason)}" if reason else "")
        )
    if rerun.status == "failed" and rerun.produced:
        lines.append(f"      compiled: {', '.join(rerun.produced)}")
    if rerun.error:
        lines.append(f"      error: {first_line(rerun.error, 300)}")
    return lines
