"""The lesson framework: diagnostic feedback, memory of attempts, guesses, reveals, conjecture tests, solutions."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from duel_lessons.teaching import Lesson
from duel_lessons.teaching.checks import LessonError, LessonSpec, Params, available, spec
from duel_lessons.teaching.declared.guesses import compare_sets
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_choice,
    expect_list,
    expect_member,
    expect_number,
    expect_table,
    first_difference,
)
from duel_lessons.teaching.lesson import forget


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    forget()
    yield
    forget()


def is_p(n: int) -> bool:
    """Divisor Duel's losing numbers, by hand: odd, or a power of 2 with an odd exponent (2, 8, 32, 128 ...)."""
    return n % 2 == 1 or (n & (n - 1) == 0 and (n.bit_length() - 1) % 2 == 1)


def make_fake() -> LessonSpec:
    """Lesson "91": the framework's parts, with checks written here (the real lessons change under us)."""
    fake = LessonSpec("91", needs=("start", "starts", "power"))

    @fake.check(1)
    def inner_divisors(answer: object, p: Params) -> Verdict:
        n = int(p["start"])
        right = [d for d in range(2, n) if n % d == 0]
        return expect_list(
            answer,
            right,
            what="divisors",
            misconceptions=[Misconception("ends", [1, *right, n], "Not 1 or the number itself.", "Between 1 and N.")],
            hint="Try dividing by 2, 3, 4, ...",
            stronger="List every d from 2 to N - 1 that divides N.",
        )

    @fake.check(3)
    def powers(answer: object, p: Params) -> Verdict:
        return expect_list(answer, [int(p["power"])], hint="Halve it.", stronger="Only halving reaches a power of 2.")

    @fake.check("evens")
    def evens(answer: object, p: Params) -> Verdict:
        right = [n for n in p["starts"] if not is_p(n)]
        return expect_list(answer, right, hint="Every even start? Look at 8.", stronger="Play from 8: who wins?")

    @fake.model(3)
    def model_3(p: Params) -> tuple[object, str]:
        return [int(p["power"])], f"Only halving reaches a power of 2, and {p['power']} is one."

    @fake.guess_form("first")
    def first_form(value: object, p: Params) -> str | None:
        ok = isinstance(value, list) and all(n in p["starts"] for n in value)
        return None if ok else f"give a list of some of {p['starts']}."

    @fake.reveal("first")
    def first(guess: object, p: Params) -> str:
        return compare_sets(guess, [n for n in p["starts"] if not is_p(n)], p["starts"])  # type: ignore[arg-type]

    @fake.truth("loses", yes="loses (P)", no="wins (N)")
    def loses(p: Params) -> Callable[[int], bool]:
        return is_p

    @fake.reveal("loses")
    def loses_reveal(rule: object, p: Params) -> str:
        found = first_difference(rule, is_p, 10**4)  # type: ignore[arg-type]
        return "Agrees." if found is None else f"Your last rule differs from it first at n = {found[0]}."

    @fake.reveal("both", after="first")
    def both(guess: object, p: Params) -> str:
        return f"Your guess was {guess}."

    return fake


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> LessonSpec:
    from duel_lessons.teaching import checks

    made = make_fake()
    monkeypatch.setitem(checks._SPECS, "91", made)
    return made


def lesson(_: str = "91") -> Lesson:
    return Lesson("91", start=12, starts=[4, 6, 8, 9, 10, 12], power=512)


# -- pure feedback helpers -------------------------------------------------------------------------


def test_format_slips_are_named_as_such() -> None:
    assert expect_list(512, [512]).kind == "format"
    assert expect_list("512", [512]).kind == "format"
    assert expect_list([512, 512], [512]).kind == "format"
    assert expect_list([3, 2], [2, 3], ordered=True).kind == "format"
    assert expect_choice("p", "P", ("P", "N")).kind == "format"
    assert expect_choice("Q", "P", ("P", "N")).kind == "format"
    assert expect_number("25%", 0.25).kind == "format"
    assert expect_number("12", 12).kind == "format"
    assert expect_number([12], 12).kind == "format"
    assert expect_member([3], {3, 5}).kind == "format"


def test_partial_credit_counts_what_is_right() -> None:
    v = expect_list([2, 3], [2, 3, 4], what="winning moves")
    assert v.kind == "partial" and "2 of the 3 winning moves" in v.message
    v = expect_list([2, 7], [2, 3], what="winning moves")
    assert v.kind == "partial" and "7 is not" in v.message
    assert expect_list([7], [2, 3]).kind == "miss"


