"""A new lesson is one checklist (docs/authoring.md, "A new lesson"): every lesson has every file it names.

For every notebook in notebooks/, tests/lesson_files.py's ``missing`` finds what is missing (its checks
module, its tests, its rows in the README, the teacher guide and lesson 00's map, its answer key) and
says what to do.  The tests below prove each message on a throwaway copy of the layout (``tmp_path``):
a fake lesson 14 with every piece, then without each piece in turn.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lesson_files import STEPS, missing, orphans

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_lesson_has_every_file_the_checklist_names(path: Path) -> None:
    found = missing(ROOT, path.name)
    assert not found, "\n".join(found)


def test_every_checks_module_and_lesson_test_has_its_lesson() -> None:
    assert orphans(ROOT) == []


def test_the_checklist_in_the_docs_names_the_file_of_each_step() -> None:
    """docs/authoring.md's "A new lesson" is a numbered list; step N names the file the messages send you to."""
    text = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    section = re.search(r"^## A new lesson\n(.*?)(?=^## )", text, re.M | re.S)
    assert section, "docs/authoring.md has no section '## A new lesson'"
    steps = dict(re.findall(r"^(\d+)\. (.*?)(?=^\d+\. |\Z)", section.group(1), re.M | re.S))
    for step in STEPS:
        assert step.file in steps.get(str(step.number), ""), f"step {step.number} of the checklist names {step.file}"
    assert sorted(map(int, steps)) == list(range(1, len(steps) + 1)), sorted(steps)


# -- a throwaway project with a fake lesson 14, and each piece missing in turn ----------------------------


