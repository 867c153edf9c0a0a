"""README's key and stage tables (and each docs page's key table) are generated from the app's `Binding`s
and the stage catalogue by `.ci/readme_tables.py`: they must be what the script renders now."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("readme_tables", ROOT / ".ci" / "readme_tables.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["readme_tables"] = module
    spec.loader.exec_module(module)
    return module


def test_generated_tables_are_current() -> None:
    script = _script()
    stale = [str(path.relative_to(ROOT)) for path in script.stale_files()]
    assert not stale, f"generated tables are stale in {stale}: run `{script.WRITE_COMMAND}`"


def test_readme_has_both_tables() -> None:
    script = _script()
    readme = (ROOT / "README.md").read_text()
    rendered = script.blocks()
    for name in ("keys", "stages"):
        assert f"<!-- {name}:begin -->\n{rendered[name]}<!-- {name}:end -->" in readme


def test_every_binding_and_stage_is_in_the_tables() -> None:
    from tcdebug.model.stages import STAGE_KINDS
    from tcdebug.screens.app import TcdebugApp
    from tcdebug.screens.main_screen import MainScreen

    rendered = _script().blocks()
    for binding in [*TcdebugApp.BINDINGS, *MainScreen.BINDINGS]:
        binding_id = getattr(binding, "id", None)
        assert binding_id, f"every Binding has an id: {binding}"
        if not binding_id.endswith("_unavailable"):
            assert f"`{binding_id}`" in rendered["keys"]
    for kind in STAGE_KINDS:
        assert f"| `{kind.id}` |" in rendered["stages"]


def test_every_binding_in_screens_has_an_id_and_a_description() -> None:
    """The tables are made from them: a key without an id or a description would be a blank row."""
    import inspect

    from textual.binding import Binding

    import tcdebug.screens.app as app_module
    from tcdebug.screens import (
        diff_screen,
        help_screen,
        main_screen,
        output_screen,
        ranks_screen,
        rerun_screen,
        symbols_screen,
        times_screen,
        trail_screen,
        why_screen,
    )
    from tcdebug.screens.widgets import code_view, split_view, timeline

    modules = [
        app_module, diff_screen, help_screen, main_screen, output_screen, ranks_screen, rerun_screen,
        symbols_screen, times_screen, trail_screen, why_screen, code_view, split_view, timeline,
    ]  # fmt: skip
    checked = 0
    for module in modules:
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for binding in vars(cls).get("BINDINGS", []):
                assert isinstance(binding, Binding), f"{cls.__name__}: {binding!r} is not a Binding"
                assert binding.id and binding.description, f"{cls.__name__}: {binding.key} lacks an id"
                checked += 1
    assert checked > 40
