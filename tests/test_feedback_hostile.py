"""Hostile answers: endless generators, huge lists, spies, liars, loops over the options, case slips.

A spy is a value of the student's own class (an int, str, list ... subclass) that writes down
what it is compared with; a liar says it equals everything.  Answers are turned into plain values
before any comparison, so a spy learns nothing and a liar passes nothing.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from duel_lessons.teaching import Lesson
from duel_lessons.teaching.checks import LessonSpec, spec
from duel_lessons.teaching.feedback import (
    MAX_ITEMS,
    MAX_MESSAGE,
    MAX_SHOWN,
    Misconception,
    Unreadable,
    Verdict,
    expect_choice,
    expect_list,
    expect_member,
    expect_number,
    expect_table,
    plain,
    show,
)
from duel_lessons.teaching.lesson import forget
from duel_lessons.teaching.parameters import lesson_arguments


def test_endless_generator_is_refused_not_read_forever() -> None:
    verdict = expect_list(itertools.count(), [2, 4])
    assert verdict.kind == "format"
    assert "more than" in verdict.message


def test_huge_list_is_refused_and_feedback_stays_short() -> None:
    verdict = expect_list(list(range(MAX_ITEMS + 1)), [2, 4])
    assert verdict.kind == "format"
    assert len(verdict.message) < 500


def test_generator_of_the_right_numbers_is_read_once_and_judged_on_its_numbers() -> None:
    assert expect_list((x for x in [4, 2]), [2, 4]).kind == "right"
    assert expect_list((x for x in [2, 5]), [2, 4]).kind == "partial"


def test_partial_feedback_names_at_most_ten_wrong_numbers() -> None:
    verdict = expect_list([2, *range(100, 200)], [2, 4])
    assert verdict.kind == "partial"
    assert "199" not in verdict.message


def test_show_is_capped() -> None:
    assert len(show(list(range(10**4)))) <= MAX_SHOWN


class _EqualToAll:
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class _StrEqualToAll(str):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


def test_an_object_equal_to_everything_does_not_pass_a_choice_check() -> None:
    assert expect_choice(_EqualToAll(), "P", ("P", "N")).kind == "format"
    assert not expect_choice(_StrEqualToAll("zzz"), "P", ("P", "N")).right
    assert expect_choice("P", "P", ("P", "N")).right


# -- spies and liars: answers are plain values before any comparison ---------------------------------

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
SEEN: list[str] = []  # what the spies were asked


def _spy(base: type) -> type:
    """A subclass of ``base`` that writes down every comparison, conversion or hash asked of it."""

    def record(name: str) -> Any:
        def method(self: Any, *args: Any) -> Any:
            SEEN.append(f"{base.__name__}.{name}{args!r}")
            return getattr(base, name)(self, *args)

        return method

    names = ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__contains__",
             "__len__", "__iter__", "__getitem__", "__int__", "__index__", "__float__", "__str__", "__repr__",
             "__format__", "__bool__", "__add__", "__sub__", "__mul__", "__mod__", "__and__", "__xor__", "upper",
             "strip", "lower"]  # fmt: skip
    return type(f"Spy{base.__name__}", (base,), {n: record(n) for n in names if hasattr(base, n)})


SpyInt, SpyStr, SpyList, SpyTuple, SpyDict = (_spy(t) for t in (int, str, list, tuple, dict))


class Liar:
    """Equal to everything, less than and greater than everything, true, of any length."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __lt__ = __le__ = __gt__ = __ge__ = __eq__

    def __hash__(self) -> int:
        return 0

    def __len__(self) -> int:
        return 1

    def __iter__(self) -> Iterator[object]:
        return iter([self])

    def __index__(self) -> int:
        return 1


class LiarInt(int):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


class LiarStr(str):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


class LiarList(list):  # type: ignore[type-arg]
    def __eq__(self, other: object) -> bool:
        return True


def liars() -> list[object]:
    return [Liar(), LiarInt(-987654321), LiarStr("zz-not-an-answer"), LiarList([-987654321]), [Liar()], (Liar(),),
            {1: Liar()}, {Liar()}]  # fmt: skip


def spies() -> list[object]:
    return [SpyInt(3), SpyInt(12), SpyStr("B"), SpyStr("P"), SpyList([SpyInt(2), SpyInt(4)]),
            SpyTuple((SpyInt(2), SpyInt(8))), SpyDict({SpyInt(1): SpyStr("P")}),
            [SpyStr("A"), SpyStr("B")]]  # fmt: skip


