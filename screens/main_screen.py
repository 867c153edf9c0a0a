"""The main screen: status bar, timeline on the left, the selected stage on the right."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from tcdebug.screens.content import call_line, first_kernel_line, view_for
from tcdebug.screens.widgets.code_view import CodeView
from tcdebug.screens.widgets.key_footer import KeyFooter
from tcdebug.screens.widgets.status_bar import StatusBar
from tcdebug.screens.widgets.timeline import Ref, Timeline, TimelineState
from tcdebug.torchtext.source_map import source_gutter

if TYPE_CHECKING:
    from tcdebug.screens.app import TcdebugApp


class SearchInput(Input):
    """The `/` search box: enter/down = next match, up = previous, escape = close."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "screen.search_next", "Next match", id="search_box_next", show=False),
        Binding("up", "screen.search_prev", "Previous match", id="search_box_prev", show=False),
        Binding("escape", "screen.close_search", "Close search", id="search_box_close", show=False),
    ]


class MainScreen(Screen[None]):
    CSS_PATH = "main_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "search", "Search", id="search", tooltip="Search the stage view"),
        Binding("f3", "search_next", "Next match", id="search_next", show=False),
        Binding("shift+f3", "search_prev", "Prev match", id="search_prev", show=False),
        Binding(
            "right_square_bracket",
            "kernel(1)",
            "Next kernel",
            id="next_kernel",
            tooltip="The next kernel of the stage",
        ),
        Binding("left_square_bracket", "kernel(-1)", "Prev kernel", id="prev_kernel", show=False),
        Binding(
            "W",
            "wrapper_call",
            "Wrapper call()",
            id="wrapper_call",
            show=False,
            tooltip="kernel_source: the wrapper's call(), then the imports, then the first kernel",
        ),
        Binding(
            "t",
            "toggle_timeline",
            "Timeline",
            id="toggle_timeline",
            show=False,
            tooltip="Hide / show the timeline",
        ),
        Binding(
            "z", "zoom", "Zoom", id="zoom", tooltip="The stage view alone on the screen; z again restores"
        ),
        Binding("shift+left", "scroll_sideways(-1)", "Scroll left", id="scroll_left", show=False),
        Binding("shift+right", "scroll_sideways(1)", "Scroll right", id="scroll_right", show=False),
        Binding("shift+home", "scroll_line_start", "Line start", id="scroll_line_start", show=False),
        Binding("escape", "close_search", "Clear search", id="clear_search", show=False),
        Binding(
            "right_square_bracket,left_square_bracket",
            "kernel(0)",
            "Kernels (when off)",
            id="kernel_unavailable",
            show=False,
        ),
    ]

    # Width of the timeline pane: its widest row, up to this share of the terminal (at least MIN).
    TIMELINE_SHARE = 0.38
    TIMELINE_MIN = 18

    def __init__(self) -> None:
        super().__init__()
        self.selected: Ref | None = None
        # Follow the pause point: True until the user moves elsewhere; stepping sets it again.
        self.follow = True
        self._footer_state: tuple[object, ...] = ()
        self._refresh_pending = False  # a coalesced `refresh_session` is queued (refresh_session_soon)

    @property
    def tc_app(self) -> TcdebugApp:
        return cast("TcdebugApp", self.app)

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status-bar")
        with Horizontal(id="body"):
            yield Timeline(id="timeline")
            with Vertical(id="stage-pane"):
                yield Static(id="stage-header")
                yield CodeView(id="code")
                with Horizontal(id="search-bar"):
                    yield Static("/", id="search-prompt")
                    yield SearchInput(placeholder="search this stage", id="search-input")
                    yield Static(id="search-count")
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(Timeline).border_title = "Timeline"
        self.query_one("#stage-pane").border_title = "Stage"
        self._fit_timeline()
        self.refresh_session()
        self.show(None)
        if not self.tc_app.is_live:
            self.select_first_stage()
        self.query_one(Timeline).focus()
        self.call_after_refresh(self.refresh_bindings)  # the footer, once it listens

    # ----- follow the session --------------------------------------------------------
    @property
    def timeline(self) -> Timeline:
        return self.query_one(Timeline)

    @property
    def code(self) -> CodeView:
        return self.query_one(CodeView)

    def refresh_session_soon(self) -> None:
        """`refresh_session` once, after the messages already queued in the app (the rest of a
        burst of events from the target): one repaint for the burst, not one per event."""
        if not self._refresh_pending:
            self._refresh_pending = True
            self.app.call_later(self._refresh_if_pending)

    def _refresh_if_pending(self) -> None:
        if self._refresh_pending and self.can_paint:
            self.refresh_session()

    @property
    def can_paint(self) -> bool:
        """Mounted, in an app that is still running: an app shutting down removes the screen's
        widgets while its message loop may still run a queued call or event."""
        return self.is_mounted and self.app.is_running

    def refresh_session(self, *, only_noted: bool = False) -> None:
        """Repaint the timeline and the status bar from the session (`only_noted`: see `Timeline.sync`)."""
        self._refresh_pending = False
        app = self.tc_app
        session = app.session
        self.timeline.sync(
            session,
            TimelineState(
                paused_at=session.paused_at,
                breakpoints=frozenset(app.breakpoints),
                live=app.is_live,
            ),
            only_noted=only_noted,
        )
        self.refresh_status()
        self._fit_timeline()
        self._refresh_footer()
        # A pending row may have become a real stage, or the shown stage may have changed.
        current = self.timeline.highlighted_ref
        if current is not None and current != self.selected:
            self.show(current)
        elif self.selected is not None:
            self._paint(self.selected, keep=True)
            self._source_map(self.selected)

    def refresh_status(self) -> None:
        app = self.tc_app
        self.query_one(StatusBar).update_from(
            app.session, busy=app.is_busy, read_only=app.read_only, breakpoints=app.breakpoints
        )

    def on_screen_resume(self) -> None:
        """Back from another screen (the re-run editor steps aside at a pause): show the pause
        point if the view follows it."""
        paused = self.tc_app.session.paused_at
        if self.follow and paused is not None and self.selected != Ref(*paused):
            self.select(Ref(*paused))

    def on_paused(self, compile_id: str, key: str) -> None:
        """The target paused at a stage: show it, unless the user is looking elsewhere."""
        if self.follow or self.selected is None:
            self.select(Ref(compile_id, key))

    def on_stage_arrived(self, compile_id: str, key: str) -> None:
        if self.selected is None:
            if self._refresh_pending:  # the timeline must hold the row to select it
                self.refresh_session()
            self.select(Ref(compile_id, key))

    # ----- selection -----------------------------------------------------------------
    def select_first_stage(self) -> bool:
        """Show the first stage with something to read (a log often lacks `source`), else the first
        stage of the first compile, when there is one. False when what it shows has nothing to
        read (a log still streaming in may bring it later)."""
        stages = [ref for ref in self.timeline.refs() if ref.is_stage]
        first = next((ref for ref in stages if self.has_content(ref)), None)
        if first is None and stages:
            first = stages[0]
        if first is not None:
            self.select(first)
        return first is not None and self.has_content(first)

    def has_content(self, ref: Ref) -> bool:
        """A captured stage with text (a dump's or a log's text is read lazily: one it can read is
        taken as text)."""
        stage = self.tc_app.session.stage(ref.compile_id, ref.key) if ref.is_stage else None
        if stage is None or not stage.captured:
            return False
        return bool(stage.text and stage.text.strip()) or (stage.text is None and stage.loader is not None)

    def select(self, ref: Ref) -> None:
        """Move the timeline cursor to `ref` and show it (programmatic: keeps `follow`)."""
        self.selected = ref
        self.timeline.select_ref(ref)
        shown = self.timeline.highlighted_ref
        self.show(shown if shown is not None else ref)

    def show(self, ref: Ref | None) -> None:
        self.selected = ref
        self._paint(ref, keep=False)
        self._refresh_footer()
        self._source_map(ref)

    def _source_map(self, ref: Ref | None) -> None:
        """The `source` stage's gutter: file line numbers, nodes per line, graph breaks, resume point."""
        comp = self.tc_app.session.compiles.get(ref.compile_id) if ref is not None else None
        if ref is None or comp is None or ref.key != "source" or ref.kernel or ref.item:
            return
        labels = source_gutter(comp, self.tc_app.session.compiles.values())
        if labels != self.code.gutter_labels:
            self.code.set_gutter(labels)

    def _paint(self, ref: Ref | None, *, keep: bool) -> None:
        session = self.tc_app.session
        view = view_for(session, ref, paused_at=session.paused_at)
        header = self.query_one("#stage-header", Static)
        # As many rows as the header has lines (auto height kept a stale 2 when a third came);
        # its size does not depend on the text otherwise, so a new text needs no layout.
        header.update(view.header, layout=False)
        header.styles.height = min(3, view.header.plain.count("\n") + 1)
        if keep and view.key is not None and view.key == self.code.document_key:
            return
        if keep and view.key is None and view.text == self.code.text:
            return
        self.code.set_document(view.text, view.language, key=view.key)
        if view.start_line and not keep:
            self.code.scroll_to_line(view.start_line)
        if self.code.search_term:
            self.code.search(self.code.search_term)
            self._update_search_count()

    @on(Timeline.RefHighlighted)
    def _user_moved(self, event: Timeline.RefHighlighted) -> None:
        if event.ref == self.selected or event.ref != self.timeline.highlighted_ref:
            return  # our own select, or a stale message: the cursor has moved on since
        paused = self.tc_app.session.paused_at
        self.follow = paused is not None and event.ref == Ref(*paused)
        self.show(event.ref)

    def _refresh_footer(self) -> None:
        """Recompute the footer's keys only when what they depend on changed (not on every event)."""
        app = self.tc_app
        state = (
            app.is_live,
            app.can_set_breakpoints,
            bool(app.session.calls),
            bool(app.session.ranks),
            self.selected,
            len(app.session.compiles),
        )
        if state != self._footer_state:
            self._footer_state = state
            self.refresh_bindings()
            self.query_one(KeyFooter).update_now()  # in this frame, not in one more layout after it

    # ----- layout --------------------------------------------------------------------
    def on_resize(self) -> None:
        self._fit_timeline()

    def _fit_timeline(self) -> None:
        """The timeline as wide as its widest row (+ border and scrollbar), up to a share of the
        terminal, so the stage view gets the rest."""
        timeline = self.timeline
        cap = max(self.TIMELINE_MIN, int(self.size.width * self.TIMELINE_SHARE))
        width = max(self.TIMELINE_MIN, min(cap, timeline.content_width + 4))
        if timeline.styles.width is None or timeline.styles.width.value != width:
            timeline.styles.width = width

    def action_toggle_timeline(self) -> None:
        """Hide or show the timeline (the stage view takes the width)."""
        hidden = not self.has_class("-no-timeline")
        self.set_class(hidden, "-no-timeline")
        if not hidden:
            self.timeline.focus()
        elif self.focused is self.timeline or self.focused is None:
            self.code.focus()

    @property
    def timeline_shown(self) -> bool:
        return not (self.has_class("-no-timeline") or self.has_class("-zoomed"))

    def action_zoom(self) -> None:
        """The stage view alone on the screen (no timeline, status bar or borders); z again restores."""
        self.set_class(not self.has_class("-zoomed"), "-zoomed")
        if self.has_class("-zoomed"):
            if self.focused is self.timeline or self.focused is None:
                self.code.focus()
        elif self.timeline_shown:
            self.timeline.focus()

    @property
    def zoomed(self) -> bool:
        return self.has_class("-zoomed")

    def action_scroll_sideways(self, direction: int) -> None:
        """Scroll the stage view half a page sideways, whichever pane has the focus."""
        if direction < 0:
            self.code.action_scroll_left_page()
        else:
            self.code.action_scroll_right_page()

    def action_scroll_line_start(self) -> None:
        self.code.action_scroll_line_start()

    def action_wrapper_call(self) -> None:
        """In a kernel_source stage, cycle the view: the wrapper's `call()`, the imports at the
        top, the first kernel again."""
        ref = self.selected
        if ref is None or ref.stage_id != "kernel_source" or ref.kernel:
            self.notify("W jumps to call() in a kernel_source stage: select one first", severity="warning")
            return
        text = self.code.text
        call = call_line(text)
        stage = self.tc_app.session.stage(ref.compile_id, ref.key)
        first = first_kernel_line(text, stage.kernels[0].name) if stage and stage.kernels else 0
        stops = [line for line in (call, 0, first) if line is not None]
        top = round(self.code.scroll_offset.y)
        later = [i for i, line in enumerate(stops) if line == top]
        index = (later[0] + 1) % len(stops) if later else 0
        self.code.scroll_to_line(stops[index])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show in the footer the keys that do something here (hidden keys still answer)."""
        if action == "kernel" and parameters != (0,):
            ref = self.selected
            return bool(ref and ref.key and self.timeline.kernel_refs(ref.compile_id, ref.key)) or False
        return True

    # ----- search --------------------------------------------------------------------
    def action_search(self) -> None:
        bar = self.query_one("#search-bar")
        bar.display = True
        field = self.query_one(SearchInput)
        field.value = self.code.search_term
        field.focus()

    @on(Input.Changed, "#search-input")
    def _search_changed(self, event: Input.Changed) -> None:
        self.code.search(event.value)
        self._update_search_count()

    @on(Input.Submitted, "#search-input")
    def _search_submitted(self, event: Input.Submitted) -> None:
        self.action_search_next()

    def action_search_next(self) -> None:
        self._step_match(1)

    def action_search_prev(self) -> None:
        self._step_match(-1)

    def _step_match(self, direction: int) -> None:
        if not self.code.search_term:
            self.notify("no search: press / to search this stage", severity="warning")
            return
        if self.code.next_match(direction) is None:
            self.app.bell()
        self._update_search_count()

    def action_close_search(self) -> None:
        bar = self.query_one("#search-bar")
        if bar.display:
            bar.display = False
            self.code.focus()
        elif self.code.search_term:
            self.code.clear_search()
            self._update_search_count()

    def show_match(self, term: str, line: int, column: int) -> None:
        """Show 1-based `line` of the shown stage marked, with `term` searched (`f3` goes on from
        there) and the match at `column` in view (a result of the search across stages)."""
        code = self.code
        code.search(term)
        code.mark_lines([line], focus=line)
        if not code.go_to_match_at(line - 1, column):
            code.match_index = -1
        self._update_search_count()

    def _update_search_count(self) -> None:
        self.query_one("#search-count", Static).update(self.code.match_status)

    # ----- kernels -------------------------------------------------------------------
    def action_kernel(self, direction: int) -> None:
        """Step through the kernels of the shown kernel_source stage."""
        ref = self.selected
        if ref is None or not ref.key:
            self.notify("select a kernel_source stage first", severity="warning")
            return
        kernels = list(self.timeline.kernel_refs(ref.compile_id, ref.key))
        if not kernels or not direction:
            self.notify(f"{ref.key} has no kernels", severity="warning")
            return
        if ref.kernel:
            index = next((i for i, k in enumerate(kernels) if k == ref), 0)
            index = (index + direction) % len(kernels)
        else:
            index = 0 if direction > 0 else len(kernels) - 1
        self.select(kernels[index])
