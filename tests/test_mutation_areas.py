"""The mutation-testing command (.ci/mutation.py): its areas name real files; it sets mutmut's configuration."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutation_command", ROOT / ".ci" / "mutation.py")
assert _spec is not None and _spec.loader is not None
mutation = importlib.util.module_from_spec(_spec)
sys.modules["mutation_command"] = mutation
_spec.loader.exec_module(mutation)


def test_every_area_names_modules_and_tests_that_exist() -> None:
    assert mutation.problems() == []
    assert set(mutation.areas()) == {"engine", "solving", "boxes", "feedback", "copies", "proofs", "sandbox"}


def test_a_renamed_file_leaves_a_stale_area_that_is_reported(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.duel-lessons.mutation.one]\nmodules = ["duel_lessons/gone.py"]\ntests = ["tests/test_a.py::test_x"]\n'
        '[tool.duel-lessons.mutation.two]\nmodules = []\ntests = ["tests/test_b.py"]\n'
    )
    assert mutation.problems(tmp_path) == [
        "area one: duel_lessons/gone.py does not exist",
        "area two: give both modules and tests",
        "area two: tests/test_b.py does not exist",
    ]


def test_the_area_replaces_only_mutmuts_two_lists() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    area = {"modules": ["duel_lessons/solving/boxes.py"], "tests": ["tests/test_boxes.py", 'tests/test_x.py::t["a"]']}
    written = tomllib.loads(mutation.with_area(text, area))
    original = tomllib.loads(text)
    assert written["tool"]["mutmut"]["only_mutate"] == ["duel_lessons/solving/boxes.py"]
    assert written["tool"]["mutmut"]["pytest_add_cli_args_test_selection"] == area["tests"]
    for key in ("source_paths", "also_copy", "pytest_add_cli_args", "mutate_only_covered_lines"):
        assert written["tool"]["mutmut"][key] == original["tool"]["mutmut"][key]
    assert written["project"] == original["project"]


def test_scores_are_counted_per_module_from_mutmuts_results() -> None:
    results = (
        "    duel_lessons.engine.game.x_new_game__mutmut_1: killed\n"
        "    duel_lessons.engine.game.x\u01c1GameState\u01c1play__mutmut_3: survived\n"
        "    duel_lessons.engine.game.x_new_game__mutmut_2: killed\n"
        "    duel_lessons.play.sandbox.x\u01c1Sandbox\u01c1ask__mutmut_7: timeout\n"
        "not a result line\n"
    )
    assert mutation.scores(results) == {
        "duel_lessons.engine.game": {"killed": 2, "survived": 1},
        "duel_lessons.play.sandbox": {"timeout": 1},
    }
