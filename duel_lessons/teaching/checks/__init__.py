"""The registry of a lesson's checks, guesses, reveals and truths: declared data, and Python hooks.

A lesson's exercises are declared beside its notebook (:mod:`~duel_lessons.teaching.declared`); a
module ``lessonNN.py`` here registers only the unusual ones, with decorators::

    SPEC = register(LessonSpec("11", needs=("rules",)))

    @SPEC.check("rule")                 # likewise @SPEC.reveal, @SPEC.truth, @SPEC.model, @SPEC.guess_form
    def sum_rule(answer: object, p: Params) -> Verdict: ...

A check computes the right answer from the lesson's parameters ``p`` (the keyword arguments given to
:class:`~duel_lessons.teaching.lesson.Lesson`), never from the notebook.  ``offers`` names, per
parameter, the other values the notebook's ``# PARAMETERS`` cell offers: the suite runs every model
answer through its check under each of them.  :func:`spec` merges a lesson's declarations and module.

>>> sorted(available())[:2]
['00', '01']
>>> spec("04").checks["1"].__name__  # lesson 04 is all declared (its .lesson.toml): no Python module
'declared_1'
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from duel_lessons.engine.rules import DuelError
from duel_lessons.teaching.feedback import Verdict

Params = Mapping[str, Any]
Check = Callable[[object, Params], Verdict]
Reveal = Callable[[object, Params], str]
Truth = Callable[[Params], Callable[[int], bool]]
Model = Callable[[Params], tuple[object, str]]
GuessForm = Callable[[object, Params], "str | None"]
F = TypeVar("F")


class LessonError(DuelError):
    """A lesson asked for a check, reveal or parameter that does not exist."""


@dataclass
class LessonSpec:
    """Everything the package knows about one lesson's exercises.

    ``needs`` names the parameters its checks read; ``offers`` maps a parameter (the
    keyword given to ``Lesson``) to the values besides its default that the notebook offers.

    >>> s = LessonSpec("99", offers={"rules": ("factor-duel",)})
    >>> @s.model(1)
    ... def model_1(p): return [2, 3], "2 and 3 divide 6."
    >>> s.models["1"]({})
    ([2, 3], '2 and 3 divide 6.')
    >>> s.discovers("big", "odd", "powers? of 2")
    >>> s.spoilers["big"]
    ('odd', 'powers? of 2')
    >>> s.parsons("order", lines={"A": "a", "B": "b"}, proof=["A", "B"], label="The proof")
    >>> s.checks["order"](["A", "B"], {}).kind, s.models["order"]({})[0]
    ('right', ['A', 'B'])
    """

    lesson: str
    needs: tuple[str, ...] = ()
    checks: dict[str, Check] = field(default_factory=dict)
    reveals: dict[str, Reveal] = field(default_factory=dict)
    truths: dict[str, Truth] = field(default_factory=dict)
    truth_words: dict[str, tuple[str, str]] = field(default_factory=dict)
    gates: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    offers: Mapping[str, Sequence[object]] = field(default_factory=dict)
    models: dict[str, Model] = field(default_factory=dict)
    guess_forms: dict[str, GuessForm] = field(default_factory=dict)
    spoilers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    orderings: dict[str, Parsons] = field(default_factory=dict)
    reaches: dict[str, int | str] = field(default_factory=dict)
    #: text that opens after a guess (declared, or gated cells of a student copy): name -> (guess, markdown)
    texts: dict[str, tuple[str, str]] = field(default_factory=dict)

    def check(self, name: int | str, label: str = "") -> Callable[[F], F]:
        """Register a check (exercise number or a name such as ``"proof-2"``), optionally with its label."""

        def add(function: F) -> F:
            self.checks[str(name)] = function  # type: ignore[assignment]
            if label:
                self.labels[str(name)] = label
            return function

        return add

    def reveal(self, name: str, after: str | None = None) -> Callable[[F], F]:
        """Register a reveal; it opens after the guess ``after`` (default: the guess of the same name)."""

        def add(function: F) -> F:
            self.reveals[name] = function  # type: ignore[assignment]
            self.gates[name] = after or name
            return function

        return add

    def truth(self, name: str, yes: str, no: str, reach: int | str = 0) -> Callable[[F], F]:
        """Register what a conjecture function is tested against; ``yes``/``no`` say True/False ("loses").

        ``reach`` is how far the truth answers quickly (a number, or the name of a parameter): a test
        also tries a few hundred numbers beyond the data up to there, so a rule with a list of
        exceptions is refuted.  0 (the default): only the data's range.
        """

        def add(function: F) -> F:
            self.truths[name] = function  # type: ignore[assignment]
            self.truth_words[name] = (yes, no)
            if reach:
                self.reaches[name] = reach
            return function

        return add

    def model(self, name: int | str) -> Callable[[F], F]:
        """Register the model answer of check ``name``: ``p -> (answer, reason)``, computed from the parameters."""

        def add(function: F) -> F:
            self.models[str(name)] = function  # type: ignore[assignment]
            return function

        return add

    def guess_form(self, name: str) -> Callable[[F], F]:
        """Register the form of guess ``name``: ``(value, p) -> None`` if it has the asked form, else a message."""

        def add(function: F) -> F:
            self.guess_forms[name] = function  # type: ignore[assignment]
            return function

        return add

    def discovers(self, name: str, *patterns: str) -> None:
        """Declare what the guess ``name`` discovers: regular expressions (case-insensitive) that give it away.

        ``tests/test_spoilers.py`` fails if one matches anything a student sees before that guess is made.
        """
        for pattern in patterns:
            re.compile(pattern, re.IGNORECASE)  # a broken pattern fails here, not in the test
        self.spoilers[name] = self.spoilers.get(name, ()) + tuple(patterns)

    def parsons(
        self,
        name: str,
        *,
        lines: Mapping[str, str],
        proof: Sequence[str],
        uses: Mapping[str, Collection[str]] | None = None,
        wrong: Mapping[str, str] | None = None,
        label: str = "",
        why: str = "",
    ) -> None:
        """Register a Parsons problem: its check (:func:`~duel_lessons.teaching.proofs.expect_order`) and model answer.

        The notebook shows it with ``lesson.parsons(name)`` and also accepts ``lesson.check(name, [...])``.
        """
        problem = Parsons(dict(lines), tuple(proof), {k: tuple(v) for k, v in (uses or {}).items()}, dict(wrong or {}))
        for x in (*problem.proof, *problem.uses, *(d for v in problem.uses.values() for d in v), *problem.wrong):
            if x not in problem.lines:
                raise LessonError(f"Parsons problem {name!r}: {x!r} is not one of its lines.")
        self.orderings[name] = problem

        def check(answer: object, p: Params) -> Verdict:
            from duel_lessons.teaching.proofs import expect_order

            return expect_order(
                answer, lines=problem.lines, proof=problem.proof, uses=problem.uses or None, wrong=problem.wrong
            )

        def model(p: Params) -> tuple[object, str]:
            return list(problem.proof), why or " ".join(problem.lines[x] for x in problem.proof)

        check.__name__ = model.__name__ = f"parsons_{name}"
        self.checks[name] = check
        self.models[name] = model
        if label:
            self.labels[name] = label


@dataclass(frozen=True)
class Parsons:
    """A proof's lines by label, a right order, what each line uses, and why the wrong lines are wrong."""

    lines: dict[str, str]
    proof: tuple[str, ...]
    uses: dict[str, tuple[str, ...]]
    wrong: dict[str, str]


