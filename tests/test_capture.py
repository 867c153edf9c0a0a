"""The capture engine end to end: real torch.compile with Inductor on the CPU, via `--dump`."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from types import CodeType, SimpleNamespace

from conftest import SAMPLES, SCRIPTS

from tcdebug.capture.frame import source_lines
from tcdebug.capture.inductor_ir import (
    check_sample,
    print_ir_with_sympy_memo,
    print_loop_bodies_cheaply,
    reuse_loop_body_texts,
)
from tcdebug.dump.loader import load_dump
from tcdebug.model import stages as stage_catalog


def _index(run):
    return json.loads((run.out / "session.json").read_text())


def test_mlp_dump_succeeds_and_summarises(mlp_dump):
    assert mlp_dump.returncode == 0, mlp_dump.stderr
    assert "compiles: 2" in mlp_dump.stdout
    assert "recompiles: 1" in mlp_dump.stdout
    assert "grad_mode" in mlp_dump.stdout  # Dynamo's own reason for the no_grad -> grad recompile
    assert "not captured (no CUDA device)" in mlp_dump.stdout


def test_mlp_inference_compile_has_every_stage(mlp_dump):
    session = load_dump(mlp_dump.out)
    comp = session.compiles["0/0"]
    assert comp.function == "forward"
    assert comp.filename.endswith("samples/mlp.py")
    keys = [s.key for s in comp.ordered_stages()]
    assert keys == stage_catalog.expected_keys("inference")
    # bytecode_after_python needs the optional depyf: without it the stage says why not
    assert all(s.captured for s in comp.stages.values() if s.stage_id != "bytecode_after_python")
    # pipeline order is also the order the time stamps grew in
    elapsed = [s.elapsed_s for s in comp.ordered_stages()]
    assert elapsed == sorted(elapsed)


def test_mlp_training_compile_has_forward_and_backward(mlp_dump):
    session = load_dump(mlp_dump.out)
    comp = session.compiles["0/1"]
    keys = stage_catalog.expected_keys("training")
    assert [s.key for s in comp.ordered_stages()] == keys
    for key in keys:
        assert comp.stages[key].captured or key == "bytecode_after_python", key
    assert "aot_inference" not in comp.stages
    assert "grad_mode" in comp.recompile_reason


def test_stage_texts_hold_what_each_stage_is_about(mlp_dump):
    session = load_dump(mlp_dump.out)
    stages = session.compiles["0/0"].stages
    source = stages["source"].get_text()
    assert "def forward(self, x" in source and "# File:" in source and "samples/mlp.py" in source
    assert "RESUME" in stages["bytecode_before"].get_text()
    assert "__compiled_fn" in stages["bytecode_after"].get_text()
    graph = stages["dynamo_graph"].get_text()
    assert "relu" in graph and '"f32[8, 64]' in graph and "# File:" in graph
    assert "TENSOR_MATCH" in stages["guards"].get_text()
    assert "L['x']" in stages["guards"].get_text()
    assert stages["inductor_ir_pre_fusion.inference"].get_text().startswith("BEFORE FUSION")
    assert stages["inductor_ir_post_fusion.inference"].get_text().startswith("AFTER FUSION")
    kernel_stage = stages["kernel_source.inference"]
    assert "cpp_fused" in kernel_stage.get_text()
    assert kernel_stage.kernels and all(k.name.startswith("cpp_fused") for k in kernel_stage.kernels)
    assert all(k.language == "cpp" and 'extern "C"' in k.source for k in kernel_stage.kernels)
    backward = session.compiles["0/1"].stages["aot_backward"].get_text()
    assert "threshold_backward" in backward or "aten.le.Scalar(relu" in backward


def test_index_lists_stage_metadata_and_files_exist(mlp_dump):
    index = _index(mlp_dump)
    assert index["format"] == "tcdebug-session" and index["torch_version"].startswith("2.")
    for comp in index["compiles"]:
        for stage in comp["stages"]:
            assert {"id", "title", "language", "file", "elapsed_s", "status"} <= stage.keys()
            if stage["status"] == "captured":
                assert (mlp_dump.out / stage["file"]).is_file()
            else:  # e.g. bytecode_after_python without depyf: said why, no file
                assert stage["reason"] and not stage["file"]
    langs = {s["id"]: s["language"] for s in index["compiles"][0]["stages"]}
    assert langs["source"] == "python" and langs["bytecode_before"] == "dis" and langs["guards"] == "guards"
    output = (mlp_dump.out / "output.txt").read_text()
    assert "inference on cpu" in output and "one training step" in output


def test_graph_breaks_have_reasons_and_user_stacks(graph_breaks_dump):
    assert graph_breaks_dump.returncode == 0, graph_breaks_dump.stderr
    session = load_dump(graph_breaks_dump.out)
    breaks = session.graph_breaks()
    assert len(breaks) == 3
    reasons = [gb.reason for gb in breaks]
    assert "print" in reasons[0]
    assert "item()" in reasons[1]
    assert "Data-dependent branching" in reasons[2]
    lines = [gb.user_stack[-1] for gb in breaks]
    for stack_line, lineno in zip(lines, (8, 9, 11), strict=True):
        assert f'graph_breaks.py", line {lineno}' in stack_line
    assert all("tcdebug" not in frame for gb in breaks for frame in gb.user_stack)
    # the resume functions after each break are compiled as frames of their own; a break at a
    # frame's top level restarts Dynamo's analysis: attempt 1 (`0/0_1`) holds the graph, as torch
    # keys it (TORCH_LOGS `[0/0_1]`; tests/test_trace.py reads the same ids from its log)
    ids = ["0/0", "0/0_1", "1/0", "1/0_1", "2/0", "3/0"]
    assert [c.compile_id for c in session.ordered_compiles()] == ids
    assert [session.compiles[cid].status for cid in ("0/0", "1/0")] == ["restarted", "restarted"]
    assert [gb.compile_id for gb in breaks] == ["0/0", "1/0", "2/0"]
    assert "graph breaks: 3" in graph_breaks_dump.stdout


def test_shape_change_recompiles_with_dynamos_reason(dynamic_dump):
    assert dynamic_dump.returncode == 0, dynamic_dump.stderr
    session = load_dump(dynamic_dump.out)
    first, second = session.compiles["0/0"], session.compiles["0/1"]
    assert first.function == second.function == "scaled_softmax"
    assert "size mismatch at index 0. expected 4, actual 8" in second.recompile_reason
    assert '"f32[4, 32]' in first.stages["dynamo_graph"].get_text()
    dynamic_graph = second.stages["dynamo_graph"].get_text()
    assert "Sym(s" in dynamic_graph  # automatic dynamic: the batch became a symbol
    marked = session.compiles["1/0"]
    assert marked.function == "layer" and "Sym(s" in marked.stages["dynamo_graph"].get_text()
    assert "expected 4, actual 8" in dynamic_dump.stdout


def _ir_script_counts(script: str, tmp_path: Path) -> dict:
    """Run a script of tests/scripts that prints IR both ways; its last line: the JSON counts."""
    proc = subprocess.run(
        [sys.executable, str(SCRIPTS / script)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_loop_bodies_print_as_torch_prints_them_on_a_real_compile(tmp_path):
    """The IR stages print loop bodies without torch's throwaway GraphModule per block: on a real
    Inductor compile (reductions, a masked subblock), every block is torch's text, byte for byte."""
    counts = _ir_script_counts("loop_body_text.py", tmp_path)
    assert counts["blocks"] >= 10 and counts["subblocks"] >= 1
    assert counts["differ"] == 0


