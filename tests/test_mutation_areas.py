"""The mutation-testing command (.ci/mutation.py): its areas name real files; it sets mutmut's configuration."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutation_command", ROOT / ".ci" / "mutation.py")
assert _spec is not None and _spec.loader is not None
mutation = importlib.util.module_from_spec(_spec)
sys.modules["mutation_command"] = mutation
_spec.loader.exec_module(mutation)


def test_the_commands_examples() -> None:
    import doctest

    result = doctest.testmod(mutation)
    assert result.attempted >= 4 and result.failed == 0


def test_every_area_names_modules_and_tests_that_exist() -> None:
    assert mutation.problems() == []
    areas = {
        "engine",
        "solving",
        "boxes",
        "feedback",
        "copies",
        "content",
        "proofs",
        "sandbox",
        "isolation",
        "editions",
        "report",
        "record",
        "plain",
        "kernel",
    }
    assert set(mutation.areas()) == areas


def test_the_teachers_tools_have_areas() -> None:
    """Issue 30: the editions, the class report, the records and plain values are mutated, each by its own tests."""
    known = mutation.areas()
    assert known["editions"]["modules"] == ["duel_lessons/teaching/editions.py"]
    assert set(known["report"]["modules"]) == {
        "duel_lessons/teaching/class_report.py",
        "duel_lessons/teaching/grade_worker.py",
        "duel_lessons/cli/class_report.py",
        "duel_lessons/teaching/bounded_json.py",
        "duel_lessons/teaching/judging.py",
        "duel_lessons/teaching/report_page.py",
    }
    assert known["record"]["modules"] == ["duel_lessons/teaching/record.py"]
    assert known["plain"]["modules"] == ["duel_lessons/teaching/plain.py"]
    assert "tests/test_editions.py" in known["editions"]["tests"]
    assert "tests/test_bounded_json_exact.py" in known["report"]["tests"]
    assert "tests/test_record_exact.py" in known["record"]["tests"]
    assert "tests/test_plain_exact.py" in known["plain"]["tests"]
    # Tests that re-execute notebooks make mutants time out undetected: their areas leave them out.
    for area in ("report", "record"):
        assert not {"tests/test_class_report.py", "tests/test_class_report_steps.py"} & set(known[area]["tests"])


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


# The command fails loudly (issue 30): a run that measured nothing must never print a score and exit 0.
# A fake `mutmut` package, first on the path, plays each way mutmut can fail; then a real mutmut (the
# dev extra's) runs on a tiny project of one function, once with its test passing and once failing.

FAKE_MUTMUT = """
import os, sys

mode = os.environ["FAKE_MUTMUT"]
if sys.argv[1] == "run":
    with open(os.environ["FAKE_MUTMUT_LOG"], "a") as log:
        log.write(" ".join(sys.argv[1:]) + "\\n")
    if mode == "clean-fails":
        print("\\r- Running clean tests\\r- Running clean tests")
        print("FAILED tests/test_engine_exact.py::test_x - assert 1 == 2")
        print("Failed to run clean test")
        sys.exit(1)
    sys.exit(0)
RESULTS = {
    "all-unchecked": ["a__mutmut_1: not checked", "a__mutmut_2: not checked", "b__mutmut_1: not checked"],
    "no-mutants": [],
    "no-tests": ["a__mutmut_1: no tests", "a__mutmut_2: no tests"],
    "interrupted": ["a__mutmut_1: killed", "a__mutmut_2: not checked", "b__mutmut_1: check was interrupted by user"],
    "scored": ["a__mutmut_1: killed", "a__mutmut_2: survived", "b__mutmut_1: timeout", "b__mutmut_2: no tests"],
    "results-fail": [],
}[mode]
for line in RESULTS:
    print("    duel_lessons.engine.game.x_" + line)
if mode == "results-fail":
    print("Error: mutants/ is unreadable")
    sys.exit(2)
"""


def run_command(tmp_path: Path, mode: str, *args: str) -> tuple[int, str, str, list[str]]:
    """.ci/mutation.py's exit status, output and error, and the `mutmut run` commands it gave, under a fake mutmut."""
    import os
    import subprocess

    fake = tmp_path / "fake" / "mutmut"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "__main__.py").write_text(FAKE_MUTMUT)
    log = tmp_path / "runs.log"
    log.write_text("")
    env = {k: v for k, v in os.environ.items() if k != "MUTANT_UNDER_TEST"}
    env |= {"PYTHONPATH": str(tmp_path / "fake"), "FAKE_MUTMUT": mode, "FAKE_MUTMUT_LOG": str(log)}
    done = subprocess.run([sys.executable, str(ROOT / ".ci" / "mutation.py"), "engine", *args], env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    return done.returncode, done.stdout, done.stderr, log.read_text().splitlines()


def test_a_failed_clean_run_fails_the_command_with_mutmuts_message(tmp_path: Path) -> None:
    code, out, err, runs = run_command(tmp_path, "clean-fails")
    assert runs == ["run --max-children 2"]
    assert code == 1
    assert "MUTATION RUN FAILED: `mutmut run` exited with status 1." in err
    assert err.endswith(
        "mutmut's last lines:\n- Running clean tests\n"
        "FAILED tests/test_engine_exact.py::test_x - assert 1 == 2\nFailed to run clean test\n"
    )
    assert "detected" not in out and "Survivors" not in out  # no score at all


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("all-unchecked", "mutmut checked none of the 3 mutants ({'not checked': 3}): there is no score."),
        ("no-mutants", "mutmut made no mutant to check (or none matches the names given)."),
        ("no-tests", "mutmut checked none of the 2 mutants ({'no tests': 2}): there is no score."),
        ("interrupted", "mutmut left 2 of the 3 mutants unchecked (an interrupted run?): the score is incomplete."),
        ("results-fail", "`mutmut results` exited with status 2."),
    ],
)
def test_a_run_that_checked_nothing_or_not_everything_fails_the_command(tmp_path: Path, mode: str, reason: str) -> None:
    code, _, err, _ = run_command(tmp_path, mode)
    assert code == 1
    assert f"MUTATION RUN FAILED: {reason}" in err


