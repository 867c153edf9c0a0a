"""The target process: runs the user's script as `python script.py` would, with capture on.

The channel is the socket inherited as fd `$TCDEBUG_CHANNEL_FD`. After the script
ends, the target stays alive serving re-run requests until the controller closes
the channel.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import pkgutil
import platform
import runpy
import socket
import sys
import traceback
import types
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tcdebug.debuggee import private_env
from tcdebug.debuggee.children import install_fork_hooks
from tcdebug.debuggee.command_reader import CommandReader
from tcdebug.debuggee.pauser import Pauser, StopRequested
from tcdebug.debuggee.recorder import Recorder
from tcdebug.debuggee.streams import install_tagged_streams
from tcdebug.errors import headline
from tcdebug.model import commands, protocol
from tcdebug.model.events import Error, Event, Hello, Note, Ready, ScriptEnd, TorchImported
from tcdebug.process.our_frames import is_ours
from tcdebug.process.pythonpath import restore_user_path

if TYPE_CHECKING:
    from tcdebug.capture.base import CaptureContext

Emit = Callable[[Event], None]  # puts one event on the channel


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tcdebug.debuggee")
    parser.add_argument("--mode", default=protocol.MODE_STEP)
    parser.add_argument("--break", dest="breakpoints", action="append", default=[])
    parser.add_argument("-m", dest="module", action="store_true")
    parser.add_argument("--accuracy", action="store_true")  # keep graphs and inputs for `A`
    parser.add_argument("--block-output", action="store_true")  # stdout as python's to a file
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    ns = parser.parse_args(argv)
    if ns.argv and ns.argv[0] == "--":
        ns.argv = ns.argv[1:]
    return ns


def one_line_error(exc: BaseException, script: str) -> str:
    """`ValueError: boom (samples/x.py:12)`: the exception and the deepest frame in user code."""
    where = ""
    tb = exc.__traceback__
    frames = traceback.extract_tb(tb) if tb else []
    user = [f for f in frames if not is_ours(f.filename)]
    script_frames = (
        [f for f in user if os.path.abspath(f.filename) == os.path.abspath(script)] if script else []
    )
    candidates = script_frames or user
    frame = candidates[-1] if candidates else None
    if frame is not None:
        where = f" ({os.path.relpath(frame.filename)}:{frame.lineno})"
    message = headline(str(exc))
    return f"{type(exc).__name__}: {message}{where}" if message else f"{type(exc).__name__}{where}"


def check_script(path: str) -> str | None:
    """A one-line error for a missing or unparsable script, else None; a SyntaxError's report
    goes to stderr as python writes it."""
    if not os.path.exists(path):
        return f"no such script: {path}"
    if os.path.isdir(path) and not os.path.exists(os.path.join(path, "__main__.py")):
        return f"{path} is a directory without __main__.py"
    if os.path.isfile(path):
        try:
            with open(path, "rb") as fh:
                compile(fh.read(), os.path.abspath(path), "exec", dont_inherit=True)
        except SyntaxError as exc:
            # python's own report on stderr (the line and its caret), as `python script.py` prints it
            sys.stderr.write("".join(traceback.format_exception_only(type(exc), exc)))
            _flush()
            return f"SyntaxError: {exc.msg} ({path}:{exc.lineno})"
        except ValueError as exc:
            return f"cannot read {path}: {exc}"
    return None


def device_name(torch: Any, final: bool = False) -> str:
    """`cuda (NAME)` once the script initialized CUDA; else `cpu` at the script's end (`final`),
    "" before it. Never initializes CUDA itself: that would fix `CUDA_VISIBLE_DEVICES` before a
    script sets it."""
    try:
        if torch.cuda.is_initialized():
            return f"cuda ({torch.cuda.get_device_name()})"
    except Exception:  # noqa: BLE001
        pass
    return "cpu" if final else ""


def torch_event(torch: Any, final: bool = False, pg_timeout_s: float | None = None) -> TorchImported:
    """The script's torch, as the session learns it (`device_name` says what `final` changes)."""
    return TorchImported(
        torch_version=str(getattr(torch, "__version__", "")),
        device=device_name(torch, final=final),
        pg_timeout_s=pg_timeout_s,
        cold=True if os.environ.get(protocol.COLD_ENV) == "1" else None,
    )


def torch_found() -> bool:
    """Can the script import torch? Found without importing it (see `tcdebug.debuggee.import_watch`)."""
    import importlib.util

    try:
        return importlib.util.find_spec("torch") is not None
    except (ImportError, ValueError):
        return False