class _Graph:
    def __init__(self, src: str) -> None:
        self.src = src

    def python_code(self, root_module: str) -> SimpleNamespace:
        return SimpleNamespace(src=self.src)


def test_loop_body_printing_turns_to_torchs_own_for_good_once_a_text_differs():
    class Block:
        calls = 0

        def __init__(self, src: str, torch_text: str) -> None:
            self.graph, self.torch_text = _Graph(src), torch_text

        def debug_str(self, name: str = "block") -> str:
            type(self).calls += 1
            return self.torch_text

    print_loop_bodies_cheaply(Block)
    same = Block("def forward(self, ops):\n    return None; del ops\n", "def body(self, ops):\n    return None")
    assert same.debug_str("body") == "def body(self, ops):\n    return None" and Block.calls == 1
    differs = Block("def forward(self, ops):\n    return 1\n", "torch's text")
    assert differs.debug_str("body") == "torch's text"
    assert [Block("def forward(self):\n    pass\n", "torch's").debug_str() for _ in range(20)] == ["torch's"] * 20
    assert Block.calls == 22  # torch printed every block after the mismatch


def test_ir_printed_with_the_sympy_memo_is_torchs_text_on_real_compiles(tmp_path):
    """The IR stages print each sympy expression once per text: on real Inductor compiles (static
    and dynamic shapes), every text is torch's, byte for byte, with far fewer sympy `str()` calls,
    and sympy's own `__str__` is back in place afterwards. The capture's checks of its first texts
    (a sample of nodes printed by torch too) pass, so the memo is trusted after them."""
    counts = _ir_script_counts("ir_text_memo.py", tmp_path)
    assert counts["texts"] >= 4 and counts["differ"] == 0
    assert counts["checked_differ"] == 0 and counts["checked_trusted"]  # the checks passed
    assert counts["str_calls_memo"] * 10 < counts["str_calls_torch"]  # str() and repr() both
    assert counts["restored"]


