"""The terminal transcript (duel_lessons/engine/transcript.py), word for word, written by hand.

Book 003 (Factor Duel) shows its games as lists of turns, not as a terminal session: its worked
example 2 is written out here in the book's wording (``Proper divisors of 30: ...``, ``Player 1
subtracts 15: 30 - 15 = 15``).  The other endings (stuck, misère, reaching a losing number, a start
on a prime, a pass, a lost turn) are written out from the default wording in rules.Wording.
Books 000, 002 and 004 are compared with their own transcripts in tests/test_rulebooks.py.
"""

from __future__ import annotations

from duel_lessons.engine.events import LostTurn
from duel_lessons.engine.game import GameState, new_game
from duel_lessons.engine.rules import Rules, Wording, get_rules
from duel_lessons.engine.transcript import event_lines, prompt, render, stuck_reason, turn_lines

PLAIN = Rules(name="plain-test", title="Plain")  # every template is rules.Wording's default


def test_book_003_example_2_in_the_books_words() -> None:
    state = new_game("factor-duel", 30).play(15).play(5).play(5)
    assert state.transcript() == (
        "Game Start! Starting Number: 30\n"
        "\n"
        "Player 1's turn.\n"
        "Current number is 30.\n"
        "Proper divisors of 30: 1, 2, 3, 5, 6, 10, 15\n"
        "Enter the divisor to subtract: 15\n"
        "Player 1 subtracts 15: 30 - 15 = 15\n"
        "\n"
        "Player 2's turn.\n"
        "Current number is 15.\n"
        "Proper divisors of 15: 1, 3, 5\n"
        "Enter the divisor to subtract: 5\n"
        "Player 2 subtracts 5: 15 - 5 = 10\n"
        "\n"
        "Player 1's turn.\n"
        "Current number is 10.\n"
        "Proper divisors of 10: 1, 2, 5\n"
        "Enter the divisor to subtract: 5\n"
        "Player 1 subtracts 5: 10 - 5 = 5\n"
        "\n"
        "Player 1 moved to 5, a prime number. Player 1 wins!\n"
    )


def test_a_prime_start_in_factor_duel() -> None:
    assert new_game("factor-duel", 7).transcript(names=("Ana", "Ben")) == (
        "Game Start! Starting Number: 7\n"
        "\n"
        "Ana's turn.\n"
        "The game starts at 7, a prime number, so Ana cannot move. Ben wins!\n"
    )


def test_stuck_in_the_default_wording_normal_and_misere() -> None:
    state = GameState(PLAIN, 12).play(6).play(3)
    game = (
        "Game start! Plain. Current number: 12\n"
        "\n"
        "Ana's turn.\n"
        "Current number: 12\n"
        "Allowed divisors of 12: 2, 3, 4, 6\n"
        "Ana, choose a divisor: 6\n"
        "Ana plays 6: 12 - 6 = 6.\n"
        "\n"
        "Ben's turn.\n"
        "Current number: 6\n"
        "Allowed divisors of 6: 2, 3\n"
        "Ben, choose a divisor: 3\n"
        "Ben plays 3: 6 - 3 = 3.\n"
        "\n"
        "Ana's turn.\n"
        "Current number: 3\n"
        "Ana has no legal move from 3. "
    )
    assert render(state, ("Ana", "Ben")) == game + "Ben wins!\n"
    misere = GameState(Rules(name="plain-misere", title="Plain", last_mover_wins=False), 12).play(6).play(3)
    assert render(misere, ("Ana", "Ben")) == game + "Ana wins!\n"


def test_reaching_a_losing_number_is_explained() -> None:
    rules = Rules(name="plain-one-loses", title="Plain", allow_one=True, lose_on_reaching="one")
    state = GameState(rules, 3).play(1).play(1)  # 3 -> 2 -> 1: player 2 moved to 1
    assert state.transcript().splitlines()[-1] == "Player 2 moved to 1. Whoever moves there loses. Player 1 wins!"


def test_division_moves_show_the_division_sign() -> None:
    state = GameState(Rules(name="plain-divide", title="Plain", move="divide"), 12).play(2)
    assert event_lines(state.history[0], state.rules, ("Ana", "Ben")) == ["Ana plays 2: 12 ÷ 2 = 6."]


