"""`bytecode_after_python`: Dynamo's transformed code as Python, when depyf is installed."""

from __future__ import annotations

import importlib.util

import pytest

from tcdebug.dump.loader import load_dump

HAS_DEPYF = importlib.util.find_spec("depyf") is not None  # the target runs in this interpreter


@pytest.mark.slow
def test_transformed_code_as_python_or_why_not(graph_breaks_dump):
    session = load_dump(graph_breaks_dump.out)
    # each break restarts Dynamo's analysis: the code installed is attempt 1's (torch's `[0/0_1]`)
    first = session.stage("0/0_1", "bytecode_after_python")
    resumed = session.stage("1/0_1", "bytecode_after_python")
    assert first is not None and resumed is not None
    if not HAS_DEPYF:
        assert (
            not first.captured
            and first.reason == "not decompilable: depyf is not installed (pip install depyf)"
        )
        return
    assert first.captured and first.language == "python"
    text = first.get_text()
    assert "def normalize(x):" in text and "__compiled_fn_" in text and "print" in text
    compile(text, "decompiled", "exec")  # it is Python
    resume = resumed.get_text()
    assert resume.startswith("# the resumed code (torch_dynamo_resume_in_normalize_at_8)")
    assert "def torch_dynamo_resume_in_normalize_at_8(" in resume


def test_without_depyf_the_reason_is_given(monkeypatch):
    import sys

    from tcdebug.capture.decompiled import decompiler

    monkeypatch.setitem(sys.modules, "depyf", None)  # what `import depyf` sees when it is not installed
    assert decompiler() == (None, "depyf is not installed (pip install depyf)")