def main(argv: list[str] | None = None) -> int:
    restore_user_path()  # before torch and the script: the user's sys.path picks their torch
    ns = parse_args(sys.argv[1:] if argv is None else argv)
    # The user's own PYTHONUNBUFFERED (not tcdebug's) keeps stdout line-buffered under --dump too.
    users_unbuffered = protocol.UNBUFFERED_MARK_ENV not in os.environ and bool(os.environ.get("PYTHONUNBUFFERED"))
    private = private_env.take()  # the script and its subprocesses never see these
    fd = int(private.channel_fd)
    os.set_inheritable(fd, False)  # nor this descriptor
    channel = protocol.Channel(socket.socket(fileno=fd), guarded=True)
    install_tagged_streams(private.output_fd, block=ns.block_output and not users_unbuffered)
    pauser = Pauser(ns.mode, set(ns.breakpoints))
    reader = CommandReader(channel, pauser)
    reader.start()

    def emit(event: Event) -> None:
        channel.send(event.to_wire())

    if not ns.argv:
        emit(ScriptEnd(exit_code=2, error="no script given"))
        return 2
    target = ns.argv[0]
    if not ns.module:
        error = check_script(target)
        if error:
            return _end_before_torch(reader, emit, ns, 2 if error.startswith("no such") else 1, error)

    if not torch_found():
        error = f"torch cannot be imported by {sys.executable} (no module named 'torch'): install torch first"
        return _end_before_torch(reader, emit, ns, 1, error)

    emit(Hello(python=platform.python_version(), script=target, argv=ns.argv, pid=os.getpid(), mode=ns.mode))
    if ns.accuracy:
        from tcdebug.capture import graph_inputs

        graph_inputs.enable()
    run = run_captured(channel, pauser, ns)
    if run.forked:
        return run.exit_code  # a forked child ran on to the end of the script, as under python
    exit_code, error, recorder, ctx = run.exit_code, run.error, run.recorder, run.ctx
    reader.script_done = True
    _flush()
    torch = sys.modules.get("torch")
    emit(ScriptEnd(exit_code=exit_code, error=error))
    if channel.lost:
        return _channel_lost(exit_code, fd)
    service = accuracy = None
    if torch is not None and ctx is not None:
        from tcdebug.capture.graph_inputs import GraphInputs
        from tcdebug.debuggee.accuracy import AccuracyService
        from tcdebug.debuggee.rerun import RerunService

        service = RerunService(torch, recorder, pauser, ctx)
        accuracy = AccuracyService(torch, ctx.options.shared(GraphInputs), recorder.emit)
    code = _serve(reader, emit, exit_code, service, accuracy)
    release_user_objects(ctx)  # no re-run can come now
    return code


@dataclass
class CapturedRun:
    """The script's run under the capture hooks (see `run_captured`)."""

    exit_code: int
    error: str
    recorder: Recorder
    ctx: CaptureContext | None  # None: the script never imported Dynamo (nothing compiled)
    forked: bool  # this is a forked child of the script that ran on to the script's end


