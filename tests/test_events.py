"""The typed event vocabulary: wire round trips, one clear error for a bad message, and what
`Session.apply` says changed. Real sockets, no torch."""

from __future__ import annotations

import dataclasses
import json
import socket
import threading
import typing
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tcdebug.debuggee.pauser import Pauser
from tcdebug.debuggee.recorder import Recorder
from tcdebug.model import events, protocol, schema
from tcdebug.model.payloads import Kernel, Rerun
from tcdebug.model.session import PAUSED, RUNNING, Session
from tcdebug.process.controller import TargetController

SAMPLE: dict[type, Any] = {str: "x", int: 3, float: 1.5, bool: True, list: [1, "a"], dict: {"k": [1]}}


def _sample(cls: type) -> Any:
    """An instance with every wire field set to a non-default value of its type (payloads too)."""
    hints = schema.hints(cls)
    values: dict[str, Any] = {}
    for f in fields(cls):
        if not f.metadata.get("wire", True):
            continue
        value = _sample_value(hints[f.name])
        if value is not None:
            values[f.name] = value
    return cls(**values)


def _sample_value(hint: Any) -> Any:
    for arg in schema.union_args(hint):
        base = typing.get_origin(arg) or arg
        if dataclasses.is_dataclass(base):
            return _sample(typing.cast(type, base))
        if base is list and typing.get_args(arg) and typing.get_args(arg)[0] is not Any:
            return [_sample_value(typing.get_args(arg)[0])]
        if base is dict and typing.get_args(arg) and typing.get_args(arg)[1] is not Any:
            return {"k": _sample_value(typing.get_args(arg)[1])}
        if base in SAMPLE:
            return SAMPLE[base]
    return None


def test_every_protocol_event_has_a_class_and_every_class_round_trips() -> None:
    for type_, cls in events.EVENT_CLASSES.items():
        event = _sample(cls)
        wire = json.loads(json.dumps(event.to_wire()))
        assert wire["type"] == type_ and wire["v"] == protocol.PROTOCOL_VERSION
        assert events.event_from_wire(wire, local=True) == event
        assert cls.from_wire(wire) == event if type_ not in events.LOCAL_ONLY else True


@pytest.mark.parametrize(
    ("msg", "error"),
    [
        ({"type": "launch_missiles"}, "unknown event type 'launch_missiles'"),
        ({"compile_id": "0/0"}, "unknown event type None"),
        ({"type": "trace_info", "torch_version": "2.13"}, "unknown event type 'trace_info'"),
        ({"type": "stages_not_logged", "compile_id": "0/0"}, "unknown event type 'stages_not_logged'"),
        ({"type": "stage", "compile_id": "0/0"}, "stage event: missing 'stage'"),
        ({"type": "stage", "compile_id": 7, "stage": "guards"}, "field 'compile_id' is int, expected str"),
        ({"type": "output", "text": ["a"]}, "output event: field 'text' is list, expected str"),
        ({"type": "process", "pid": True}, "field 'pid' is bool, expected int or null"),
        ({"type": "rerun"}, "rerun event: missing 'rerun'"),
    ],
)
def test_a_bad_wire_event_gives_one_clear_error(msg: dict[str, Any], error: str) -> None:
    with pytest.raises(events.EventError) as info:
        events.event_from_wire(msg)
    assert str(info.value).endswith(error) and "\n" not in str(info.value)
    assert isinstance(info.value, protocol.ProtocolError)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(events.EVENT_CLASSES) + ["bogus"]),
    st.dictionaries(
        st.sampled_from(["compile_id", "stage", "pid", "rank", "text", "elapsed_s", "meta", "rerun", "kernels"]),
        json_values,
        max_size=6,
    ),
)
def test_any_wire_object_is_an_event_or_an_event_error(type_: str, body: dict[str, Any]) -> None:
    try:
        event = events.event_from_wire({"type": type_, **body})
    except events.EventError:
        return
    Session().apply(event)  # what passed the check folds in without an exception


