"""Re-running compiled functions with changed inputs, after the script has ended.

The main thread serves `check_rerun` and `rerun` (see `tcdebug.model.protocol`) while the
command reader thread keeps answering step/continue/run: a re-run that recompiles
pauses like any compile of the script. Each request becomes a `Rerun` (the session
model), sent as `rerun` events as it progresses.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import re
from typing import Any

from tcdebug.capture.calls import CallLog, LastCall, TensorMeta, describe_value, global_state
from tcdebug.capture.guard_check import GuardCheckUnavailable, cache_entries, check_code, dynamic_setting
from tcdebug.debuggee.pauser import StopRequested
from tcdebug.debuggee.rerun_options import OptionsError, recompiled
from tcdebug.errors import headline
from tcdebug.model import commands, rerun_spec
from tcdebug.model.events import Calls, Note, RerunEvent
from tcdebug.model.payloads import CallInfo, EntryCheck, GuardResult, Rerun

MODES = ("step", "continue", "run")
_WRAPPED_RE = re.compile(r"got (\w+(?:Error|Exception))\('(.+?)'\)")


class RerunError(Exception):
    """A re-run cannot go ahead; the message is for the user."""


class RerunService:
    def __init__(self, torch: Any, recorder: Any, pauser: Any, ctx: Any) -> None:
        self.torch = torch
        self.recorder = recorder
        self.pauser = pauser
        self.ctx = ctx
        self.log: CallLog | None = ctx.options.shared(CallLog) if ctx is not None else None
        self._ids = itertools.count(1)
        if self.log is not None:
            for err in self.log.errors:
                self.recorder.emit(Note(text=f"call recording: {err}"))
        self.send_calls()

    # ----- the recorded calls --------------------------------------------------------
    def calls(self) -> list[LastCall]:
        return self.log.ordered() if self.log is not None else []

    def compile_ids(self, call: LastCall) -> list[str]:
        code = call.target.code
        if code is None:
            return []
        return [cid for cid, c in self.recorder.code_objects.items() if c is code]

    def inputs(self, call: LastCall) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        seen: dict[int, str] = {}
        for path, leaf, value, _kind in call.named_values():
            rows += describe_value(path, leaf, value, 0, seen)
        return rows

    def call_info(self, call: LastCall) -> CallInfo:
        why = ""
        if call.target.code is None:
            why = "the code object Dynamo compiles is not known for this callable"
        elif call.bind() is None:
            why = "the call does not bind to the function's signature"
        return CallInfo(
            key=str(call.target.key),
            function=call.target.function,
            filename=call.target.filename,
            firstlineno=call.target.firstlineno,
            compile_ids=self.compile_ids(call),
            inputs=self.inputs(call),
            dynamic=call.target.dynamic,
            grad_enabled=call.grad_enabled,
            state=dict(call.state),
            count=call.count,
            guard_check=why,
        )

    def send_calls(self) -> None:
        self.recorder.emit(Calls(calls=[self.call_info(c) for c in self.calls()]))

    def find(self, msg: commands.RerunRequest) -> LastCall | None:
        key, compile_id = msg.key, msg.compile_id
        for call in self.calls():
            if key and str(call.target.key) == key:
                return call
            if compile_id and compile_id in self.compile_ids(call):
                return call
        return None

    # ----- requests ------------------------------------------------------------------
    def handle(self, msg: commands.RerunRequest) -> None:
        run = isinstance(msg, commands.RunRerun)
        for text in msg.specs or [msg.spec]:
            self.one_spec(text, msg, run=run)

    def one_spec(self, text: str, msg: commands.RerunRequest, *, run: bool) -> None:
        rerun = Rerun(rerun_id=next(self._ids), compile_id=msg.compile_id, spec=text.strip(), token=msg.token)
        try:
            spec = rerun_spec.parse(text)
        except rerun_spec.SpecError as exc:
            self.fail(rerun, "; ".join(exc.messages))
            return
        if msg.all:
            targets = [c for c in self.calls() if self._takes_all(c, spec)]
            if not targets:
                self.fail(rerun, self._no_target_message(spec))
                return
        else:
            call = self.find(msg)
            if call is None:
                what = msg.compile_id or msg.key or "?"
                self.fail(
                    rerun,
                    f"no recorded call for compile {what}: only functions returned by torch.compile "
                    "and called by the script can be re-run (a graph-break resume function cannot)",
                )
                return
            targets = [call]
        for i, call in enumerate(targets):
            if i:
                rerun = Rerun(rerun_id=next(self._ids), spec=rerun.spec, token=rerun.token)
            self.run_one(call, spec, rerun, msg, run=run)

    def _takes_all(self, call: LastCall, spec: rerun_spec.Spec) -> bool:
        inputs = self.inputs(call)
        return all(rerun_spec.find_input(item.name, inputs) is not None for item in spec.items)

    def _no_target_message(self, spec: rerun_spec.Spec) -> str:
        calls = self.calls()
        if not calls:
            return "no compiled function was called by the script: nothing to re-run"
        names = ", ".join(item.name for item in spec.items)
        known = "; ".join(f"{c.target.function}({rerun_spec.argument_list(self.inputs(c))})" for c in calls)
        return f"no compiled function takes {names} (compiled functions: {known})"

    def run_one(
        self, call: LastCall, spec: rerun_spec.Spec, rerun: Rerun, msg: commands.RerunRequest, *, run: bool
    ) -> None:
        rerun.function = call.target.function
        rerun.key = str(call.target.key)
        ids = self.compile_ids(call)
        if not rerun.compile_id or rerun.compile_id not in ids:
            rerun.compile_id = ids[-1] if ids else rerun.compile_id
        inputs = self.inputs(call)
        try:
            plan = rerun_spec.resolve(spec, inputs)
        except rerun_spec.SpecError as exc:
            rerun.inputs = inputs
            self.fail(rerun, "; ".join(exc.messages))
            return
        dynamic = plan.dynamic if plan.dynamic_given else call.target.dynamic
        rerun.dynamic = rerun_spec.dynamic_text(dynamic)
        rerun.inputs = proposed_inputs(inputs, plan)
        try:
            self.check_memory(call, plan)
            args, kwargs, f_locals = self.build(call, plan)
        except RerunError as exc:
            self.fail(rerun, str(exc))
            return
        self.check_guards(call, f_locals, rerun)
        if not run:
            rerun.status = "checked"  # a check's end; a run goes on to `running` with the checks
            self.send(rerun)
            return
        predicted = rerun.reused
        rerun.reused = ""
        rerun.status = "running"
        if isinstance(msg, commands.RunRerun) and msg.mode is not None and msg.mode in MODES:
            self.pauser.resume(msg.mode, msg.breakpoints)
        self.send(rerun)
        before = set(self.recorder.compiles)
        invoke = call.target.invoke
        setting: contextlib.AbstractContextManager[None] = dynamic_setting(self.torch, call.target.ctx, dynamic)
        try:
            if plan.compile_options:  # @backend / @mode / @fullgraph: a fresh torch.compile
                invoke, setting = recompiled(self.torch, call.target, plan.compile_options, dynamic), _nothing()
            with (
                self.log.suspend() if self.log is not None else _nothing(),
                global_state(self.torch, call.state or {"grad_enabled": call.grad_enabled}),
                setting,
            ):
                invoke(*args, **kwargs)
            rerun.status = "ok"
        except StopRequested:
            raise
        except (GuardCheckUnavailable, OptionsError) as exc:
            rerun.status, rerun.error = "failed", str(exc)
        except Exception as exc:  # noqa: BLE001 - the model's own error is the answer
            rerun.status, rerun.error = "failed", self.explain(call, exc, args, kwargs)
        rerun.produced = [cid for cid in self.recorder.compiles if cid not in before]
        try:
            self.recorder.finalize_all()
        except StopRequested:
            raise
        if rerun.status == "ok" and not rerun.produced:
            rerun.reused = self.entry_now(call) or predicted or "(an entry whose guards passed)"
        if rerun.produced:  # the calls' compiles with the new ones, before the UI hears the re-run ended
            self.send_calls()
        self.send(rerun)

    def explain(self, call: LastCall, exc: Exception, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
        """The model's own error: when Dynamo failed, run the function eagerly to get it."""
        if not type(exc).__module__.startswith("torch._dynamo"):
            return model_error(exc)
        target = call.target
        lead = (target.owner,) if target.owner is not None else ()
        eager = target.owner if target.func is getattr(type(target.owner), "forward", None) else None
        try:
            with (
                self.log.suspend() if self.log is not None else _nothing(),
                global_state(self.torch, call.state or {"grad_enabled": call.grad_enabled}),
            ):
                if eager is not None:
                    eager(*args, **kwargs)  # the module itself: its hooks run as in the script
                else:
                    target.func(*lead, *args, **kwargs)
        except Exception as eager_exc:  # noqa: BLE001 - this is the answer
            return f"the model rejects these inputs: {model_error(eager_exc)}"
        return f"the compile failed (the function runs eagerly): {model_error(exc)}"

    def fail(self, rerun: Rerun, error: str) -> None:
        rerun.status, rerun.error = "failed", error
        self.send(rerun)

    def send(self, rerun: Rerun) -> None:
        self.recorder.emit(RerunEvent(rerun=copy.deepcopy(rerun)))

    # ----- inputs --------------------------------------------------------------------
    def check_memory(self, call: LastCall, plan: rerun_spec.Plan) -> None:
        """The spec checked the total against the limit; on a GPU also ask how much is free."""
        torch = self.torch
        per_device: dict[str, int] = {}
        for row in self.inputs(call):
            change = plan.tensors.get(row["name"])
            if change is not None and not row.get("alias_of"):  # a tensor passed twice is one tensor
                per_device[row["device"]] = per_device.get(row["device"], 0) + change.nbytes
        for device, nbytes in per_device.items():
            if not device.startswith("cuda"):
                continue
            try:
                free, _total = torch.cuda.mem_get_info(torch.device(device))
            except Exception:  # noqa: BLE001 - no answer: rely on the limit
                continue
            if nbytes > free:
                raise RerunError(
                    f"the new tensors need {rerun_spec.human_bytes(nbytes)} on {device}, "
                    f"only {rerun_spec.human_bytes(free)} is free"
                )

    def build(
        self, call: LastCall, plan: rerun_spec.Plan
    ) -> tuple[tuple[Any, ...], dict[str, Any], dict[str, Any] | None]:
        """Fresh arguments in the call's own form, and the compiled frame's f_locals.

        What was passed positionally stays positional and keywords stay keywords (a
        `*args, **kwargs` wrapper guards on exactly that); a tensor passed twice is one new tensor
        passed twice (the spec changes both names, see `rerun_spec.resolve`); tensors that were
        views of one storage and the spec leaves as they were are views of one new storage."""
        origins = call.origins()
        memo: dict[Any, Any] = {"shared": call.shared_storages()}
        try:
            args = tuple(
                self.rebuild(v, origins.get(("a", i), f"args[{i}]"), plan, memo=memo)
                for i, v in enumerate(call.args)
            )
            kwargs = {
                k: self.rebuild(v, origins.get(("k", k), f"kwargs[{k!r}]"), plan, memo=memo)
                for k, v in call.kwargs.items()
            }
        except RuntimeError as exc:
            raise RerunError(f"cannot make the new inputs: {headline(str(exc))}") from exc
        return args, kwargs, call.frame_locals(args, kwargs)

    def rebuild(
        self, value: Any, path: str, plan: rerun_spec.Plan, depth: int = 0, memo: dict[Any, Any] | None = None
    ) -> Any:
        memo = {} if memo is None else memo
        if isinstance(value, TensorMeta):
            change = plan.tensors.get(path)
            made = (tuple(change.shape), change.dtype, tuple(change.dynamic_dims)) if change else None
            if made == (value.shape, value.dtype_name, value.dynamic_dims):
                made = None  # the spec repeats what was recorded: still the same tensor
            key = (id(value), made)
            if key not in memo:
                storage = self._shared_storage(value, memo) if made is None else None
                memo[key] = self.fresh(value, change, storage)
            return memo[key]
        if path in plan.values:
            return plan.values[path]
        if type(value) in (list, tuple):
            return type(value)(
                self.rebuild(v, f"{path}[{i}]", plan, depth + 1, memo) for i, v in enumerate(value)
            )
        if type(value) is dict:
            return {k: self.rebuild(v, f"{path}[{k!r}]", plan, depth + 1, memo) for k, v in value.items()}
        return value

    def _shared_storage(self, meta: TensorMeta, memo: dict[Any, Any]) -> Any:
        """One new storage per storage the call's tensors shared: unchanged views of one
        storage are views of one again (None: `meta` had memory of its own)."""
        if meta.storage is None or meta.storage[0] not in memo.get("shared", ()):
            return None
        skey, _offset, _stride, nbytes = meta.storage
        found = memo.get(("storage", skey))
        if found is None:
            found = memo[("storage", skey)] = self.torch.empty(
                nbytes, dtype=self.torch.uint8, device=meta.device
            ).untyped_storage()
        return found

    def fresh(self, meta: TensorMeta, change: rerun_spec.TensorChange | None, storage: Any = None) -> Any:
        """A new tensor like `meta`, reshaped as `change` says; integers keep their value range.
        With `storage` (unchanged only): laid out in it where the recorded one lay in its own."""
        torch = self.torch
        shape = tuple(change.shape) if change else meta.shape
        dtype = getattr(torch, change.dtype) if change and change.dtype else meta.dtype
        device = meta.device
        with torch.no_grad():
            if dtype.is_floating_point or dtype.is_complex:
                base = torch.float32 if not dtype.is_complex else torch.complex64
                t = torch.randn(shape, dtype=base, device=device).to(dtype)
            elif dtype == torch.bool:
                t = torch.randint(0, 2, shape, device=device).to(torch.bool)
            else:
                low, high = 0, 2
                keep = meta.keep
                if keep is not None and keep.numel() and not keep.dtype == torch.bool:
                    low, high = int(keep.min().item()), int(keep.max().item()) + 1
                t = torch.randint(low, max(high, low + 1), shape, dtype=dtype, device=device)
            if storage is not None and meta.storage is not None:
                _key, offset, stride, _nbytes = meta.storage
                placed = torch.empty(0, dtype=dtype, device=device).set_(storage, offset, shape, stride)
                placed.copy_(t)
                t = placed
            elif meta.stride is not None and shape == meta.shape:
                strided = torch.empty_strided(shape, meta.stride, dtype=dtype, device=device)
                strided.copy_(t)
                t = strided
        if meta.requires_grad and (dtype.is_floating_point or dtype.is_complex):
            t.requires_grad_(True)
        dims = list(change.dynamic_dims) if change else list(meta.dynamic_dims)
        if dims:
            torch._dynamo.mark_dynamic(t, dims)
        return t

    # ----- guards --------------------------------------------------------------------
    def check_guards(self, call: LastCall, f_locals: dict[str, Any] | None, rerun: Rerun) -> None:
        if call.target.code is None or f_locals is None:
            return
        try:
            with global_state(self.torch, call.state or {"grad_enabled": call.grad_enabled}):
                checks = check_code(self.torch, call.target.code, f_locals)
        except GuardCheckUnavailable as exc:
            self.recorder.emit(Note(text=f"guard check: {exc}"))
            return
        rerun.checks = [
            EntryCheck(
                compile_id=self.recorder.key(c["compile_id"]) if c["compile_id"] else "",
                passed=c["passed"],
                reason=c["reason"],
                guards=[GuardResult(**g) for g in c["guards"]],
            )
            for c in checks
        ]
        rerun.reused = next((c.compile_id for c in rerun.checks if c.passed), "")

    def entry_now(self, call: LastCall) -> str:
        """The compile id of the first cache entry of the frame, for a verdict the check could not give."""
        if call.target.code is None:
            return ""
        try:
            entries = cache_entries(self.torch, call.target.code)
        except GuardCheckUnavailable:
            return ""
        torch_id = str(getattr(entries[0], "compile_id", "") or "") if entries else ""
        return self.recorder.key(torch_id) if torch_id else ""


