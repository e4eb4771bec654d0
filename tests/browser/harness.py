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
    """The current number in large type on the board."""
    number = board.locator(".duel-number", has_text=re.compile(r"\d"))
    number.wait_for()
    text = number.inner_text()
    return int(re.findall(r"\d+", text.replace("\u2009", ""))[-1])


def wait_for_my_turn_or_end(page: Any, board: Any, before: int) -> None:
    """Wait until the computer has replied (the number changed) or the game is over."""
    status = board.locator(".duel-status")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = status.inner_text()
        if "Game over" in text or ("Your turn" in text and shown_number(board) != before):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"The board did not answer: {status.inner_text()!r}")
