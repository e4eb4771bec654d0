"""The game app in Voila: code hidden, a whole game against the perfect computer played to a win."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import DIVISOR_DUEL
from duel_lessons.play import coach

from harness import play_to_a_win, screenshot

APP = Path(__file__).resolve().parents[2] / "notebooks" / "play.ipynb"


def test_play_a_game_to_the_end_in_voila(voila_server: Any, page: Any) -> None:
    t0 = time.monotonic()
    page.goto(voila_server(APP) + "/")
    board = page.locator(".duel-board").first
    board.wait_for(timeout=90_000)
    assert "import" not in page.locator("body").inner_text(), "Voila shows code"
    board.locator(".duel-status", has_text="Your turn").wait_for()
    screenshot(page, "voila-app-start")
    moves = play_to_a_win(board, lambda n: coach.winning_moves(GameState(DIVISOR_DUEL, n))[0])
    screenshot(page, "voila-app-won")
    print(f"Voila app: won in {moves} moves, {time.monotonic() - t0:.1f} s")
