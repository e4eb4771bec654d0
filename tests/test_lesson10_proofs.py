"""Lesson 10: the built proof steps, the exercise answers, the guesses' forms and the stated facts, by brute force."""

from __future__ import annotations

import itertools

import pytest
from lesson_helpers import model_failures, spoilers_before_reveal

from duel_lessons import DIVISOR_DUEL
from duel_lessons.play.sums import grundy_value
from duel_lessons.solving.tables import tabulate
from duel_lessons.teaching.checks import spec
from duel_lessons.teaching.lesson import Lesson, forget

P = {"rules": "divisor-duel", "hand_limit": 12, "partner": 12, "ex_set": [0, 1, 2, 4], "ex_g": 14, "ex_pair": [10, 16]}
OTHER = {**P, "hand_limit": 20, "partner": 20, "ex_set": [1, 2], "ex_g": 13, "ex_pair": [6, 16]}
SPEC = spec("10")


def check(name: str, answer: object, params: dict[str, object] = P) -> object:
    return SPEC.checks[name](answer, params)


def moves(n: int) -> list[int]:
    return [n - d for d in DIVISOR_DUEL.divisors_of(n)]


def mex(values: set[int]) -> int:
    return next(m for m in itertools.count() if m not in values)


def my_grundy(upto: int) -> dict[int, int]:
    """Grundy values by the mex rule, written here independently of the package."""
    g: dict[int, int] = {}
    for n in range(1, upto + 1):
        g[n] = mex({g[m] for m in moves(n)})
    return g


G = my_grundy(300)


def test_the_copying_proof_facts() -> None:
    # a move can raise a value (issue 18: 18 -> 16), and the first number of value >= 1 where one does is 14
    assert (G[18], G[16]) == (1, 2)
    assert min(n for n in G if G[n] >= 1 and any(G[m] > G[n] for m in moves(n))) == 14
    assert (G[14], G[12]) == (1, 3)
    # "g = 0 exactly at the P-positions", proved by induction in the lesson, checked against the solver's table
    table = tabulate(DIVISOR_DUEL, 300)
    assert all((G[n] == 0) == table.is_p(n) for n in range(1, 301))
    # every value below the mex is reachable (the fact the proof's two cases use)
    assert all(set(range(G[n])) <= {G[m] for m in moves(n)} for n in G)


def test_the_package_agrees_with_the_mex_rule() -> None:
    assert all(grundy_value(DIVISOR_DUEL, n) == G[n] for n in range(1, 301))


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        (14, "right"),
        (18, "partial"),
        (16, "partial"),
        (9, "miss"),
        (8, "miss"),
        ("14", "format"),
        ([14], "format"),
        (0, "format"),
        (-3, "format"),
        ("fourteen", "format"),
    ],
)
def test_counterexample_hunt(answer: object, kind: str) -> None:
    assert check("proof-1", answer).kind == kind


def test_a_value_0_number_is_no_counterexample_and_is_told_why() -> None:
    verdict = check("proof-1", 8)
    assert "holds for 8" in verdict.message


@pytest.mark.parametrize(
    "order",
    [["C", "F", "H", "A", "E", "B", "G"], ["C", "F", "A", "H", "E", "B", "G"], ["B", "C", "F", "H", "A", "E", "G"]],
)
def test_parsons_right_orders(order: list[str]) -> None:
    assert check("order", order).kind == "right"


def test_parsons_wrong_line_is_named() -> None:
    verdict = check("order", ["C", "F", "D", "E", "B", "G"])
    assert verdict.kind != "right"
    assert "Line D" in verdict.hint or "D" in verdict.message
    verdict = check("order", ["C", "I", "H", "E", "B", "G"])
    assert verdict.kind != "right"


@pytest.mark.parametrize("answer", ["CFHAEBG", ["c", "f", "h", "a", "e", "b", "g"], 7, ["Z"]])
def test_parsons_malformed(answer: object) -> None:
    assert check("order", answer).kind == "format"