def test_the_controller_turns_bad_messages_into_notes_and_goes_on() -> None:
    ours, theirs = socket.socketpair()
    got: list[events.Event] = []
    controller = TargetController(["unused.py"], on_event=got.append)
    controller.channel = protocol.Channel(ours)
    reader = threading.Thread(target=controller._read_channel)
    reader.start()
    good = events.StageEvent(compile_id="0/0", stage="guards", text="guards", paused=True)
    theirs.sendall(
        b"{not json\n"
        + json.dumps({"v": 1, "type": "stage", "compile_id": 1}).encode()
        + b"\n"
        + json.dumps({"v": 1, "type": "nope"}).encode()
        + b"\n"
        + json.dumps(good.to_wire()).encode()
        + b"\n"
    )
    theirs.close()
    reader.join(10)
    assert [type(e) for e in got] == [events.Note, events.Note, events.Note, events.StageEvent]
    assert all(isinstance(e, events.Note) and e.text.startswith("bad message from target: ") for e in got[:3])
    assert "field 'compile_id' is int" in got[1].text and "unknown event type 'nope'" in got[2].text
    assert got[3] == good and controller.paused


def test_the_recorder_sends_typed_events_the_controller_reads_back() -> None:
    ours, theirs = socket.socketpair()
    recorder = Recorder(protocol.Channel(ours), Pauser(protocol.MODE_RUN, set()))
    recorder.compile_start("0/0", function="f", filename="f.py", firstlineno=3)
    recorder.stage("0/0", "kernel_source", "code", part="forward", kernels=[Kernel(name="k")])
    recorder.update_stage("0/0", "kernel_source.forward", kernels=[Kernel(name="k2")])
    recorder.emit(events.GraphBreak(compile_id="0/0", reason="why", user_stack=[], ddp_split=True))
    recorder.channel.close()
    channel = protocol.Channel(theirs)
    got = []
    while (msg := channel.recv()) is not None:
        got.append(events.event_from_wire(msg))
    start, stage, update, gb = got
    assert start == events.CompileStart(compile_id="0/0", function="f", filename="f.py", firstlineno=3)
    assert isinstance(stage, events.StageEvent) and stage.key == "kernel_source.forward"
    assert stage.title.endswith("source (forward)") and stage.kernels == [Kernel(name="k")] and not stage.paused
    assert isinstance(update, events.StageEvent) and update.kernels == [Kernel(name="k2")] and update.text == "code"
    assert gb == events.GraphBreak(compile_id="0/0", reason="why", ddp_split=True)


def _marked_at_the_end(*captured: str) -> dict[str, str]:
    """Stage key -> reason, for each AOTAutograd stage the recorder marks `not captured` when a
    compile that captured `captured` ends."""
    ours, theirs = socket.socketpair()
    recorder = Recorder(protocol.Channel(ours), Pauser(protocol.MODE_RUN, set()))
    recorder.compile_start("0/0", function="f", filename="f.py", firstlineno=1)
    for stage_id in captured:
        recorder.stage("0/0", stage_id, "graph")
    recorder.finalize("0/0", final=True)
    recorder.channel.close()
    channel = protocol.Channel(theirs)
    marked = {}
    while (msg := channel.recv()) is not None:
        event = events.event_from_wire(msg)
        if isinstance(event, events.StageEvent) and event.status == "not_captured" and event.stage.startswith("aot_"):
            marked[event.key] = event.reason
    return marked


def test_the_recorder_marks_the_missing_aotautograd_stages_the_catalogue_names() -> None:
    no_aot = "the backend did not run AOTAutograd (e.g. backend='eager'), or the graph had no ops"
    assert _marked_at_the_end("dynamo_graph") == {"aot_forward": no_aot, "aot_inference": no_aot}
    missing = "torch did not report this AOTAutograd graph"
    assert _marked_at_the_end("dynamo_graph", "aot_joint") == {"aot_forward": missing, "aot_backward": missing}
    assert _marked_at_the_end("dynamo_graph", "aot_inference") == {}


