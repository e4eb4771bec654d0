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

from duel_lessons import DIVISOR_DUEL, FACTOR_DUEL, DuelError
from duel_lessons.engine.errors import TooBigError
from duel_lessons.solving.boxes import count_box, grundy_histogram, sum_rules, walsh_hadamard, xor_distribution
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


def brute_box(books, axes) -> int:
    """P-positions of a box by brute force: XOR of brute-force Grundy values over every position."""
    brutes = [Brute.of(b) for b in books]
    return sum(
        1
        for point in itertools.product(*axes)
        if reduce(xor, (br.grundy(n) for br, n in zip(brutes, point, strict=True)), 0) == 0
    )


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
    assert counted.total == len(list(itertools.product(*axes)))
    assert counted.p_positions == brute_box(books, axes)
    assert counted.p_positions + counted.n_positions == counted.total


def test_boxes_given_as_lists_or_generators() -> None:
    as_range = count_box("divisor-duel", [range(1, 30), range(5, 25)])
    as_list = count_box("divisor-duel", [list(range(1, 30)), (n for n in range(5, 25))])
    assert (as_range.p_positions, as_range.total) == (as_list.p_positions, as_list.total)


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
    assert box.p_positions == p


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