def run_captured(
    channel: protocol.Channel,
    pauser: Pauser,
    ns: argparse.Namespace,
    note_prefix: str = "",
    pg_timeout: Callable[[], float | None] | None = None,
) -> CapturedRun:
    """Run the script with the capture hooks installed at its first import of Dynamo, and their
    Inductor part at its first import of Inductor's compiler (`tcdebug.debuggee.import_watch`), then
    end its compiles: what the target's main process and a
    torchrun rank (`tcdebug.debuggee.rank`) share. Capture errors become notes (`note_prefix` says
    whose); a rank's process-group timeout (`pg_timeout`) is read once the capture is in. A forked
    child that returns here has flushed its output."""
    import warnings

    from tcdebug.debuggee.import_watch import DYNAMO, INDUCTOR, ImportWatch

    if (
        os.environ.get(protocol.COLD_ENV) == "1"
    ):  # `--cold` switched PGO off with the caches: torch's warning is noise
        warnings.filterwarnings("ignore", message="dynamo_pgo force disabled")
    main_pid = os.getpid()
    recorder = Recorder(channel, pauser)
    installed: list[CaptureContext] = []

    def install() -> None:
        torch = sys.modules["torch"]
        try:
            from tcdebug.capture.setup import install_capture

            installed.append(install_capture(torch, recorder))
        except Exception as exc:  # noqa: BLE001 - the script's import must go on
            recorder.emit(Note(text=f"{note_prefix}capture not installed: {type(exc).__name__}: {exc}"))
        # through the recorder: in a forked child that imports Dynamo first, its own channel
        recorder.emit(torch_event(torch, pg_timeout_s=pg_timeout() if pg_timeout is not None else None))

    def install_inductor() -> None:
        if not installed:
            return  # the first step failed: said in its note
        try:
            from tcdebug.capture.setup import install_inductor_capture

            install_inductor_capture(installed[0])
        except Exception as exc:  # noqa: BLE001 - the script's import must go on
            recorder.emit(Note(text=f"{note_prefix}Inductor capture not installed: {type(exc).__name__}: {exc}"))

    watch = ImportWatch([(DYNAMO, install), (INDUCTOR, install_inductor)])
    watch.arm()
    install_fork_hooks(recorder)
    try:
        exit_code, error = run_user_code(ns)
    finally:
        watch.disarm()
    ctx = installed[0] if installed else None
    if os.getpid() != main_pid:
        _flush()
        release_user_objects(ctx)  # a forked child serves no re-runs
        return CapturedRun(exit_code, error, recorder, ctx, forked=True)
    try:
        recorder.finalize_all()
    except StopRequested:
        pass
    torch = sys.modules.get("torch")
    if torch is not None:  # its device, now that the script is done with it
        recorder.emit(torch_event(torch, final=True))
    for err in (ctx.handler.errors if ctx is not None else [])[:5]:
        channel.send(Note(text=f"{note_prefix}capture error: {err}").to_wire())
    return CapturedRun(exit_code, error, recorder, ctx, forked=False)


def _channel_lost(exit_code: int, fd: int) -> int:
    """The script closed tcdebug's channel (`os.closerange(3, N)`, as daemons and launchers do):
    nothing more can be captured or asked. Say so on the plain stderr (the controller reads it
    as output) and end with the script's exit code, rather than wait for commands forever."""
    _flush()
    note = (
        f"tcdebug: the script closed tcdebug's channel (file descriptor {fd}, e.g. with "
        "os.closerange): compiles after that were not captured\n"
    )
    with contextlib.suppress(OSError):
        os.write(2, note.encode())
    return exit_code


def release_user_objects(ctx: CaptureContext | None) -> None:
    """Drop what the capture keeps of the user's objects for re-runs (see `CallLog.release`), so
    they are freed now rather than while the interpreter finalizes."""
    if ctx is None:
        return
    from tcdebug.capture.calls import CallLog
    from tcdebug.capture.graph_inputs import GraphInputs

    calls = ctx.options.shared(CallLog)
    if calls is not None:
        try:
            calls.release()
        except Exception:  # noqa: BLE001 - a partly installed capture
            pass
    kept = ctx.options.shared(GraphInputs)
    if kept is not None:
        kept.kept.clear()  # the graphs and input clones `--accuracy` kept