def notebook(*cells: dict[str, Any]) -> str:
    return json.dumps({"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def markdown(text: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def code(text: str, tags: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "metadata": {"tags": list(tags)},
        "source": text,
        "outputs": [],
        "execution_count": None,
    }


def lesson_notebook(number: str, title: str, *, parameters: str = "parameters", time: str = "**Time:** 30 minutes",
                    setup: str | None = None) -> str:  # fmt: skip
    return notebook(
        markdown(f"# {int(number)}. {title}\n\n{time}"),
        code("# PARAMETERS\nSTART = 60  # a start", (parameters,)),
        code("from duel_lessons.teaching import Lesson\n" + (setup or f'lesson = Lesson("{number}", start=START)')),
    )


LESSONS = (("00", "start-here", "What can you do?"), ("14", "foo", "What is foo?"))


def fake_project(root: Path) -> Path:
    """A project layout holding lessons 00 and 14 with every piece the checklist names."""
    for folder in ("notebooks", "docs", "tests", "duel_lessons/teaching/checks"):
        (root / folder).mkdir(parents=True)
    readme, plans, sections, map_rows, key = [], [], [], [], ["# Answer key\n"]
    for number, topic, title in LESSONS:
        stem = f"{number}-{topic}"
        (root / "notebooks" / f"{stem}.ipynb").write_text(lesson_notebook(number, title), encoding="utf-8")
        (root / "duel_lessons/teaching/checks" / f"lesson{number}.py").write_text(
            "from duel_lessons.teaching.checks import LessonSpec, register\n\n"
            f'SPEC = register(LessonSpec("{number}"))\n'
        )
        (root / "tests" / f"test_lesson{number}_{topic}.py").write_text("def test_it() -> None: ...\n")
        readme.append(f"| `{stem}` | {title} Play. | 30 min |")
        plans.append(f"| **{number} {title}** (30 min) | 30 min: everything. |")
        sections.append(f"### Lesson {number}: {title} (30 min)\n\nHow it goes.\n")
        map_rows.append(f"| [{int(number)}. {title}]({stem}.ipynb) | play | 30 min |")
        key.append(f"## {stem}: {int(number)}. {title}\n\n**Exercise 1, model answer:** `1`\n")
    (root / "README.md").write_text("## The lessons\n\n| lesson | what | time |\n|---|---|---|\n" + "\n".join(readme))
    guide = "# Teacher guide\n\n| lesson | plan |\n|---|---|\n" + "\n".join(plans) + "\n\n" + "\n".join(sections)
    (root / "docs" / "teacher-guide.md").write_text(guide)
    (root / "docs" / "answer-key.md").write_text("\n".join(key))
    start = json.loads((root / "notebooks" / "00-start-here.ipynb").read_text())
    start["cells"].append(markdown("## The map\n\n| lesson | what | time |\n|---|---|---|\n" + "\n".join(map_rows)))
    (root / "notebooks" / "00-start-here.ipynb").write_text(json.dumps(start))
    (root / "notebooks" / "play.ipynb").write_text(notebook(code("GameBoard()")))
    return root


def edit(path: str, old: str, new: str = "") -> Callable[[Path], None]:
    def change(root: Path) -> None:
        text = (root / path).read_text()
        assert old in text, f"the fake {path} has no {old!r}"
        (root / path).write_text(text.replace(old, new))

    return change


def delete(path: str) -> Callable[[Path], None]:
    return lambda root: (root / path).unlink()


def rewrite_notebook(**changes: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        (root / "notebooks/14-foo.ipynb").write_text(lesson_notebook("14", "What is foo?", **changes))

    return change


NB = "notebooks/14-foo.ipynb: "
STEP = " (docs/authoring.md, 'A new lesson', step {})"
#: (what is taken away, the change, the one message expected), written out by hand.
CASES = [
    ("its exercises", delete("duel_lessons/teaching/checks/lesson14.py"),
     NB + 'declares no exercises: create notebooks/14-foo.lesson.toml starting lesson = "14"' + STEP.format(2)),
    ("its registration", edit("duel_lessons/teaching/checks/lesson14.py", 'register(LessonSpec("14"))', "None"),
     NB + "duel_lessons/teaching/checks/lesson14.py registers no spec for lesson 14: write "
     'SPEC = register(LessonSpec("14", needs=..., offers=...))' + STEP.format(2)),
    ("its tests", delete("tests/test_lesson14_foo.py"),
     NB + "has no tests of its own: create tests/test_lesson14_<topic>.py testing each check's verdicts (right, "
     "format slip, partial, misconception) on answers written by hand" + STEP.format(3)),
    ("README row", edit("README.md", "| `14-foo` | What is foo? Play. | 30 min |"),
     NB + "is not in README.md's lessons table: add the row | `14-foo` | its question, and what students do "
     "| T min |" + STEP.format(4)),
    ("guide plan", edit("docs/teacher-guide.md", "| **14 What is foo?** (30 min) | 30 min: everything. |"),
     NB + "has no plan in docs/teacher-guide.md: add the row | **14 Title** (T min) | the minutes of each part |"
     + STEP.format(5)),
    ("guide section", edit("docs/teacher-guide.md", "### Lesson 14: What is foo? (30 min)"),
     NB + "has no section in docs/teacher-guide.md: add ### Lesson 14: Title (T min)" + STEP.format(5)),
    ("map row", edit("notebooks/00-start-here.ipynb", "| [14. What is foo?](14-foo.ipynb) | play | 30 min |"),
     NB + "is not on lesson 00's map: add the row | [14. Title](14-foo.ipynb) | what students do | T min | to "
     "notebooks/00-start-here.ipynb" + STEP.format(6)),
    ("answer key", edit("docs/answer-key.md", "## 14-foo: 14. What is foo?"),
     NB + "is not in docs/answer-key.md: run `duel-lessons answer-key notebooks/ > docs/answer-key.md`"
     + STEP.format(7)),
    ("set-up", rewrite_notebook(setup="lesson = None"),
     NB + 'has no set-up cell: add lesson = Lesson("14", ...) with the parameters' + STEP.format(1)),
    ("set-up's number", rewrite_notebook(setup='lesson = Lesson("13", start=START)'),
     NB + 'its set-up says Lesson("13"): its file name says lesson 14' + STEP.format(1)),
    ("parameters tag", rewrite_notebook(parameters="settings"),
     NB + "needs one code cell tagged 'parameters' that starts with # PARAMETERS" + STEP.format(1)),
    ("time", rewrite_notebook(time="About half an hour."),
     NB + "states no time: say **Time:** N minutes once in the title cell" + STEP.format(1)),
]  # fmt: skip


def test_the_fake_project_misses_nothing(tmp_path: Path) -> None:
    root = fake_project(tmp_path)
    assert [missing(root, p.name) for p in sorted((root / "notebooks").glob("*.ipynb"))] == [[], [], []]
    assert orphans(root) == []


@pytest.mark.parametrize(("change", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_missing_piece_is_named_with_what_to_do(
    tmp_path: Path, change: Callable[[Path], None], expected: str
) -> None:
    root = fake_project(tmp_path)
    change(root)
    assert missing(root, "14-foo.ipynb") == [expected]
    assert missing(root, "00-start-here.ipynb") == []


def test_a_notebook_not_named_like_a_lesson_is_named(tmp_path: Path) -> None:
    root = fake_project(tmp_path)
    (root / "notebooks/14-foo.ipynb").rename(root / "notebooks/14_foo.ipynb")
    assert missing(root, "14_foo.ipynb") == [
        "notebooks/14_foo.ipynb: is not named like a lesson: name it NN-topic.ipynb (two digits, a dash, the topic), "
        "or add it to NOT_LESSONS in tests/lesson_files.py (docs/authoring.md, 'A new lesson', step 1)"
    ]
    assert orphans(root) == [
        "duel_lessons/teaching/checks/lesson14.py: no notebooks/14-topic.ipynb: add the lesson, or remove this file "
        "(docs/authoring.md, 'A new lesson', step 2)",
        "tests/test_lesson14_foo.py: no notebooks/14-topic.ipynb: add the lesson, or remove this file "
        "(docs/authoring.md, 'A new lesson', step 3)",
    ]


def test_a_lesson_missing_everything_gets_every_message(tmp_path: Path) -> None:
    root = fake_project(tmp_path)
    (root / "notebooks/15-bar.ipynb").write_text(notebook(markdown("# 15. Bar?")))
    found = missing(root, "15-bar.ipynb")
    assert [int(m.group(1)) for m in (re.search(r"step (\d+)\)$", f) for f in found) if m] == [
        1, 1, 1, 2, 3, 4, 5, 5, 6, 7
    ]  # fmt: skip
