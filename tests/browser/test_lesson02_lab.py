"""Lesson 02 in a real JupyterLab: run every cell, then beat the perfect computer on the lesson's own board."""

from __future__ import annotations

import time
from typing import Any

from duel_lessons.engine.rules import DIVISOR_DUEL
from duel_lessons.solving.closed_forms import closed_form

from conftest import Lab
from harness import open_and_run, play_to_a_win, screenshot, shown_number

LESSON = "02-play-divisor-duel.ipynb"


def test_lesson02_beat_the_perfect_computer(lab: Lab, page: Any) -> None:
    t0 = time.monotonic()
    assert (lab.root / LESSON).is_file(), "the lab fixture copies notebooks/ at session start"
    open_and_run(lab, page, LESSON)

    # The lesson shows two boards: first the hot-seat one (a friend), then the computer.
    boards = page.locator(".duel-board")
    computer = boards.nth(1)
    computer.wait_for()
    assert boards.count() == 2
    assert boards.nth(0).locator(".duel-opponent select").input_value() == "a friend (take turns)"
    assert computer.locator(".duel-opponent select").input_value() == "the computer"
    assert computer.locator(".duel-level select").input_value() == "perfect"
    computer.scroll_into_view_if_needed()
    computer.locator(".dg-turn", has_text="Your turn").wait_for()
    assert shown_number(computer) == 60
    t_rendered = time.monotonic()

    # Play the winning move from the proved closed form, computed from the number on the board.
    rule = closed_form(DIVISOR_DUEL)
    assert rule is not None
    moves = play_to_a_win(computer, rule.winning_move)
    computer.locator(".dg-result").scroll_into_view_if_needed()
    screenshot(page, "lesson02-won")

    # The lesson's replay of book 000's example game printed its record, ending as the book does.
    cell = page.locator(".jp-CodeCell", has_text="for d in [15, 15, 15, 5, 5]")
    cell.scroll_into_view_if_needed()  # Lab renders only the cells near the view
    replay = cell.locator(".jp-OutputArea-output", has_text="Subtracting 5 from 10. New N is 5.")
    replay.wait_for()
    assert "Subtracting 5 from 10. New N is 5." in (replay.text_content() or "")
    assert "No valid moves left. Player 1 wins!" in (replay.text_content() or "")
    print(
        f"lesson 02 in Lab: board after {t_rendered - t0:.1f} s, won in {moves} moves, "
        f"total {time.monotonic() - t0:.1f} s"
    )
