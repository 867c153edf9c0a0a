"""The app on recorded GPU dumps (Triton kernels, CUDA graphs) and on TORCH_TRACE logs, on the CPU."""

from __future__ import annotations

from conftest import DATA
from pilot import header_text, main_screen, shown_text

from tcdebug.dump.loader import load_dump
from tcdebug.screens.app import TcdebugApp
from tcdebug.screens.ranks_screen import RanksScreen
from tcdebug.screens.widgets.timeline import Ref
from tcdebug.trace import load_trace_session


async def test_triton_kernel_view_shows_autotuning_and_fused_nodes():
    app = TcdebugApp(load_dump(DATA / "gpu_cudagraphs"), read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        stage = app.session.compiles["0/0"].stages["kernel_source.inference"]
        kernel = stage.kernels[0]
        app.jump_to(Ref("0/0", stage.key, kernel.name))
        await pilot.pause()
        text = shown_text(app)
        assert text.startswith(f"# {kernel.name} · {kernel.kind}")
        assert "<- chosen" in text and " ms" in text  # configs tried, their timings, the winner
        assert "fused FX nodes:" in text
        assert "@triton.jit" in text
        assert kernel.name in header_text(app)


async def test_cudagraph_stage_lists_captured_kernels_and_the_skip():
    app = TcdebugApp(load_dump(DATA / "gpu_cudagraphs"), read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        app.jump_to(Ref("0/0", "cudagraph.inference"))
        await pilot.pause()
        text = shown_text(app)
        assert "graph nodes:" in text and "grid (" in text and "re-recorded because:" in text
        app.jump_to(Ref("1/0", "cudagraph.inference"))
        await pilot.pause()
        assert "skipping cudagraphs due to mutated inputs" in shown_text(app)
        await pilot.press("right_square_bracket")  # the kernels of a stage step with ]
        await pilot.pause()
        assert main_screen(app).selected.item == "" and main_screen(app).selected.key == "cudagraph.inference"


async def test_a_gpu_torch_trace_opens_with_triton_kernels():
    session = load_trace_session(DATA / "traces" / "gpu_mlp")
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        kernels = session.compiles["0/0"].stages["kernel_source.inference"].kernels
        assert kernels and all(k.name.startswith("triton_") for k in kernels)
        app.jump_to(Ref("0/0", "kernel_source.inference", kernels[0].name))
        await pilot.pause()
        assert "@triton.jit" in shown_text(app)
        app.jump_to(Ref("0/0", "bytecode_before"))
        await pilot.pause()
        assert "not in TORCH_TRACE logs" in header_text(app)


async def test_ranks_view_switches_the_shown_rank():
    session = load_trace_session(DATA / "traces" / "ranks")
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=(120, 36)) as pilot:
        assert session.rank == 0 and set(session.ranks) == {"0", "1"}
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, RanksScreen)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert app.session.rank == 1 and app.screen is main_screen(app)
        assert app.session.compiles["0/1"]  # only rank 1 recompiled step()


async def test_a_single_log_streams_into_the_app_while_it_is_shown():
    from pilot import wait_until

    from tcdebug.trace import find_trace_logs, new_trace_session

    [log] = find_trace_logs(DATA / "traces" / "mlp")
    whole = load_trace_session(log)
    app = TcdebugApp(new_trace_session(log), read_only=True, stream_trace=str(log))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(
            pilot, lambda: app.session.extra.get("recorded_state") == "", timeout=30, what="the log"
        )
        assert sorted(app.session.compiles) == sorted(whole.compiles)
        for cid, comp in whole.compiles.items():
            assert sorted(app.session.compiles[cid].stages) == sorted(comp.stages)
        # The first stage was selected as soon as it arrived.
        assert main_screen(app).selected is not None and main_screen(app).selected.compile_id == "0/0"
        assert "dynamo_graph" in [ref.key for ref in main_screen(app).timeline.refs()]


async def test_artifact_records_fold_into_one_row_per_compile():
    session = load_trace_session(DATA / "traces" / "mlp")
    app = TcdebugApp(session, read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        timeline = main_screen(app).timeline
        artifacts = [
            st.key for st in session.compiles["0/1"].ordered_stages() if st.key.startswith("artifact_")
        ]
        assert len(artifacts) > 3
        refs = timeline.refs()
        assert Ref("0/1", item="artifacts") in refs and not any(r.key in artifacts for r in refs)
        app.jump_to(Ref("0/1", item="artifacts"))
        await pilot.pause()
        assert f"{len(artifacts)} artifact records" in shown_text(app)
        timeline.focus()
        await pilot.press("right")
        assert all(Ref("0/1", key) in timeline.refs() for key in artifacts)
        await pilot.press("left")
        assert not any(r.key in artifacts for r in timeline.refs())
        # The palette (or any jump) to an artifact opens its group.
        app.jump_to(Ref("0/1", artifacts[0]))
        await pilot.pause()
        assert timeline.highlighted_ref == Ref("0/1", artifacts[0])
