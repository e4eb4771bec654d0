"""Which cells of a teacher's notebook hold what students must not see, by every marking convention teachers use.

duel-lessons' own tags and markers, nbgrader's (``### BEGIN SOLUTION`` regions, hidden tests, cell
metadata with truthy strings), otter-grader's trailing ``# SOLUTION``, Jupyter Book's and RISE's, and
the unusual forms teachers write by hand.  :func:`cell_plan` says what the student copy does with a
cell; a cell that looks like a marker but matches no rule raises :class:`MarkerError`, so that
``student-copies`` refuses rather than copy a solution (see "Markers" in docs/teacher-guide.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from duel_lessons.engine.errors import DuelError

#: A part of a tag (between ``-``, ``_``, ``.`` or ``:``, plural or possessive gone) that removes its cell: so
#: ``solution``, ``teacher``, ``teacher-note``, ``teachers_only``, ``instructor-note``, ``model-solution``...
REMOVED_PARTS = frozenset({"solution", "teacher", "instructor"})
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
    return words | {"-".join(_singular(part) for part in re.split(r"[-_.:]", w)) for w in words}


def _singular(word: str) -> str:
    """A tag's word without its possessive or plural ending: ``teacher's``, ``teachers'``, ``teachers`` -> ``teacher``.

    >>> [_singular(w) for w in ("teacher's", "teachers'", "notes", "s", "only")]
    ['teacher', 'teacher', 'note', 's', 'only']
    """
    for ending in ("'s", "s'", "s"):
        if word.endswith(ending) and len(word) > len(ending):
            return word[: -len(ending)]
    return word


def _removing_tag(words: set[str]) -> bool:
    """Whether the tags remove a cell: ``solution``, ``teacher``..., or ``solution``, ``teacher`` or ``instructor`` as
    a part (``model-solution``, ``for-teachers``, ``teacher-guide``): a part that names the teacher is teacher material.
    """
    return any(_singular(part) in REMOVED_PARTS for w in words for part in re.split(r"[-_.:]", w))


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
