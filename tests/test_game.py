"""The game apart from its book: ``rules.game`` holds what decides who wins, and everything keys on it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from duel_lessons import DIVISION_DUEL, DIVISOR_DUEL, NUMBER_FACTOR
from duel_lessons.books.divisor_duel import BOOK_002_WORDING
from duel_lessons.engine.rules import Game, Rules, RulesError
from duel_lessons.solving import tables
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.grundy_formulas import formula_for
from duel_lessons.solving.oracle import oracle


def renamed_copies(book: Rules) -> list[Rules]:
    """The book under other names, titles, starts, sources, wording, and table procedures."""
    return [
        book.variant(name="my-copy", title="My copy"),
        book.variant(name="big-start", default_start=1000, min_start=4, start_rule="From 4 up."),
        replace(book, name="reworded", wording=BOOK_002_WORDING, source="a teacher's sheet"),
        book.variant(name="with-passes", when_stuck="pass", on_invalid="lose-turn"),
    ]


def test_the_game_of_a_book_holds_the_fields_that_decide_who_wins() -> None:
    # Division Duel (book 001): N -> N / d with a proper divisor d; whoever cannot move loses.
    assert DIVISION_DUEL.game == Game(move="divide", divisors="all", last_mover_wins=True)
    assert NUMBER_FACTOR.game == Game(move="divide", win_on_reaching="one")
    assert DIVISOR_DUEL.game == Game()


@pytest.mark.parametrize("copy", renamed_copies(DIVISOR_DUEL), ids=lambda r: r.name)
def test_a_renamed_copy_is_the_same_game(copy: Rules) -> None:
    assert copy != DIVISOR_DUEL  # a different book ...
    assert copy.game == DIVISOR_DUEL.game  # ... of the same game
    assert closed_form(copy) is closed_form(DIVISOR_DUEL) is not None


@pytest.mark.parametrize(
    "change",
    [
        {"move": "divide"},
        {"divisors": "odd"},
        {"allow_one": True},
        {"win_on_reaching": "prime"},
        {"lose_on_reaching": "one"},
        {"last_mover_wins": False},
    ],
)
def test_changing_a_field_that_decides_play_changes_the_game(change: dict[str, object]) -> None:
    assert DIVISOR_DUEL.variant(**change).game != DIVISOR_DUEL.game


def test_a_renamed_copy_shares_the_books_table() -> None:
    tables.clear_cache()
    book = tables.tabulate(NUMBER_FACTOR, 2000)
    for copy in renamed_copies(NUMBER_FACTOR):
        table = tables.tabulate(copy, 1000)
        assert np.shares_memory(table.outcome, book.outcome)  # a slice of the book's table, not a new one
    assert tables.cache_info().tables == 1


def test_a_renamed_copy_gets_the_same_answers_above_the_table() -> None:
    copy = DIVISOR_DUEL.variant(name="mine", title="Mine")
    assert oracle(copy).form is oracle(DIVISOR_DUEL).form is not None
    # 2**59 is a power of 2 with an odd exponent: a P-position of Divisor Duel (book 000's closed form).
    assert oracle(copy).is_p(2**59) and oracle(copy).source(2**59) == "closed form"
    with_one = DIVISOR_DUEL.variant(allow_one=True)
    assert formula_for(with_one.variant(name="mine-too", title="Mine too")) is formula_for(with_one) is not None


def test_the_game_is_not_a_rule_field_of_a_variant() -> None:
    with pytest.raises(RulesError, match="Unknown rule field"):
        DIVISOR_DUEL.variant(game=Game(divisors="even"))
    with pytest.raises(TypeError):
        Rules(name="x", title="X", game=Game())  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"move": "divide", "allow_one": True}, "allow_one needs move='subtract'"),
        ({"divisors": "square"}, "divisors='square' is not one of"),
        ({"win_on_reaching": "prime", "lose_on_reaching": "prime"}, "cannot both win and lose"),
        ({"last_mover_wins": 1}, "last_mover_wins must be True or False"),
    ],
)
def test_a_bad_game_is_refused_with_its_reason(fields: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError, match=words.replace("(", r"\(")):
        Game(**fields)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=words.replace("(", r"\(")):
        Rules(name="bad", title="Bad", **fields)  # type: ignore[arg-type]
