"""The tcdebug Textual app: steps a live target, or browses a dump read-only.

Threads never touch the UI: the controller's reader threads post `TargetEvent`
messages, and the handler here folds each into the `Session` and repaints.
"""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from textual import events, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.notifications import SeverityLevel
from textual.worker import get_current_worker

from tcdebug.analysis.hints import Hint, hints_by_compile, session_hints
from tcdebug.analysis.live_ranks import (
    LiveRanks,
    is_rank_job,
    lockstep_plan,
    other_rank_compile,
    pg_timeout_text,
    rank_of_id,
    rank_processes,
)
from tcdebug.analysis.provenance_from_log import ensure_trace_provenance
from tcdebug.model import event_breaks
from tcdebug.model import session as model
from tcdebug.model.commands import CheckAccuracy
from tcdebug.model.events import (
    AccuracyEvent,
    CompileEnd,
    Error,
    Event,
    EventPause,
    EventsUnavailable,
    Note,
    Ready,
    Resumed,
    ScriptEnd,
    StanceEvent,
    TargetDied,
    TargetExited,
)
from tcdebug.model.payloads import Accuracy
from tcdebug.model.session import Change, Session, event_pause_line, stance_line
from tcdebug.process.controller import TargetController
from tcdebug.screens import script_environ
from tcdebug.screens.accuracy_screen import AccuracyScreen
from tcdebug.screens.diff_screen import DiffScreen
from tcdebug.screens.help_screen import HelpScreen
from tcdebug.screens.main_screen import MainScreen
from tcdebug.screens.messages import TargetEvent, TraceEvents
from tcdebug.screens.output_screen import OutputScreen
from tcdebug.screens.overview_screen import OverviewScreen
from tcdebug.screens.palette import JumpCommands
from tcdebug.screens.ranks_screen import RanksScreen
from tcdebug.screens.rerun_screen import RerunScreen, rerun_notice
from tcdebug.screens.search_screen import SearchHit, SearchScreen
from tcdebug.screens.symbols_screen import SymbolsScreen
from tcdebug.screens.times_screen import TimesScreen
from tcdebug.screens.trail_screen import TrailScreen
from tcdebug.screens.why_screen import WhyScreen
from tcdebug.screens.widgets.highlight import warm_lexers
from tcdebug.screens.widgets.timeline import LIVE_STATES, Ref
from tcdebug.textsafe import safe_line, safe_text
from tcdebug.trace.worker import ChildStream

# Timeline rows of a compiler event (`Ref.item`): `b` there breaks on every event of that kind.
ROW_EVENTS = {"break": "graph_break", "recompile": "recompile"}

READ_ONLY_MESSAGE = "nothing to step: opened from a dump"
# A read-only session of at least this many compiles has its hints worked out in a thread once
# complete (`TcdebugApp._warm_hints`); a smaller one's first `w` works them out at once.
WARM_HINTS_FROM = 2_000


def unavailable_bindings(*pairs: tuple[str, str]) -> list[Binding]:
    """For each (key, action): a hidden binding to `unavailable(action)`, reached when the main
    binding of the key is off (its `check_action` said no) so the key is not in the footer."""
    return [
        Binding(
            key, f"unavailable('{action}')", f"{action} (when off)", id=f"{action}_unavailable", show=False
        )
        for key, action in pairs
    ]


