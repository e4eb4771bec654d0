"""Student copies of the lessons (solutions and teacher notes removed), and the answer key, losing nothing.

A cell is removed when

* it is tagged ``solution``, ``teacher``, ``teacher-note`` or ``teacher_note`` (any case,
  singular or plural, tags given as a list or as one string split at ``,;|/`` or spaces;
  also ``teacher-only``, ``instructor``, and ``solution`` as part of a tag), or
* its metadata says ``"solution": true`` (or ``"true"``, ``"yes"``, ``"1"``...), or it is a
  RISE speaker note or a solution cell of the Exercise nbextensions (``"solution2": "hidden"``), or
* it is a code cell whose leading comment lines (cell magics such as ``%%time`` and line
  magics such as ``%matplotlib inline`` above them are skipped) include a marker:
  ``# SOLUTION`` (``# Solution``, ``#solution``, ``# Model solution`` ...), ``# Exercise 1 -
  solution`` (or ``: solution``, ``(solution)``), ``# Solution to exercise 2``, or
  ``# Teacher note``; or any of its comment lines is only such a marker, or
* it is a markdown cell whose first words, after markup or followed by a colon, are a teacher
  note or a solution (``**Teacher note:**``, ``## Solution``, ``> Teacher note:``,
  ``Teacher note: ...``), or it holds a ``<summary>``, an HTML class or a MyST directive naming one.

nbgrader's markers are cleared as ``nbgrader generate_assignment`` clears them: a
``### BEGIN SOLUTION`` ... ``### END SOLUTION`` region becomes the stub (``# YOUR CODE HERE`` and
``raise NotImplementedError()``, or ``YOUR ANSWER HERE`` in text), as does a cell whose nbgrader
metadata says ``"solution": true`` (or ``"true"``); ``### BEGIN HIDDEN TESTS`` regions go.
otter-grader's ``x = 4  # SOLUTION`` becomes ``x = ...``.  A byte-order mark or a zero-width space
before a marker changes nothing.  A cell that looks like a marker but matches no rule
(``### BEGIN SOLUTON``, a region never closed, ``"solution": "maybe"``) is refused: no copy is
written (:class:`MarkerError`, naming the notebook and the cell).  docs/teacher-guide.md
("Markers") lists every form.

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

import dataclasses
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
from duel_lessons.teaching.gating import gate_of, gated_cell, gated_texts
from duel_lessons.teaching.markers import CopyError, MarkerError, _across_name, _source, cell_plan, is_removed
from duel_lessons.views.files import write_atomically

#: Largest notebook read (a bigger file is not a lesson; checked before reading).
MAX_NOTEBOOK = 50 * 2**20

#: Where a student copy keeps its hash (notebook metadata).
COPY_KEY = "duel_lessons_student_copy"

#: The first lines of the answer key, by which write_answer_key knows a file it made.
KEY_TITLE = "# Answer key"

KEY_INTRO = "Made from the lessons' solution cells by `duel-lessons answer-key notebooks/`"


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


def student_notebook(notebook: Mapping[str, Any], *, name: str = "The notebook") -> dict[str, Any]:
    """A copy of a notebook (parsed JSON or nbformat node) without solutions, teacher notes, outputs or widget state.

    Solutions in nbgrader's markers become its stubs (see :func:`cell_plan`).  The copy's metadata
    records the hash of its sources (see :func:`sources_hash`).  :class:`MarkerError`, naming
    ``name`` and the cell (counted from 1), for a cell that looks like a marker but matches no rule.
    """
    given = list(notebook.get("cells", []))

    def refuse(number: int, why: object) -> MarkerError:
        return MarkerError(
            f"{name}: cell {number} of {len(given)} looks like a solution marker but matches no rule: {why}. "
            'No student copy was written; fix the marker (see "Markers" in docs/teacher-guide.md).'
        )

    cells = []
    region: tuple[int, str] | None = None  # a region across cells: the cell that opened it, and what it holds
    parts = 0  # cells tagged after:GUESS, numbered as gated_texts numbers them
    for number, cell in enumerate(given, 1):
        try:
            fate, text = cell_plan(cell)
        except MarkerError as error:
            if region is not None:
                continue  # inside a region that is left out whole
            raise refuse(number, error) from None
        if fate == "begin":
            if region is not None:
                raise refuse(
                    number,
                    f"it holds {_across_name(text)}, opening a region inside the one that cell {region[0]} opened",
                )
            region = (number, text)
            continue
        if fate == "end":
            if region is None:
                raise refuse(number, f"it holds {_across_name(text, 'end')}, closing a region no earlier cell opened")
            if region[1] != text:
                raise refuse(
                    number,
                    f"it holds {_across_name(text, 'end')}, but cell {region[0]} opened {_across_name(region[1])}",
                )
            region = None
            continue
        if region is not None or fate == "remove":
            continue
        cell = dict(cell)
        if fate == "change":
            cell["source"] = text
        if gate_of(cell):
            parts += 1
            cell = gated_cell(f"part-{parts}")
        elif cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
            cell["source"] = student_lesson(_source(cell))
        cells.append(cell)
    if region is not None:
        raise refuse(
            region[0], f"it holds {_across_name(region[1])}, opening a region across cells that no later cell closes"
        )
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
        message = [line for line in str(getattr(error, "message", "") or error).splitlines() if line.strip()]
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
    return dataclasses.replace(found, texts={**found.texts, **texts})


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
    # all read and valid, and their markers all recognised, before anything is written
    teachers = [read_notebook(path) for path in notebooks]
    copies = [student_notebook(teacher, name=str(path)) for path, teacher in zip(notebooks, teachers, strict=True)]
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
