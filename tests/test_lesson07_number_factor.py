"""Lesson 07: the built proof steps (expressions in q), the exercises following their parameters, and the lesson's
statements checked by brute force (model answers under every offered parameter: tests/test_model_solutions.py)."""

from __future__ import annotations

import pytest

from duel_lessons import DIVISION_DUEL, NUMBER_FACTOR
from duel_lessons.engine.numbers import is_prime
from duel_lessons.play.careless import simulate
from duel_lessons.teaching.checks import spec

from brute import Brute

BASE = {"rules": "number-factor", "start": 30, "upto": 100, "ex_rate": 0.3, "ex_games": 7}
SPEC = spec("07")


def kind(name: str, answer: object, **changed: object) -> str:
    return SPEC.checks[name](answer, {**BASE, **changed}).kind


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("1 - q", "right"),
        ("-(q - 1)", "right"),
        ("q", "misconception"),
        ("1", "misconception"),
        ("(1 - q)/2", "misconception"),
        ("1 - q^2", "miss"),
        ("1 -", "format"),
        (0.75, "format"),
    ],
)
def test_proof_2_the_chance_in_the_games_the_careless_player_starts(answer: object, expected: str) -> None:
    assert kind("proof-2", answer) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("(1 - q)/2", "right"),
        ("1/2 - q/2", "right"),
        ("0.5*(1 - q)", "right"),  # issue 27: an exact decimal is read
        ("0.5 - 0.5*q", "right"),
        ("1 - q", "misconception"),
        ("q/2", "misconception"),
        ("1/2 - q", "misconception"),
        ("(1 - q)/3", "miss"),
        ("(1 - q)/", "format"),
        ([1, 2], "format"),
    ],
)
def test_proof_3_the_long_run_rate(answer: object, expected: str) -> None:
    assert kind("proof-3", answer) == expected


def test_the_wrong_expressions_are_refuted_by_a_value_of_q() -> None:
    verdict = SPEC.checks["proof-3"]("(1 - q)/3", BASE)
    assert "q = 0" in verdict.message and "(1 - q)/2" not in verdict.hint + verdict.stronger


def test_exercise_1_follows_ex_rate_and_exercise_2_follows_ex_games() -> None:
    assert kind("1", 0.4) == "right" and kind("1", 0.8, ex_rate=0.1) == "right"
    assert kind("1", 0.4, ex_rate=0.1) != "right"
    assert kind("2", 3) == "right" and kind("2", 2, ex_games=4) == "right" and kind("2", 3.5) == "misconception"
    assert kind("2", 4) == "misconception"  # the count if the careless player started game 1
    assert kind("2", 3 / 7) == "misconception" and kind("2", 2, ex_games=5) == "right"  # a fraction, not a count


def test_the_guess_forms() -> None:
    form = SPEC.guess_forms
    assert form["rules"]([], BASE) is None and form["rules"](["a", "c"], BASE) is None
    assert form["rules"]("dunno", BASE) and form["rules"](["d"], BASE) and form["rules"]([1], BASE)
    assert form["careless"](0.25, BASE) is None and form["careless"]("dunno", BASE) and form["careless"](2, BASE)


# -- the lesson's statements, by brute force -------------------------------------------------------------


def test_no_move_leaves_1_and_the_smallest_result_is_2() -> None:
    results = [n // d for n in range(2, 1001) for d in range(2, n) if n % d == 0]
    assert min(results) == 2 and 1 not in results


def test_number_factor_and_division_duel_agree_on_every_start_up_to_1000() -> None:
    nf, dd = Brute.of(NUMBER_FACTOR), Brute.of(DIVISION_DUEL)
    assert all(nf.outcome(n) == dd.outcome(n) for n in range(2, 1001))


def test_a_deliberate_slip_never_helps_in_number_factor_but_would_help_in_the_prime_divisor_game() -> None:
    # Number Factor: from every composite number one move leaves a prime (a win at once), so a free pass
    # is never needed; facing a prime the player must pass anyway.
    for n in range(4, 1001):
        if not is_prime(n):
            assert any(n % d == 0 and is_prime(n // d) for d in range(2, n))
    # Lesson 5's prime-divisor game: 8 loses for the player to move, so handing 8 back would help.
    assert Brute.of(DIVISION_DUEL.variant(divisors="prime")).outcome(8) == "P"


def test_the_long_run_rate_is_half_of_one_minus_q() -> None:
    lose_turn, ask_again = simulate([0, 0.25, 0.5, 0.75], games=4000, start_range=(10, 99), seed=7)
    for q, rate in zip([0, 0.25, 0.5, 0.75], lose_turn, strict=True):
        sd = (q * (1 - q) / (2 * 4000)) ** 0.5
        assert abs(rate - (1 - q) / 2) <= 4 * sd + 1e-12, (q, rate)
    assert ask_again == [0.5] * 4  # an even number of games: exactly the half the careless player starts


def test_exact_ask_again_counts() -> None:
    for games in range(2, 21):
        started = len(range(2, games + 1, 2))  # the careful player starts game 1
        assert SPEC.checks["2"](started, {**BASE, "ex_games": games}).right
        assert not SPEC.checks["2"](games - started, {**BASE, "ex_games": games}).right or games % 2 == 0


def test_the_imported_simulation_does_not_answer_exercise_2() -> None:
    """simulate lets the careless player start game 1; exercise 2 has the careful one start."""
    for games in (5, 7, 11):
        _, ask_again = simulate([0.5], games=games, start_range=(10, 99), seed=1)
        params = {**BASE, "ex_games": games}
        verdict = SPEC.checks["2"](round(ask_again[0] * games), params)
        assert verdict.kind == "misconception" and verdict.key == "careless-first", (games, verdict)
        assert SPEC.checks["2"](ask_again[0], params).key == "fraction"


def test_proof_1_is_not_read_off_the_cell_above() -> None:
    """The cell above proof question 1 lists the moves from 15 (smallest result 3), not a start whose minimum is 2."""
    assert min(15 // d for d in NUMBER_FACTOR.divisors_of(15)) == 3
    assert kind("proof-1", 3) == "misconception" and kind("proof-1", 2) == "right"


def test_the_declared_reveals_compare_with_the_guess() -> None:
    """The rules reveal (none of the three rules matters) and the careless one ((1 - 0.5)/2 = 0.25, by hand)."""
    right, wrong = SPEC.reveals["rules"]([], BASE), SPEC.reveals["rules"](["a", "c"], BASE)
    assert right.startswith("You picked none. You were right: none of the three rules")
    assert wrong.startswith("You picked a and c. In fact, none of the three rules")
    said = {g: SPEC.reveals["careless"](g, BASE) for g in (0.25, 0.3, 0.5)}
    assert all("wins 0.25 of the games when q = 0.5" in text for text in said.values())
    assert "(spot on)" in said[0.25] and "(close)" in said[0.3] and "(some way off)" in said[0.5]


def test_exercise_1_names_each_misconception_under_every_offered_rate() -> None:
    for rate, q in ((0.3, 0.4), (0.1, 0.8), (0.25, 0.5), (0.45, 0.1)):  # q = 1 - 2 * rate, by hand
        p = {**BASE, "ex_rate": rate}
        assert SPEC.checks["1"](q, p).right
        mistakes = {"forward": (1 - rate) / 2, "no-halving": 1 - rate, "no-slip": 2 * rate}
        for key, answer in mistakes.items():
            if abs(answer - q) > 1e-9:  # at rate 0.25, 2 * rate is q itself: right
                assert SPEC.checks["1"](answer, p).key == key, (rate, key)
