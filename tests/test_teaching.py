"""The lesson framework: diagnostic feedback, memory of attempts, guesses, reveals, conjecture tests, solutions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from duel_lessons.teaching import Lesson
from duel_lessons.teaching.checks import LessonError, available, spec
from duel_lessons.teaching.feedback import (
    Misconception,
    expect_choice,
    expect_list,
    expect_member,
    expect_number,
    expect_table,
    first_difference,
)
from duel_lessons.teaching.lesson import forget

PARAMS = {
    "00": dict(rules="divisor-duel", start=60, small=12, candidates=[2, 9, 11, 15, 21, 23]),
    "02": dict(rules="divisor-duel", starts=[4, 6, 8, 9, 10, 12], reach_n=18, quick_win_n=10),
    "04": dict(rules="divisor-duel", upto=100, big=[999, 1000, 1024, 2048], win_from=96, power=128,
               all_from=1024, count_upto=1000),
}  # fmt: skip


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    forget()
    yield
    forget()


def lesson(number: str) -> Lesson:
    return Lesson(number, **PARAMS[number])


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


def test_unknown_lessons_checks_and_missing_parameters_are_clear() -> None:
    with pytest.raises(LessonError, match="No checks"):
        spec("99")
    with pytest.raises(LessonError, match="needs the parameter"):
        Lesson("04", rules="divisor-duel")
    with pytest.raises(LessonError, match="no check '9'"):
        lesson("00").check(9, 1)


# -- what the notebook calls --------------------------------------------------------------------------


def test_unanswered_prints_not_answered(capsys: pytest.CaptureFixture[str]) -> None:
    assert not lesson("00").check(1, ...)
    assert "Not answered yet" in capsys.readouterr().out


def test_same_mistake_twice_gets_a_stronger_hint(capsys: pytest.CaptureFixture[str]) -> None:
    les = lesson("02")
    les.check(3, [4, 6, 8, 10, 12])
    first = capsys.readouterr().out
    les.check(3, [4, 6, 8, 10, 12])
    second = capsys.readouterr().out
    assert "💡 Hint:" in first and "Stronger hint" not in first
    assert "Stronger hint" in second
    assert "Every even start" in first


def test_memory_outlives_the_lesson_object(capsys: pytest.CaptureFixture[str]) -> None:
    lesson("02").check(3, [4, 6, 8, 10, 12])
    lesson("02").check(3, [4, 6, 8, 10, 12])  # the set-up cell was run again
    assert "Stronger hint" in capsys.readouterr().out


def test_a_strange_answer_gives_a_format_verdict() -> None:
    assert lesson("00").verdict(3, object()).kind == "format"


def test_a_check_that_breaks_is_a_notice_in_class_and_an_error_in_the_suite(monkeypatch: pytest.MonkeyPatch) -> None:
    from duel_lessons.teaching.checks import LessonSpec

    broken = LessonSpec("98")

    @broken.check(1)
    def check_1(answer: object, p: object) -> object:
        raise KeyError("a bug in the check")

    les = lesson("00")
    monkeypatch.setattr(les, "spec", broken)
    monkeypatch.delenv("DUEL_LESSONS_STRICT_SOLUTIONS", raising=False)
    assert les.verdict(1, 3).kind == "format"
    monkeypatch.setenv("DUEL_LESSONS_STRICT_SOLUTIONS", "1")
    with pytest.raises(KeyError):
        les.verdict(1, 3)


def test_reveal_is_locked_until_the_guess(capsys: pytest.CaptureFixture[str]) -> None:
    les = lesson("02")
    les.reveal("first")
    assert "Locked" in capsys.readouterr().out
    assert les.reveal_text("first") is None
    les.guess("first", ...)
    assert les.reveal_text("first") is None
    les.guess("first", [4, 6, 8, 10, 12])
    text = les.reveal_text("first")
    assert text is not None and "you chose 8, which is not one of them" in text
    les.reveal("first")  # shows a button; prints nothing
    assert "Locked" not in capsys.readouterr().out


def test_a_conjecture_gets_its_first_counterexample() -> None:
    les = lesson("04")
    holds, lines = les.test_lines(lambda n: n % 2 == 1, upto=100)
    assert not holds and "n = 2" in lines[0] and "2 loses (P)" in lines[0]
    holds, lines = les.test_lines(lambda n: n % 2 == 1 or n in (2, 8), upto=100)
    assert "n = 32" in lines[0]
    holds, lines = les.test_lines(lambda n: n % 2 == 1 or n in (2, 8, 32), upto=100)
    assert holds and "every n from 1 to 100" in lines[0]
    assert not les.test_lines("odd")[0]
    assert "stopped with ZeroDivisionError" in les.test_lines(lambda n: 1 // (n - 1) > 0)[1][0]


def test_the_rule_reveal_compares_the_last_rule() -> None:
    les = lesson("04")
    assert les.reveal_text("loses") is None
    les.test(lambda n: n % 2 == 1 or n in (2, 8, 32))
    text = les.reveal_text("loses")
    assert text is not None and "differs from it first at n = 128" in text


def test_solution_verifies_and_opens_only_after_an_attempt(capsys: pytest.CaptureFixture[str]) -> None:
    les = lesson("04")
    les.solution(3, [512])
    assert "Try exercise 3 first" in capsys.readouterr().out
    with pytest.raises(LessonError, match="fails its own check"):
        les.solution(3, [256])
    les.check(3, ...)  # not an attempt
    les.solution(3, [512])
    assert "Try exercise 3 first" in capsys.readouterr().out
    les.check(3, 512)  # a format slip (not a list) opens nothing
    les.solution(3, [512])
    assert "Try exercise 3 first" in capsys.readouterr().out
    les.check(3, [256])
    les.solution(3, [512], why="Only halving reaches a power of 2.")
    out = capsys.readouterr().out
    assert "Model answer for exercise 3: [512]" in out and "Only halving" in out


def test_no_hint_contains_the_answer() -> None:
    """For list answers of several numbers, the hints never list the right answer."""
    les = lesson("02")
    right = repr(sorted([4, 6, 10, 12]))
    for wrong in ([4, 6, 8, 10, 12], [4, 6, 8, 9, 10, 12], [4], [], [9]):
        v = les.verdict(3, wrong)
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


def test_testing_a_rule_keeps_the_guess_of_the_same_lesson() -> None:
    les = Lesson("01", rules="divisor-duel", small=18, upto=30, count_n=72)
    les.guess("stuck", [2, 3, 5])
    les.test(lambda n: n % 2 == 1)
    text = les.reveal_text("stuck")
    assert text is not None and "You were right about 2, 3 and 5" in text


def test_a_rule_left_as_dots_is_not_answered() -> None:
    def my_rule(n: int) -> object:
        return ...

    holds, lines = lesson("04").test_lines(my_rule)
    assert not holds and "Not answered yet" in lines[0]


def test_a_changed_parameter_gives_a_notice_not_a_crash(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a classroom (not strict), a model written for other parameters is reported, and the lesson runs on."""
    monkeypatch.delenv("DUEL_LESSONS_STRICT_SOLUTIONS", raising=False)
    les = lesson("04")
    les.check(3, 512)
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