def proposed_inputs(inputs: list[dict[str, Any]], plan: rerun_spec.Plan) -> list[dict[str, Any]]:
    """The call's input rows with the plan applied (`changed` marks what differs)."""
    rows = []
    for row in inputs:
        row = dict(row)
        change = plan.tensors.get(row["name"])
        if change is not None:
            changed = (
                change.shape != row["shape"]
                or change.dtype != row["dtype"]
                or change.dynamic_dims != row.get("dynamic_dims", [])
            )
            row.update(
                shape=change.shape, dtype=change.dtype, dynamic_dims=change.dynamic_dims, changed=changed
            )
        elif row["name"] in plan.values:
            row.update(value=plan.values[row["name"]], changed=plan.values[row["name"]] != row.get("value"))
        rows.append(row)
    return rows


def model_error(exc: BaseException) -> str:
    """The error of the user's code, not Dynamo's wrapping of it."""
    found = _WRAPPED_RE.search(str(exc))
    if found:
        return f"{found.group(1)}: {found.group(2)}"
    seen: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and cur not in seen:
        seen.append(cur)
        cur = cur.__cause__  # not __context__: an error raised while handling another is its own
    inner = seen[-1]
    text = headline(str(inner)) or type(inner).__name__
    outer = f"{type(exc).__name__}: " if inner is not exc else ""
    return f"{outer}{type(inner).__name__}: {text}"


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
