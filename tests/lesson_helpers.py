"""Shared by the lesson tests: the student copy's cells before a reveal, scanned for declared spoilers, and the
model answers judged by their own checks under given parameters (tests/test_model_solutions.py runs it on every
lesson under its notebook's parameters and each value SPEC.offers; a lesson's own tests, on settings of its own)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from duel_lessons.teaching import Lesson
from duel_lessons.teaching.checks import spec
from duel_lessons.teaching.lesson import forget
from duel_lessons.teaching.student_copies import is_removed


def plain_id(text: str) -> str:
    """A test id of letters, digits and a few signs: pytest cannot select an id with brackets or quotes by
    name (mutmut's runs select each test so)."""
    return re.sub(r"[^A-Za-z0-9 _.#*>=+-]+", "_", text)

ROOT = Path(__file__).resolve().parents[1]


def student_cells(stem: str) -> list[dict[str, Any]]:
    """The cells of a lesson's student copy (teacher notes and solutions removed)."""
    (path,) = (ROOT / "notebooks").glob(f"{stem}*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [c for c in cells if not is_removed(c)]


def source(cell: dict[str, Any]) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else str(text)


def spoilers_before_reveal(stem: str, lesson: str) -> list[str]:
    """For each declared discovery, any pattern found in a student cell before the cell that opens its reveal."""
    cells = student_cells(stem)
    found = []
    for name, patterns in spec(lesson).spoilers.items():
        opener = next((i for i, c in enumerate(cells) if f'lesson.reveal("{name}")' in source(c)), len(cells))
        for i, cell in enumerate(cells[:opener]):
            for pattern in patterns:
                match = re.search(pattern, source(cell), re.IGNORECASE)
                if match:
                    found.append(f"{name}: cell {i} says {match.group(0)!r}")
    return found


def model_failures(number: str, settings: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Each model answer (SPEC.model) that does not pass its own check, or gives no reason, under each setting."""
    failures = []
    for what, arguments in settings:
        forget()
        lesson = Lesson(number, **arguments)
        for name in spec(lesson.number).models:
            model, why = lesson.model(name)
            verdict = lesson.judge(name, model)
            if not verdict.right:
                failures.append(f"{name} under {what}: {verdict.kind} {verdict.message}")
            if not (isinstance(why, str) and why.strip()):
                failures.append(f"{name} under {what}: the model answer gives no reason")
    return failures
