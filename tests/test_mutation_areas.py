"""The mutation-testing command (.ci/mutation.py): its areas name real files; it sets mutmut's configuration."""

from __future__ import annotations

import importlib.util
import json
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
    areas = {"engine", "solving", "boxes", "feedback", "copies", "proofs", "sandbox", "isolation", "editions", "report",
             "record", "plain"}
    assert set(mutation.areas()) == areas


def test_the_teachers_tools_have_areas() -> None:
    """Issue 30: the editions, the class report, the records and plain values are mutated, each by its own tests."""
    known = mutation.areas()
    assert known["editions"]["modules"] == ["duel_lessons/teaching/editions.py"]
    assert set(known["report"]["modules"]) == {
        "duel_lessons/teaching/class_report.py",
        "duel_lessons/teaching/grade_worker.py",
        "duel_lessons/cli/class_report.py",
    }
    assert known["record"]["modules"] == ["duel_lessons/teaching/record.py"]
    assert known["plain"]["modules"] == ["duel_lessons/teaching/plain.py"]
    assert "tests/test_editions.py" in known["editions"]["tests"]
    assert "tests/test_class_report.py" in known["report"]["tests"]
    assert "tests/test_record.py" in known["record"]["tests"]
    assert "tests/test_feedback_exact.py" in known["plain"]["tests"]


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


def run_under_mutmut(tmp_path: Path, mutant: str, durations: dict[str, float], test: str) -> str:
    """pytest's output for one test file run with the project's conftest, as mutmut runs a mutant."""
    import os
    import shutil
    import subprocess

    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_x.py").write_text(test)
    (tmp_path / "mutmut-stats.json").write_text(json.dumps({"duration_by_test": durations}))
    env = {**os.environ, "MUTANT_UNDER_TEST": mutant}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "--rootdir",
            str(tmp_path),
            "test_x.py",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return done.stdout + done.stderr


ORDER = """
import pytest
ran = []

@pytest.mark.parametrize("name", ["slow", "fast", "new", "mid"])
def test_one(name):
    ran.append(name)

def test_order():
    print("ORDER", ran)
"""


def test_under_a_mutant_the_fastest_tests_run_first(tmp_path: Path) -> None:
    durations = {
        "test_x.py::test_one[slow]": 9.0,
        "test_x.py::test_one[fast]": 0.1,
        "test_x.py::test_one[mid]": 1.0,
        "test_x.py::test_order": 0.2,
    }
    out = run_under_mutmut(
        tmp_path, "m.x_f__mutmut_1", durations, ORDER.replace('print("ORDER", ran)', "assert 0, ran")
    )
    assert "AssertionError: ['fast']" in out  # test_order (0.2 s) runs second; a test never timed runs last


def test_outside_a_mutant_the_order_is_the_files(tmp_path: Path) -> None:
    durations = {"test_x.py::test_one[slow]": 9.0, "test_x.py::test_one[fast]": 0.1}
    for mutant in ("", "stats", "fail"):
        out = run_under_mutmut(tmp_path, mutant, durations, ORDER.replace('print("ORDER", ran)', "assert 0, ran"))
        assert "AssertionError: ['slow', 'fast', 'new', 'mid']" in out, mutant


HANGS = """
import time

def test_hangs():
    time.sleep(600)
"""


def test_under_a_mutant_a_hung_test_fails_after_ten_times_its_time_plus_ten_seconds(tmp_path: Path) -> None:
    out = run_under_mutmut(tmp_path, "m.x_f__mutmut_1", {"test_x.py::test_hangs": 0.01}, HANGS)
    assert "HungUnderMutmut: test_x.py::test_hangs ran over 10 s under this mutant" in out
    assert "1 failed" in out
