"""Issue 29, point 3: in a student's lesson, a board's Show P/N, Explain and last hint wait for the guess.

Lesson 04's guess "big" and its conjecture test "loses" state its discovery (the P-positions); a board
in that lesson shows no P/N label, no explanation and no final hint until both are made, says what
opens them, and opens them once they are.  A teacher's lesson, or no lesson, locks nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from duel_lessons.teaching.lesson import Lesson, forget
from duel_lessons.views import tool_lock
from duel_lessons.views.board import GameBoard

PARAMS = {"rules": "divisor-duel", "upto": 10_000, "big": [999, 1000, 1024, 2048], "win_from": 96, "all_from": 1024}


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    forget("04")
    yield
    forget("04")
    tool_lock.set_lock(None)


def tags(board: GameBoard) -> dict[int, str]:
    frame: dict[str, Any] = board.view.frames[-1]
    return {card["d"]: card["tag"] for card in frame["cards"]}


def test_a_students_board_shows_no_pn_until_the_guesses_are_made() -> None:
    lesson = Lesson("04", student=True, **PARAMS)
    board = GameBoard("divisor-duel", 60, show_pn=True, delay=0)
    board.pn_toggle.value = True  # as a student who edits the cell, or clicks the toggle
    assert not any(tags(board).values()) and board.pn_toggle.value is False
    assert 'lesson.guess("big", ...)' in board.message_text
    board.explain()
    assert board.coach_text == "" and "🔒 Explain" in board.message_text
    for _ in range(3):
        board.hint()
    assert "🔒 The last hint" in board.message_text and "Hint" in board.coach_text  # hints 1 and 2 are questions
    lesson.guess("big", [999])
    board.pn_toggle.value = True
    assert "lesson.test(...)" in board.message_text and not any(tags(board).values())  # the rule is still to test
    lesson.test(lambda n: n % 2 == 1)  # refuted at 2: a test that fails opens nothing
    board.pn_toggle.value = True
    assert not any(tags(board).values())
    lesson.test(lambda n: n % 2 == 1 or (n & (n - 1) == 0 and n.bit_length() % 2 == 0))  # 2, 8, 32, ...: 2^odd
    board.pn_toggle.value = True
    # 60 − 3 = 57, 60 − 5 = 55 and 60 − 15 = 45 are odd: P-positions, by hand
    assert {d for d, tag in tags(board).items() if tag == "P"} == {3, 5, 15}
    board.explain()
    assert board.coach_text.startswith("Explain: ")


def test_a_teachers_lesson_or_no_lesson_locks_nothing() -> None:
    Lesson("04", **PARAMS)
    board = GameBoard("divisor-duel", 60, delay=0)
    board.pn_toggle.value = True
    assert {d for d, tag in tags(board).items() if tag == "P"} == {3, 5, 15}
    tool_lock.set_lock(None)
    assert tool_lock.locked("show_pn") is None
