"""The docs are guides, not logs: no history (dates, commit hashes, "round N", times of day) in the
README, docs/, RESULTS, DEVELOPERS.md or the code's docstrings and comments; the README stays short;
every relative link leads to a file; every docs page names the tests that do what it shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
README_MAX_LINES = 250

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    "seventeen|eighteen|nineteen|twenty|thirty"
)
HISTORY = {
    "a numbered round": re.compile(rf"\b[Rr]ound (?:[0-9]+|(?:{_NUMBER_WORDS})(?:-[a-z]+)?)\b"),
    "a numbered session": re.compile(r"\b[Ss]ession [0-9]"),
    "a date": re.compile(r"\b20[0-9]{2}-[01][0-9]"),
    "a commit hash": re.compile(r"`(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}`"),
    "a time of day": re.compile(r"\b[0-2]?[0-9]:[0-5][0-9](?: |–|-[0-9]| on | UTC)"),
}


def _history_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "DEVELOPERS.md", ROOT / "benchmarks" / "RESULTS.md", *DOCS]
    for folder in ("tcdebug", "screens"):
        files += sorted((ROOT / folder).rglob("*.py"))
    return files


def history_hits(text: str) -> list[str]:
    """`what: line` for each line of `text` that reads as a log entry."""
    hits = []
    for line in text.splitlines():
        for what, pattern in HISTORY.items():
            if pattern.search(line):
                hits.append(f"{what}: {line.strip()[:160]}")
    return hits


@pytest.mark.parametrize(
    "text",
    [
        "round twenty-eight", "in round 3", "Round sixteen", "session 4", "measured 2026-11-27",
        "on `a37ae94`", "at 17:52 on `a37ae94`", "18:06–18:18",
    ],
)  # fmt: skip
def test_the_history_check_finds_a_log_entry(text: str) -> None:
    assert history_hits(text)


@pytest.mark.parametrize(
    "text",
    ["border: round $primary", "round(x, 3)", "a session model", "x[1:10]", "`0x7f00`", "`deadbeef`"],
)
def test_the_history_check_passes_plain_text(text: str) -> None:
    assert not history_hits(text)


def test_no_history_in_docs_or_code() -> None:
    hits = [
        f"{path.relative_to(ROOT)}: {hit}"
        for path in _history_files()
        for hit in history_hits(path.read_text())
    ]
    assert not hits, "history belongs in git, not in docs or code:\n" + "\n".join(hits)


def test_the_readme_is_short() -> None:
    lines = len((ROOT / "README.md").read_text().splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move details to docs/"


def test_the_readme_test_command_is_what_ci_runs_first() -> None:
    """`.ci/run` runs the README's test command verbatim before its second torch's leg."""
    readme = (ROOT / "README.md").read_text()
    block = readme.split("**Run the tests**", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0].strip()
    script = [
        line
        for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line.strip() and not line.startswith(("#", "set ", "cd "))
    ]
    assert script[0] == block, (script[0], block)
    assert any("torch==$SECOND_TORCH" in line for line in script) and "SECOND_TORCH=2.14.1" in script
    # the second leg leaves out the one_torch tests (conftest.ONE_TORCH_MODULES), as the docs say
    assert script[-1].endswith('-m pytest -q -m "not one_torch"'), script[-1]
    assert "one_torch" in (ROOT / "docs" / "torch-versions.md").read_text()
    assert "torch 2.14.1" in readme


LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


@pytest.mark.parametrize("page", [ROOT / "README.md", *DOCS], ids=lambda p: p.name)
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    missing = []
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if not (page.parent / path).exists():
            missing.append(target)
    assert not missing, f"{page.name} links to missing files: {missing}"


def test_every_feature_page_exists() -> None:
    names = {p.name for p in DOCS}
    for name in (
        "stepping-and-breakpoints.md", "reruns-and-guards.md", "following-an-op.md", "why.md",
        "logs-and-ranks.md", "gpu-and-cudagraphs.md", "torchrun.md", "dump-format.md",
        "how-tcdebug-runs-your-script.md", "export-and-aoti.md", "security.md", "benchmarks.md",
        "torch-versions.md",
    ):  # fmt: skip
        assert name in names


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_every_page_names_tests_that_exist(page: Path) -> None:
    text = page.read_text()
    match = re.search(r"^Tested by: (.*?)(?:\n\n|\Z)", text, re.S | re.M)
    assert match, f"{page.name} has no 'Tested by:' line"
    named = re.findall(r"`(tests/[^`]+\.py)`", match.group(1))
    assert named, f"{page.name}: 'Tested by:' names no test file"
    missing = [name for name in named if not (ROOT / name).is_file()]
    assert not missing, f"{page.name}: 'Tested by:' names missing files {missing}"