def test_apply_says_what_changed() -> None:
    s = Session()
    s.apply(events.Hello(pid=100, script="s.py", argv=["s.py"]))
    change = s.apply(events.CompileStart(compile_id="0/0", function="f"))
    assert (change.compile_id, change.added, change.stage_key) == ("0/0", True, "")
    change = s.apply(events.StageEvent(compile_id="0/0", stage="kernel_source", part="forward", paused=True))
    assert (change.compile_id, change.stage_key, change.added, change.paused) == (
        "0/0",
        "kernel_source.forward",
        True,
        True,
    )
    assert s.state == PAUSED and s.paused_at == ("0/0", "kernel_source.forward")
    change = s.apply(events.StageEvent(compile_id="0/0", stage="kernel_source", part="forward"))
    assert (change.added, change.paused) == (False, False) and s.state == RUNNING
    change = s.apply(events.RerunEvent(rerun=Rerun(rerun_id=4, status="checked", spec="x=3")))
    assert change.rerun is not None and change.rerun is s.reruns[-1] and change.rerun.spec == "x=3"
    change = s.apply(events.Output(text="hi\n", rank=1))
    assert change.output and change.rank == 1 and s.output_text() == "hi\n"
    change = s.apply(events.Process(pid=201, rank=1, label="rank 1"))
    assert (change.process, change.rank, change.compile_id) == (201, 1, "")
    change = s.apply(events.Note(text="n"))
    assert change == type(change)(events.Note(text="n")) and s.notes == ["n"]


def test_a_dict_is_read_as_the_channel_reads_it() -> None:
    s = Session()
    change = s.apply({"type": "stage", "compile_id": "0/0", "stage": "guards", "elapsed_s": 2})
    assert isinstance(change.event, events.StageEvent) and change.event.elapsed_s == 2.0
    with pytest.raises(events.EventError):
        s.apply({"type": "stage", "compile_id": "0/0", "stage": 5})


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=0, max_size=200))
def test_any_text_crosses_the_channel_as_it_was(text: str) -> None:
    """Text goes as UTF-8 on one line: newlines, line separators, non-ASCII and lone surrogates
    (names decoded with `surrogateescape`) come back unchanged, and each message is one line."""
    ours, theirs = socket.socketpair()
    sender, receiver = protocol.Channel(ours), protocol.Channel(theirs)
    samples = [text, text + "\n\u2028é\udcff\x00", "\udc80" * 3]
    for sample in samples:
        assert protocol.encode({"v": 1, "text": sample}).count(b"\n") == 1
        sender.send({"v": protocol.PROTOCOL_VERSION, "type": "output", "text": sample})
    sender.close()
    assert [receiver.recv()["text"] for _ in samples] == samples
    assert receiver.recv() is None
    assert "é\u2028".encode() in protocol.encode({"v": 1, "text": "é\u2028"})  # as UTF-8, not `\\u` escapes


def test_every_command_round_trips_and_the_debuggee_handles_each() -> None:
    from tcdebug.debuggee.command_reader import CommandReader
    from tcdebug.model import commands

    for name, cls in commands.COMMAND_CLASSES.items():
        command = _sample(cls)
        wire = json.loads(json.dumps(command.to_wire()))
        assert wire["cmd"] == name and wire["v"] == protocol.PROTOCOL_VERSION
        assert commands.command_from_wire(wire) == command
        assert cls in CommandReader.HANDLERS
    assert set(CommandReader.HANDLERS) == set(commands.COMMAND_CLASSES.values())


@pytest.mark.parametrize(
    ("msg", "error"),
    [
        ({"cmd": "launch"}, "unknown command 'launch'"),
        ({"cmd": "continue", "breakpoints": "guards"}, "continue command: breakpoints: expected a list or null, got \"guards\""),
        ({"cmd": "rerun", "specs": ["x=1", 2]}, "rerun command: specs[1]: expected a string, got 2"),
        ({"cmd": "check_rerun", "all": "yes"}, 'check_rerun command: all: expected true or false, got "yes"'),
    ],
)
def test_a_bad_command_gives_one_clear_error(msg: dict[str, Any], error: str) -> None:
    from tcdebug.model import commands

    with pytest.raises(commands.CommandError) as info:
        commands.command_from_wire(msg)
    assert str(info.value) == error and isinstance(info.value, protocol.ProtocolError)


def test_a_bad_payload_below_the_envelope_names_its_path() -> None:
    msg = {"type": "stage", "compile_id": "0/0", "stage": "kernel_source", "kernels": [{"name": "k", "configs": {}}]}
    with pytest.raises(events.EventError) as info:
        events.event_from_wire(msg)
    assert str(info.value) == "stage event: kernels[0].configs: expected a list, got {}"
    msg = {"type": "rerun", "rerun": {"rerun_id": 1, "checks": [{"guards": [{"passed": "no"}]}]}}
    with pytest.raises(events.EventError) as info:
        events.event_from_wire(msg)
    assert str(info.value) == 'rerun event: rerun.checks[0].guards[0].passed: expected true or false, got "no"'
