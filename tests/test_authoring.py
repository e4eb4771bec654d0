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


def test_without_the_example_the_book_is_unknown() -> None:
    assert "take-a-divisor" not in RULEBOOKS
    with pytest.raises(RulesError):
        get_rules("005")
