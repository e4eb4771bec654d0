"""A lesson's exercises as data: the file ``NN-topic.lesson.toml`` beside its notebook, read by one checker.

Why a file beside the notebook, and why TOML: a teacher edits it as text (no JSON metadata,
no Python), a review diff reads like prose, every error can name the file, the exercise and the
field, and the student copy is a different file made from it (model answers out, the data a
check needs sealed).  TOML is in the standard library from Python 3.11 (``tomli`` before).

One exercise, "every winning move from 84", is four lines::

    [exercise.5]
    kind = "winning-moves"
    label = "Exercise 5 (every winning move from 84)"
    start = 84

The kinds that need no Python (see :data:`KINDS`):

- ``number`` (``answer``, optional ``tolerance``), ``numbers`` (``answer`` a list, ``ordered``),
  ``label`` (``answer`` one of ``options``);
- ``winning-move`` and ``winning-moves``: from ``start`` (a number, or the name of a lesson
  parameter), computed by the solver for the lesson's rules, so they stay right when a teacher
  changes the parameters;
- ``order``: a proof's lines, each with the lines it ``uses``, the fact it ``shows`` (in other
  words than the line's own, named when a line is used too early) or, for a line that does not
  belong, why it is ``wrong``.  Every order the dependencies allow is right.

Every kind takes ``hint``, ``stronger``, ``misconceptions`` (a list of ``{key, value, hint,
stronger}``) and the teacher's ``why`` (the reason shown with the model answer).  Hints and
reasons may name a lesson parameter in braces, ``{all_from}``.  ``[discoveries]`` lists, per
guess, the patterns that give it away (``tests/test_spoilers.py`` reads them).  Python hooks
(``checks/lessonNN.py``) stay for the unusual checks.

>>> text = '''
... lesson = "99"
... [exercise.5]
... kind = "winning-moves"
... start = 84
... [exercise.order]
... kind = "order"
... [exercise.order.lines.A]
... text = "N is odd."
... shows = "N has no factor 2"
... [exercise.order.lines.B]
... text = "So every divisor of N is odd."
... uses = ["A"]
... '''
>>> lesson = parse(text, "99-demo.lesson.toml")
>>> sorted(lesson.exercises)
['5', 'order']
>>> lesson.check("5", [3, 7, 21], {"rules": "divisor-duel"}).kind
'right'
>>> lesson.check("5", [2, 3], {"rules": "divisor-duel"}).message
'1 of your 2 winning moves is right, but 2 is not one of them.'
>>> lesson.check("order", ["B", "A"], {}).message
'Your proof uses that N has no factor 2 before it shows it.'
>>> lesson.model("order", {})
(['A', 'B'], '')
"""

from __future__ import annotations

import base64
import json
import os
import re
import sys
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duel_lessons.teaching.declared.guesses import Guess, Reveal, Truth
from duel_lessons.teaching.declared.kinds import (
    KINDS,
    Exercise,
    check,
    digest,
    fill,
    model,
    names_of,
    pair_part,
    validate,
)
from duel_lessons.teaching.declared.orders import DeclarationError, topological
from duel_lessons.teaching.feedback import Verdict

__all__ = [
    "KINDS",
    "DeclarationError",
    "Declarations",
    "Exercise",
    "digest",
    "fill",
    "find",
    "load",
    "parse",
    "topological",
]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: The suffix of a lesson's declarations file, beside ``NN-topic.ipynb``.
SUFFIX = ".lesson.toml"
#: The first line of a student edition's declarations file (``student-copies`` replaces only files that start so).
STUDENT_HEADER = "# The student edition of this lesson's exercises, made by duel-lessons student-copies."
#: The environment variable naming a folder to look in first (set for the class report's judge).
FOLDER_VARIABLE = "DUEL_LESSONS_FOLDER"
#: The biggest declarations file read (a lesson's is a few kilobytes).
MAX_BYTES = 200_000
#: The most one sealed field of a student edition unpacks to (its file is at most MAX_BYTES packed).
MAX_UNPACKED = 4_000_000
SECTIONS: dict[str, type[Guess] | type[Truth] | type[Reveal]] = {"guess": Guess, "truth": Truth, "reveal": Reveal}


