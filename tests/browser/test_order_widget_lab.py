"""Issue 28 in a real JupyterLab: a student orders lesson 04's proof in the widget with the mouse and saves;
the saved notebook holds the order, and the class report counts it as an answer.

By hand: B (every divisor of N is odd) comes first; A and C use B; I uses A and C; then D, G and F.
E and H do not belong, so they are left out.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from duel_lessons.teaching import record
from duel_lessons.teaching.class_report import clicked

from conftest import Lab
from harness import SAFETY_NET, run_all, screenshot, switch_to

ORDER = ["B", "C", "A", "I", "D", "G", "F"]


def saved(path: Path) -> dict[str, Any]:
    """The notebook on disk, or an empty one while the server is still writing it.

    Jupyter's server saves in place (it keeps a backup, then rewrites the file), so a reader polling
    the file can catch it empty or half written; that is a save in progress, not a failed one.
    """
    try:
        return dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError):
        return {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def test_an_order_clicked_in_the_widget_is_saved_in_the_notebook(lab: Lab, lab_board: Any) -> None:
    page = lab_board
    panel = switch_to(page, "order.ipynb")
    run_all(page, panel)
    widget = panel.locator(".lesson-parsons")
    widget.wait_for()
    widget.scroll_into_view_if_needed()
    order, left_out = widget.locator("select").nth(0), widget.locator("select").nth(1)
    button = {name: widget.locator("button", has_text=name) for name in ("Leave out", "Put back", "Check")}
    for _ in range(9):  # leave every line out, the first each time, as a student clearing the list would
        order.select_option(index=0)
        button["Leave out"].click()
        page.wait_for_timeout(150)  # a person's pace between clicks
    for label in ORDER:  # then put back the proof's lines, in order
        texts = left_out.evaluate("s => [...s.options].map(o => o.text)")
        chosen = [t for t in texts if t.startswith(f"{label}:")]
        assert chosen, f"no line {label} among the lines left out: {texts}"
        left_out.select_option(label=chosen[0])
        button["Put back"].click()
        page.wait_for_timeout(150)
    button["Check"].click()
    widget.locator(".lesson-parsons-result", has_text="right").wait_for()
    screenshot(page, "order-widget-right")

    panel.locator(".jp-Cell").first.click()
    page.keyboard.press("Control+s")
    path, deadline, found = lab.root / "order.ipynb", time.monotonic() + SAFETY_NET, {}
    while not found and time.monotonic() < deadline:  # the save lands on disk (a safety net, not a measure)
        found = clicked(record.records(saved(path)), "04")
        time.sleep(0.5)
    assert found == {"order": ORDER}
