"""The browser harness itself works: a widget renders in JupyterLab and answers a click."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from conftest import Lab
from harness import run_all, screenshot


def test_widget_click_in_lab(lab: Lab, page: Any) -> None:
    shutil.copy(Path(__file__).with_name("smoke.ipynb"), lab.root / "smoke.ipynb")
    lab.start_session("smoke.ipynb")
    page.goto(lab.notebook_url("smoke.ipynb"))
    run_all(page)
    page.locator("button.widget-button", has_text="Click me").click()
    page.locator(".widget-output", has_text="clicked").wait_for()
    screenshot(page, "smoke")