_SPECS: dict[str, LessonSpec] = {}


def register(lesson_spec: LessonSpec) -> LessonSpec:
    """Add a lesson's spec to the registry (called by each lesson module)."""
    _SPECS[lesson_spec.lesson] = lesson_spec
    return lesson_spec


def available() -> list[str]:
    """The lesson numbers that have a checks module or a declarations file, such as ``["00", "01", ...]``."""
    import duel_lessons.teaching.declared as declared

    modules = {m.name[len("lesson") :] for m in pkgutil.iter_modules(__path__) if m.name.startswith("lesson")}
    return sorted(modules | set(declared.lessons()))


def python_spec(lesson: str) -> LessonSpec | None:
    """The spec a lesson's Python module registers (its unusual checks), or None if it has no module."""
    key = str(lesson).zfill(2)
    if key not in _SPECS:
        if not any(m.name == f"lesson{key}" for m in pkgutil.iter_modules(__path__)):
            return None
        importlib.import_module(f"{__name__}.lesson{key}")
    if key not in _SPECS:  # pragma: no cover - a module that forgot to register
        raise LessonError(f"The checks module for lesson {key} did not register itself.")
    return _SPECS[key]


_MERGED: dict[tuple[str, int], LessonSpec] = {}


def spec(lesson: str, folder: Any = None) -> LessonSpec:
    """The spec of a lesson ("04"): its declarations file (:mod:`~duel_lessons.teaching.declared`), found
    beside the notebook, with its Python module's unusual checks.

    In the student edition (a declarations file made by ``student-copies``) the spec holds no model
    answers at all, whatever the ``Lesson`` is told.  ``folder`` is where to look for the declarations
    (by default the current folder, its ``notebooks/``, then the teacher edition's).
    """
    import duel_lessons.teaching.declared as declared

    key = str(lesson).zfill(2)
    base = python_spec(key)
    path = declared.find(key, None if folder is None else [folder])
    if path is None:
        if base is None:
            raise LessonError(f"No checks for lesson {lesson!r}. Known lessons: {', '.join(available())}.")
        return base
    try:
        found = declared.load(path)
    except declared.DeclarationError as error:
        raise LessonError(str(error)) from None
    cached = _MERGED.get((key, id(found)))
    if cached is None or cached.lesson != key:
        cached = _MERGED[(key, id(found))] = _merge(base or LessonSpec(key), found)
    return cached


