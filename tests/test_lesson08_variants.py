"""Lesson 08: the built proof steps (the halving bracket, the half game's proof in order), the exercises, and the
lesson's statements checked by brute force (model answers under every offered parameter: test_model_solutions)."""

from __future__ import annotations

from pathlib import Path

import pytest

from duel_lessons import DIVISOR_DUEL, get_rules, new_game
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.tables import tabulate
from duel_lessons.teaching.checks import spec

from brute import Brute

ROOT = Path(__file__).resolve().parents[1]
BASE = {"upto": 10**5, "ex_even": 10**12, "misere_divisors": "odd"}
SPEC = spec("08")
EVEN = DIVISOR_DUEL.variant(divisors="even")
HALF = DIVISOR_DUEL.variant(allow_one=True)


def verdict(name: str, answer: object, **changed: object):  # type: ignore[no-untyped-def]
    return SPEC.checks[name](answer, {**BASE, **changed})


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("m - e", "right"),
        ("-(e - m)", "right"),
        ("2*m - 2*e", "misconception"),
        ("m - 2*e", "misconception"),
        ("m + e", "miss"),
        ("m -", "format"),
        (5, "format"),
        ("m(1 - e)", "format"),
    ],
)
def test_proof_1_the_bracket(answer: object, expected: str) -> None:
    assert verdict("proof-1", answer).kind == expected


@pytest.mark.parametrize(
    "answer",
    ["(2*m - 2*e)/2", "(2*m − 2*e) ÷ 2", "2*(m - e)/2", "(4*m - 4*e)/4", "m*e/e - e", "2*(m - e) - (m - e)"],
)
def test_proof_1_refuses_a_restatement_and_asks_for_the_bracket(answer: str) -> None:
    """Issue 27, point 7: (2m − 2e)/2 equals m − e, but it only restates the question; the check asks for the form."""
    v = verdict("proof-1", answer)
    assert v.kind == "partial" and not v.right and v.key == "shape:restated", (answer, v)
    assert "restates" in v.message and "m - e" not in v.hint + v.stronger and "m − e" not in v.hint + v.stronger


@pytest.mark.parametrize("answer", ["m - e", "m−e", "-e + m", "-(e - m)", "m + (-e)", "2*m - m - e"])
def test_proof_1_accepts_the_bracket_in_any_form_without_a_restatement(answer: str) -> None:
    assert verdict("proof-1", answer).right, answer


def test_proof_1_a_wrong_bracket_is_refuted_by_numbers() -> None:
    v = verdict("proof-1", "m + e")
    assert "m = 6, e = 1" in v.message and "m - e" not in v.hint + v.stronger


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        (["E", "C", "F", "A", "D", "G"], "right"),
        (["C", "E", "D", "F", "A", "G"], "right"),  # any order that respects what each line uses
        (["E", "C", "A", "F", "D", "G"], "partial"),  # A uses F before F is established
        (["E", "C", "F", "A", "B", "D", "G"], "misconception"),  # a wrong line included
        (["E", "C", "F", "H", "D", "G"], "misconception"),
        (["E", "C", "F", "A", "G"], "partial"),  # the even case is missing
        (["G", "E", "C", "F", "A", "D"], "partial"),  # the conclusion first
        ("ECFADG", "format"),
        (["E", "C", "F", "A", "D", "Z"], "format"),
        (["e", "c", "f", "a", "d", "g"], "format"),  # a case slip, named without confirming the order
    ],
)
def test_the_half_game_in_order(order: object, expected: str) -> None:
    assert verdict("half", order).kind == expected


def test_a_wrong_line_is_named_with_why_it_is_wrong() -> None:
    v = verdict("half", ["E", "C", "F", "A", "B", "D", "G"])
    assert "12 − 2 = 10" in v.message + v.hint + v.stronger


def key(name: str, answer: object, **changed: object) -> str:
    """The verdict's kind and, for a named mistake, its key: "misconception:losing-move"."""
    v = verdict(name, answer, **changed)
    return f"{v.kind}:{v.key}" if v.kind == "misconception" else v.kind


