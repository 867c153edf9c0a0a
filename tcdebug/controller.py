"""The controller side of the channel: starts the target and talks to it.

It imports no torch. Events arrive on reader threads and are handed to the
`on_event` callback as plain dicts (see `tcdebug.protocol`); the controller also
synthesises `output` events from the target's stdout/stderr and a `target_died`
event when the process ends without saying goodbye.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tcdebug import protocol

EventCallback = Callable[[dict[str, Any]], None]


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
    ) -> None:
        """`argv` is the script (or module, with `module=True`) and its arguments."""
        self.argv = list(argv)
        self.module = module
        self.mode = mode
        self.breakpoints = set(breakpoints)
        self.on_event: EventCallback = on_event or (lambda ev: None)
        self.env = env
        self.cwd = cwd
        self.python = python or sys.executable
        self.proc: subprocess.Popen[bytes] | None = None
        self.channel: protocol.Channel | None = None
        self._threads: list[threading.Thread] = []
        self._said_goodbye = False
        self._closing = False
        self._done = threading.Event()
        self.paused = False

    # ----- life cycle ------------------------------------------------------------
    def start(self) -> None:
        parent_sock, child_sock = socket.socketpair()
        fd = child_sock.fileno()
        env = dict(os.environ if self.env is None else self.env)
        env["TCDEBUG_CHANNEL_FD"] = str(fd)
        env.setdefault("PYTHONUNBUFFERED", "1")
        # The target's own package must be importable even when tcdebug runs from a checkout.
        pkg_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["TCDEBUG_PKG_ROOT"] = pkg_root
        cmd = [self.python, "-m", "tcdebug.target", "--mode", self.mode]
        for bp in sorted(self.breakpoints):
            cmd += ["--break", bp]
        cmd += ["-m"] if self.module else []
        cmd += ["--", *self.argv]
        env["PYTHONPATH"] = os.pathsep.join(p for p in (pkg_root, env.get("PYTHONPATH", "")) if p)
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(fd,),
            env=env,
            cwd=self.cwd,
            start_new_session=True,  # a Ctrl-C in the UI must not hit the target directly
        )
        child_sock.close()
        self.channel = protocol.Channel(parent_sock)
        self._spawn(self._read_channel, "tcdebug-channel")
        self._spawn(lambda: self._read_stream(self.proc.stdout, "stdout"), "tcdebug-stdout")  # type: ignore[union-attr]
        self._spawn(lambda: self._read_stream(self.proc.stderr, "stderr"), "tcdebug-stderr")  # type: ignore[union-attr]
        self._spawn(self._wait_process, "tcdebug-wait")

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def _read_channel(self) -> None:
        assert self.channel is not None
        while True:
            try:
                msg = self.channel.recv()
            except protocol.ProtocolError as exc:
                self.on_event({"type": "note", "text": f"bad message from target: {exc}"})
                continue
            if msg is None:
                return
            if msg.get("type") == "stage":
                self.paused = bool(msg.get("paused"))
            if msg.get("type") in ("script_end",):
                self._said_goodbye = True
            self.on_event(msg)

    def _read_stream(self, stream: Any, name: str) -> None:
        fd = stream.fileno()
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            self.on_event({"type": "output", "stream": name, "text": data.decode("utf-8", "replace")})

    def _wait_process(self) -> None:
        assert self.proc is not None
        code = self.proc.wait()
        for thread in self._threads:
            if thread is not threading.current_thread() and thread.name != "tcdebug-channel":
                thread.join(timeout=2)
        if not self._said_goodbye and not self._closing:
            self.on_event({"type": "target_died", "exit_code": code, "error": describe_exit(code)})
        self.on_event({"type": "target_exited", "exit_code": code})
        self._done.set()

    # ----- commands --------------------------------------------------------------
    def send(self, cmd: str, **fields: Any) -> bool:
        if self.channel is None:
            return False
        if cmd in ("step", "continue", "run"):
            self.paused = False
        return self.channel.send(protocol.command(cmd, **fields))

    def step(self) -> bool:
        return self.send("step")

    def continue_(self) -> bool:
        return self.send("continue", breakpoints=sorted(self.breakpoints))

    def run(self) -> bool:
        return self.send("run")

    def stop(self) -> bool:
        return self.send("stop")

    def set_breakpoints(self, breakpoints: Iterable[str]) -> bool:
        self.breakpoints = set(breakpoints)
        return self.send("breakpoints", breakpoints=sorted(self.breakpoints))

    def check_rerun(self, request: dict[str, Any]) -> bool:
        return self.send("check_rerun", **request)

    def rerun(self, request: dict[str, Any]) -> bool:
        return self.send("rerun", **request)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the target process is gone and its output drained."""
        return self._done.wait(timeout)

    def close(self, timeout: float = 5.0) -> None:
        """End the target: close the channel (it exits), then escalate to signals."""
        self._closing = True
        if self.channel is not None:
            self.channel.send(protocol.command("quit"))
            self.channel.close()
        proc = self.proc
        if proc is None:
            return
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._signal(signal.SIGTERM)
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                proc.wait(timeout=5)
        self._done.wait(timeout=5)

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