def _merge(base: LessonSpec, found: Any) -> LessonSpec:
    """``base`` with the declared exercises and discoveries added (a name declared twice is an error)."""
    merged = LessonSpec(
        base.lesson,
        needs=tuple(dict.fromkeys((*base.needs, *found.needs))),
        checks=dict(base.checks),
        reveals=dict(base.reveals),
        truths=dict(base.truths),
        truth_words=dict(base.truth_words),
        gates=dict(base.gates),
        labels=dict(base.labels),
        offers={**base.offers, **found.offers},
        models={} if found.edition == "student" else dict(base.models),
        guess_forms=dict(base.guess_forms),
        spoilers=dict(base.spoilers),
        orderings=dict(base.orderings),
        reaches=dict(base.reaches),
        texts={**base.texts, **found.texts},
    )
    for guess, patterns in found.discoveries.items():
        merged.spoilers[guess] = merged.spoilers.get(guess, ()) + patterns
    _merge_sections(merged, found)
    for name, exercise in found.exercises.items():
        if name in merged.checks:
            raise LessonError(f"{found.source}: [exercise.{name}] is also a check in the lesson's Python module.")

        def check(answer: object, p: Params, name: str = name) -> Verdict:
            return found.check(name, answer, p)  # type: ignore[no-any-return]

        check.__name__ = f"declared_{name}"
        merged.checks[name] = check
        if exercise.label:
            merged.labels[name] = exercise.label
        if found.edition == "teacher":

            def model(p: Params, name: str = name) -> tuple[object, str]:
                return found.model(name, p)  # type: ignore[no-any-return]

            merged.models[name] = model
        if exercise.kind == "order":
            lines = exercise.fields["lines"]
            merged.orderings[name] = Parsons(
                {x: line["text"] for x, line in lines.items()},
                (),
                {x: tuple(line.get("uses", ())) for x, line in lines.items()},
                {},
            )
    return merged


def _merge_sections(merged: LessonSpec, found: Any) -> None:
    """The declared guesses (form and reveal), truths (and the reveal a test opens) and further reveals."""
    sections = found.sections
    for name in (*sections["guess"], *sections["truth"], *sections["reveal"]):
        if name in merged.reveals or name in merged.truths or name in merged.guess_forms:
            raise LessonError(f"{found.source}: {name!r} is declared and also in the lesson's Python module.")
    for name, guess in sections["guess"].items():
        merged.guess_forms[name] = guess.form
        merged.reveals[name], merged.gates[name] = guess.reveal, name
    for name, truth in sections["truth"].items():

        def function(p: Params, truth: Any = truth) -> Callable[[int], bool]:
            return truth.function(p)  # type: ignore[no-any-return]

        merged.truths[name] = function
        merged.truth_words[name] = (truth.fields["yes"], truth.fields["no"])
        if truth.fields.get("reach"):
            merged.reaches[name] = truth.fields["reach"]
        if "reveal" in truth.fields:
            merged.reveals[name], merged.gates[name] = truth.reveal, name
    for name, reveal in sections["reveal"].items():
        merged.reveals[name], merged.gates[name] = reveal.reveal, reveal.fields["after"]


#: What the student edition says instead of a model answer.
STUDENT_EDITION = (
    "Model answers are in the teacher's edition of the lessons, not in this one: "
    "compare with a partner, or ask your teacher."
)


def student_edition(number: str) -> bool:
    """Whether the lesson's exercises come from a student copy (which holds no model answers)."""
    import duel_lessons.teaching.declared as declared

    path = declared.find(str(number).zfill(2))
    return path is not None and declared.load(path).edition == "student"


def truth_of(number: str, params: Params, name: str | None = None) -> tuple[str, Callable[[int], bool]]:
    """The name and the function a conjecture of lesson ``number`` is tested against (its only one by default)."""
    truths = spec(number).truths
    if name is None:
        if len(truths) != 1:
            raise LessonError(f"Say which conjecture to test: one of {', '.join(sorted(truths))}.")
        (name,) = truths
    if name not in truths:
        raise LessonError(f"Lesson {number} tests no conjecture called {name!r}.")
    return name, truths[name](params)


def model_of(number: str, params: Params, key: str) -> tuple[object, str]:
    """The model answer of check ``key`` and its reason (the teacher edition only)."""
    models = spec(number).models
    if student_edition(number):
        raise LessonError(STUDENT_EDITION)
    if key not in models:
        raise LessonError(
            f"Lesson {number} has no model answer for {key!r}: declare its answer or add @SPEC.model({key!r})."
        )
    return models[key](params)
