"""Lesson 01: the built proof steps (order, converse counterexample), SEEN as a parameter, huge answers."""

from __future__ import annotations

import math

import pytest
import sympy

from duel_lessons.teaching.checks import spec
from duel_lessons.teaching.feedback import Verdict
from duel_lessons.teaching.lesson import Lesson, forget
from duel_lessons.teaching.proofs import ORDER_HINT, ORDER_STRONGER

BASE = dict(rules="divisor-duel", small=18, upto=30, count_n=72, seen=50)
RULES = ("divisor-duel", *spec("01").offers["rules"])


def lesson(**changes: object) -> Lesson:
    forget("01")
    return Lesson("01", **{**BASE, **changes})


def inner_count(n: int) -> int:
    return sum(1 for d in range(2, n) if n % d == 0)


@pytest.mark.parametrize("rules", RULES)
def test_every_model_answer_passes_under_each_offered_rule_book(rules: str) -> None:
    one = lesson(rules=rules)
    for name in spec(one.number).models:
        model, why = one.model(name)
        assert one.verdict(name, model).right, (rules, name, model)
        assert why


def test_exercises_2_and_4_ask_beyond_any_list_of_the_lesson() -> None:
    """A number above 10**12: editing section 7's list or looping does not reach it (attack of review rev1)."""
    one = lesson()
    p = 1000003  # the first prime above 10**6 (checked below by trial division up to its square root)
    assert all(p % k for k in range(2, math.isqrt(p) + 1)) and all(
        any(m % k == 0 for k in range(2, 1001)) for m in range(10**6 + 1, p)
    )
    assert one.verdict(2, p * p).right
    small = one.verdict(2, 121)  # one inner divisor, but the list of section 7 edited finds it
    assert small.kind == "partial" and "121" in small.message
    assert one.verdict(2, 10**12 + 1).kind == "miss"  # 10**12 + 1 = 73 × 137 × 99990001
    assert one.verdict(2, 1000003).kind == "misconception"  # prime: no inner divisor
    assert one.verdict(2, (10**6) ** 2).kind == "miss"  # a square, but of a composite number
    q = 1000033
    assert all(q % k for k in range(2, math.isqrt(q) + 1))
    c = 10007  # prime, and 10007**3 > 10**12
    assert all(c % k for k in range(2, math.isqrt(c) + 1)) and c**3 > 10**12
    assert one.verdict(4, [p * q, c**3]).right
    assert one.verdict(4, [c**3, p * q]).right
    assert one.verdict(4, [p * q, p * 1000037]).kind == "partial"  # the same kind twice
    assert one.verdict(4, [6, 8]).kind == "partial"  # two small ones, from a list or a loop
    assert one.verdict(4, [p * p, c**3]).kind == "misconception"  # one inner divisor, not two
    assert one.verdict(4, [p * q * 2, c**3]).kind == "miss"
    for malformed in (p * q, [p * q], [p * q, c**3, 6], "6, 8", [p * q, 10**5000], [p * q, -8]):
        assert one.verdict(4, malformed).kind == "format", malformed


def test_the_claim_and_its_converse_by_brute_force() -> None:
    # one inner divisor d  =>  n = d × d  (the claim the Parsons problem proves)
    for n in range(2, 3000):
        divisors = [d for d in range(2, n) if n % d == 0]
        if len(divisors) == 1:
            assert divisors[0] ** 2 == n
    # the converse fails first at 16 = 4 × 4 (inner divisors 2, 4, 8)
    squares = [d * d for d in range(2, 60)]
    assert next(n for n in squares if inner_count(n) != 1) == 16


