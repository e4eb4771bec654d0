"""The game board in a real JupyterLab and in Voilà: whole games by mouse and by keyboard alone.

Key presses are counted: a 5-move game (Divisor Duel from 30 against the perfect computer) must take at most
15, Tabs to reach the board included.  Screenshots at 1280×720 and 800×600 go to test-artifacts/.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import DIVISOR_DUEL
from duel_lessons.play import coach

from conftest import Lab
from harness import (
    Keys,
    code,
    notebook,
    open_and_run,
    play_by_keyboard,
    play_to_a_win,
    screenshots,
    shown_number,
    tab_to_board,
)

APP = Path(__file__).resolve().parents[2] / "notebooks" / "play.ipynb"
KEYBOARD_START = 30  # against the perfect computer, the winner plays 5 moves from 30


def shortest_win(n: int) -> int:
    """The winning divisor with the fewest digits (fewest key presses)."""
    return min(coach.winning_moves(GameState(DIVISOR_DUEL, n)), key=lambda d: (len(str(d)), d))


KEYBOARD_NOTEBOOK = notebook(
    code("from duel_lessons.views.widgets import GameBoard", "",
         f'GameBoard("divisor-duel", {KEYBOARD_START}, opponent="computer", level="perfect")'),
)

LAB_NOTEBOOK = notebook(
    code("from duel_lessons.views.widgets import FollowGame, GameBoard, PNExplorer, VariantBuilder", "",
         f'GameBoard("divisor-duel", {KEYBOARD_START}, opponent="computer", level="perfect", delay=0.3)'),
    code('board = GameBoard("divisor-duel", 60, opponent="computer", level="perfect", delay=0.2)', "board"),
    code('GameBoard("number-factor", 30, opponent="computer", first=2, large=True)'),
    code("PNExplorer()"),
    code("FollowGame()"),
    code("VariantBuilder(board)"),
)


def keyboard_game(page: Any, board: Any, where: str) -> tuple[int, int]:
    """Reach the board with Tab, win by typing; (moves, key presses)."""
    keys = Keys(page)
    tab_to_board(keys)
    tabs = keys.count
    moves = play_by_keyboard(board, keys, shortest_win)
    assert moves == 5, f"expected a 5-move game from {KEYBOARD_START}, got {moves}"
    assert keys.count <= 15, f"{where}: a 5-move game took {keys.count} key presses ({tabs} Tabs)"
    # After the game, focus is on the board's New game button: Enter starts the next game.
    assert "dg-again" in keys.focused()
    return moves, keys.count


def test_board_in_lab_mouse_and_keyboard(lab: Lab, page: Any) -> None:
    t0 = time.monotonic()
    (lab.root / "board.ipynb").write_text(json.dumps(LAB_NOTEBOOK))
    open_and_run(lab, page, "board.ipynb")
    boards = page.locator(".duel-board")
    first = boards.nth(0)
    first.locator(".dg-card").first.wait_for()
    t_rendered = time.monotonic()

    # Keyboard only: from the notebook, Tab to the first board and win a 5-move game.
    first.locator(".dg-number").click()  # a student clicks the board once; then only keys
    moves, presses = keyboard_game(page, first, "Lab")
    screenshots(page, "lab-board-keyboard-won", first.locator(".dg-result"))

    # Mouse: the second board, with P/N shown; the winning card is labelled P, as the coach says.
    board = boards.nth(1)
    board.scroll_into_view_if_needed()
    board.locator(".duel-pn").click()
    board.locator(".dg-tag-P").first.wait_for()

    def check_and_photograph(played: int, n: int, d: int) -> None:
        assert "P" in board.locator(f".duel-move-{d} .dg-card-tag").inner_text()
        if played == 1:
            screenshots(page, "lab-board-playing", board)

    mouse_moves = play_to_a_win(board, lambda n: coach.winning_moves(GameState(DIVISOR_DUEL, n))[0],
                                check_and_photograph)  # fmt: skip
    assert "You 1 – 0 Computer" in board.locator(".dg-score").inner_text()
    board.locator(".duel-explain").click()
    board.locator(".duel-coach", has_text="Explain").wait_for()
    screenshots(page, "lab-board-won", board.locator(".dg-result"))

    # Number Factor in large type: the computer moved first; the board waits for the student.
    nf = boards.nth(2)
    nf.scroll_into_view_if_needed()
    nf.locator(".dg-turn", has_text="Your turn").wait_for()
    screenshots(page, "lab-number-factor-large", nf)

    page.locator(".duel-plot img").wait_for()
    screenshots(page, "lab-explorer", page.locator(".duel-explorer"))

    # The builder: misère Divisor Duel plays on the board above.
    builder = page.locator(".duel-variant-builder")
    builder.scroll_into_view_if_needed()
    builder.locator(".widget-checkbox", has_text="misère").locator("input").check()
    builder.locator(".duel-play-it").click()
    builder.locator(".duel-message", has_text="Now playing Divisor Duel, misère, starting at 60").wait_for()
    board.locator(".dg-title", has_text="Divisor Duel, misère").wait_for()
    screenshots(page, "lab-builder", builder)
    print(f"\nLab: board after {t_rendered - t0:.1f} s; keyboard: {moves} moves in {presses} key presses; "
          f"mouse: {mouse_moves} moves; total {time.monotonic() - t0:.1f} s")


def test_keyboard_game_in_voila(voila_server: Any, page: Any, tmp_path: Path) -> None:
    t0 = time.monotonic()
    path = tmp_path / "keyboard.ipynb"
    path.write_text(json.dumps(KEYBOARD_NOTEBOOK))
    page.goto(voila_server(path) + "/")
    board = page.locator(".duel-board").first
    board.locator(".dg-card").first.wait_for(timeout=90_000)
    assert shown_number(board) == KEYBOARD_START
    moves, presses = keyboard_game(page, board, "Voilà")
    screenshots(page, "voila-keyboard-won", board.locator(".dg-result"))
    print(f"\nVoilà keyboard: {moves} moves in {presses} key presses, {time.monotonic() - t0:.1f} s")


def test_play_app_in_voila_by_mouse(voila_server: Any, page: Any) -> None:
    t0 = time.monotonic()
    page.goto(voila_server(APP) + "/")
    board = page.locator(".duel-board").first
    board.locator(".dg-card").first.wait_for(timeout=90_000)
    text = page.locator("body").inner_text()
    assert "import" not in text, "Voilà shows code"
    assert "open it with Voil" not in text
    screenshots(page, "voila-app-start")
    moves = play_to_a_win(board, lambda n: coach.winning_moves(GameState(DIVISOR_DUEL, n))[0])
    screenshots(page, "voila-app-won", board.locator(".dg-result"))
    print(f"\nVoilà app: won in {moves} moves by mouse, {time.monotonic() - t0:.1f} s")