class TcdebugApp(App[int]):
    TITLE = "tcdebug"
    COMMANDS = App.COMMANDS | {JumpCommands}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "step", "Step", id="step", tooltip="Step to the next stage (while a target runs)"),
        Binding(
            "c",
            "continue",
            "Continue",
            id="continue",
            tooltip="Continue to the next breakpoint (while a target runs)",
        ),
        Binding("g", "run", "Run", id="run", tooltip="Run to the end without pausing (while a target runs)"),
        Binding(
            "b",
            "toggle_breakpoint",
            "Break",
            id="breakpoint",
            tooltip="Break on every stage of the selected kind, or stop doing so",
        ),
        Binding("B", "clear_breakpoints", "Clear all breakpoints", id="clear_breakpoints", show=False),
        Binding(
            "K",
            "restart_cold",
            "Restart cold",
            id="restart_cold",
            show=False,
            tooltip="Run the script again with every compile cache and PGO off (--cold): no stage skipped by a cache hit",
        ),
        Binding("o", "output", "Output", id="output", tooltip="The script's stdout and stderr"),
        Binding(
            "r",
            "rerun",
            "Re-run",
            id="rerun",
            tooltip="Re-run the selected compile's function with changed shapes",
        ),
        Binding(
            "A",
            "accuracy",
            "Accuracy",
            id="accuracy",
            show=False,
            tooltip="Compare the selected compile with eager on its call's inputs: the layer and the first op that differ",
        ),
        Binding(
            "d",
            "diff",
            "Diff",
            id="diff",
            tooltip="Compare the selected stage with another compile of its frame",
        ),
        Binding(
            "w",
            "why",
            "Why",
            id="why",
            show=False,
            tooltip="Why the selected compile exists, broke, fused and took its time",
        ),
        Binding(
            "T",
            "compile_times",
            "Compile times",
            id="compile_times",
            show=False,
            tooltip="Where compile time went, per phase",
        ),
        Binding(
            "f",
            "follow",
            "Follow op",
            id="follow",
            show=False,
            tooltip="Follow the op in the stage view through every stage",
        ),
        Binding(
            "S",
            "symbols",
            "Symbols",
            id="symbols",
            show=False,
            tooltip="Symbolic sizes: origin, range, hint, guards",
        ),
        Binding(
            "O",
            "overview",
            "Overview",
            id="overview",
            show=False,
            tooltip="The run at a glance: most expensive compiles, recompile causes, graph-break types",
        ),
        Binding(
            "ctrl+f",
            "search_all",
            "Search all",
            id="search_all",
            show=False,
            tooltip="Search every stage of every compile; enter shows the line",
        ),
        Binding(
            "R",
            "ranks",
            "Ranks",
            id="ranks",
            tooltip="Ranks of a multi-rank TORCH_TRACE and where they diverge",
        ),
        Binding("question_mark", "help", "Help", id="help", tooltip="Every key, and what each glyph means"),
        Binding(
            "f1",
            "help",
            "Help",
            id="help_f1",
            show=False,
            tooltip="Help, also where a text box has the focus (? would be typed into it)",
        ),
        Binding(
            "ctrl+p",
            "command_palette",
            "Palette",
            id="command_palette",
            show=False,
            priority=True,
            tooltip="Jump to a compile, stage or kernel; set a breakpoint by name",
        ),
        Binding(
            "ctrl+s",
            "save_screenshot",
            "Save SVG screenshot",
            id="screenshot",
            show=False,
            tooltip="Save an SVG of the screen in $TCDEBUG_SCREENSHOT_DIR or ~/.cache/tcdebug/screenshots",
        ),
        Binding("q", "quit", "Quit", id="quit", tooltip="Quit; the target is ended cleanly"),
        # A key hidden from the footer (check_action) still answers, saying why it does nothing now.
        *unavailable_bindings(
            ("n", "step"),
            ("c", "continue"),
            ("g", "run"),
            ("b", "toggle_breakpoint"),
            ("r", "rerun"),
            ("d", "diff"),
            ("R", "ranks"),
        ),
    ]

    def __init__(
        self,
        session: Session,
        controller: TargetController | None = None,
        *,
        breakpoints: Iterable[str] = frozenset(),
        read_only: bool = False,
        stream_trace: str | None = None,
    ) -> None:
        super().__init__()
        # Run as tcdebug's own process (`run_open`, `run_live`): what is alive after the first paint
        # is the app's, and is frozen (`_freeze_heap`). An app run inside another program is not.
        self.owns_process = False
        self.stream_trace = stream_trace  # a TORCH_TRACE log read while the app shows it
        self._trace_repaint_at = 0.0  # monotonic time before which a streamed batch is not repainted
        self._trace_dirty = False  # batches applied but not repainted yet
        self._opening_ref: Ref | None = None  # shown on opening a log, with nothing to read yet
        self._trace_children: ChildStream | None = None  # the processes reading a big log
        self._last_input = 0.0  # monotonic time of the last key press or click (see `_yield_to_input`)
        self.session = session
        self.controller = controller
        self.breakpoints: set[str] = set(breakpoints)
        self.read_only = read_only or controller is None
        self.main_screen = MainScreen()
        self.target_exited = False
        self.target_ready = False  # the script ended and the target waits for commands (re-runs)
        self._quitting = False
        self._follow_next_pause = False  # a re-run was started: show where it pauses first
        self._output_dirty = False
        self._ranks_dirty = False  # a rank job changed since the open ranks screen was refreshed
        self._overview_dirty = False  # the session changed since the open overview was built
        self._session_changes = 0  # events applied to the session: what cached analyses are of
        self._hints: tuple[tuple[int, int, int], dict[str, list[Hint]]] | None = None
        self.last_search = ""  # the search across stages, kept for the next ctrl+f
        self.live_ranks = LiveRanks(session)  # a `tcdebug torchrun` job: its ranks and divergences
        self.lockstep = True  # ranks step together (see `lockstep_plan`); off: n drives the paused one
        self._warned_timeout = False
        self._lockstep_waiting: tuple[Any, ...] | None = None  # what `n` last waited for (lockstep)
        self.signalled: int | None = None  # SIGTERM, SIGHUP or SIGINT ended the app
        self.restart_cold = False  # quit to start the script again with `--cold` (`run_live` does)
        self._loop: asyncio.AbstractEventLoop | None = None
        # The keys bound to quit (`q`, Textual's ctrl+q): each one from the terminal starts a watch.
        self._quit_keys = frozenset(
            key for key, bindings in self._bindings.key_to_bindings.items() if any(b.action == "quit" for b in bindings)
        )
        if session.script:
            self.title = safe_line(f"tcdebug {os.path.basename(session.script)}")

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every toast (the screens' too) goes through here: made safe, and never read as markup
        (a note or a reason holding `[@click=app.quit]` or an escape sequence stays text)."""
        super().notify(
            safe_text(message), title=safe_line(title), severity=severity, timeout=timeout, markup=False
        )

    # ----- state ---------------------------------------------------------------------
    @property
    def is_live(self) -> bool:
        return not self.read_only and not self.target_exited and self.session.state in LIVE_STATES

    @property
    def is_busy(self) -> bool:
        """The target is working (starting or compiling) and not waiting for a command."""
        return self.is_live and self.session.state in (model.STARTING, model.RUNNING)

    def exit_code(self) -> int:
        """The script's exit status (128+N when a signal N killed it), or 128+N when tcdebug
        itself was ended by signal N."""
        if self.signalled is not None:
            return 128 + self.signalled
        if self.session.state == model.DIED and self.session.exit_code is not None:
            return self.session.exit_code  # os._exit(N), or killed by a signal
        if self.session.state in (model.FAILED, model.DIED):
            return self.session.exit_code or 1
        return self.session.exit_code or 0

    @property
    def can_set_breakpoints(self) -> bool:
        """A target that will compile again: while it runs, or while it waits for re-runs."""
        return not self.read_only and self.controller is not None and not self.target_exited

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """What the footer shows: stepping keys only while a target runs, re-run and diff only
        where they have something to work on."""
        if action in ("step", "continue", "run"):
            return self.is_live
        if action == "toggle_breakpoint":
            return self.can_set_breakpoints
        if action == "ranks":
            return bool(self.session.ranks)
        if action == "rerun":
            return bool(self.session.calls) and not self.is_live  # while stepping, n c g matter more
        if action == "diff":
            ref = self.main_screen.selected
            return ref is not None and len(self.session.same_frame(ref.compile_id)) > 1
        return True

    # ----- life cycle ----------------------------------------------------------------
    def on_mount(self) -> None:
        if self.owns_process:
            # Fewer, later collections: a 20,000-line highlighted stage or a 200-compile session
            # holds hundreds of thousands of objects, and each full collection walking them showed
            # as a stall on a key press (benchmarks/stage_latency.py, memory_scale.py).
            gc.set_threshold(10_000, 50, 1000)
            self.call_after_refresh(_freeze_heap)
        self._loop = asyncio.get_running_loop()
        self.push_screen(self.main_screen)
        self.set_interval(0.25, self._flush_output)
        if self.stream_trace is not None:
            self.session.extra["recorded_state"] = "reading…"
            self._read_trace(self.stream_trace)
            self.set_interval(0.25, self._repaint_trace_if_dirty)
        elif self.read_only:
            self._warm_hints()
        if self.controller is not None and not self.read_only:
            # Start after the first paint, so the app shows at once.
            self.call_after_refresh(self._start_target)

    async def on_unmount(self) -> None:
        """However the app ends (quit, a crash, a test), the target does not outlive it."""
        self._end_trace_children()
        controller = self.controller
        if controller is not None and controller.proc is not None and controller.alive:
            await asyncio.to_thread(controller.close, 2.0)

    def _start_target(self) -> None:
        assert self.controller is not None
        try:
            self.controller.start()
        except OSError as exc:
            self._apply(TargetDied(error=f"could not start the target: {exc}", exit_code=1))
            self.target_exited = True
            self.main_screen.refresh_session()
            self.notify(self.session.status_line, severity="error", timeout=10)
            return
        self._warm_lexers()

    @work(thread=True, exclusive=True, group="warm-lexers")
    def _warm_lexers(self) -> None:
        """While the target starts (its first stage is a second or more away), not on the UI
        thread when that stage is painted."""
        warm_lexers()

    @work(thread=True, exclusive=True, group="trace-reader")
    def _read_trace(self, path: str) -> None:
        """Stream a TORCH_TRACE log: batches of events, so the first compile shows at once."""
        from tcdebug.trace import TraceStats, iter_trace_events
        from tcdebug.trace.worker import events_in_child, use_children

        stats = TraceStats()
        batch: list[Event] = []
        last = time.monotonic()
        # This thread holds the GIL while it parses; a shorter switch interval hands it to the
        # UI thread sooner when a key arrives (5 ms by default, paid several times per key press).
        interval = sys.getswitchinterval()
        sys.setswitchinterval(min(interval, 0.001))
        try:
            # A big log is parsed by child processes (both cores, no GIL shared with the UI);
            # they end with the app (`on_unmount`).
            events: Iterable[Event] | None = None
            if use_children(path):
                try:
                    events = self._trace_children = events_in_child(path, stats)
                except OSError as exc:  # no process could start: this one reads it, and says so
                    events = None
                    self.notify(
                        f"reading the log in this process (slower): its reader processes could not start: "
                        f"{exc.strerror or exc}",
                        severity="warning",
                        timeout=8,
                    )
            if events is None:
                events = iter_trace_events(path, stats, children=False)
            for n, event in enumerate(events):
                batch.append(event)
                if not n % 16:
                    self._yield_to_input()
                if time.monotonic() - last > 0.1:
                    self.post_message(TraceEvents(batch))
                    batch, last = [], time.monotonic()
        except (OSError, ValueError, RecursionError, MemoryError) as exc:
            # A log that cannot be read on: keep what came before, and say why in one line.
            self.notify(f"{path}: reading stopped: {type(exc).__name__}: {exc}", severity="error", timeout=12)
        finally:
            sys.setswitchinterval(interval)
            self._end_trace_children()
        self.post_message(TraceEvents(batch, done=True, stats=stats))

    def _end_trace_children(self) -> None:
        """The processes reading a big log end with the reading, and with the app."""
        if self._trace_children is not None:
            self._trace_children.close()

    def _yield_to_input(self) -> None:
        """Called by the reader thread: while the user is pressing keys, let the UI thread have
        the GIL: a key press handled while the reader parses takes longer."""
        for _ in range(200):  # at most 1 s per call: a held key must not stop the reading for good
            if time.monotonic() - self._last_input > 0.15:
                return
            time.sleep(0.005)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown)):
            self._last_input = time.monotonic()
        await super().on_event(event)

    async def _post_message(self, message: Any) -> bool:
        """Every key from the terminal arrives here first. A quit key starts a watch: when the app
        has not taken the key within `UNANSWERED_QUIT_S` (its message loop stopped answering),
        tcdebug ends anyway, as a signal would."""
        if self.owns_process and isinstance(message, events.Key) and message.key in self._quit_keys:
            timer = threading.Timer(UNANSWERED_QUIT_S, self._quit_if_unanswered, args=(time.monotonic(),))
            timer.daemon = True
            timer.start()
        return await super()._post_message(message)

    def _quit_if_unanswered(self, pressed_at: float) -> None:
        """In the watch's thread: end tcdebug if the app never took the key (a search box that took
        it counts as taken)."""
        if self._last_input < pressed_at and not self._quitting:
            _end_now(self, self.exit_code(), "tcdebug: the interface stopped answering keys; ended it")

    def on_trace_events(self, message: TraceEvents) -> None:
        from tcdebug.trace import apply_event, finish_session

        first = not self.session.compiles
        for event in message.events:
            apply_event(self.session, event)
        self._overview_dirty = True
        self._session_changes += 1
        if self.main_screen.can_paint:  # the timeline rebuilds only these compiles' rows
            self.main_screen.timeline.note_changes(
                {getattr(event, "compile_id", None) or None for event in message.events}
            )
        if message.done:
            finish_session(self.session, message.stats)
            self.session.extra["recorded_state"] = ""
            self._warm_hints()
            for note in self.session.notes:
                self.notify(_one_line(note), severity="warning", timeout=8)
        # While a big log streams in, repaint the timeline only now and then (at most a fifth of
        # the time): each repaint walks every compile, and the reader needs the GIL too.
        now = time.monotonic()
        if not (first or message.done) and now < self._trace_repaint_at:
            self._trace_dirty = True
            return
        self._trace_dirty = False
        self._repaint_trace(first, only_noted=not message.done)
        took = time.monotonic() - now
        self._trace_repaint_at = time.monotonic() + max(0.25, 4 * took)

    def _repaint_trace(self, first: bool = False, *, only_noted: bool = True) -> None:
        main = self.main_screen
        if main.can_paint:
            main.refresh_session(only_noted=only_noted and not first)
            opening = self._opening_ref is not None and main.selected == self._opening_ref
            if (first and main.selected is None) or opening:
                # The first stage with something to read; until one has arrived, tried again at
                # each repaint while the user has not moved.
                found = main.select_first_stage()
                self._opening_ref = None if found else main.selected

    def _repaint_trace_if_dirty(self) -> None:
        if self._trace_dirty and time.monotonic() >= self._trace_repaint_at:
            self._trace_dirty = False
            self._repaint_trace()

    def forward_event(self, event: Event) -> None:
        """The controller's `on_event`: safe to call from any thread."""
        try:
            self.post_message(TargetEvent(event))
        except RuntimeError:  # the app's loop is closed: we are exiting
            pass

    # ----- events from the target ----------------------------------------------------
    def _apply(self, event: Event) -> Change:
        return self.session.apply(event)

    def on_target_event(self, message: TargetEvent) -> None:
        change = self._apply(message.event)
        event = change.event
        self._overview_dirty = True
        self._session_changes += 1
        diverged = self.live_ranks.update(event)
        self._ranks_dirty = self._ranks_dirty or is_rank_job(self.session)
        if change.output:
            self._output_dirty = True
            return
        if isinstance(event, TargetExited):
            self.target_exited = True
        if isinstance(event, Ready):
            self.target_ready = True
        main = self.main_screen
        if not main.can_paint:
            return
        if change.paused:
            main.refresh_session()  # the pause point is painted at once
        else:
            main.refresh_session_soon()  # one repaint for a burst of events
        if change.stage_key:
            if change.paused and self._follow_next_pause:
                self._follow_next_pause = False
                main.follow = True
            if change.paused:
                main.on_paused(change.compile_id, change.stage_key)
            else:
                main.on_stage_arrived(change.compile_id, change.stage_key)
        elif change.paused:  # an event breakpoint in a compile with no stage yet
            main.on_paused(change.compile_id, "")
        self._notify_for(change)
        self._notify_ranks(change, diverged)

    def _notify_ranks(self, change: Change, diverged: list[Any]) -> None:
        """A divergence the moment it is known; the collective-timeout warning at the first pause."""
        for div in diverged:
            self.notify(
                f"ranks diverge: {_one_line(div.summary)} (R: ranks, d on the compile: diff the ranks)",
                severity="warning",
                timeout=10,
                markup=False,
            )
        if change.paused and change.rank is not None:
            if not self._warned_timeout:
                self._warned_timeout = True
                self.notify(
                    "lockstep: every rank pauses at the same stage of the same compile. A long pause can "
                    f"make a collective time out: process group timeout {pg_timeout_text(self.session)}",
                    severity="warning",
                    timeout=12,
                    markup=False,
                )
    def _notify_for(self, change: Change) -> None:
        event = change.event
        if isinstance(event, ScriptEnd):
            if self.session.state == model.FAILED:
                self.notify(_one_line(self.session.status_line), severity="error", timeout=12)
            elif self.session.state == model.FINISHED:
                self.notify(f"the script {self.session.status_line}", timeout=4)  # finished (exit code N)
        elif isinstance(event, TargetDied):
            self.notify(_one_line(self.session.status_line), severity="error", timeout=12)
        elif isinstance(event, Error):
            self.notify(_one_line(event.message or "error in the target"), severity="error", timeout=12)
        elif isinstance(event, CompileEnd) and event.status == "failed":
            self.notify(f"compile {change.compile_id} failed: {_one_line(event.error)}", severity="error")
        elif isinstance(event, AccuracyEvent):
            if isinstance(self.screen, AccuracyScreen) and self.screen.compile_id == change.compile_id:
                self.screen.refresh_report()
            elif event.accuracy.done:
                self.notify(f"accuracy of {change.compile_id}: {_one_line(event.accuracy.summary)} (A)", timeout=8)
        elif change.rerun is not None and not isinstance(self.screen, RerunScreen):
            notice = rerun_notice(change.rerun)
            if notice is not None:
                text, severity = notice
                self.notify(text, severity=severity, timeout=6)  # type: ignore[arg-type]
        elif isinstance(event, Note) and event.text:
            self.notify(_one_line(event.text), timeout=5)
        elif isinstance(event, EventPause) and event.paused:
            self.notify(f"● {_one_line(event_pause_line(event))}", timeout=6, markup=False)
        elif isinstance(event, StanceEvent):
            level: SeverityLevel = "information" if event.action == "set" else "warning"
            self.notify(_one_line(stance_line(event)), severity=level, timeout=6, markup=False)
        elif isinstance(event, EventsUnavailable):
            for spec in sorted(self.breakpoints):
                self._warn_unavailable(spec)

    def _warn_unavailable(self, spec: str) -> None:
        """Say so when an event breakpoint can't be had on the script's torch."""
        kind = spec.partition(":")[0]
        reason = self.session.unavailable_events.get(kind)
        if reason:
            self.notify(
                f"breakpoint {spec}: this breakpoint can't be had on this torch: {_one_line(reason)}",
                severity="warning",
                timeout=10,
                markup=False,
            )

    def _flush_output(self) -> None:
        if self._output_dirty and isinstance(self.screen, OutputScreen):
            self._output_dirty = False
            self.screen.refresh_output()
        if self._ranks_dirty and isinstance(self.screen, RanksScreen):
            self._ranks_dirty = False
            self.screen.refresh_ranks()  # a live job: states, counts, divergences, output
        if self._overview_dirty and isinstance(self.screen, OverviewScreen):
            self._overview_dirty = False
            self.screen.refresh_overview()

    # ----- stepping ------------------------------------------------------------------
    def _can_drive(self, what: str) -> bool:
        if self.read_only or self.controller is None:
            self.notify(READ_ONLY_MESSAGE, severity="warning")
            return False
        if not self.is_live:
            self.notify(f"nothing to {what}: {_one_line(self.session.status_line)}", severity="warning")
            return False
        return True

    def _resumed(self, pid: int | None, stepping: bool) -> None:
        self.main_screen.follow = True
        if self.session.state == model.PAUSED:
            self._apply(Resumed(pid=pid))
        info = self.session.processes.get(self.session.main_pid if pid is None else pid)  # type: ignore[arg-type]
        if info is not None:
            info.stepping = stepping
        self.main_screen.refresh_session()

    def _drive(self, what: str, command: Callable[[TargetController, int | None], object]) -> None:
        """Send a stepping command to the process paused now (the main one when none is); in a
        torchrun job with lockstep on, to the ranks (see `_drive_ranks`)."""
        if self.lockstep and is_rank_job(self.session) and self.controller is not None and self.is_live:
            self._drive_ranks(what, command)
        elif self._can_drive(what):
            assert self.controller is not None
            pid = self.session.paused_pid
            command(self.controller, pid)
            self._resumed(pid, stepping=what != "run")

    def _drive_ranks(self, what: str, command: Callable[[TargetController, int | None], object]) -> None:
        """Lockstep: `n` steps the ranks once every rank waits (those behind first, so all meet at
        the same stage of the same compile); `c` and `g` go to every rank (`g` releases them all)."""
        assert self.controller is not None
        live = [i.pid for i in rank_processes(self.session).values() if not i.ended and i.exit_code is None]
        if what == "step":
            pids, running = lockstep_plan(self.session)
            pids = pids if pids or running else live  # every rank runs: pause each at its next stage
            state = (tuple(running), tuple(sorted(self.session.pauses.items())))
            if running and self._lockstep_waiting != state:
                self._lockstep_waiting = state
                self.notify(
                    f"lockstep: waiting for rank {', '.join(running)} to reach its next stage "
                    "(n again: step the paused ranks anyway; a rank may wait in a collective for them)",
                    timeout=5,
                    markup=False,
                )
                return
            if running:  # the second n while the same ranks still run: step the paused ones
                pids = [pid for pid in live if pid in self.session.pauses]
            self._lockstep_waiting = None
        else:
            pids = live
        for pid in pids:
            command(self.controller, pid)
            self._resumed(pid, stepping=what != "run")
        if what == "run":
            self.notify("every rank runs free (g): no more pauses", timeout=4)

    def set_lockstep(self, on: bool) -> None:
        """Lockstep on: n/c/g drive every rank. Off: they drive the rank paused now, and the
        palette's `step rank N` / `run rank N free` choose which ranks pause."""
        self.lockstep = on
        on_text = "lockstep on: ranks step together"
        self.notify(on_text if on else "lockstep off: n, c and g drive the rank paused now", timeout=4)

    def step_process(self, pid: int, stepping: bool) -> None:
        """Make a forked process of the script pause at its stages, or run free again."""
        if not self._can_drive("step"):
            return
        assert self.controller is not None
        info = self.session.processes.get(pid)
        label = self.session.process_label(pid)
        if info is None or info.ended or not self.controller.step_process(pid, stepping):
            self.notify(f"{label} is not running", severity="warning", markup=False)
            return
        info.stepping = stepping
        if not stepping and self.session.paused_pid == pid:
            self._apply(Resumed(pid=pid))
        self.notify(
            f"{label}: {'stepping: it pauses at its next stage' if stepping else 'runs free'}",
            timeout=4,
            markup=False,
        )
        self.main_screen.refresh_session()

    def step_new_processes(self, stepping: bool) -> None:
        """Processes the script forks from now on pause at their first stage (or run free)."""
        if not self._can_drive("step"):
            return
        assert self.controller is not None
        self.controller.step_new_processes = stepping
        self.notify(f"new processes {'pause at their first stage' if stepping else 'run free'}", timeout=4)

    def action_step(self) -> None:
        """Step to the next stage (while the target compiles: pause at the next stage)."""
        self._drive("step", TargetController.step)

    def action_continue(self) -> None:
        self._drive("continue", TargetController.continue_)

    def action_run(self) -> None:
        self._drive("run", TargetController.run)

    def action_unavailable(self, action: str) -> None:
        """A key whose binding is off in this state (not in the footer): its action still runs and
        explains why it does nothing (or, for `b`, marks the kind for the palette and the timeline)."""
        getattr(self, f"action_{action}")()

    def action_clear_breakpoints(self) -> None:
        """Remove every breakpoint."""
        if not self.breakpoints:
            self.notify("no breakpoints to clear", timeout=3)
            return
        self.breakpoints.clear()
        if self.controller is not None and self.is_live:
            self.controller.set_breakpoints(self.breakpoints)
        self.notify("all breakpoints cleared", timeout=3)
        self.main_screen.refresh_session()

    def action_toggle_breakpoint(self) -> None:
        ref = self.main_screen.selected
        event_kind = ROW_EVENTS.get(ref.item.partition(":")[0]) if ref is not None else None
        if event_kind is not None:
            self.toggle_breakpoint(event_kind)
            return
        if ref is None or not ref.key:
            self.notify(
                "select a stage, a graph break or a recompile first: b breaks on every one of its kind",
                severity="warning",
            )
            return
        self.toggle_breakpoint(ref.stage_id)

    def toggle_breakpoint(self, spec: str) -> None:
        """Break at every stage of kind `spec`, or at the compiler event it names
        (`tcdebug.model.event_breaks`), or stop doing so."""
        if spec in self.breakpoints:
            self.breakpoints.discard(spec)
            self.notify(f"breakpoint removed: {spec}", timeout=3)
        else:
            problem = event_breaks.check(spec)
            if problem:
                self.notify(problem, severity="error", timeout=8, markup=False)
                return
            self.breakpoints.add(spec)
            if event_breaks.is_event_spec(spec):
                kind = event_breaks.KINDS[spec.partition(":")[0]]
                self.notify(f"breakpoint: stop when {kind.title} ({spec})", timeout=3, markup=False)
                self._warn_unavailable(spec)
            else:
                self.notify(f"breakpoint: stop at every {spec}", timeout=3)
        if self.controller is not None and self.is_live:
            self.controller.set_breakpoints(self.breakpoints)
        self.main_screen.refresh_session()

    # ----- navigation ----------------------------------------------------------------
    def jump_to(self, ref: Ref) -> None:
        """Show a compile, stage or kernel (the command palette calls this)."""
        if self.screen is not self.main_screen:
            self.switch_to_main()
        paused = self.session.paused_at
        self.main_screen.follow = paused is not None and Ref(*paused) == ref
        self.main_screen.select(ref)
        # Lines read from their start: a sideways scroll left from before would show their tails.
        self.main_screen.code.scroll_to(x=0, animate=False, immediate=True)

    def switch_to_main(self) -> None:
        while len(self.screen_stack) > 2 and self.screen is not self.main_screen:
            self.pop_screen()

    def action_output(self) -> None:
        if isinstance(self.screen, OutputScreen):
            self.pop_screen()
        else:
            self.push_screen(OutputScreen())

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_save_screenshot(self) -> None:
        """Save an SVG of the screen into `screenshot_dir()` and say where."""
        folder = screenshot_dir()
        try:
            os.makedirs(folder, exist_ok=True)
            path = self.save_screenshot(path=folder)
        except OSError as exc:
            self.notify(f"could not save the screenshot in {folder}: {exc}", severity="error")
            return
        self.notify(f"screenshot saved: {path}", timeout=6)

    def action_rerun(self) -> None:
        """Open the re-run editor on the selected compile's function (its last call)."""
        ref = self.main_screen.selected
        if ref is None or ref.compile_id not in self.session.compiles:
            self.notify("select a compile: r re-runs its function's last call", severity="warning")
            return
        mode = self.controller.mode if self.controller is not None else "run"
        controller = None if self.read_only else self.controller
        self.push_screen(RerunScreen(self.session, controller, ref.compile_id, mode=mode))

    def action_accuracy(self) -> None:
        """Compare the selected compile with eager (`tcdebug.debuggee.accuracy`), or show the answer."""
        ref = self.main_screen.selected
        comp = self.session.compiles.get(ref.compile_id) if ref is not None else None
        if comp is None:
            self.notify("select a compile: A compares it with eager", severity="warning")
            return
        if comp.accuracy is None or comp.accuracy.status == "not_comparable":
            why = self._accuracy_unavailable()
            if why:
                self.notify(why, severity="warning", timeout=8)
                if comp.accuracy is None:
                    return
            elif self.controller is not None:
                self.controller.check_accuracy(CheckAccuracy(compile_id=comp.compile_id))
                comp.accuracy = Accuracy(compile_id=comp.compile_id, status="running", summary="comparing")
        if not isinstance(self.screen, AccuracyScreen):
            self.push_screen(AccuracyScreen(self.session, comp.compile_id))

    def _accuracy_unavailable(self) -> str:
        """Why `A` cannot start a comparison now ("" when it can)."""
        if self.read_only or self.controller is None:
            return "not compared here: compare with tcdebug --accuracy SCRIPT, or --accuracy --dump OUT SCRIPT"
        if not self.controller.accuracy:
            return "start tcdebug with --accuracy to keep each compile's graph and inputs, then press A"
        if self.target_exited:
            return "the script's process has ended: nothing left to compare"
        if not self.target_ready:
            return "the comparison runs once the script has ended: press g to run to the end, then A"
        return ""

    def action_diff(self) -> None:
        """Compare the selected stage with the same stage of another compile of its frame."""
        ref = self.main_screen.selected
        if ref is None or ref.compile_id not in self.session.compiles:
            self.notify("select a stage: d compares it with another compile", severity="warning")
            return
        other = other_rank_compile(self.session, ref.compile_id)  # a diverging rank's version
        self.push_screen(DiffScreen(self.session, ref.compile_id, ref.key if ref.is_stage else "", other))

    def action_why(self) -> None:
        """Why the selected compile exists, broke, fused, recorded and took its time."""
        ref = self.main_screen.selected
        if ref is None or ref.compile_id not in self.session.compiles:
            self.notify("select a compile: w explains it", severity="warning")
            return
        self.push_screen(WhyScreen(self.session, ref.compile_id, self.hints_by_compile()))

    def hints_by_compile(self) -> dict[str, list[Hint]]:
        """The session's hints by compile, worked out again only after the session has changed
        (a pass over every compile: about a second at 100,000 compiles)."""
        key = self._hints_key()
        if self._hints is None or self._hints[0] != key:
            self._hints = (key, hints_by_compile(session_hints(self.session)))
        return self._hints[1]

    def _hints_key(self) -> tuple[int, int, int]:
        return (id(self.session), self._session_changes, len(self.session.compiles))

    def _warm_hints(self) -> None:
        """A complete read-only session of many compiles: its hints worked out in a thread now, so
        that the first `w` finds them."""
        if self.read_only and len(self.session.compiles) >= WARM_HINTS_FROM:
            self._work_out_hints(self._hints_key())

    @work(thread=True, exclusive=True, group="warm-hints", exit_on_error=False)
    def _work_out_hints(self, key: tuple[int, int, int]) -> None:
        worker = get_current_worker()
        # read-only: nothing changes the session meanwhile; the app quitting cancels the worker
        found = hints_by_compile(session_hints(self.session, lambda: worker.is_cancelled))
        if not worker.is_cancelled:
            self.call_from_thread(self._keep_hints, key, found)

    def _keep_hints(self, key: tuple[int, int, int], found: dict[str, list[Hint]]) -> None:
        if key == self._hints_key() and (self._hints is None or self._hints[0] != key):
            self._hints = (key, found)

    def action_overview(self) -> None:
        """The run at a glance (`O` again closes it)."""
        if isinstance(self.screen, OverviewScreen):
            self.pop_screen()
            return
        self._overview_dirty = False
        self.push_screen(OverviewScreen(self.session))

    def action_search_all(self) -> None:
        """Search every stage of every compile (the last search is kept)."""
        if not isinstance(self.screen, SearchScreen):
            self.push_screen(SearchScreen(self.session, self.last_search))

    def search_jump(self, hit: SearchHit, term: str) -> None:
        """Show a search result: its stage selected, its line marked and in view."""
        self.last_search = term
        self.jump_to(Ref(hit.compile_id, hit.key))
        self.main_screen.show_match(term, hit.line, hit.column)

    def action_compile_times(self) -> None:
        """Where compile time went: the run and each compile, as bars."""
        if isinstance(self.screen, TimesScreen):
            self.pop_screen()
            return
        ref = self.main_screen.selected
        self.push_screen(TimesScreen(self.session, ref.compile_id if ref is not None else ""))

    def action_follow(self) -> None:
        """Follow the op at the top of the stage view (or at the search match) through the compile."""
        main = self.main_screen
        ref = main.selected
        comp = self.session.compiles.get(ref.compile_id) if ref is not None else None
        if ref is None or comp is None or not ref.key:
            self.notify("select a stage: f follows an op of it through the compile", severity="warning")
            return
        ensure_trace_provenance(self.session, [comp])
        if not comp.provenance.items:
            self.notify(f"no provenance recorded for compile {comp.compile_id}", severity="warning")
            return
        code = main.code
        if 0 <= code.match_index < len(code.matches):
            line = code.matches[code.match_index].line + 1
        else:
            line = round(code.scroll_offset.y) + 1
        self.push_screen(TrailScreen(self.session, comp.compile_id, ref.key, line, name=ref.kernel))

    def action_symbols(self) -> None:
        """The symbolic sizes of the selected compile: origin, range, hint, guards."""
        ref = self.main_screen.selected
        comp = self.session.compiles.get(ref.compile_id) if ref is not None else None
        if comp is None:
            self.notify("select a compile: S lists its symbolic sizes", severity="warning")
            return
        if not isinstance(self.screen, SymbolsScreen):
            self.push_screen(SymbolsScreen(comp))

    def follow_jump(self, compile_id: str, key: str, lines: list[int], focus: int | None) -> None:
        """Show stage `key` with the followed op's `lines` marked (the trail screen's enter)."""
        self.jump_to(Ref(compile_id, key))
        self.main_screen.code.mark_lines(lines, focus=focus)

    def action_ranks(self) -> None:
        """The ranks of a multi-rank TORCH_TRACE and where they diverge."""
        if not self.session.ranks:
            self.notify(
                "one rank only: the ranks view is for multi-rank TORCH_TRACE logs and torchrun jobs",
                severity="warning",
            )
            return
        timeout = pg_timeout_text(self.session) if is_rank_job(self.session) else ""
        self.push_screen(RanksScreen(self.session, pg_timeout=timeout))

    def on_rerun_screen_requested(self, message: RerunScreen.Requested) -> None:
        """A re-run runs: its recompile's pauses are what the stage view follows next."""
        if message.run:
            self.main_screen.follow = True
            self._follow_next_pause = True  # whatever the user browses meanwhile

    def on_ranks_screen_rank_selected(self, message: RanksScreen.RankSelected) -> None:
        if is_rank_job(self.session):  # live: stay on the whole job, show the rank's compile
            self.switch_to_main()
            rank = int(message.rank)
            ordered = self.session.ordered_compiles()
            rank_ids = [c.compile_id for c in ordered if rank_of_id(c.compile_id) == rank]
            wanted = f"{message.compile_id}@r{message.rank}" if message.compile_id else ""
            target = wanted if wanted in self.session.compiles else (rank_ids[0] if rank_ids else "")
            if target:
                self.main_screen.select(Ref(target))
            self.notify(f"rank {message.rank}", timeout=3)
            return
        self.session = message.session
        self.switch_to_main()
        self.main_screen.refresh_session()
        if message.compile_id:
            self.main_screen.select(Ref(message.compile_id))
        else:
            self.main_screen.select_first_stage()
        self.notify(f"showing rank {message.rank}", timeout=3)

    def exit_on_signal(self, signum: int) -> None:
        """SIGTERM, SIGHUP or SIGINT to tcdebug (from a signal handler): end the script's whole
        process tree, restore the terminal as `q` does, exit with 128+N. A second signal, or a
        clean exit that takes more than a few seconds, ends everything at once."""
        if self.signalled is not None or self._loop is None:
            _hard_exit(self, signum)
            return
        self.signalled = signum
        timer = threading.Timer(8.0, _hard_exit, args=(self, signum))
        timer.daemon = True
        timer.start()
        self._loop.call_soon_threadsafe(self._quit_for_signal)

    def _quit_for_signal(self) -> None:
        self.run_worker(self._end_and_exit(), exclusive=True, group="signal-exit")

    async def _end_and_exit(self) -> None:
        self._quitting = True
        controller = self.controller
        if controller is not None and controller.proc is not None:
            await asyncio.to_thread(controller.close, 0.5)
        self.exit(self.exit_code())

    async def action_restart_cold(self) -> None:
        """End this run and start the script again with every cache and PGO off (`--cold`), so
        that no cache hit skips a stage. Only for a live run that is not cold already."""
        if not self.can_restart_cold:
            self.notify("restart cold: only a live run of a script, not already cold", severity="warning")
            return
        self.restart_cold = True
        await self.action_quit()

    def request_restart_cold(self) -> None:
        """`action_restart_cold`, from the palette."""
        self.run_worker(self.action_restart_cold(), exclusive=True, group="restart-cold")

    @property
    def can_restart_cold(self) -> bool:
        """A live session of a script that runs with the user's caches."""
        return self.controller is not None and not self.read_only and not self.session.cold

    async def action_quit(self) -> None:
        """Quit, ending the target cleanly first (it may be busy compiling)."""
        if self._quitting:
            return
        self._quitting = True
        self._end_trace_children()
        controller = self.controller
        if controller is not None and controller.proc is not None and controller.alive:
            self.notify("stopping the target…", timeout=10)
            await asyncio.to_thread(controller.close)
        self.exit(self.exit_code())


