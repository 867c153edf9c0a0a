"""The specialization chain of each symbol: where the shape environment created it (its source and
the user's line), then every guard, replacement and range refinement that narrowed or specialized it,
in order, each with the user's line Dynamo was tracing; sent as one `symbol_chains` event per compile
at its end.

Creation comes from the `create_symbol` record; guards, range refinements and replacements from one
small wrap each (marked `PATCH:`) that calls the ShapeEnv's function unchanged and only reads what it
was given and the range it left.
"""

from __future__ import annotations

import functools
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext, current_compile_key
from tcdebug.capture.event_points import LOG_GUARD, SET_REPLACEMENT, UPDATE_RANGE, UserFrames, frames_of
from tcdebug.model.events import SymbolChains
from tcdebug.model.payloads import ChainStep, Frame
from tcdebug.torchtext.dynamo_text import symbol_created

STAGES: tuple[str, ...] = ()
MAX_SYMBOLS = 64
MAX_STEPS = 40


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder
    torch = ctx.torch
    users = UserFrames(torch)
    chains: dict[str, dict[str, list[ChainStep]]] = {}  # compile key -> symbol -> steps
    rec.fork_resets.append(chains.clear)

    def user_line() -> Frame | None:
        try:
            frames = frames_of(torch._guards.TracingContext.extract_stack())
        except Exception:  # noqa: BLE001 - outside a trace
            frames = []
        return users.innermost(frames) or users.caller()

    def add(cid: str | None, symbol: str, step: str, text: str) -> None:
        if not cid or not symbol:
            return
        per = chains.setdefault(cid, {})
        steps = per.get(symbol)
        if steps is None:
            if len(per) >= MAX_SYMBOLS:
                return
            steps = per[symbol] = []
        if len(steps) < MAX_STEPS and (not steps or (steps[-1].step, steps[-1].text) != (step, text)):
            steps.append(ChainStep(step=step, text=text, user=user_line()))

    def on_create(cid: str, md: dict[str, Any], payload: str | None) -> None:
        info = md.get("create_symbol") or {}
        symbol = str(info.get("symbol", ""))
        text = symbol_created(info)
        add(cid, symbol, "created", text)

    def on_metrics(cid: str, md: dict[str, Any], payload: str | None) -> None:
        found = chains.pop(cid, None)
        if found:
            rec.emit(SymbolChains(compile_id=cid, chains=found))

    ctx.handler.on("create_symbol", on_create)
    ctx.handler.on("compilation_metrics", on_metrics)

    # PATCH: ShapeEnv._log_guard, _update_var_to_range and _set_replacement -- each guard on a symbol,
    # each narrowing of its range, each replacement; torch's functions run unchanged.
    log_guard = LOG_GUARD.get()
    update_range = UPDATE_RANGE.get()
    set_replacement = SET_REPLACEMENT.get()

    def key() -> str | None:
        return current_compile_key(torch, rec)

    @functools.wraps(log_guard)
    def _log_guard(self: Any, prefix: str, g: Any, *args: Any, **kwargs: Any) -> Any:
        result = log_guard(self, prefix, g, *args, **kwargs)
        try:
            cid = key()
            for sym in sorted(getattr(g, "free_symbols", ()), key=str):
                add(cid, str(sym), "guard", f"{prefix}: {g}")
        except Exception:  # noqa: BLE001 - observing never breaks the compile
            pass
        return result

    @functools.wraps(update_range)
    def _update_var_to_range(self: Any, symbol: Any, vr: Any, *args: Any, **kwargs: Any) -> Any:
        before = self.var_to_range.get(symbol)
        result = update_range(self, symbol, vr, *args, **kwargs)
        try:
            after = self.var_to_range.get(symbol)
            if before is not None and after is not None and str(before) != str(after):
                add(key(), str(symbol), "range", f"range narrowed: {before} -> {after}")
        except Exception:  # noqa: BLE001
            pass
        return result

    @functools.wraps(set_replacement)
    def _set_replacement(self: Any, a: Any, tgt: Any, msg: str, *args: Any, **kwargs: Any) -> Any:
        result = set_replacement(self, a, tgt, msg, *args, **kwargs)
        try:
            if self.replacements.get(a) is not None:
                step = "specialized" if getattr(tgt, "is_number", False) else "replaced"
                add(key(), str(a), step, f"{a} = {self.replacements[a]} ({msg})")
        except Exception:  # noqa: BLE001
            pass
        return result

    patches.replace(LOG_GUARD, patches.unseen_by_shape_env(_log_guard))
    patches.replace(UPDATE_RANGE, patches.unseen_by_shape_env(_update_var_to_range))
    patches.replace(SET_REPLACEMENT, patches.unseen_by_shape_env(_set_replacement))
