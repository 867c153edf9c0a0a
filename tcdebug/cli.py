"""The command line.

tcdebug [options] SCRIPT [ARGS...]      step through the compiles of SCRIPT
tcdebug [options] -m MODULE [ARGS...]   the same for a module
tcdebug --dump OUT SCRIPT [ARGS...]     run headless, write OUT/
tcdebug open PATH [--dump OUT]          open a dump or a TORCH_TRACE log
tcdebug doctor                          what the capture can do with this environment's torch
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from tcdebug import __version__
from tcdebug.textsafe import print_safe

# Each command imports what it uses where it runs: `open LOG --dump` imports neither the
# controller, the live rank analysis, the re-run commands nor the app (tests/test_cli_imports.py).
if TYPE_CHECKING:
    import queue

    from tcdebug.dump.writer import DumpWriter
    from tcdebug.model.events import Event
    from tcdebug.model.session import Session

# What `open` imports to read a log, and to write it as a dump.
_OPEN_LOG_MODULES = ("tcdebug.trace",)
_OPEN_DUMP_MODULES = ("tcdebug.dump.loader",)
_DUMP_WRITING_MODULES = ("tcdebug.dump.writer", "tcdebug.dump.early_folders", "tcdebug.analysis.summary")


class CliError(Exception):
    """A one-line error for the user; exit code 2."""


FORCE_HELP = (
    "with --dump: also write into a non-empty OUT that is not a tcdebug dump, beside its files "
    "(nothing tcdebug did not write is replaced or deleted)"
)


def err(text: object) -> None:
    """One line on stderr, made safe for the terminal."""
    print_safe(f"tcdebug: {text}", file=sys.stderr, one_line=True)


# True once `main()` runs as the process's own entry point (the console script, `python -m
# tcdebug`): then everything alive is the process's and may be frozen; an in-process caller's
# objects never are.
_PROCESS_ENTRY = False


@contextlib.contextmanager
def _gc_paused(*, freeze: bool = True) -> Iterator[None]:
    """No garbage collection inside, and, in tcdebug's own process with `freeze`, what is alive
    after is frozen (`gc.freeze`).

    Importing, and loading a session, create objects that stay: collections meanwhile free
    almost nothing, and each full one walks all of them. That cost about a tenth of `open
    --dump`'s instructions on a small log, and a third of the load of 100,000 compiles (4.8 of
    14.9 s). What little cyclic garbage a load leaves is collected once collection resumes."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _PROCESS_ENTRY and freeze:
            gc.freeze()
        if enabled:
            gc.enable()


def import_quietly(names: Sequence[str]) -> None:
    """Import these modules with the garbage collector paused (see `_gc_paused`)."""
    with _gc_paused():
        for name in names:
            importlib.import_module(name)