# What Textual's driver writes when the app ends: mouse tracking off, bracketed paste off,
# the alternate screen off, the cursor shown.
RESTORE_TERMINAL = b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?2004l\x1b[?1049l\x1b[?25h"


def _hard_exit(app: TcdebugApp, signum: int) -> None:
    """The last resort after a signal: kill the script's tree, restore the terminal, exit now."""
    _end_now(app, 128 + signum)


def _end_now(app: TcdebugApp, code: int, line: str = "") -> None:
    """Kill the script's tree and the log readers, restore the terminal, say `line`, exit with `code`."""
    controller = app.controller
    try:
        app._end_trace_children()
        if controller is not None and controller.proc is not None:
            controller.end_tree(grace=0.2)
            controller.kill()
    except Exception:  # noqa: BLE001 - exiting regardless
        pass
    try:
        os.write(1, RESTORE_TERMINAL)
        if line:
            os.write(2, safe_line(line).encode("ascii", "replace") + b"\n")
    except OSError:
        pass
    os._exit(code)


EXIT_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
# How long tcdebug's own process waits for the app to take a quit key before it ends without the app.
UNANSWERED_QUIT_S = 3.0


def run_with_exit_signals(app: TcdebugApp) -> None:
    """`app.run()`, ending cleanly (target tree ended, terminal restored) on SIGTERM, SIGHUP and
    SIGINT: an SSH connection that drops sends SIGHUP."""
    previous = {
        sig: signal.signal(sig, lambda signum, _frame: app.exit_on_signal(signum)) for sig in EXIT_SIGNALS
    }
    try:
        app.run()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def screenshot_dir() -> str:
    """Where ctrl+s saves: $TCDEBUG_SCREENSHOT_DIR, else ~/.cache/tcdebug/screenshots
    ($XDG_CACHE_HOME/tcdebug/screenshots when that is set)."""
    chosen = os.environ.get("TCDEBUG_SCREENSHOT_DIR")
    if chosen:
        return os.path.abspath(os.path.expanduser(chosen))
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "tcdebug", "screenshots")


def _freeze_heap() -> None:
    """After the first paint: move everything alive now (the session, the widgets) out of the
    garbage collector's sight. A big session holds many long-lived objects; without this, every
    full collection walks them all, and a key press now and then takes longer."""
    gc.collect()
    gc.freeze()


def _one_line(text: str, limit: int = 200) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def build_live_app(
    argv: list[str],
    *,
    module: bool = False,
    mode: str = "step",
    breakpoints: Iterable[str] = (),
    adopt: bool = False,
    accuracy: bool = False,
    cold: bool = False,
) -> TcdebugApp:
    """An app wired to a (not yet started) target for `argv`; the app starts it after its first paint.
    `adopt`: this process adopts the script's orphans (see `TargetController`): the CLI only.
    `accuracy`: the target keeps each compile's graph and inputs, for `A`.
    `cold`: every compile cache and automatic-dynamic PGO off (`--cold`)."""
    session = Session(script=argv[0] if argv else "", argv=list(argv))
    holder: list[TcdebugApp] = []

    def on_event(event: Event) -> None:
        if holder:
            holder[0].forward_event(event)

    controller = TargetController(
        argv,
        module=module,
        mode=mode,
        breakpoints=set(breakpoints),
        on_event=on_event,
        adopt_orphans=adopt,
        env=script_environ(),
        accuracy=accuracy,
        cold=cold,
    )
    app = TcdebugApp(session, controller, breakpoints=breakpoints)
    holder.append(app)
    return app


def run_live(
    argv: list[str], *, module: bool, mode: str, breakpoints: set[str], accuracy: bool = False, cold: bool = False
) -> int:
    """Run the target under the app; the script's exit code, or 1 when it failed or died. "restart
    cold" (palette, or `K` on a stage a cache hit skipped) ends the run and starts it again cold."""
    while True:
        app = build_live_app(
            argv, module=module, mode=mode, breakpoints=breakpoints, adopt=True, accuracy=accuracy, cold=cold
        )
        app.owns_process = True
        try:
            run_with_exit_signals(app)
        finally:
            if app.controller is not None and app.controller.proc is not None:
                app.controller.close()
        if not app.restart_cold or app.signalled is not None:
            return app.exit_code()
        cold, breakpoints = True, set(app.breakpoints)


def run_open(session: Session, *, stream_trace: str | None = None) -> int:
    """Browse a loaded session (a dump or a trace) read-only; `stream_trace` fills it while shown."""
    app = TcdebugApp(session, read_only=True, stream_trace=stream_trace)
    app.owns_process = True
    run_with_exit_signals(app)
    return 128 + app.signalled if app.signalled is not None else 0