@dataclass
class Declarations:
    """A lesson's declarations: its exercises by name and its discoveries by guess."""

    lesson: str
    source: str
    exercises: dict[str, Exercise] = field(default_factory=dict)
    discoveries: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: "teacher" (model answers present) or "student" (made by ``student-copies``: none)
    edition: str = "teacher"
    #: text that opens after a guess: name -> (the guess or conjecture test, markdown)
    texts: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: the parameters the checks read (a Lesson without one is refused), and the values a notebook offers
    needs: tuple[str, ...] = ()
    offers: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    #: the guesses, truths and further reveals, by section ("guess", "truth", "reveal") and name
    sections: dict[str, dict[str, Any]] = field(default_factory=lambda: {k: {} for k in SECTIONS})

    # -- judging ------------------------------------------------------------------------------------

    def check(self, name: str, answer: object, params: Mapping[str, Any]) -> Verdict:
        """The verdict of exercise ``name`` on ``answer``, computed from the lesson's parameters."""
        return check(self.exercises[name], answer, params, self._salt(name))

    def model(self, name: str, params: Mapping[str, Any]) -> tuple[object, str]:
        """The model answer of ``name`` and its reason (the teacher edition only)."""
        exercise = self.exercises[name]
        if self.edition != "teacher":
            raise DeclarationError(f"{self.source}: the student edition holds no model answers.")
        why = fill(str(exercise.fields.get("why", "")), names_of(exercise, params))
        return model(exercise, params), why

    def _salt(self, name: str) -> str:
        return f"{self.lesson}:{name}"

    # -- the student copy ---------------------------------------------------------------------------

    def student_text(self) -> str:
        """The student edition of this file: no model answers or reasons; what a check needs, sealed.

        Literal answers become salted digests, and the rest of each exercise is packed (zlib and
        base64: encoded so that it is not read by accident, not encrypted).
        """
        out = [
            "# The student edition of this lesson's exercises, made by duel-lessons student-copies.",
            "# It holds no model answers; edit the teacher's file, not this one.",
            f"lesson = {json.dumps(self.lesson)}",
            'edition = "student"',
            f"needs = {json.dumps(list(self.needs))}",
            "",
        ]
        for name, exercise in self.exercises.items():
            fields = {k: v for k, v in exercise.fields.items() if k not in ("why", "model")}
            if "answer" in fields:
                answer = fields.pop("answer")
                if isinstance(answer, list):
                    fields["answer_digests"] = sorted({digest(x, self._salt(name)) for x in answer})
                    fields["answer_count"] = len(set(answer))
                    fields["answer_digest"] = digest(sorted(answer), self._salt(name))
                else:
                    fields["answer_digest"] = digest(answer, self._salt(name))
            for part in ("first", "second") if exercise.kind == "pair" else ():  # a pair's literal parts too
                spec = dict(fields[part])
                if "answer" in spec:
                    spec["answer_digest"] = digest(pair_part(spec.pop("answer")), f"{self._salt(name)}:{part}")
                fields[part] = spec
            packed = base64.b64encode(zlib.compress(json.dumps(fields).encode())).decode()  # values keep their order
            out += [
                f"[exercise.{json.dumps(name)}]",
                f"label = {json.dumps(exercise.label)}",
                f'sealed = "{packed}"',
                "",
            ]
        for section, items in self.sections.items():
            for name, item in items.items():
                packed = base64.b64encode(zlib.compress(json.dumps(dict(item.fields)).encode())).decode()
                out += [f"[{section}.{json.dumps(name)}]", f'sealed = "{packed}"', ""]
        for name, (after, markdown) in self.texts.items():
            packed = base64.b64encode(zlib.compress(markdown.encode())).decode()
            out += [f"[text.{json.dumps(name)}]", f"after = {json.dumps(after)}", f'sealed = "{packed}"', ""]
        return "\n".join(out)


# -- reading ---------------------------------------------------------------------------------------------