def test_parsons_out_of_order_names_the_fact_used_too_early_not_a_label() -> None:
    verdict = check("order", ["C", "H", "F", "A", "E", "B", "G"])
    assert (verdict.kind, verdict.message) == (
        "partial",
        "Your proof uses that after the opponent's move the two values differ before it shows it.",
    )


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ((16, 2), "right"),
        ([16, 2], "right"),
        ("P", "misconception"),
        ("N", "partial"),
        ((2, 16), "format"),
        ((12, 2), "format"),
        ((16, 4), "miss"),
        ((10, 5), "miss"),
        ((16, 3), "miss"),
        ("maybe", "format"),
        ((16,), "format"),
    ],
)
def test_exercise_3_winning_move(answer: object, kind: str) -> None:
    assert check("3", answer).kind == kind


def test_exercise_3_when_the_pair_is_p() -> None:
    params = {**P, "ex_pair": [6, 16]}  # g(6) = g(16) = 2
    assert check("3", "P", params).kind == "right"
    assert check("3", (16, 2), params).kind == "misconception"
    assert check("3", "p", params).kind == "format"


def test_exercise_2_uses_the_table_and_names_max() -> None:
    assert G[14] == 1 and sorted(G[m] for m in moves(14)) == [0, 3]
    assert check("2", 1).kind == "right"
    assert check("2", 3).kind == "misconception"  # the largest reachable value
    assert check("2", 4).kind == "misconception"  # one more than it


def test_exercise_2_model_reasons_from_the_reached_values() -> None:
    # 14 moves to 12 and 7 (values 3 and 0): mex 1; 13 is prime, with no move: mex of nothing is 0
    assert moves(14) == [12, 7] and (G[12], G[7], G[14]) == (3, 0, 1) and moves(13) == []
    assert SPEC.models["2"](P) == (
        1,
        "14 moves to 7 and 12, with values 0 and 3; the smallest whole number missing is 1.",
    )
    assert SPEC.models["2"](OTHER) == (
        0,
        "13 moves to nothing, with values none; the smallest whole number missing is 0.",
    )
    assert check("2", 4, OTHER).kind == "miss"  # no reachable value: no max misconception


def test_exercise_1() -> None:
    assert check("1", 3).kind == "right"
    assert check("1", 5).kind == "misconception"
    assert check("1", "3").kind == "format"


def test_every_model_answer_passes_its_check_under_other_parameters() -> None:
    """P and OTHER are not the notebook's parameters (test_model_solutions runs those and every offered value)."""
    assert model_failures("10", [("P", P), ("OTHER", OTHER)]) == []


def test_model_answers_follow_the_parameters() -> None:
    assert SPEC.models["1"](OTHER)[0] == 0
    assert SPEC.models["2"](OTHER)[0] == 0
    assert SPEC.models["3"](OTHER)[0] == "P"
    assert SPEC.models["grundy-table"](OTHER)[0] == {n: G[n] for n in range(1, 21)}


@pytest.mark.parametrize(
    ("name", "value", "ok"),
    [
        ("sums", "NP", True),
        ("sums", "PP", True),
        ("sums", "dunno", False),
        ("sums", "N", False),
        ("sums", "NX", False),
        ("sums", ["N", "P"], False),
        ("partner", [20], True),
        ("partner", [14, 27], True),
        ("partner", [5], False),
        ("partner", [], False),
        ("partner", "dunno", False),
        ("partner", [20.5], False),
    ],
)
def test_guess_forms(name: str, value: object, ok: bool) -> None:
    assert (SPEC.guess_forms[name](value, P) is None) == ok


