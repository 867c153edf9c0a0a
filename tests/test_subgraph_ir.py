"""An Inductor compile with subgraphs (torch.cond's branches): Inductor runs a scheduler for the
compiled graph and one for each branch, and logs each one's IR. Every one of them is in the IR
stages, the why layer reads them all, and an op of a branch can be followed from its source line
through every graph's subgraph to its lines in the branch's kernel."""

from __future__ import annotations

import json
import re

import pytest
from conftest import DATA, SCRIPTS, TORCH, DumpRun, SharedDumps, run_tcdebug, share_dump
from pilot import header_text, main_screen, shown_text, wait_until

from tcdebug.analysis.provenance_from_log import ensure_trace_provenance
from tcdebug.analysis.why import explain, why_markdown
from tcdebug.dump.loader import load_dump
from tcdebug.model import session as model
from tcdebug.screens.app import TcdebugApp, build_live_app
from tcdebug.screens.trail_screen import TrailScreen
from tcdebug.screens.widgets.timeline import Ref
from tcdebug.trace import load_trace_session

COND = str(SCRIPTS / "cond_subgraphs.py")
PRE, POST = "inductor_ir_pre_fusion.inference", "inductor_ir_post_fusion.inference"
POST_GRAD, KERNELS = "inductor_post_grad_graph.inference", "kernel_source.inference"
TRACES = DATA / "traces"
HEADER = re.compile(r"^(\w+): (?:Fused)?SchedulerNode", re.M)
# The branch Inductor lowers first, so whose scheduler logs its IR first: torch 2.14 lowers
# torch.cond as a Switch over [false_fn, true_fn] (the predicate as an index, False -> 0), so
# the false branch comes first; torch 2.13's Conditional lowered true_fn, then false_fn.
BRANCHES = ("false_graph_0", "true_graph_0") if TORCH >= (2, 14) else ("true_graph_0", "false_graph_0")


@pytest.fixture(scope="module")
def cond_session(cond_dump):  # noqa: ANN001, ANN201 - a DumpRun fixture
    assert cond_dump.returncode == 0, cond_dump.stderr
    return load_dump(cond_dump.out)


def test_each_ir_stage_holds_the_graphs_and_both_branches_ir(cond_session) -> None:  # noqa: ANN001
    comp = cond_session.compiles["0/0"]
    for key, first_line in ((PRE, "BEFORE FUSION"), (POST, "AFTER FUSION")):
        stage = comp.stages[key]
        text = stage.get_text()
        blocks = [b for b in text.split("\n\n" + first_line) if b.strip()]
        assert text.startswith(first_line) and len(blocks) == 3, key
        assert stage.meta["ir_blocks"] == 3
        names = HEADER.findall(text)
        # the compiled graph's nodes first, then each branch's (named after its subgraph)
        assert names[0].startswith("op"), names
        assert any(n.startswith("true_graph_0_op") for n in names)
        assert any(n.startswith("false_graph_0_op") for n in names)
        first_branch = names.index(next(n for n in names if n.startswith(BRANCHES[0])))
        assert names.index(next(n for n in names if n.startswith(BRANCHES[1]))) > first_branch > 0


def test_the_fusion_why_counts_every_scheduler_and_places_the_branch_kernels(cond_session) -> None:  # noqa: ANN001
    parts = explain(cond_session, "0/0")
    (fusion,) = [p for p in parts if p.title.startswith("Fusion")]
    text = "\n".join(fusion.lines)
    assert re.search(
        r"Schedulers, one per graph Inductor lowered \(it fuses within a graph only\): "
        rf"the graph \d+ → \d+, {BRANCHES[0]} 1 → 1, {BRANCHES[1]} 1 → 1 nodes",
        text,
    )
    kernels = fusion.data["kernels"]
    assert len(kernels) >= 3 and all(kernels.values()), kernels  # no kernel left without its IR nodes
    assert any(nodes == ["true_graph_0_op0"] for nodes in kernels.values())
    assert any(nodes == ["false_graph_0_op0"] for nodes in kernels.values())
    assert "?" not in why_markdown(cond_session, "0/0", parts).split("IR nodes in each kernel")[1]


