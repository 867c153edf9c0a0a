"""`@backend` / `@mode` / `@fullgraph` re-runs: a fresh torch.compile of the recorded function,
here with a backend the script registered (in-process: no Inductor, so no C++ compile)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from tcdebug.capture.calls import make_target  # noqa: E402
from tcdebug.debuggee.rerun_options import OptionsError, check_backend, recompiled  # noqa: E402


def double(x):
    return x * 2


def test_a_registered_backend_recompiles_the_same_function():
    seen = []

    @torch._dynamo.register_backend(name="tcdebug_test_backend")
    def backend(gm, example_inputs):
        seen.append(gm)
        return gm.forward

    check_backend(torch, "tcdebug_test_backend")
    original = torch.compile(double, backend="eager")
    target = make_target(torch, double, original, None)
    fn = recompiled(torch, target, {"backend": "tcdebug_test_backend", "fullgraph": True}, None)
    assert torch.equal(fn(torch.ones(3)), torch.full((3,), 2.0))
    assert len(seen) == 1 and "mul" in seen[0].code


def test_an_unknown_backend_is_one_line_listing_the_known_ones():
    with pytest.raises(OptionsError) as info:
        check_backend(torch, "no_such_backend")
    message = str(info.value)
    assert message.startswith("@backend=no_such_backend: not a backend this torch knows (")
    assert "aot_eager" in message and "\n" not in message
