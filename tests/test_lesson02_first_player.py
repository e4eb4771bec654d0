"""Lesson 02: the proof that 8 is lost (Parsons), the biggest-divisor counterexample, guesses and models."""

from __future__ import annotations

from pathlib import Path

import pytest

from duel_lessons.teaching import declared
from duel_lessons.teaching.checks import python_spec, spec
from duel_lessons.teaching.lesson import Lesson, forget

BASE = dict(rules="divisor-duel", starts=[4, 6, 8, 9, 10, 12], reach_n=18, quick_win_n=14)


def lesson(**changes: object) -> Lesson:
    forget("02")
    return Lesson("02", **{**BASE, **changes})


def brute_wins(n: int) -> bool:
    """Whether the player to move from n wins Divisor Duel (by hand: some move reaches a loss)."""
    return any(not brute_wins(n - d) for d in range(2, n) if n % d == 0)


def test_statements_of_the_proof_by_brute_force() -> None:
    assert not brute_wins(8) and not brute_wins(9)  # 8 and 9 are lost
    assert [n for n in (4, 6, 10, 12) if brute_wins(n)] == [4, 6, 10, 12]
    assert not brute_wins(2) and not brute_wins(3) and brute_wins(4) and brute_wins(6)  # the lines B, C, F, G
    # the biggest divisor wins from every winning start below 12, not from 12 (12 − 6 = 6 wins for the other)
    biggest = {
        n: max(d for d in range(2, n) if n % d == 0) for n in range(4, 40) if any(n % d == 0 for d in range(2, n))
    }
    failing = [n for n, d in biggest.items() if brute_wins(n) and brute_wins(n - d)]
    assert failing[0] == 12


def test_every_model_answer_passes() -> None:
    one = lesson()
    for name in spec(one.number).models:
        model, why = one.model(name)
        assert one.verdict(name, model).right, (name, model)
        assert why
    assert one.model("proof-2")[0] == 12
    assert one.model(3)[0] == {4: 2, 6: 3, 10: 2, 12: 3}  # 4 − 2 = 2, 6 − 3 = 3, 10 − 2 = 8, 12 − 3 = 9: lost


@pytest.mark.parametrize("starts", [[4, 6, 8, 9, 10, 12], [14, 15, 16, 20]])
def test_models_follow_the_starts(starts: list[int]) -> None:
    one = lesson(starts=starts)
    model, _ = one.model(3)
    assert sorted(model) == [n for n in starts if brute_wins(n)]
    assert all(not brute_wins(n - d) and n % d == 0 and 1 < d < n for n, d in model.items())


def test_exercise_3_asks_for_the_moves_the_reveal_does_not_give() -> None:
    """The reveal of the guess lists the starts; exercise 3 also wants a winning move from each (review rev1)."""
    one = lesson()
    assert [n for n in (4, 6, 8, 9, 10, 12) if brute_wins(n)] == [4, 6, 10, 12]
    assert one.verdict(3, {4: 2, 6: 3, 10: 5, 12: 3}).right  # 10 − 5 = 5: stuck
    assert one.verdict(3, {4: 2, 6: 3, 10: 2, 12: 4}).right  # 12 − 4 = 8: lost
    bad_move = one.verdict(3, {4: 2, 6: 3, 10: 2, 12: 6})  # 12 − 6 = 6, then 6 − 3 = 3: stuck
    assert bad_move.kind == "partial" and "12" in bad_move.message and "6" in bad_move.message
    assert one.verdict(3, {4: 2, 6: 3, 10: 7, 12: 3}).kind == "misconception"  # 7 is no move from 10
    assert one.verdict(3, {4: 2, 6: 3, 10: 2}).kind == "partial"  # a start missing
    assert one.verdict(3, {8: 2, 9: 3}).kind == "misconception"  # the lost starts
    for malformed in ([4, 6, 10, 12], "4, 6", {4: "2", 6: 3, 10: 2, 12: 3}, {4: ..., 6: 3, 10: 2, 12: 3}, {"a": 1}):
        assert one.verdict(3, malformed).kind == "format", malformed


def test_parsons_right_wrong_and_malformed() -> None:
    one = lesson()
    assert one.verdict("proof-1", ["D", "G", "A", "F", "C"]).right
    assert one.verdict("proof-1", ["D", "A", "G", "F", "C"]).right
    assert one.verdict("proof-1", ["G", "A", "D", "F", "C"]).right  # F needs D, G and A, in any order
    early = one.verdict("proof-1", ["G", "A", "F", "D", "C"])
    assert (early.kind, early.message) == (
        "partial",
        "Your proof uses that the first move from 8 can only reach 6 or 4 before it shows it.",
    )
    wrong = one.verdict("proof-1", ["D", "G", "B", "F", "C"])
    assert wrong.kind == "misconception" and "B" in wrong.hint
    assert not one.verdict("proof-1", ["A", "B", "C", "D", "E"]).right  # the labels in order are not the proof
    assert one.verdict("proof-1", ["D", "G", "A", "F"]).kind != "right"
    for malformed in ("ABCDE", ["a", "b"], [1, 2, 3], None):
        assert not one.verdict("proof-1", malformed).right


