"""The controller side of the channel: starts the target and talks to it.

It imports no torch. Events arrive on reader threads and are handed to the
`on_event` callback as typed events (`tcdebug.model.events`, read from the wire format of
`tcdebug.model.protocol`; a malformed one becomes a `Note` saying so); the controller also
synthesises `output` events from the target's stdout/stderr and a `target_died`
event when the process ends without saying goodbye.
"""

from __future__ import annotations

import codecs
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tcdebug.model import commands, protocol
from tcdebug.model.events import (
    Event,
    Note,
    Output,
    ProcessEnd,
    ScriptEnd,
    StageEvent,
    TargetDied,
    TargetExited,
    event_from_wire,
)
from tcdebug.model.protocol import (
    CHANNEL_FD_ENV,
    CHILD_SOCKET_ENV,
    MAX_OUTPUT_MESSAGE,
    OUTPUT_FD_ENV,
    PRIVATE_DIR_PREFIX,
    STDERR_TAG,
    STDOUT_TAG,
    UNBUFFERED_MARK_ENV,
)
from tcdebug.process import proctree
from tcdebug.process.pythonpath import add_tcdebug_path

EventCallback = Callable[[Event], None]

# Output messages waiting on the socket are read together up to this many bytes (see
# `_read_tagged_output`).
OUTPUT_BATCH_BYTES = 256 * 1024


