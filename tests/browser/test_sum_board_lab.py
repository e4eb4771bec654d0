"""The sum board in a real JupyterLab: beat the perfect computer on 12 + 18 by keeping the XOR of Grundy values at 0."""

from __future__ import annotations

import re
import time
from typing import Any

from duel_lessons.play.sums import new_sum, outcome, winning_moves

from harness import SAFETY_NET, SUM_START, screenshots, switch_to

START = SUM_START  # Grundy values 3 and 1: XOR 2, so the player to move (me) wins


def shown_numbers(board: Any) -> list[int]:
    """The number in each row of the board ("1. Divisor Duel: 12")."""
    labels = board.locator(".sum-row-label").all_text_contents()  # DOM text: Lab may not have laid the cell out yet
    found = [re.findall(r"\d+", text.replace("\u2009", "")) for text in labels]
    return [int(digits[-1]) for digits in found if digits]  # a row whose text has not arrived yet is skipped


def moves_in_history(board: Any) -> int:
    """How many moves the board's "Game so far" lists."""
    return len(re.findall(r"^(?:Player 1|Computer): component", board.locator(".sum-history").inner_text(), re.M))


def wait_for_reply(board: Any, played: int) -> list[int]:
    """After my move number ``played``: wait for the computer's reply (or the end); the numbers now shown."""
    deadline = time.monotonic() + SAFETY_NET
    while time.monotonic() < deadline:
        status = board.locator(".sum-status").inner_text()
        history = board.locator(".sum-history").inner_text()
        now = re.search(r"^Now: ([\d + ]+)\.", history, re.M)
        count = moves_in_history(board)
        over = "Game over" in status and count == 2 * played - 1
        mine_again = "Your turn" in status and count == 2 * played
        if now and (over or mine_again):
            numbers = [int(x) for x in now.group(1).split("+")]
            if shown_numbers(board) == numbers:  # the rows are redrawn too
                return numbers
        board.page.wait_for_timeout(100)
    raise AssertionError(f"The sum board did not answer: {board.locator('.sum-status').inner_text()!r}")


def test_beat_the_perfect_computer_on_a_sum(lab_board: Any) -> None:
    """The sum board is the last cell of harness.BOARD_NOTEBOOK (same Lab page as the game boards)."""
    t0, page = time.monotonic(), lab_board
    cell = switch_to(page, "board.ipynb").locator(".jp-CodeCell", has_text="SumBoard([")
    cell.scroll_into_view_if_needed()  # Lab renders only the cells near the view
    board = cell.locator(".sum-board").first
    board.wait_for()
    board.scroll_into_view_if_needed()  # laid out (and so clickable, with inner text) only when in view
    board.locator(".sum-status", has_text="Your turn").wait_for()
    board.locator(".sum-row-label").nth(len(START) - 1).wait_for()
    deadline = time.monotonic() + SAFETY_NET
    while len(shown_numbers(board)) < len(START) and time.monotonic() < deadline:
        page.wait_for_timeout(100)  # the rows' text arrives just after the rows
    numbers = shown_numbers(board)
    assert numbers == START
    assert outcome(new_sum(numbers)) == "N"
    t_rendered = time.monotonic()

    played = 0
    while "Game over" not in board.locator(".sum-status").inner_text():
        # The winning move, from the numbers shown: make the XOR of the Grundy values 0.
        wins = winning_moves(new_sum(numbers))
        assert wins, f"{' + '.join(map(str, numbers))} should be a winning position for me"
        index, d = wins[0]
        button = board.locator(f".sum-row-{index + 1} .sum-move-{index + 1}-{d}")
        assert f"{numbers[index]} − {d} = {numbers[index] - d}" in button.inner_text()
        if played == 1:
            board.locator(".sum-message", has_text="The computer played").wait_for()
            screenshots(page, "sum-board-playing", board)
        while board.get_attribute("aria-busy") == "true" or "dg-cooling" in (board.get_attribute("class") or ""):
            # one move per intention: clicks wait for the answer, and 400 ms after the last click
            page.wait_for_timeout(50)
        button.click()
        played += 1
        numbers = wait_for_reply(board, played)
        assert played < 30

    status = board.locator(".sum-status").inner_text()
    assert "You win!" in status, status
    assert "Computer has no move in any component" in status
    assert board.locator(".sum-move:not([disabled])").count() == 0  # nothing left to click
    board.scroll_into_view_if_needed()
    screenshots(page, "sum-board-won", board)
    print(f"sum board in Lab: rendered after {t_rendered - t0:.1f} s, won in {played} moves, "
          f"total {time.monotonic() - t0:.1f} s")
