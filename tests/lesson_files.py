"""The files a lesson lives in besides its notebook, and what each says about it, read from any project root.

docs/authoring.md's checklist, "A new lesson", names these files; tests/test_new_lesson.py finds what a
lesson is missing with :func:`missing`, tests/test_lesson_times.py reads the times they state.  Each
reader takes the project's root, so the tests can run them on a throwaway copy of the layout.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: A lesson's notebook: two digits, a dash, the topic (which gives nothing away).
LESSON_NAME = re.compile(r"(\d\d)-[a-z0-9]+(?:-[a-z0-9]+)*\.ipynb")
#: Notebooks in notebooks/ that are not lessons, and why.
NOT_LESSONS = {"play.ipynb": "the game app, run by Voila (README, 'The lessons')"}
TIME = re.compile(r"\bTime:\**\s*(\d+)\s+minutes")
CHECKLIST = "docs/authoring.md, 'A new lesson', step"


def source(cell: dict[str, Any]) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else str(text)


def markdown_text(path: Path) -> str:
    """The markdown cells of a notebook, joined."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join(source(c) for c in cells if c.get("cell_type") == "markdown")


def stated_times(path: Path) -> list[int]:
    """Every "Time: N minutes" in a notebook's markdown cells."""
    return [int(m) for m in TIME.findall(markdown_text(path))]


def readme_times(root: Path, stem: str) -> list[int]:
    """The README lessons table's time for a lesson (rows like | `04-name` | ... | 50 min |)."""
    readme = (root / "README.md").read_text(encoding="utf-8")
    return [int(m) for m in re.findall(rf"^\| `{re.escape(stem)}` \|.*\| (\d+) min \|\s*$", readme, re.M)]


def guide_times(root: Path, number: str) -> list[int]:
    """Every time the teacher guide gives a lesson: "**NN title** (T min)" and "### Lesson NN: title (T min)"."""
    return guide_plan_times(root, number) + guide_section_times(root, number)


def guide_plan_times(root: Path, number: str) -> list[int]:
    """The times of the guide's lesson-plan rows: | **NN title** (T min) | plan |."""
    guide = (root / "docs" / "teacher-guide.md").read_text(encoding="utf-8")
    return [int(t) for t in re.findall(rf"\*\*{number} [^*]*\*\* \((\d+)[^)]*min", guide)]


def guide_section_times(root: Path, number: str) -> list[int]:
    """The times of the guide's sections on the lesson: ### Lesson NN: title (T min)."""
    guide = (root / "docs" / "teacher-guide.md").read_text(encoding="utf-8")
    return [int(t) for t in re.findall(rf"^### Lesson {number}: .*\((\d+) min\)\s*$", guide, re.M)]


def map_rows(root: Path) -> dict[str, int]:
    """Lesson 00's map: linked file name -> the time it gives."""
    text = markdown_text(root / "notebooks" / "00-start-here.ipynb")
    return {
        name: int(t) for name, t in re.findall(r"^\| \[[^]]+\]\(([\w-]+\.ipynb)\) \|.*\| (\d+) min \|$", text, re.M)
    }


# -- the checklist: what a lesson is missing -------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One step of docs/authoring.md's checklist: its number there, and the file it names."""

    number: int
    file: str  # with NN for the lesson's number and NN-topic for its notebook's stem


STEPS = (
    Step(1, "notebooks/NN-topic.ipynb"),
    Step(2, "notebooks/NN-topic.lesson.toml"),
    Step(3, "tests/test_lessonNN_topic.py"),
    Step(4, "README.md"),
    Step(5, "docs/teacher-guide.md"),
    Step(6, "notebooks/00-start-here.ipynb"),
    Step(7, "docs/answer-key.md"),
)


def _todo(step: int, text: str) -> str:
    return f"{text} ({CHECKLIST} {step})"