def test_a_branch_ir_node_is_found_in_its_block_and_linked_to_its_own_graphs_nodes(cond_dump) -> None:  # noqa: ANN001
    prov = json.loads((cond_dump.out / "compiles" / "0-0" / "provenance.json").read_text())
    session = load_dump(cond_dump.out)
    text = session.compiles["0/0"].stages[PRE].get_text().splitlines()
    items = {i["item_id"]: i for i in prov["items"]}
    branch = items[f"{PRE}|true_graph_0_op0"]
    assert text[branch["lines"][0] - 1].startswith("true_graph_0_op0: SchedulerNode")
    outer = items[f"{PRE}|op0"]
    assert text[outer["lines"][0] - 1].startswith("op0: ")
    into_branch = {link[0] for link in prov["links"] if link[1] == f"{PRE}|true_graph_0_op0"}
    # the branch's node computes the branch graph's sin and mul; torch's origins for it also name
    # the cond and its input's producers (add, relu, gt), which are not linked to it
    assert into_branch == {f"{POST_GRAD}|true_graph_0.sin", f"{POST_GRAD}|true_graph_0.mul"}, into_branch
    # every IR node linked (the one note allowed: extern kernel calls, without torch's kernel table)
    assert not any("not linked" in note and "provenance tracking is off" not in note for note in prov["notes"]), prov["notes"]
    kernel_lines = [
        i for i in prov["items"] if i["kind"] == "kernel_lines" and i["name"].endswith("/true_graph_0_op0")
    ]
    assert kernel_lines and kernel_lines[0]["meta"]["subgraph"] == "true_graph_0"
    assert [f"{POST}|true_graph_0_op0", kernel_lines[0]["item_id"], "codegen (scheduler node)"] in [
        link[:3] for link in prov["links"]
    ]


def _kernel_of(session: model.Session, call: str, compile_id: str = "0/0") -> str:
    """The kernel the subgraph function `call` (`def true_graph_0(args):`) calls."""
    code = session.compiles[compile_id].stages[KERNELS].get_text()
    body = code.split(f"def {call}(args):", 1)[1].split("\n\n", 1)[0]
    (name,) = re.findall(r"^\s+(cpp_fused_\w+)\(", body, re.M)
    return name


def test_follow_an_op_of_a_branch_from_its_source_line_to_its_kernel_lines(cond_session) -> None:  # noqa: ANN001
    index = cond_session.compiles["0/0"].provenance
    true_kernel, false_kernel = (
        _kernel_of(cond_session, "true_graph_0"),
        _kernel_of(cond_session, "false_graph_0"),
    )
    trail = index.trail(["dynamo_graph|cond_true_0.sin"])
    assert trail.names("source") == ["cond_subgraphs.py:9"]
    assert trail.names("aot_inference") == ["true_graph_0.sin"]  # AOT renames the branch (from_node)
    assert trail.names(POST_GRAD) == ["true_graph_0.sin"]
    assert trail.names(PRE) == ["true_graph_0_op0"] and trail.names(POST) == ["true_graph_0_op0"]
    assert trail.names(KERNELS) == [true_kernel, f"{true_kernel}/true_graph_0_op0"]
    code = cond_session.compiles["0/0"].stages[KERNELS].get_text().splitlines()
    inside = trail.stage(KERNELS).items[1].lines
    assert any(".sin()" in code[n - 1] for n in inside), [code[n - 1] for n in inside]
    # the other branch's op leads to the other branch's kernel only
    other = index.trail(["dynamo_graph|cond_false_0.cos"])
    assert other.names(POST_GRAD) == ["false_graph_0.cos"]
    assert [n for n in other.names(KERNELS) if "/" not in n] == [false_kernel]
    # an op of the compiled graph whose names the branches' kernel mapping also carries (the cond's
    # input is relu's) does not lead into the branches' kernels
    relu = index.trail(["dynamo_graph|relu"])
    assert not {true_kernel, false_kernel} & {n.split("/")[0] for n in relu.names(KERNELS)}, relu.names(
        KERNELS
    )
    assert not any(n.startswith(("true_graph_0", "false_graph_0")) for n in relu.names(POST))


