"""The registry of named checks, guesses, reveals and conjecture tests, one module per lesson.

Each lesson has a module ``lessonNN.py`` here that makes a :class:`LessonSpec`
and registers its parts with decorators::

    SPEC = LessonSpec("04", needs=("rules", "upto"))

    @SPEC.check(1)
    def winning_move(answer: object, p: Params) -> Verdict: ...

    @SPEC.reveal("pattern")
    def pattern(guess: object, p: Params) -> str: ...

    @SPEC.truth("loses", yes="loses", no="wins")
    def loses(p: Params) -> Callable[[int], bool]: ...

A check computes the right answer from the lesson's parameters ``p`` (the keyword
arguments given to :class:`~duel_lessons.teaching.lesson.Lesson`), never from the
notebook.  :func:`spec` finds a lesson's module by its number and imports it, so
adding a module is all it takes to register a lesson.

>>> sorted(available())[:2]
['00', '01']
>>> spec("04").checks["1"].__name__
'winning_move'
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from duel_lessons.engine.rules import DuelError
from duel_lessons.teaching.feedback import Verdict

Params = Mapping[str, Any]
Check = Callable[[object, Params], Verdict]
Reveal = Callable[[object, Params], str]
Truth = Callable[[Params], Callable[[int], bool]]
F = TypeVar("F")


class LessonError(DuelError):
    """A lesson asked for a check, reveal or parameter that does not exist."""


@dataclass
class LessonSpec:
    """Everything the package knows about one lesson's exercises.

    ``needs`` names the parameters its checks read; ``prompts`` holds the
    one-line question of each guess (shown when the guess is missing).
    """

    lesson: str
    needs: tuple[str, ...] = ()
    checks: dict[str, Check] = field(default_factory=dict)
    reveals: dict[str, Reveal] = field(default_factory=dict)
    truths: dict[str, Truth] = field(default_factory=dict)
    truth_words: dict[str, tuple[str, str]] = field(default_factory=dict)
    gates: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)

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

    def truth(self, name: str, yes: str, no: str) -> Callable[[F], F]:
        """Register what a conjecture function is tested against; ``yes``/``no`` say True/False ("loses")."""

        def add(function: F) -> F:
            self.truths[name] = function  # type: ignore[assignment]
            self.truth_words[name] = (yes, no)
            return function

        return add


_SPECS: dict[str, LessonSpec] = {}


def register(lesson_spec: LessonSpec) -> LessonSpec:
    """Add a lesson's spec to the registry (called by each lesson module)."""
    _SPECS[lesson_spec.lesson] = lesson_spec
    return lesson_spec


def available() -> list[str]:
    """The lesson numbers that have a checks module, such as ``["00", "01", ...]``."""
    return sorted(m.name[len("lesson") :] for m in pkgutil.iter_modules(__path__) if m.name.startswith("lesson"))


def spec(lesson: str) -> LessonSpec:
    """The spec of a lesson ("04"), importing its module on first use."""
    key = str(lesson).zfill(2)
    if key not in _SPECS:
        if key not in available():
            raise LessonError(f"No checks for lesson {lesson!r}. Known lessons: {', '.join(available())}.")
        importlib.import_module(f"{__name__}.lesson{key}")
    if key not in _SPECS:  # pragma: no cover - a module that forgot to register
        raise LessonError(f"The checks module for lesson {key} did not register itself.")
    return _SPECS[key]