def test_exercise_1_big_numbers_and_its_misconceptions() -> None:
    """EX_EVEN = 10**12 = 2**12 × 5**12 (by hand): the winning moves are 2 × the odd divisors of 2**11 × 5**12, the
    largest 2 × 5**12; 2 and 2 × 5**7 win but are smaller; 4 leaves a multiple of 4; 5 is odd; 3 × 10**12 divides
    nothing below it."""
    assert verdict("1", 2 * 5**12).kind == "right"
    assert key("1", 2) == key("1", 2 * 5**7) == "misconception:not-the-largest"
    assert key("1", 4) == "misconception:losing-move" and key("1", 5) == "misconception:odd-divisor"
    assert key("1", 1) == "misconception:odd-divisor"  # 1 is an odd divisor, and not a move either
    assert key("1", 3 * 10**12) == key("1", 10**12) == key("1", 0.5) == "misconception:not-a-move"
    assert key("1", 0) == "misconception:zero" and key("1", 6) == "misconception:not-a-move"  # 3 does not divide it
    assert verdict("1", "2").kind == "format" and verdict("1", 2 * 5**20, ex_even=10**20).kind == "right"
    odd_half = 2 * 10**12 + 2  # 2 × an odd number: a P-position, so the answer is 0
    assert verdict("1", 0, ex_even=odd_half).kind == "right"
    assert key("1", 2, ex_even=odd_half) == "misconception:no-winning-move"


def test_exercise_1_with_an_offered_ex_even_beyond_the_board() -> None:
    """EX_EVEN = 10**24 (offered): the largest winning move is 2 × 5**24 (by hand: 10**24 = 2**24 × 5**24, a winning
    move is twice an odd divisor of the half, 2**23 × 5**24, and the largest odd one is 5**24); EX_EVEN itself is
    beyond 10**18, where a lesson reads no number, and says so."""
    big = 10**24
    assert verdict("1", 2 * 5**24, ex_even=big).right
    assert key("1", 2 * 5**23, ex_even=big) == "misconception:not-the-largest"  # winning, not the largest
    assert key("1", 4 * 5**24, ex_even=big) == "misconception:losing-move"  # leaves 4 × 5**24 × (2**22 − 1)
    assert key("1", 5**24, ex_even=big) == "misconception:odd-divisor"
    assert verdict("1", big, ex_even=big).kind == verdict("1", 10**90, ex_even=big).kind == "format"


def test_exercise_1_model_answer_and_its_reason_follow_ex_even() -> None:
    assert SPEC.models["1"](BASE)[0] == 2 * 5**12 and "is a multiple of 4" in SPEC.models["1"](BASE)[1]
    answer, why = SPEC.models["1"]({**BASE, "ex_even": 3 * 2**70})
    assert answer == 6 and "twice the odd part" in why  # 3 × 2**70: odd part 3
    answer, why = SPEC.models["1"]({**BASE, "ex_even": 2 * 10**20 + 2})
    assert answer == 0 and "not a multiple of 4" in why


def test_exercise_1_largest_move_against_the_solver() -> None:
    """The largest winning move (from the proof) against the game's own winning moves, by brute force."""
    table = tabulate(EVEN, 600)
    for n in range(1, 601):
        wins = [d for d in EVEN.divisors_of(n) if table.is_p(n - d)] if n > 2 else []
        model, _ = SPEC.models["1"]({**BASE, "ex_even": n})
        assert model == max(wins, default=0), n
        assert SPEC.checks["1"](max(wins, default=0), {**BASE, "ex_even": n}).right, n


def test_exercise_1_is_beyond_the_game_board() -> None:
    """The notebook's EX_EVEN is beyond the engine (10**18), so the board's hints cannot answer exercise 1."""
    from duel_lessons.engine.errors import BadStartError

    with pytest.raises(BadStartError):
        new_game(EVEN, 10**20)


def test_exercise_2_wants_a_rule_not_a_table() -> None:
    table = tabulate(DIVISOR_DUEL.variant(divisors="odd", last_mover_wins=False), BASE["upto"])  # type: ignore[arg-type]
    assert verdict("2", table.is_p).kind == "partial"
    assert verdict("2", lambda n: n % 2 == 0 and n & (n - 1) != 0).kind == "right"
    assert verdict("2", lambda n: n % 2 == 0).kind == "miss"
    assert verdict("2", lambda n: n == 4 or (n % 4 == 2 and n >= 10), misere_divisors="even").kind == "right"
    assert verdict("2", 6).kind == "format"


def test_the_guess_form() -> None:
    form = SPEC.guess_forms["hand-over"]
    assert form([], BASE) is None and form([6, 18], BASE) is None
    assert form("dunno", BASE) and form([7], BASE) and form(["6"], BASE)