def test_following_the_cond_itself_leads_into_both_branches_and_their_kernels(cond_session) -> None:  # noqa: ANN001
    """The cond node runs its branches' nodes: its trail holds them and what they became."""
    index = cond_session.compiles["0/0"].provenance
    true_kernel, false_kernel = _kernel_of(cond_session, "true_graph_0"), _kernel_of(cond_session, "false_graph_0")
    trail = index.trail(["dynamo_graph|cond"])
    assert {"cond_true_0.sin", "cond_true_0.mul", "cond_false_0.cos", "cond_false_0.sub"} <= set(
        trail.names("dynamo_graph")
    )
    assert {"true_graph_0.sin", "false_graph_0.cos"} <= set(trail.names("aot_inference"))
    assert {true_kernel, false_kernel} <= set(trail.names(KERNELS))
    assert trail.names("source") == ["cond_subgraphs.py:9"]
    # a branch's op leads up to the cond that runs it, not across into the other branch
    sin = index.trail(["dynamo_graph|cond_true_0.sin"])
    assert "cond" in sin.names("dynamo_graph") and not any("false" in n for n in sin.names("dynamo_graph"))


def test_a_trace_log_links_each_branch_kernel_to_its_branchs_nodes() -> None:
    session = load_trace_session(TRACES / "cond")
    ensure_trace_provenance(session)
    index = session.compiles["0/0"].provenance
    true_kernel = _kernel_of(session, "true_graph_0")
    sin = index.trail([f"{POST_GRAD}|true_graph_0.sin"])
    assert sin.names(KERNELS) == [true_kernel]
    assert sin.names("aot_inference") == ["cond", "true_graph_0.sin"]  # the node, and the cond that runs it
    # no from_node in a log: the cond's subgraph arguments pair Dynamo's cond_true_0 with
    # AOTAutograd's true_graph_0 (inferred); operator nodes (`sub = cos - 1`) are items too
    sub = index.trail(["dynamo_graph|cond_false_0.sub"])
    assert sub.names("aot_inference") == ["false_graph_0.sub"] and sub.stage("aot_inference").inferred
    assert sub.names(KERNELS) == [_kernel_of(session, "false_graph_0")]
    relu = index.trail([f"{POST_GRAD}|relu"])
    assert true_kernel not in relu.names(KERNELS) and len(relu.names(KERNELS)) == 1
    # the cond leads into both branches here too
    cond = index.trail(["dynamo_graph|cond"])
    assert {true_kernel, _kernel_of(session, "false_graph_0")} <= set(cond.names(KERNELS))


async def _follow(app: TcdebugApp, pilot, text: str):  # noqa: ANN001, ANN202 - a Pilot; a Trail
    """Search the stage for `text`, press f, and return the trail screen's trail once shown."""
    await wait_until(pilot, lambda: not isinstance(app.screen, TrailScreen), what="the graph")
    await pilot.press("slash", *text, "enter", "escape")
    await pilot.press("f")
    await wait_until(pilot, lambda: isinstance(app.screen, TrailScreen), what=f"the trail of {text}")
    screen = app.screen
    assert isinstance(screen, TrailScreen)
    await wait_until(pilot, lambda: screen.trail is not None, what="the trail's stages")
    assert screen.trail is not None
    return screen.trail


