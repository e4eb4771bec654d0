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

from duel_lessons.engine.errors import DuelError
from duel_lessons.views.files import write_atomically

REMOVED_TAGS = frozenset({"solution", "teacher", "teacher-note", "teacher_note"})
#: More tags that remove a cell (after ``_`` becomes ``-`` and a plural ``s`` goes): teacher material by other names.
MORE_REMOVED_TAGS = frozenset({"teacher-only", "teachers-only", "instructor", "instructor-note", "instructor-only"})
#: What separates tags typed into one string: ``"solution;teacher"``, ``"parameters, solution"``.
TAG_SEPARATOR = re.compile(r"[\s,;|/+&]+")
#: Cell metadata keys (any case) whose true value removes the cell, as ``"solution": true`` does.
FLAG_KEYS = frozenset(
    {"solution", "solutions", "teacher", "teacher_note", "teacher-note", "teacher_only", "teacher-only"}
)
#: The Exercise and Exercise2 nbextensions: a solution cell's key ("hidden" or "shown"), and the question's flag.
EXERCISE_KEYS = {"solution": "solution_first", "solution2": "solution2_first"}
#: Flags written as words or numbers ("true", "True", "yes", "1"), as hand-edited metadata has them.
TRUE_WORDS = frozenset({"true", "yes", "y", "1", "on"})
FALSE_WORDS = frozenset({"false", "no", "n", "0", "off", "", "none", "null"})
#: nbgrader's stubs (its ClearSolutions defaults): what replaces a solution in a code cell and in a text cell.
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
TEXT_STUB = "YOUR ANSWER HERE"
#: Invisible characters that can hide before a marker: a byte-order mark, zero-width spaces and joiners, a soft hyphen.
INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060\u00ad"), None)

