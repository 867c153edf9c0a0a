"""Triton autotuning, for `kernel_source` on CUDA: the configs each kernel was compiled for,
the time each took when Inductor benchmarked them, and the one it chose.

Inductor compiles every candidate config of a kernel while the graph compiles
(`CachingAutotuner.precompile`), but benchmarks them only at the kernel's first launch
(`autotune_to_one_config`), i.e. after the `kernel_source` stage was shown. The result is
then folded into that stage, which is sent again without a pause.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tcdebug.capture import patches
from tcdebug.capture.base import CaptureContext, cuda_built
from tcdebug.capture.kernel_source import KernelStages
from tcdebug.model.session import Kernel
from tcdebug.model.trace_format import format_compile_id

STAGES: tuple[str, ...] = ()  # feeds kernel_source, which is that unit's stage
_HEURISTICS = "torch._inductor.runtime.triton_heuristics"
_CONFIGS = "kernel_source (CUDA): Triton kernels' autotune configs and the chosen one"
PRECOMPILE = patches.declare(_HEURISTICS, "CachingAutotuner.precompile", unit="triton_info", breaks=_CONFIGS)
BENCHMARK_ALL = patches.declare(
    _HEURISTICS, "CachingAutotuner.benchmark_all_configs", unit="triton_info", breaks=_CONFIGS
)
AUTOTUNE_TO_ONE = patches.declare(
    _HEURISTICS, "CachingAutotuner.autotune_to_one_config", unit="triton_info", breaks=_CONFIGS
)


@dataclass
class TunedKernel:
    name: str
    compile_id: str | None
    is_backward: bool
    configs: list[dict[str, Any]] = field(default_factory=list)
    timings_ms: list[float | None] = field(default_factory=list)
    chosen: dict[str, Any] | None = None
    chosen_by: str = ""


def triton_config(cfg: Any) -> dict[str, Any]:
    """A `triton.Config` as a flat dict of its block sizes and launch options."""
    out: dict[str, Any] = dict(getattr(cfg, "kwargs", {}) or {})
    for key in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
        value = getattr(cfg, key, None)
        if value is not None and not (key in ("num_ctas",) and value == 1):
            out[key] = value
    return {k: v if isinstance(v, (int, float, str, bool)) or v is None else str(v) for k, v in out.items()}


def compile_id_str(compile_id: Any) -> str | None:
    """Dynamo's CompileId as tcdebug writes it: `0/1`, or `!2/0/1` under compiled autograd."""
    if compile_id is None:
        return None
    frame, frame_compile = (
        getattr(compile_id, "frame_id", None),
        getattr(compile_id, "frame_compile_id", None),
    )
    if frame is None or frame_compile is None:
        return str(compile_id)
    return format_compile_id(frame, frame_compile, getattr(compile_id, "compiled_autograd_id", None))


