"""The class report's HTML page renders in a real browser: its chart loads, its tables fill, its text is readable.

A small class of lesson 00 (one right notebook, one blank, one malformed) is reported, and the page is opened
from the file in headless Chromium at 1280×720 and 800×600 (screenshots go to test-artifacts/).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

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


def class_of_30() -> Any:
    """A report of 30 students on lesson 04's seven steps, with mistakes in words and explanations (made
    directly: what is under test is the page, its print style above all)."""
    from duel_lessons.teaching.notebook_plan import Plan
    from duel_lessons.teaching.report_page import ClassReport, Row

    steps = ["proof-1", "proof-2", "proof-3", "order", "flaw", "1", "2", "explain"]
    titles = {
        "proof-1": "Proof step 1 (N − d as a product)",
        "proof-2": "Proof step 2 (the answer move, factorised)",
        "proof-3": "Proof step 3 (which step fails for 8)",
        "order": "Proof step 4 (put the proof in order)",
        "flaw": "Proof step 5 (the flaw)",
        "explain": "Explain: why does every move from an odd number leave an even one?",
    }
    words = [
        "Halving is a move, but what does it hand over? Is that number odd?",
        "Take d out of both terms: N is d times what, and d is d times what?",
        "Your proof uses that N − d is always even before it shows it.",
    ]
    rows = []
    for i in range(30):
        verdicts = {s: ("right", "partial", "wrong", "blank")[(i + j) % 4] for j, s in enumerate(steps)}
        mistakes = {s: words[(i + j) % 3] for j, s in enumerate(steps) if verdicts[s] in ("partial", "wrong")}
        row = Row(f"student-{i:02d}", f"student-{i:02d}.ipynb", verdicts=verdicts, mistakes=mistakes)
        if i % 3 == 0:
            row.explanations["explain"] = "Every divisor of an odd number is odd, so N − d is odd − odd: even. " * 2
        rows.append(row)
    return ClassReport(Plan("04", {"upto": 10_000}, checks=dict.fromkeys(steps, "")), rows, titles=titles)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_report_of_a_class_of_30_prints_on_two_pages_at_most(page: Any, tmp_path: Path, paper: str) -> None:
    html = tmp_path / "report.html"
    html.write_text(class_of_30().html(), encoding="utf-8")
    page.goto(html.as_uri())
    pdf = page.pdf(format=paper, prefer_css_page_size=False)
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    (ROOT / "test-artifacts" / f"class-report-{paper}.pdf").write_bytes(pdf)
    pages = len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf))
    assert 1 <= pages <= 2, f"{pages} pages on {paper}"
    page.emulate_media(media="print")
    sizes = "[...document.querySelectorAll('td, li')].map(e => parseFloat(getComputedStyle(e).fontSize))"
    smallest = page.evaluate(f"() => Math.min(...{sizes})")
    assert smallest >= 11  # 9 pt: still readable on paper
