"""Real Inductor compiles with tcdebug's structured-trace dispatcher and its record filter
(`tcdebug.capture.trace_records`): which records torch builds, and what the dispatcher gets.

Torch calls `log_trace_structured_event(name, record)` for every record it builds; the script
counts them there. Three phases, each with a fresh Dynamo:
1. the dispatcher alone, routing two keys: the records torch builds, the routed payloads received;
2. two artifacts logged by hand, one routed and one not: whose payload function ran;
3. a second handler on `torch.__trace` (as `TORCH_TRACE` adds): the records torch builds again,
   where the second handler's records say they were logged from, and torch's function back in place.
Prints one JSON line.
"""

import json
import logging

import torch
import torch._logging._internal as internal
import torch._subclasses.meta_utils as meta_utils

from tcdebug.capture.base import TraceDispatcher
from tcdebug.capture.trace_records import build_only_routed_records

built: list[str] = []
torch_log_event = internal.log_trace_structured_event


def count_built(name, record):  # noqa: ANN001, ANN201 - torch's hook for every record it builds
    key = name
    if name == "artifact" and isinstance(record.get(name), dict):
        key = f"artifact:{record[name].get('name')}"
    built.append(key)
    return torch_log_event(name, record)


internal.log_trace_structured_event = count_built


class Recorder:  # what the dispatcher asks of tcdebug's recorder
    current = None

    def key(self, compile_id: str, *, starting: bool = False) -> str:
        return compile_id

    def open_subgraph_stage(self, compile_id: str, stage_id: str) -> None:
        pass


received: dict[str, list[str]] = {}
dispatcher = TraceDispatcher(Recorder())  # type: ignore[arg-type]
for key in ("dynamo_output_graph", "artifact:inductor_post_grad_graph", "artifact:routed_by_hand"):
    dispatcher.on(key, lambda cid, md, payload, key=key: received.setdefault(key, []).append(payload or ""))
dispatcher.attach()
original = internal.trace_structured
record_filter = build_only_routed_records(torch, dispatcher)


def compile_once() -> None:
    torch._dynamo.reset()
    model = torch.nn.Linear(8, 4)

    @torch.compile
    def step(x: torch.Tensor) -> torch.Tensor:
        return torch.relu(model(x)).sum()

    step(torch.randn(3, 8)).backward()


compile_once()
phase1 = sorted(set(built))
phase1_received = {key: len(texts) for key, texts in received.items()}
phase1_printed = all("class GraphModule" in text for text in received.get("dynamo_output_graph", ["-"]))

ran: list[str] = []
built.clear()
for name in ("routed_by_hand", "not_routed_by_hand"):
    torch._logging.trace_structured(
        "artifact",
        metadata_fn=lambda name=name: {"name": name, "encoding": "string"},
        payload_fn=lambda name=name: ran.append(name) or f"payload of {name}",
    )
phase2 = {"payloads_run": ran, "built": built[:], "received": received.get("artifact:routed_by_hand", [])}


class Listener(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.paths: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.paths.append(record.pathname)


listener = Listener()
internal.trace_log.addHandler(listener)
built.clear()
compile_once()
phase3 = sorted(set(built))
internal.trace_log.removeHandler(listener)

print(
    json.dumps(
        {
            "installed": record_filter.active or record_filter.skipped > 0,
            "skipped": record_filter.skipped,
            "phase1_built": phase1,
            "phase1_received": phase1_received,
            "phase1_graph_is_printed": phase1_printed,
            "phase2": phase2,
            "phase3_built": phase3,
            "phase3_paths": sorted(set(listener.paths[1:])),
            "phase3_first_path": listener.paths[0] if listener.paths else "",
            "restored": internal.trace_structured is original
            and torch._logging.trace_structured is original
            and meta_utils.trace_structured is original,
            "filter_active": record_filter.active,
        }
    )
)
