"""SumBoard: handler-level tests (buttons are clicked, the board is read back)."""

from __future__ import annotations

import pytest

from duel_lessons.engine.rules import DuelError
from duel_lessons.play.sums import outcome
from duel_lessons.views.sum_widgets import SumBoard


def click(board: SumBoard, component: int, divisor: int) -> None:
    """Click the move button of ``divisor`` in ``component`` (counted from 1, as on the board)."""
    for button in board.move_buttons[component - 1]:
        if f"sum-move-{component}-{divisor}" in button._dom_classes:
            button.click()
            return
    raise AssertionError(f"no button {divisor} in component {component}")


def test_one_row_of_buttons_per_component() -> None:
    board = SumBoard([4, "division-duel:18", "factor-duel:5"])
    labels = [[b.description for b in row] for row in board.move_buttons]
    # Each button names its number, as the game board's cards do.
    assert labels == [["4 − 2 = 2"], ["18 ÷ 2 = 9", "18 ÷ 3 = 6", "18 ÷ 6 = 3", "18 ÷ 9 = 2"], []]
    assert len(board.rows_box.children) == 3
    assert "finished" in board.rows_box.children[2].children[1].value
    assert "Player 1's turn" in board.status_text


def test_hot_seat_game_with_clicks() -> None:
    board = SumBoard([4, 6])
    click(board, 1, 2)
    assert board.state.numbers == (2, 6) and "Player 2's turn" in board.status_text
    click(board, 2, 3)
    assert board.state.is_over and board.state.winner == 2
    assert board.status_text == "Game over: Player 1 has no move in any component. Player 2 wins!"
    assert "sum-over" in board.status_html.value
    history = board.history_html.value
    assert "component 1, 4 - 2 = 2" in history and "component 2, 6 - 3 = 3" in history
    board.new_button.click()
    assert board.state.numbers == (4, 6) and not board.state.history


def test_illegal_moves_are_shown_not_raised() -> None:
    board = SumBoard([12, 18])
    board.choose(0, 5)
    assert "Problem:" in board.message_text and "5 does not divide 12" in board.message_text
    assert "component 1" in board.message_text
    board.choose(7, 2)
    assert "only 2 components" in board.message_text
    assert board.state.numbers == (12, 18)


def test_hint_explains_the_xor() -> None:
    board = SumBoard([12, 18, 30])
    board.hint_button.click()
    assert "3 XOR 1 XOR 1 = 3" in board.message_text and "component 1" in board.message_text
    board.choose(0, 3)
    board.hint()
    assert "P-position" in board.message_text


def test_perfect_computer_replies_and_wins_from_n() -> None:
    board = SumBoard([12, 18, 30], opponent="computer", first=2)  # the computer starts from an N-position
    assert board.names == ("Player 1", "Computer")
    assert "The computer played" in board.message_text and outcome(board.state) == "P"
    while not board.state.is_over:
        assert all(not b.disabled for row in board.move_buttons for b in row)
        row = next(r for r in board.move_buttons if r)
        row[0].click()  # the human plays the first button it sees
    assert board.state.winner == 2 and "the computer wins" in board.status_text


def test_computer_turn_and_bad_settings() -> None:
    board = SumBoard([4, 6], opponent="computer", level="greedy")
    click(board, 1, 2)  # the greedy computer replies 6 - 3 = 3 and wins
    assert board.state.is_over and "the computer wins" in board.status_text
    board.choose(1, 2)
    assert "The game is over." in board.message_text
    with pytest.raises(DuelError, match="opponent"):
        SumBoard([4], opponent="robot")
    with pytest.raises(DuelError, match="7 is prime"):
        SumBoard(["division-duel:7"])
    with pytest.raises(DuelError, match=r"Grundy value is (unknown|not known)"):
        SumBoard([99_999_999, 12], opponent="computer")
    friendly = SumBoard([99_999_999, 12])
    friendly.hint()
    assert "No hint here" in friendly.message_text and "above the" in friendly.message_text


def test_hint_switch_hides_the_xor_rule() -> None:
    board = SumBoard([12, 18], hints=False)
    assert board.hint_button.layout.display == "none"
    board.hint()
    assert "XOR" not in board.message.value and "switched off" in board.message.value
    shown = SumBoard([12, 18])
    shown.hint()
    assert "XOR" in shown.message.value
