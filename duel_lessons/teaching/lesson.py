"""A lesson's exercises in a notebook: check, guess, reveal, test and solution.

The notebook makes one :class:`Lesson` from its parameters::

    lesson = Lesson("04", rules=RULES, upto=UPTO)
    lesson.check(1, answer_1)          # diagnostic feedback, computed in the package
    lesson.guess("pattern", my_guess)  # a prediction, made before any data
    lesson.reveal("pattern")           # opens only after the guess
    lesson.test(my_rule)               # first counterexample, or "holds up to N"
    lesson.solution(1)                 # teacher cell: the model answer (SPEC.model), shown after an attempt
    lesson.locked("pattern", thunk)    # shows thunk()'s output only once the guess "pattern" is made
    lesson.parsons("order")            # a Parsons problem: the proof's lines, put in order by keyboard

What decides is in the checks and in :meth:`Lesson.feedback`, :meth:`Lesson.test_lines` and
:meth:`Lesson.reveal_text`, which return lines.  Every judged answer counts as an attempt, remembered
for the life of the kernel (:func:`memory`): a repeated or cycled mistake gets a stronger hint.

>>> from duel_lessons.teaching.checks import LessonSpec, register
>>> from duel_lessons.teaching.feedback import expect_list
>>> demo = register(LessonSpec("90", needs=("n",)))
>>> @demo.check(1)
... def inner_divisors(answer, p):
...     return expect_list(answer, [d for d in range(2, p["n"]) if p["n"] % d == 0], hint="Try 2.", stronger="2, 3 ...")
>>> lesson = Lesson("90", n=12)
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

from duel_lessons.teaching.checks import (
    STUDENT_EDITION,
    LessonError,
    LessonSpec,
    Params,
    model_of,
    spec,
    student_edition,
    truth_of,
)
from duel_lessons.teaching.conjectures import SHOWN, answered_by, beyond, reach_of
from duel_lessons.teaching.feedback import (
    STRICT,
    Result,
    Verdict,
    as_truth,
    bounded,
    first_difference,
    is_unanswered,
    plain,
    show,
    strict,
)
from duel_lessons.teaching.gating import tool_lock
from duel_lessons.teaching.record import Progress, answered, attempt, emit
from duel_lessons.views.tool_lock import set_lock

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


#: Set to "1" (the test suite does) to make a model solution that fails its check, a check that raises,
#: a misconception test or a reveal that breaks an error (in a classroom: a notice, and the lesson runs on).
STRICT_SOLUTIONS = STRICT
#: Two different wrong answers in a row to a choice among this many options or fewer get the stronger hint
#: (cycling through the options is no way round it); for other checks, three.
FEW_OPTIONS = 4
CYCLE = 3
#: Judged answers per check in one session: past this, answers are no longer judged (a loop over the
#: options, or over the orders of a proof, finds nothing), and the student is told to stop and think.
MAX_TRIES = 40
_NO_MODEL = object()


@dataclass
class Attempts:
    """What a student has tried in one lesson (kept for the life of the kernel)."""

    mistakes: dict[str, list[str]] = field(default_factory=dict)
    #: the checks with an attempt that was not a format slip (their model answers open)
    attempted: set[str] = field(default_factory=set)
    #: every judged answer, by check (a loop over the options shows here)
    judged: dict[str, int] = field(default_factory=dict)
    #: the wrong answers since the last right one, by check (cycling escalates)
    run: dict[str, list[str]] = field(default_factory=dict)
    guesses: dict[str, object] = field(default_factory=dict)
    tested: dict[str, object] = field(default_factory=dict)
    #: the first guess of each name, and the first counterexample each conjecture test met
    first_guesses: dict[str, str] = field(default_factory=dict)
    first_counterexamples: dict[str, int] = field(default_factory=dict)
    #: the last verdict of each check (for the saved record and ``progress()``)
    last: dict[str, Verdict] = field(default_factory=dict)
    #: the words the student saw for each mistake, by its key (the class report shows these, not keys)
    words: dict[str, str] = field(default_factory=dict)


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


def feedback_lines(name: str, verdict: Verdict, repeated: bool | str, title: str = "") -> list[str]:
    """The lines printed for a verdict; ``repeated`` when the same mistake came back (``"cycle"``: several tried).

    >>> feedback_lines("1", Verdict("miss", "Your answer was 5.", "Try 2.", "Try 2 first."), True)
    ['❌ Exercise 1: not quite. Your answer was 5.', '💡 Stronger hint (same answer as before): Try 2 first.']
    >>> feedback_lines("1", Verdict("miss", "", "Try 2.", "Try 2 first."), "cycle")[1]
    '💡 Stronger hint (you have tried several answers): Try 2 first.'
    """
    if verdict.kind == "unanswered":
        return [f"{ICONS['unanswered']} Not answered yet ({title or label(name)}): {NOT_ANSWERED}"]
    head = f"{ICONS[verdict.kind]} {title or label(name)}: "
    lines = [(head + HEADS[verdict.kind] + (" " + verdict.message if verdict.message else "")).rstrip()]
    if verdict.kind == "right":
        return lines
    if repeated and verdict.stronger:
        why = "you have tried several answers" if repeated == "cycle" else "same answer as before"
        lines.append(f"💡 Stronger hint ({why}): {verdict.stronger}")
    elif verdict.hint:
        lines.append(f"💡 Hint: {verdict.hint}")
    return lines


def _spec(number: str) -> LessonSpec:
    """The lesson's spec, looked up at each use: the lesson object holds no checks, models or truths."""
    return spec(number)