def parse(text: str, source: str = "declarations") -> Declarations:
    """Read declarations from TOML text; a DeclarationError names the file, the exercise and the field."""
    if len(text) > MAX_BYTES:
        raise DeclarationError(f"{source}: the file is bigger than {MAX_BYTES:,} bytes.")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DeclarationError(f"{source}: not valid TOML ({error}).") from None
    lesson = data.get("lesson")
    if not isinstance(lesson, str) or not lesson.isdigit():
        raise DeclarationError(f'{source}: the first line must name the lesson, such as lesson = "04".')
    edition = data.get("edition", "teacher")
    if edition not in ("teacher", "student"):
        raise DeclarationError(f'{source}: edition must be "teacher" or "student", not {edition!r}.')
    unknown = set(data) - {"lesson", "edition", "needs", "offers", "exercise", "discoveries", "text", *SECTIONS}
    if unknown:
        raise DeclarationError(
            f"{source}: unknown section {sorted(unknown)[0]!r} (use [exercise.NAME], [guess.NAME], [truth.NAME], "
            "[reveal.NAME], [text.NAME] or [discoveries])."
        )
    result = Declarations(lesson.zfill(2), source, edition=edition)
    needs, offers = data.get("needs", []), _table(data.get("offers", {}), source, "offers")
    if not isinstance(needs, list) or not all(isinstance(x, str) and x.isidentifier() for x in needs):
        raise DeclarationError(f'{source}: needs: give the parameters the checks read, such as ["rules", "upto"].')
    if not all(isinstance(v, list) for v in offers.values()):
        raise DeclarationError(
            f'{source}: offers: give the other values of each parameter as a list, such as rules = ["factor-duel"].'
        )
    result.needs, result.offers = tuple(needs), {k: tuple(v) for k, v in offers.items()}
    for guess, patterns in _table(data.get("discoveries", {}), source, "[discoveries]").items():
        if not isinstance(patterns, list) or not all(isinstance(x, str) for x in patterns):
            raise DeclarationError(f"{source}: [discoveries] {guess}: give a list of patterns in quotes.")
        for pattern in patterns:
            try:
                re.compile(pattern, re.IGNORECASE)
            except re.error as error:
                raise DeclarationError(
                    f"{source}: [discoveries] {guess}: {pattern!r} is not a pattern ({error})."
                ) from None
        result.discoveries[guess] = tuple(patterns)
    for name, fields in _table(data.get("exercise", {}), source, "[exercise]").items():
        where = f"{source}: [exercise.{name}]"
        fields = dict(_table(fields, source, f"[exercise.{name}]"))
        if edition == "student":
            fields = _unseal(fields, where)
        result.exercises[name] = _exercise(name, fields, where, edition)
    for section, made in SECTIONS.items():
        for name, fields in _table(data.get(section, {}), source, f"[{section}]").items():
            where = f"{source}: [{section}.{name}]"
            fields = dict(_table(fields, source, f"[{section}.{name}]"))
            item = made(name, _unseal(fields, where) if edition == "student" else fields)
            item.validate(where)
            result.sections[section][name] = item
    for name, fields in _table(data.get("text", {}), source, "[text]").items():
        where = f"{source}: [text.{name}]"
        fields = _table(fields, source, f"[text.{name}]")
        after = fields.get("after")
        if not isinstance(after, str) or not after:
            raise DeclarationError(f"{where} after: name the guess (or conjecture test) that opens this text.")
        if edition == "student":
            try:
                markdown = _inflate(fields["sealed"]).decode()
            except (KeyError, ValueError, zlib.error):
                raise DeclarationError(f"{where} sealed: this student copy is damaged; make it again.") from None
        else:
            written = fields.get("markdown")
            if not isinstance(written, str) or set(fields) - {"after", "markdown"}:
                raise DeclarationError(f"{where}: give after and markdown (the text, in triple quotes).")
            markdown = written
        result.texts[name] = (after, markdown)
    return result


