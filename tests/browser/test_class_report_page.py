"""The class report's HTML page renders in a real browser: its chart loads, its tables fill, its text is readable.

A small class of lesson 00 (one right notebook, one blank, one malformed) is reported, and the page is opened
from the file in headless Chromium at 1280×720 and 800×600 (screenshots go to test-artifacts/).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from duel_lessons.teaching.class_report import Limits, class_report
from duel_lessons.teaching.student_copies import student_notebook

ROOT = Path(__file__).resolve().parents[2]
TEACHER = next((ROOT / "notebooks").glob("00-*.ipynb"))


def test_the_report_page_renders(page: Any, tmp_path: Path) -> None:
    folder = tmp_path / "handed-in"
    folder.mkdir()
    copy = student_notebook(json.loads(TEACHER.read_text(encoding="utf-8")))
    right = json.loads(json.dumps(copy))
    for cell in right["cells"]:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        cell["source"] = source.replace("answer_1 = ...", "answer_1 = [2, 3, 4, 6]")
    (folder / "ana.ipynb").write_text(json.dumps(right), encoding="utf-8")
    (folder / "ben.ipynb").write_text(json.dumps(copy), encoding="utf-8")
    (folder / "cal.ipynb").write_text("{ not a notebook", encoding="utf-8")
    report = class_report(folder, TEACHER, limits=Limits(cpu=60, wall=240, cell=10))
    html = tmp_path / "report.html"
    html.write_text(report.html(), encoding="utf-8")

    page.goto(html.as_uri())
    assert page.locator("h1").inner_text() == "Class report: lesson 00"
    chart = page.locator("img").first
    assert chart.get_attribute("alt").startswith("Answers per exercise")
    assert page.evaluate("img => img.complete && img.naturalWidth > 600", chart.element_handle())
    students = page.locator("h2:has-text('Per student') + table tr")
    assert students.count() == 4  # the header and three students
    assert "malformed" in page.locator("tr:has-text('cal')").inner_text()
    sizes = "[...document.querySelectorAll('td, th, p')].map(e => parseFloat(getComputedStyle(e).fontSize))"
    smallest = page.evaluate(f"() => Math.min(...{sizes})")
    assert smallest >= 16  # readable when projected
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    for width, height in ((1280, 720), (800, 600)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(artifacts / f"class-report-{width}x{height}.png"), full_page=True)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width  # nothing cut off sideways