def test_plain_values_are_exact_and_ask_the_student_object_nothing() -> None:
    values = [SpyInt(3), SpyStr("P"), SpyList([1]), SpyDict({SpyInt(1): SpyStr("P")})]
    SEEN.clear()
    plains = [plain(x) for x in values]
    assert SEEN == []
    assert [type(x) for x in plains] == [int, str, list, dict] and plains[3] == {1: "P"}
    assert isinstance(plain(Liar()), Unreadable) and plain(Liar()) != plain(Liar())
    assert type(plain(LiarInt(5))) is int and type(plain(LiarStr("P"))) is str


def test_the_spy_can_see(capsys: pytest.CaptureFixture[str]) -> None:
    """The spy records a comparison made without plain values (so the test below can fail)."""
    SEEN.clear()
    _ = SpyInt(3) == 4
    assert SEEN == ["int.__eq__(4,)"]


@pytest.mark.parametrize("helper", ["list", "number", "member", "choice", "table"])
def test_helpers_tell_a_spy_nothing_and_pass_no_liar(helper: str) -> None:
    calls = {
        "list": lambda a: expect_list(a, [2, 4], misconceptions=[Misconception("k", [2, 8], "h", "s")]),
        "number": lambda a: expect_number(a, 12, misconceptions=[Misconception("k", 11, "h", "s")]),
        "member": lambda a: expect_member(a, {3, 5}),
        "choice": lambda a: expect_choice(a, "B", tuple("ABCD"), misconceptions=[Misconception("k", "A", "h", "s")]),
        "table": lambda a: expect_table(a, {1: "P", 2: "N"}),
    }  # fmt: skip
    made = spies()
    SEEN.clear()  # making a dict of spies hashes them
    for spy in made:
        calls[helper](spy)
    assert SEEN == []
    for liar in liars():
        assert not calls[helper](liar).right, (helper, liar)


def lesson_settings() -> list[Any]:
    params = []
    for path in LESSONS:
        number, arguments = lesson_arguments(json.loads(path.read_text(encoding="utf-8"))["cells"])
        params.append(pytest.param(number, arguments, id=path.stem))
    return params


@pytest.mark.parametrize(("number", "arguments"), lesson_settings())
def test_no_check_tells_a_spy_anything_or_passes_a_liar(number: str, arguments: dict[str, Any]) -> None:
    forget()
    lesson = Lesson(number, **arguments)
    made = spies()
    SEEN.clear()  # making a dict of spies hashes them
    passed = []
    for name in spec(lesson.number).checks:
        for spy in made:
            lesson.judge(name, spy)
        passed += [f"{name}: {type(liar).__name__}" for liar in liars() if lesson.judge(name, liar).right]
    assert SEEN == [], f"lesson {number}: the checks asked a student's object {SEEN[:5]}"
    assert passed == [], f"lesson {number}: checks passed by a value equal to everything: {passed}"
    forget()


# -- attempts: loops, cycles, case slips, model answers ------------------------------------------------


@pytest.fixture
def quiz(monkeypatch: pytest.MonkeyPatch) -> Iterator[Lesson]:
    """Lesson "96", registered for one test: a choice among A-D (B), and a number (twice the start)."""
    from duel_lessons.teaching import checks

    fake = LessonSpec("96", needs=("start",))

    @fake.check("pick")
    def pick(answer: object, p: Any) -> Verdict:
        return expect_choice(answer, "B", ("A", "B", "C", "D"), hint="Read it again.", stronger="Look at line 2.")

    @fake.check(1)
    def twice(answer: object, p: Any) -> Verdict:
        return expect_number(answer, 2 * p["start"], hint="Double it.", stronger="Add it to itself.")

    @fake.model("pick")
    def model_pick(p: Any) -> tuple[object, str]:
        return "B", "Line 2 says so."

    monkeypatch.setitem(checks._SPECS, "96", fake)
    forget("96")
    yield Lesson("96", start=6)
    forget("96")


def test_verdict_counts_as_an_attempt_so_a_loop_is_seen(quiz: Lesson) -> None:
    found = [x for x in "ABCD" if quiz.verdict("pick", x).right]
    assert found == ["B"]
    assert quiz.attempts.judged["pick"] == 4 and "pick" in quiz.attempts.attempted


def test_cycling_through_wrong_options_gets_the_stronger_hint(quiz: Lesson, capsys: pytest.CaptureFixture[str]) -> None:
    quiz.check("pick", "A")
    first = capsys.readouterr().out
    quiz.check("pick", "C")
    second = capsys.readouterr().out
    assert "💡 Hint: Read it again." in first and "Stronger" not in first
    assert "Stronger hint (you have tried several answers): Look at line 2." in second
    quiz.check("pick", "B")
    quiz.check("pick", "D")  # after a right answer the run starts again
    assert "Stronger" not in capsys.readouterr().out


def test_numbers_escalate_after_three_different_wrong_answers(quiz: Lesson, capsys: pytest.CaptureFixture[str]) -> None:
    for answer in (11, 13):
        quiz.check(1, answer)
    assert "Stronger" not in capsys.readouterr().out
    quiz.check(1, 14)
    assert "Stronger hint (you have tried several answers)" in capsys.readouterr().out


