"""The `r` screen: re-run a compiled function's last call with changed inputs.

One row per argument of the recorded call: tensors show name, sizes, dtype,
device and one `dyn` box per dim (`torch._dynamo.mark_dynamic`); int, float and
bool arguments are editable; others are shown. Size symbols the frame's compiles made are named
by their origins (a legend under the title, `d0=s77` after a tensor's dims), as `S` does. The form becomes a re-run spec
(`tcdebug.model.rerun_spec`), checked here as you type with the same messages the CLI
gives. F2 checks the guards of every cache entry in the target (the guard view
below shows each guard); F5 runs it. A recompile pauses like any compile: the
screen closes so the main screen shows the pause.
"""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Checkbox, Input, Label, Select, Static

from tcdebug.model import commands, rerun_spec
from tcdebug.model.payloads import ProvSymbol
from tcdebug.model.session import PAUSED, CallInfo, Rerun, Session
from tcdebug.screens.safe_rich import safe_label, safe_rich
from tcdebug.screens.widgets.guard_view import GuardView, verdict
from tcdebug.screens.widgets.key_footer import KeyFooter
from tcdebug.textsafe import safe_line
from tcdebug.torchtext import symbol_names

DTYPES = {
    "float": ["float32", "float16", "bfloat16", "float64"],
    "int": ["int64", "int32", "int16", "int8", "uint8"],
    "complex": ["complex64", "complex128"],
    "bool": ["bool"],
}
DYNAMIC_OPTIONS = [
    ("None (automatic dynamic)", "none"),
    ("True (dynamic)", "true"),
    ("False (static)", "false"),
]
_tokens = itertools.count(1)


def rerun_notice(rerun: Rerun) -> tuple[str, str] | None:
    """(text, severity) for an app notification about a finished re-run, else None."""
    if not rerun.done or rerun.status == "checked":
        return None
    text, _style = verdict(rerun)
    return f"re-run #{rerun.rerun_id}: {text}", "error" if rerun.status == "failed" else "information"


def read_only_text(session: Session, spec: str) -> str:
    """What the editor says where nothing can run (a dump, a log): how to run this spec live."""
    script = session.script or "SCRIPT"
    return safe_line(
        f"Read-only ({session.origin}): re-runs need a live session. Run tcdebug {script} and r "
        f"here, or tcdebug --dump OUT --rerun '{spec}' {script}."
    )