class Lesson:
    """The exercises, guesses, reveals and conjecture tests of one lesson.

    ``number`` is the lesson ("04"); keyword arguments are the lesson's
    parameters (from its ``# PARAMETERS`` cell), which the checks compute from.
    """

    def __init__(self, number: str | int, *, student: bool = False, **params: Any) -> None:
        self.number = str(number).zfill(2)
        #: The student edition (``duel-lessons student-copies`` writes ``student=True``): no model answers.
        self.student = student is True
        missing = [name for name in _spec(self.number).needs if name not in params]
        if missing:
            raise LessonError(f"Lesson {self.number} needs the parameter(s) {', '.join(missing)}.")
        self.params: Params = MappingProxyType(dict(params))
        student_tree = self.student or student_edition(self.number)  # boards' P/N and Explain wait for the guesses
        set_lock(tool_lock(_spec(self.number), self.attempts) if student_tree else None)

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
        if key not in _spec(self.number).checks:
            known = ", ".join(sorted(_spec(self.number).checks))
            raise LessonError(f"Lesson {self.number} has no check {key!r}. Its checks: {known}.")
        return _spec(self.number).checks[key]

    def judge(self, name: int | str, answer: object) -> Verdict:
        """The verdict of check ``name`` on ``answer``; like :meth:`verdict`, it counts as an attempt."""
        return self.verdict(name, answer)

    def _judge(self, name: int | str, answer: object) -> Verdict:
        """The verdict of check ``name`` on ``answer``, made a plain value first; remembers nothing.

        A check that breaks on a strange answer gives a format verdict in a classroom, and raises
        under strict mode (``DUEL_LESSONS_STRICT_SOLUTIONS=1``, set by the test suite): a bug in the check.
        """
        check = self._check(name)
        try:
            return bounded(check(plain(answer), self.params))
        except LessonError:
            raise
        except Exception as error:  # the student's answer must never stop the lesson
            if strict():
                raise
            return Verdict(
                "format",
                f"That answer could not be checked ({type(error).__name__}).",
                "Look at the example in the exercise for the form of the answer.",
                key="format:error",
            )

    def _record(self, key: str, verdict: Verdict) -> bool | str:
        """Remember an attempt; return whether the stronger hint is due (``"cycle"`` for several different tries)."""
        if verdict.kind == "unanswered":
            return False
        attempts = self.attempts
        attempts.judged[key] = attempts.judged.get(key, 0) + 1
        run = attempts.run.setdefault(key, [])
        if verdict.kind == "right":
            attempts.attempted.add(key)
            run.clear()
            return False
        seen = attempts.mistakes.setdefault(key, [])
        repeated = bool(verdict.key) and verdict.key in seen
        seen.append(verdict.key)
        if verdict.kind == "format":
            return repeated
        attempts.attempted.add(key)
        run.append(verdict.key)
        if repeated:
            return True
        different = len(set(run))
        few = 0 < verdict.options <= FEW_OPTIONS
        return "cycle" if different >= CYCLE or (few and different >= 2) else False

    def _counted(self, key: str, answer: object) -> Verdict:
        """The verdict, unless this check has had MAX_TRIES judged answers in this session already."""
        if self.attempts.judged.get(key, 0) >= MAX_TRIES and not is_unanswered(answer):
            self._check(key)  # an unknown check is still named as such
            return Verdict(
                "format",
                f"That is {MAX_TRIES} tries at this one in this session, so answers are no longer checked here. "
                "Stop trying answers: work it out on paper, or with a partner, or ask your teacher.",
                "Go back to the example in the lesson and do it by hand first.",
                key="format:too-many-tries",
            )
        return self._judge(key, answer)

    def verdict(self, name: int | str, answer: object) -> Verdict:
        """The verdict of check ``name`` on ``answer``; it counts as an attempt (a loop over options shows)."""
        verdict = self._counted(str(name), answer)
        self._record(str(name), verdict)
        return verdict

    def feedback(self, name: int | str, answer: object) -> list[str]:
        """The feedback lines for an answer, remembering it (a repeat or a cycle gets the stronger hint)."""
        key = str(name)
        verdict = self._counted(key, answer)
        stronger = self._record(key, verdict)
        if verdict.kind != "unanswered":
            self.attempts.last[key] = verdict
            if verdict.key:
                shown = verdict.hint if verdict.kind == "misconception" and verdict.hint else verdict.message
                self.attempts.words.setdefault(verdict.key, shown[:140])
        return feedback_lines(key, verdict, stronger, _spec(self.number).labels.get(key, ""))

    def _upto(self, upto: object) -> int | str:
        """The range of a conjecture test, or the message refusing it ("abc", inf, nan, 10**5000, 0)."""
        value = plain(self.params.get("upto", 100) if upto is None else upto)
        if type(value) is float and value.is_integer():
            value = int(value)
        if type(value) is not int or not 1 <= value <= MAX_TEST:
            return f"🟡 Test from 1 to a whole number between 1 and {MAX_TEST:,}, not {show(value)}."
        return value

    def test_lines(self, rule: object, upto: object = None, name: str | None = None) -> tuple[bool, list[str]]:
        """Test a conjecture function against the truth for n = 1 .. upto, then beyond: (holds, lines to print).

        Beyond the data, a few hundred larger numbers (:func:`beyond`) are tried, up to as far as the
        truth answers quickly (its ``reach``), so a rule with a list of exceptions is refuted.  Only a
        rule that agrees with the truth on the small cases the lesson showed (1 .. :data:`SHOWN`)
        opens the reveal gated by the test.
        """
        if is_unanswered(rule):
            return False, ["⏳ Not answered yet (your rule): " + NOT_ANSWERED]
        if not callable(rule):
            return False, [f"🟡 Give a function, such as my_rule (without brackets), not {show(rule)}."]
        name, truth = truth_of(self.number, self.params, name)
        yes, no = _spec(self.number).truth_words[name]
        try:
            if is_unanswered(rule(1)):
                return False, ["⏳ Not answered yet (your rule): " + NOT_ANSWERED]
        except Exception:  # reported below, at the n where it fails
            pass
        limit = self._upto(upto)
        if isinstance(limit, str):
            return False, [limit]
        self.attempts.attempted.add(name)
        further = answered_by(truth, beyond(limit, reach_of(_spec(self.number).reaches.get(name, 0), self.params)))
        found = first_difference(rule, truth, limit)
        if found is None and further:
            found = first_difference(rule, truth, 0, among=further)
        if found is not None and not isinstance(found[2], Exception) and as_truth(found[2]) is not None:
            self.attempts.first_counterexamples.setdefault(name, found[0])
        if found is None:
            more = f", and for {len(further)} larger numbers up to {further[-1]:,}" if further else ""
            lines = [f"✅ Your rule holds for every n from 1 to {limit:,}{more}. (Does that prove it for every n?)"]
        else:
            n, really, said = found
            if isinstance(said, Exception):
                return False, [f"🟡 Your rule stopped with {type(said).__name__} at n = {n}: {show(str(said))}"]
            if as_truth(said) is None:
                return False, [f"🟡 Your rule should give True or False; for n = {n} it gave {show(said)}."]
            if n > limit:
                agree = f" (It agrees for every n from 1 to {limit:,}: this one lies beyond the data.)"
            else:
                agree = f" (It agrees for n = 1{f' to {n - 1}' if n > 2 else ''}.)" if n > 1 else ""
            lines = [
                f"❌ First counterexample: n = {n}. Your rule says {n} {yes if said else no}, "
                f"but {n} {yes if really else no}.{agree}",
                "Change your rule and test it again.",
            ]
        small = min(limit, SHOWN)
        if first_difference(rule, truth, small) is None and self._varies(rule, limit):
            self.attempts.tested[name] = rule
        elif not self._varies(rule, limit):
            lines.append(
                f"🔒 Your rule says the same for every n from 1 to {limit:,}, so it opens nothing: "
                "write a rule that tells some numbers apart."
            )
        else:
            lines.append(
                f"🔒 The answer stays closed until your rule fits the small numbers, 1 to {small}, that you have "
                "seen in the table."
            )
        return found is None, lines

    @staticmethod
    def _varies(rule: Callable[[int], object], upto: int) -> bool:
        """Whether ``rule`` gives True or False for every n in 1 .. upto, and not the same for all."""
        seen: set[bool] = set()
        for n in range(1, upto + 1):
            try:
                told = as_truth(rule(n))
            except Exception:
                return False
            if told is None:
                return False
            seen.add(told)
        return len(seen) == 2

    def reveal_text(self, name: str) -> str | None:
        """The reveal's text (markdown), or None while its guess is missing."""
        if name not in _spec(self.number).reveals:
            raise LessonError(f"Lesson {self.number} has no reveal called {name!r}.")
        gate = _spec(self.number).gates[name]
        made = self.attempts.tested if gate in _spec(self.number).truths else self.attempts.guesses
        if gate not in made:
            return None
        try:
            return _spec(self.number).reveals[name](made[gate], self.params)
        except Exception as error:
            if strict():
                raise
            return (
                f"Your guess {show(made[gate])} could not be compared with the answer ({type(error).__name__}). "
                "Make your guess again in the form its cell asks for, then run this cell again."
            )

    # -- what the notebook calls -------------------------------------------------------------------

    def check(self, name: int | str, answer: object) -> Result:
        """Print diagnostic feedback on an answer; return whether it is right (shows nothing itself)."""
        lines = self.feedback(name, answer)
        print("\n".join(lines))
        self._note(str(name), answer)
        return Result(lines[0].startswith(ICONS["right"]))

    def _note(self, key: str, answer: object, display_id: str | None = None) -> list[str]:
        """Save the attempt in the notebook for the class report (a widget's order: its labels, in its own cell)."""
        verdict = self.attempts.last.get(key)
        if verdict is None or is_unanswered(answer):
            return []
        answered(self.number, key, plain(answer))
        mistakes = self.attempts.mistakes.get(key, [])
        labels = [str(x) for x in answer] if isinstance(answer, (list, tuple)) else []
        extra = {"via": "widget", "answer": labels} if display_id else {}
        record = attempt(
            self.number,
            "check",
            key,
            kind=verdict.kind,
            key=verdict.key,
            shown=show(answer),
            history=mistakes,
            said=[self.attempts.words.get(k, "") for k in mistakes],
            tries=self.attempts.judged.get(key, 0),
            **extra,
        )
        emit(record, display_id=display_id, update=display_id is not None)
        return []

    def guess_problem(self, name: str, value: object) -> str | None:
        """Why ``value`` is not a guess of the asked form (the lesson's ``SPEC.guess_form``), or None."""
        form = _spec(self.number).guess_forms.get(name)
        if form is None:
            return None
        try:
            return form(plain(value), self.params)
        except Exception as error:
            if strict():
                raise
            return f"That guess could not be read ({type(error).__name__}): look at the example in the cell."

    def guess(self, name: str, value: object) -> Result:
        """Record a prediction made before the data; a guess of the wrong form is not noted and opens nothing."""
        if is_unanswered(value):
            print("⏳ Not answered yet (your guess): " + NOT_ANSWERED)
            return Result(False)
        problem = self.guess_problem(name, value)
        if problem:
            print(f"🟡 Guess not noted: {problem}")
            return Result(False)
        value = plain(value)
        self.attempts.guesses[name] = value
        first = self.attempts.first_guesses.setdefault(name, show(value))
        print(f"📝 Guess noted: {show(value)}. Keep it in mind; you will compare it with the answer later.")
        emit(attempt(self.number, "guess", name, kind="noted", shown=show(value), first=first))
        return Result(True)

    def test(self, rule: object, upto: object = None, name: str | None = None) -> Result:
        """Test a conjecture function n -> True/False; print the first counterexample or that it holds."""
        holds, lines = self.test_lines(rule, upto, name)
        print("\n".join(lines))
        if callable(rule) and len(_spec(self.number).truths) >= 1:
            truth_name = name if name is not None else next(iter(_spec(self.number).truths))
            emit(
                attempt(
                    self.number,
                    "test",
                    truth_name,
                    kind="holds" if holds else "fails",
                    shown=getattr(rule, "__name__", "rule"),
                    first_counterexample=self.attempts.first_counterexamples.get(truth_name),
                )
            )
        return Result(holds)

    def progress(self) -> Progress:
        """What you have done in this lesson so far (in this kernel): each exercise, guess and test."""
        rows = []
        for key in sorted(_spec(self.number).checks, key=lambda k: (not k.isdigit(), k.zfill(4))):
            verdict = self.attempts.last.get(key)
            tries = self.attempts.judged.get(key, 0)
            state = "not tried yet" if verdict is None else ("right" if verdict.right else "not right yet")
            rows.append((_spec(self.number).labels.get(key, label(key)), state, tries))
        for name in _spec(self.number).guess_forms or {}:
            made = name in self.attempts.guesses
            rows.append((f'Guess "{name}"', "made" if made else "not made yet", int(made)))
        for name in _spec(self.number).truths:
            met = self.attempts.first_counterexamples.get(name)
            state = "tested" if name in self.attempts.attempted else "not tested yet"
            rows.append((f'Your rule ("{name}")', state + (f"; first counterexample n = {met}" if met else ""), 0))
        return Progress(self.number, rows)

    def reveal(self, name: str) -> None:
        """Show a button that opens the answer, once the guess ``name`` is made; else say what to do first."""
        text = self.reveal_text(name)
        if text is None:
            gate = _spec(self.number).gates[name]
            what = "test your rule" if gate in _spec(self.number).truths else "make your guess"
            print(f"🔒 Locked: first {what} in the cell above (replace the ...), run it, then run this cell again.")
            return
        from duel_lessons.teaching.widgets import reveal_button

        reveal_button(text)

    def _open(self, gate: str) -> bool:
        return gate in self.attempts.guesses or (gate in _spec(self.number).truths and gate in self.attempts.tested)

    def text(self, name: str) -> None:
        """Show a part of the lesson that opens after a guess (a cell tagged ``after:GUESS`` in the teacher's
        notebook, or a declared ``[text.NAME]``); before the guess, a 🔒 line."""
        texts = _spec(self.number).texts
        if name not in texts:
            raise LessonError(f"Lesson {self.number} has no text called {name!r}: make the student copy again.")
        gate, markdown = texts[name]
        if not self._open(gate):
            what = "test your rule" if gate in _spec(self.number).truths else "make your guess"
            print(f"🔒 This part opens once you {what} above (replace the ...), run it, then run this cell again.")
            return
        from IPython.display import Markdown, display

        from duel_lessons.teaching.declared import fill

        display(Markdown(fill(markdown, self.params)))

    def locked(self, guess: str, thunk: Callable[[], object]) -> None:
        """Show what ``thunk()`` shows (and its value) only once the guess ``guess`` is made; else a 🔒 line.

        For an output that answers a pending guess: a game record, a count, a closed form, a heatmap.
        """
        made = guess in self.attempts.guesses or (guess in _spec(self.number).truths and guess in self.attempts.tested)
        if not made:
            what = "test your rule" if guess in _spec(self.number).truths else "make your guess"
            print(f"🔒 Locked: first {what} above (replace the ...), run it, then run this cell again.")
            return
        value = thunk()
        if value is not None:
            from IPython.display import display

            display(value)

    def model(self, name: int | str) -> tuple[object, str]:
        """The model answer of check ``name`` and its reason, computed from the parameters (``SPEC.model``).

        Like :meth:`solution`, it opens only after an attempt that was not a format slip (always under
        strict mode, for the tests).
        """
        key = str(name)
        if self.student or student_edition(self.number):
            raise LessonError(STUDENT_EDITION)
        if not strict() and key not in self.attempts.attempted:
            title = _spec(self.number).labels.get(key, label(key))
            raise LessonError(f"Try {title[0].lower() + title[1:]} first: the model answer opens after your attempt.")
        return model_of(self.number, self.params, key)

    def solution(self, name: int | str, model: object = _NO_MODEL, why: str = "") -> None:
        """Teacher cell: check the model answer against its check; show it only after the student's attempt.

        The model answer is ``SPEC.model`` computed from the parameters (the old form ``solution(name,
        model, why)`` still works).  It opens after an attempt that was not a format slip.  A model that
        fails its check raises LessonError under the test suite (the environment variable
        ``DUEL_LESSONS_STRICT_SOLUTIONS=1``, set by the project's conftest), so a wrong model solution
        fails the suite.  In a classroom a notice says so, and the lesson runs on.
        """
        key = str(name)
        if self.student or student_edition(self.number):
            print(f"📖 {STUDENT_EDITION}")
            return
        if model is _NO_MODEL:
            model, why = model_of(self.number, self.params, key)
        verdict = self._judge(key, model)
        title = _spec(self.number).labels.get(key, label(key))
        what = title[0].lower() + title[1:]
        if not verdict.right:
            if strict():
                raise LessonError(
                    f"The model solution of {self.number}.{key} fails its own check ({verdict.kind}): {verdict.message}"
                )
            print(
                f"📖 The model answer for {what} was written for the lesson's original parameters, and the ones "
                f"in # PARAMETERS have changed; the check above still judges answers for your parameters."
            )
            return
        if key not in self.attempts.attempted:
            print(f"🔒 Try {what} first: the model answer opens after your first attempt.")
            return
        print(f"📖 Model answer for {what}: {show(model)}" + (f"\n   {why}" if why else ""))

    def parsons(self, name: str) -> None:
        """Show a Parsons problem: its lines with their labels, and a keyboard-usable widget that checks an order."""
        if name not in _spec(self.number).orderings:
            known = ", ".join(sorted(_spec(self.number).orderings)) or "none"
            raise LessonError(f"Lesson {self.number} has no Parsons problem {name!r}. Its Parsons problems: {known}.")
        problem = _spec(self.number).orderings[name]
        title = _spec(self.number).labels.get(name, label(name))
        print(f"{title}: the lines, shuffled (some may not belong in the proof):")
        for x, text in problem.lines.items():
            print(f"  {x}. {text}")
        print(f'Put them in order below, or write lesson.check("{name}", ["A", ...]) with the labels in order.')
        from duel_lessons.teaching.widgets import parsons_widget

        display_id = f"duel-order-{self.number}-{name}-{id(problem)}-{len(self.attempts.judged)}"
        emit({}, display_id=display_id)  # the place in this cell where the order clicked is saved
        judged = lambda order: [*self.feedback(name, order), *self._note(name, order, display_id)]  # noqa: E731
        parsons_widget(problem.lines, judged, title=title)