def build_parser() -> argparse.ArgumentParser:
    from tcdebug.model import event_breaks
    from tcdebug.model import stages as stage_catalog

    parser = argparse.ArgumentParser(
        prog="tcdebug",
        formatter_class=_Formatter,
        description="Step through the torch.compile pipeline of a script: bytecode, Dynamo graph, "
        "guards, AOTAutograd, Inductor IR, kernels and CUDA graphs.",
        epilog="Also: `tcdebug open PATH [--dump OUT]` opens a dump folder or a TORCH_TRACE log; "
        "`tcdebug doctor` reports what the capture can do with this environment's torch.",
    )
    parser.add_argument("--version", action="version", version=f"tcdebug {__version__}")
    parser.add_argument(
        "--dump", metavar="OUT", help="run headless (no pauses) and write every stage to OUT/"
    )
    parser.add_argument("--force", action="store_true", help=FORCE_HELP)
    parser.add_argument("--no-pause", action="store_true", help="run straight through without pausing")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="run with every compile cache (FX graph, AOTAutograd, autotune) and automatic-dynamic PGO "
        "off, so that every stage is compiled and shown; by default they stay as your environment sets them",
    )
    parser.add_argument(
        "--break",
        dest="breakpoints",
        metavar="STAGE|EVENT[:FILTER]",
        action="append",
        default=[],
        help=f"start with a breakpoint on this stage id (repeatable): {', '.join(stage_catalog.STAGE_IDS)}; "
        f"or on a compiler event, optionally filtered: {', '.join(event_breaks.EVENT_IDS)} "
        "(e.g. graph_break:GB0170, recompile:forward, guard:L['x'], recompile_limit:4)",
    )
    parser.add_argument(
        "--rerun",
        metavar="SPEC",
        action="append",
        default=[],
        help="with --dump: after the script, re-run each compiled function's last call with inputs "
        "reshaped, e.g. 'x=16,64' or 'x=16,64;mask=16' (repeatable). Also: '16*' marks a dim "
        "dynamic, 'x=16,64:float16' changes the dtype, 'n=3' sets an int/float/bool argument, "
        "'@dynamic=false|true|none' sets the compile's dynamic setting",
    )
    parser.add_argument(
        "--accuracy",
        action="store_true",
        help="keep each compile's graph and inputs to compare it with eager (A in the app); with --dump, "
        "compare every compile after the script and write the reports and repros (docs/accuracy.md)",
    )
    parser.add_argument("-m", dest="module", metavar="MODULE", help="run a module, like python -m")
    parser.add_argument(
        "script",
        nargs="?",
        help="the script to run (as `python SCRIPT ARGS`); default: the bundled samples/mlp.py",
    )
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    return parser


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, measuring the terminal itself: argparse makes one for each
    argument it adds, and its own imports `shutil` to measure (3 ms of `open --dump`'s start)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=_columns() - 2)


def _columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it: $COLUMNS, else stdout's, else 80."""
    with contextlib.suppress(KeyError, ValueError):
        columns = int(os.environ["COLUMNS"])
        if columns > 0:
            return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


def build_open_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tcdebug open", description="Open a dump folder or a TORCH_TRACE log.", formatter_class=_Formatter
    )
    parser.add_argument(
        "path", help="a folder written by --dump, a TORCH_TRACE log file, or a folder of them"
    )
    parser.add_argument("--dump", metavar="OUT", help="write it as a dump folder instead of opening the app")
    parser.add_argument("--force", action="store_true", help=FORCE_HELP)
    parser.add_argument(
        "--rank",
        help="with a multi-rank trace: start on this rank (or entry, e.g. '1 (2)': a second log of rank 1)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command line; `argv` None: the process's own (see `_PROCESS_ENTRY`)."""
    global _PROCESS_ENTRY
    if argv is None:
        _PROCESS_ENTRY = True
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] == "open":
            options = build_open_parser().parse_args(argv[1:])
            code = cmd_open(options)
            if _PROCESS_ENTRY and options.dump:
                _exit_now(code)
            return code
        if argv and argv[0] == "doctor":
            return cmd_doctor(build_doctor_parser().parse_args(argv[1:]))
        return cmd_run(build_parser(), argv)
    except CliError as exc:
        err(f"error: {exc}")
        return 2
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except BrokenPipeError:  # e.g. `tcdebug ... | head`: the reader left
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _exit_now(code: int) -> NoReturn:
    """End the process once its output is flushed, without tearing the interpreter down.

    `open --dump` has written and closed every file when it returns, and registers no exit
    handler; what is left is freeing the session object by object, a tenth of the run on a small
    log and seconds on a log of many compiles."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: started with the descriptor closed (`>&-`)
                stream.flush()
        except (OSError, ValueError):  # a reader that left (`| head`), or a closed stream
            code = code or 1
    os._exit(code)


def build_doctor_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tcdebug doctor",
        formatter_class=_Formatter,
        description="Report, for the torch of this environment (imported in a child process), which "
        "capture units install, which private torch APIs are present, and which stages and features "
        "are available. Exits 1 when a core stage is unavailable.",
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    return parser


def cmd_doctor(options: argparse.Namespace) -> int:
    """`tcdebug doctor [--json]`."""
    from tcdebug.doctor import DoctorError, doctor

    try:
        report = doctor()
    except DoctorError as exc:
        raise CliError(str(exc)) from exc
    if options.json:
        import json

        print_safe(json.dumps(report.data), one_line=True)
    else:
        print_safe(report.text.rstrip("\n"))
    return report.exit_code


def default_script() -> str:
    """The bundled `samples/mlp.py` (installed as `tcdebug.samples`)."""
    import tcdebug.samples

    return os.path.join(os.path.dirname(os.path.abspath(tcdebug.samples.__file__)), "mlp.py")


def cmd_run(parser: argparse.ArgumentParser, argv: list[str]) -> int:
    from tcdebug.process.launch import split_torchrun

    options, torchrun_args = split_torchrun(argv)
    if torchrun_args is not None:
        return cmd_torchrun(parser, options, torchrun_args)
    ns = parser.parse_args(argv)
    if ns.module:
        target_argv = [ns.module, *([ns.script] if ns.script else []), *ns.args]
    elif ns.script:
        target_argv = [ns.script, *ns.args]
        if not os.path.exists(ns.script):
            raise CliError(f"no such script: {ns.script}")
    else:
        target_argv = [default_script()]
        err(f"no script given, running the bundled sample {target_argv[0]}")
    if ns.force and not ns.dump:
        raise CliError("--force works with --dump OUT")
    from tcdebug.model import event_breaks

    for spec in ns.breakpoints:
        problem = event_breaks.check(spec)
        if problem:
            raise CliError(f"--break: {problem}")
    if ns.rerun and not ns.dump:
        raise CliError("--rerun works with --dump; in the app, press r on a compile")
    from tcdebug.model import rerun_spec

    for spec in ns.rerun:
        try:
            rerun_spec.parse(spec)
        except rerun_spec.SpecError as exc:
            raise CliError(f"--rerun {spec!r}: {'; '.join(exc.messages)}") from exc
    if ns.dump:
        return run_headless(
            target_argv,
            module=bool(ns.module),
            out=ns.dump,
            rerun_specs=ns.rerun,
            force=ns.force,
            accuracy=ns.accuracy,
            cold=ns.cold,
        )
    mode = live_mode(no_pause=ns.no_pause, breakpoints=ns.breakpoints)
    require_terminal()
    from tcdebug.screens.app import run_live

    return run_live(
        target_argv, module=bool(ns.module), mode=mode, breakpoints=set(ns.breakpoints), accuracy=ns.accuracy, cold=ns.cold
    )


def live_mode(*, no_pause: bool, breakpoints: list[str]) -> str:
    """`--no-pause` runs through; `--break STAGE` runs to the first STAGE; else pause at every stage."""
    from tcdebug.model import protocol

    if no_pause:
        return protocol.MODE_RUN
    return protocol.MODE_CONTINUE if breakpoints else protocol.MODE_STEP


class Interrupted(Exception):
    """tcdebug itself got SIGTERM or SIGHUP (SIGINT arrives as KeyboardInterrupt)."""

    def __init__(self, signum: int) -> None:
        import signal

        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise_interrupted(signum: int, _frame: object) -> None:
    raise Interrupted(signum)


def cmd_torchrun(parser: argparse.ArgumentParser, options: list[str], torchrun_args: list[str]) -> int:
    """`tcdebug [options] torchrun ARGS` / `tcdebug [options] -m torch.distributed.run ARGS`."""
    from tcdebug.process.launch import TORCHRUN_MODULE, check_torchrun_args

    ns = parser.parse_args(options)
    if ns.script or ns.args or ns.module:
        raise CliError("give tcdebug's options before `torchrun`")
    problem = check_torchrun_args(torchrun_args)
    if problem:
        raise CliError(problem)
    if ns.force and not ns.dump:
        raise CliError("--force works with --dump OUT")
    if ns.rerun:
        raise CliError("--rerun does not work with torchrun jobs")
    target_argv = [TORCHRUN_MODULE, *torchrun_args]
    if ns.dump:
        return run_headless(target_argv, module=True, out=ns.dump, force=ns.force, ranks=True, cold=ns.cold)
    from tcdebug.model import protocol

    mode = protocol.MODE_RUN if ns.no_pause else protocol.MODE_STEP
    require_terminal()
    from tcdebug.screens.app import run_live

    return run_live(target_argv, module=True, mode=mode, breakpoints=set(ns.breakpoints), cold=ns.cold)


DUMP_NICENESS = 10


def _yield_cpu_to_the_script() -> None:
    """Lower this process's CPU priority, once the script's process has started (it keeps its
    own): writing the dump can wait for a free core, the script and its compile workers cannot.
    With every core busy compiling, the dump's bookkeeping otherwise takes its share of them."""
    with contextlib.suppress(OSError, AttributeError):  # no os.nice (Windows), or not allowed
        os.nice(DUMP_NICENESS)