class RerunScreen(Screen[None]):
    CSS_PATH = "rerun_screen.tcss"
    WIDE, TALL = 120, 36  # the terminal size from which the form has room for full-height fields

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2,ctrl+g", "check", "Check guards", id="rerun_check"),
        Binding("f5,ctrl+r", "run", "Run", id="rerun_run"),
        Binding("ctrl+f", "failing_only", "Failing guards only", id="rerun_failing_only"),
        Binding("escape", "close", "Back", id="rerun_close"),
    ]

    class Requested(Message):
        """A check (`run=False`) or a run was sent to the target."""

        def __init__(self, token: str, spec: str, run: bool) -> None:
            super().__init__()
            self.token, self.spec, self.run = token, spec, run

    class Finished(Message):
        """The target answered a request for good (checked, ok or failed); posted to the app."""

        def __init__(self, rerun: Rerun) -> None:
            super().__init__()
            self.rerun = rerun

    def __init__(self, session: Session, controller: Any, compile_id: str, *, mode: str = "step") -> None:
        """`controller`: a TargetController, or None when browsing a dump (nothing can run)."""
        super().__init__()
        self.session = session
        self.controller = controller
        self.compile_id = compile_id
        self.mode = mode
        self.call: CallInfo | None = session.call_for(compile_id)
        self.token = ""
        self.pending_run = False
        self.spec = ""
        self.problems: list[str] = []
        self._seen: tuple[Any, ...] = ()
        self._has_symbols = False
        self._fitted = False  # the form's fields were sized to the terminal once

    # ----- layout ----------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="rerun-title")
        yield Static(self._symbols_legend(), id="rerun-symbols")
        with VerticalScroll(id="rerun-form"):
            for index, inp in enumerate(self.call.inputs if self.call else []):
                yield self._input_row(index, inp)
            if self.call is not None:
                with Horizontal(classes="rerun-row"):
                    yield Label("dynamic", classes="rerun-name")
                    yield Select(
                        DYNAMIC_OPTIONS,
                        value=rerun_spec.dynamic_text(self.call.dynamic),
                        allow_blank=False,
                        id="rerun-dynamic",
                    )
                    yield Label(
                        f"(the compile's own: {rerun_spec.dynamic_text(self.call.dynamic)})",
                        classes="rerun-note",
                    )
                yield from self._compile_option_rows()
        yield Static(id="rerun-spec")
        yield Static(id="rerun-status")
        yield GuardView(id="guard-view")
        yield KeyFooter(order=(), compact=True)

    def _compile_option_rows(self) -> ComposeResult:
        """backend, mode and fullgraph: left as the script compiled it unless changed (a fresh
        torch.compile of the same function then re-compiles it under them)."""
        with Horizontal(classes="rerun-row"):
            yield Label("backend", classes="rerun-name")
            yield Input(
                id="rerun-backend",
                classes="rerun-shape",
                placeholder="(as compiled)",
                restrict=r"[A-Za-z0-9_.]*",
            )
            yield Label("eager, aot_eager, inductor, or one the script registered", classes="rerun-note")
        with Horizontal(classes="rerun-row"):
            yield Label("mode", classes="rerun-name")
            yield Select(
                [("(as compiled)", "")] + [(m, m) for m in rerun_spec.MODES],
                value="",
                allow_blank=False,
                id="rerun-mode",
            )
            yield Label("fullgraph", classes="rerun-device")
            yield Select(
                [("(as compiled)", ""), ("true", "true"), ("false", "false")],
                value="",
                allow_blank=False,
                id="rerun-fullgraph",
            )

    def _compile_option_items(self) -> list[tuple[str, str]]:
        items = []
        backend = self.query_one("#rerun-backend", Input).value.strip()
        if backend:
            items.append(("@backend", backend))
        for key in ("mode", "fullgraph"):
            value = str(self.query_one(f"#rerun-{key}", Select).value or "")
            if value:
                items.append((f"@{key}", value))
        return items

    def _title(self) -> Text:
        return safe_rich(self._raw_title())

    def _raw_title(self) -> Text:
        call = self.call
        if call is None:
            return Text(f"compile {safe_line(self.compile_id)}: no recorded call to re-run", "bold red")
        title = Text.assemble(("Re-run ", "bold"), (safe_line(call.function), "bold cyan"))
        where = safe_line(f"{call.filename}:{call.firstlineno}") if call.filename else ""
        title.append(
            f"  {where}  last of {call.count} call(s), grad {'on' if call.grad_enabled else 'off'}", "dim"
        )
        title.append(f"\ncompiles of this frame: {', '.join(call.compile_ids) or '-'}", "dim")
        return title

    def _frame_symbols(self) -> list[tuple[str, dict[str, ProvSymbol]]]:
        """(compile id, its size symbols) for each compile of the re-run frame, oldest first."""
        ids = self.call.compile_ids if self.call is not None else []
        return [
            (cid, self.session.compiles[cid].provenance.symbols)
            for cid in ids or [self.compile_id]
            if cid in self.session.compiles
        ]

    def _symbols_legend(self) -> Text:
        """The size symbols the frame's compiles made (`s77 = L['x'].size()[0]`), as `S` shows them."""
        frame = self._frame_symbols()
        entries = symbol_names.named((cid, " ".join(symbols), symbols) for cid, symbols in frame)
        self._has_symbols = bool(entries)
        if not entries:
            return Text("")
        text = Text("symbols  ", "bold magenta")
        text.append(symbol_names.legend(entries, len(frame)))
        return safe_rich(text, one_line=True)

    def _dim_symbols(self, input_name: str, dims: int) -> str:
        """`d0=s77`: the symbol the newest compile of the frame gave each dim of this input."""
        parts = []
        for dim in range(dims):
            name = next(
                (
                    found
                    for _cid, symbols in reversed(self._frame_symbols())
                    if (found := symbol_names.symbol_for_dim(symbols, input_name, dim))
                ),
                "",
            )
            if name:
                parts.append(f"d{dim}={name}")
        return " ".join(parts)

    def _input_row(self, index: int, inp: dict[str, Any]) -> Horizontal:
        kind = inp.get("kind")
        widgets: list[Any] = [Label(safe_label(inp.get("name", "?")), classes="rerun-name")]
        if kind == "tensor":
            shape = ",".join(str(d) for d in inp["shape"])
            widgets.append(
                Input(shape, id=f"shape-{index}", classes="rerun-shape", placeholder="sizes, e.g. 16,64")
            )
            dtype = inp["dtype"]
            options = DTYPES.get(rerun_spec.dtype_kind(dtype), [dtype])
            options = options if dtype in options else [dtype, *options]
            widgets.append(
                Select(
                    [(safe_label(d), d) for d in options],
                    value=dtype,
                    allow_blank=False,
                    id=f"dtype-{index}",
                    classes="rerun-dtype",
                )
            )
            grad = " grad" if inp.get("requires_grad") else ""
            widgets.append(Label(safe_label(f"{inp.get('device', '?')}{grad}"), classes="rerun-device"))
            marked = set(inp.get("dynamic_dims", []))
            for dim in range(len(inp["shape"])):
                widgets.append(
                    Checkbox(
                        f"dyn d{dim}",
                        dim in marked,
                        id=f"dyn-{index}-{dim}",
                        classes="rerun-dyn",
                        compact=True,
                    )
                )
            names = self._dim_symbols(str(inp.get("name", "")), len(inp["shape"]))
            if names:
                widgets.append(Label(safe_label(names), id=f"symbols-{index}", classes="rerun-note"))
        elif kind in ("int", "float", "bool"):
            value = inp.get("value")
            text = ("true" if value else "false") if kind == "bool" else str(value)
            widgets.append(Input(text, id=f"value-{index}", classes="rerun-shape", placeholder=kind))
            widgets.append(Label(kind, classes="rerun-device"))
        else:
            widgets.append(
                Label(
                    safe_label(f"{inp.get('type', '?')} {inp.get('repr', '')} (kept as is)"),
                    classes="rerun-note",
                )
            )
        return Horizontal(*widgets, classes="rerun-row")

    def on_mount(self) -> None:
        self.query_one("#rerun-symbols").display = self._has_symbols
        form = self.query_one("#rerun-form")
        form.border_title = "inputs"
        form.border_subtitle = "tab: every field"
        self._fit_form()
        self.query_one(GuardView).border_title = "guard check"
        self.refresh_spec()
        last = self._last_recorded()
        self.query_one(GuardView).read_only = self.controller is None
        self.query_one(GuardView).show_rerun(last)
        if last is not None:
            self._show_status(last)
        first = self.query(Input)
        if first:
            first.first().focus()
        self.set_interval(0.2, self.poll)

    def on_resize(self) -> None:
        self._fit_form()

    def _fit_form(self) -> None:
        """Below `WIDE` columns or `TALL` rows the form's fields are one row high and narrower, so
        every field (the dims' `dyn` boxes, mode, fullgraph) is on screen at 80x24."""
        narrow = self.app.size.width < self.WIDE or self.app.size.height < self.TALL
        if narrow == self.has_class("-narrow") and self._fitted:
            return
        self._fitted = True
        self.set_class(narrow, "-narrow")
        for widget in self.query("#rerun-form Input, #rerun-form Select"):
            widget.compact = narrow  # type: ignore[attr-defined]

    def _last_recorded(self) -> Rerun | None:
        if self.call is None:
            return None
        return next((r for r in reversed(self.session.reruns) if r.key == self.call.key), None)

    # ----- the form -> a spec ----------------------------------------------------
    def build_spec(self) -> str:
        """The spec the form says (every tensor; scalars and dynamic only when changed)."""
        call = self.call
        if call is None:
            return ""
        items: list[tuple[str, str]] = []
        for index, inp in enumerate(call.inputs):
            kind = inp.get("kind")
            if kind == "tensor":
                raw = self.query_one(f"#shape-{index}", Input).value.strip()
                dtype = str(self.query_one(f"#dtype-{index}", Select).value)
                marks = [
                    d for d in range(len(inp["shape"])) if self.query_one(f"#dyn-{index}-{d}", Checkbox).value
                ]
                try:
                    shape, typed_marks, typed_dtype = rerun_spec.parse_shape(raw)
                except rerun_spec.SpecError:
                    items.append((inp["name"], raw))
                    continue
                changed_dtype = typed_dtype or (dtype if dtype != inp["dtype"] else "")
                all_marks = sorted(set(marks) | set(typed_marks))
                keep_default = all_marks == sorted(inp.get("dynamic_dims", []))
                value = rerun_spec.format_shape(shape, [] if keep_default else all_marks, changed_dtype)
                items.append((inp["name"], value))
            elif kind in ("int", "float", "bool"):
                raw = self.query_one(f"#value-{index}", Input).value.strip()
                original = (
                    ("true" if inp.get("value") else "false") if kind == "bool" else str(inp.get("value"))
                )
                if raw != original:
                    items.append((inp["name"], raw))
        dynamic_text = str(self.query_one("#rerun-dynamic", Select).value)
        dynamic = rerun_spec.DYNAMIC_CHOICES.get(dynamic_text)
        spec = rerun_spec.build(items, dynamic, dynamic_given=dynamic is not call.dynamic)
        options = ";".join(f"{k}={v}" for k, v in self._compile_option_items())
        return ";".join(p for p in (spec, options) if p)

    def validate(self, spec: str) -> list[str]:
        if self.call is None:
            return ["no recorded call for this compile"]
        try:
            rerun_spec.resolve(rerun_spec.parse(spec), self.call.inputs)
        except rerun_spec.SpecError as exc:
            return exc.messages
        return []

    def refresh_spec(self) -> None:
        if self.call is None:
            self.query_one("#rerun-status", Static).update(Text(self._no_call_text(), "yellow"))
            return
        self.spec = self.build_spec()
        self.problems = self.validate(self.spec)
        self.query_one("#rerun-spec", Static).update(
            safe_rich(Text.assemble(("spec: ", "dim"), (self.spec or "(empty)", "bold")), one_line=True)
        )
        status = self.query_one("#rerun-status", Static)
        if self.problems:
            status.update(safe_rich(Text("\n".join(self.problems), "bold red")))
            self.add_class("-invalid")
        elif self.controller is None:
            status.update(Text(read_only_text(self.session, self.spec), "yellow"))
            self.remove_class("-invalid")
        else:
            status.update(Text("F2 checks the guards · F5 runs it", "dim"))
            self.remove_class("-invalid")

    def _no_call_text(self) -> str:
        if self.controller is None and not self.session.calls:
            what = "A TORCH_TRACE log" if self.session.origin == "trace" else "This session"
            return (
                f"{what} records no calls, and re-runs need a live session: run the script under "
                "tcdebug (tcdebug SCRIPT), then r on a compile."
            )
        return (
            "Only functions returned by torch.compile and called by the script can be re-run "
            "(a graph-break resume function cannot: re-run the function it came from)."
        )

    @on(Input.Changed)
    @on(Checkbox.Changed)
    @on(Select.Changed)
    def _form_changed(self, event: Message) -> None:
        if self.is_mounted and self.call is not None:
            self.refresh_spec()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.action_check()

    # ----- requests --------------------------------------------------------------
    def _can_send(self) -> bool:
        if self.call is None:
            self.notify("nothing to re-run for this compile", severity="warning")
            return False
        if self.problems:
            self.notify(self.problems[0], severity="error")
            self.app.bell()
            return False
        controller = self.controller
        if controller is None or not getattr(controller, "alive", False):
            self.notify(
                "re-runs need the live target: this session is read-only or the target has exited",
                severity="warning",
            )
            return False
        return True

    def _send(self, run: bool) -> None:
        self.refresh_spec()
        if not self._can_send():
            return
        call = self.call
        assert call is not None  # _can_send checked it
        self.token = f"ui-{next(_tokens)}"
        self.pending_run = run
        if run:
            self.controller.rerun(
                commands.RunRerun(
                    compile_id=self.compile_id, key=call.key, spec=self.spec, token=self.token, mode=self.mode
                )
            )
        else:
            self.controller.check_rerun(
                commands.CheckRerun(compile_id=self.compile_id, key=call.key, spec=self.spec, token=self.token)
            )
        waiting = "running…" if run else "checking guards…"
        if self.session.state in ("running", "paused") and not self.session.rerun_prior_state:
            waiting += " (the target is still running the script: it answers once the script has finished)"
        self.query_one("#rerun-status", Static).update(Text(waiting, "yellow"))
        self.post_message(self.Requested(self.token, self.spec, run))

    def action_check(self) -> None:
        """Check the guards of every cache entry against the inputs (nothing runs)."""
        self._send(run=False)

    def action_run(self) -> None:
        """Call the compiled function with the new inputs."""
        self._send(run=True)

    def action_failing_only(self) -> None:
        only = self.query_one(GuardView).toggle_failing_only()
        self.notify("showing failing guards only" if only else "showing every guard", timeout=2)

    def action_close(self) -> None:
        self.dismiss()

    # ----- answers (polled from the session the app keeps up to date) --------------
    @property
    def current(self) -> Rerun | None:
        return self.session.rerun_by_token(self.token)

    def poll(self) -> None:
        rerun = self.current
        if rerun is None:
            return
        seen = (
            rerun.rerun_id,
            rerun.status,
            len(rerun.checks),
            tuple(rerun.produced),
            rerun.error,
            self.session.state,
        )
        if seen == self._seen:
            return
        self._seen = seen
        self.query_one(GuardView).show_rerun(rerun)
        self._show_status(rerun)
        if rerun.done:
            self.app.post_message(self.Finished(rerun))
            if rerun.status != "checked":
                notice = rerun_notice(rerun)
                if notice:
                    self.notify(notice[0], severity="error" if notice[1] == "error" else "information")
        elif rerun.status == "running" and self.session.state == PAUSED and self.app.screen is self:
            # The re-run recompiles and the target paused there: let the main screen show it.
            self.notify(
                f"re-run #{rerun.rerun_id} recompiles: paused at {self.session.status_line}", timeout=5
            )
            self.dismiss()

    def _show_status(self, rerun: Rerun) -> None:
        text, style = verdict(rerun)
        self.query_one("#rerun-status", Static).update(safe_rich(Text(text, style)))
