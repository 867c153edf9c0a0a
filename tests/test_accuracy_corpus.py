"""No false alarm: the corpus models (tests/scripts/hf_corpus.py: transformers GPT-2, BERT and T5 from
tiny configs, training, with dropout) compared with eager under `--accuracy`. Every compile whose
graph was kept is judged the same or float reassociation by torch's criterion, in every layer."""

from __future__ import annotations

import pytest
from conftest import SCRIPTS, DumpRun, SharedDumps, share_dump

from tcdebug.dump.loader import load_dump

pytestmark = pytest.mark.slow
share_dump(
    "hf_accuracy_dump", "hf_accuracy", "--accuracy", str(SCRIPTS / "hf_corpus.py"), fixture="hf_accuracy"
)


@pytest.fixture(scope="module")
def hf_accuracy(shared_dumps: SharedDumps) -> DumpRun:
    return shared_dumps.get("hf_accuracy_dump")


def test_corpus_models_compare_the_same(hf_accuracy: DumpRun) -> None:
    assert hf_accuracy.returncode == 0, hf_accuracy.stderr
    session = load_dump(hf_accuracy.out)
    compared = {cid: c.accuracy for cid, c in session.compiles.items() if c.accuracy is not None}
    functions = {session.compiles[cid].function for cid in compared}
    assert {"forward"} <= functions  # each model's forward graph was kept and compared
    training = [acc for acc in compared.values() if acc.training]
    assert training, "the corpus trains: its graphs compare gradients too"
    for cid, acc in compared.items():
        assert acc.status == "same", f"{cid}: {acc.summary}; {acc.layers}; {acc.not_compared}"
        assert {layer.name for layer in acc.layers} == {"eager", "aot_eager", "inductor"}
        assert all(layer.verdict in ("reference", "same", "reassociation") for layer in acc.layers)
    assert "accuracy:" in hf_accuracy.stdout
