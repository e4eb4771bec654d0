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
import hashlib
import json
import os
import re
import sys
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duel_lessons.engine.rules import DuelError, get_rules
from duel_lessons.solving.tables import tabulate
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_choice,
    expect_list,
    expect_member,
    expect_number,
    plain,
)
from duel_lessons.teaching.proofs import expect_order

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: The kinds of exercise a declaration may have, and the fields each one reads besides the common ones.
KINDS: dict[str, tuple[str, ...]] = {
    "number": ("answer", "tolerance"),
    "numbers": ("answer", "ordered", "what"),
    "label": ("answer", "options"),
    "winning-move": ("start",),
    "winning-moves": ("start",),
    "order": ("lines", "model"),
}
COMMON = ("kind", "label", "hint", "stronger", "misconceptions", "why")
LINE_FIELDS = ("text", "uses", "shows", "wrong")
#: The suffix of a lesson's declarations file, beside ``NN-topic.ipynb``.
SUFFIX = ".lesson.toml"
#: The first line of a student edition's declarations file (``student-copies`` replaces only files that start so).
STUDENT_HEADER = "# The student edition of this lesson's exercises, made by duel-lessons student-copies."
#: The environment variable naming a folder to look in first (set for the class report's judge).
FOLDER_VARIABLE = "DUEL_LESSONS_FOLDER"
#: The biggest declarations file read (a lesson's is a few kilobytes).
MAX_BYTES = 200_000
_BRACED = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class DeclarationError(DuelError):
    """A declarations file that cannot be read: the message names the file, the exercise and the field."""


def fill(text: str, params: Mapping[str, Any]) -> str:
    """``text`` with each ``{name}`` of a lesson parameter replaced by its value (other braces stay).

    >>> fill("every winning move from {start}", {"start": 84})
    'every winning move from 84'
    >>> fill("{unknown} and {0}", {})
    '{unknown} and {0}'
    """
    return _BRACED.sub(lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), text)


def digest(value: object, salt: str) -> str:
    """A salted SHA-256 of a plain answer (a whole number, a text or a sorted list): what a student copy keeps.

    >>> digest(512, "04:2") == digest(512, "04:2") != digest(512, "04:3")
    True
    """
    return hashlib.sha256(f"{salt}\n{json.dumps(value, sort_keys=True)}".encode()).hexdigest()


@dataclass(frozen=True)
class Exercise:
    """One declared exercise: its name, kind and fields as written (texts still hold ``{parameters}``)."""

    name: str
    kind: str
    fields: Mapping[str, Any]

    @property
    def label(self) -> str:
        return str(self.fields.get("label", ""))


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

    # -- judging ------------------------------------------------------------------------------------

    def check(self, name: str, answer: object, params: Mapping[str, Any]) -> Verdict:
        """The verdict of exercise ``name`` on ``answer``, computed from the lesson's parameters."""
        exercise = self.exercises[name]
        return _CHECKS[exercise.kind](exercise, plain(answer), params, self._salt(name))

    def model(self, name: str, params: Mapping[str, Any]) -> tuple[object, str]:
        """The model answer of ``name`` and its reason (the teacher edition only)."""
        exercise = self.exercises[name]
        if self.edition != "teacher":
            raise DeclarationError(f"{self.source}: the student edition holds no model answers.")
        why = fill(str(exercise.fields.get("why", "")), params)
        return _MODELS[exercise.kind](exercise, params), why

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
            packed = base64.b64encode(zlib.compress(json.dumps(fields, sort_keys=True).encode())).decode()
            out += [
                f"[exercise.{json.dumps(name)}]",
                f"label = {json.dumps(exercise.label)}",
                f'sealed = "{packed}"',
                "",
            ]
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
    unknown = set(data) - {"lesson", "edition", "exercise", "discoveries", "text"}
    if unknown:
        raise DeclarationError(
            f"{source}: unknown section {sorted(unknown)[0]!r} (use [exercise.NAME], [text.NAME] or [discoveries])."
        )
    result = Declarations(lesson.zfill(2), source, edition=edition)
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
    for name, fields in _table(data.get("text", {}), source, "[text]").items():
        where = f"{source}: [text.{name}]"
        fields = _table(fields, source, f"[text.{name}]")
        after = fields.get("after")
        if not isinstance(after, str) or not after:
            raise DeclarationError(f"{where} after: name the guess (or conjecture test) that opens this text.")
        if edition == "student":
            try:
                markdown = zlib.decompress(base64.b64decode(str(fields.get("sealed", ""))), bufsize=MAX_BYTES).decode()
            except (ValueError, zlib.error):
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


