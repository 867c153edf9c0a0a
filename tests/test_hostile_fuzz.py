"""Property-based fuzzing of the trace reader and the dump loader: whatever the input, no exception
escapes, no terminal control reaches what is printed or painted, and nothing is read outside."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from conftest import DATA
from hostile import EVIL, PREFIX, trace_line, unsafe_bytes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tcdebug import trace
from tcdebug.analysis.summary import summary_text
from tcdebug.dump.loader import load_dump
from tcdebug.dump.safe_fs import DumpError, compile_dir_name, safe_name
from tcdebug.screens.content import view_for
from tcdebug.screens.widgets.highlight import plain_lines
from tcdebug.screens.widgets.timeline import TimelineState, build_rows
from tcdebug.trace.reader import KNOWN_EVENTS

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=12) | st.sampled_from(
    [EVIL, "..", ".", "", "/", "../../etc/passwd", "/dev/zero", "0/0", "!0/0"]
)
# Text made of what terminals interpret: C0, DEL, C1, bidi controls, and ESC sequences.
HOSTILE = st.sampled_from([EVIL, "\x1b]2;T\x07", "\x1b[2J", "[b]x[/b]", "\u202e"]) | st.text(
    alphabet=st.characters(min_codepoint=0, max_codepoint=0xA0) | st.sampled_from("\u202e\u2066\x1b["),
    max_size=10,
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
CONTEXT = st.fixed_dictionaries(
    {},
    optional={
        "frame_id": st.integers(0, 3) | TEXT | JSON,
        "frame_compile_id": st.integers(0, 3) | TEXT,
        "attempt": st.integers(0, 2) | TEXT,
        "rank": st.integers(0, 2) | TEXT,
        "compiled_autograd_id": st.integers(0, 2) | TEXT,
    },
)
KEYS = (
    st.sampled_from(
        ["dynamo_start", "compilation_metrics", "artifact", "inductor_output_code", "dynamo_output_graph"]
    )
    | st.sampled_from(["aot_joint_graph", "aot_forward_graph", "aot_backward_graph", "bwd_compilation_metrics"])
    | st.sampled_from(sorted(KNOWN_EVENTS))
    | TEXT
)
FRAME = st.fixed_dictionaries({}, optional={"line": JSON, "name": HOSTILE | JSON, "filename": JSON})
# What torch's records hold, with any value: reaches the converter's field handling, not just its guards.
META = JSON | st.fixed_dictionaries(
    {},
    optional={
        "stack": st.lists(FRAME, max_size=2) | JSON,
        "name": st.sampled_from(["dynamo_graph_break_reason", "recompile_reasons", "torch_version"])
        | HOSTILE,
        "encoding": TEXT,
        "filename": JSON,
        "co_name": JSON,
        "co_filename": JSON,
        "co_firstlineno": JSON,
        "fail_type": JSON,
        "fail_reason": JSON,
        "entire_frame_compile_time_s": JSON,
    },
)


@st.composite
def log_lines(draw) -> str:
    out = []
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(["record", "payload", "garbage", "str"]))
        if kind == "record":
            envelope = {draw(KEYS): draw(META), **draw(CONTEXT)}
            if draw(st.booleans()):
                payload = draw(TEXT | HOSTILE)
                if draw(st.booleans()):  # output code, of any AOT graph (several: DDP's subgraphs)
                    aot = draw(st.sampled_from(["0_inference", "0_forward", "1_forward", "1_backward", "0_backward"]))
                    payload = f"# AOT ID: ['{aot}']\ncpp_fused_{payload}_0 = async_compile.cpp_pybinding(['x'], '''\n{payload}\n''')"
                out.append(trace_line(envelope, payload))
            else:
                out.append(trace_line(envelope))
        elif kind == "payload":
            out.append(f"\t{draw(TEXT)}\n")
        elif kind == "str":
            out.append(trace_line({"str": draw(JSON)}))
        else:
            out.append(
                draw(st.sampled_from([PREFIX, "", "{", "V1"]))
                + draw(TEXT)
                + draw(st.sampled_from(["\n", ""]))
            )
    return "".join(out)


def assert_painted_safely(session) -> None:
    """The summary, every timeline row and every view (header and text, as painted) is safe."""
    assert unsafe_bytes(summary_text(session).encode()) == []
    rows = build_rows(session, TimelineState(live=False))
    for row in rows:
        assert unsafe_bytes(row.label.plain.encode()) == [], row.label.plain
        view = view_for(session, row.ref)
        assert unsafe_bytes(view.header.plain.encode("utf-8", "surrogatepass").replace(b"\n", b"")) == []
        for line in plain_lines(view.text):
            assert unsafe_bytes(line.encode("utf-8", "surrogatepass")) == [], line


@FUZZ
@given(log_lines())
def test_the_trace_reader_survives_any_log(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "dedicated_log_torch_trace_fuzz.log"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        session = trace.load_log(path)
        for comp in session.compiles.values():
            for stage in comp.stages.values():
                assert isinstance(stage.get_text(), str)
                for kernel in stage.kernels:
                    assert isinstance(kernel.source, str)
        assert_painted_safely(session)


@FUZZ
@given(st.binary(max_size=300))
def test_the_trace_reader_survives_any_bytes(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.log"
        path.write_bytes(PREFIX.encode() + data)
        stats = trace.TraceStats()
        list(trace.read_records(path, stats))
        assert stats.lines >= 1


SAMPLE = json.loads((DATA / "mlp_cpu" / "session.json").read_text())


def _at(value, path):
    for part in path:
        value = value[part]
    return value


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:2]):
            yield from _paths(item, (*path, i))


PATHS = [p for p in _paths(SAMPLE) if p]
TEXT_PATHS = [p for p in PATHS if isinstance(_at(SAMPLE, p), str) and p[-1] != "file"]


@st.composite
def mutated_index(draw) -> dict:
    index = json.loads(json.dumps(SAMPLE))
    for path in TEXT_PATHS:  # hostile texts in the right types
        if draw(st.booleans()):
            _at(index, path[:-1])[path[-1]] = draw(HOSTILE)
    for _ in range(draw(st.integers(0, 3))):  # anything anywhere
        path = draw(st.sampled_from(PATHS))
        try:
            _at(index, path[:-1])[path[-1]] = draw(JSON | TEXT)
        except (KeyError, IndexError, TypeError):
            continue
    return index


@FUZZ
@given(mutated_index())
def test_the_dump_loader_survives_any_session_json(index: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(shutil.copytree(DATA / "mlp_cpu", Path(tmp) / "dump"))
        (root / "session.json").write_text(json.dumps(index))
        opened: list[str] = []
        hook_state["sink"] = opened
        try:
            session = load_dump(root)
            for comp in session.compiles.values():
                for stage in comp.stages.values():
                    assert isinstance(stage.get_text(), str)
        except DumpError as exc:
            assert str(exc).startswith(("session.json: ", str(root))) and "\n" not in str(exc)
            return
        finally:
            hook_state["sink"] = None
        inside = str(root.resolve())
        for path in opened:
            assert os.path.abspath(path).startswith(inside) or "/" not in path, path
        assert_painted_safely(session)


hook_state: dict[str, list[str] | None] = {"sink": None}


def _audit(event: str, args: tuple) -> None:
    sink = hook_state["sink"]
    if sink is not None and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        sink.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)


@FUZZ
@given(st.lists(TEXT, min_size=2, max_size=6, unique=True))
def test_file_names_from_traces_are_safe_and_unique(names: list[str]) -> None:
    for make in (safe_name, compile_dir_name):
        made = [make(n) for n in names]
        assert len(set(made)) == len(made)
        for name in made:
            assert name not in ("", ".", "..") and "/" not in name and "\x00" not in name
            assert all(c.isascii() and (c.isalnum() or c in "_.-~") for c in name)
