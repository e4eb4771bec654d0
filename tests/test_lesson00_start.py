"""Lesson 00: the biggest-divisor guess gates its record, model answers follow every offered rule book, exercise 1
is declared data."""

from __future__ import annotations

from pathlib import Path

import pytest

from duel_lessons.engine.game import new_game
from duel_lessons.teaching import declared
from duel_lessons.teaching.checks import python_spec, spec
from duel_lessons.teaching.declared import DeclarationError
from duel_lessons.teaching.lesson import Lesson, forget

BASE = dict(rules="divisor-duel", start=60, small=12, candidates=[2, 9, 11, 15, 21, 23])
RULES = ("divisor-duel", *spec("00").offers["rules"])


def lesson(**changes: object) -> Lesson:
    forget("00")
    return Lesson("00", **{**BASE, **changes})


@pytest.mark.parametrize("rules", RULES)
def test_every_model_answer_passes_under_each_offered_rule_book(rules: str) -> None:
    one = lesson(rules=rules)
    for name in ("1", "2", "3"):
        model, why = one.model(name)
        assert one.verdict(name, model).right, (rules, name, model)
        assert why


def test_models_are_computed_from_the_parameters() -> None:
    assert lesson().model(1)[0] == [2, 3, 4, 6]  # by hand: 12 = 2 × 6 = 3 × 4
    assert lesson(small=20).model(1)[0] == [2, 4, 5, 10]
    assert lesson(rules="factor-duel").model(1)[0] == [1, 2, 3, 4, 6]
    assert lesson(candidates=[4, 7, 25]).model(2) == (
        [7],
        "7: each has exactly two divisors, 1 and itself. Each of 4 and 25 has another divisor as well, so it is not "
        "prime.",
    )


@pytest.mark.parametrize(
    ("rules", "answer", "key"),
    [
        ("divisor-duel", [1, 2, 3, 4, 6, 12], "all-divisors"),  # every divisor of 12, by hand
        ("divisor-duel", [2, 3, 4, 6, 12], "with-n"),
        ("divisor-duel", [12, 2, 3], "with-n"),  # 12 itself is the mistake named, whatever else is missing
        ("divisor-duel", [1, 2, 3, 4, 6], "with-1"),
        ("factor-duel", [2, 3, 4, 6], "without-1"),  # Factor Duel allows 1 (1 ≤ d < N)
        ("factor-duel", [1, 2, 3, 4, 6, 12], "all-divisors"),
    ],
)
def test_exercise_1_names_each_misreading_of_the_rule(rules: str, answer: list[int], key: str) -> None:
    verdict = lesson(rules=rules).verdict(1, answer)
    assert (verdict.kind, verdict.key) == ("misconception", key)


def test_exercise_1_is_declared_and_follows_the_rule_book() -> None:
    """Exercise 1 is data in 00-start-here.lesson.toml (no Python check); its answer comes from SMALL and RULES."""
    assert "1" not in python_spec("00").checks  # type: ignore[union-attr]
    one = lesson()
    assert one.verdict(1, [6, 4, 3, 2]).right  # any order
    assert one.verdict(1, [2, 3]).kind == "partial"
    assert one.verdict(1, [2, 3, 4, 5]).kind == "partial"
    assert one.verdict(1, 12).kind == "format"
    assert lesson(small=13).verdict(1, []).right  # 13 is prime: nothing between 1 and 13 goes into it
    assert lesson(rules="factor-duel").verdict(1, [1, 2, 3, 4, 6]).right
    stronger = lesson(rules="factor-duel").verdict(1, [2, 3, 4, 6]).stronger
    assert "1 ≤ d < N" in stronger and "12" in stronger
    assert "1 < d < N" in lesson().verdict(1, [1, 2, 3, 4, 6]).stronger
    _, why = lesson().model(1)
    assert "1 < d < N" in why and "1 and the number itself" in why


def test_exercise_2_is_declared_and_names_each_mistake() -> None:
    """The primes among CANDIDATES, by hand: 2, 11 and 23 (9 = 3 × 3, 15 = 3 × 5, 21 = 3 × 7)."""
    assert "2" not in python_spec("00").checks  # type: ignore[union-attr]
    one = lesson()
    assert one.verdict(2, [23, 2, 11]).right
    for answer, key in (([9, 11, 15, 21, 23], "odd-means-prime"), ([11, 23], "two-is-not-prime")):
        assert one.verdict(2, answer).key == key
    assert lesson(candidates=[1, 2, 3, 4]).verdict(2, [1, 2, 3]).key == "one-is-prime"
    assert one.verdict(2, [2, 9, 11, 23]).kind == "partial"
    assert one.verdict(2, 2).kind == "format"
    _, why = lesson(candidates=[1, 2, 4]).model(2)
    assert why.endswith("1 has only one divisor, so it is not prime either.")
    # A teacher's huge candidate is refused at once, naming the field (the primes are not listed up to it).
    with pytest.raises(DeclarationError, match=r"\[exercise.2\] values.fits: .* too long"):
        lesson(candidates=[2, 10**12 + 39]).verdict(2, [2])


