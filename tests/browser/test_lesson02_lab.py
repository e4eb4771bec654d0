"""Lesson 02 in a real JupyterLab: run every cell, then beat the perfect computer on the lesson's own board."""

from __future__ import annotations

import re
import time
from typing import Any

from duel_lessons.closed_forms import closed_form
from duel_lessons.rules import DIVISOR_DUEL

from conftest import Lab
from harness import run_all, screenshot

LESSON = "02-play-divisor-duel.ipynb"


def shown_number(board: Any) -> int:
    """The current number in large type on a board (waiting while the widget redraws it)."""
    deadline = time.monotonic() + 10
    while True:
        found = re.findall(r"\d+", board.locator(".duel-number").inner_text())
        if found or time.monotonic() > deadline:
            return int(found[-1])
        board.page.wait_for_timeout(50)


def buttons_match(board: Any, n: int) -> bool:
    """Whether the move buttons ("15 → 45") are the moves from n (the widgets update one by one)."""
    first = board.locator(".duel-move").first
    if not first.count():
        return False
    numbers = [int(x) for x in re.findall(r"\d+", first.inner_text())]
    return len(numbers) >= 2 and numbers[0] + numbers[1] == n


def wait_for_reply(board: Any, before: int, mine: int) -> None:
    """After my move from ``before`` to ``mine``: wait for the computer's reply, or for the end."""
    status = board.locator(".duel-status")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        text, n = status.inner_text(), shown_number(board)
        if "Game over" in text and n == mine:
            return
        if "Your turn" in text and n not in (before, mine) and buttons_match(board, n):
            return
        board.page.wait_for_timeout(100)
    raise AssertionError(f"The board did not answer: {status.inner_text()!r}")


def test_lesson02_beat_the_perfect_computer(lab: Lab, page: Any) -> None:
    t0 = time.monotonic()
    assert (lab.root / LESSON).is_file(), "the lab fixture copies notebooks/ at session start"
    page.set_default_timeout(30_000)
    lab.start_session(LESSON)
    page.goto(lab.notebook_url(LESSON))
    run_all(page)

    # The lesson shows two boards: first the hot-seat one (a friend), then the computer.
    boards = page.locator(".duel-board")
    computer = boards.nth(1)
    computer.wait_for()
    assert boards.count() == 2
    assert boards.nth(0).locator(".duel-opponent select").input_value() == "a friend (take turns)"
    assert computer.locator(".duel-opponent select").input_value() == "the computer"
    assert computer.locator(".duel-level select").input_value() == "perfect"
    computer.scroll_into_view_if_needed()
    computer.locator(".duel-status", has_text="Your turn").wait_for()
    assert shown_number(computer) == 60
    t_rendered = time.monotonic()

    # Play the winning move from the proved closed form, computed from the number on the board.
    rule = closed_form(DIVISOR_DUEL)
    assert rule is not None
    moves = 0
    while "Game over" not in computer.locator(".duel-status").inner_text():
        n = shown_number(computer)
        d = rule.winning_move(n)
        assert d is not None, f"{n} should be a winning position for me"
        computer.locator(f".duel-move-{d}").click()
        moves += 1
        wait_for_reply(computer, n, n - d)
        assert moves < 30
    status = computer.locator(".duel-status").inner_text()
    assert "You win!" in status, status
    assert "You 1 – 0 Computer" in computer.locator(".duel-score").inner_text()
    computer.locator(".duel-status").scroll_into_view_if_needed()
    screenshot(page, "lesson02-won")

    # The lesson's replay of book 000's example game printed its record, ending as the book does.
    replay = page.locator(".jp-CodeCell", has_text="for d in [15, 15, 15, 5, 5]").locator(".jp-OutputArea-output")
    assert "Subtracting 5 from 10. New N is 5." in replay.inner_text()
    assert "No valid moves left. Player 1 wins!" in replay.inner_text()
    print(
        f"lesson 02 in Lab: board after {t_rendered - t0:.1f} s, won in {moves} moves, "
        f"total {time.monotonic() - t0:.1f} s"
    )