async def test_f_on_a_branch_node_or_its_cond_in_the_dynamo_graph_follows_it_into_its_kernel(cond_session) -> None:  # noqa: ANN001
    app = TcdebugApp(cond_session, read_only=True)
    true_kernel = _kernel_of(cond_session, "true_graph_0")
    async with app.run_test(size=(80, 24)) as pilot:
        app.jump_to(Ref("0/0", "dynamo_graph"))
        await wait_until(pilot, lambda: "cond_true_0" in shown_text(app), what="the Dynamo graph")
        trail = await _follow(app, pilot, "y_1.sin()")
        assert [i.name for i in trail.start] == ["cond_true_0.sin"]
        assert trail.names("source") == ["cond_subgraphs.py:9"]
        assert trail.names(POST_GRAD) == ["true_graph_0.sin"] and trail.names(POST) == ["true_graph_0_op0"]
        # the true branch's kernel and the lines of it that compute sin; no kernel of the other branch
        assert trail.names(KERNELS) == [true_kernel, f"{true_kernel}/true_graph_0_op0"]
        await pilot.press("escape")
        # the cond node itself leads into both branches' kernels
        trail = await _follow(app, pilot, "torch.ops.higher_order.cond")
        assert [i.name for i in trail.start] == ["cond"]
        assert {true_kernel, _kernel_of(cond_session, "false_graph_0")} <= set(trail.names(KERNELS))


async def test_the_stage_header_counts_the_schedulers_and_says_where_the_subgraphs_start(
    cond_session,  # noqa: ANN001
) -> None:
    app = TcdebugApp(cond_session, read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        app.jump_to(Ref("0/0", PRE))
        await wait_until(pilot, lambda: "BEFORE FUSION" in shown_text(app), what="the IR stage")
        header = header_text(app)
        text = cond_session.compiles["0/0"].stages[PRE].get_text().splitlines()
        line = int(re.search(r"subgraphs' IR from line (\d+)", header).group(1))
        assert "3 schedulers" in header and text[line - 1] == "BEFORE FUSION" and line > 2
        assert text[line].startswith(f"{BRANCHES[0]}_op")  # the branch torch lowers first
        app.jump_to(Ref("0/0", "dynamo_graph"))
        await wait_until(pilot, lambda: "Dynamo" in header_text(app), what="another stage")
        assert "schedulers" not in header_text(app)


async def test_stepping_pauses_at_each_schedulers_ir_and_the_stage_shows_them_all() -> None:
    app = build_live_app([COND])

    def blocks() -> int:
        comp = app.session.compiles.get("0/0")
        stage = comp.stages.get(PRE) if comp is not None else None
        return stage.get_text().count("BEFORE FUSION") if stage is not None else 0

    def paused_at() -> tuple[str, str] | None:
        return app.session.paused_at if app.session.state == model.PAUSED else None

    seen: list[int] = []  # the IR blocks the pre-fusion stage held at each pause there
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: paused_at() is not None, what="the first pause")
        while app.session.state == model.PAUSED:
            where, held = paused_at(), blocks()
            if where == ("0/0", PRE):
                seen.append(held)
                await wait_until(
                    pilot,
                    lambda held=held: shown_text(app).count("BEFORE FUSION") == held,
                    what="the stage's texts",
                )
                assert main_screen(app).selected is not None and main_screen(app).selected.key == PRE
            await pilot.press("n")
            await wait_until(
                pilot,
                lambda where=where, held=held: (
                    app.session.state != model.PAUSED
                    and app.session.state != model.RUNNING
                    or (paused_at() is not None and (paused_at() != where or blocks() != held))
                ),
                what="the next pause",
            )
        assert app.session.state == model.FINISHED, app.session.status_line
        await pilot.press("q")
    assert seen == [1, 2, 3]  # a pause at each scheduler's IR, each showing the texts so far


