"""Each lesson fits a 50-minute period by a stated time model, states its time once, and the docs agree.

The time model (issue 18; HELPERS.md): the minutes a lesson takes are estimated from its **student
copy** as

    words in its markdown cells / WORDS_PER_MINUTE
    + PER_CODE_CELL for every code cell
    + PER_CHECK for every cell calling ``lesson.check(``
    + PER_GUESS for every ``lesson.guess(``, PER_TEST for every ``lesson.test(``,
      PER_PARSONS for every ``lesson.parsons(``
    + PER_GAME for every cell that shows a game to play (``GameBoard(``, ``SumBoard(``, ``NimBoard(``, ``play_``)
    + PER_DISCUSSION for every discussion cell (markdown starting with "**Discuss" or "**Explain to a partner").

The estimate must be at most MAX_MINUTES, and the time the notebook states ("**Time:** N minutes") at
least the estimate and at most MAX_MINUTES.  A word is a run of letters or digits (with ' or - inside).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import lesson_files
import pytest
from lesson_files import readme_times, stated_times

from duel_lessons.teaching.gating import gated_texts
from duel_lessons.teaching.student_copies import student_notebook

# -- the time model ---------------------------------------------------------------------------------
WORDS_PER_MINUTE = 150  # reading, at a 12-16-year-old's pace for instructional text
PER_CODE_CELL = 0.5  # reading and running any code cell
PER_CHECK = 3.0  # per cell calling lesson.check(: working out an answer
PER_GUESS = 2.0  # per lesson.guess(: a prediction
PER_TEST = 3.0  # per lesson.test(: writing a rule and testing it
PER_PARSONS = 4.0  # per lesson.parsons(: ordering a proof
PER_GAME = 5.0  # per cell showing a game to play
PER_DISCUSSION = 3.0  # per discussion cell
MAX_MINUTES = 50  # one period
GAME_CALLS = re.compile(r"\b(GameBoard|SumBoard|NimBoard)\(|\bplay_\w*\(")
DISCUSSION = re.compile(r"\s*\*\*(Discuss|Explain to a partner)")
WORD = re.compile(r"\w+(?:['’-]\w+)*")

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))


def _source(cell: dict[str, Any]) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else str(text)


GOING_FURTHER = re.compile(r"\s*#+\s*Going further", re.IGNORECASE)


def estimate(notebook: dict[str, Any]) -> float:
    """The minutes the time model gives a notebook's student copy, up to its optional "Going further" part.

    A cell tagged ``after:GUESS`` counts as the text it shows once opened (the copy holds ``lesson.text(...)``).
    """
    texts = iter(gated_texts(notebook).values())
    cells = student_notebook(notebook)["cells"]
    minutes = 0.0
    for cell in cells:
        text = _source(cell)
        if "gated" in cell.get("metadata", {}).get("tags", []):
            cell, text = {"cell_type": "markdown"}, next(texts)[1]
        if cell["cell_type"] == "markdown" and GOING_FURTHER.match(text):
            break  # optional, outside the stated time
        if cell["cell_type"] == "markdown":
            minutes += len(WORD.findall(text)) / WORDS_PER_MINUTE
            minutes += PER_DISCUSSION if DISCUSSION.match(text) else 0.0
        elif cell["cell_type"] == "code":
            minutes += PER_CODE_CELL
            minutes += PER_CHECK if "lesson.check(" in text else 0.0
            minutes += PER_GUESS * text.count("lesson.guess(") + PER_TEST * text.count("lesson.test(")
            minutes += PER_PARSONS * text.count("lesson.parsons(")
            minutes += PER_GAME if GAME_CALLS.search(text) else 0.0
    return minutes


def lessons() -> list[Any]:
    return [pytest.param(path, id=path.stem) for path in LESSONS]


def readme_time(stem: str) -> list[int]:
    """The README lessons table's time for a lesson."""
    return readme_times(ROOT, stem)


def guide_times(number: str) -> list[int]:
    """Every time the teacher guide gives a lesson (its plan row and its section)."""
    return lesson_files.guide_times(ROOT, number)


@pytest.mark.parametrize("path", lessons())
def test_time_is_stated_once_and_fits_a_period(path: Path) -> None:
    times = stated_times(path)
    assert len(times) == 1, f"{path.name} states its time {len(times)} times (say **Time:** N minutes once): {times}"
    assert times[0] <= MAX_MINUTES


@pytest.mark.parametrize("path", lessons())
def test_the_time_model_fits_the_lesson_in_a_period_and_its_stated_time(path: Path) -> None:
    minutes = estimate(json.loads(path.read_text(encoding="utf-8")))
    assert minutes <= MAX_MINUTES, f"{path.name}: the time model gives {minutes:.1f} minutes: trim or split it"
    (stated,) = stated_times(path)
    assert minutes <= stated, f"{path.name} states {stated} minutes, but the time model gives {minutes:.1f}"


def test_the_time_model_counts_what_it_says() -> None:
    def cell(kind: str, text: str, tags: tuple[str, ...] = ()) -> dict[str, Any]:
        return {"cell_type": kind, "source": text, "metadata": {"tags": list(tags)}, "outputs": []}

    notebook = {
        "cells": [
            cell("markdown", "word " * 300),  # 2 minutes
            cell("markdown", "**Discuss** with a partner."),  # 4 words + 3
            cell("code", "answer_1 = ..."),  # 0.5
            cell("code", "lesson.check(1, answer_1)"),  # 0.5 + 3
            cell("code", "lesson.guess('a', a)\nlesson.guess('b', b)"),  # 0.5 + 2 * 2
            cell("code", "lesson.test(my_rule)"),  # 0.5 + 3
            cell("code", "lesson.parsons('order')"),  # 0.5 + 4
            cell("code", "GameBoard(RULES, 12)"),  # 0.5 + 5
            cell("code", "lesson.solution(1)", ("solution",)),  # not in the student copy
            cell("markdown", "**Teacher note.** " + "word " * 1500),  # not in the student copy
            cell("markdown", "word " * 150, ("after:a",)),  # gated: 1 minute, once opened
            cell("markdown", "## Going further\n" + "word " * 1500),  # optional: not counted, nor what follows
            cell("code", "lesson.check(9, answer_9)"),
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    assert estimate(notebook) == pytest.approx(2 + 4 / 150 + 3 + 6 * 0.5 + 3 + 4 + 3 + 4 + 5 + 1)


@pytest.mark.parametrize("path", lessons())
def test_readme_and_teacher_guide_agree(path: Path) -> None:
    (minutes,) = stated_times(path)
    assert readme_time(path.stem) == [minutes], f"README's lessons table for {path.stem}"
    guide = guide_times(path.stem[:2])
    assert guide and set(guide) == {minutes}, f"teacher guide for lesson {path.stem[:2]}: {guide}"


def test_the_time_readers_can_fail(tmp_path: Path) -> None:
    nb = tmp_path / "99-x.ipynb"
    nb.write_text(
        json.dumps({"cells": [{"cell_type": "markdown", "source": ["**Time:** 60 minutes\nTime: 5 minutes"]}]})
    )
    assert stated_times(nb) == [60, 5]
    assert readme_time("99-no-such-lesson") == []


def map_rows() -> dict[str, int]:
    """Lesson 00's map: linked file name -> the time it gives."""
    return lesson_files.map_rows(ROOT)


@pytest.mark.parametrize("path", lessons())
def test_lesson_00s_map_links_every_lesson_with_its_time(path: Path) -> None:
    (minutes,) = stated_times(path)
    assert map_rows().get(path.name) == minutes, f"lesson 00's map row for {path.name}"