def test_proof_order_right_wrong_and_malformed() -> None:
    one = lesson()
    assert one.verdict("proof-1", ["C", "H", "D", "G", "A", "F"]).right
    assert one.verdict("proof-1", ["C", "D", "H", "G", "A", "F"]).right  # H and D rely on nothing but the set-up
    assert one.verdict("proof-1", ["H", "D", "C", "G", "A", "F"]).right  # the order refused before (issue 27)
    early = one.verdict("proof-1", ["C", "H", "G", "D", "A", "F"])
    assert early == Verdict(
        "partial",
        "Your proof uses that the partner n ÷ d is smaller than n before it shows it.",
        ORDER_HINT,
        ORDER_STRONGER,
        "order:G:D",
    )
    wrong = one.verdict("proof-1", ["C", "H", "D", "G", "E", "F"])
    assert wrong.kind == "misconception" and "E" in wrong.hint
    assert not one.verdict("proof-1", ["A", "B", "C", "D", "E", "F"]).right  # the labels in order are not the proof
    short = one.verdict("proof-1", ["C", "H", "D", "G", "A"])
    assert not short.right
    for malformed in ("BCEFDA", ["b", "c"], [1, 2], ["B", "B"]):
        assert one.verdict("proof-1", malformed).kind == "format", malformed


def test_converse_counterexample_right_wrong_and_malformed() -> None:
    one = lesson()
    assert one.verdict("proof-2", 16).right
    assert one.verdict("proof-2", 36).kind == "partial"  # fails there, but not the smallest
    for holds in (4, 9, 25, 10):
        verdict = one.verdict("proof-2", holds)
        assert verdict.kind == "miss" and str(holds) in verdict.message
        assert "16" not in verdict.message + verdict.hint + verdict.stronger
    for malformed in ("16", [16], 10**5000, 0):
        assert one.verdict("proof-2", malformed).kind == "format", malformed


def test_divisor_count_as_a_product_right_wrong_and_malformed() -> None:
    one = lesson()  # 72 = 2³ × 3²
    assert len(sympy.divisors(72)) == 4 * 3
    for good in ("4 * 3", "3*4", "4 × 3"):
        assert one.verdict(3, good).right, good
    assert one.verdict(3, "3 * 2").kind == "misconception"  # the powers, not the choices
    assert one.verdict(3, "4 + 3").kind == "misconception"  # added
    assert one.verdict(3, "2 * 3 * 2").kind == "partial"  # the right count, not one factor per prime
    assert one.verdict(3, "5 * 3").kind == "miss"
    for malformed in (12, "twelve", [4, 3], "4 ** 3"):
        assert one.verdict(3, malformed).kind == "format", malformed


def test_huge_and_odd_answers_are_told_quickly() -> None:
    one = lesson()
    for name in ("1", "2", "3", "4"):
        assert one.verdict(name, 10**5000).kind == "format"
    assert one.verdict(4, [6, 10**5000]).kind == "format"
    assert one.verdict(4, [6, 0]).kind == "format"


def test_exercise_models_by_hand() -> None:
    assert lesson().model(1)[0] == [2, 3, 6, 9]  # 18 = 2 × 9 = 3 × 6
    assert lesson().model(3)[0] == "4 * 3"  # 72 = 2³ × 3²: 4 × 3
    assert lesson().model(4)[0] == [1000003 * 1000033, 10007**3]
    assert all(len(sympy.divisors(n)) == 4 and n > 10**12 for n in lesson().model(4)[0])
    assert lesson().model(2)[0] == 1000003**2


def test_the_guess_must_be_a_list_of_numbers_in_range() -> None:
    one = lesson()
    assert one.guess_problem("stuck", "dunno")
    assert one.guess_problem("stuck", [])
    assert one.guess_problem("stuck", [0, 31])
    assert one.guess_problem("stuck", [2, 3, 9]) is None


def test_exit_ticket_answers_by_hand() -> None:
    assert sum(1 for d in range(1, 37) if 36 % d == 0) == (2 + 1) * (2 + 1)  # 36 = 2² × 3²
    assert not [d for d in range(2, 1) if 1 % d == 0]  # 1 is stuck but not prime


# -- issue 27 point 7: every valid form the question allows ------------------------------------------------


def is_prime_by_trial(n: int) -> bool:
    return n > 1 and all(n % k for k in range(2, math.isqrt(n) + 1))