def _notebook_problems(path: Path, number: str) -> list[str]:
    """Step 1: the notebook's own anchors (the set-up names its number, a parameters cell, a stated time)."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    except (ValueError, KeyError, TypeError) as error:
        return [_todo(1, f"is not a notebook ({error}): make it with Jupyter or nbformat")]
    code = [source(c) for c in cells if c.get("cell_type") == "code"]
    found = []
    setup = [m for text in code for m in re.findall(r"""\bLesson\(\s*["'](\w+)["']""", text)]
    if not setup:
        found.append(_todo(1, f'has no set-up cell: add lesson = Lesson("{number}", ...) with the parameters'))
    elif setup[0] != number:
        found.append(_todo(1, f'its set-up says Lesson("{setup[0]}"): its file name says lesson {number}'))
    parameters = [c for c in cells if "parameters" in (c.get("metadata", {}).get("tags") or [])]
    if len(parameters) != 1 or not source(parameters[0]).lstrip().startswith("# PARAMETERS"):
        found.append(_todo(1, "needs one code cell tagged 'parameters' that starts with # PARAMETERS"))
    if not stated_times(path):
        found.append(_todo(1, "states no time: say **Time:** N minutes once in the title cell"))
    return found


def missing(root: Path, notebook: str) -> list[str]:
    """What the lesson ``notebooks/<notebook>`` is missing in the project at ``root``, each with what to do.

    Presence only: whether the times agree, the checks pass and the key is current is for the tests that
    read them (test_lesson_times, test_model_solutions, test_spoilers, test_student_copies).
    """
    where = f"notebooks/{notebook}"
    if notebook in NOT_LESSONS:
        return []
    match = LESSON_NAME.fullmatch(notebook)
    if not match:
        todo = (
            "name it NN-topic.ipynb (two digits, a dash, the topic), or add it to NOT_LESSONS in tests/lesson_files.py"
        )
        return [f"{where}: is not named like a lesson: " + _todo(1, todo)]
    number, stem = match.group(1), notebook.removesuffix(".ipynb")
    found = _notebook_problems(root / where, number)
    checks = f"duel_lessons/teaching/checks/lesson{number}.py"
    declarations = f"notebooks/{stem}.lesson.toml"
    register = f'SPEC = register(LessonSpec("{number}", needs=..., offers=...))'
    if not (root / checks).is_file() and not (root / declarations).is_file():
        found.append(_todo(2, f'declares no exercises: create {declarations} starting lesson = "{number}"'))
    elif (root / checks).is_file() and not re.search(
        rf"""register\(\s*LessonSpec\(\s*["']{number}["']""", (root / checks).read_text("utf-8")
    ):
        found.append(_todo(2, f"{checks} registers no spec for lesson {number}: write {register}"))
    if not list((root / "tests").glob(f"test_lesson{number}_*.py")):
        what = "each check's verdicts (right, format slip, partial, misconception) on answers written by hand"
        found.append(_todo(3, f"has no tests of its own: create tests/test_lesson{number}_<topic>.py testing {what}"))
    if not readme_times(root, stem):
        row = f"| `{stem}` | its question, and what students do | T min |"
        found.append(_todo(4, f"is not in README.md's lessons table: add the row {row}"))
    if not guide_plan_times(root, number):
        row = f"| **{number} Title** (T min) | the minutes of each part |"
        found.append(_todo(5, f"has no plan in docs/teacher-guide.md: add the row {row}"))
    if not guide_section_times(root, number):
        found.append(_todo(5, f"has no section in docs/teacher-guide.md: add ### Lesson {number}: Title (T min)"))
    if notebook not in map_rows(root):
        row = f"| [{int(number)}. Title]({notebook}) | what students do | T min |"
        found.append(_todo(6, f"is not on lesson 00's map: add the row {row} to notebooks/00-start-here.ipynb"))
    key = root / "docs" / "answer-key.md"
    if not key.is_file() or f"\n## {stem}:" not in key.read_text(encoding="utf-8"):
        command = "`duel-lessons answer-key notebooks/ > docs/answer-key.md`"
        found.append(_todo(7, f"is not in docs/answer-key.md: run {command}"))
    return [f"{where}: {problem}" for problem in found]


def orphans(root: Path) -> list[str]:
    """Checks modules and lesson tests whose lesson has no notebook."""
    numbers = {m.group(1) for p in (root / "notebooks").glob("*.ipynb") if (m := LESSON_NAME.fullmatch(p.name))}
    found = []
    pieces = [(2, p) for p in (root / "duel_lessons" / "teaching" / "checks").glob("lesson[0-9][0-9].py")]
    pieces += [(3, p) for p in (root / "tests").glob("test_lesson[0-9][0-9]_*.py")]
    for step, path in sorted(pieces):
        number = re.findall(r"\d\d", path.name)[0]
        if number not in numbers:
            todo = f"no notebooks/{number}-topic.ipynb: add the lesson, or remove this file"
            found.append(f"{path.relative_to(root).as_posix()}: " + _todo(step, todo))
    return found
