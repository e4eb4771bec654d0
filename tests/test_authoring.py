"""docs/authoring.md: the worked example of a fifth rule book registers, solves and plays (one file)."""

from __future__ import annotations

import doctest
import importlib
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import duel_lessons.books
from duel_lessons.engine.errors import RulesError
from duel_lessons.engine.game import new_game, play_out
from duel_lessons.engine.rules import RULEBOOKS, get_rules, register, rescan_books
from duel_lessons.play.coach import explain, hint
from duel_lessons.play.players import PerfectPlayer
from duel_lessons.solving.closed_forms import all_closed_forms, closed_form
from duel_lessons.solving.tables import tabulate

from brute import Brute

DOC = Path(__file__).resolve().parents[1] / "docs" / "authoring.md"


def example_book() -> tuple[str, str]:
    """(file name, code) of the example book in docs/authoring.md."""
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- example-book: (\S+) -->\n```python\n(.*?)```", text, re.S)
    assert match, "docs/authoring.md lost its example book"
    return match.group(1), match.group(2)


@pytest.fixture
def fifth_book(tmp_path: Path) -> Iterator[str]:
    """The example written as a book module beside the shipped ones (an extra folder of the books package)."""
    name, code = example_book()
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / name).write_text(code, encoding="utf-8")
    duel_lessons.books.__path__.append(str(folder))
    rescan_books()
    try:
        yield name.removesuffix(".py")
    finally:
        duel_lessons.books.__path__.remove(str(folder))
        shutil.rmtree(folder)
        rescan_books()


def test_the_example_book_registers_solves_and_plays(fifth_book: str) -> None:
    rules = get_rules("005")
    assert rules is get_rules("take-a-divisor") and rules.name in RULEBOOKS
    form = closed_form(rules)
    assert form is not None and form in all_closed_forms()
    brute = Brute.of(rules)
    table = tabulate(rules, 400)
    assert all(form.is_p(n) == (brute.outcome(n) == "P") == table.is_p(n) for n in range(1, 401))
    for n in range(2, 401, 2):
        assert form.winning_move(n) in brute.winning_moves(n)
    end = play_out(new_game("005", 20), (PerfectPlayer(), PerfectPlayer()))
    assert end.winner == 1  # 20 is even: the first player wins
    assert "20 − 1 = 19" in explain(new_game("005", 20)) and "Is 20 odd or even?" in hint(new_game("005", 20), stage=2)
    with pytest.raises(RulesError, match="shipped"):
        register(rules.variant("take-a-divisor", last_mover_wins=False))


def test_the_examples_doctests_run(fifth_book: str) -> None:
    module = importlib.import_module(f"duel_lessons.books.{fifth_book}")
    assert doctest.testmod(module).attempted >= 1 and doctest.testmod(module).failed == 0
    session = re.search(r"<!-- example-session -->\n```pycon\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert session
    test = doctest.DocTestParser().get_doctest(session.group(1), {}, "authoring", str(DOC), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0 and test.examples


def test_the_fixture_adds_the_book_to_the_shipped_ones(fifth_book: str) -> None:
    assert "take-a-divisor" in RULEBOOKS


def test_the_fixture_leaves_the_books_as_they_were(tmp_path: Path) -> None:
    """After the fixture, the registry holds exactly the books it held before (whatever is shipped)."""
    before = dict(RULEBOOKS)
    fixture = fifth_book.__wrapped__(tmp_path)  # type: ignore[attr-defined]
    name = next(fixture)
    assert name == "take_a_divisor" and "take-a-divisor" in RULEBOOKS
    with pytest.raises(StopIteration):
        next(fixture)
    assert dict(RULEBOOKS) == before


def test_the_example_book_shipped_as_a_file_passes_the_book_tests(tmp_path: Path) -> None:
    """docs/authoring.md's promise: save the example as duel_lessons/books/<name>.py and touch nothing else.

    A copy of the package and the tests gets the file; the tests that take their rule sets from the
    registries then run on five books in a fresh interpreter, and must all pass.
    """
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    for folder in ("duel_lessons", "tests", "docs"):
        shutil.copytree(root / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__", "*.nb[ci]"))
    shutil.copy(root / "pyproject.toml", tmp_path / "pyproject.toml")
    name, code = example_book()
    (tmp_path / "duel_lessons" / "books" / name).write_text(code, encoding="utf-8")
    files = ["tests/test_engine_properties.py", "tests/test_closed_forms.py", "tests/test_authoring.py"]
    skip = "not shipped_as_a_file"  # this test itself, which would recurse
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-o", "addopts=-ra", "-k", skip, *files],
        cwd=tmp_path,
        env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert (
        "take-a-divisor"
        in subprocess.run(
            [sys.executable, "-c", "from duel_lessons import RULEBOOKS; print(list(RULEBOOKS))"],
            cwd=tmp_path,
            env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