def test_the_guess_reveal_compares_with_the_even_only_losers() -> None:
    told = SPEC.reveals["hand-over"]([6, 8], BASE)
    assert "the player to move loses from 6 and 18" in told and "you chose 8" in told and "you left out 18" in told
    assert "not a multiple of 4" in told and "up to 100000" in told


def test_the_declared_truths_are_the_solvers_tables_and_reach_beyond_them() -> None:
    """The conjectures are tested against the proved rules (as far as 10**12): they agree with the solver."""
    even, odd = tabulate(EVEN, 3000), tabulate(DIVISOR_DUEL.variant(divisors="odd"), 3000)
    even_truth, odd_truth = SPEC.truths["even"](BASE), SPEC.truths["odd"](BASE)
    assert all(even_truth(n) == even.is_p(n) and odd_truth(n) == odd.is_p(n) for n in range(1, 3001))
    assert SPEC.reaches["even"] == SPEC.reaches["odd"] == 10**12
    misere = tabulate(DIVISOR_DUEL.variant(last_mover_wins=False), 1000)
    assert all(SPEC.truths["misere"](BASE)(n) == misere.is_p(n) for n in range(1, 1001))


def test_a_rule_with_an_exception_beyond_the_data_is_refuted(capsys: pytest.CaptureFixture[str]) -> None:
    from duel_lessons.teaching import Lesson

    lesson = Lesson("08", **BASE)
    assert not lesson.test(lambda n: n % 4 != 0 or n == 2**20, upto=1000, name="even")
    assert "n = 1048576" in capsys.readouterr().out
    assert lesson.test(lambda n: n % 2 == 1 or n & (n - 1) == 0, upto=1000, name="odd")
    told = str(lesson.reveal_text("odd"))
    assert "**odd or a power of 2**" in told and "agrees with it for every n from 1 to 1,000" in told


# -- the lesson's statements, by brute force -------------------------------------------------------------


def test_even_only_is_the_half_game_on_the_half_and_loses_exactly_off_the_multiples_of_4() -> None:
    even, half = Brute.of(EVEN), Brute.of(HALF)
    for m in range(1, 301):
        assert even.outcome(2 * m) == half.outcome(m), m
        assert (half.outcome(m) == "P") == (m % 2 == 1), m
    for n in range(1, 601):
        assert (even.outcome(n) == "P") == (n % 4 != 0), n
    assert [n for n in (6, 8, 12, 18, 20) if even.outcome(n) == "P"] == [6, 18]


def test_the_half_game_and_factor_duel_differ_at_1_and_2_only() -> None:
    half, factor = Brute.of(HALF), Brute.of(get_rules("factor-duel"))
    assert [n for n in range(1, 1001) if half.outcome(n) != factor.outcome(n)] == [1, 2]
    assert not factor.state(3).legal_moves and half.state(3).legal_moves == (1,)  # the rules differ at primes


def test_book_000_names_only_even_divisors_as_a_restriction() -> None:
    book = (ROOT / "docs" / "rulebooks" / "000_d3addbfffab69c37.txt").read_text(encoding="utf-8").lower()
    assert "only even divisors" in book
    assert "odd divisors" not in book and "prime divisors" not in book


def test_misere_even_explanation_every_move_from_a_p_position_leaves_a_multiple_of_4_from_8() -> None:
    misere_even = DIVISOR_DUEL.variant(divisors="even", last_mover_wins=False)
    form = closed_form(misere_even)
    assert form is not None
    for n in range(10, 2001, 4):  # 10, 14, 18, ...: the P-positions from 10 up
        results = [n - d for d in misere_even.divisors_of(n)]
        assert all(r % 4 == 0 and r >= 8 for r in results), n
        assert (8 in results) == (n == 10), n
    assert [10 - d for d in misere_even.divisors_of(10)] == [8]
    assert "at least 12" not in form.explain(10) and "8 only from 10" in form.explain(10)


def test_misere_twice_primes_up_to_60_are_p_except_6_and_34() -> None:
    misere = Brute.of(DIVISOR_DUEL.variant(last_mover_wins=False))
    twice_primes = [2 * p for p in (3, 5, 7, 11, 13, 17, 19, 23, 29)]
    assert [n for n in twice_primes if misere.outcome(n) == "N"] == [6, 34]
    assert misere.outcome(4) == "P" and [4 - d for d in DIVISOR_DUEL.divisors_of(4)] == [2]
