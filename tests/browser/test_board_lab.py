"""The game board in a real JupyterLab: beat the perfect computer by following the board's P/N labels."""

from __future__ import annotations

import json
import time
from typing import Any

from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import DIVISOR_DUEL
from duel_lessons.play import coach

from conftest import Lab
from harness import open_and_run, play_to_a_win, screenshot


def code(*lines: str) -> dict[str, Any]:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": "\n".join(lines)}


NOTEBOOK = {
    "cells": [
        code("from duel_lessons.views.widgets import FollowGame, GameBoard, PNExplorer, VariantBuilder", "",
             "board = GameBoard()", "board"),
        code('GameBoard("number-factor", 30, opponent="computer", first=2)'),
        code("PNExplorer()"),
        code("FollowGame()"),
        code("VariantBuilder(board)"),
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 4,
}


def test_beat_the_perfect_computer_in_lab(lab: Lab, page: Any) -> None:
    t0 = time.monotonic()
    (lab.root / "board.ipynb").write_text(json.dumps(NOTEBOOK))
    open_and_run(lab, page, "board.ipynb")
    board = page.locator(".duel-board").first
    board.wait_for()
    t_rendered = time.monotonic()

    # Settings: play the perfect computer from 60 (a winning start: 60 is an N-position).
    board.locator(".duel-opponent select").select_option(label="the computer")
    board.locator(".duel-level select").select_option(label="perfect")
    start = board.locator(".duel-start input")
    start.fill("60")
    board.locator(".duel-new").click()
    board.locator(".duel-message", has_text="New game of Divisor Duel from 60").wait_for()
    board.locator(".duel-status", has_text="Your turn").wait_for()
    board.locator(".duel-pn").click()
    board.locator(".duel-move", has_text="(P)").first.wait_for()

    def check_and_photograph(moves: int, n: int, d: int) -> None:
        # The board's advice: the winning move is labelled (P), agreeing with the coach.
        board.locator(f".duel-move-{d}", has_text=f"{d} → {n - d} (P)").wait_for()
        if moves == 2:
            screenshot(page, "board-lab-playing")

    moves = play_to_a_win(board, lambda n: coach.winning_moves(GameState(DIVISOR_DUEL, n))[0], check_and_photograph)
    board.scroll_into_view_if_needed()
    screenshot(page, "board-lab-won")
    # The other widgets render too (looked at by eye in the screenshots).
    nf = page.locator(".duel-board").nth(1)
    nf.locator(".duel-pass:not([disabled])").wait_for()
    nf.scroll_into_view_if_needed()
    screenshot(page, "board-lab-number-factor-pass")
    page.locator(".duel-plot img").wait_for()
    page.locator(".duel-explorer").scroll_into_view_if_needed()
    screenshot(page, "board-lab-explorer")
    page.locator(".duel-follow-view", has_text="Position 0").wait_for()
    builder = page.locator(".duel-variant-builder")
    builder.locator(".duel-build").click()
    builder.locator(".duel-variant-out img").wait_for()
    builder.scroll_into_view_if_needed()
    screenshot(page, "board-lab-builder")
    t_end = time.monotonic()
    print(f"board in Lab: rendered after {t_rendered - t0:.1f} s, won in {moves} moves, total {t_end - t0:.1f} s")
