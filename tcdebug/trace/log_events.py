"""The session events of a TORCH_TRACE log: its records, read here or in a child process
(`tcdebug.trace.worker`), converted here (`tcdebug.trace.to_session`). Its own module so that the
worker, which converts a log in a child, and the converter import each other in neither direction."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from tcdebug.model.events import Event
from tcdebug.trace import worker
from tcdebug.trace.reader import TraceStats, read_records
from tcdebug.trace.to_session import TraceConverter


def iter_trace_events(
    path: str | Path, stats: TraceStats | None = None, *, children: bool | None = None
) -> Iterator[Event]:
    """Session events for the log at `path`, produced while it streams (see `apply_event`).

    `children`: read the records in a child process, while this one converts them (default:
    for big logs, see `tcdebug.trace.worker.use_children`); the events are the same."""
    stats = stats if stats is not None else TraceStats()
    converter = TraceConverter(stats)
    if children is None:
        children = worker.use_children(path)
    records = worker.records_in_children(path, stats) if children else read_records(path, stats)
    yield from converter.events(records)