def _unseal(fields: dict[str, Any], where: str) -> dict[str, Any]:
    try:
        unpacked = json.loads(zlib.decompress(base64.b64decode(str(fields["sealed"])), bufsize=MAX_BYTES))
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
    sealed = ("answer_digest", "answer_digests", "answer_count") if edition == "student" else ()
    allowed = set(COMMON) | set(KINDS[kind]) | set(sealed)
    for key in fields:
        if key not in allowed:
            raise DeclarationError(
                f"{where} {key}: not a field of a {kind!r} exercise (its fields: {', '.join(sorted(allowed))})."
            )
    for key in ("label", "hint", "stronger", "why"):
        if not isinstance(fields.get(key, ""), str):
            raise DeclarationError(f"{where} {key}: write it as text in quotes.")
    needs_answer = kind in ("number", "numbers", "label")
    if needs_answer and edition == "teacher" and "answer" not in fields:
        raise DeclarationError(f"{where} answer: a {kind!r} exercise needs its answer.")
    if kind == "number" and "answer" in fields and not _is_number(fields["answer"]):
        raise DeclarationError(f"{where} answer: give a number.")
    if (
        kind == "numbers"
        and "answer" in fields
        and not (isinstance(fields["answer"], list) and all(type(x) is int for x in fields["answer"]))
    ):
        raise DeclarationError(f"{where} answer: give a list of whole numbers, such as [2, 5].")
    if kind == "label":
        options = fields.get("options")
        if not isinstance(options, list) or len(options) < 2 or not all(isinstance(x, str) for x in options):
            raise DeclarationError(f'{where} options: give the options as a list of texts, such as ["P", "N"].')
        if "answer" in fields and fields["answer"] not in options:
            raise DeclarationError(f"{where} answer: {fields['answer']!r} is not one of the options.")
    if kind in ("winning-move", "winning-moves"):
        start = fields.get("start")
        if not (type(start) is int and start > 1) and not (isinstance(start, str) and start.isidentifier()):
            raise DeclarationError(f"{where} start: give a whole number above 1, or the name of a lesson parameter.")
    for i, item in enumerate(fields.get("misconceptions", [])):
        if (
            not isinstance(item, dict)
            or not {"key", "value", "hint"} <= set(item)
            or set(item) - {"key", "value", "hint", "stronger"}
        ):
            raise DeclarationError(f"{where} misconceptions[{i}]: give key, value and hint (and stronger if you like).")
    if kind == "order":
        _check_lines(fields.get("lines"), where)
        model = fields.get("model")
        lines = fields["lines"]
        if model is not None and (
            not isinstance(model, list)
            or sorted(map(str, model)) != sorted(x for x, line in lines.items() if "wrong" not in line)
            or not _respects(model, lines)
        ):
            raise DeclarationError(f"{where} model: give every line of the proof once, in an order its uses allow.")
    return Exercise(name, kind, fields)


def _is_number(value: object) -> bool:
    return type(value) in (int, float)