class TritonRegistry:
    """Kernels seen by the autotuner, folded into the `kernel_source` stage that lists them."""

    def __init__(self, stages: KernelStages, key: Callable[[str], str] = str) -> None:
        self.stages = stages
        self.key = key  # torch's compile id -> the session's key (`Recording.key`)
        self.pending: dict[str, TunedKernel] = {}  # seen before their stage was sent

    def precompiled(self, autotuner: Any) -> None:
        name = kernel_name(autotuner)
        if not name:
            return
        launchers = list(getattr(autotuner, "launchers", None) or [])
        configs = [triton_config(launcher.config) for launcher in launchers if hasattr(launcher, "config")]
        if not configs:
            configs = [triton_config(c) for c in getattr(autotuner, "configs", None) or []]
        torch_id = compile_id_str(getattr(autotuner, "compile_id", None))
        tuned = TunedKernel(
            name=name,
            compile_id=self.key(torch_id) if torch_id is not None else None,
            is_backward=bool(getattr(autotuner, "is_backward", False)),
            configs=configs,
            timings_ms=[None] * len(configs),
        )
        if len(configs) == 1:
            tuned.chosen, tuned.chosen_by = configs[0], "only config"
        patches.tag(autotuner, "_tcdebug_tuned", tuned)
        if not self.apply(tuned):
            self.pending[name] = tuned

    def claim(self, kernel: Kernel) -> None:
        """Called by `kernel_source` for each kernel of a stage it is about to send."""
        tuned = self.pending.pop(kernel.name, None)
        if tuned is not None:
            fold(kernel, tuned)

    def apply(self, tuned: TunedKernel) -> bool:
        with self.stages.lock:  # a stage may be sent from the refresh timer's thread meanwhile
            kernel = self.stages.find(tuned.name, tuned.compile_id, tuned.is_backward)
            if kernel is None and tuned.compile_id is not None:
                kernel = self.stages.find(tuned.name, tuned.compile_id)
            if kernel is None:
                return False
            fold(kernel, tuned)
            return True

    def benchmarked(self, autotuner: Any, timings: Any) -> None:
        tuned: TunedKernel | None = getattr(autotuner, "_tcdebug_tuned", None)
        if tuned is None or not isinstance(timings, dict):
            return
        for launcher, ms in timings.items():
            cfg = triton_config(getattr(launcher, "config", None))
            value = float(ms) if ms == ms and ms != float("inf") else None  # NaN / failed configs
            if cfg in tuned.configs:
                tuned.timings_ms[tuned.configs.index(cfg)] = value
            else:
                tuned.configs.append(cfg)
                tuned.timings_ms.append(value)

    def autotuned(self, autotuner: Any) -> None:
        tuned: TunedKernel | None = getattr(autotuner, "_tcdebug_tuned", None)
        launchers = list(getattr(autotuner, "launchers", None) or [])
        if tuned is None or len(launchers) != 1:
            return
        tuned.chosen = triton_config(launchers[0].config)
        tuned.chosen_by = "benchmarked at first launch"
        if self.apply(tuned):
            self.stages.refresh_soon()


def fold(kernel: Kernel, tuned: TunedKernel) -> None:
    """Put what the autotuner knows into the kernel: configs, chosen config, timings."""
    kernel.configs = [dict(c) for c in tuned.configs]
    if tuned.chosen is not None:
        kernel.chosen_config = dict(tuned.chosen)
    autotune = kernel.meta.setdefault("autotune", {})
    if any(t is not None for t in tuned.timings_ms):
        autotune["timings_ms"] = list(tuned.timings_ms)
    if tuned.chosen_by:
        autotune["chosen_by"] = tuned.chosen_by


def kernel_name(autotuner: Any) -> str:
    meta = getattr(autotuner, "inductor_meta", None) or {}
    name = meta.get("kernel_name") if isinstance(meta, dict) else None
    if not name:
        fn = getattr(autotuner, "fn", None)
        name = getattr(fn, "__name__", "") if fn is not None else ""
    return str(name or "")


def install_inductor(ctx: CaptureContext) -> None:
    torch = ctx.torch
    if not cuda_built(torch):
        return  # a CPU build of torch: kernels are C++, nothing to autotune
    # On a machine without a GPU these wrappers are never called.
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    stages = ctx.options.shared(KernelStages)
    if stages is None:
        raise RuntimeError("the kernel_source unit is not installed")
    registry = TritonRegistry(stages, ctx.recorder.key)
    stages.claim = registry.claim

    def after(private: patches.Private, hook: Any) -> None:
        def make(original: Any) -> Any:
            def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
                result = original(self, *args, **kwargs)
                try:
                    hook(self, result)
                except Exception:  # noqa: BLE001 - capture must never break a kernel launch
                    pass
                return result

            return wrapper

        patches.wrap(private, make, owner=CachingAutotuner)

    after(PRECOMPILE, lambda self, _: registry.precompiled(self))
    after(BENCHMARK_ALL, registry.benchmarked)
    after(AUTOTUNE_TO_ONE, lambda self, _: registry.autotuned(self))