_LABEL = r"(?:(?:exercise|task|question|part|problem)(?:\s*[\w.]+)?[\s\-:–—(\[]*)?"
_SOLUTION = r"(?:model\s+|worked\s+)?solutions?"
_TEACHER = r"(?:(?:teacher|instructor)['’]?s?[ _-]?(?:notes?|only)|for\s+(?:teachers?|instructors?)(?:\s+only)?)"
#: A code cell's leading comment that marks a solution or a teacher's note.
CODE_MARKER = re.compile(rf"#[\W_]*{_LABEL}(?:{_SOLUTION}|{_TEACHER})\b", re.IGNORECASE)
#: A comment line, anywhere in a code cell, that is only a marker (``# SOLUTION`` as the last line, say).
LONE_MARKER = re.compile(rf"#[\W_]*{_LABEL}(?:{_SOLUTION}|{_TEACHER})[\W_]*", re.IGNORECASE)
#: A code cell's leading docstring that names a solution (``\"\"\"Solution to exercise 2\"\"\"``).
DOCSTRING_MARKER = re.compile(rf"[rRuUbB]?(?:\"\"\"|''')[\W_]*{_LABEL}(?:{_SOLUTION}|{_TEACHER})\b", re.IGNORECASE)
#: A markdown cell whose first line is a teacher's note: bold, a heading or a quote.
MARKDOWN_MARKER = re.compile(
    r"(?:(?:[#>]\s*)+(?:(?:\*\*|__|\*|_)\s*)?|(?:\*\*|__)\s*)teacher'?s?[ _-]?notes?(?![a-z])", re.IGNORECASE
)
#: A markdown cell's first line that is a heading or a quote naming a solution ("## Solution", "> Model solution").
MARKDOWN_SOLUTION = re.compile(r"(?:#+|>+)\s*(?:(?:\*\*|__)\s*)?(?:model\s+)?solutions?\b", re.IGNORECASE)
#: Markup before a text cell's first words: headings, quotes, emphasis, bullets, rules, HTML tags and comments.
MARKUP = re.compile(r"(?:[\s#>*_~`|+\-=:\\]|<!--|</?[a-zA-Z][^>]*>)*")
#: After markup, the words that mark a solution or a teacher's note ("**Solution:**", "## Teacher notes").
MARKED_WORDS = re.compile(rf"{_LABEL}(?:{_SOLUTION}\b|{_TEACHER}(?![a-z]))", re.IGNORECASE)
#: Without markup, the same words followed by a colon, a full stop or a dash, or alone ("Teacher note: ...").
PLAIN_WORDS = re.compile(rf"{_LABEL}(?:{_SOLUTION}|{_TEACHER})\s*(?:[:.!\-–—(]|$)", re.IGNORECASE)
#: A collapsible ``<details>`` whose summary names a solution or an answer, and an HTML class naming one.
SUMMARY = re.compile(
    r"<summary[^>]*>[\W_]*(?:(?:show|reveal|see|click|open|view|for|to|the|a|model|worked|full|sample|our)\s+)*"
    r"(?:solutions?|answers?|teachers?)\b",
    re.IGNORECASE,
)
HTML_CLASS = re.compile(r"""\bclass\s*=\s*["'][^"']*\b(?:solutions?|teacher(?:[-_]notes?)?)\b""", re.IGNORECASE)
#: A MyST directive (Jupyter Book): ```` ```{solution} ex1 ````, ``:::{admonition} Teacher note``.
DIRECTIVE = re.compile(r"\s*(?:`{3,}|:{3,})\s*\{([\w-]+)\}(.*)")
#: A line that opens or closes a region: nbgrader's ``### BEGIN SOLUTION`` ... ``### END HIDDEN TESTS``.
DELIMITER = re.compile(r"\s*(?:#+|<!--|//+)\s*(BEGIN|END)\s+(SOLUTIONS?|HIDDEN\s+TESTS?)(?:\s*-->)?\s*", re.IGNORECASE)
#: nbgrader's delimiter words in capitals anywhere, and a line shaped like one (``### BEGIN ANSWER``: three ``#``).
DELIMITER_WORDS = re.compile(r"\b(?:BEGIN|END)\s+(?:SOLUTION|HIDDEN\s+TEST)")
DELIMITER_SHAPE = re.compile(r"\s*(?:#{3,}|<!--|//+)\s*(?:BEGIN|END)(?:\s+[A-Z]{2,}\b)+")
#: A comment ``begin``/``end`` and a word, any case (``# begin soluton``), checked for a misspelt delimiter.
DELIMITER_LIKE = re.compile(r"\s*(?:#+|<!--|//+)\s*(?:begin|end)\s+(\w+)", re.IGNORECASE)
#: otter-grader's line marker: a ``# SOLUTION`` comment after code (``x = 4  # SOLUTION`` becomes ``x = ...``).
TRAILING = re.compile(r"\s#+[ \t]*solution\s*$", re.IGNORECASE)
#: The names assigned at the start of a line (``x``, ``a, b``, ``x: int``), before its ``=``.
ASSIGNED = re.compile(r"\s*[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*(?::[^=]*)?(?==(?!=))")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_NOTES = ("teacher note", "teacher notes", "teacher's note", "teacher's notes", "teachers note", "teachers notes")
#: A call that shows a lesson's model solution: removed from student copies even without its tag.
MODEL_SOLUTION = re.compile(r"\blesson\.solution\s*\(")
#: Largest notebook read (a bigger file is not a lesson; checked before reading).
MAX_NOTEBOOK = 50 * 2**20
#: Where a student copy keeps its hash (notebook metadata).
COPY_KEY = "duel_lessons_student_copy"
#: The first lines of the answer key, by which write_answer_key knows a file it made.
KEY_TITLE = "# Answer key"
KEY_INTRO = "Made from the lessons' solution cells by `duel-lessons answer-key notebooks/`"


class CopyError(DuelError):
    """A student copy or answer key that cannot be made without losing something, or a malformed notebook."""


class MarkerError(CopyError):
    """A cell that looks like a solution marker but matches no rule: no copy is made rather than show it."""