def test_follow_ops_into_a_nested_compile_region_and_a_while_loop(hop_dump) -> None:  # noqa: ANN001
    assert hop_dump.returncode == 0, hop_dump.stderr
    session = load_dump(hop_dump.out)
    region = session.compiles["0/0"].provenance  # block(block(x)): one body, called twice
    kernel = _kernel_of(session, "repeated_subgraph0")
    relu = region.trail(["dynamo_graph|subgraph_0.relu"])
    # the call's line in the compiled function, and the body's line outside it
    assert relu.names("source") == ["hop_subgraphs.py:14", "hop_subgraphs.py:10"]
    assert relu.names("aot_inference") == ["repeated_subgraph0.relu"]
    assert relu.names(POST_GRAD) == ["repeated_subgraph0.relu"]
    assert relu.names(POST) == ["repeated_subgraph0_op0"]
    assert relu.names(KERNELS) == [kernel, f"{kernel}/repeated_subgraph0_op0"]
    assert kernel not in region.trail(["dynamo_graph|sum_1"]).names(KERNELS)

    loop = session.compiles["1/0"].provenance  # a condition graph and a body graph
    dynamo = loop.in_stage("dynamo_graph")
    (body,) = [i for i in dynamo if i.name.startswith("body_fn_0.") and "sin" in i.detail]
    sin = loop.trail([body.item_id])
    # AOTAutograd renamed the body (body_fn_0 -> while_loop_body_graph_0) and its node (child_4 -> sin)
    assert sin.names(POST_GRAD) == ["while_loop_body_graph_0.sin"]
    assert [n for n in sin.names(KERNELS) if "/" in n] == [
        f"{_kernel_of(session, 'while_loop_body_graph_0', '1/0')}/while_loop_body_graph_0_op0"
    ]
    cond = loop.trail(["dynamo_graph|cond_fn_0.lt"])
    assert cond.names(POST) == ["while_loop_cond_graph_0_op0"]
    assert not set(cond.names(KERNELS)) & set(sin.names(KERNELS))


# tests/scripts/checkpointed.py: activation checkpointing, its ops recomputed in the backward
share_dump("checkpoint_dump", "checkpoint", str(SCRIPTS / "checkpointed.py"))


@pytest.fixture(scope="module")
def checkpoint_dump(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("checkpoint_dump")


def test_a_checkpointed_op_leads_to_its_forward_kernel_and_its_recompute_in_the_backward(
    checkpoint_dump: DumpRun,
) -> None:
    assert checkpoint_dump.returncode == 0, checkpoint_dump.stderr
    comp = load_dump(checkpoint_dump.out).compiles["0/0"]
    index = comp.provenance
    gelu = index.trail(["dynamo_graph|wrap_body_0.gelu"])
    # the checkpoint call in the compiled function, and the line in the function it checkpoints
    assert gelu.names("source") == ["checkpointed.py:18", "checkpointed.py:15"]
    # the forward's gelu ops, and the same ops recomputed in the backward
    recomputed = set(gelu.names("aot_forward")) & set(gelu.names("aot_backward"))
    assert "erf" in recomputed, (gelu.names("aot_forward"), gelu.names("aot_backward"))
    for part in ("forward", "backward"):
        code = comp.stages[f"kernel_source.{part}"].get_text().splitlines()
        lines = [
            code[n - 1]
            for item in gelu.stage(f"kernel_source.{part}").items
            if item.kind == "kernel_lines"
            for n in item.lines
        ]
        assert any(".erf()" in line for line in lines), part  # the lines that compute it, in each
    # the checkpoint node runs the whole body; relu, after it, is not part of it
    body = {"wrap_body_0.linear", "wrap_body_0.gelu", "wrap_body_0.linear_1"}
    assert body <= set(index.trail(["dynamo_graph|tag_activation_checkpoint"]).names("dynamo_graph"))
    assert not body & set(index.trail(["dynamo_graph|relu"]).names("dynamo_graph"))


def test_a_flex_attention_score_mod_is_followed_into_aotautograds_subgraph(tmp_path) -> None:  # noqa: ANN001
    out = tmp_path / "out"
    proc = run_tcdebug("--dump", str(out), str(SCRIPTS / "flex_score_mod.py"))
    assert proc.returncode == 0, proc.stderr
    index = load_dump(out).compiles["0/0"].provenance
    add = index.trail(["dynamo_graph|score_mod_0.add"])
    assert "flex_score_mod.py:10" in add.names("source")  # rel_bias's line
    # torch's from_node names the flex_attention node for AOTAutograd's score_mod nodes: the
    # subgraph the same flex_attention op passes in the same place pairs them, by node name
    assert add.names("aot_inference") == ["sdpa_score0.add"] and add.stage("aot_inference").inferred
    flex = index.trail(["dynamo_graph|flex_attention"])
    assert "sdpa_score0.add" in flex.names("aot_inference")  # torch's own link, not inferred