def test_turn_lines_and_prompt() -> None:
    state = GameState(PLAIN, 12, to_move=2)
    assert turn_lines(state, ("Ana", "Ben")) == [
        "Ben's turn.",
        "Current number: 12",
        "Allowed divisors of 12: 2, 3, 4, 6",
    ]
    assert prompt(state, ("Ana", "Ben")) == "Ben, choose a divisor: "
    book_000 = GameState(get_rules("divisor-duel"), 12)
    assert turn_lines(book_000, ("Ana", "Ben"))[-1] == "Proper divisors of 12: 2,3,4,6"  # the book's own separator


def test_stuck_reasons() -> None:
    assert stuck_reason(PLAIN, 7) == "7 is a prime number. No proper divisors."
    even = Rules(name="plain-even", title="Plain", divisors="even", when_stuck="pass")
    assert stuck_reason(even, 9) == "9 has no allowed divisors (even divisors d with 1 < d < N)."
    passed = GameState(even, 9).pass_turn()
    assert event_lines(passed.history[0], even, ("Ana", "Ben")) == [
        "9 has no allowed divisors (even divisors d with 1 < d < N). Turn passed."
    ]


def test_number_factor_lost_turn_in_the_books_words() -> None:
    state = new_game("number-factor", 30).attempt(7)
    lines = state.transcript(names=("Ana", "Ben")).splitlines()
    assert lines[-2:] == [
        "Choose a proper divisor to divide N: 7",
        "7 does not divide 30. Invalid move: Ana loses the turn.",
    ]
    assert lines[0] == "Welcome to Number Factor!"


def test_you_names_the_person_at_the_keyboard() -> None:
    state = new_game("number-factor", 30).play(5).play(2)
    text = render(state, ("Ana", "Ben"), you=("You", "Computer"))
    assert "You chose 5. Calculating 30 ÷ 5...\nNew N is 6." in text
    assert "Computer chose 2. Calculating 6 ÷ 2...\nNew N is 3." in text
    assert "You chose 2" not in text and "Computer chose 5" not in text


def test_custom_wording_fills_every_placeholder() -> None:
    wording = Wording(
        prompt="{player}, take a divisor of {n}: ",
        end_stuck="{why} {winner} beats {loser} at {n}!",
        end_reached="{winner} wins at {n}; {loser} loses.",
    )
    rules = Rules(name="plain-words", title="Plain", wording=wording)
    state = GameState(rules, 12)
    assert prompt(state, ("Ana", "Ben")) == "Ana, take a divisor of 12: "
    end = state.play(6).play(3)
    assert render(end, ("Ana", "Ben")).splitlines()[-1] == "Ana has no legal move from 3. Ben beats Ana at 3!"
    reached = GameState(Rules(name="plain-reach", title="Plain", win_on_reaching="prime", wording=wording), 12)
    assert render(reached.play(6).play(3), ("Ana", "Ben")).splitlines()[-1] == "Ben wins at 3; Ana loses."


def test_events_in_custom_words() -> None:
    wording = Wording(
        passed="{player} passes at {n}. ({why})",
        lost_turn="{why} {player} loses the turn at {n}.",
        moved="{you} took {d} from {n}. ",
        end_stuck="{why} Winner: {winner}",
    )
    rules = Rules(name="plain-events", title="Plain", divisors="even", when_stuck="pass", wording=wording)
    passed = GameState(rules, 9).pass_turn().history[0]
    assert event_lines(passed, rules, ("Ana", "Ben")) == [
        "Ana passes at 9. (9 has no allowed divisors (even divisors d with 1 < d < N).)"
    ]
    lost = LostTurn(2, 12, 5, "five is not even")
    assert event_lines(lost, rules, ("Ana", "Ben")) == ["Five is not even. Ben loses the turn at 12."]
    moved = GameState(rules, 12).play(2)
    assert event_lines(moved.history[0], rules, ("Ana", "Ben")) == ["You took 2 from 12. "]
    assert render(moved, ("Ana", "Ben")).endswith("You took 2 from 12. \n")  # the book's own words, kept whole
    over = GameState(Rules(name="plain-events-end", title="Plain", wording=wording), 12).play(6).play(3)
    assert render(over, ("MAX", "REX"), you=("MAX", "REX")).endswith("Winner: REX\n")


def test_event_lines_say_you_by_default() -> None:
    moved = new_game("number-factor", 30).play(5).history[0]
    assert event_lines(moved, get_rules("number-factor"), ("Ana", "Ben")) == [
        "You chose 5. Calculating 30 ÷ 5...",
        "New N is 6.",
    ]