def test_ir_printing_turns_to_torchs_own_for_good_once_a_text_differs():
    prints = [0]

    class Printable:  # prints differently each time, so the memo's text is not torch's
        def __str__(self) -> str:
            prints[0] += 1
            return f"p{prints[0]}"

    class Formatter:
        @staticmethod
        def _write_ir(nodes: list[object]) -> str:
            return " ".join(str(node) for node in nodes)

    sympy_str = Printable.__dict__["__str__"]
    print_ir_with_sympy_memo(Formatter, Printable)
    node = Printable()
    # The memo printed "p1 p1" and its check sample "p1 p1"; torch printed the sample "p2 p3".
    assert Formatter._write_ir([node, node]) == "p4 p5"  # so the text is printed by torch
    assert prints == [5] and Printable.__dict__["__str__"] is sympy_str
    assert Formatter._write_ir([node, node]) == "p6 p7"  # torch's way only, from now on
    assert prints == [7]


def test_loop_body_texts_are_reused_after_fusion_only_while_unchanged_on_a_real_compile(tmp_path):
    """The IR after fusion reuses the loop-body texts printed before it: on real Inductor compiles
    (static and dynamic shapes), with one body's block given a new node and another body's node
    new arguments between the two texts, every text is torch's, byte for byte, the changes show,
    and the unchanged bodies are not printed again."""
    counts = _ir_script_counts("loop_body_reuse.py", tmp_path)
    assert counts["texts"] == 4 and counts["differ"] == 0
    assert counts["changes_shown"] == 4  # both changes, in both compiles' text after fusion
    assert counts["printed"] < counts["bodies"]  # some bodies were reused


def test_ir_checks_never_compare_a_loop_body_text_reused_from_the_memo():
    """While the memo's first texts are checked, torch's own printing of the sample does not get
    the loop-body texts printed with the memo: a memo that prints differently is found."""
    prints = [0]

    class Printable:  # prints differently each time, so the memo's text is not torch's
        def __str__(self) -> str:
            prints[0] += 1
            return f"p{prints[0]}"

    expr = Printable()
    block = SimpleNamespace(graph=SimpleNamespace(_codegen=None, nodes=[]))

    class Body:
        root_block, subblocks, var_ranges, indexing_exprs = block, {}, {}, {"index0": expr}

        def debug_str(self) -> str:
            return f"index0 = {self.indexing_exprs['index0']}"

    class Formatter:
        @staticmethod
        def _write_ir(nodes: list[object]) -> str:
            return " ".join(node.debug_str() for node in nodes)  # type: ignore[attr-defined]

    print_ir_with_sympy_memo(Formatter, Printable)
    forget = reuse_loop_body_texts(Body, Formatter._write_ir.memo_active)  # type: ignore[attr-defined]
    body = Body()
    # The memo printed "p1" and its sample "p1" (reused); torch printed the sample "p2", not the
    # memo's text reused, so the check failed: the text is torch's (its "p2", the same body's).
    assert Formatter._write_ir([body]) == "index0 = p2"
    assert not Formatter._write_ir.trusted()  # type: ignore[attr-defined]
    forget()
    assert Formatter._write_ir([body]) == Formatter._write_ir([body])  # unchanged: reused


def test_a_checked_ir_text_is_whole_when_torch_passes_an_iterator():
    class Printable:
        def __str__(self) -> str:
            return "p"

    class Formatter:
        @staticmethod
        def _write_ir(nodes: list[object]) -> str:
            return " ".join(str(node) for node in nodes)

    print_ir_with_sympy_memo(Formatter, Printable)
    assert Formatter._write_ir(iter([Printable(), Printable(), Printable()])) == "p p p"


def test_ir_check_sample_spreads_over_the_whole_text():
    nodes = list(range(100))
    sample = check_sample(nodes, 8)
    assert len(sample) == 8 and sample[0] == 0 and sample[-1] == 99
    assert sample == sorted(set(sample)) and max(b - a for a, b in zip(sample, sample[1:], strict=False)) <= 15
    assert check_sample(nodes[:5], 8) == nodes[:5]


def _code_objects(code: CodeType) -> list[CodeType]:
    inner = [c for c in code.co_consts if isinstance(c, CodeType)]
    return [code, *(x for c in inner for x in _code_objects(c))]


def test_source_lines_are_what_inspect_gives_for_every_code_object():
    """The source stage reads a file's lines without inspect's walk over every module: for every
    code object (functions, methods, lambdas, comprehensions, decorated and nested ones) of real
    modules, it gives inspect's lines and first line number, or fails where inspect fails."""
    import torch._dynamo.eval_frame
    import torch.nn.modules.activation
    import torch.nn.modules.transformer

    from tcdebug.analysis import why

    codes = []
    for module in (torch.nn.modules.activation, torch.nn.modules.transformer, torch._dynamo.eval_frame, why):
        source = Path(module.__file__).read_text()
        codes += _code_objects(compile(source, module.__file__, "exec"))
    for sample in SAMPLES.glob("*.py"):
        codes += _code_objects(compile(sample.read_text(), str(sample), "exec"))
    assert len(codes) > 300
    for code in codes:
        try:
            expected: object = inspect.getsourcelines(code)
        except OSError as exc:
            expected = type(exc)
        try:
            got: object = source_lines(code)
        except OSError as exc:
            got = type(exc)
        assert got == expected, (code.co_filename, code.co_name, code.co_firstlineno)