def _check_lines(lines: object, where: str) -> None:
    """A proof's lines: each known field, every ``uses`` a line of the proof, no cycle, one conclusion."""
    if not isinstance(lines, dict) or len(lines) < 2:
        raise DeclarationError(f"{where} lines: give at least two lines, as [exercise.NAME.lines.A] tables.")
    for label, line in lines.items():
        at = f"{where} lines.{label}"
        if not isinstance(line, dict) or not isinstance(line.get("text"), str):
            raise DeclarationError(f"{at} text: every line needs its text.")
        for key in line:
            if key not in LINE_FIELDS:
                raise DeclarationError(f"{at} {key}: not a field of a line (its fields: {', '.join(LINE_FIELDS)}).")
        uses = line.get("uses", [])
        if not isinstance(uses, list) or not all(isinstance(x, str) for x in uses):
            raise DeclarationError(f'{at} uses: give a list of line labels, such as ["A", "C"].')
        if "wrong" in line and (uses or "shows" in line):
            raise DeclarationError(f"{at} wrong: a line that does not belong uses nothing and shows nothing.")
        for used in uses:
            if used not in lines:
                raise DeclarationError(f"{at} uses: {used!r} is not a line here.")
            if "wrong" in lines[used]:
                raise DeclarationError(f"{at} uses: line {used} is marked wrong, so nothing can use it.")
            shows = lines[used].get("shows")
            if not isinstance(shows, str) or not shows.strip():
                raise DeclarationError(
                    f"{where} lines.{used} shows: line {used} is used by line {label}, so say in other words what it "
                    "shows (the feedback names that fact, never the label)."
                )
    proof = [x for x, line in lines.items() if "wrong" not in line]
    used_by_some = {u for x in proof for u in lines[x].get("uses", [])}
    ends = [x for x in proof if x not in used_by_some]
    if len(ends) != 1:
        raise DeclarationError(
            f"{where} lines: a proof has one conclusion, a line no other line uses; here {', '.join(ends) or 'none'}."
        )
    try:
        topological(lines)
    except ValueError:
        raise DeclarationError(f"{where} lines: the uses go round in a circle.") from None


def _respects(order: list[str], lines: Mapping[str, Mapping[str, Any]]) -> bool:
    at = {x: i for i, x in enumerate(order)}
    return all(at[u] < at[x] for x in order for u in lines[x].get("uses", []))


