"""Exact-value tests of the game state (duel_lessons/engine/game.py), written by hand.

They pin what a reader of an error or a history sees: the error's type, the value, number and
reason it carries, the events recorded, the validation of hand-made states.  Written to kill the
mutants that survived the property tests (issue 23); each expected value is worked out by hand
from the rule books, never by the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from duel_lessons.engine.errors import DuelError, GameOverError, IllegalMoveError
from duel_lessons.engine.events import LostTurn, Moved, Passed
from duel_lessons.engine.game import PASS, WAIT, GameState, Signal, new_game
from duel_lessons.engine.rules import get_rules

DD = get_rules("divisor-duel")
NF = get_rules("number-factor")


# -- validation of hand-made states ---------------------------------------------------------------


@pytest.mark.parametrize("bad", [0, 3, -1, True, False, "1"])
def test_a_bad_player_to_move_is_named(bad: object) -> None:
    with pytest.raises(DuelError) as caught:
        GameState(DD, 12, to_move=bad)  # type: ignore[arg-type]
    assert str(caught.value) == f"The player to move must be 1 or 2, not {bad!r}."


@pytest.mark.parametrize("bad", [-1, 3, True, False, "0"])
def test_bad_passes_in_a_row_are_named(bad: object) -> None:
    with pytest.raises(DuelError) as caught:
        GameState(NF, 12, passes=bad)  # type: ignore[arg-type]
    assert str(caught.value) == f"The passes in a row must be 0, 1 or 2, not {bad!r}."


def test_numpy_player_and_passes_become_plain_ints() -> None:
    state = GameState(NF, 7, to_move=np.int64(2), passes=np.int64(1))  # type: ignore[arg-type]
    assert type(state.to_move) is int and state.to_move == 2
    assert type(state.passes) is int and state.passes == 1
    one = GameState(NF, 7, to_move=np.int64(1), passes=np.int64(0))
    assert type(one.to_move) is int and one.to_move == 1
    assert type(one.passes) is int and one.passes == 0


def test_new_game_defaults_to_divisor_duel_from_60() -> None:
    game = new_game()
    assert game.rules.name == "divisor-duel"
    assert (game.number, game.to_move, game.passes, game.history) == (60, 1, 0, ())


@pytest.mark.parametrize("bad", [0, 3, True])
def test_new_game_names_a_bad_first_player(bad: object) -> None:
    with pytest.raises(DuelError) as caught:
        new_game("divisor-duel", 12, first=bad)  # type: ignore[arg-type]
    # Bug fixed: True == 1 made new_game(first=True) a game for player 1 (GameState refused True).
    assert str(caught.value) == f"The first player must be 1 or 2, not {bad!r}."


# -- check(): the reason, word for word ------------------------------------------------------------


def test_check_reasons_word_for_word() -> None:
    game = new_game("divisor-duel", 12)
    assert game.check(6) is None
    assert game.check(5) == "5 does not divide 12"
    assert game.check(True) == "a move is a whole number, not True or False"
    assert game.check(2.0) == "a move is a whole number, not float"
    assert game.check("6") == "a move is a whole number, not str"
    assert game.check(None) == "a move is a whole number, not NoneType"
    over = GameState(DD, 7)  # a prime: the player to move is stuck, the game is over
    assert over.check(1) == "the game is over"
    assert over.check(True) == "the game is over"
    stuck = GameState(NF, 7)  # Number Factor: a prime means the player must pass
    assert stuck.check(2) == "7 has no allowed divisors, so the only move is to pass"


# -- play(): errors carry the value, the number and the reason ------------------------------------


def test_an_illegal_move_raises_illegal_move_not_game_over() -> None:
    game = new_game("divisor-duel", 12)
    with pytest.raises(IllegalMoveError) as caught:
        game.play(5)
    assert type(caught.value) is IllegalMoveError
    assert (caught.value.value, caught.value.number, caught.value.reason) == (5, 12, "5 does not divide 12")
    assert str(caught.value) == "Cannot play 5 from 12: 5 does not divide 12."


def test_a_move_after_the_end_raises_game_over() -> None:
    over = GameState(DD, 7)
    with pytest.raises(GameOverError) as caught:
        over.play(1)
    assert (caught.value.value, caught.value.number, caught.value.reason) == (1, 7, "the game is over")


def test_a_move_resets_the_passes_in_a_row() -> None:
    # Hand-made: one pass recorded, then a legal move (12 / 2 = 6 in Number Factor).
    after = GameState(NF, 12, passes=1).play(2)
    assert (after.number, after.to_move, after.passes) == (6, 2, 0)
    assert after.history == (Moved(1, 12, 2, 6),)


# -- pass_turn() -----------------------------------------------------------------------------------


def test_passing_after_the_end_names_pass_the_number_and_why() -> None:
    over = GameState(DD, 7)
    with pytest.raises(GameOverError) as caught:
        over.pass_turn()
    assert (caught.value.value, caught.value.number, caught.value.reason) == ("pass", 7, "the game is over")
    assert str(caught.value) == "Cannot play 'pass' from 7: the game is over."


def test_passing_with_a_legal_move_is_refused_with_the_books_reason() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        new_game("number-factor", 12).pass_turn()
    assert type(caught.value) is IllegalMoveError
    assert (caught.value.value, caught.value.number) == ("pass", 12)
    assert caught.value.reason == "passing is only allowed with no legal move"
    with pytest.raises(IllegalMoveError) as caught:
        new_game("divisor-duel", 12).pass_turn()
    assert caught.value.reason == "Divisor Duel has no passing"


def test_two_passes_end_number_factor() -> None:
    first = GameState(NF, 7).pass_turn()
    assert (first.to_move, first.passes, first.is_over) == (2, 1, False)
    second = first.pass_turn()
    assert (second.to_move, second.passes, second.ending) == (1, 2, "passes")
    assert second.history == (Passed(1, 7), Passed(2, 7))


# -- attempt(): the books' invalid-move rules ------------------------------------------------------


def test_attempt_plays_a_legal_move_under_either_rule() -> None:
    retry = new_game("divisor-duel", 12).attempt(np.int64(6))
    assert (retry.number, retry.to_move) == (6, 2)
    assert retry.history == (Moved(1, 12, 6, 6),) and type(retry.history[0].divisor) is int
    lose_turn = new_game("number-factor", 12).attempt(2)
    assert (lose_turn.number, lose_turn.to_move) == (6, 2)
    assert lose_turn.history == (Moved(1, 12, 2, 6),)


def test_a_non_number_is_refused_with_its_own_reason() -> None:
    game = new_game("number-factor", 12)
    with pytest.raises(IllegalMoveError) as caught:
        game.attempt("7")
    assert type(caught.value) is IllegalMoveError
    assert (caught.value.value, caught.value.number) == ("7", 12)
    assert caught.value.reason == "a move is a whole number, not str"
    assert str(caught.value) == "Cannot play '7' from 12: a move is a whole number, not str."


def test_a_non_number_after_the_end_is_game_over() -> None:
    over = GameState(NF, 7, passes=2)
    with pytest.raises(GameOverError) as caught:
        over.attempt("3")
    assert (caught.value.value, caught.value.number, caught.value.reason) == ("3", 7, "the game is over")


def test_a_whole_number_after_the_end_is_game_over_not_a_lost_turn() -> None:
    over = GameState(NF, 7, passes=2)
    with pytest.raises(GameOverError) as caught:
        over.attempt(3)
    assert (caught.value.value, caught.value.number, caught.value.reason) == (3, 7, "the game is over")


def test_number_factors_lost_turn_is_recorded_word_for_word() -> None:
    after = new_game("number-factor", 12).attempt(5)
    assert (after.number, after.to_move, after.passes) == (12, 2, 0)
    assert after.history == (LostTurn(1, 12, 5, "5 does not divide 12"),)
    # A lost turn is not a pass: it ends a run of passes (hand-made state with one pass).
    assert GameState(NF, 12, passes=1).attempt(5).passes == 0


def test_divisor_duel_asks_again() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        new_game("divisor-duel", 12).attempt(5)
    assert type(caught.value) is IllegalMoveError and caught.value.reason == "5 does not divide 12"


# -- display ---------------------------------------------------------------------------------------


def test_repr_says_over_only_at_the_end() -> None:
    assert repr(new_game("divisor-duel", 12)) == "GameState('divisor-duel', number=12, to_move=1, moves=0)"
    over = new_game("divisor-duel", 12).play(6).play(3)  # 12 -> 6 -> 3, a prime: player 1 is stuck
    assert repr(over) == "GameState('divisor-duel', number=3, to_move=1, moves=2, over)"


def test_transcript_passes_the_computers_name_for_you() -> None:
    # Number Factor's book says "You chose 2." for each move; a computer player's name goes there instead.
    end = new_game("number-factor", 12).play(2).play(2)  # 12 -> 6 -> 3
    text = end.transcript(names=("Ana", "Ben"), you=("You", "Computer"))
    assert "You chose 2. Calculating 12 ÷ 2...\nNew N is 6." in text
    assert "Computer chose 2. Calculating 6 ÷ 2...\nNew N is 3." in text


def test_signals_show_their_names() -> None:
    assert (repr(WAIT), repr(PASS)) == ("WAIT", "PASS")
    assert (WAIT.name, PASS.name) == ("WAIT", "PASS")
    assert repr(Signal("RESIGN")) == "RESIGN"  # built here, not at import time (mutmut can only change this one)
