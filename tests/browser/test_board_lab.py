"""The game board in a real JupyterLab: beat the perfect computer by following the board's P/N labels."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from harness import run_all, screenshot

from conftest import Lab
from duel_lessons import coach
from duel_lessons.game import GameState
from duel_lessons.rules import DIVISOR_DUEL

NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "board",
            "metadata": {},
            "outputs": [],
            "source": ["from duel_lessons.widgets import GameBoard\n", "\n", "board = GameBoard()\n", "board"],
        }
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def shown_number(page: Any) -> int:
    """The current number in large type on the board."""
    text = page.locator(".duel-number").inner_text()
    return int(re.findall(r"\d+", text)[-1])


def wait_for_my_turn_or_end(page: Any, before: int) -> None:
    """Wait until the computer has replied (the number changed) or the game is over."""
    status = page.locator(".duel-status")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = status.inner_text()
        if "Game over" in text or ("Your turn" in text and shown_number(page) != before):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"The board did not answer: {status.inner_text()!r}")


def test_beat_the_perfect_computer_in_lab(lab: Lab, page: Any) -> None:
    t0 = time.monotonic()
    page.set_default_timeout(30_000)
    (lab.root / "board.ipynb").write_text(json.dumps(NOTEBOOK))
    lab.start_session("board.ipynb")
    page.goto(lab.notebook_url("board.ipynb"))
    run_all(page)
    page.locator(".duel-board").wait_for()
    t_rendered = time.monotonic()

    # Settings: play the perfect computer from 60 (a winning start: 60 is an N-position).
    page.locator(".duel-opponent select").select_option(label="the computer")
    page.locator(".duel-level select").select_option(label="perfect")
    start = page.locator(".duel-start input")
    start.fill("60")
    page.locator(".duel-new").click()
    page.locator(".duel-message", has_text="New game of Divisor Duel from 60").wait_for()
    page.locator(".duel-status", has_text="Your turn").wait_for()
    page.locator(".duel-pn").click()
    page.locator(".duel-move", has_text="(P)").first.wait_for()

    moves = 0
    while "Game over" not in page.locator(".duel-status").inner_text():
        n = shown_number(page)
        best = page.locator(".duel-move", has_text="(P)").first
        d = int(best.inner_text().split("→")[0])
        assert d in coach.winning_moves(GameState(DIVISOR_DUEL, n)), (n, d)
        if moves == 2:
            screenshot(page, "board-lab-playing")
        best.click()
        moves += 1
        wait_for_my_turn_or_end(page, n)
        assert moves < 30
    status = page.locator(".duel-status").inner_text()
    assert "You win!" in status, status
    assert "You 1 – 0 Computer" in page.locator(".duel-score").inner_text()
    page.locator(".duel-board").scroll_into_view_if_needed()
    screenshot(page, "board-lab-won")
    t_end = time.monotonic()
    print(f"board in Lab: rendered after {t_rendered - t0:.1f} s, won in {moves} moves, total {t_end - t0:.1f} s")