def topological(lines: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """One order of the proof's lines (those not ``wrong``) in which every line comes after what it uses.

    Ties go to the line written first, so the result is the order written when that order is valid.

    >>> topological({"A": {"uses": ["B"]}, "B": {}, "C": {"wrong": "no"}})
    ['B', 'A']
    """
    pending = [x for x, line in lines.items() if "wrong" not in line]
    done: list[str] = []
    while pending:
        ready = next((x for x in pending if all(u in done for u in lines[x].get("uses", []))), None)
        if ready is None:
            raise ValueError("cycle")
        done.append(ready)
        pending.remove(ready)
    return done


# -- the checks by kind ----------------------------------------------------------------------------------


def _misconceptions(exercise: Exercise, params: Mapping[str, Any]) -> list[Misconception]:
    return [
        Misconception(str(m["key"]), m["value"], fill(str(m["hint"]), params), fill(str(m.get("stronger", "")), params))
        for m in exercise.fields.get("misconceptions", [])
    ]


def _texts(exercise: Exercise, params: Mapping[str, Any]) -> dict[str, Any]:
    f = exercise.fields
    return {
        "misconceptions": _misconceptions(exercise, params),
        "hint": fill(str(f.get("hint", "")), params),
        "stronger": fill(str(f.get("stronger", "")), params),
    }


def _start(exercise: Exercise, params: Mapping[str, Any]) -> int:
    start = exercise.fields["start"]
    if isinstance(start, str):
        if start not in params:
            raise DeclarationError(f"[exercise.{exercise.name}] start: the lesson has no parameter {start!r}.")
        start = params[start]
    return int(start)


def _winning(exercise: Exercise, params: Mapping[str, Any]) -> list[int]:
    n = _start(exercise, params)
    return list(tabulate(get_rules(params.get("rules", "divisor-duel")), max(2, n)).winning_moves(n))


_NOTHING = float("nan")  # equal to no answer: stands for an answer the student edition keeps only as a digest


def _literal(exercise: Exercise, answer: object, salt: str) -> object:
    """The right answer to compare ``answer`` with: the teacher's value, or (student edition) the answer
    itself when its digest matches."""
    f = exercise.fields
    if "answer" in f:
        return f["answer"]
    return answer if f.get("answer_digest") == digest(answer, salt) else _NOTHING


def _check_number(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    correct = _literal(exercise, answer, salt)
    tolerance = float(exercise.fields.get("tolerance", 0))
    number = float(correct) if isinstance(correct, (int, float)) else _NOTHING
    return expect_number(answer, number, tolerance=tolerance, **_texts(exercise, params))


def _check_numbers(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    f = exercise.fields
    if "answer" in f:
        correct = list(f["answer"])
    else:  # the student edition: the elements of the answer whose digests match, and stand-ins for the rest
        given = answer if isinstance(answer, (list, tuple, set, frozenset)) else []
        known = set(f.get("answer_digests", ()))
        correct = [x for x in dict.fromkeys(given) if type(x) is int and digest(x, salt) in known]
        correct += [-(i + 1) for i in range(int(f.get("answer_count", 0)) - len(correct))]
    return expect_list(
        answer,
        correct,
        what=str(f.get("what", "numbers")),
        ordered=bool(f.get("ordered", False)),
        **_texts(exercise, params),
    )


def _check_label(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    options = [str(x) for x in exercise.fields["options"]]
    correct = _literal(exercise, answer, salt)
    return expect_choice(answer, correct if isinstance(correct, str) else "\0", options, **_texts(exercise, params))


def _check_move(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    return expect_member(answer, _winning(exercise, params), what="move", **_texts(exercise, params))


def _check_moves(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    return expect_list(answer, _winning(exercise, params), what="winning moves", **_texts(exercise, params))


def _check_order(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    lines = exercise.fields["lines"]
    proof = topological(lines)
    texts = _texts(exercise, params)
    extra = {k: texts[k] for k in ("hint", "stronger") if texts[k]}
    return expect_order(
        answer,
        lines={x: line["text"] for x, line in lines.items()},
        proof=proof,
        uses={x: tuple(line.get("uses", ())) for x, line in lines.items() if "wrong" not in line},
        wrong={x: line["wrong"] for x, line in lines.items() if "wrong" in line},
        shows={x: line["shows"] for x, line in lines.items() if "shows" in line},
        **extra,
    )


_CHECKS: dict[str, Callable[[Exercise, object, Mapping[str, Any], str], Verdict]] = {
    "number": _check_number,
    "numbers": _check_numbers,
    "label": _check_label,
    "winning-move": _check_move,
    "winning-moves": _check_moves,
    "order": _check_order,
}

_MODELS: dict[str, Callable[[Exercise, Mapping[str, Any]], object]] = {
    "number": lambda e, p: e.fields["answer"],
    "numbers": lambda e, p: list(e.fields["answer"]),
    "label": lambda e, p: e.fields["answer"],
    "winning-move": lambda e, p: min(_winning(e, p)) if _winning(e, p) else None,
    "winning-moves": _winning,
    "order": lambda e, p: list(e.fields.get("model") or topological(e.fields["lines"])),
}


# -- finding a lesson's file -------------------------------------------------------------------------------


def find(lesson: str, folders: list[Path] | None = None) -> Path | None:
    """The declarations file of ``lesson`` ("04"): ``04-*.lesson.toml`` in the folder named by the environment
    variable ``DUEL_LESSONS_FOLDER`` (the class report's judge: the teacher's copy's folder), the current folder,
    its ``notebooks/``, or the teacher edition's ``notebooks/`` beside an editable install; None if there is none."""
    key = str(lesson).zfill(2)
    here = Path.cwd()
    if folders is None:
        package_root = Path(__file__).resolve().parents[2]
        chosen = os.environ.get(FOLDER_VARIABLE)
        folders = [*([Path(chosen)] if chosen else []), here, here / "notebooks", package_root / "notebooks"]
    for folder in folders:
        try:
            found = sorted(folder.glob(f"{key}-*{SUFFIX}"))
        except OSError:
            continue
        if found:
            return found[0]
    return None


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
