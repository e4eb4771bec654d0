"""The game board in a real JupyterLab and in Voilà: whole games by mouse and by keyboard alone.

Key presses are counted: a 5-move game (Divisor Duel from 30 against the perfect computer) must take at most
15, Tabs to reach the board included.  Screenshots at 1280×720 and 800×600 go to test-artifacts/.
"""

from __future__ import annotations

import time
from typing import Any

from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import DIVISOR_DUEL
from duel_lessons.play import coach
from duel_lessons.solving.oracle import oracle
from duel_lessons.views.plot_style import DPI, NORMAL

from conftest import Voila
from harness import (
    KEYBOARD_START,
    PAGE_SAFETY_NET_MS,
    SIZES,
    Keys,
    play_by_keyboard,
    play_to_a_win,
    screenshots,
    shown_number,
    tab_to_board,
)


def shortest_win(n: int) -> int:
    """The winning divisor with the fewest digits (fewest key presses)."""
    return min(coach.winning_moves(GameState(DIVISOR_DUEL, n)), key=lambda d: (len(str(d)), d))


def quickest_win(n: int) -> int:
    """The winning divisor that ends the game soonest against best defence (the fewest moves to click)."""
    table = oracle(DIVISOR_DUEL)
    return min(coach.winning_moves(GameState(DIVISOR_DUEL, n)), key=lambda d: (table.remoteness(n - d), d))


def keyboard_game(page: Any, board: Any, where: str, first: tuple[str, ...] = ()) -> tuple[int, int]:
    """Press the keys ``first``, reach the board with Tab, win by typing; (moves, key presses)."""
    keys = Keys(page)
    for key in first:
        keys.press(key)
    tab_to_board(keys)
    tabs = keys.count
    moves = play_by_keyboard(board, keys, shortest_win)
    assert moves == 5, f"expected a 5-move game from {KEYBOARD_START}, got {moves}"
    assert keys.count <= 15, f"{where}: a 5-move game took {keys.count} key presses ({tabs} Tabs)"
    # After the game, focus is on the board's New game button: Enter starts the next game.
    assert "dg-again" in keys.focused()
    return moves, keys.count


def test_board_in_lab_mouse_and_keyboard(lab_board: Any) -> None:
    t0, page = time.monotonic(), lab_board
    boards = page.locator(".duel-board")
    keyboard_board = boards.nth(2)  # the last cell: Run All leaves it the active cell, in command mode
    keyboard_board.locator(".dg-card").first.wait_for()
    t_rendered = time.monotonic()
    assert "JupyterLab or Voil" not in page.locator(".jp-Notebook").inner_text(), "the text fallback shows"

    # Keyboard only, as the docs tell a student: run the board's cell with Ctrl+Enter (it stays selected), Esc for
    # command mode, Tab past the cell's toolbar to the cards; then win a 5-move game by typing.
    assert "jp-mod-active" in page.evaluate("document.activeElement.className"), "the last cell has the focus"
    keyboard_board.locator(".dg-root").evaluate("root => root.classList.add('stale')")
    page.keyboard.press("Control+Enter")
    keyboard_board = page.locator(".duel-board").nth(2)
    keyboard_board.locator(".dg-root:not(.stale) .dg-card").first.wait_for()
    moves, presses = keyboard_game(page, keyboard_board, "Lab", first=("Escape",))
    screenshots(page, "lab-board-keyboard-won", keyboard_board.locator(".dg-result"))
    # The focus ring (3 px white, 4 px black, 3 px amber) on the dark New game button and on a plain widget button.
    for css in ("dg-again", "duel-hint"):
        for _ in range(8):
            if css in Keys(page).focused():
                break
            page.keyboard.press("Tab")
        assert css in Keys(page).focused()
        ring = page.evaluate("getComputedStyle(document.activeElement).boxShadow")
        assert all(f"{colour} 0px 0px 0px {px}px" in ring for colour, px in
                   (("rgb(255, 255, 255)", 3), ("rgb(0, 0, 0)", 7), ("rgb(255, 191, 0)", 10))), ring  # fmt: skip
        screenshots(page, f"lab-focus-ring-{css}", keyboard_board.locator(".dg-result"))

    # Mouse: the first board, with P/N shown; the winning card is labelled P, as the coach says.
    board = boards.nth(0)
    board.scroll_into_view_if_needed()
    board.locator(".duel-pn").click()
    board.locator(".dg-tag-P").first.wait_for()

    def check_and_photograph(played: int, n: int, d: int) -> None:
        assert "P" in board.locator(f".duel-move-{d} .dg-card-tag").inner_text()
        if played == 1:
            screenshots(page, "lab-board-playing", board)

    mouse_moves = play_to_a_win(board, quickest_win, check_and_photograph)
    assert "You 1 – 0 Computer" in board.locator(".dg-score").inner_text()
    board.locator(".duel-explain").click()
    board.locator(".duel-coach", has_text="Explain").wait_for()
    screenshots(page, "lab-board-won", board.locator(".dg-result"))

    # Number Factor in large type: the computer moved first; the board waits for the student.
    nf = boards.nth(1)
    nf.scroll_into_view_if_needed()
    nf.locator(".dg-turn", has_text="Your turn").wait_for()
    nf.locator(".dg-message .dg-nowrap", has_text="30 ÷ ").wait_for()  # the computer's move never breaks mid-line
    screenshots(page, "lab-number-factor-large", nf)

    # The explorer shows the plot at its natural size where there is room (Lab's output is 848 px wide at 1280),
    # and in a narrow window shrinks it only while its smallest text stays 10 px or more (then it scrolls).
    plot = page.locator(".duel-plot img")
    plot.scroll_into_view_if_needed()
    plot.wait_for()
    smallest_px = NORMAL.small * DPI / 72
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        shown, natural = plot.evaluate("img => [img.getBoundingClientRect().width, img.naturalWidth]")
        if width == 1280:
            assert natural <= 848 and abs(shown - natural) <= 1, f"plot shown {shown} px wide, drawn {natural} px"
        assert smallest_px * shown / natural >= 9.95, f"{width} px: plot text {smallest_px * shown / natural:.1f} px"
    page.set_viewport_size({"width": 1280, "height": 720})
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


