"""Helpers for browser tests: run all cells, save screenshots."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def run_all(page: Any) -> None:
    """Run every cell: click a cell, open the Run menu, click "Run All Cells"."""
    page.locator(".jp-Cell").first.click()
    dialog = page.locator(".jp-Dialog button.jp-mod-accept")
    if dialog.count():
        dialog.first.click()
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator("li.lm-Menu-item:not(.lm-mod-disabled)[data-command='runmenu:run-all']").click()


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def shown_number(board: Any) -> int:
    """The current number in large type on a board (waiting while the widget redraws it)."""
    deadline = time.monotonic() + 10
    while True:
        found = re.findall(r"\d+", board.locator(".duel-number").inner_text().replace("\u2009", ""))
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
    """After my move from ``before`` to ``mine``: wait for the computer's reply, or for the end.

    The board's widgets redraw one at a time, so wait until the number, the
    status line and the move buttons all agree.
    """
    status = board.locator(".duel-status")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text, n = status.inner_text(), shown_number(board)
        if "Game over" in text and n == mine:
            return
        if "Your turn" in text and n not in (before, mine) and buttons_match(board, n):
            return
        board.page.wait_for_timeout(100)
    raise AssertionError(f"The board did not answer: {status.inner_text()!r}")


def play_to_a_win(board: Any, choose: Any, before_click: Any = None) -> int:
    """Click ``choose(n)`` (a winning divisor of the number shown) until the game ends; return the moves.

    ``before_click(moves, n, d)``, if given, runs before each click (to check or photograph the board).
    """
    moves = 0
    while "Game over" not in board.locator(".duel-status").inner_text():
        n = shown_number(board)
        d = choose(n)
        assert d is not None, f"{n} should be a winning position for me"
        if before_click is not None:
            before_click(moves, n, d)
        board.locator(f".duel-move-{d}").click()
        moves += 1
        wait_for_reply(board, n, n - d)
        assert moves < 30, "the game did not end"
    assert "You win!" in board.locator(".duel-status").inner_text()
    assert "You 1 – 0 Computer" in board.locator(".duel-score").inner_text()
    return moves


def open_and_run(lab: Any, page: Any, name: str) -> None:
    """Open notebook ``name`` (in lab.root) in JupyterLab with its kernel started, and run every cell."""
    page.set_default_timeout(30_000)
    lab.start_session(name)
    page.goto(lab.notebook_url(name))
    run_all(page)
