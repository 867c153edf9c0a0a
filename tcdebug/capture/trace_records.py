"""Torch builds only the structured-trace records that tcdebug reads.

`torch._logging.trace_structured` builds a record (its context, its payload: often a graph printed
again, the payload's md5) whenever the `torch.__trace` logger has a handler, and tcdebug's
dispatcher is one. Under plain python, with no handler, torch builds none. Of the records a compile
makes, tcdebug routes most (`TraceDispatcher.on`) and drops the rest unread: the meta-tensor
descriptions (`describe_tensor`, `describe_storage`, `describe_source`, one each per input), the
post-grad graph before its passes (`before_post_grad_graph`), AOTAutograd's forward metadata, ...

`build_only_routed_records` puts a filter in front of `trace_structured` (in `torch._logging`,
`torch._logging._internal`, and every torch module that imported it by name) that returns at once
for a record no unit routes, while the dispatcher is the logger's only handler. Nothing is built for
such a record, as under python; routed records are built by torch's own function, untouched.
Interned strings (`str` records) are always built: a later reader of the trace needs every one.

Where another handler listens (`TORCH_TRACE` set, or a handler the script adds), every record is
built: with one at the start the filter is never put in; one added later puts torch's own function
back everywhere the filter was, at the first record after it. That record is still logged through
the filter's frame, which `logging`'s `stacklevel` then names as its caller (in `pathname`); the
records after it name torch's callers as they do under python. Torch's own `LazyTraceHandler`
without a folder (no `TORCH_TRACE`) is not yet listening: the first record it is given, built as
torch builds it, has it find a folder or leave the logger, as under python.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext, TraceDispatcher

STAGES: tuple[str, ...] = ()
TRACE_STRUCTURED = patches.declare(
    "torch._logging._internal",
    "trace_structured",
    unit="trace_filter",
    breaks="speed: torch builds every structured-trace record, also those tcdebug never reads",
)
LAZY_TRACE_HANDLER = patches.declare(
    "torch._logging._internal",
    "LazyTraceHandler",
    unit="trace_filter",
    breaks="speed: with torch's own trace handler undecided, every record is built",
    kind=patches.READS,
)

ALWAYS_BUILT = frozenset({"str"})  # interned strings: later records refer to them by number


def record_key(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str | None, Any]:
    """The dispatcher's key of a `trace_structured(name, metadata_fn, ...)` call (`artifact:<name>`
    for an artifact, whose metadata is read for it), and the metadata read (None where not read).
    The key is None where the metadata cannot be read: the record is then built as torch builds it."""
    if name != "artifact":
        return name, None
    metadata_fn = args[0] if args else kwargs.get("metadata_fn")
    if not callable(metadata_fn):
        return None, None
    try:
        metadata = metadata_fn()
    except Exception:  # noqa: BLE001 - torch's own call raises it again, as it would
        return None, None
    if not isinstance(metadata, dict):
        return None, None
    return f"artifact:{metadata.get('name', '')}", metadata


class RecordFilter:
    """The filter in front of `trace_structured`, and where it was put (to put torch's back)."""

    def __init__(self, torch: Any, dispatcher: TraceDispatcher) -> None:
        internal = torch._logging._internal
        self.original: Callable[..., Any] = TRACE_STRUCTURED.get()
        self.trace_log: logging.Logger = internal.trace_log
        self.dispatcher = dispatcher
        self.lazy_handler = LAZY_TRACE_HANDLER.get(None)
        self.active = False
        self.skipped = 0  # records not built (for tests and measurements)
        self.filter = self._make_filter()

    def _make_filter(self) -> Callable[..., Any]:
        original = self.original
        trace_log = self.trace_log
        routes = self.dispatcher.routes

        @functools.wraps(original)
        def trace_structured(name: str, *args: Any, **kwargs: Any) -> Any:
            handlers = trace_log.handlers
            if handlers and name not in ALWAYS_BUILT:
                others = self.others(handlers)
                if others == "listening":
                    self.remove()
                if others:
                    return original(name, *args, **kwargs)
                key, metadata = record_key(name, args, kwargs)
                if key is not None and key not in routes:
                    self.skipped += 1
                    return None
                if metadata is not None:  # read once: torch's call gets the same dict
                    if args:
                        args = (lambda: metadata, *args[1:])
                    else:
                        kwargs["metadata_fn"] = lambda: metadata
            return original(name, *args, **kwargs)

        return trace_structured

    def install(self) -> bool:
        """Put the filter in; False (and nothing changed) where another handler already listens."""
        if self.others(self.trace_log.handlers) == "listening":
            return False
        patches.replace_everywhere(TRACE_STRUCTURED, self.original, self.filter)
        self.active = True
        return True

    def others(self, handlers: list[logging.Handler]) -> str:
        """What the trace logger's handlers other than the dispatcher do: "" (none), "undecided"
        (only torch's own `LazyTraceHandler` without a folder, not yet asked to log: on its first
        record it finds a folder or leaves, so that record is built as torch builds it), or
        "listening"."""
        found = ""
        for handler in handlers:
            if handler is self.dispatcher:
                continue
            undecided = (
                self.lazy_handler is not None
                and isinstance(handler, self.lazy_handler)
                and getattr(handler, "root_dir", "") is None
                and getattr(handler, "stream", "") is None
            )
            if not undecided:
                return "listening"
            found = "undecided"
        return found

    def remove(self) -> None:
        """Put torch's own function back everywhere the filter is."""
        if self.active:
            self.active = False
            patches.restore(TRACE_STRUCTURED, self.filter)
            # modules imported since took the filter by name: torch's own back there too
            patches.replace_everywhere(TRACE_STRUCTURED, self.filter, self.original, keep=False)


def build_only_routed_records(torch: Any, dispatcher: TraceDispatcher) -> RecordFilter:
    """Install the filter (see the module's doc); returns it, `active` False where it is not in."""
    record_filter = RecordFilter(torch, dispatcher)
    record_filter.install()
    return record_filter


def install(ctx: CaptureContext) -> None:
    """The unit's step (`tcdebug.capture.setup`), once the dispatcher is attached."""
    build_only_routed_records(ctx.torch, ctx.handler)