def test_counterexample_right_wrong_and_malformed() -> None:
    """Declared in the lesson's TOML: the claim's failures come from a formula, checked here by brute force."""
    one = lesson()
    assert one.verdict("proof-2", 12).right
    assert one.verdict("proof-2", 24).kind == "partial"  # 24 wins (24 − 3 = 21), 24 − 12 = 12 wins for the other
    assert brute_wins(24) and brute_wins(12) and not brute_wins(21)
    for holds in (4, 6, 10):  # the biggest divisor wins: 4 − 2 = 2, 6 − 3 = 3, 10 − 5 = 5 (stuck)
        verdict = one.verdict("proof-2", holds)
        assert verdict.kind == "miss" and "12" not in verdict.message + verdict.hint + verdict.stronger
    for lost in (8, 9):  # the first player cannot win at all: the claim says nothing there
        verdict = one.verdict("proof-2", lost)
        assert (verdict.kind, verdict.key) == ("misconception", "lost-start"), lost
        assert "12" not in verdict.message + verdict.hint + verdict.stronger
    for malformed in ("12", [12], 10**5000, 0, True):
        assert one.verdict("proof-2", malformed).kind == "format", malformed


def test_the_reveal_compares_the_guess_with_the_starts_by_hand() -> None:
    one = lesson()
    one.guess("first", [4, 9])
    text = one.reveal_text("first")
    assert text is not None
    assert "can always win from 4, 6, 10 and 12, and always loses from 8 and 9." in text
    # 4 and 8 agree with the truth; 9 is lost, 6, 10 and 12 are won
    assert "You were right about 4 and 8; you chose 9, which is not one of them; you left out 6, 10 and 12." in text
    other = lesson(starts=[14, 15, 16, 20])  # by brute force: 15 is lost, 14, 16 and 20 are won
    assert [n for n in (14, 15, 16, 20) if not brute_wins(n)] == [15]
    other.guess("first", [])
    text = other.reveal_text("first")
    assert text is not None and "win from 14, 16 and 20, and always loses from 15." in text


def test_exercises_1_and_2_read_the_moves_of_the_rule_book() -> None:
    one = lesson()
    assert one.verdict(1, [9, 12, 15, 16]).right  # 18 − 9, 18 − 6, 18 − 3, 18 − 2
    for divisors in ([2, 3, 6, 9], [9, 6, 3, 2]):  # the allowed divisors of 18, in any order
        verdict = one.verdict(1, divisors)
        assert (verdict.kind, verdict.key) == ("misconception", "divisors")
        assert "N − d" in verdict.stronger
    assert one.verdict(1, [2, 3, 6, 10]).key != "divisors"  # 10 is no divisor of 18
    assert one.verdict(1, [16, 15]).kind == "partial"
    assert one.verdict(2, 7).right  # 14 − 7 = 7: stuck
    assert one.verdict(2, 2).kind == "miss"  # 14 − 2 = 12: not stuck
    assert one.verdict(2, 5).key == "illegal"  # 5 does not divide 14
    assert lesson(quick_win_n=10).verdict(2, 2).kind == "miss"  # 10 − 2 = 8 wins, but not at once
    division = lesson(rules="division-duel", quick_win_n=12)  # 12 ÷ 4 = 3 and 12 ÷ 6 = 2 are stuck
    assert division.verdict(2, 4).right and division.verdict(2, 6).right
    assert division.verdict(2, 3).key == "result"  # 3 is where 12 ÷ 4 leaves you, not a move that wins
    assert division.verdict(1, [9, 6, 3, 2]).right  # 18 ÷ 2, ÷ 3, ÷ 6, ÷ 9
    assert division.verdict(1, [16, 15, 12, 9]).kind == "partial"  # subtracting is another game
    assert division.model(1) == (
        [2, 3, 6, 9],
        "The allowed divisors of 18 are 2, 3, 6 and 9; each move d leaves 18 ÷ d, so one move reaches 2, 3, 6 and 9.",
    )
    assert "leaves 18 − d, so one move reaches 9, 12, 15 and 16" in one.model(1)[1]
    assert "18 ÷ d" in division.verdict(1, [7]).stronger  # the stronger hint says how the move is made


def test_only_the_unusual_checks_are_python() -> None:
    """Exercise 1, the guess, both proof questions and the parameters are declared; exercises 2 and 3 are not."""
    python = python_spec("02")
    assert python is not None and sorted(python.checks) == ["2", "3"]
    assert not python.reveals and not python.spoilers
    assert {"proof-1", "proof-2", "1", "2", "3"} <= set(spec("02").checks) and "first" in spec("02").reveals


def test_the_guess_must_be_a_list_of_offered_starts() -> None:
    one = lesson()
    assert one.guess_problem("first", "dunno")
    assert one.guess_problem("first", [5])
    assert one.guess_problem("first", [4, 9]) is None
    assert one.guess_problem("first", []) is None  # "from none of them" is a guess


def test_the_notebook_imports_no_solver() -> None:
    import json
    from pathlib import Path

    cells = json.loads(Path("notebooks/02-play-divisor-duel.ipynb").read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "winning_moves" not in code and "tabulate" not in code and "checks" not in code


def test_exit_ticket_answer_by_hand() -> None:
    assert [d for d in range(2, 9) if 9 % d == 0] == [3]  # the only move: 9 → 6
    assert not brute_wins(9) and brute_wins(6) and not brute_wins(3)


def test_the_student_edition_judges_the_declared_exercises_as_the_teachers_does() -> None:
    teacher = declared.load(Path("notebooks/02-play-divisor-duel.lesson.toml"))
    student = declared.parse(teacher.student_text(), "02-play-divisor-duel.lesson.toml")
    for name, answer in (("1", [16, 15, 12, 9]), ("1", [2, 3, 6, 9]), ("proof-2", 12), ("proof-2", 8), ("proof-2", 24)):
        assert student.check(name, answer, BASE) == teacher.check(name, answer, BASE), (name, answer)