def _table(value: object, source: str, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DeclarationError(f"{source}: {where} must be a table.")
    return value


def _inflate(sealed: object) -> bytes:
    """The bytes a sealed field packs, refused (ValueError) beyond ``MAX_UNPACKED``: a student copy of a few
    kilobytes cannot unpack to gigabytes.  Damaged data raises ValueError or zlib.error.

    >>> _inflate(base64.b64encode(zlib.compress(b"hello")).decode())
    b'hello'
    >>> _inflate(base64.b64encode(zlib.compress(b"0" * (MAX_UNPACKED + 1))).decode())
    Traceback (most recent call last):
    ...
    ValueError: it unpacks to more than 4,000,000 bytes
    """
    inflater = zlib.decompressobj()
    unpacked = inflater.decompress(base64.b64decode(str(sealed)), MAX_UNPACKED + 1)
    if len(unpacked) > MAX_UNPACKED:
        raise ValueError(f"it unpacks to more than {MAX_UNPACKED:,} bytes")
    if not inflater.eof:
        raise zlib.error("the packed text is cut short")
    return unpacked


def _unseal(fields: dict[str, Any], where: str) -> dict[str, Any]:
    try:
        unpacked = json.loads(_inflate(fields["sealed"]))
    except (KeyError, ValueError, zlib.error) as error:
        raise DeclarationError(
            f"{where} sealed: this student copy is damaged ({type(error).__name__}); make it again."
        ) from None
    if not isinstance(unpacked, dict):
        raise DeclarationError(f"{where} sealed: this student copy is damaged; make it again.")
    return unpacked


def _exercise(name: str, fields: dict[str, Any], where: str, edition: str) -> Exercise:
    kind = fields.get("kind")
    if kind not in KINDS:
        raise DeclarationError(f"{where} kind: {kind!r} is not a kind; use one of {', '.join(KINDS)}.")
    exercise = Exercise(name, kind, fields)
    validate(exercise, where, edition)
    return exercise


# -- finding a lesson's file -------------------------------------------------------------------------------


def find(lesson: str, folders: list[Path] | None = None) -> Path | None:
    """The declarations file of ``lesson`` ("04"): ``04-*.lesson.toml`` in the folder named by the environment
    variable ``DUEL_LESSONS_FOLDER`` (the class report's judge: the teacher's copy's folder), the current folder,
    its ``notebooks/``, or the teacher edition's ``notebooks/`` beside an editable install; None if there is none."""
    key = str(lesson).zfill(2)
    for folder in _folders() if folders is None else folders:
        try:
            found = sorted(folder.glob(f"{key}-*{SUFFIX}"))
        except OSError:
            continue
        if found:
            return found[0]
    return None


def _folders() -> list[Path]:
    here, package_root = Path.cwd(), Path(__file__).resolve().parents[3]
    chosen = os.environ.get(FOLDER_VARIABLE)
    return [*([Path(chosen)] if chosen else []), here, here / "notebooks", package_root / "notebooks"]


_CACHE: dict[tuple[str, int, int], Declarations] = {}


def load(path: Path) -> Declarations:
    """Read a declarations file (cached by its path, size and time, so an edit is read again)."""
    try:
        stat = path.stat()
        key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
        if key not in _CACHE:
            if stat.st_size > MAX_BYTES:
                raise DeclarationError(f"{path.name}: the file is bigger than {MAX_BYTES:,} bytes.")
            _CACHE[key] = parse(path.read_text(encoding="utf-8"), path.name)
        return _CACHE[key]
    except OSError as error:
        raise DeclarationError(f"{path}: cannot be read ({error.strerror or error}).") from None
    except UnicodeDecodeError:
        raise DeclarationError(f"{path.name}: not text in UTF-8.") from None


def lessons(folders: list[Path] | None = None) -> list[str]:
    """The numbers of the lessons with a declarations file in the folders :func:`find` looks in."""
    found = set()
    for folder in folders or _folders():
        try:
            found |= {p.name[:2] for p in folder.glob(f"[0-9][0-9]-*{SUFFIX}")}
        except OSError:
            continue
    return sorted(found)


def check_folder(folder: Path) -> list[str]:
    """Every problem in the declarations files of ``folder``, one message each (empty: all is well).

    >>> check_folder(Path("no-such-folder"))
    ['no-such-folder: not a folder.']
    """
    if not folder.is_dir():
        return [f"{folder}: not a folder."]
    problems = []
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        try:
            declarations = load(path)
        except DeclarationError as error:
            problems.append(str(error))
            continue
        if not path.name.startswith(declarations.lesson + "-"):
            problems.append(f"{path.name}: it declares lesson {declarations.lesson}, but its name starts otherwise.")
    return problems
