"""Student copies of the lessons (solutions and teacher notes removed), and the answer key, losing nothing.

A cell is removed when

* it is tagged ``solution``, ``teacher``, ``teacher-note`` or ``teacher_note`` (any case,
  singular or plural, tags given as a list or as one string), or
* nbgrader marks it as a solution (``{"nbgrader": {"solution": true}}``, or ``"solution": true``), or
* it is a code cell whose leading comment lines (cell magics such as ``%%time`` and line
  magics such as ``%matplotlib inline`` above them are skipped) include a marker:
  ``# SOLUTION`` (``# Solution``, ``#solution``, ``# Model solution`` ...), ``# Exercise 1 -
  solution`` (or ``: solution``, ``(solution)``), ``# Solution to exercise 2``, or
  ``# Teacher note``, or
* it is a markdown cell whose first line is a teacher note: bold (``**Teacher note:**``,
  ``__Teacher note__``), a heading (``## Teacher note``), or a quote (``> Teacher note:``,
  ``> **Teacher's notes**``).

Outputs, execution counts and saved widget state are cleared; exercises and their checks
stay, and an unanswered exercise prints "Not answered yet".

Nothing is lost:

* Every source notebook is read and validated with nbformat (v3 is upgraded) before
  anything is written; a malformed one gives a one-line :class:`CopyError` naming the file.
* The destination may not be the source folder, lie inside it, contain it, or hold
  teacher notebooks (notebooks with solution cells that this command did not make).
* Each copy records a hash of its cells' sources in its metadata.  A copy that is still as
  this command wrote it is replaced; anything else (a student's edited copy, a file this
  command did not make) is refused, unless ``force=True``, which first keeps a backup.
* Each file is written to a temporary name in the destination and renamed into place, so
  a crash leaves the old file or the new one, and a link at the target is replaced, never
  written through.

>>> is_removed({"cell_type": "code", "source": "# Exercise 2\\n# Solution\\nanswer = 4", "metadata": {}})
True
>>> is_removed({"cell_type": "markdown", "source": "Try it!", "metadata": {"tags": "Solutions"}})
True
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

import duel_lessons.teaching.declared as declared
from duel_lessons.engine.errors import DuelError
from duel_lessons.teaching.gating import gate_of, gated_cell, gated_texts
from duel_lessons.views.files import write_atomically

REMOVED_TAGS = frozenset({"solution", "teacher", "teacher-note", "teacher_note"})
#: A code cell's leading comment that marks a solution or a teacher's note.
CODE_MARKER = re.compile(
    r"#+\s*(?:(?:exercise|task|question|part)\s*[\w.]*\s*[-:–—.(\[]*\s*)?(?:model\s+|worked\s+)?"
    r"(solutions?|teacher'?s?[ _-]?notes?)\b",
    re.IGNORECASE,
)
#: A markdown cell whose first line is a teacher's note: bold, a heading or a quote.
MARKDOWN_MARKER = re.compile(
    r"(?:(?:[#>]+\s*)+(?:\*\*|__|\*|_)?|\*\*|__)\s*teacher'?s?[ _-]?notes?(?![a-z])", re.IGNORECASE
)
#: A markdown cell's first line that is a heading or a quote naming a solution ("## Solution", "> Model solution").
MARKDOWN_SOLUTION = re.compile(r"(?:#+|>+)\s*(?:\*\*|__)?\s*(?:model\s+)?solutions?\b", re.IGNORECASE)
#: Largest notebook read (a bigger file is not a lesson; checked before reading).
MAX_NOTEBOOK = 50 * 2**20
#: Where a student copy keeps its hash (notebook metadata).
COPY_KEY = "duel_lessons_student_copy"
#: The first lines of the answer key, by which write_answer_key knows a file it made.
KEY_TITLE = "# Answer key"
KEY_INTRO = "Made from the lessons' solution cells by `duel-lessons answer-key notebooks/`"


class CopyError(DuelError):
    """A student copy or answer key that cannot be made without losing something, or a malformed notebook."""


def _source(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(str(part) for part in source)
    return source if isinstance(source, str) else ""


def _tags(cell: Mapping[str, Any]) -> set[str]:
    metadata = cell.get("metadata")
    tags = metadata.get("tags", []) if isinstance(metadata, Mapping) else []
    if isinstance(tags, str):
        tags = re.split(r"[\s,]+", tags)
    if not isinstance(tags, list):
        return set()
    words = {str(t).strip().lower() for t in tags}
    return words | {w[:-1] for w in words if w.endswith("s")}


#: A call that shows a lesson's model solution: removed from student copies even without its tag.
MODEL_SOLUTION = re.compile(r"\blesson\.solution\s*\(")


def _nbgrader_solution(cell: Mapping[str, Any]) -> bool:
    metadata = cell.get("metadata")
    if not isinstance(metadata, Mapping):
        return False
    grader = metadata.get("nbgrader")
    return metadata.get("solution") is True or (isinstance(grader, Mapping) and grader.get("solution") is True)


def is_removed(cell: Mapping[str, Any]) -> bool:
    r"""Whether a cell (parsed JSON or nbformat node) holds a solution or a teacher note.

    >>> is_removed({"cell_type": "code", "source": "%%time\n# SOLUTION\nx = 1", "metadata": {}})
    True
    >>> is_removed({"cell_type": "markdown", "source": "> **Teacher note:** odd numbers lose", "metadata": {}})
    True
    >>> is_removed({"cell_type": "code", "source": "# Check your answer\nlesson.check(1, answer)", "metadata": {}})
    False
    """
    if _tags(cell) & REMOVED_TAGS or _nbgrader_solution(cell):
        return True
    lines = _source(cell).lstrip().splitlines()
    if cell.get("cell_type") == "code":
        if MODEL_SOLUTION.search(_source(cell)):
            return True  # a model solution, even if its tag was forgotten
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("%"):
                continue  # a magic (%%time, %matplotlib inline) above the comments
            if stripped and not stripped.startswith("#"):
                return False  # only the leading comment block is searched
            if CODE_MARKER.match(stripped):
                return True
        return False
    if not lines:
        return False
    first = lines[0].strip()
    return MARKDOWN_MARKER.match(first) is not None or MARKDOWN_SOLUTION.match(first) is not None


def sources_hash(cells: list[Any]) -> str:
    """A hash of the cells' types and sources (the first mark of a copy: kept to recognise older copies)."""
    plain = [[str(c.get("cell_type", "")), _source(c)] for c in cells if isinstance(c, Mapping)]
    return hashlib.sha256(json.dumps(plain, ensure_ascii=False).encode("utf-8")).hexdigest()