def _module_exists(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _end_before_torch(
    reader: CommandReader, emit: Emit, ns: argparse.Namespace, exit_code: int, error: str
) -> int:
    """The script cannot start: say hello without torch, end it with `error`, serve until closed."""
    emit(Hello(python=platform.python_version(), script=ns.argv[0], argv=ns.argv, torch_version="", device=""))
    emit(ScriptEnd(exit_code=exit_code, error=error))
    return _serve(reader, emit, exit_code)


def run_user_code(ns: argparse.Namespace) -> tuple[int, str]:
    target, args = ns.argv[0], ns.argv[1:]
    saved_path = list(sys.path)
    try:
        if ns.module:
            sys.argv = [target, *args]
            sys.path[0] = os.getcwd()  # as `python -m` has it (the target's own `-m` put it there too)
            if not _module_exists(target):
                return 1, f"no module named {target}"
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            sys.argv = [target, *args]
            sys.path[0] = os.path.dirname(os.path.abspath(target))
            run_script_file(target)
        return 0, ""
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0, ""
        if isinstance(code, int):
            return code, "" if code == 0 else f"the script called sys.exit({code})"
        print(code, file=sys.stderr)
        return 1, f"the script exited: {code}"
    except KeyboardInterrupt as exc:
        print_script_traceback(exc)
        return 130, one_line_error(exc, "" if ns.module else target)
    except StopRequested:
        return 0, ""
    except ImportError as exc:
        if ns.module and getattr(exc, "name", None) == target:
            return 1, f"no module named {target}"
        print_script_traceback(exc)
        return 1, one_line_error(exc, target)
    except BaseException as exc:  # noqa: BLE001 - report everything the user's code raised
        print_script_traceback(exc)
        return 1, one_line_error(exc, "" if ns.module else target)
    finally:
        sys.path[:] = saved_path or sys.path


def run_script_file(path: str) -> None:
    """Run the script as `python PATH` does: its `__file__` and its code's file name are absolute
    (python >= 3.9 makes them so; `runpy.run_path` keeps the path as given), `sys.argv[0]` stays
    as given, and the script is `sys.modules["__main__"]` while it runs, as under runpy. A folder
    or zip file with a `__main__.py` goes through runpy."""
    full = os.path.abspath(path)
    if not os.path.isfile(full) or zipfile.is_zipfile(full):
        runpy.run_path(path, run_name="__main__")
        return
    with io.open_code(full) as fh:
        code = pkgutil.read_code(fh)  # a compiled script, as runpy allows
    if code is None:
        with io.open_code(full) as fh:
            code = compile(fh.read(), full, "exec", dont_inherit=True)  # not this module's __future__
    module = types.ModuleType("__main__")
    module.__dict__.update(__file__=full, __cached__=None, __loader__=None, __package__=None, __spec__=None)
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    try:
        exec(code, module.__dict__)
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved
        else:
            sys.modules.pop("__main__", None)


def print_script_traceback(exc: BaseException) -> None:
    """The traceback as `python script.py` prints it: the frames of tcdebug's runner and of
    runpy that ran the script are left out, and so is the import watch's frame inside a torch
    import that failed (`tcdebug.debuggee.import_watch`), in chained exceptions too."""
    try:
        shown = traceback.TracebackException(type(exc), exc, exc.__traceback__)
        _drop_our_frames(shown, set())
        sys.stderr.write("".join(shown.format()))
    except Exception:  # noqa: BLE001 - never lose the script's error to our own
        traceback.print_exception(type(exc), exc, exc.__traceback__)
    finally:
        _flush()


# The import system's frames, which python hides from a failed import's traceback; beside the
# watch's frame it no longer can.
_IMPORTLIB = "<frozen importlib._bootstrap"


def _drop_our_frames(shown: traceback.TracebackException | None, seen: set[int]) -> None:
    if shown is None or id(shown) in seen:
        return
    seen.add(id(shown))
    shown.stack = traceback.StackSummary.from_list(
        [f for f in shown.stack if not is_ours(f.filename) and not f.filename.startswith(_IMPORTLIB)]
    )
    _drop_our_frames(shown.__cause__, seen)
    _drop_our_frames(shown.__context__, seen)
    for inner in getattr(shown, "exceptions", None) or ():
        _drop_our_frames(inner, seen)


def _serve(reader: CommandReader, emit: Emit, exit_code: int, service: Any = None, accuracy: Any = None) -> int:
    """Wait for re-run and accuracy requests until the controller closes the channel."""
    reader.script_done = True
    emit(Ready())
    while True:
        msg = reader.work.get()
        if msg is None:
            break
        if isinstance(msg, commands.CheckAccuracy):
            _check_accuracy(emit, accuracy, msg)
            continue
        if service is None:
            emit(Error(message="nothing to re-run: the script compiled nothing"))
            continue
        try:
            service.handle(msg)
        except StopRequested:  # the controller left while the re-run ran: nobody waits for it
            break
        except Exception as exc:  # noqa: BLE001 - a failed re-run must not end the target
            emit(Error(message=f"re-run failed: {type(exc).__name__}: {exc}"))
        _flush()
        emit(Ready())
    _flush()
    return exit_code


def _check_accuracy(emit: Emit, accuracy: Any, msg: commands.CheckAccuracy) -> None:
    """Answer one `CheckAccuracy` (`tcdebug.debuggee.accuracy`), then say the target is ready."""
    if accuracy is None:
        emit(Error(message="nothing to compare: the script compiled nothing"))
    else:
        try:
            accuracy.handle(msg.compile_id, msg.all)
        except Exception as exc:  # noqa: BLE001 - a failed comparison must not end the target
            emit(Error(message=f"accuracy check failed: {type(exc).__name__}: {exc}"))
    _flush()
    emit(Ready())


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            pass
