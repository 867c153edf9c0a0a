"""Run under `tcdebug --dump`: after a compile, is torch's `trace_structured` tcdebug's record
filter (`tcdebug.capture.trace_records`)? Prints one JSON line."""

import json

import torch
import torch._logging._internal as internal

print(torch.compile(lambda x: torch.sin(x) + 1, backend="aot_eager")(torch.ones(4)).sum().item())
in_place = internal.trace_structured
print(
    json.dumps(
        {
            "filter_file": in_place.__code__.co_filename.replace("\\", "/").endswith("capture/trace_records.py"),
            "same_everywhere": torch._logging.trace_structured is in_place,
        }
    )
)
