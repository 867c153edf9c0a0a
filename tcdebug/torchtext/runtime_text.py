"""Runtime records Inductor logs: the order compiled graphs ran in. Shared by the live capture
(`tcdebug.capture.inductor_records`) and the TORCH_TRACE reader. Stdlib only."""

from __future__ import annotations

import json
from typing import Any


def execution_order(payload: str | None) -> list[str] | None:
    """The compile ids of a `graph_execution` artifact (`record_and_log_graph_execution_order`), in
    the order the graphs ran; None where the payload holds no order."""
    try:
        data: Any = json.loads(payload or "")
    except ValueError:
        return None
    items = data.get("graph_execution_order") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return None
    return [
        str(item.get("compile_id")) if isinstance(item, dict) else str(item)
        for item in items
        if isinstance(item, (str, dict))
    ]
