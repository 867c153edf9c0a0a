"""The target's channel reader: applies commands from the controller.

Each message is read as a typed command (`tcdebug.model.commands`) and dispatched by its class
(`CommandReader.HANDLERS`). Pause commands are handled at once on this thread. Re-run and accuracy requests
are queued for the main thread, which owns the user's objects once the script has ended.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Callable
from typing import Any

from tcdebug.debuggee.pauser import Pauser
from tcdebug.model import commands, protocol
from tcdebug.model.events import Error, Resumed, ScriptEnd

_DONE = object()  # a handler's answer: the reader stops


class CommandReader:
    def __init__(self, channel: protocol.Channel, pauser: Pauser) -> None:
        self.channel = channel
        self.pauser = pauser
        self.work: queue.Queue[commands.RerunRequest | commands.CheckAccuracy | None] = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="tcdebug-commands", daemon=True)
        # Set by the runner once the user's script returned: commands then run at once.
        self.script_done = False

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        while True:
            try:
                msg = self.channel.recv()
                command = commands.command_from_wire(msg) if msg is not None else None
            except protocol.ProtocolError as exc:
                self.channel.send(Error(message=str(exc)).to_wire())
                continue
            if command is None:
                self._controller_gone()
                return
            if self.HANDLERS[type(command)](self, command) is _DONE:
                return

    def _resume(self, command: commands.Resume) -> None:
        self.pauser.resume(command.CMD, command.breakpoints)
        self.channel.send(Resumed(mode=command.CMD).to_wire())

    def _set_breakpoints(self, command: commands.SetBreakpoints) -> None:
        self.pauser.set_breakpoints(list(command.breakpoints))

    def _queue_rerun(self, command: commands.RerunRequest | commands.CheckAccuracy) -> None:
        self.work.put(command)

    def _on_stop(self, command: commands.Stop) -> None:
        self._stop()

    def _on_quit(self, command: commands.Quit) -> object:
        self._closed()
        return _DONE

    HANDLERS: dict[type[commands.Command], Callable[[CommandReader, Any], object]] = {
        commands.Step: _resume,
        commands.Continue: _resume,
        commands.Run: _resume,
        commands.SetBreakpoints: _set_breakpoints,
        commands.Stop: _on_stop,
        commands.Quit: _on_quit,
        commands.CheckRerun: _queue_rerun,
        commands.RunRerun: _queue_rerun,
        commands.CheckAccuracy: _queue_rerun,
    }

    def _stop(self) -> None:
        """End the run now, wherever it is: the user asked to stop."""
        self.pauser.stop()
        _flush()
        self.channel.send(ScriptEnd(exit_code=0, error="", stopped=True).to_wire())
        self.channel.close()
        os._exit(0)

    def _controller_gone(self) -> None:
        """The channel ended without a `quit`: tcdebug itself was killed. Nobody is left to show
        or end the script, so end its processes (those of this session) and leave."""
        from tcdebug.debuggee.children import remove_orphaned_socket
        from tcdebug.process import proctree

        _flush()
        me = os.getpid()
        proctree.end_processes(proctree.tree_of(me, sid=os.getsid(0)), grace=0.5)
        remove_orphaned_socket()
        os._exit(0)

    def _closed(self) -> None:
        """The controller went away: nobody is left to answer a pause, so leave. A re-run still
        running pauses nowhere from now on (no command would come to release it): it ends, and
        the main thread then takes the `None` and leaves too."""
        self.pauser.stop()
        self.work.put(None)
        if self.pauser.waiting or not self.script_done:
            _flush()
            os._exit(0)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - the user may have replaced the streams
            pass