def test_a_case_slip_does_not_say_whether_the_letter_is_right(quiz: Lesson) -> None:
    right_letter, wrong_letter = quiz.verdict("pick", "b"), quiz.verdict("pick", "c")
    assert right_letter == wrong_letter
    assert right_letter.kind == "format" and "'A', 'B', 'C', 'D'" in right_letter.message
    assert "right" not in right_letter.message.lower() and "idea" not in right_letter.message.lower()
    assert quiz.verdict("pick", " B").message == right_letter.message


def test_no_format_slip_confirms_an_answer() -> None:
    """A wrong-form answer gets the same verdict whether its value is right or not."""
    assert expect_list(512, [512]) == expect_list(511, [512])
    assert expect_number("12", 12) == expect_number("13", 12)
    assert expect_number([12], 12) == expect_number([13], 12)
    assert expect_member([3], {3, 5}) == expect_member([4], {3, 5})
    assert expect_table({1: "p", 2: "N"}, {1: "P", 2: "N"}) == expect_table({1: "n", 2: "N"}, {1: "P", 2: "N"})


def test_a_model_answer_opens_only_after_an_attempt_that_was_not_a_format_slip(
    quiz: Lesson, capsys: pytest.CaptureFixture[str]
) -> None:
    quiz.solution("pick")
    quiz.check("pick", "b")  # a case slip
    quiz.check("pick", "Z")  # not an option
    quiz.solution("pick")
    out = capsys.readouterr().out
    assert "Model answer" not in out and out.count("Try question") == 2
    quiz.check("pick", "C")
    quiz.solution("pick")
    assert "📖 Model answer for question \"pick\": 'B'\n   Line 2 says so." in capsys.readouterr().out


# -- issue 21: lesson calls accept or refuse every value with a message, in bounded time -------------

HUGE = 10**5000
ODD_VALUES: list[object] = [
    [2**20000],
    2**20000,
    HUGE,
    [HUGE, -HUGE],
    [1000, None],
    "9" * 5000,
    float("inf"),
    float("nan"),
    [float("nan")],
    "dunno",
    {1: HUGE},
    itertools.count(),
]


@pytest.fixture
def guessing(monkeypatch: pytest.MonkeyPatch) -> Iterator[Lesson]:
    """Lesson "92": a guess "big" (a list of numbers) whose reveal reads it as lesson 04's did."""
    from duel_lessons.teaching import checks

    fake = LessonSpec("92")

    @fake.reveal("big")
    def big(guess: object, p: Any) -> str:
        return "You chose " + ", ".join(str(int(n)) for n in guess)  # type: ignore[attr-defined]

    @fake.truth("loses", yes="loses", no="wins")
    def loses(p: Any) -> Any:
        return lambda n: n % 2 == 1

    monkeypatch.setitem(checks._SPECS, "92", fake)
    forget("92")
    yield Lesson("92")
    forget("92")


def test_a_huge_guess_is_noted_in_words_not_digits(guessing: Lesson, capsys: pytest.CaptureFixture[str]) -> None:
    assert guessing.guess("big", [2**20000])
    out = capsys.readouterr().out
    assert "a number with about 6,021 digits" in out and len(out) < 300


