"""Kernels autotuned at their first launch reach their `kernel_source` stage together.

Triton autotunes each kernel at its first launch (CUDA only), and each update re-sends the whole
stage. These tests drive the target's real recorder over a real socket pair with the autotuner's
results, as `triton_info` hands them over, since Triton cannot run on this CPU machine."""

from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import asdict
from types import SimpleNamespace
from typing import Any

from tcdebug.capture.kernel_source import REFRESH_DELAY_S, KernelStages
from tcdebug.capture.triton_info import TritonRegistry, TunedKernel
from tcdebug.debuggee.pauser import Pauser
from tcdebug.debuggee.recorder import Recorder
from tcdebug.model import protocol
from tcdebug.model.events import event_from_wire
from tcdebug.model.session import PAUSED, Kernel, Session

KERNELS = 24


def _target() -> tuple[Recorder, KernelStages, list[dict[str, Any]], threading.Thread]:
    ours, theirs = socket.socketpair()
    recorder = Recorder(protocol.Channel(ours), Pauser(protocol.MODE_RUN, set()))
    stages = KernelStages(recorder)
    kernels = [Kernel(name=f"triton_red_fused_{i}", language="python", source=f"def k{i}(): ...") for i in range(KERNELS)]
    stages.add("0/0", "kernel_source.forward", kernels)
    recorder.stage("0/0", "kernel_source", "# output code", part="forward", kernels=[asdict(k) for k in kernels])
    received: list[dict[str, Any]] = []
    channel = protocol.Channel(theirs)
    reader = threading.Thread(target=lambda: received.extend(iter(channel.recv, None)), daemon=True)
    reader.start()
    return recorder, stages, received, reader


def _autotune_all(stages: KernelStages) -> None:
    """What `CachingAutotuner.autotune_to_one_config` leaves for `triton_info`: the kernel's
    tuned record, and one launcher left with the chosen config (Triton's objects, which cannot
    be built without Triton, stand in as plain namespaces with the attributes read)."""
    registry = TritonRegistry(stages)
    for i in range(KERNELS):
        tuned = TunedKernel(
            name=f"triton_red_fused_{i}",
            compile_id="0/0",
            is_backward=False,
            configs=[{"XBLOCK": 2**i, "num_warps": 4}, {"XBLOCK": 1, "num_warps": 2}],
            timings_ms=[0.01, 0.02],
        )
        launcher = SimpleNamespace(config=SimpleNamespace(kwargs={"XBLOCK": 2**i}, num_warps=4))
        registry.autotuned(SimpleNamespace(_tcdebug_tuned=tuned, launchers=[launcher]))


def _updates(received: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in received if m.get("type") == "stage" and m.get("stage") == "kernel_source"][1:]


def _close(recorder: Recorder, reader: threading.Thread) -> None:
    recorder.channel.close()
    reader.join(timeout=5)


def test_kernels_autotuned_within_the_delay_go_out_in_one_update() -> None:
    recorder, stages, received, reader = _target()
    _autotune_all(stages)
    time.sleep(REFRESH_DELAY_S * 4)
    _close(recorder, reader)
    updates = _updates(received)
    assert len(updates) == 1, f"{len(updates)} updates for {KERNELS} kernels"
    (update,) = updates
    assert update["paused"] is False and update["update"] is True and update["text"] == "# output code"
    chosen = [k["chosen_config"] for k in update["kernels"]]
    assert chosen == [{"XBLOCK": 2**i, "num_warps": 4} for i in range(KERNELS)]
    assert all(k["meta"]["autotune"]["chosen_by"] == "benchmarked at first launch" for k in update["kernels"])


def test_a_refresh_sends_what_is_pending_at_once_and_nothing_is_sent_twice() -> None:
    """The compile's end and the script's end (the finalizer) refresh at once: nothing waits."""
    recorder, stages, received, reader = _target()
    _autotune_all(stages)
    stages.refresh()
    time.sleep(REFRESH_DELAY_S * 4)  # the timer was cancelled: no second update
    _close(recorder, reader)
    updates = _updates(received)
    assert len(updates) == 1
    assert updates[0]["kernels"][-1]["chosen_config"] == {"XBLOCK": 2 ** (KERNELS - 1), "num_warps": 4}


def test_an_update_sent_while_the_process_waits_elsewhere_keeps_it_paused() -> None:
    """The timer's update of `kernel_source` may arrive while the script waits at a later stage
    (a CUDA graph recording): the session stays paused there, with the stage updated."""
    recorder, stages, received, reader = _target()
    recorder.pauser = Pauser(protocol.MODE_STEP, set())
    waits = threading.Thread(target=recorder.stage, args=("0/0", "cudagraph", "CUDA graph 0: recording #1"), daemon=True)
    waits.start()  # the main thread, paused at the recording
    deadline = time.monotonic() + 10
    while not recorder.pauser.waiting and time.monotonic() < deadline:
        time.sleep(0.01)
    assert recorder.pauser.waiting
    _autotune_all(stages)
    time.sleep(REFRESH_DELAY_S * 4)
    recorder.pauser.resume(protocol.MODE_CONTINUE, None)
    waits.join(timeout=5)
    _close(recorder, reader)

    session = Session()
    seen = []
    for message in received:
        if message.get("type") == "stage":
            session.apply(event_from_wire(message))
            seen.append((message["stage"], message["paused"], session.state, session.paused_at))
    assert seen[-2:] == [
        ("cudagraph", True, PAUSED, ("0/0", "cudagraph")),
        ("kernel_source", False, PAUSED, ("0/0", "cudagraph")),
    ]
    kernels = session.compiles["0/0"].stages["kernel_source.forward"].kernels
    assert all(k.chosen_config for k in kernels)


def test_a_forked_child_gets_a_free_lock_whatever_the_parents_timer_held() -> None:
    """A fork while the timer thread holds the lock (sending an update) must not leave the
    child's lock held forever: the child's next kernel change would hang."""

    recorder, stages, received, reader = _target()
    held, done = threading.Event(), threading.Event()

    def timer_thread() -> None:  # holds the lock as the timer does while it copies the kernels
        with stages.lock:
            held.set()
            done.wait(10)

    holder = threading.Thread(target=timer_thread, daemon=True)
    holder.start()
    assert held.wait(5)
    pid = os.fork()
    if pid == 0:  # the child, reset as the target's fork hook resets it: its own lock, free
        recorder.reset_for_child()
        os._exit(0 if stages.lock.acquire(timeout=2) and stages._timer is None else 1)
    done.set()
    holder.join(5)
    _, status = os.waitpid(pid, 0)
    _close(recorder, reader)
    assert os.waitstatus_to_exitcode(status) == 0
