"""Kernel choice under max-autotune: every choice Inductor benchmarked for a template (mm, bmm,
addmm, conv, flex attention, ...), with its time, its share of the best, and its tile sizes.

Wraps `AlgorithmSelectorCache.log_results`, which torch calls with the timings after each
autotuned selection; sends one `autotune` event per table."""

from __future__ import annotations

import math
import re
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext, current_compile_key
from tcdebug.capture.event_points import EventPoints
from tcdebug.model.event_breaks import EventFacts
from tcdebug.model.events import Autotune
from tcdebug.model.payloads import AutotuneChoice, AutotuneTable

STAGES: tuple[str, ...] = ()
_PARAM = re.compile(r"(\w+)=('[^']*'|[^,\s]+)")
MAX_CHOICES = 200
LOG_RESULTS = patches.declare(
    "torch._inductor.select_algorithm",
    "AlgorithmSelectorCache.log_results",
    unit="autotune",
    breaks="why (`w`): max-autotune choice tables",
)


def parse_description(text: str) -> dict[str, int | str]:
    """ "BLOCK_K=32, BLOCK_M=16, num_stages=2, num_warps=4" -> {name: value}."""
    params: dict[str, int | str] = {}
    for key, value in _PARAM.findall(text or ""):
        value = value.strip("'")
        try:
            params[key] = int(value)
        except ValueError:
            params[key] = value
    return params


def table_of(name: str, input_nodes: Any, timings: dict[Any, float]) -> AutotuneTable:
    sizes = []
    for node in input_nodes or []:
        try:
            sizes.append("x".join(str(s) for s in node.get_size()))
        except Exception:  # noqa: BLE001 - a node without a size: leave it out
            sizes.append("?")
    finite = {c: t for c, t in timings.items() if isinstance(t, (int, float)) and math.isfinite(t)}
    best_choice = min(finite, key=finite.__getitem__) if finite else None
    best = finite.get(best_choice) if best_choice is not None else None
    choices = []
    for choice, t in sorted(timings.items(), key=lambda kv: kv[1] if math.isfinite(kv[1]) else math.inf):
        ok = isinstance(t, (int, float)) and math.isfinite(t)
        description = str(getattr(choice, "description", "") or "")
        choices.append(
            AutotuneChoice(
                name=str(getattr(choice, "name", choice)),
                time_ms=float(t) if ok else None,
                share=(best / t) if ok and best is not None and t > 0 else None,
                params=parse_description(description),
                description=description[:500],
            )
        )
    return AutotuneTable(
        name=str(name),
        sizes=", ".join(sizes),
        winner=str(getattr(best_choice, "name", "")) if best_choice is not None else "",
        choices=choices[:MAX_CHOICES],
    )


def install_inductor(ctx: CaptureContext) -> None:
    torch = ctx.torch
    rec = ctx.recorder
    points = ctx.options.shared(EventPoints)

    def log_results(
        original: Any, name: str, input_nodes: Any, timings: Any, *args: Any, **kwargs: Any
    ) -> Any:
        try:
            cid = current_compile_key(torch, rec)
            if cid is not None and isinstance(timings, dict) and timings:
                table = table_of(name, input_nodes, timings)
                part = rec.inductor_part(cid)
                table.stage = "kernel_source" + (f".{part}" if part else "")
                rec.emit(Autotune(compile_id=cid, table=table))
                if points is not None and rec.wants_event("autotune"):
                    detail = f"autotuning {name} chose {table.winner}"
                    points.pause(
                        cid, EventFacts("autotune", detail=detail, names=(name, table.winner)), stack=[]
                    )
        except Exception:  # noqa: BLE001 - capture never breaks the compile
            pass
        return original(name, input_nodes, timings, *args, **kwargs)

    def make(original: Any) -> Any:
        return lambda *args, **kwargs: log_results(original, *args, **kwargs)

    patches.wrap(LOG_RESULTS, make)