def test_a_reveal_that_cannot_read_a_guess_says_so_in_class_and_raises_in_the_suite(
    guessing: Lesson, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    guessing.guess("big", [1000, None])
    monkeypatch.delenv("DUEL_LESSONS_STRICT_SOLUTIONS", raising=False)
    for _ in range(2):  # every later reveal too
        text = guessing.reveal_text("big")
        assert text is not None and "could not be compared" in text and "TypeError" in text
    monkeypatch.setenv("DUEL_LESSONS_STRICT_SOLUTIONS", "1")
    with pytest.raises(TypeError):
        guessing.reveal_text("big")


def test_a_guess_form_refuses_a_guess_before_it_is_noted(guessing: Lesson, capsys: pytest.CaptureFixture[str]) -> None:
    @spec(guessing.number).guess_form("big")
    def big_form(value: object, p: Any) -> str | None:
        ok = isinstance(value, list) and value and all(type(n) is int and 1 <= n <= 10**4 for n in value)
        return None if ok else "give a list of the numbers above, such as [999, 1024]."

    for value in ([1000, None], [2**20000], "dunno", [], HUGE):
        assert not guessing.guess("big", value)
        assert "🟡 Guess not noted: give a list of the numbers above" in capsys.readouterr().out
        assert guessing.reveal_text("big") is None
    assert guessing.guess("big", [1000, 1024])
    assert guessing.reveal_text("big") == "You chose 1000, 1024"


@pytest.mark.parametrize(
    "upto", ["abc", float("inf"), float("nan"), HUGE, 0, -5, 10**6 + 1, [100], 2.5], ids=lambda v: show(v)[:20]
)
def test_a_test_range_that_is_not_a_whole_number_in_range_is_refused(guessing: Lesson, upto: object) -> None:
    holds, lines = guessing.test_lines(lambda n: n % 2 == 1, upto=upto)
    assert not holds and len(lines) == 1 and lines[0].startswith("🟡 Test from 1 to a whole number")
    assert len(lines[0]) < 300
    assert "loses" not in guessing.attempts.tested


def test_a_rule_that_returns_arrays_or_other_values_is_told_to_give_true_or_false(guessing: Lesson) -> None:
    import numpy as np

    for rule in (lambda n: np.array([n % 2 == 1]), lambda n: np.zeros(3), lambda n: "yes", lambda n: [True]):
        holds, lines = guessing.test_lines(rule, upto=10)
        assert not holds and "should give True or False; for n = 1" in lines[0]
    holds, _ = guessing.test_lines(lambda n: np.bool_(n % 2 == 1), upto=10)  # numpy's booleans are fine
    assert holds


def test_a_constant_rule_opens_nothing(guessing: Lesson) -> None:
    holds, lines = guessing.test_lines(lambda n: True, upto=20)
    assert not holds and "opens nothing" in lines[-1]
    assert guessing.reveal_text("loses") is None if "loses" in spec(guessing.number).reveals else True
    assert "loses" not in guessing.attempts.tested
    guessing.test_lines(lambda n: n % 2 == 1 or n == 4, upto=20)  # wrong at 4: it does not fit the data seen
    assert "loses" not in guessing.attempts.tested
    guessing.test_lines(lambda n: n % 2 == 1 or n == 40, upto=20)  # fits 1..20, the numbers tested
    assert "loses" in guessing.attempts.tested


@pytest.mark.parametrize(("number", "arguments"), lesson_settings())
def test_every_check_and_guess_of_a_lesson_survives_odd_values(
    number: str, arguments: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """Under the suite's strict mode: a check, a guess form or a reveal that raises is a bug to fix."""
    forget()
    lesson = Lesson(number, **arguments)
    for name in spec(lesson.number).checks:
        for value in ODD_VALUES:
            verdict = lesson.judge(name, value)
            assert not verdict.right and len(verdict.message) <= MAX_MESSAGE, (name, show(value), verdict)
    guesses = {gate for gate in spec(lesson.number).gates.values() if gate not in spec(lesson.number).truths}
    broken = []
    for guess in guesses:
        for value in ODD_VALUES:
            lesson.guess(guess, value)
            for reveal, gate in spec(lesson.number).gates.items():
                if gate != guess:
                    continue
                try:
                    lesson.reveal_text(reveal)  # the guess was refused by its form, or the reveal reads it
                except Exception as error:
                    broken.append(f"reveal {reveal!r} after guess({guess!r}, {show(value)}): {error!r}")
    assert not broken, (
        f"lesson {number}: a guess of the wrong form reached its reveal; refuse it with @SPEC.guess_form(name) "
        "in its checks module:\n" + "\n".join(broken[:6])
    )
    assert len(capsys.readouterr().out) < 2000 * (len(guesses) + 1) * len(ODD_VALUES)
    forget()


def slips(model: object) -> list[object]:
    """Format slips of a model answer: another case, spaces, quotes, a lone number for a list ..."""
    if isinstance(model, Fraction):
        return [str(model), float(model)]
    if isinstance(model, str):
        return [model.lower(), model.swapcase(), f" {model} ", f"'{model}'"]
    if isinstance(model, int) and not isinstance(model, bool):
        return [str(model), [model], f"{model}%"]
    if isinstance(model, list) and len(model) == 1:
        return [model[0], str(model[0])]
    if isinstance(model, list):
        return [str(model), [str(x) for x in model]]
    return []


@pytest.mark.parametrize(("number", "arguments"), lesson_settings())
def test_a_format_slip_of_the_model_answer_does_not_confirm_it(number: str, arguments: dict[str, Any]) -> None:
    """ "Right idea: write it as ..." for the right answer only would tell a student they had it."""
    forget()
    lesson = Lesson(number, **arguments)
    told = []
    for name in spec(lesson.number).models:
        model, _ = lesson.model(name)
        for slip in slips(model):
            if slip == model:
                continue
            verdict = lesson.judge(name, slip)
            words = f"{verdict.message} {verdict.hint}".lower()
            if not verdict.right and ("right idea" in words or "correct" in words):
                told.append(f"{name}: {show(slip)} -> {verdict.kind}: {verdict.message}")
    assert not told, f"lesson {number}: a format slip confirms the answer:\n" + "\n".join(told)
    forget()
