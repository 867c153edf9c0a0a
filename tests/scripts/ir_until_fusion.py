"""What the IR-printing scripts share: an Inductor compile that stops once the IR after fusion is
logged (the C++ build that would follow prints no IR and takes most of the time), with the IR
artifact loggers on and their output dropped. Import it from a script in this folder."""

import logging

import torch
from torch._inductor import debug as inductor_debug


class IRLogged(Exception):
    pass


_log_post_fusion = inductor_debug.log_ir_post_fusion


def _stop_after_post_fusion(nodes):
    _log_post_fusion(nodes)
    raise IRLogged


def log_ir_quietly() -> None:
    """IR before and after fusion logged (so torch prints it), nowhere shown; caches off."""
    inductor_debug.log_ir_post_fusion = _stop_after_post_fusion
    torch.compiler.config.force_disable_caches = True
    torch._logging.set_logs(ir_pre_fusion=True, ir_post_fusion=True)
    for name in ("torch._inductor.debug.__ir_pre_fusion", "torch._inductor.debug.__ir_post_fusion"):
        log = logging.getLogger(name)
        log.handlers[:] = [logging.NullHandler()]
        log.propagate = False


def f(x, w):
    """Reductions, a cat, a pad and a masked `where`: loop bodies with subblocks."""
    y = torch.nn.functional.layer_norm(x @ w, (16,))
    y = torch.cat([y, torch.nn.functional.pad(y, (1, 0))[:, :16]], dim=0)
    return torch.softmax(y, dim=-1).amax(0) + torch.where(x[:1] > 0, x[:1], 0.5).sum()


def compile_until_post_fusion(dynamic=None) -> None:
    """Compile `f` with Inductor (`dynamic` as `torch.compile` takes it) up to its IR after fusion."""
    try:
        torch.compile(f, dynamic=dynamic)(torch.randn(8, 16), torch.randn(16, 16))
    except Exception as exc:  # Dynamo wraps it: BackendCompilerFailed
        assert "IRLogged" in repr(exc) or isinstance(exc.__cause__, IRLogged), exc
    torch._dynamo.reset()
