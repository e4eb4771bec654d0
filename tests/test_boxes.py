"""Counting sums over boxes by Grundy values, and the proved Grundy formulas, against brute force."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import reduce
from operator import xor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duel_lessons import DIVISOR_DUEL, FACTOR_DUEL, DuelError, get_rules
from duel_lessons.engine.errors import TooBigError
from duel_lessons.solving import boxes
from duel_lessons.solving.boxes import (
    count_box,
    grundy_histogram,
    grundy_values,
    start_problem,
    sum_rules,
    walsh_hadamard,
    xor_distribution,
)
from duel_lessons.solving.grundy_formulas import FORMULAS, formula_for

from books import all_rules
from brute import Brute

BRUTE_UPTO = 400


def _summable(rules) -> bool:
    try:
        sum_rules(rules)
    except DuelError:
        return False
    return True


#: Every rule set the tests know (tests/books.py) that sums accept, and every Grundy formula's rules.
SUM_BOOKS = list({r.game: r for r in [*filter(_summable, all_rules()), *(f.rules for f in FORMULAS)]}.values())


@pytest.mark.parametrize("formula", FORMULAS, ids=lambda f: f.name)
def test_formula_matches_brute_force(formula) -> None:
    brute = Brute.of(formula.rules)
    wrong = [n for n in range(1, BRUTE_UPTO + 1) if formula.value(n) != brute.grundy(n)]
    assert wrong == []


@pytest.mark.parametrize("formula", FORMULAS, ids=lambda f: f.name)
def test_formula_counts_match_counting_its_values(formula) -> None:
    values = Counter()
    for n in range(1, 2049):
        values[formula.value(n)] += 1
        if n < 70 or n in (255, 256, 257, 1000, 1023, 1024, 2047, 2048):
            assert formula.counts(n) == dict(sorted(values.items())), n


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FORMULAS), st.integers(1, 10**18), st.integers(0, 300))
def test_formula_counts_over_windows_far_out(formula, top: int, width: int) -> None:
    """counts(top) − counts(top − width − 1) counts the values in a window, checked number by number."""
    lo = max(1, top - width)
    window = Counter(formula.value(n) for n in range(lo, top + 1))
    above, below = formula.counts(top), formula.counts(lo - 1)
    difference = {g: above.get(g, 0) - below.get(g, 0) for g in set(above) | set(below)}
    assert {g: c for g, c in difference.items() if c} == dict(window)


def test_every_formula_has_a_proof_and_is_found_by_rules() -> None:
    for formula in FORMULAS:
        assert "∎" in formula.proof and formula.statement
        assert formula_for(formula.rules) is formula
        assert formula_for(formula.rules.variant(title="renamed")) is formula  # found by the game, not the name


def test_walsh_hadamard_is_its_own_inverse_up_to_length() -> None:
    rng = random.Random(4)
    for size in (1, 2, 8, 64):
        values = [rng.randrange(-50, 50) for _ in range(size)]
        assert walsh_hadamard(walsh_hadamard(values)) == [size * v for v in values]
    with pytest.raises(DuelError):
        walsh_hadamard([1, 2, 3])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), min_size=1, max_size=6), min_size=1, max_size=4))
def test_xor_distribution_against_enumeration(histograms) -> None:
    expected = Counter()
    for values in itertools.product(*[range(len(h)) for h in histograms]):
        weight = 1
        for h, v in zip(histograms, values, strict=True):
            weight *= h[v]
        expected[reduce(xor, values, 0)] += weight
    got = xor_distribution(histograms)
    assert {x: c for x, c in enumerate(got) if c} == {x: c for x, c in expected.items() if c}


def brute_box(books, axes) -> list[tuple[int, ...]]:
    """P-positions of a box in its order, by brute force: XOR of brute-force Grundy values at every position."""
    brutes = [Brute.of(b) for b in books]
    return [
        point
        for point in itertools.product(*axes)
        if reduce(xor, (br.grundy(n) for br, n in zip(brutes, point, strict=True)), 0) == 0
    ]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(SUM_BOOKS), min_size=1, max_size=3),
    st.data(),
)
def test_count_box_against_brute_force(books, data) -> None:
    axes = []
    for _ in books:
        lo = data.draw(st.integers(1, 60))
        hi = data.draw(st.integers(lo - 1, 70))
        step = data.draw(st.integers(1, 3))
        axes.append(range(lo, hi + 1, step))
    counted = count_box(books, axes, every_number=True)  # every position, not only legal starts
    expected = brute_box(books, axes)
    total = len(list(itertools.product(*axes)))
    assert (counted.total, counted.p_count, counted.n_count) == (total, len(expected), total - len(expected))
    assert counted.p_positions() == expected


def test_boxes_given_as_lists_or_generators() -> None:
    as_range = count_box("divisor-duel", [range(1, 30), range(5, 25)])
    as_list = count_box("divisor-duel", [list(range(1, 30)), (n for n in range(5, 25))])
    assert (as_range.p_count, as_range.total) == (as_list.p_count, as_list.total)
    assert as_range.p_positions() == as_list.p_positions()


def test_huge_boxes_with_formulas_are_exact() -> None:
    """10**54 positions: checked against the product of the per-axis histograms (an independent sum)."""
    rules = DIVISOR_DUEL.variant(allow_one=True)
    top = 10**18
    box = count_box(rules, [range(1, top + 1)] * 3)
    assert box.total == top**3
    histogram = grundy_histogram(rules, range(1, top + 1))
    p = sum(
        histogram[a] * histogram[b] * histogram[a ^ b]
        for a in range(len(histogram))
        for b in range(len(histogram))
        if a ^ b < len(histogram)
    )
    assert box.p_count == p


def test_a_huge_box_with_a_rule_book_per_axis_against_a_count_by_hand() -> None:
    """Three axes of 1 .. 2^59 (about 1.9 * 10**53 positions), two rule books, counted by hand.

    Axes 1 and 2 allow subtracting 1: g(n) = v2(n), and of 1 .. 2^k exactly c_g = 2^(k-1-g) numbers have
    value g < k, one (2^k) has value k.  Axis 3 subtracts an odd divisor or 1: g(n) = 1 for even n, 0 for
    odd n, 2^(k-1) numbers each.  a + b + c is P when v2(a) XOR v2(b) = g(c), so the count is
    2^(k-1) * (E + X): E pairs with equal values, sum of c_g^2 = (4^k - 1)/3 + 1, and X pairs whose values
    XOR to 1, sum of 2 c_2j c_2j+1 = 2^(2k-2) + 2^(2k-6) + ... + 2^8 + 2^4 + 2 for odd k
    (k = 59: the last pair is c_58 c_59 = 1 * 1).
    """
    k = 59
    with_one = DIVISOR_DUEL.variant(allow_one=True)
    odd_or_one = DIVISOR_DUEL.variant(divisors="odd", allow_one=True)
    axis = range(1, 2**k + 1)
    box = count_box([with_one, with_one, odd_or_one], [axis, axis, axis])
    equal = (4**k - 1) // 3 + 1
    xor_one = sum(2 ** (2 * k - 2 - 4 * j) for j in range((k - 3) // 2 + 1)) + 2
    assert box.total == 2 ** (3 * k)
    assert box.p_count == 2 ** (k - 1) * (equal + xor_one)
    assert box.n_count == 2 ** (3 * k) - box.p_count
    with pytest.raises(DuelError, match="at most 1,000,000 positions"):
        box.p_positions()


def test_listing_a_box_near_the_top_of_the_formulas() -> None:
    """A small box of numbers near 10**18 is listed from the formula, one number at a time: with 1 allowed,
    a + b is P when v2(a) = v2(b); of 10**18 - 3 .. 10**18 the values are 0, 1, 0, 18 (10**18 = 2^18 5^18)."""
    top = 10**18
    box = count_box(DIVISOR_DUEL.variant(allow_one=True), [range(top - 3, top + 1)] * 2)
    odd = (top - 3, top - 1)
    assert box.p_positions() == sorted([(a, b) for a in odd for b in odd] + [(top - 2, top - 2), (top, top)])
    assert box.p_count == 6


def test_clear_refusals() -> None:
    with pytest.raises(TooBigError, match="no proved formula"):
        count_box(DIVISOR_DUEL, [range(1, 10**12)])
    with pytest.raises(DuelError, match="misère"):
        count_box(DIVISOR_DUEL.variant(last_mover_wins=False), [range(1, 10)])
    with pytest.raises(TooBigError, match="as a range"):
        count_box(DIVISOR_DUEL, [itertools.count(1)])
    with pytest.raises(DuelError, match="one range per component"):
        count_box([DIVISOR_DUEL, DIVISOR_DUEL], [range(1, 5)])
    with pytest.raises(DuelError, match="reaching loses"):
        count_box(DIVISOR_DUEL.variant(allow_one=True, lose_on_reaching="one"), [range(1, 5)])
    with pytest.raises(DuelError, match="from 1 to 10"):
        count_box(DIVISOR_DUEL.variant(allow_one=True), [range(0, 5)])


def test_grundy_values_agree_with_the_table_where_the_game_ends() -> None:
    """One convention: Factor Duel's 1 (reaching it loses) has the table's value 1 in sums too."""
    assert grundy_histogram(FACTOR_DUEL, range(1, 2)) == [0, 1]
    assert grundy_histogram(FACTOR_DUEL, range(2, 3)) == [1]  # 2 is prime: the game is over, value 0


@pytest.mark.parametrize("rules", SUM_BOOKS, ids=lambda r: r.name)
def test_count_box_refuses_exactly_what_new_sum_refuses(rules) -> None:
    """Issue 18: count_box took 1 in Factor Duel while new_sum refused it; both now judge each start alike."""
    from duel_lessons.play.sums import new_sum

    for n in range(1, 40):
        try:
            new_sum([n, n], rules)
            legal = True
        except DuelError:
            legal = False
        try:
            count_box(rules, [[n], range(n, n + 1)])
            counted = True
        except DuelError:
            counted = False
        assert counted == legal, (rules.name, n)
    assert count_box(rules, [range(1, 4)], every_number=True).total == 3


# -- exact refusals, limits at their edges, exact small results (each written by hand) ----------------------


def _message(call) -> str:
    with pytest.raises(DuelError) as caught:
        call()
    return str(caught.value)


def test_refusals_name_the_right_axis_in_full() -> None:
    assert _message(lambda: count_box(DIVISOR_DUEL, [range(1, 3), range(1, 10**12)])) == (
        "Axis 2 goes up to 999,999,999,999: Divisor Duel has no proved formula for its Grundy values that can "
        "count them, and the solver's tables stop at 10,000,000."
    )
    assert _message(lambda: count_box(FACTOR_DUEL, [range(3, 9), [7, 1, 5]])) == (
        "Axis 2 holds 1: 1 is too small to start Factor Duel. Factor Duel starts from a number greater than 2 "
        "(book 003)."
    )
    assert _message(lambda: count_box(DIVISOR_DUEL, [range(1, 5), range(0, 5)])) == (
        "Axis 2 runs from 0 to 4; components lie from 1 to 10**18."
    )
    assert _message(lambda: grundy_histogram(DIVISOR_DUEL, [3, 0])) == (
        "Axis 1 holds 0: components are positive whole numbers."
    )
    assert _message(lambda: grundy_values(DIVISOR_DUEL, [3, 0, 5])) == (
        "Axis 1 holds numbers from 0 to 5; components lie from 1 to 10**18."
    )
    assert _message(lambda: grundy_values(DIVISOR_DUEL, [4, 10**18 + 1, 6])).startswith("Axis 1 holds numbers from 4")
    for numbers in ([10**7 + 1], range(10**7 + 1, 10**7 + 3)):
        assert _message(lambda n=numbers: grundy_values(DIVISOR_DUEL, n, 1)).startswith("Axis 2 goes up to 10,000,00")
    assert _message(lambda: walsh_hadamard([1, 2, 3])) == "The transform needs a length that is a power of 2, not 3."


def test_start_rules_are_checked_on_every_number_of_an_axis() -> None:
    assert start_problem(FACTOR_DUEL, range(1, 10)) == (
        "Axis 1 holds 1: 1 is too small to start Factor Duel. Factor Duel starts from a number greater than 2 "
        "(book 003)."
    )
    assert start_problem(FACTOR_DUEL, [7, 1, 5], 2) is not None and start_problem(FACTOR_DUEL, [7, 3, 5]) is None
    division = get_rules("division-duel")
    assert _message(lambda: count_box(division, [range(4, 8)])).startswith("Axis 1 holds 5: 5 is prime")
    passing = DIVISOR_DUEL.variant(when_stuck="pass")  # a prime has no allowed divisor: no one could move
    assert _message(lambda: count_box(passing, [range(4, 8)])).startswith("Axis 1 holds 5: 5 has no allowed divisors")
    assert count_box(passing, [range(4, 8)], every_number=True).total == 4


def test_rules_that_reach_a_losing_prime_are_refused() -> None:
    with pytest.raises(DuelError, match="reaching loses"):
        sum_rules(DIVISOR_DUEL.variant(lose_on_reaching="prime"))


def test_limits_hold_exactly_at_their_edges(monkeypatch) -> None:
    monkeypatch.setattr(boxes, "TABLE_LIMIT", 100)
    assert count_box(DIVISOR_DUEL, [[1] * 100]).total == 100  # a listed axis of exactly the limit
    assert count_box(DIVISOR_DUEL, [[1] * 99]).total == 99
    assert _message(lambda: count_box(DIVISOR_DUEL, [[1] * 101])) == (
        "Axis 1 lists more than 100 numbers; give a huge axis as a range, for example range(1, 10**12 + 1), "
        "so that it never has to be listed."
    )
    assert _message(lambda: grundy_histogram(DIVISOR_DUEL, [1] * 101, 1)).startswith("Axis 2 lists more than 100")
    assert count_box(DIVISOR_DUEL, [range(1, 101)]).total == 100  # a table up to the limit itself
    assert _message(lambda: count_box(DIVISOR_DUEL, [range(1, 102)])).startswith("Axis 1 goes up to 101:")
    with_one = DIVISOR_DUEL.variant(allow_one=True)
    far = 10**17
    assert grundy_values(with_one, range(far, far + 100)).size == 100
    assert _message(lambda: grundy_values(with_one, range(far, far + 101), 1)) == (
        "Axis 2 holds 101 numbers: Grundy values are listed for at most 100 numbers at once (grundy_histogram "
        "counts them on an axis of any length)."
    )

    monkeypatch.setattr(boxes, "START_LIST_LIMIT", 10)
    division = get_rules("division-duel")
    assert start_problem(division, [4] * 10) is None
    assert start_problem(division, [4] * 11) == (
        "Axis 1 lists 11 numbers: Division Duel has a start rule (Division Duel starts from a composite number "
        "(book 001).), checked on at most 10 listed numbers."
    )

    monkeypatch.setattr(boxes, "LIST_LIMIT", 16)
    assert len(count_box(DIVISOR_DUEL, [range(1, 5)] * 2).p_positions()) == 10  # g = 0, 0, 0, 1: 3 * 3 + 1
    assert "at most 16 positions" in _message(lambda: count_box(DIVISOR_DUEL, [range(1, 6), range(1, 5)]).p_positions())


def test_listing_limit_argument() -> None:
    box = count_box(DIVISOR_DUEL, [range(3, 7), range(4, 6)])  # g(3..6) = 0, 1, 0, 2 and g(4, 5) = 1, 0
    assert box.p_positions() == [(3, 5), (4, 4), (5, 5)]
    assert box.p_positions(1) == [(3, 5)] and box.p_positions(0) == [] and box.p_positions(9) == box.p_positions()
    for bad in (-1, 1.5, True, "3"):
        assert "whole number 0 or more" in _message(lambda b=bad: box.p_positions(b))


def test_small_results_written_by_hand() -> None:
    assert xor_distribution([]) == [1]  # one way to choose nothing, XOR 0
    assert xor_distribution([[3], [2]]) == [6]
    assert xor_distribution([[1, 1], [1, 1]]) == [2, 2]
    assert xor_distribution([[0, 1, 0, 1], [1]]) == [0, 1, 0, 1]
    with_one = DIVISOR_DUEL.variant(allow_one=True)
    assert grundy_histogram(with_one, range(1, 9)) == [4, 2, 1, 1]  # v2 of 1..8: 0 1 0 2 0 1 0 3
    assert grundy_histogram(with_one, [5000, 3]) == [1, 0, 0, 1]  # v2(5000) = 3; the largest is not last
    assert grundy_histogram(with_one, range(8, 0, -1)[::-1]) == [4, 2, 1, 1]
    down = count_box(with_one, [range(8, 0, -1)])  # a range counting down holds the same numbers
    assert (down.total, down.p_count, down.p_positions()) == (8, 4, [(1,), (3,), (5,), (7,)])
