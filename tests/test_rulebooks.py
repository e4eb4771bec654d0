"""Every worked example of the five rule books, played on the engine.

The expected numbers, divisor lists and winners below are copied from the books
(docs/rulebooks), not from the engine; the rulings in docs/rulebooks/README.md
say where the engine follows the rule rather than a misprint.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from duel_lessons import (
    DIVISION_DUEL,
    DIVISOR_DUEL,
    FACTOR_DUEL,
    NUMBER_FACTOR,
    BadStartError,
    GameOverError,
    GameState,
    IllegalMoveError,
    LostTurn,
    Passed,
    new_game,
)
from duel_lessons.books.divisor_duel import BOOK_002_WORDING

from books import BOOKS, book_text, transcript_block

# (rules, start, [(divisors listed in the book, divisor chosen, new number)], winner)
EXAMPLES = {
    "000 example": (DIVISOR_DUEL, 60, [
        ([2, 3, 4, 5, 6, 10, 12, 15, 20, 30], 15, 45),
        ([3, 5, 9, 15], 15, 30),
        ([2, 3, 5, 6, 10, 15], 15, 15),
        ([3, 5], 5, 10),
        ([2, 5], 5, 5),
    ], 1),
    "002 example 1": (DIVISOR_DUEL, 18, [([2, 3, 6, 9], 9, 9), ([3], 3, 6), ([2, 3], 3, 3)], 1),
    "002 example 2": (DIVISOR_DUEL, 15, [([3, 5], 5, 10), ([2, 5], 2, 8), ([2, 4], 4, 4), ([2], 2, 2)], 2),
    "002 transcript": (DIVISOR_DUEL, 12, [([2, 3, 4, 6], 6, 6), ([2, 3], 2, 4), ([2], 2, 2)], 1),
    "001 example 1": (DIVISION_DUEL, 60, [([2, 3, 4, 5, 6, 10, 12, 15, 20, 30], 5, 12), ([2, 3, 4, 6], 6, 2)], 2),
    "001 example 2": (DIVISION_DUEL, 60, [([2, 3, 4, 5, 6, 10, 12, 15, 20, 30], 4, 15), ([3, 5], 5, 3)], 2),
    "003 example 2": (FACTOR_DUEL, 30, [
        ([1, 2, 3, 5, 6, 10, 15], 15, 15), ([1, 3, 5], 5, 10), ([1, 2, 5], 5, 5)
    ], 1),
    # Ruling 5: Player 2 makes the move 10 -> 5, so by the rule Player 2 wins (the book misprints Player 1).
    "003 example 1 by the rule": (FACTOR_DUEL, 100, [
        ([1, 2, 4, 5, 10, 20, 25, 50], 25, 75),
        ([1, 3, 5, 15, 25], 25, 50),
        ([1, 2, 5, 10, 25], 25, 25),
        ([1, 5], 5, 20),
        ([1, 2, 4, 5, 10], 10, 10),
        ([1, 2, 5], 5, 5),
    ], 2),
}


@pytest.mark.parametrize("name", EXAMPLES)
def test_worked_example(name: str) -> None:
    rules, start, turns, winner = EXAMPLES[name]
    state = new_game(rules, start)
    for listed, chosen, new in turns:
        assert not state.is_over
        assert list(state.legal_moves) == listed
        state = state.play(chosen)
        assert state.number == new
    assert state.is_over
    assert state.winner == winner
    assert state.legal_moves == ()
    with pytest.raises(GameOverError):
        state.play(2)


def test_book_000_transcript_word_for_word() -> None:
    state = new_game("divisor-duel", 60)
    for d in (15, 15, 15, 5, 5):
        state = state.play(d)
    assert state.transcript() == transcript_block("000")


def test_book_002_transcript_word_for_word() -> None:
    state = new_game(replace(DIVISOR_DUEL, wording=BOOK_002_WORDING), 12)
    for d in (6, 2, 2):
        state = state.play(d)
    assert state.transcript() == transcript_block("002")


def test_book_001_transcript_lines() -> None:
    """Book 001 spreads its transcript over several code blocks: each of its lines appears in ours."""
    state = new_game("division-duel", 60).play(5).play(6)
    ours = state.transcript().splitlines()
    text = book_text("001")
    section = text[text.index("### Command-Line Interaction Example") :]
    shown = [line.strip() for line in section.split("```")[1::2]]
    book_lines = [line.strip() for block in shown for line in block.splitlines() if line.strip()]
    assert book_lines, "no transcript found in book 001"
    for line in book_lines:
        assert line in ours
    assert "Player 1, enter your chosen divisor: 5" in ours


@pytest.mark.parametrize("first_move,second_number", [(5, 6), (2, 15)])
def test_book_004_games_with_two_passes(first_move: int, second_number: int) -> None:
    state = new_game("number-factor", 30).play(first_move)
    assert state.number == second_number
    state = state.play(2 if second_number == 6 else 5)
    assert state.number == 3 and state.must_pass and not state.is_over
    state = state.pass_turn()
    assert state.must_pass and not state.is_over and state.to_move == 2
    state = state.pass_turn()
    assert state.is_over
    assert [type(e) for e in state.history[-2:]] == [Passed, Passed]
    # "the last player to successfully make a move wins": Player 2 made the last division.
    assert state.winner == 2


def test_book_004_transcript_word_for_word() -> None:
    state = new_game("number-factor", 30).play(5).play(2).pass_turn().pass_turn()
    assert state.transcript() == transcript_block("004")


def test_number_factor_invalid_move_loses_the_turn() -> None:
    state = new_game("number-factor", 30)
    after = state.attempt(7)
    assert after.number == 30 and after.to_move == 2
    assert isinstance(after.history[-1], LostTurn)
    assert "7 does not divide 30" in after.transcript()
    with pytest.raises(IllegalMoveError):
        state.play(7)  # play itself stays strict
    with pytest.raises(IllegalMoveError):
        new_game("divisor-duel", 60).attempt(7)  # other books: ask again


def test_number_factor_cannot_reach_one() -> None:
    """Ruling 3: dividing by a proper divisor never leaves 1."""
    for n in range(4, 400):
        state = GameState(NUMBER_FACTOR, n)
        assert all(NUMBER_FACTOR.result(n, d) >= 2 for d in state.legal_moves)


@pytest.mark.parametrize(
    "rules,start,words",
    [
        (NUMBER_FACTOR, 7, "7 is prime"),
        (NUMBER_FACTOR, 1, "1 is neither prime nor composite"),
        (DIVISION_DUEL, 13, "13 is prime"),
        (FACTOR_DUEL, 2, "too small"),
        (DIVISOR_DUEL, 0, "positive"),
        (DIVISOR_DUEL, -4, "positive"),
        (DIVISOR_DUEL, 10**19, "too big"),
    ],
)
def test_forbidden_starts_name_value_and_reason(rules: object, start: int, words: str) -> None:
    with pytest.raises(BadStartError) as info:
        new_game(rules, start)  # type: ignore[arg-type]
    assert str(start) in str(info.value) and words in str(info.value)


def test_prime_and_tiny_starts_in_divisor_duel_are_legal() -> None:
    """Ruling 6: the first player simply has no move."""
    for start in (1, 2, 3, 61):
        state = new_game("divisor-duel", start)
        assert state.is_over and state.winner == 2


def test_factor_duel_prime_start_loses_for_player_to_move() -> None:
    state = new_game("factor-duel", 61, first=2)
    assert state.is_over and state.winner == 1


def test_default_starts_follow_the_books() -> None:
    assert [new_game(r).number for r in (DIVISOR_DUEL, DIVISION_DUEL, FACTOR_DUEL, NUMBER_FACTOR)] == [60, 60, 100, 30]


def test_ruling_2_on_reaching_1_and_primes_by_subtraction() -> None:
    """docs/rulebooks/README.md ruling 2, by brute force: true for 000/002, false for 003 (2 - 1 = 1, 8 - 1 = 7)."""
    from duel_lessons.engine.numbers import is_prime

    text = (BOOKS / "README.md").read_text(encoding="utf-8")
    assert "8 − 1 = 7" in text and "2 − 1 = 1" in text
    for n in range(2, 1500):
        for d in DIVISOR_DUEL.divisors_of(n):
            after = n - d
            assert after != 1, (n, d)
            if is_prime(after):
                assert d == n // 2 and n == 2 * after, (n, d)
    factor_moves = {(n, n - d) for n in range(2, 50) for d in FACTOR_DUEL.divisors_of(n)}
    assert (2, 1) in factor_moves and (8, 7) in factor_moves