def content_hash(cells: list[Any]) -> str:
    """A hash of everything a student's work changes: types, sources, outputs and run counts.

    A copy that a student has only run (its outputs filled in) is their work too.
    """
    plain = [
        [str(c.get("cell_type", "")), _source(c), c.get("outputs") or [], c.get("execution_count")]
        for c in cells
        if isinstance(c, Mapping)
    ]
    text = json.dumps(plain, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_LESSON_CALL = re.compile(r"""\bLesson\(\s*(["']?\d{1,2}["']?)\s*,(?!\s*student=)""")


def student_lesson(source: str) -> str:
    """A code cell's source with its ``Lesson("04", ...)`` made the student edition's (no model answers).

    >>> student_lesson('lesson = Lesson("04", rules=RULES)')
    'lesson = Lesson("04", student=True, rules=RULES)'
    """
    return _LESSON_CALL.sub(lambda m: f"Lesson({m.group(1)}, student=True,", source)


def student_notebook(notebook: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a notebook (parsed JSON or nbformat node) without solutions, teacher notes, outputs or widget state.

    The copy's metadata records the hash of its sources (see :func:`sources_hash`).
    """
    cells = []
    parts = 0
    for cell in notebook.get("cells", []):
        if is_removed(cell):
            continue
        cell = dict(cell)
        if gate_of(cell):
            parts += 1
            cell = gated_cell(f"part-{parts}")
        elif cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
            cell["source"] = student_lesson(_source(cell))
        cells.append(cell)
    metadata = {k: v for k, v in dict(notebook.get("metadata") or {}).items() if k not in ("widgets", COPY_KEY)}
    metadata[COPY_KEY] = {"sources_sha256": sources_hash(cells), "content_sha256": content_hash(cells)}
    return {**notebook, "metadata": metadata, "cells": cells}


# -- reading ---------------------------------------------------------------------------------


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """A notebook read, upgraded to v4 and validated; CopyError (one line, naming the file) otherwise."""

    def fail(why: str) -> CopyError:
        return CopyError(f"{path}: {why}; nothing was written.")

    try:
        raw = read_regular(path, MAX_NOTEBOOK)
    except IsADirectoryError:
        raise fail("is a folder, not a notebook") from None
    except OSError as error:
        raise fail(f"cannot be read ({error.strerror or error})") from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))  # a byte-order mark (Windows editors) is harmless
    except UnicodeDecodeError:
        raise fail("is not UTF-8 text (saved in another encoding, such as Latin-1?)") from None
    except (ValueError, RecursionError) as error:
        raise fail(f"is not valid JSON ({str(error).splitlines()[0][:120]})") from None
    if not isinstance(data, dict):
        raise fail(f"is not a notebook (the file holds a JSON {type(data).__name__}, not an object)")
    version = data.get("nbformat")
    if type(version) is not int or version not in (3, 4):
        raise fail(f"has nbformat version {version!r}; versions 3 and 4 can be read")
    for cell in _raw_cells(data):
        metadata = cell.get("metadata") if isinstance(cell, dict) else None
        tags = metadata.get("tags") if isinstance(metadata, dict) else None
        if isinstance(tags, str):  # tags typed as one string: "solution" or "parameters, solution"
            tags = [t for t in re.split(r"[\s,]+", tags) if t]
        if isinstance(tags, list) and isinstance(metadata, dict):
            metadata["tags"] = list(dict.fromkeys(tags)) if all(isinstance(t, str) for t in tags) else tags
    try:
        notebook: nbformat.NotebookNode = nbformat.reads(json.dumps(data), as_version=4)  # type: ignore[no-untyped-call]
        nbformat.validate(notebook)
    except Exception as error:  # nbformat raises many kinds; each means "not a valid notebook"
        message = str(getattr(error, "message", "") or error).splitlines()
        raise fail(f"is not a valid notebook ({(message[0] if message else type(error).__name__)[:160]})") from None
    return notebook


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; OSError for anything else, without hanging.

    A link, a FIFO or a device (``/dev/zero`` under a lesson's name) is refused before it is read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if path.is_symlink():
            raise OSError(error.errno, "it is a link; give the file itself") from None
        raise
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(21, "is a folder")
        if not stat.S_ISREG(info.st_mode):
            raise OSError(22, "it is not a regular file (a FIFO, a device or a socket)")
        if info.st_size > limit:
            raise OSError(27, f"it is {info.st_size:,} bytes, over the limit of {limit:,}")
        data = file.read(limit + 1)
    if len(data) > limit:
        raise OSError(27, f"it is over the limit of {limit:,} bytes")
    return data


def _raw_cells(data: dict[str, Any]) -> list[Any]:
    cells = data.get("cells")
    if isinstance(cells, list):
        return cells
    worksheets = data.get("worksheets")  # nbformat 3
    if isinstance(worksheets, list):
        return [c for w in worksheets if isinstance(w, dict) for c in (w.get("cells") or [])]
    return []


def _lessons(src: Path, pattern: str = "*.ipynb") -> list[Path]:
    if not src.exists():
        raise CopyError(f"{src} does not exist.")
    notebooks = [src] if not src.is_dir() else sorted(src.glob(pattern))
    if not notebooks:
        raise CopyError(f"No notebooks (*.ipynb) in {src}.")
    return notebooks


# -- what is in the destination --------------------------------------------------------------


def _copy_state(path: Path) -> str:
    """``"ours"`` (an unchanged copy this command made), ``"edited"`` (one of ours, changed since),
    ``"teacher"`` (a notebook with solutions that is not ours), or ``"other"``."""
    try:
        data = json.loads(read_regular(path, MAX_NOTEBOOK).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return "other"
    if not isinstance(data, dict):
        return "other"
    cells = _raw_cells(data)
    metadata = data.get("metadata")
    mark = metadata.get(COPY_KEY) if isinstance(metadata, dict) else None
    if isinstance(mark, dict):
        if "content_sha256" in mark:
            return "ours" if mark.get("content_sha256") == content_hash(cells) else "edited"
        run = any(isinstance(c, dict) and (c.get("outputs") or c.get("execution_count") is not None) for c in cells)
        return "ours" if mark.get("sources_sha256") == sources_hash(cells) and not run else "edited"
    if any(isinstance(c, dict) and is_removed(c) for c in cells):
        return "teacher"
    return "other"


@dataclass(frozen=True)
class _Plan:
    target: Path
    text: str
    backup: bool


def _check_destination(folder: Path, dest: Path) -> None:
    src_real, dest_real = folder.resolve(), dest.resolve()
    if dest.exists() and not dest.is_dir():
        raise CopyError(f"{dest} is not a folder; nothing was written.")
    if dest_real == src_real:
        raise CopyError(f"Refusing to overwrite the teacher's notebooks: {dest} is the source folder.")
    if dest_real.is_relative_to(src_real):
        raise CopyError(f"Refusing: {dest} lies inside the source folder {folder}; choose a folder outside it.")
    if src_real.is_relative_to(dest_real):
        raise CopyError(f"Refusing: {dest} contains the source folder {folder}; choose a folder outside it.")
    if dest.is_dir():
        teacher = [p.name for p in sorted(dest.glob("*.ipynb")) if p.is_file() and _copy_state(p) == "teacher"]
        if teacher:
            raise CopyError(
                f"Refusing: {dest} holds teacher notebooks with solutions ({', '.join(teacher[:3])}"
                f"{', ...' if len(teacher) > 3 else ''}); write the student copies to a new folder."
            )


def _plan_target(target: Path, force: bool) -> bool:
    """Whether the target needs a backup before it is replaced (CopyError if it may not be replaced)."""
    if target.is_symlink():
        raise CopyError(f"Refusing to replace {target}: it is a link; remove it first. Nothing was written.")
    if not target.exists():
        return False
    if target.is_dir():
        raise CopyError(f"Refusing: {target} is a folder; nothing was written.")
    if not target.is_file():
        raise CopyError(f"Refusing to replace {target}: not a regular file (a FIFO or a device). Nothing was written.")
    state = _copy_state(target)
    if state == "ours":
        return False
    if not force:
        why = "a student has edited this copy" if state == "edited" else "this command did not make it"
        raise CopyError(
            f"Refusing to overwrite {target}: {why}. Use --force (force=True) to replace it; a backup is kept."
        )
    return True


# -- writing ---------------------------------------------------------------------------------


def backup_path(path: Path) -> Path:
    """A free name for a backup of ``path``: ``NAME.SUFFIX.backup-YYYYmmdd-HHMMSS[-k]``.

    The name does not end in ``.ipynb``, so a backup is never taken for a lesson when the folder
    is copied again.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for k in range(1, 10_000):
        extra = "" if k == 1 else f"-{k}"
        candidate = path.with_name(f"{path.name}.backup-{stamp}{extra}")
        if not candidate.exists() and not candidate.is_symlink():
            return candidate
    raise CopyError(f"No free name for a backup of {path}.")


def _keep_backup(path: Path) -> Path:
    backup = backup_path(path)
    try:
        os.link(path, backup)  # fails rather than replace an existing file
    except OSError:  # a file system without hard links (a USB stick): copy, still never replacing a file
        with path.open("rb") as source, backup.open("xb") as copy:
            shutil.copyfileobj(source, copy)
    return backup


def _plan_declarations(target: Path, force: bool) -> bool:
    """Whether a student declarations file to be replaced needs a backup (CopyError if it may not be replaced)."""
    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise CopyError(f"Refusing to replace {target}: not a regular file; remove it first. Nothing was written.")
    if not target.exists():
        return False
    try:
        ours = target.read_text(encoding="utf-8").startswith(declared.STUDENT_HEADER)
    except (OSError, UnicodeDecodeError):
        ours = False
    if ours:
        return False
    if not force:
        raise CopyError(
            f"Refusing to replace {target}: this command did not make it (use --force to keep it as a backup)."
        )
    return True


def _declarations(notebook: Path, teacher: Mapping[str, Any]) -> declared.Declarations | None:
    """The declared exercises beside a notebook (``NN-topic.lesson.toml``) with its gated cells' texts, or None.

    CopyError if the file is malformed, or if gated cells have no lesson number to be filed under.
    """
    path = notebook.with_name(notebook.stem + declared.SUFFIX)
    texts = gated_texts(teacher)
    if not path.exists():
        number = notebook.name.split("-", 1)[0]
        if not texts:
            return None
        if not number.isdigit():
            raise CopyError(
                f"{notebook}: it has cells tagged after:..., so its name must start with its number (04-...)."
            )
        return declared.Declarations(number.zfill(2), path.name, texts=texts)
    try:
        found = declared.load(path)
    except declared.DeclarationError as error:
        raise CopyError(f"{error} Nothing was written.") from None
    if found.edition != "teacher":
        raise CopyError(f"{path}: this is a student copy already; make copies from the teacher's lessons.")
    return declared.Declarations(
        found.lesson, found.source, dict(found.exercises), dict(found.discoveries), texts={**found.texts, **texts}
    )


def write_student_copies(src: Path | str, dest: Path | str, *, force: bool = False) -> list[Path]:
    """Write student copies of every ``.ipynb`` in ``src`` (a folder or one notebook) into ``dest``.

    Returns the paths written.  Raises :class:`CopyError` (and writes nothing) for a malformed
    notebook, a destination that is, contains or lies in the source, or holds teacher
    notebooks, and (unless ``force``) a copy a student has edited or a file this command did
    not make.  With ``force`` such a file is first kept as ``NAME.backup-DATE.ipynb``.
    """
    if not str(dest).strip() or not str(src).strip():
        raise CopyError("The source and the destination must be folder names, not empty; nothing was written.")
    src, dest = Path(src), Path(dest)
    notebooks = _lessons(src)
    teachers = [read_notebook(path) for path in notebooks]
    copies = [student_notebook(teacher) for teacher in teachers]  # all valid before anything is written
    declarations = [_declarations(path, teacher) for path, teacher in zip(notebooks, teachers, strict=True)]
    _check_destination(src if src.is_dir() else src.parent, dest)
    plans = []
    for path, copy in zip(notebooks, copies, strict=True):
        target = dest / path.name
        text = nbformat.writes(nbformat.from_dict(copy)) + "\n"  # type: ignore[no-untyped-call]
        plans.append(_Plan(target, text, _plan_target(target, force)))
    for path, exercises in zip(notebooks, declarations, strict=True):
        if exercises is not None:  # the student edition of its declared exercises: no model answers, sealed
            target = dest / (path.stem + declared.SUFFIX)
            plans.append(_Plan(target, exercises.student_text(), _plan_declarations(target, force)))
    dest.mkdir(parents=True, exist_ok=True)
    for plan in plans:
        if plan.backup:
            _keep_backup(plan.target)
        write_atomically(plan.target, [plan.text], force=True)  # checked above: ours, or kept as a backup
    return [plan.target for plan in plans]


# -- the answer key --------------------------------------------------------------------------


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
    import ast

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