class TargetController:
    def __init__(
        self,
        argv: Sequence[str],
        *,
        module: bool = False,
        mode: str = protocol.MODE_STEP,
        breakpoints: Iterable[str] = (),
        on_event: EventCallback | None = None,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        python: str | None = None,
        adopt_orphans: bool = False,
        accuracy: bool = False,
        block_output: bool = False,
        pass_stdin: bool = False,
        cold: bool = False,
    ) -> None:
        """`argv` is the script (or module, with `module=True`) and its arguments.

        `adopt_orphans`: make this process a child subreaper, so that descendants of the
        target whose parent died (even after `setsid`) are re-parented here and can be ended.
        Only for a process that runs nothing else (the `tcdebug` command).
        `accuracy`: the target keeps each compile's graph and inputs, for `check_accuracy`.
        `block_output`: the script's stdout is block-buffered, as python's is when it writes to a
        file (`--dump`); else line-buffered, as on a terminal (`tcdebug.debuggee.streams`).
        `pass_stdin`: the script reads tcdebug's own stdin, as under python (`--dump`); else
        /dev/null (the app owns the terminal).
        `cold`: run with every compile cache and automatic-dynamic PGO off (`--cold`)."""
        self.argv = list(argv)
        self.module = module
        self.mode = mode
        self.breakpoints = set(breakpoints)
        self.on_event: EventCallback = on_event or (lambda ev: None)
        self.env = env
        self.cwd = cwd
        self.python = python or sys.executable
        self.adopt_orphans = adopt_orphans
        self.accuracy = accuracy
        self.block_output = block_output
        self.pass_stdin = pass_stdin
        self.cold = cold
        self.proc: subprocess.Popen[bytes] | None = None
        self.channel: protocol.Channel | None = None
        self.children: dict[int, protocol.Channel] = {}  # forked processes of the script, by pid
        self.labels: dict[int, str] = {}  # pid -> readable label (`worker 1`, `pid 1234`)
        self.step_new_processes = False  # new processes start paused-stepping, not running free
        self.returncode: int | None = None  # the target's exit status, as a shell reports it
        self.ended: list[proctree.ProcInfo] = []  # processes ended because they outlived the target
        self._seen: dict[int, proctree.ProcInfo] = {}  # every descendant seen, by pid
        self._threads: list[threading.Thread] = []
        self._output_threads: list[threading.Thread] = []
        self._said_goodbye = False
        self._closing = False
        self._told_to_quit: set[protocol.Channel] = set()  # the channels `ask_to_quit` sent quit on
        self._done = threading.Event()
        self._tree_lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._private_dir = ""
        self.paused = False

    # ----- life cycle ------------------------------------------------------------
    def start(self) -> None:
        parent_sock, child_sock = socket.socketpair()
        out_read: socket.socket | None
        out_write: socket.socket | None
        try:
            out_read, out_write = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        except (OSError, AttributeError):  # no SOCK_SEQPACKET here: stdout and stderr pipes only
            out_read = out_write = None
        fd = child_sock.fileno()
        out_fds = (out_write.fileno(),) if out_write is not None else ()
        env = dict(os.environ if self.env is None else self.env)
        env[CHANNEL_FD_ENV] = str(fd)
        env.pop(OUTPUT_FD_ENV, None)
        if out_fds:
            env[OUTPUT_FD_ENV] = str(out_fds[0])
        env[CHILD_SOCKET_ENV] = self._listen()
        if self.cold:
            env.update(protocol.COLD_TORCH_ENV)
            env[protocol.COLD_ENV] = "1"
        if "PYTHONUNBUFFERED" in env:  # the user's: the script sees it too
            env.pop(UNBUFFERED_MARK_ENV, None)
        else:  # the target's output reaches us at once; the target takes it out again
            env["PYTHONUNBUFFERED"] = env[UNBUFFERED_MARK_ENV] = "1"
        cmd = [self.python, "-m", "tcdebug.debuggee", "--mode", self.mode]
        for bp in sorted(self.breakpoints):
            cmd += ["--break", bp]
        cmd += ["-m"] if self.module else []
        cmd += ["--accuracy"] if self.accuracy else []
        cmd += ["--block-output"] if self.block_output else []
        cmd += ["--", *self.argv]
        # tcdebug must be importable even from a checkout; the target takes the entry out again
        # before the script runs (`tcdebug.process.pythonpath`).
        add_tcdebug_path(env)
        if self.adopt_orphans:
            proctree.become_subreaper()
        try:
            self.proc = subprocess.Popen(
                cmd,
                stdin=None if self.pass_stdin else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(fd, *out_fds),
                env=env,
                cwd=self.cwd,
                start_new_session=True,  # its own session and process group: a Ctrl-C in the UI
                # does not hit it directly, and its whole tree can be found and ended
            )
        except OSError:
            for sock in (parent_sock, out_read):
                if sock is not None:
                    sock.close()
            self._close_listener()
            raise
        finally:
            child_sock.close()
            if out_write is not None:
                out_write.close()
        self.channel = protocol.Channel(parent_sock)
        self._spawn(self._read_channel, "tcdebug-channel")
        self._spawn(self._accept_children, "tcdebug-children")
        if out_read is not None:
            reader = out_read
            self._spawn(lambda: self._read_tagged_output(reader), "tcdebug-output", output=True)
        self._spawn(lambda: self._read_stream(self.proc.stdout, "stdout"), "tcdebug-stdout", output=True)  # type: ignore[union-attr]
        self._spawn(lambda: self._read_stream(self.proc.stderr, "stderr"), "tcdebug-stderr", output=True)  # type: ignore[union-attr]
        self._spawn(self._watch_tree, "tcdebug-tree")
        self._spawn(self._wait_process, "tcdebug-wait")

    def _listen(self) -> str:
        """A listening socket for the script's forked processes, in a folder only we can enter."""
        self._private_dir = tempfile.mkdtemp(prefix=PRIVATE_DIR_PREFIX)
        path = os.path.join(self._private_dir, "children")
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(path)
        self._listener.listen(64)
        return path

    def _spawn(self, target: Callable[[], None], name: str, *, output: bool = False) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)
        if output:
            self._output_threads.append(thread)

    def _read_channel(self) -> None:
        assert self.channel is not None
        while True:
            try:
                msg = self.channel.recv()
                if msg is None:
                    return
                event = event_from_wire(msg)
            except protocol.ProtocolError as exc:
                self.on_event(Note(text=f"bad message from target: {exc}"))
                continue
            if isinstance(event, StageEvent) and not event.update:
                self.paused = event.paused
            if isinstance(event, ScriptEnd):
                self._said_goodbye = True
            self.on_event(event)

    def _accept_children(self) -> None:
        listener = self._listener
        assert listener is not None
        while True:
            try:
                sock, _ = listener.accept()
            except OSError:
                return
            threading.Thread(
                target=self._read_child, args=(protocol.Channel(sock),), name="tcdebug-child", daemon=True
            ).start()

    def _read_child(self, channel: protocol.Channel) -> None:
        """One forked process of the script: `process` first, then events like the target's."""
        pid: int | None = None
        while True:
            try:
                msg = channel.recv()
            except protocol.ProtocolError as exc:
                self.on_event(Note(text=f"bad message from a child process: {exc}"))
                continue
            if msg is None:
                break
            if pid is None:
                if msg.get("type") != "process" or not isinstance(msg.get("pid"), int):
                    break
                pid = msg["pid"]
                self.children[pid] = channel
                self.labels[pid] = str(msg.get("label") or f"pid {pid}")
                # Ranks of a `tcdebug torchrun` job start as the main process would (lockstep).
                rank_mode = self.mode if msg.get("rank") is not None else protocol.MODE_RUN
                mode = protocol.MODE_STEP if self.step_new_processes else rank_mode
                mode = protocol.MODE_RUN if self._closing else mode
                stepping = mode != protocol.MODE_RUN
                msg = {**msg, "stepping": stepping}
                channel.send(commands.resume(mode, sorted(self.breakpoints)).to_wire())
            else:
                msg = {**msg, "pid": pid}
            try:
                event = event_from_wire(msg)
            except protocol.ProtocolError as exc:
                self.on_event(Note(text=f"bad message from a child process: {exc}"))
                continue
            self.on_event(event)
        channel.close()
        if pid is not None:
            self.children.pop(pid, None)
            self.on_event(ProcessEnd(pid=pid))

    def _read_stream(self, stream: Any, name: str) -> None:
        """Writes below Python (C code, subprocesses) on the target's file descriptors 1 and 2."""
        fd = stream.fileno()
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            text = decoder.decode(data)
            if text:
                self.on_event(Output(stream=name, text=text))

    def _read_tagged_output(self, sock: socket.socket) -> None:
        """`sys.stdout` and `sys.stderr` of every process of the script, in the order written.
        The messages already waiting are read at once and each run of one stream becomes one
        `Output` event: a script printing a million lines costs thousands of events, not millions."""
        decoders = {tag: codecs.getincrementaldecoder("utf-8")("replace") for tag in (STDOUT_TAG, STDERR_TAG)}
        size = MAX_OUTPUT_MESSAGE + 16
        with sock:
            while True:
                try:
                    data = sock.recv(size)
                except OSError:
                    return
                if not data:
                    return
                batch = [data]
                total, ended = len(data), False
                while total < OUTPUT_BATCH_BYTES:
                    try:
                        more = sock.recv(size, socket.MSG_DONTWAIT)
                    except OSError:  # nothing waiting (EAGAIN), or the socket is gone
                        break
                    if not more:
                        ended = True
                        break
                    batch.append(more)
                    total += len(more)
                tag, texts = batch[0][:1], list[str]()
                for message in batch:
                    if message[:1] != tag:
                        self._emit_output(tag, "".join(texts))
                        tag, texts = message[:1], []
                    texts.append(decoders.get(message[:1], decoders[STDOUT_TAG]).decode(message[1:]))
                self._emit_output(tag, "".join(texts))
                if ended:
                    return

    def _emit_output(self, tag: bytes, text: str) -> None:
        if text:
            self.on_event(Output(stream="stderr" if tag == STDERR_TAG else "stdout", text=text))

    def _watch_tree(self) -> None:
        """Note every descendant while the target runs, so one that leaves the process group
        (setsid) or is orphaned is still ended at the end; reap orphans adopted here."""
        proc = self.proc
        assert proc is not None
        while not self._done.wait(1.0) and proc.poll() is None:
            self.scan_tree()

    def scan_tree(self) -> list[proctree.ProcInfo]:
        """Every live process of the script's tree except the target itself."""
        proc = self.proc
        if proc is None:
            return []
        found = proctree.tree_of(
            proc.pid, sid=proc.pid, parent_of_orphans=os.getpid() if self.adopt_orphans else None
        )
        found = [p for p in found if p.pid != os.getpid()]
        with self._tree_lock:
            for info in found:
                self._seen[info.pid] = info
            if self.adopt_orphans:
                proctree.reap(p.pid for p in found if p.state == "Z" and p.ppid == os.getpid())
            return [p for p in found if p.state != "Z"]

    def end_tree(self, grace: float = 2.0) -> list[proctree.ProcInfo]:
        """End every process of the script's tree that still runs (TERM, then KILL)."""
        live = {p.pid: p for p in self.scan_tree()}
        with self._tree_lock:
            for info in proctree.still_alive(self._seen.values()):
                live.setdefault(info.pid, info)
        if not live:
            return []
        ended = proctree.end_processes(live.values(), grace)
        # Killing may have orphaned grandchildren into a new tree: one more round.
        again = [p for p in self.scan_tree() if p.pid not in live]
        return ended + proctree.end_processes(again, 0.5)

    def _wait_process(self) -> None:
        assert self.proc is not None
        code = self.proc.wait()
        self.returncode = proctree.exit_status(code)
        # The script's main process is gone: whatever it left running is ended now, after a
        # moment to exit on its own (multiprocessing's resource tracker, pool workers do).
        deadline = time.monotonic() + 0.5
        while self.scan_tree() and time.monotonic() < deadline:
            time.sleep(0.05)
        ended = self.end_tree(grace=1.0)
        if ended:
            self.ended = ended
            names = ", ".join(self._describe(p.pid) for p in ended[:8])
            more = f" and {len(ended) - 8} more" if len(ended) > 8 else ""
            self.on_event(
                Note(
                    text=f"ended {len(ended)} process(es) that outlived the script's main process: "
                    f"{names}{more}"
                )
            )
        for thread in self._output_threads:
            thread.join(timeout=2)
        if not self._said_goodbye and not self._closing:
            self.on_event(TargetDied(exit_code=self.returncode, error=describe_exit(code)))
        self.on_event(TargetExited(exit_code=self.returncode))
        self._done.set()
        self._close_listener()

    def _describe(self, pid: int) -> str:
        label = self.labels.get(pid)
        return f"pid {pid} ({label})" if label and label != f"pid {pid}" else f"pid {pid}"

    def _close_listener(self) -> None:
        if self._listener is not None:
            try:  # close() alone leaves a thread blocked in accept() on Linux: shutdown wakes it
                self._listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            try:
                self._listener.close()
            except OSError:
                pass
        if self._private_dir:
            shutil.rmtree(self._private_dir, ignore_errors=True)
            self._private_dir = ""

    # ----- commands --------------------------------------------------------------
    def send(self, command: commands.Command, pid: int | None = None) -> bool:
        """A command to the target, or to the forked process `pid`."""
        channel = self.channel if pid is None or pid == self.pid else self.children.get(pid)
        if channel is None:
            return False
        if isinstance(command, commands.Resume) and channel is self.channel:
            self.paused = False
        return channel.send(command.to_wire())

    def step(self, pid: int | None = None) -> bool:
        return self.send(commands.Step(), pid)

    def continue_(self, pid: int | None = None) -> bool:
        return self.send(commands.Continue(breakpoints=sorted(self.breakpoints)), pid)

    def run(self, pid: int | None = None) -> bool:
        return self.send(commands.Run(), pid)

    def stop(self) -> bool:
        return self.send(commands.Stop())

    def set_breakpoints(self, breakpoints: Iterable[str]) -> bool:
        self.breakpoints = set(breakpoints)
        for pid in list(self.children):
            self.send(commands.SetBreakpoints(breakpoints=sorted(self.breakpoints)), pid)
        return self.send(commands.SetBreakpoints(breakpoints=sorted(self.breakpoints)))

    def step_process(self, pid: int, stepping: bool) -> bool:
        """Make a forked process pause at its stages (`stepping`), or run free."""
        return self.send(commands.Step() if stepping else commands.Run(), pid)

    def check_rerun(self, request: commands.CheckRerun) -> bool:
        return self.send(request)

    def rerun(self, request: commands.RunRerun) -> bool:
        return self.send(request)

    def check_accuracy(self, request: commands.CheckAccuracy) -> bool:
        return self.send(request)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the target process is gone and its output drained."""
        return self._done.wait(timeout)

    def ask_to_quit(self) -> None:
        """Tell the target and every child process to quit, and return at once (`close` then
        waits for them)."""
        self._closing = True
        for channel in [*self.children.values(), self.channel]:
            if channel is not None and channel not in self._told_to_quit:
                self._told_to_quit.add(channel)
                channel.send(commands.Quit().to_wire())

    def close(self, timeout: float = 2.0) -> None:
        """End the target and every process of the script: ask it to quit, wait up to
        `timeout` seconds, then SIGTERM the whole tree and, after a grace period, SIGKILL."""
        self.ask_to_quit()
        # Closing a channel waits for its reader's blocked read: until the process is gone.
        for channel in [*self.children.values(), self.channel]:
            if channel is not None:
                channel.close()
        proc = self.proc
        if proc is None:
            self._close_listener()
            return
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.end_tree(grace=2.0)  # the target too
        if proc.poll() is None:
            self._signal(signal.SIGKILL)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        # Once the target is gone, `_wait_process` ends what it left running and says so.
        self._done.wait(timeout=10)
        self._close_listener()

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def _signal(self, sig: int) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, sig)  # the target and its compile workers
        except (ProcessLookupError, PermissionError):
            try:
                self.proc.send_signal(sig)
            except ProcessLookupError:
                pass


def describe_exit(code: int | None) -> str:
    if code is None:
        return "the target is still running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"the target process was killed by {name}"
    return f"the target process exited with code {code} before the script finished"
