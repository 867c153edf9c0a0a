"""`--accuracy` on the CPU: samples/relu_bug.py, where Inductor's test switch miscompiles the relu.

The dump names Inductor as the layer, the relu node of the post-grad graph, its user line and its
kernel; its repro.py fails under plain python with torch's AccuracyError. A dump without
`--accuracy` holds no comparison. The wire, the session and the writer's confinement of the
repro's input files are checked without torch.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SAMPLES, DumpRun, SharedDumps

from tcdebug.analysis.accuracy_report import locate, report_lines
from tcdebug.dump.loader import load_dump
from tcdebug.dump.writer import write_dump
from tcdebug.model.commands import CheckAccuracy, command_from_wire
from tcdebug.model.events import AccuracyEvent, CompileStart, event_from_wire
from tcdebug.model.payloads import Accuracy, AccuracyLayer, AccuracyNode
from tcdebug.model.session import Session

RELU = SAMPLES / "relu_bug.py"
RELU_LINE = next(i for i, line in enumerate(RELU.read_text().splitlines(), 1) if "torch.relu(h)" in line)


def test_accuracy_names_inductor_the_relu_its_line_and_kernel(relu_accuracy_dump: DumpRun) -> None:
    run = relu_accuracy_dump
    assert run.returncode == 0, run.stderr
    session = load_dump(run.out)
    comp = session.compiles["0/0"]
    acc = comp.accuracy
    assert acc is not None and acc.status == "diverged", acc
    assert acc.layer == "inductor"
    verdicts = {layer.name: layer.verdict for layer in acc.layers}
    assert verdicts == {"eager": "reference", "aot_eager": "same", "inductor": "diverged"}
    node = acc.node
    assert node is not None and node.name == "relu" and node.target == "aten.relu.default"
    assert Path(node.filename).name == "relu_bug.py" and node.line == RELU_LINE
    assert node.error is not None and node.allowance is not None and node.error > 100 * node.allowance
    assert not node.reassociation
    where = locate(comp)
    assert where.graph == "inductor_post_grad_graph.inference"
    assert [k for k in where.kernels if k.startswith("cpp_fused") and "relu" in k], where
    text = "\n".join(report_lines(comp))
    assert "Inductor: DIFFERS beyond tolerance" in text and f"relu_bug.py:{RELU_LINE}" in text
    folder = run.out / "compiles" / "0-0"
    assert "first diverging node" in (folder / "accuracy.md").read_text()
    assert f"relu at {node.filename}:{RELU_LINE}, kernel cpp_fused" in run.stdout  # the summary
    assert "compiled - eager:" in (run.out / "output.txt").read_text()  # the script ran as it does alone


@pytest.fixture(scope="module")
def relu_train_accuracy(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("relu_train_accuracy_dump")


def test_accuracy_of_a_training_compile_compares_gradients_and_bisects_the_forward(
    relu_train_accuracy: DumpRun,
) -> None:
    run = relu_train_accuracy
    assert run.returncode == 0, run.stderr
    comp = load_dump(run.out).compiles["0/0"]
    acc = comp.accuracy
    assert acc is not None and acc.training and acc.layer == "inductor"
    assert acc.node is not None and acc.node.name == "relu" and acc.node.line == RELU_LINE
    assert locate(comp).graph == "inductor_post_grad_graph.forward"
    assert (run.out / "compiles" / "0-0" / "repro.py").is_file()


def test_accuracy_repro_fails_under_plain_python(relu_accuracy_dump: DumpRun) -> None:
    folder = relu_accuracy_dump.out / "compiles" / "0-0"
    assert list((folder / "repro_inputs" / "storages").iterdir())  # the saved inputs
    result = subprocess.run(
        [sys.executable, "repro.py"], cwd=folder, capture_output=True, text=True, timeout=600
    )
    assert result.returncode != 0
    assert "AccuracyError: Bad accuracy detected" in result.stderr


def test_without_accuracy_nothing_is_kept_or_compared(mlp_dump: DumpRun) -> None:
    index = json.loads((mlp_dump.out / "session.json").read_text())
    assert all(c.get("accuracy") is None for c in index["compiles"])
    assert not list(mlp_dump.out.glob("compiles/*/accuracy.md"))


def _accuracy() -> Accuracy:
    return Accuracy(
        compile_id="0/0",
        status="diverged",
        layer="inductor",
        summary="Inductor differs beyond tolerance",
        tolerance=1e-3,
        layers=[AccuracyLayer(name="inductor", verdict="diverged", max_abs=1.0, error=0.5, allowance=1e-4)],
        node=AccuracyNode(name="relu", target="aten.relu.default", filename="m.py", line=3, code="relu(x)"),
        repro="print('repro')\n",
        repro_inputs={
            "repro_inputs/storages/abc": base64.b64encode(b"data").decode(),
            "../escape": base64.b64encode(b"x").decode(),
            "repro_inputs/../../escape": base64.b64encode(b"x").decode(),
        },
    )


def test_accuracy_event_and_command_round_trip() -> None:
    event = AccuracyEvent(accuracy=_accuracy())
    assert event_from_wire(json.loads(json.dumps(event.to_wire()))) == event
    command = CheckAccuracy(compile_id="0/0")
    assert command_from_wire(command.to_wire()) == command


def test_dump_writes_report_repro_and_only_confined_inputs(tmp_path: Path) -> None:
    session = Session(script="m.py")
    session.apply(CompileStart(compile_id="0/0"))
    session.apply(AccuracyEvent(accuracy=_accuracy()))
    out = tmp_path / "out"
    write_dump(session, out)
    folder = out / "compiles" / "0-0"
    assert (folder / "repro.py").read_text() == "print('repro')\n"
    assert (folder / "repro_inputs" / "storages" / "abc").read_bytes() == b"data"
    assert not (tmp_path / "escape").exists() and not (out / "escape").exists()
    assert "relu" in (folder / "accuracy.md").read_text()
    loaded = load_dump(out).compiles["0/0"].accuracy
    assert loaded is not None and loaded.node is not None and loaded.node.name == "relu"


JUDGE = """
import json, torch
from tcdebug.debuggee.accuracy import Tensors, judge

torch.manual_seed(0)
x = torch.randn(4096, dtype=torch.float64)
ref64 = Tensors([("output 0", x)])
eager = Tensors([("output 0", x.float())])
bumped = x.float().clone()
bumped[0] += 5e-3  # not allclose to eager, but one element: RMSE within the float64 allowance
def verdict(res):
    layer = judge(torch, eager, Tensors([("output 0", res)]), ref64, 1e-3, "inductor")
    return [layer.verdict, layer.error, layer.allowance, layer.max_abs]
print(json.dumps({
    "same": verdict(x.float()),
    "reassociation": verdict(bumped),
    "diverged": verdict(x.float() + 1.0),
    "nan": verdict(torch.full_like(x.float(), float("nan"))),
}))
"""


def test_judge_follows_torchs_criterion_and_reports_only_finite_figures() -> None:
    result = subprocess.run([sys.executable, "-c", JUDGE], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["same"][0] == "same"
    assert out["reassociation"][0] == "reassociation"
    assert out["diverged"][0] == "diverged" and out["diverged"][1] > out["diverged"][2]
    assert out["nan"][0] == "diverged" and None in out["nan"][1:]
