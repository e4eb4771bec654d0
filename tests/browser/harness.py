"""Helpers for browser tests: run all cells, save screenshots."""

from __future__ import annotations

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