def test_a_complete_run_prints_its_score_and_succeeds(tmp_path: Path) -> None:
    code, out, err, _ = run_command(tmp_path, "scored")
    assert (code, err) == (0, "")
    assert (
        "  duel_lessons.engine.game: 2 of 4 detected ({'killed': 1, 'survived': 1, 'timeout': 1, 'no tests': 1})\n"
        in out
    )
    assert out.endswith(
        "Survivors (each needs a test, or a line in docs/authoring.md saying why it is equivalent):\n"
        "  duel_lessons.engine.game.x_a__mutmut_2\n"
        "No verdict (no test ran them, or skipped):\n"
        "  duel_lessons.engine.game.x_b__mutmut_2: no tests\n"
    )


def test_only_the_mutants_chosen_by_name_count(tmp_path: Path) -> None:
    """Names or globs choose some mutants: the others, left unchecked by design, neither fail nor score."""
    code, out, err, runs = run_command(
        tmp_path, "interrupted", "duel_lessons.engine.game.x_a__mutmut_1", "--max-children", "1"
    )
    assert runs == ["run --max-children 1 duel_lessons.engine.game.x_a__mutmut_1"]
    assert (code, err) == (0, "")
    assert "  duel_lessons.engine.game: 1 of 1 detected ({'killed': 1})\n" in out
    code, out, err, _ = run_command(tmp_path / "glob", "interrupted", "duel_lessons.engine.game.x_b*")
    assert code == 1
    assert "mutmut checked none of the 1 mutants ({'check was interrupted by user': 1}): there is no score." in err


TINY_PYPROJECT = """
[project]
name = "tiny"
version = "0"

[tool.mutmut]
source_paths = ["tiny/"]
only_mutate = ["tiny/calc.py"]
pytest_add_cli_args = ["-p", "no:randomly", "-p", "no:cacheprovider", "-x", "-q"]
pytest_add_cli_args_test_selection = ["tests/test_calc.py"]
mutate_only_covered_lines = true

[tool.duel-lessons.mutation.calc]
modules = ["tiny/calc.py"]
tests = ["tests/test_calc.py"]
"""


def run_real_mutmut(tmp_path: Path, test: str) -> tuple[int, str, str]:
    """The command run by a real mutmut on a project of one function, ``bigger(a, b)``, and one test."""
    import os
    import shutil
    import subprocess

    if importlib.util.find_spec("mutmut") is None:  # CI's step 2 has it (the dev extra, below); the lowest versions not
        pytest.skip("mutmut is not installed (the dev extra installs it)")
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "mutation.py", tmp_path / ".ci" / "mutation.py")  # its root is the tiny project
    (tmp_path / "pyproject.toml").write_text(TINY_PYPROJECT)
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "__init__.py").write_text("")
    (tmp_path / "tiny" / "calc.py").write_text("def bigger(a, b):\n    return a if a > b else b\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_calc.py").write_text(f"from tiny.calc import bigger\n\n\ndef test_bigger():\n{test}\n")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("MUTANT_UNDER_TEST", "PYTHONPATH")}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # the tiny tests need none of the suite's plugins
    done = subprocess.run([sys.executable, ".ci/mutation.py", "calc"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    return done.returncode, done.stdout, done.stderr


def test_the_dev_extra_installs_the_mutmut_the_command_is_written_for() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert "mutmut==3.8.1" in extras["dev"]
    assert "mutmut==3.8.1" in (ROOT / ".ci" / "mutation.py").read_text(encoding="utf-8")


def test_real_mutmut_scores_a_tiny_project(tmp_path: Path) -> None:
    """mutmut 3.8.1 makes 3 mutants of ``a if a > b else b``: ``(a > b) and False``, ``(a > b) or True``, ``a >= b``.

    The one test, ``bigger(2, 1) == 2``, sees only the first (it answers 1); the others still answer 2.
    """
    code, out, err = run_real_mutmut(tmp_path, "    assert bigger(2, 1) == 2")
    assert (code, err) == (0, "")
    assert "  tiny.calc: 1 of 3 detected ({'killed': 1, 'survived': 2})\n" in out


def test_real_mutmut_whose_tests_fail_before_mutating_fails_the_command(tmp_path: Path) -> None:
    code, out, err = run_real_mutmut(tmp_path, "    assert bigger(2, 1) == 1")
    assert code == 1
    assert "MUTATION RUN FAILED: `mutmut run` exited with status 1." in err
    assert "FAILED tests/test_calc.py::test_bigger - assert 2 == 1" in err
    assert "detected" not in out


def test_the_kernel_area_runs_without_numbas_jit() -> None:
    """mutmut's trampolines cannot be compiled by numba: the kernel's area runs its plain-Python fallback."""
    kernel = mutation.areas()["kernel"]
    assert kernel["modules"] == ["duel_lessons/solving/kernel.py"]
    assert kernel["env"] == {"NUMBA_DISABLE_JIT": "1"}
    assert mutation.environment(kernel, {"HOME": "/h"}) == {"HOME": "/h", "NUMBA_DISABLE_JIT": "1"}
    for bad in ({"env": {"NUMBA_DISABLE_JIT": 1}}, {"env": ["NUMBA_DISABLE_JIT=1"]}):
        with pytest.raises(SystemExit, match="table of text values"):
            mutation.environment(bad, {})