def _source(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(str(part) for part in source)
    return source if isinstance(source, str) else ""


def _visible(text: str) -> str:
    return text.translate(INVISIBLE)


def _metadata(cell: Mapping[str, Any]) -> Mapping[str, Any]:
    metadata = cell.get("metadata")
    return metadata if isinstance(metadata, Mapping) else {}


def _tags(cell: Mapping[str, Any]) -> set[str]:
    tags = _metadata(cell).get("tags", [])
    if isinstance(tags, str):
        tags = [tags]
    if not isinstance(tags, list):
        return set()
    words = {
        w.strip("#'\"`.!*()[]{}<>").replace("’", "'")
        for t in tags
        for w in TAG_SEPARATOR.split(_visible(str(t)).lower())
    }
    words.discard("")
    return words | {w[:-1] for w in words if w.endswith("s")}


def _removing_tag(words: set[str]) -> bool:
    """Whether the tags remove a cell: ``solution``, ``teacher``..., or ``solution`` as a part (``model-solution``)."""
    if words & REMOVED_TAGS or {w.replace("_", "-") for w in words} & MORE_REMOVED_TAGS:
        return True
    return any(part in ("solution", "solutions") for w in words for part in re.split(r"[-_.:]", w))


def _truth(value: object) -> bool | None:
    """A flag's value: JSON true or false, 1 or 0, or a word ("true", "True", "yes", "1", "no"); None if unreadable.

    >>> [_truth(v) for v in (True, "True", "yes", 1, " 1 ", None, "false", 0, "maybe", 2, [])]
    [True, True, True, True, True, False, False, False, None, None, None]
    """
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = _visible(value).strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    return None


def _nbgrader(metadata: Mapping[str, Any]) -> Mapping[str, Any]:
    grader = metadata.get("nbgrader")
    return grader if isinstance(grader, Mapping) else {}


def _nbgrader_solution(cell: Mapping[str, Any]) -> bool:
    """Whether nbgrader marks the cell as a solution (``{"nbgrader": {"solution": true}}``, or ``"true"``)."""
    return _truth(_nbgrader(_metadata(cell)).get("solution")) is True


def _exercise_state(value: object) -> bool:
    return isinstance(value, str) and value.strip().lower() in ("hidden", "shown")


def _flagged(metadata: Mapping[str, Any]) -> bool:
    """``"solution": true`` (or "true", "yes" ...) and its kin at the top of a cell's metadata; RISE speaker notes;
    the solution cells of the Exercise and Exercise2 nbextensions (``"solution2": "hidden"``, not the question's
    ``"solution2_first": true``)."""
    if any(str(key).strip().lower() in FLAG_KEYS and _truth(value) for key, value in metadata.items()):
        return True
    for key, first in EXERCISE_KEYS.items():
        if _exercise_state(metadata.get(key)) and not _truth(metadata.get(first)):
            return True
    slideshow = metadata.get("slideshow")
    return isinstance(slideshow, Mapping) and str(slideshow.get("slide_type", "")).strip().lower() == "notes"


def _distance(a: str, b: str) -> int:
    """The edit distance of two words, a swap of neighbours counting as one edit.

    >>> _distance("soluton", "solution"), _distance("soultion", "solution"), _distance("solution", "solution")
    (1, 1, 0)
    """
    before, row = list(range(len(b) + 1)), list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        earlier, before, row = before, row, [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(before[j] + 1, row[j - 1] + 1, before[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], earlier[j - 2] + 1)
    return row[len(b)]


def _near(word: str, target: str) -> bool:
    """Whether ``word`` nearly spells ``target`` (one or two edits, same first letter) without spelling it."""
    if word == target or word[:1] != target[:1] or len(word) < 5 or abs(len(word) - len(target)) > 2:
        return False  # the length test first: a long word is no slip of a short one, and costs no time
    return _distance(word, target) <= 2


def _misspelt(text: str) -> str | None:
    """The marker that the first words of ``text`` nearly spell ("Soluton", "Teacher ntoe"), or None.

    >>> _misspelt("Soluton: 512"), _misspelt("Teacher ntoe"), _misspelt("Solutions are below"), _misspelt("Resolution")
    ('solution', 'teacher note', None, None)
    """
    words = [w.lower().replace("’", "'") for w in _WORD.findall(text)[:2]]
    if not words:
        return None
    if words[0] not in ("solution", "solutions") and any(_near(words[0], t) for t in ("solution", "solutions")):
        return "solution"
    pair = " ".join(words)
    if len(words) == 2 and pair[:1] == "t" and len(pair) <= 16 and min(_distance(pair, t) for t in _NOTES) == 1:
        return "teacher note"
    return None


def _quote(text: str) -> str:
    text = text.strip()
    return json.dumps(text if len(text) <= 60 else text[:57] + "...", ensure_ascii=False)


def _value(value: object) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _head(stripped: str, rest: str, words: int) -> str:
    """``stripped`` up to the end of the first ``words`` words of ``rest`` (its tail): a marker without what follows it.

    A refusal quotes the marker, never the solution after it (a refusal may end up in a public CI log).
    """
    found = list(_WORD.finditer(rest))[:words]
    return stripped[: len(stripped) - len(rest) + (found[-1].end() if found else 0)]


def _misspelt_at(number: int, stripped: str, rest: str) -> str | None:
    marker = _misspelt(rest)
    if marker is None:
        return None
    head = _head(stripped, rest, 1 if marker == "solution" else 2)
    return f"line {number} starts {_quote(head)}, which nearly spells a marker ({marker})"


def _problem(kind: object, metadata: Mapping[str, Any], tags: set[str], lines: list[str]) -> str | None:
    """Why a cell (not removed) looks like a marker but matches no rule, or None."""
    for key, value in metadata.items():
        name = str(key).strip().lower()
        if name in EXERCISE_KEYS.values() or (name in EXERCISE_KEYS and _exercise_state(value)):
            continue  # the Exercise nbextensions' own keys and values
        if name == "solution2":
            return f'its metadata says "{key}": {_value(value)}, neither "hidden" nor "shown"'
        if name in FLAG_KEYS and _truth(value) is None:
            return f'its metadata says "{key}": {_value(value)}, neither true nor false'
        if name not in FLAG_KEYS and _misspelt(name.replace("_", " ").replace("-", " ")):
            return f'its metadata key "{key}" nearly spells a marker ("solution" or "teacher_note")'
    if "nbgrader" in metadata and not isinstance(metadata["nbgrader"], Mapping):
        return 'its nbgrader metadata is not an object such as {"solution": true}'
    for key, value in _nbgrader(metadata).items():
        name = str(key).strip().lower()
        if name in ("solution", "grade", "task", "locked") and _truth(value) is None:
            return f'its nbgrader metadata says "{key}": {_value(value)}, neither true nor false'
        if name != "solution" and _misspelt(name) == "solution":
            return f'its nbgrader metadata key "{key}" nearly spells "solution"'
    for tag in sorted(tags):
        for part in re.split(r"[-_.:]", tag):
            if _misspelt(part) or (_near(part, "teacher") and part not in ("teachers", "teacher's")):
                return f'its tag "{tag}" nearly spells a marker ("solution" or "teacher")'
    for number, line in enumerate(lines, 1):
        if DELIMITER.fullmatch(line):
            continue
        like = DELIMITER_LIKE.match(line)
        if like and not any(_near(like.group(1).lower(), w) for w in ("solution", "solutions", "hidden")):
            like = None
        shape = DELIMITER_WORDS.search(line) or DELIMITER_SHAPE.match(line) or like
        if shape is not None:
            return (
                f'line {number} holds {_quote(shape.group(0))} but is not "### BEGIN SOLUTION", "### END SOLUTION", '
                '"### BEGIN HIDDEN TESTS" or "### END HIDDEN TESTS" alone on its line'
            )
    texts = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    if kind == "code":
        leading = True
        for number, line in texts:
            stripped = line.strip()
            if stripped.startswith("%") and leading:
                continue
            if not stripped.startswith("#"):
                leading = False
                continue
            rest = stripped[re.match(rf"#[\W_]*{_LABEL}", stripped, re.IGNORECASE).end() :]  # type: ignore[union-attr]
            if (leading or len(_WORD.findall(rest)) <= 2) and (problem := _misspelt_at(number, stripped, rest)):
                return problem
        return None
    for number, line in texts:
        rest = line.strip()[MARKUP.match(line.strip()).end() :]  # type: ignore[union-attr]
        if not rest:
            continue
        plain = MARKUP.match(line.strip()).end() == 0  # type: ignore[union-attr]
        rest = rest[re.match(_LABEL, rest, re.IGNORECASE).end() :]  # type: ignore[union-attr]
        shaped = re.match(r"[^\W_]+(?:['’][^\W_]+)?(?:\s+[^\W_]+)?\s*(?:[:.!\-–—(]|$)", rest)
        return _misspelt_at(number, line.strip(), rest) if not plain or shaped else None
    return None


def _code_marked(source: str, lines: list[str]) -> bool:
    """A code cell marked in its text: ``lesson.solution(``, a marker in its leading comments, a lone marker line."""
    if MODEL_SOLUTION.search(source):
        return True  # a model solution, even if its tag was forgotten
    leading = True
    for line in lines:
        stripped = line.strip()
        if leading:
            if not stripped or stripped.startswith("%"):
                continue  # a magic (%%time, %matplotlib inline) above the comments
            if stripped.startswith("#"):
                if CODE_MARKER.match(stripped):
                    return True
                continue
            leading = False  # the leading comment block ends
            if DOCSTRING_MARKER.match(stripped):
                return True
        if LONE_MARKER.fullmatch(stripped):
            return True
    return False


def _text_marked(lines: list[str]) -> bool:
    """A markdown or raw cell marked in its text: its first words, a summary, an HTML class, a MyST directive."""
    for line in lines:
        if SUMMARY.search(line) or HTML_CLASS.search(line):
            return True
        directive = DIRECTIVE.match(line)
        if directive and (
            directive.group(1).lower() in ("solution", "solutions")
            or MARKED_WORDS.match(directive.group(2).strip(" *_`:>#"))
        ):
            return True
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        if MARKDOWN_MARKER.match(stripped) or MARKDOWN_SOLUTION.match(stripped):
            return True
        markup = MARKUP.match(stripped).end()  # type: ignore[union-attr]
        if markup == len(stripped):
            continue  # only markup (<details>, ---, <!-- -->): the first words come later
        return bool((MARKED_WORDS if markup else PLAIN_WORDS).match(stripped[markup:]))
    return False


def _across(kind: object, lines: list[str]) -> tuple[str, str] | None:
    """("begin" or "end", what) if the cell opens or closes a region across cells, else None.

    A cell holding only ``### BEGIN SOLUTION`` (or ``END``, or ``HIDDEN TESTS``) does, and so does a
    MyST ``{solution-start}`` or ``{solution-end}`` directive (sphinx-exercise).
    """
    texts = [line for line in lines if line.strip()]
    if len(texts) == 1 and (delimiter := DELIMITER.fullmatch(texts[0])):
        what = "SOLUTION" if delimiter.group(2).upper().startswith("SOL") else "HIDDEN TESTS"
        return delimiter.group(1).lower(), what
    if kind == "code":
        return None
    names = [d.group(1).lower() for line in lines if (d := DIRECTIVE.match(line))]
    start, end = "solution-start" in names, "solution-end" in names
    if start != end:
        return ("begin" if start else "end"), "{solution-start}"
    return None


def _across_name(what: str, end: str = "begin") -> str:
    """How a refusal names a cell that opens or closes a region across cells."""
    if what.startswith("{"):
        return f"a {what.replace('start', 'end') if end == 'end' else what} directive"
    return f'"{end.upper()} {what}" alone'


def _regions(kind: object, lines: list[str]) -> list[str] | None:
    """The lines with nbgrader's regions cleared (a solution becomes the stub, hidden tests go); None if none.

    MarkerError (without the notebook's name) for a region that is not closed, closed twice or nested.
    """
    stub = (CODE_STUB if kind == "code" else TEXT_STUB).split("\n")
    kept: list[str] = []
    opened: tuple[int, str] | None = None
    found = False
    for number, line in enumerate(lines, 1):
        delimiter = DELIMITER.fullmatch(_visible(line))
        if delimiter is None:
            if opened is None:
                kept.append(line)
            continue
        found = True
        what = "SOLUTION" if delimiter.group(2).upper().startswith("SOL") else "HIDDEN TESTS"
        if delimiter.group(1).upper() == "BEGIN":
            if opened is not None:
                raise MarkerError(f'line {number} opens "BEGIN {what}" inside the region opened on line {opened[0]}')
            opened = (number, what)
            if what == "SOLUTION":
                indent = line[: len(line) - len(line.lstrip())]
                kept += [indent + part for part in stub]
        elif opened is None or opened[1] != what:
            raise MarkerError(f'line {number} says "END {what}" but no "BEGIN {what}" is open')
        else:
            opened = None
    if opened is not None:
        raise MarkerError(f'line {opened[0]} says "BEGIN {opened[1]}" and no "END {opened[1]}" follows')
    return kept if found else None


def _trailing(lines: list[str]) -> list[str] | None:
    """otter-grader's lines ending in ``# SOLUTION``: an assignment keeps its names (``x = ...``), others become
    ``...``; None if there are none."""
    changed, found = [], False
    for line in lines:
        seen = _visible(line).rstrip("\r")
        marked = TRAILING.search(seen) if "solution" in seen.lower() else None
        code = seen[: marked.start()] if marked else ""
        if not code.strip() or code.lstrip().startswith("#"):
            changed.append(line)  # no marker, or a comment line
            continue
        found = True
        names = ASSIGNED.match(code)
        changed.append(
            code[: names.end()].rstrip() + " = ..." if names else code[: len(code) - len(code.lstrip())] + "..."
        )
    return changed if found else None


def _cleared(kind: object, source: str) -> bool:
    """Whether an nbgrader solution cell already holds only the stub (as a student copy does), or nothing."""
    if not source.strip():
        return True
    if kind == "code":
        return re.search(r"#[ \t]*YOUR CODE HERE[ \t\r]*\n\s*raise NotImplementedError\(\)", source) is not None
    return source.strip() == TEXT_STUB


def cell_plan(cell: Mapping[str, Any]) -> tuple[str, str]:
    r"""What a student copy does with a cell: ``("keep", source)``, ``("remove", "")``, ``("change", new source)``,
    or ``("begin" | "end", what)`` for a cell that opens or closes a region across cells.

    :class:`MarkerError` (without the notebook's name) for a cell that looks like a marker but matches no rule.

    >>> cell_plan({"cell_type": "code", "source": "x = 1  # SOLUTION", "metadata": {}})
    ('change', 'x = ...')
    >>> cell_plan({"cell_type": "markdown", "source": "Why?", "metadata": {"nbgrader": {"solution": "true"}}})
    ('change', 'YOUR ANSWER HERE')
    """
    kind, metadata, source = cell.get("cell_type"), _metadata(cell), _source(cell)
    lines = source.split("\n")
    visible = _visible(source).split("\n")
    across = _across(kind, visible)
    if across is not None:
        return across
    tags = _tags(cell)
    if _removing_tag(tags) or _flagged(metadata):
        return "remove", ""
    if _code_marked(_visible(source), visible) if kind == "code" else _text_marked(visible):
        return "remove", ""
    problem = _problem(kind, metadata, tags, visible)
    if problem is not None:
        raise MarkerError(problem)
    changed = _regions(kind, lines)
    if changed is None and _nbgrader_solution(cell) and not _cleared(kind, source):
        changed = (CODE_STUB if kind == "code" else TEXT_STUB).split("\n")
    if kind == "code":
        changed = _trailing(changed if changed is not None else lines) or changed
    return ("keep", source) if changed is None else ("change", "\n".join(changed))


def is_removed(cell: Mapping[str, Any]) -> bool:
    r"""Whether a cell (parsed JSON or nbformat node) holds a solution or a teacher note.

    Its student copy leaves it out, or (nbgrader's markers) replaces the solution by a stub.  A cell
    whose marker matches no rule gives False here; :func:`student_notebook` refuses it.

    >>> is_removed({"cell_type": "code", "source": "%%time\n# SOLUTION\nx = 1", "metadata": {}})
    True
    >>> is_removed({"cell_type": "markdown", "source": "> **Teacher note:** odd numbers lose", "metadata": {}})
    True
    >>> is_removed({"cell_type": "code", "source": "# Check your answer\nlesson.check(1, answer)", "metadata": {}})
    False
    """
    try:
        return cell_plan(cell)[0] != "keep"
    except MarkerError:
        return False


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
        if cell.get("cell_type") == "code":
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
    copies = [student_notebook(read_notebook(path), name=str(path)) for path in notebooks]
    _check_destination(src if src.is_dir() else src.parent, dest)
    plans = []
    for path, copy in zip(notebooks, copies, strict=True):
        target = dest / path.name
        text = nbformat.writes(nbformat.from_dict(copy)) + "\n"  # type: ignore[no-untyped-call]
        plans.append(_Plan(target, text, _plan_target(target, force)))
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
    from duel_lessons.teaching.feedback import show
    from duel_lessons.teaching.lesson import Lesson, label
    from duel_lessons.teaching.parameters import ParametersError, lesson_arguments

    name = str(calls[0].args[0].value)  # type: ignore[attr-defined]
    try:
        number, arguments = lesson_arguments(cells)
        lesson = Lesson(number, **arguments)
        if name not in lesson.spec.models:
            raise DuelError(f"Lesson {number} has no model answer for {name!r}: add @SPEC.model({name!r}).")
        model, why = lesson.spec.models[name](lesson.params)
    except (ParametersError, DuelError) as error:
        raise CopyError(f"{path}: the model answer of {name!r} cannot be computed: {error}") from None
    title = lesson.spec.labels.get(name, label(name))
    text = f"**{title}, model answer:** `{show(model)}`"
    problem = lesson.spec.orderings.get(name)
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
