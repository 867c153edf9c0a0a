"""Compile time per phase: folds torch's `dynamo_timed` chromium events (see
`tcdebug.analysis.compile_phases`) and sends a `compile_times` event each time a compile's outermost
timer ends (the forward compile, then again after a lazy backward compile), without the time
the recorder spent paused at pause points inside those timers (`Recorder.pauses`)."""

from __future__ import annotations

from typing import Any

from tcdebug.analysis.compile_phases import PhaseCollector, parse_event
from tcdebug.capture.base import CaptureContext
from tcdebug.model.events import CompileTimes

STAGES: tuple[str, ...] = ()


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder
    collector = PhaseCollector()

    def on_event(cid: str, md: dict[str, Any], payload: str | None) -> None:
        if md.get("frame_id") is None and md.get("compiled_autograd_id") is None:
            return  # a worker thread's timer: the waiting compile's own timer covers it
        done = collector.feed(parse_event(payload), cid)
        if done is not None:
            rec.emit(CompileTimes(compile_id=done, times=collector.times(done, getattr(rec, "pauses", None))))

    ctx.handler.on("chromium_event", on_event)