def test_keyboard_game_in_voila(voila: Voila, page: Any) -> None:
    t0 = time.monotonic()
    page.goto(voila.page_url("keyboard.ipynb"))
    board = page.locator(".duel-board").first
    board.locator(".dg-card").first.wait_for(timeout=PAGE_SAFETY_NET_MS)
    assert shown_number(board) == KEYBOARD_START
    moves, presses = keyboard_game(page, board, "Voilà")
    screenshots(page, "voila-keyboard-won", board.locator(".dg-result"))
    print(f"\nVoilà keyboard: {moves} moves in {presses} key presses, {time.monotonic() - t0:.1f} s")


def test_play_app_in_voila_by_mouse(voila: Voila, page: Any) -> None:
    t0 = time.monotonic()
    page.goto(voila.page_url("play.ipynb"))
    board = page.locator(".duel-board").first
    board.locator(".dg-card").first.wait_for(timeout=PAGE_SAFETY_NET_MS)
    text = page.locator("body").inner_text()
    assert "import" not in text, "Voilà shows code"
    assert "JupyterLab or Voil" not in text, "the text fallback shows where the widgets run"
    assert "open it with Voil" not in text
    screenshots(page, "voila-app-start")
    moves = play_to_a_win(board, quickest_win)
    screenshots(page, "voila-app-won", board.locator(".dg-result"))
    # The app's P/N explorer tab: the plot whole and unshrunk at 1280, shrunk to fit at 800 with text >= 10 px.
    page.locator(".lm-TabBar-tab", has_text="P/N explorer").click()
    plot = page.locator(".duel-plot img")
    plot.wait_for()
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        shown, natural, room = plot.evaluate(
            "img => [img.getBoundingClientRect().width, img.naturalWidth, img.closest('.duel-plot').clientWidth]")
        assert shown <= room + 1, f"{width} px: the plot ({shown} px) is cut off ({room} px of room)"
        assert NORMAL.small * DPI / 72 * shown / natural >= 9.95
        if width == 1280:
            assert abs(shown - natural) <= 1
    page.set_viewport_size({"width": 1280, "height": 720})
    screenshots(page, "voila-app-explorer", plot)
    print(f"\nVoilà app: won in {moves} moves by mouse, {time.monotonic() - t0:.1f} s")