def test_the_record_of_the_biggest_game_is_locked_until_a_real_guess(capsys: pytest.CaptureFixture[str]) -> None:
    one = lesson()
    one.locked("biggest", lambda: print("the record"))
    assert "the record" not in capsys.readouterr().out
    one.guess("biggest", "dunno")
    one.locked("biggest", lambda: print("the record"))
    assert "the record" not in capsys.readouterr().out
    one.guess("biggest", 2)
    one.locked("biggest", lambda: print("the record"))
    assert "the record" in capsys.readouterr().out


def test_the_reveal_tells_the_game_by_hand() -> None:
    one = lesson()
    one.guess("biggest", 1)
    text = one.reveal_text("biggest")
    assert text is not None and "60 → 30 → 15 → 10 → 5" in text and "Player 2 won" in text


def test_number_factor_passes_count_as_turns() -> None:
    one = lesson(rules="number-factor")
    one.guess("biggest", 1)
    game = new_game("number-factor", 60).play(30)  # 60 ÷ 30 = 2: stuck, so the next players pass
    assert game.must_pass
    assert one.reveal_text("biggest") is not None


def smallest_path_by_hand(n: int) -> list[int]:
    """Divisor Duel, both players taking the smallest d with 1 < d < n, by trial division."""
    numbers = [n]
    while moves := [d for d in range(2, numbers[-1]) if numbers[-1] % d == 0]:
        numbers.append(numbers[-1] - moves[0])
    return numbers


def test_exercise_3_asks_for_a_game_no_cell_shows() -> None:
    """The smallest-divisor game from SMALL: not the record above (biggest, from START), not a parity (rev1)."""
    one = lesson()
    assert smallest_path_by_hand(12) == [12, 10, 8, 6, 4, 2]
    assert one.verdict(3, [12, 10, 8, 6, 4, 2]).right
    assert lesson(small=15).verdict(3, smallest_path_by_hand(15)).right  # 15, 12, 10, 8, 6, 4, 2
    assert one.verdict(3, [2, 4, 6, 8, 10, 12]).kind == "format"  # the right numbers, out of order
    for slip, name in (([12, 6, 3], "BIGGEST"), ([10, 8, 6, 4, 2], "Start"), ([12, 10, 8, 6, 4], "stop")):
        verdict = one.verdict(3, slip)
        assert verdict.kind == "misconception" and name in verdict.hint, slip
    assert one.verdict(3, [2, 2, 2, 2, 2]).kind == "misconception"  # the divisors taken
    assert one.verdict(3, [12, 10, 8]).kind == "partial"
    for malformed in (2, "2", "12, 10", [12, "10"], 10**5000):
        assert one.verdict(3, malformed).kind == "format", malformed
    for spy_or_liar in (True, None):
        assert not one.verdict(3, spy_or_liar).right


def test_exit_ticket_answers_by_hand() -> None:
    assert [d for d in range(2, 20) if 20 % d == 0] == [2, 4, 5, 10]
    assert not [d for d in range(2, 13) if 13 % d == 0]  # 13 is prime: stuck


def test_the_student_edition_judges_the_declared_exercises_as_the_teachers_does() -> None:
    """The sealed student copy of the declarations gives the same verdicts (its values are read in another order)."""
    teacher = declared.load(Path("notebooks/00-start-here.lesson.toml"))
    student = declared.parse(teacher.student_text(), "00-start-here.lesson.toml")
    params = {**BASE, "candidates": [1, 2, 9, 11, 15, 21, 23]}
    for name, answer in (("1", [2, 3, 4, 6]), ("1", [2, 3, 4, 6, 12]), ("2", [2, 11, 23]), ("2", [11, 23])):
        assert student.check(name, answer, params) == teacher.check(name, answer, params), (name, answer)
    with pytest.raises(DeclarationError, match="fits"):
        student.check("2", [2], {**params, "candidates": [2, 10**12 + 39]})