def run_headless(
    target_argv: list[str],
    *,
    module: bool,
    out: str,
    rerun_specs: Sequence[str] = (),
    force: bool = False,
    ranks: bool = False,
    accuracy: bool = False,
    cold: bool = False,
) -> int:
    """`--dump`: run without pauses, keep OUT/ up to date, print a summary. With `accuracy`, every
    compile is compared with eager after the script (and after any re-runs).

    Returns when the script's main process ends, with its exit status (128+N when a signal N
    killed it); processes it left running are ended. SIGINT, SIGTERM or SIGHUP end the script's
    whole process tree and finish the dump, marked interrupted.

    OUT is checked before the script starts (see `prepare_out`). A write that fails midway (a
    full disk) ends the run with one line and exit code 2; OUT keeps a consistent dump."""
    import queue
    import signal

    from tcdebug.analysis.summary import summary_text
    from tcdebug.dump.safe_fs import DumpError, prepare_out
    from tcdebug.dump.writer import DumpWriter
    from tcdebug.model import commands, protocol
    from tcdebug.model.events import TargetDied
    from tcdebug.model.session import DIED, Session
    from tcdebug.process.controller import TargetController
    from tcdebug.process.launch import LiveRanks, rank_summary, write_rank_dumps

    session = Session(script=target_argv[0], argv=target_argv)
    try:
        prepare_out(out, force=force)
        writer: DumpWriter | None = DumpWriter(session, out)
    except DumpError as exc:
        raise CliError(str(exc)) from exc
    write_error = ""
    events: queue.Queue[Event] = queue.Queue()
    controller = TargetController(
        target_argv,
        module=module,
        mode=protocol.MODE_RUN,
        on_event=events.put,
        adopt_orphans=True,
        accuracy=accuracy,
        block_output=True,
        pass_stdin=True,
        cold=cold,
    )
    previous = {sig: signal.signal(sig, _raise_interrupted) for sig in (signal.SIGTERM, signal.SIGHUP)}
    pending_reruns = list(rerun_specs)
    rerun_started = False
    pending_accuracy = accuracy
    live_ranks = LiveRanks(session) if ranks else None
    folders: list[str] = []
    interrupted: int | None = None
    try:
        controller.start()
        _yield_cpu_to_the_script()
        while True:
            try:
                event = events.get(timeout=DumpWriter.INDEX_INTERVAL_S)
            except queue.Empty:
                if writer is not None:
                    writer.tick()
                continue
            session.apply(event)
            if writer is not None:
                try:
                    writer.on_event(event)
                except DumpError as exc:
                    write_error, writer = str(exc), None  # keep what is written; stop writing
                    controller.close(timeout=5)
            kind = event.type
            if live_ranks is not None:
                for div in live_ranks.update(event):
                    err(f"divergence: {div.summary}")
            if kind == "ready":
                if pending_reruns and session.exit_code == 0 and not rerun_started:
                    rerun_started = True
                    controller.rerun(commands.RunRerun(specs=pending_reruns, all=True))
                    pending_reruns = []
                elif pending_accuracy and session.compiles:
                    pending_accuracy = False  # after the script and its re-runs: it changes nothing they compute
                    controller.check_accuracy(commands.CheckAccuracy(all=True))
                else:
                    if pending_reruns:
                        session.notes.append("--rerun skipped: the script did not finish cleanly")
                        pending_reruns = []
                    controller.ask_to_quit()
                    if writer is not None:  # while the target exits
                        try:
                            writer.prepare_finish()
                        except DumpError as exc:
                            write_error, writer = str(exc), None
                    controller.close()
            elif kind == "target_exited":
                break
    except (KeyboardInterrupt, Interrupted) as exc:
        interrupted = exc.signum if isinstance(exc, Interrupted) else signal.SIGINT
        for sig in previous:  # a second signal must not interrupt the cleanup
            signal.signal(sig, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        controller.close(timeout=0.5)
        _drain(events, session)
        name = signal.Signals(interrupted).name
        session.apply(TargetDied(error=f"interrupted by {name}: the script was ended"))
        session.notes.append(f"interrupted by {name}: the script and every process it started were ended")
    finally:
        if writer is not None:
            try:
                writer.finish()
            except DumpError as exc:
                write_error = str(exc)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if interrupted is not None:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    if live_ranks is not None and not write_error:
        try:
            folders = write_rank_dumps(session, out)
        except DumpError as exc:
            write_error = str(exc)
    if write_error:
        raise CliError(f"{write_error} (OUT holds what was written before; it opens as a dump)")
    print_safe(summary_text(session, out=out))
    if live_ranks is not None:
        print_safe(rank_summary(session, folders, out), one_line=True)
    if session.error:
        err(f"error: {session.error}")
    if interrupted is not None:
        return 128 + interrupted
    if controller.returncode not in (None, 0) and session.state == DIED:
        return controller.returncode  # os._exit(N), or killed by a signal: 128+N
    if session.exit_code is not None:
        return session.exit_code
    return 1


def _drain(events: queue.Queue[Event], session: Session) -> None:
    """Fold in what arrived before the target was ended (its last output, its notes)."""
    import queue

    while True:
        try:
            session.apply(events.get_nowait())
        except queue.Empty:
            return


def require_terminal() -> None:
    """The app needs a terminal; piped output would fill with escape codes."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("the app needs a terminal (stdin and stdout); use --dump OUT to run headless")


def cmd_open(ns: argparse.Namespace) -> int:
    path = Path(ns.path)
    if not path.exists():
        raise CliError(f"no such file or folder: {path}")
    if ns.force and not ns.dump:
        raise CliError("--force works with --dump OUT")
    if ns.dump and _inside(path, Path(ns.dump)):
        raise CliError(f"{ns.dump}: is (or holds) what is being opened; give another folder for --dump")
    reading = _OPEN_DUMP_MODULES if _is_dump(path) else _OPEN_LOG_MODULES
    with contextlib.suppress(ImportError):  # load_any says what cannot be imported
        import_quietly([*reading, *(_DUMP_WRITING_MODULES if ns.dump else ())])
    single_log = _single_trace_log(path) if not ns.dump and ns.rank is None else None
    if single_log is not None:
        # One log: the app reads it while it shows it, so the first compile appears at once.
        from tcdebug.trace import new_trace_session

        return _open_app(new_trace_session(single_log), stream_trace=str(single_log))
    if not ns.dump:
        with _gc_paused(freeze=False):  # the app collects, then freezes, after its first paint
            session = load_any(path, rank=ns.rank)
        return _open_app(session)
    with _gc_paused(freeze=False):  # the session lives until the process ends: see `_gc_paused`
        return _open_dump(ns, path)


def _open_dump(ns: argparse.Namespace, path: Path) -> int:
    """`open PATH --dump OUT`: load PATH, write OUT, then print the summary.

    For one log read on two cores (`worker.use_children`) and a new or empty OUT, the compiles'
    folders are made while the log loads (`EarlyFolders`); if the load fails, OUT is left as it was."""
    from tcdebug.dump.early_folders import EarlyFolders

    out = Path(ns.dump)
    early: EarlyFolders | None = None
    prepared = made_out = False
    if _big_single_log(path) and (not os.path.lexists(out) or _empty_folder(out)):
        made_out = not os.path.lexists(out)
        _prepare_out(ns)
        prepared = True
        early = EarlyFolders.start(out)
    try:
        session = load_any(path, rank=ns.rank, new_compile=early.add if early is not None else None)
    except BaseException:
        if early is not None:
            early.undo()
        if made_out:
            with contextlib.suppress(OSError):
                out.rmdir()
        raise
    if early is not None:
        early.finish()
    try:
        return _write_opened(ns, session, prepared=prepared)
    finally:
        if early is not None:
            early.reap()


def _write_opened(ns: argparse.Namespace, session: Session, *, prepared: bool) -> int:
    """Write the loaded session to OUT (`prepared`: `prepare_out` has made it ready), then print
    the summary."""
    from tcdebug.analysis.summary import summary_text
    from tcdebug.dump.index import IndexCache
    from tcdebug.dump.safe_fs import DumpError, make_dirs
    from tcdebug.dump.writer import write_dump

    ranks = session.ranks if len(session.ranks) > 1 else {}
    if not prepared:
        _prepare_out(ns)
    summary: list[str] = []  # made while the dump's forked writer writes its share
    cache = IndexCache(session, keep=False)  # the session's hints: worked out once, for the whys and the summary

    def make_summary() -> None:
        summary.append(summary_text(session, out=ns.dump, hints=cache.session_hints()))

    try:
        write_dump(session, ns.dump, cache=cache, meanwhile=make_summary)
        for label, rank_session in ranks.items():  # every rank log, beside the one OUT/ itself holds
            write_dump(rank_session, make_dirs(ns.dump, f"ranks/{_rank_folder(label)}"))
    except DumpError as exc:
        raise CliError(f"{exc} (OUT holds what was written before; it opens as a dump)") from exc
    print_safe(summary[0])
    if ranks:
        folders = ", ".join(f"{label} in ranks/{_rank_folder(label)}/" for label in ranks)
        print_safe(f"ranks: {folders} (under {ns.dump}/)", one_line=True)
    return 0


def _prepare_out(ns: argparse.Namespace) -> None:
    """Make `--dump OUT` ready to write (`prepare_out`), or say in one line why it cannot be."""
    from tcdebug.dump.safe_fs import DumpError, prepare_out

    try:
        prepare_out(ns.dump, force=ns.force)
    except DumpError as exc:
        raise CliError(str(exc)) from exc


def _big_single_log(path: Path) -> bool:
    """`path` is one log, big enough to be read on two cores (`worker.use_children`)."""
    log = _single_trace_log(path)
    if log is None:
        return False
    from tcdebug.trace import worker

    return worker.use_children(log)


def _empty_folder(path: Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink() and not any(os.scandir(path))
    except OSError:
        return False


def _rank_folder(label: str) -> str:
    from tcdebug.trace import label_folder

    return label_folder(label)


def _inside(path: Path, out: Path) -> bool:
    """True when `path` is `out` or lies inside it (writing OUT would replace what is read)."""
    try:
        return path.resolve().is_relative_to(out.resolve())
    except OSError:
        return False


def _open_app(session: Session, *, stream_trace: str | None = None) -> int:
    require_terminal()
    import_quietly(["tcdebug.screens.app"])
    from tcdebug.screens.app import run_open

    return run_open(session, stream_trace=stream_trace)


def _is_dump(path: Path) -> bool:
    return (path / "session.json").exists() or path.name == "session.json"


def _single_trace_log(path: Path) -> Path | None:
    """The log when `path` is a TORCH_TRACE log or a folder holding exactly one, else None."""
    if _is_dump(path):
        return None
    try:
        from tcdebug.trace import find_trace_logs

        logs = find_trace_logs(path)
    except (ImportError, OSError, ValueError):
        return None
    return logs[0] if len(logs) == 1 else None


def load_any(
    path: Path, *, rank: int | str | None = None, new_compile: Callable[[str], object] | None = None
) -> Session:
    """A dump folder (has session.json) or a TORCH_TRACE log / folder of logs; `new_compile`:
    see `tcdebug.trace.load_log` (a log's only)."""
    if _is_dump(path):
        from tcdebug.dump.loader import load_dump
        from tcdebug.dump.safe_fs import DumpError

        try:
            return load_dump(path)
        except DumpError as exc:
            raise CliError(str(exc)) from exc
    try:
        from tcdebug.trace import load_trace_session
    except ImportError as exc:
        raise CliError(
            f"{path}: not a tcdebug dump, and TORCH_TRACE logs cannot be read here ({exc})"
        ) from exc
    try:
        return load_trace_session(path, rank=rank, new_compile=new_compile)
    except (OSError, ValueError) as exc:
        raise CliError(f"{path}: {exc}") from exc
    except (RecursionError, MemoryError) as exc:
        raise CliError(f"{path}: could not be read ({type(exc).__name__})") from exc
