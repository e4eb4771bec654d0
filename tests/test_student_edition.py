"""The student edition gives no model answers: student copies make their lesson with ``student=True``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from duel_lessons.teaching.checks import LessonError
from duel_lessons.teaching.lesson import STUDENT_EDITION, Lesson, forget
from duel_lessons.teaching.student_copies import student_lesson, student_notebook

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
PARAMS = {"rules": "divisor-duel", "start": 60, "small": 12, "candidates": [2, 9, 11, 15, 21, 23]}


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_every_student_copy_makes_a_student_lesson(path: Path) -> None:
    copy = student_notebook(json.loads(path.read_text(encoding="utf-8")))
    sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in copy["cells"]]
    calls = [s for s in sources if "Lesson(" in s and "import" not in s.split("Lesson(")[0].splitlines()[-1]]
    assert calls, "the lesson makes no Lesson(...)"
    assert all("student=True" in s for s in calls)


def test_the_rewrite_is_exact_and_idempotent() -> None:
    assert student_lesson('lesson = Lesson("04", rules=RULES)') == 'lesson = Lesson("04", student=True, rules=RULES)'
    once = student_lesson("lesson = Lesson('10',\n    rules=RULES)")
    assert once == "lesson = Lesson('10', student=True,\n    rules=RULES)" and student_lesson(once) == once
    assert student_lesson("from duel_lessons.teaching import Lesson") == "from duel_lessons.teaching import Lesson"


def test_a_student_lesson_shows_no_model_answer(capsys: pytest.CaptureFixture[str]) -> None:
    forget("00")
    lesson = Lesson("00", student=True, **PARAMS)
    lesson.check(1, [12])  # a real attempt: the teacher's edition would open the model now
    capsys.readouterr()
    lesson.solution(1)
    said = capsys.readouterr().out
    assert STUDENT_EDITION in said and "2, 3, 4, 6" not in said
    with pytest.raises(LessonError, match="teacher's edition"):
        lesson.model(1)
    forget("00")
    teacher = Lesson("00", **PARAMS)
    teacher.check(1, [12])
    teacher.solution(1)
    assert "[2, 3, 4, 6]" in capsys.readouterr().out


def test_a_loop_over_answers_stops_finding_them(capsys: pytest.CaptureFixture[str]) -> None:
    from duel_lessons.teaching.lesson import MAX_TRIES

    forget("00")
    lesson = Lesson("00", **PARAMS)
    for n in range(MAX_TRIES):
        assert not lesson.verdict(1, [n + 100]).right  # a loop over wrong answers: each one counted
    late = lesson.verdict(1, [2, 3, 4, 6])  # the right answer, after the loop: not judged any more
    assert not late.right and late.key == "format:too-many-tries" and "[2, 3, 4, 6]" not in late.message
    assert lesson.verdict(1, ...).kind == "unanswered"
    forget("00")
    assert Lesson("00", **PARAMS).verdict(1, [2, 3, 4, 6]).right  # a new session judges again