def test_the_divisor_count_formula_written_with_sums_is_right() -> None:
    """(3+1)*(2+1), the formula for 72 = 2³ × 3², was judged "You added"."""
    one = lesson()
    assert sum(1 for d in range(1, 73) if 72 % d == 0) == (3 + 1) * (2 + 1)
    for good in ("(3+1)*(2+1)", "(3 + 1) × (2 + 1)", "(2+1)*(3+1)", "(3+1)(2+1)", "((3+1))*(2+1)", "(3+1)*3"):
        verdict = one.verdict(3, good)
        assert verdict.right, good
        assert verdict.message in ("4 × 3 = 12 divisors.", "3 × 4 = 12 divisors."), verdict.message
    assert one.verdict(3, "(3+1)+(2+1)").kind == "misconception"  # added, with brackets
    assert one.verdict(3, "(3+1)+(2+1)").message == "You added."
    assert one.verdict(3, "(2+1)*(1+1)").kind == "misconception"  # the powers 3 and 2, not the choices 4 and 3
    bare = one.verdict(3, "3+1*2+1")  # 3 + 2 + 1 as written: the brackets are missing
    assert bare.kind == "format" and "brackets" in bare.message
    assert one.verdict(3, "(3+1)*(2+1)*(0+1)").kind == "partial"  # the right count, a factor too many
    for malformed in ("(3+1)*(2+1", "(3-1)*(2+1)", "(3+1)**2", "()", "(" * 50 + "4" + ")" * 50, "4 * 3" * 50):
        assert one.verdict(3, malformed).kind == "format", malformed


def test_exercises_2_and_4_read_numbers_above_10_to_the_18() -> None:
    """Valid answers above 10**18 were refused with "Give one whole number", even inside a list."""
    one = lesson()
    p, q = 10**9 + 7, 10**9 + 9  # twin primes
    assert is_prime_by_trial(p) and is_prime_by_trial(q) and p * p > 10**18 and p * q > 10**18
    c = 1000003
    assert is_prime_by_trial(c) and c**3 > 10**18
    assert one.verdict(2, p * p).right
    assert one.verdict(4, [p * q, c**3]).right
    assert one.verdict(4, [c**3, 1000003 * 1000033]).right  # one above 10**18, one below
    big_p, big_q = 10**12 + 39, 10**13 + 37  # the first primes above 10**12 and 10**13
    assert is_prime_by_trial(big_p) and is_prime_by_trial(big_q)
    assert not any(is_prime_by_trial(m) for m in range(10**12 + 1, big_p))
    assert one.verdict(2, big_p**2).right  # about 10**24: "a prime above 10**12, squared"
    assert one.verdict(4, [big_p * big_q, big_p**3]).right
    assert one.verdict(4, [big_p * big_q, p * q]).kind == "partial"  # the same kind twice
    assert one.verdict(4, [big_p**2, c**3]).kind == "misconception"  # one inner divisor, not two
    many = one.verdict(4, [2 * big_p * big_q, c**3])  # (1+1)³ − 2 = 6 inner divisors
    assert many.kind == "miss" and "6 divisors" in many.message
    assert one.verdict(2, p * q).kind == "miss"  # two inner divisors, p and q
    assert one.verdict(2, (p * q) ** 2).kind == "miss"  # a square, but of a composite
    assert one.verdict(2, big_q).kind == "misconception"  # a prime: none
    assert one.verdict(4, [c**3, 10**5000]).kind == "format"  # 5,001 digits: not read
    hard = one.verdict(4, [(10**30 + 57) * (10**31 + 33), c**3])  # two primes of 31 and 32 digits: too hard
    assert hard.kind == "format" and "factorise" in hard.message


def test_wrong_line_bs_reason_is_a_case_of_the_claim() -> None:
    """Line B ("n ÷ d < d, because d > 1") was refuted with n = 12, which has four inner divisors, not one."""
    import re

    hint = lesson().verdict("proof-1", ["C", "H", "D", "G", "B", "F"]).hint
    example = re.search(r"for n = (\d+) and d = (\d+)", hint)
    assert example, hint
    n, d = int(example.group(1)), int(example.group(2))
    assert [k for k in range(2, n) if n % k == 0] == [d]  # the claim's hypothesis: d is n's only inner divisor
    assert not n // d < d  # and line B fails there
    assert [k for k in range(2, 12) if 12 % k == 0] == [2, 3, 4, 6]  # the old example was outside it


# -- issue 27: the declared exercises (01-divisors-and-primes.lesson.toml), worked out by hand ------------------


