"""The answer key: every exercise of the teacher's notebooks with its model answer, as markdown.

``duel-lessons answer-key notebooks/`` prints it; ``docs/answer-key.md`` is made by it.  A solution
cell ``lesson.solution(name)`` is shown as the model answer computed from the lesson's parameters
and declarations; other solution cells are shown as code.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from duel_lessons.engine.errors import DuelError
from duel_lessons.teaching.markers import CopyError, _source, is_removed
from duel_lessons.teaching.student_copies import (
    KEY_INTRO,
    KEY_TITLE,
    _keep_backup,
    _lessons,
    read_notebook,
    read_regular,
)
from duel_lessons.views.files import write_atomically


def _title(cells: list[Any], fallback: str) -> str:
    """The first level-one heading (``# ...``) of the notebook's text cells, else ``fallback``."""
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            for line in _source(cell).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return fallback


def _model_text(cells: list[Any], solution: str, path: Path) -> str:
    """A solution cell as the answer key shows it: ``lesson.solution(name)`` becomes its model answer.

    The model answer (``SPEC.model``) is computed with the notebook's own parameters, read without
    running it, so the key of an adapted lesson is right for it.  A cell in the old form
    (``lesson.solution(1, [512], why=...)``) or any other code is shown as it is.
    """

    try:
        tree = ast.parse(solution)
    except SyntaxError:
        return f"```python\n{solution}\n```"
    calls = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and ast.unparse(node.value.func) == "lesson.solution"
        and len(node.value.args) == 1
        and not node.value.keywords
        and isinstance(node.value.args[0], ast.Constant)
    ]
    if len(calls) != 1:
        return f"```python\n{solution}\n```"
    from duel_lessons.teaching.checks import spec
    from duel_lessons.teaching.feedback import show
    from duel_lessons.teaching.lesson import Lesson, label
    from duel_lessons.teaching.parameters import ParametersError, lesson_arguments

    name = str(calls[0].args[0].value)  # type: ignore[attr-defined]
    try:
        number, arguments = lesson_arguments(cells)
        lesson = Lesson(number, **arguments)
        found = spec(number, folder=path.parent)
        if name not in found.models:
            raise DuelError(
                f"Lesson {number} has no model answer for {name!r}: declare it or add @SPEC.model({name!r})."
            )
        model, why = found.models[name](lesson.params)
    except (ParametersError, DuelError) as error:
        raise CopyError(f"{path}: the model answer of {name!r} cannot be computed: {error}") from None
    title = found.labels.get(name, label(name))
    text = f"**{title}, model answer:** `{show(model)}`"
    problem = found.orderings.get(name)
    if problem is not None and isinstance(model, list):
        text += "\n\n" + "\n".join(f"{i}. ({x}) {problem.lines[x]}" for i, x in enumerate(model, 1))
    return text + (f"\n\n{why}" if why else "")


def answer_key(src: Path | str) -> str:
    """Markdown listing every exercise of the lessons in ``src`` with its model answer.

    A solution cell ``lesson.solution(name)`` is shown as the model answer computed from the lesson's
    parameters (``SPEC.model``); other solution cells are shown as code.
    """
    src = Path(src)
    notebooks = _lessons(src, "[0-9][0-9]-*.ipynb")
    lessons = [(path, read_notebook(path).cells) for path in notebooks]  # all valid before any output
    parts = [
        KEY_TITLE,
        "",
        f"{KEY_INTRO}; the answers are computed from each lesson's parameters.",
    ]
    for path, cells in lessons:
        parts += ["", f"## {path.stem}: {_title(cells, path.stem)}"]
        for i, cell in enumerate(cells):
            if cell.get("cell_type") != "code" or not is_removed(cell):
                continue
            question = _source(cells[i - 1]).strip() if i else ""
            if question.startswith("lesson.check(") and i > 1:  # answer cell, check cell, solution cell
                question = _source(cells[i - 2]).strip()
            solution = _source(cell).strip()
            parts += ["", "```python", question, "```", "", _model_text(cells, solution, path)]
    return "\n".join(parts) + "\n"


def is_answer_key(path: Path) -> bool:
    """Whether the file at ``path`` is an answer key this command wrote (by its first lines)."""
    try:
        head = read_regular(path, 2**20).decode("utf-8").split("\n")[:3]
    except (OSError, ValueError):
        return False
    if len(head) < 3:
        return False
    return head[0] == KEY_TITLE and head[2].startswith(KEY_INTRO)


def write_answer_key(src: Path | str, output: Path | str, *, force: bool = False) -> Path:
    """Write the answer key of ``src`` to ``output`` atomically.

    An existing ``output`` is replaced only if it is an answer key this command wrote, or with
    ``force`` (then a backup is kept).  Links and folders are never replaced.
    """
    if not str(output).strip():
        raise CopyError("The answer key's file name is empty; give one, such as answer-key.md.")
    output = Path(output)
    text = answer_key(src)
    if output.is_symlink():
        raise CopyError(f"Refusing to replace {output}: it is a link; remove it first.")
    if output.is_dir():
        raise CopyError(f"{output} is a folder: give the answer key a file name, such as answer-key.md.")
    if not output.parent.is_dir():
        raise CopyError(f"The folder {output.parent} does not exist.")
    if output.exists() and not output.is_file():
        raise CopyError(f"Refusing to replace {output}: not a regular file (a device or a FIFO), even with --force.")
    if output.exists() and not is_answer_key(output):
        if not force:
            raise CopyError(
                f"Refusing to overwrite {output}: it is not an answer key made by this command. "
                "Use --force to replace it; a backup is kept."
            )
        _keep_backup(output)
    write_atomically(output, [text], force=True)  # checked above; a backup is kept
    return output