def test_misconceptions_get_their_own_hint() -> None:
    known = [Misconception("evens", [4, 6, 8], "Try 8 carefully.", "List every move from 8.")]
    v = expect_list([8, 6, 4], [4, 6], misconceptions=known)
    assert (v.kind, v.key, v.hint, v.stronger) == (
        "misconception",
        "evens",
        "Try 8 carefully.",
        "List every move from 8.",
    )
    assert expect_number(7, 6, misconceptions=[Misconception("k", lambda a: a == 7, "h")]).kind == "misconception"


def test_a_misconception_test_that_breaks_is_no_match_in_class_and_an_error_in_the_suite(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broken = Misconception("k", lambda a: a["x"], "h")
    monkeypatch.delenv("DUEL_LESSONS_STRICT_SOLUTIONS", raising=False)
    assert expect_number(7, 6, misconceptions=[broken]).kind == "miss"
    monkeypatch.setenv("DUEL_LESSONS_STRICT_SOLUTIONS", "1")
    with pytest.raises(TypeError):
        expect_number(7, 6, misconceptions=[broken])


def test_a_table_by_hand_names_the_first_wrong_entry() -> None:
    truth = {1: "P", 2: "P", 3: "P", 4: "N"}
    v = expect_table({1: "P", 2: "P", 3: "N", 4: ...}, truth)
    assert v.kind == "partial" and "first to look at again: 3" in v.message and "Still to fill in: 4" in v.message
    assert expect_table({1: "P", 2: "P", 3: "P", 4: "n"}, truth).kind == "format"
    assert expect_table(truth, truth).kind == "right"
    assert expect_table([1, 2], truth).kind == "format"


def test_first_difference_reports_errors_and_non_booleans() -> None:
    assert first_difference(lambda n: 1 / (n - 3) > 0, lambda n: n > 3, 5)[0] == 3  # type: ignore[index]
    n, _truth, said = first_difference(lambda n: 1 // (n - 2) > 5, lambda n: False, 5)  # type: ignore[misc]
    assert n == 2 and isinstance(said, ZeroDivisionError)
    assert first_difference(lambda n: "yes", lambda n: True, 5) == (1, True, "yes")


# -- the registry -----------------------------------------------------------------------------------


def test_every_lesson_module_registers_itself() -> None:
    for number in available():
        assert spec(number).lesson == number
        assert spec(number).checks, f"lesson {number} has no checks"


def test_unknown_lessons_checks_and_missing_parameters_are_clear(fake: LessonSpec) -> None:
    with pytest.raises(LessonError, match="No checks"):
        spec("99")
    with pytest.raises(LessonError, match="needs the parameter"):
        Lesson("91", start=12)
    with pytest.raises(LessonError, match="no check '9'"):
        lesson().check(9, 1)


# -- what the notebook calls --------------------------------------------------------------------------


def test_unanswered_prints_not_answered(fake: LessonSpec, capsys: pytest.CaptureFixture[str]) -> None:
    assert not lesson().check(1, ...)
    assert "Not answered yet" in capsys.readouterr().out


def test_same_mistake_twice_gets_a_stronger_hint(fake: LessonSpec, capsys: pytest.CaptureFixture[str]) -> None:
    les = lesson()
    les.check("evens", [4, 6, 8, 10, 12])
    first = capsys.readouterr().out
    les.check("evens", [4, 6, 8, 10, 12])
    second = capsys.readouterr().out
    assert "💡 Hint: Every even start? Look at 8." in first and "Stronger hint" not in first
    assert "Stronger hint (same answer as before): Play from 8: who wins?" in second


def test_memory_outlives_the_lesson_object(fake: LessonSpec, capsys: pytest.CaptureFixture[str]) -> None:
    lesson().check("evens", [4, 6, 8, 10, 12])
    lesson().check("evens", [4, 6, 8, 10, 12])  # the set-up cell was run again
    assert "Stronger hint" in capsys.readouterr().out


def test_a_misconception_gets_its_own_hint(fake: LessonSpec) -> None:
    v = lesson().verdict(1, [1, 2, 3, 4, 6, 12])
    assert (v.kind, v.hint) == ("misconception", "Not 1 or the number itself.")
    assert lesson().verdict(1, [2, 3, 4, 6]).right


def test_a_strange_answer_gives_a_format_verdict(fake: LessonSpec) -> None:
    assert lesson().verdict(1, object()).kind == "format"


def test_a_check_that_breaks_is_a_notice_in_class_and_an_error_in_the_suite(
    fake: LessonSpec, monkeypatch: pytest.MonkeyPatch
) -> None:
    @fake.check("broken")
    def broken(answer: object, p: Params) -> Verdict:
        raise KeyError("a bug in the check")

    les = lesson()
    monkeypatch.delenv("DUEL_LESSONS_STRICT_SOLUTIONS", raising=False)
    assert les.verdict("broken", 3).kind == "format"
    monkeypatch.setenv("DUEL_LESSONS_STRICT_SOLUTIONS", "1")
    with pytest.raises(KeyError):
        les.verdict("broken", 3)


def test_reveal_is_locked_until_the_guess(fake: LessonSpec, capsys: pytest.CaptureFixture[str]) -> None:
    les = lesson()
    les.reveal("first")
    assert "Locked" in capsys.readouterr().out
    assert les.reveal_text("first") is None
    les.guess("first", ...)
    assert les.reveal_text("first") is None
    les.guess("first", "dunno")  # not the asked form: not noted, opens nothing
    assert "Guess not noted: give a list of some of [4, 6, 8, 9, 10, 12]." in capsys.readouterr().out
    assert les.reveal_text("first") is None and les.reveal_text("both") is None
    les.guess("first", [4, 6, 8, 10, 12])
    text = les.reveal_text("first")
    assert text is not None and "you chose 8, which is not one of them" in text
    assert les.reveal_text("both") == "Your guess was [4, 6, 8, 10, 12]."
    les.reveal("first")  # shows a button; prints nothing
    assert "Locked" not in capsys.readouterr().out


def test_locked_shows_an_output_only_after_its_guess(fake: LessonSpec, capsys: pytest.CaptureFixture[str]) -> None:
    les = lesson()
    shown: list[str] = []
    les.locked("first", lambda: shown.append("heatmap"))
    assert shown == [] and "🔒 Locked: first make your guess" in capsys.readouterr().out
    les.locked("loses", lambda: shown.append("closed form"))
    assert shown == [] and "🔒 Locked: first test your rule" in capsys.readouterr().out
    les.guess("first", [4])
    les.locked("first", lambda: shown.append("heatmap"))
    assert shown == ["heatmap"]


def test_a_conjecture_gets_its_first_counterexample(fake: LessonSpec) -> None:
    les = lesson()
    holds, lines = les.test_lines(lambda n: n % 2 == 1, upto=100)
    assert not holds and "n = 2" in lines[0] and "2 loses (P)" in lines[0]
    holds, lines = les.test_lines(lambda n: n % 2 == 1 or n in (2, 8), upto=100)
    assert "n = 32" in lines[0]
    holds, lines = les.test_lines(lambda n: n % 2 == 1 or n in (2, 8, 32), upto=100)
    assert holds and "every n from 1 to 100" in lines[0]
    assert not les.test_lines("odd")[0]
    assert "stopped with ZeroDivisionError" in les.test_lines(lambda n: 1 // (n - 1) > 0, upto=10)[1][0]


def test_the_rule_reveal_compares_the_last_rule(fake: LessonSpec) -> None:
    les = lesson()
    assert les.reveal_text("loses") is None
    les.test(lambda n: n % 2 == 1 or n in (2, 8, 32), upto=100)
    text = les.reveal_text("loses")
    assert text is not None and "differs from it first at n = 128" in text


def test_solution_verifies_and_opens_only_after_an_attempt(
    fake: LessonSpec, capsys: pytest.CaptureFixture[str]
) -> None:
    les = lesson()
    les.solution(3)
    assert "Try exercise 3 first" in capsys.readouterr().out
    with pytest.raises(LessonError, match="fails its own check"):
        les.solution(3, [256])  # the old form still works
    les.check(3, ...)  # not an attempt
    les.check(3, 512)  # a format slip (not a list) opens nothing
    les.solution(3)
    assert "Try exercise 3 first" in capsys.readouterr().out
    les.check(3, [256])
    les.solution(3)
    out = capsys.readouterr().out
    assert "Model answer for exercise 3: [512]\n   Only halving reaches a power of 2, and 512 is one." in out
    les.solution(3, [512], why="The old form.")
    assert "Model answer for exercise 3: [512]\n   The old form." in capsys.readouterr().out


def test_a_model_answer_follows_the_parameters(fake: LessonSpec, capsys: pytest.CaptureFixture[str]) -> None:
    les = Lesson("91", start=12, starts=[4], power=128)
    assert les.model(3) == ([128], "Only halving reaches a power of 2, and 128 is one.")
    with pytest.raises(LessonError, match=r"no model answer for '1': declare its answer or add @SPEC.model\('1'\)"):
        les.solution(1)


def test_no_hint_contains_the_answer(fake: LessonSpec) -> None:
    """For list answers of several numbers, the hints never list the right answer."""
    les = lesson()
    right = repr(sorted([4, 6, 10, 12]))
    for wrong in ([4, 6, 8, 10, 12], [4, 6, 8, 9, 10, 12], [4], [], [9]):
        v = les.verdict("evens", wrong)
        assert right not in v.hint + v.stronger + v.message


def test_a_table_with_only_the_given_entries_is_unanswered() -> None:
    truth = {1: "P", 2: "P", 3: "P"}
    assert expect_table({1: "P", 2: "P", 3: ...}, truth, given=(1, 2)).kind == "unanswered"
    assert expect_table({1: "P", 2: "P", 3: "N"}, truth, given=(1, 2)).kind == "partial"


# -- facts that lesson 03's teacher note states ------------------------------------------------------


def parity_breaks(rules: object, upto: int = 200) -> list[tuple[int, str, int]]:
    """The n where "P exactly when the remoteness is even" fails."""
    from duel_lessons.solving.tables import tabulate

    table = tabulate(rules, upto)  # type: ignore[arg-type]
    return [
        (n, table.outcome_of(n), int(table.remoteness[n]))
        for n in range(1, upto + 1)
        if (int(table.remoteness[n]) % 2 == 0) != table.is_p(n)
    ]


def test_remoteness_parity_holds_for_the_books_in_normal_play() -> None:
    for book in ("divisor-duel", "division-duel", "number-factor"):
        assert parity_breaks(book) == [], book


def test_remoteness_parity_fails_where_lesson_03_says() -> None:
    from duel_lessons import DIVISOR_DUEL, FACTOR_DUEL
    from duel_lessons.solving.tables import tabulate

    # 1 loses when reached: an N-position with Grundy value 1; it is the only possible break in Factor Duel,
    # and none once the solver counts reaching 1 as a move (remoteness 1).
    assert set(parity_breaks(FACTOR_DUEL)) <= {(1, "N", 0)}
    factor = tabulate(FACTOR_DUEL, 10)
    assert (factor.outcome_of(1), int(factor.grundy[1])) == ("N", 1)
    misere = parity_breaks(DIVISOR_DUEL.variant(last_mover_wins=False))
    assert (4, "P", 1) in misere and (2, "N", 0) in misere


def test_testing_a_rule_keeps_the_guess_of_the_same_lesson(fake: LessonSpec) -> None:
    les = lesson()
    les.guess("first", [4, 6])
    les.test(lambda n: n % 2 == 1, upto=20)
    text = les.reveal_text("first")
    assert text is not None and "You were right about" in text


def test_a_rule_left_as_dots_is_not_answered(fake: LessonSpec) -> None:
    def my_rule(n: int) -> object:
        return ...

    holds, lines = lesson().test_lines(my_rule)
    assert not holds and "Not answered yet" in lines[0]


def test_a_changed_parameter_gives_a_notice_not_a_crash(
    fake: LessonSpec, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a classroom (not strict), a model written for other parameters is reported, and the lesson runs on."""
    monkeypatch.delenv("DUEL_LESSONS_STRICT_SOLUTIONS", raising=False)
    les = lesson()
    les.check(3, [64])
    capsys.readouterr()
    les.solution(3, [256])
    out = capsys.readouterr().out
    assert "original parameters" in out and "256" not in out
    monkeypatch.setenv("DUEL_LESSONS_STRICT_SOLUTIONS", "1")
    with pytest.raises(LessonError, match="fails its own check"):
        les.solution(3, [256])


def test_every_hint_has_its_own_stronger_hint() -> None:
    """A repeated mistake gets a stronger hint, not the first one again (checked in the check modules' source)."""
    import ast
    from pathlib import Path

    import duel_lessons.teaching.checks as checks_package

    missing = []
    for path in sorted(Path(checks_package.__file__).parent.glob("lesson*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            keywords = {k.arg for k in node.keywords}
            if name == "Misconception" and len(node.args) < 4 and "stronger" not in keywords:
                missing.append(f"{path.name}:{node.lineno} Misconception")
            elif name != "Misconception" and "hint" in keywords and "stronger" not in keywords:
                missing.append(f"{path.name}:{node.lineno} {name}")
    assert missing == []


def test_a_student_cannot_ask_for_the_model_answer_before_trying(
    fake: LessonSpec, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DUEL_LESSONS_STRICT_SOLUTIONS", raising=False)
    les = lesson()
    with pytest.raises(LessonError, match="Try exercise 3 first"):
        les.model(3)
    les.judge(3, 512)  # judging counts as an attempt, but a format slip opens nothing
    with pytest.raises(LessonError, match="Try exercise 3 first"):
        les.model(3)
    les.judge(3, [64])
    assert les.model(3)[0] == [512]