def test_outputs_that_answer_a_guess_are_locked_until_it_is_made(capsys: pytest.CaptureFixture[str]) -> None:
    forget("10")
    lesson = Lesson("10", **P)
    lesson.locked("sums", lambda: print("4 + 4 is P"))
    assert "🔒" in capsys.readouterr().out
    lesson.guess("sums", "dunno")
    lesson.locked("sums", lambda: print("4 + 4 is P"))
    assert "🔒" in capsys.readouterr().out
    lesson.guess("sums", "NN")
    lesson.locked("sums", lambda: print("opened"))
    assert "opened" in capsys.readouterr().out
    forget("10")


def test_the_student_copy_tells_nothing_before_it_asks() -> None:
    assert spoilers_before_reveal("10-", "10") == []


def test_no_worked_example_is_exercise_1s_answer() -> None:
    from lesson_helpers import source, student_cells

    text = "\n".join(source(c) for c in student_cells("10-"))
    assert "mex{0, 1, 2, 4}" not in text.replace("EX_SET", "")
    assert "from duel_lessons.teaching.checks" not in text


def test_the_exit_ticket() -> None:
    assert moves(28) == [26, 24, 21, 14] and [G[m] for m in moves(28)] == [1, 4, 0, 1] and G[28] == 2


def test_exercise_3_is_beyond_brute_force_and_judged_by_equal_values() -> None:
    # The notebook's pair: a loop over the notebook's brute force does not answer it (review rev4).
    params = {**P, "ex_pair": [1000, 1536]}
    g = my_grundy(1536)
    assert (g[1000], g[1536]) == (3, 7)
    winning = sorted(
        [(1000, 1000 - m) for m in moves(1000) if g[m] == g[1536]]
        + [(1536, 1536 - m) for m in moves(1536) if g[m] == g[1000]]
    )
    assert winning == [(1000, 40), (1536, 8), (1536, 24)]  # 1000 -> 960 RAISES the value from 3 to 7
    for move in winning:
        assert check("3", move, params).kind == "right", move
    assert check("3", (1000, 8), params).kind == "miss"
    assert check("3", "P", params).kind == "misconception"


@pytest.mark.parametrize("answer", ["p", "n", " p "])
def test_exercise_3_a_case_slip_is_named_and_confirms_nothing(answer: str) -> None:
    for params in (P, {**P, "ex_pair": [6, 16]}):  # N, then P
        verdict = check("3", answer, params)
        assert verdict.kind == "format" and "capital" in verdict.message, (answer, params)


def brute_sum(parts: tuple[int, ...]) -> str:
    """P or N for a sum of Divisor Duels, by trying every move (written here, independently of the package)."""
    for i, n in enumerate(parts):
        for m in moves(n):
            if brute_sum(parts[:i] + (m,) + parts[i + 1 :]) == "P":
                return "N"
    return "P"


def test_the_declared_sums_guess_is_right_by_brute_force_and_its_reveal_compares() -> None:
    # 4 and 6 are each N; 4 + 4 is P (copy the move), 4 + 6 is N (6 - 2 leaves 4 + 4)
    assert (brute_sum((4,)), brute_sum((6,)), brute_sum((4, 4)), brute_sum((4, 6))) == ("N", "N", "P", "N")
    right, wrong = SPEC.reveals["sums"]("PN", P), SPEC.reveals["sums"]("NN", P)
    assert "**4 + 4 is P, and 4 + 6 is N**" in right and "Your guess was right." in right
    assert "You guessed 'NN'." in wrong and "right" not in wrong


def test_guessing_every_partner_is_no_prediction() -> None:
    assert SPEC.guess_forms["partner"](list(range(13, 31)), P) is not None
    assert SPEC.guess_forms["partner"](list(range(13, 30)), P) is None


def test_a_partner_rule_that_asks_brute_force_is_named_in_the_reveal() -> None:
    def brute(numbers: tuple[int, ...]) -> str:
        return "P"

    def copies(n: int) -> bool:
        return brute((12, n)) == "P"

    assert "asks `brute` itself" in SPEC.reveals["partner"](copies, P)
    assert "asks `brute`" not in SPEC.reveals["partner"](lambda n: n % 2 == 0, P)
