"""A lesson's exercises in a notebook: check, guess, reveal, test and solution.

The notebook makes one :class:`Lesson` from its parameters::

    lesson = Lesson("04", rules=RULES, upto=UPTO)
    lesson.check(1, answer_1)          # diagnostic feedback, computed in the package
    lesson.guess("pattern", my_guess)  # a prediction, made before any data
    lesson.reveal("pattern")           # opens only after the guess
    lesson.test(my_rule)               # first counterexample, or "holds up to N"
    lesson.solution(1, [512])          # teacher cell: verified always, shown after an attempt

Everything that decides is pure (:meth:`Lesson.verdict`, :meth:`Lesson.feedback`,
:meth:`Lesson.test_lines`, :meth:`Lesson.reveal_text`); the methods above only
print those lines or show a button.  What a student tried is remembered for the
life of the kernel (:func:`memory`), so re-running the set-up cell forgets nothing
and a repeated mistake gets a stronger hint.

>>> forget("00")
>>> lesson = Lesson("00", rules="divisor-duel", start=60, small=12, candidates=[2, 9, 11])
>>> print("\\n".join(lesson.feedback(1, ...)))
⏳ Not answered yet (Exercise 1): replace the ... with your answer and run the cell again.
>>> bool(lesson.check(1, [2, 3, 4, 6]))
✅ Exercise 1: right!
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from duel_lessons.teaching.checks import LessonError, LessonSpec, Params, spec
from duel_lessons.teaching.feedback import Verdict, first_difference, is_unanswered, show

NOT_ANSWERED = "replace the ... with your answer and run the cell again."
MAX_TEST = 10**6

ICONS = {"right": "✅", "format": "🟡", "partial": "🟠", "misconception": "❌", "miss": "❌", "unanswered": "⏳"}
HEADS = {
    "right": "right!",
    "format": "check the form of your answer.",
    "partial": "partly right.",
    "misconception": "not quite.",
    "miss": "not quite.",
}


class Result:
    """Whether an answer was right: true or false, and invisible in a notebook.

    >>> bool(Result(True)), Result(False)
    (True, Result(right=False))
    """

    def __init__(self, right: bool) -> None:
        self.right = right

    def __bool__(self) -> bool:
        return self.right

    def __repr__(self) -> str:
        return f"Result(right={self.right})"

    def _ipython_display_(self) -> None:
        """Show nothing: the feedback has been printed already."""


@dataclass
class Attempts:
    """What a student has tried in one lesson (kept for the life of the kernel)."""

    mistakes: dict[str, list[str]] = field(default_factory=dict)
    attempted: set[str] = field(default_factory=set)
    guesses: dict[str, object] = field(default_factory=dict)
    tested: dict[str, object] = field(default_factory=dict)


_MEMORY: dict[str, Attempts] = {}


def memory(lesson: str) -> Attempts:
    """The attempts made in a lesson in this kernel."""
    return _MEMORY.setdefault(str(lesson).zfill(2), Attempts())


def forget(lesson: str | None = None) -> None:
    """Forget the attempts of one lesson (or of all): for tests and for a fresh start."""
    if lesson is None:
        _MEMORY.clear()
    else:
        _MEMORY.pop(str(lesson).zfill(2), None)


def label(name: str) -> str:
    """How a check is named to the student.

    >>> label("3"), label("proof-2"), label("flaw")
    ('Exercise 3', 'Proof question 2', 'Question "flaw"')
    """
    if name.isdigit():
        return f"Exercise {name}"
    if name.startswith("proof-"):
        return f"Proof question {name[len('proof-') :]}"
    return f'Question "{name}"'


def feedback_lines(name: str, verdict: Verdict, repeated: bool, title: str = "") -> list[str]:
    """The lines printed for a verdict; ``repeated`` when the same mistake came back.

    >>> feedback_lines("1", Verdict("miss", "Your answer was 5.", "Try 2.", "Try 2 first."), True)
    ['❌ Exercise 1: not quite. Your answer was 5.', '💡 Stronger hint (same answer as before): Try 2 first.']
    """
    if verdict.kind == "unanswered":
        return [f"{ICONS['unanswered']} Not answered yet ({title or label(name)}): {NOT_ANSWERED}"]
    head = f"{ICONS[verdict.kind]} {title or label(name)}: "
    lines = [(head + HEADS[verdict.kind] + (" " + verdict.message if verdict.message else "")).rstrip()]
    if verdict.kind == "right":
        return lines
    if repeated and verdict.stronger:
        lines.append(f"💡 Stronger hint (same answer as before): {verdict.stronger}")
    elif verdict.hint:
        lines.append(f"💡 Hint: {verdict.hint}")
    return lines


class Lesson:
    """The exercises, guesses, reveals and conjecture tests of one lesson.

    ``number`` is the lesson ("04"); keyword arguments are the lesson's
    parameters (from its ``# PARAMETERS`` cell), which the checks compute from.
    """

    def __init__(self, number: str | int, **params: Any) -> None:
        self.number = str(number).zfill(2)
        self.spec: LessonSpec = spec(self.number)
        missing = [name for name in self.spec.needs if name not in params]
        if missing:
            raise LessonError(f"Lesson {self.number} needs the parameter(s) {', '.join(missing)}.")
        self.params: Params = MappingProxyType(dict(params))

    def __repr__(self) -> str:
        return f"Lesson({self.number!r}, {', '.join(f'{k}={v!r}' for k, v in self.params.items())})"

    def _ipython_display_(self) -> None:
        """Show nothing: the set-up cell need not print the parameters."""

    @property
    def attempts(self) -> Attempts:
        """What the student has tried in this lesson, in this kernel."""
        return memory(self.number)

    # -- pure parts ---------------------------------------------------------------------------------

    def _check(self, name: int | str) -> Callable[[object, Params], Verdict]:
        key = str(name)
        if key not in self.spec.checks:
            known = ", ".join(sorted(self.spec.checks))
            raise LessonError(f"Lesson {self.number} has no check {key!r}. Its checks: {known}.")
        return self.spec.checks[key]

    def verdict(self, name: int | str, answer: object) -> Verdict:
        """The verdict of check ``name`` on ``answer`` (remembers nothing).

        A check that breaks on a strange answer gives a format verdict, never an error.
        """
        check = self._check(name)
        try:
            return check(answer, self.params)
        except LessonError:
            raise
        except Exception as error:  # the student's answer must never stop the lesson
            return Verdict(
                "format",
                f"That answer could not be checked ({type(error).__name__}).",
                "Look at the example in the exercise for the form of the answer.",
                key="format:error",
            )

    def feedback(self, name: int | str, answer: object) -> list[str]:
        """The feedback lines for an answer, remembering it (a repeat gets the stronger hint)."""
        key = str(name)
        verdict = self.verdict(key, answer)
        if verdict.kind != "unanswered":
            self.attempts.attempted.add(key)
        seen = self.attempts.mistakes.setdefault(key, [])
        repeated = bool(verdict.key) and verdict.key in seen
        if verdict.kind not in ("right", "unanswered") and verdict.key:
            seen.append(verdict.key)
        return feedback_lines(key, verdict, repeated, self.spec.labels.get(key, ""))

    def truth(self, name: str | None = None) -> tuple[str, Callable[[int], bool]]:
        """The name and the function a conjecture is tested against (the lesson's only one by default)."""
        if name is None:
            if len(self.spec.truths) != 1:
                raise LessonError(f"Say which conjecture to test: one of {', '.join(sorted(self.spec.truths))}.")
            (name,) = self.spec.truths
        if name not in self.spec.truths:
            raise LessonError(f"Lesson {self.number} tests no conjecture called {name!r}.")
        return name, self.spec.truths[name](self.params)

    def test_lines(self, rule: object, upto: int | None = None, name: str | None = None) -> tuple[bool, list[str]]:
        """Test a conjecture function against the truth for n = 1 .. upto: (holds, lines to print)."""
        if is_unanswered(rule):
            return False, ["⏳ Not answered yet (your rule): " + NOT_ANSWERED]
        if not callable(rule):
            return False, [f"🟡 Give a function, such as my_rule (without brackets), not {show(rule)}."]
        name, truth = self.truth(name)
        yes, no = self.spec.truth_words[name]
        try:
            if is_unanswered(rule(1)):
                return False, ["⏳ Not answered yet (your rule): " + NOT_ANSWERED]
        except Exception:  # reported below, at the n where it fails
            pass
        upto = int(upto if upto is not None else self.params.get("upto", 100))
        if not 1 <= upto <= MAX_TEST:
            return False, [f"🟡 Test from 1 to a number between 1 and {MAX_TEST:,}, not {upto:,}."]
        self.attempts.tested[name] = rule
        self.attempts.attempted.add(name)
        found = first_difference(rule, truth, upto)
        if found is None:
            return True, [f"✅ Your rule holds for every n from 1 to {upto:,}. (Does that prove it for every n?)"]
        n, really, said = found
        if isinstance(said, Exception):
            return False, [f"🟡 Your rule stopped with {type(said).__name__} at n = {n}: {said}"]
        if not isinstance(said, bool) and said not in (0, 1):
            return False, [f"🟡 Your rule should give True or False; for n = {n} it gave {show(said)}."]
        agree = f" (It agrees for n = 1{f' to {n - 1}' if n > 2 else ''}.)" if n > 1 else ""
        return False, [
            f"❌ First counterexample: n = {n}. Your rule says {n} {yes if said else no}, "
            f"but {n} {yes if really else no}.{agree}",
            "Change your rule and test it again.",
        ]

    def reveal_text(self, name: str) -> str | None:
        """The reveal's text (markdown), or None while its guess is missing."""
        if name not in self.spec.reveals:
            raise LessonError(f"Lesson {self.number} has no reveal called {name!r}.")
        gate = self.spec.gates[name]
        made = self.attempts.tested if gate in self.spec.truths else self.attempts.guesses
        if gate not in made:
            return None
        return self.spec.reveals[name](made[gate], self.params)

    # -- what the notebook calls -------------------------------------------------------------------

    def check(self, name: int | str, answer: object) -> Result:
        """Print diagnostic feedback on an answer; return whether it is right (shows nothing itself)."""
        lines = self.feedback(name, answer)
        print("\n".join(lines))
        return Result(lines[0].startswith(ICONS["right"]))

    def guess(self, name: str, value: object) -> Result:
        """Record a prediction made before the data."""
        if is_unanswered(value):
            print("⏳ Not answered yet (your guess): " + NOT_ANSWERED)
            return Result(False)
        self.attempts.guesses[name] = value
        print(f"📝 Guess noted: {show(value)}. Keep it in mind; you will compare it with the answer later.")
        return Result(True)

    def test(self, rule: object, upto: int | None = None, name: str | None = None) -> Result:
        """Test a conjecture function n -> True/False; print the first counterexample or that it holds."""
        holds, lines = self.test_lines(rule, upto, name)
        print("\n".join(lines))
        return Result(holds)

    def reveal(self, name: str) -> None:
        """Show a button that opens the answer, once the guess ``name`` is made; else say what to do first."""
        text = self.reveal_text(name)
        if text is None:
            gate = self.spec.gates[name]
            what = "test your rule" if gate in self.spec.truths else "make your guess"
            print(f"🔒 Locked: first {what} in the cell above (replace the ...), run it, then run this cell again.")
            return
        from duel_lessons.teaching.widgets import reveal_button

        reveal_button(text)

    def solution(self, name: int | str, model: object, why: str = "") -> None:
        """Teacher cell: raise unless ``model`` passes its check; show it only after the student's attempt."""
        key = str(name)
        verdict = self.verdict(key, model)
        if not verdict.right:
            raise LessonError(
                f"The model solution of {self.number}.{key} fails its own check ({verdict.kind}): {verdict.message}"
            )
        title = self.spec.labels.get(key, label(key))
        what = title[0].lower() + title[1:]
        if key not in self.attempts.attempted:
            print(f"🔒 Try {what} first: the model answer opens after your first attempt.")
            return
        print(f"📖 Model answer for {what}: {show(model)}" + (f"\n   {why}" if why else ""))