@pytest.mark.parametrize(
    ("rules", "answer", "kind", "key"),
    [
        ("divisor-duel", [9, 6, 3, 2], "right", ""),  # 18 = 2 × 9 = 3 × 6; Divisor Duel leaves out 1 and 18
        ("divisor-duel", [1, 2, 3, 6, 9, 18], "misconception", "all-divisors"),
        ("divisor-duel", [18, 1, 2, 9, 3, 6], "misconception", "all-divisors"),  # by pairs, as section 3 writes
        ("divisor-duel", [1, 2, 3, 6, 9], "misconception", "with-1"),
        ("divisor-duel", [2, 3], "partial", "partial:[2, 3]"),
        ("divisor-duel", [2, 3, 6, 9, 18], "partial", "partial:[2, 3, 6, 9, 18]"),
        ("factor-duel", [1, 2, 3, 6, 9], "right", ""),  # Factor Duel allows 1, not 18
        ("factor-duel", [1, 2, 3, 6, 9, 18], "misconception", "all-divisors"),
        ("factor-duel", [2, 3, 6, 9], "misconception", "without-1"),
    ],
)
def test_exercise_1_and_its_misconceptions(rules: str, answer: list[int], kind: str, key: str) -> None:
    verdict = lesson(rules=rules).verdict(1, answer)
    assert (verdict.kind, verdict.key) == (kind, key)
    if kind == "misconception":
        assert "1" in verdict.hint and "table" in verdict.hint


def test_the_stuck_conjecture_test_by_hand() -> None:
    """Stuck: no move (Divisor Duel: 1 and the primes), or the game is over (Factor Duel ends on a prime)."""
    for rules in RULES:
        one = lesson(rules=rules)
        assert one.test(lambda n: n == 1 or is_prime_by_trial(n), 1000), rules
        assert not one.test(lambda n: n == 1 or is_prime_by_trial(n) or n == 1001, 1000), rules  # 7 × 11 × 13
        assert not one.test(lambda n: n == 1 or (is_prime_by_trial(n) and n < 5000), 1000), rules  # beyond the data


def test_the_converse_fails_exactly_at_the_squares_with_more_than_one_inner_divisor() -> None:
    from duel_lessons.teaching import declared
    from duel_lessons.teaching.declared.formulas import predicate

    one = lesson()
    path = declared.find("01")
    assert path is not None
    fails = predicate(declared.load(path).exercises["proof-2"].fields["fails"], {})  # the declared claim
    by_hand = [d * d for d in range(2, 40) if inner_count(d * d) != 1]
    assert [n for n in range(1, 40 * 40) if fails(n)] == by_hand
    assert one.verdict("proof-2", by_hand[0]).right and by_hand[0] == 16


# -- round 2: the guess "stuck" is declared (guess.stuck in the .lesson.toml) ---------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_the_declared_stuck_answer_is_where_the_game_leaves_no_move(rules: str) -> None:
    """The declared answer ("1 and the primes") against the rule book itself: stuck = the game is over at n."""
    from duel_lessons import GameState, get_rules

    book = get_rules(rules)
    for upto in (12, 30, 200):
        by_game = [n for n in range(1, upto + 1) if GameState(book, n).is_over]
        by_hand = [n for n in range(1, upto + 1) if n == 1 or is_prime_by_trial(n)]
        assert by_game == by_hand
        reveal = spec("01").reveals["stuck"]([2, 3, 9], {**BASE, "rules": rules, "upto": upto})
        assert reveal.startswith(
            f"From 1 to {upto}, the player to move is stuck at {', '.join(map(str, by_hand[:-1]))}"
        )
        assert "you chose 9, which is not one of them" in reveal


def test_the_stuck_reveal_by_hand() -> None:
    reveal = spec("01").reveals["stuck"]([2, 3, 9], {**BASE, "upto": 12})
    assert reveal == (
        "From 1 to 12, the player to move is stuck at 1, 2, 3, 5, 7 and 11.\n\n"
        "You were right about 2, 3, 4, 6, 8, 10 and 12; you chose 9, which is not one of them; "
        "you left out 1, 5, 7 and 11.\n\n"
        "Which kind of number is on the list? Is there one that does not fit that description?"
    )
    assert "right for every one" in spec("01").reveals["stuck"]([1, 2, 3, 5, 7, 11], {**BASE, "upto": 12})
