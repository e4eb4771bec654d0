"""Pattern tools checked against brute force.

Periodicity and "is a function of X" are compared with naive quadratic
definitions on random sequences (hypothesis); the facts about the books are
compared with outcomes from the game engine's brute force (tests/brute.py),
not with the solver's table that the pattern code reads.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from duel_lessons import get_rules
from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.rules import RULEBOOKS
from duel_lessons.solving.patterns import (
    ConjectureReport,
    PatternError,
    PatternReport,
    big_omega,
    check_conjecture,
    check_patterns,
    features,
    find_period,
    first_clash,
    two_adic,
)

from brute import Brute

BOOKS = sorted(RULEBOOKS)
MISERE = get_rules("divisor-duel").variant(last_mover_wins=False)
UPTO = 150  # brute force over the engine is slow beyond a few hundred


@cache
def brute(rules: str) -> Brute:
    return Brute.of(rules)


def brute_outcomes(rules: str, upto: int = UPTO) -> list[str]:
    """ "P"/"N" for n = 1..upto, by playing out every line in the engine."""
    b = brute(rules)
    return [b.outcome(n) for n in range(1, upto + 1)]


# -- naive definitions -------------------------------------------------------------------------


def naive_period(a: list[int], min_periods: int = 3, min_fraction: float = 0.5) -> tuple[int, int] | None:
    """(period, start index) by the definition: smallest p whose repeating tail is long enough."""
    size = len(a)
    for p in range(1, size // min_periods + 1):
        start = 0
        for i in range(size - p):
            if a[i] != a[i + p]:
                start = i + 1
        tail = size - start
        if tail >= min_periods * p and tail >= math.ceil(min_fraction * size):
            return p, start
    return None


def naive_clash(values: list[int], feature: list[int]) -> tuple[int, int] | None:
    """The pair (m, n) (1-based) with feature(m) == feature(n), different values, smallest n then smallest m."""
    for n in range(len(values)):
        for m in range(n):
            if feature[m] == feature[n] and values[m] != values[n]:
                return m + 1, n + 1
    return None


# -- periodicity -------------------------------------------------------------------------------


@st.composite
def eventually_periodic(draw: st.DrawFn) -> tuple[list[int], int, int]:
    """A sequence with a random pre-period and period (values 0..2), and those two numbers."""
    pre = draw(st.lists(st.integers(0, 2), max_size=40))
    block = draw(st.lists(st.integers(0, 2), min_size=1, max_size=12))
    repeats = draw(st.integers(0, 30))
    extra = draw(st.integers(0, len(block) - 1))
    return pre + block * repeats + block[:extra], len(pre), len(block)


@settings(max_examples=300, deadline=None)
@given(eventually_periodic(), st.integers(2, 5), st.sampled_from([0.0, 0.5, 0.8]))
def test_find_period_matches_the_definition(case: tuple[list[int], int, int], k: int, fraction: float) -> None:
    sequence, pre, period = case
    found = find_period(sequence, min_periods=k, min_fraction=fraction)
    expected = naive_period(sequence, k, fraction)
    if expected is None:
        assert found is None
    else:
        assert found is not None
        assert (found.period, found.start - 1, found.upto) == (*expected, len(sequence))
    # The period it was built with, seen often enough, qualifies: it is found, or a smaller one is.
    tail = len(sequence) - pre
    if tail >= k * period and tail >= math.ceil(fraction * len(sequence)):
        assert found is not None and found.period <= period
        assert found.period < period or found.start - 1 <= pre


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 1), max_size=200), st.integers(2, 4))
def test_find_period_on_any_sequence(sequence: list[int], k: int) -> None:
    found = find_period(sequence, min_periods=k)
    expected = naive_period(sequence, k)
    assert (None if found is None else (found.period, found.start - 1)) == expected


def test_find_period_long_sequences() -> None:
    rng = np.random.default_rng(7)
    block = rng.integers(0, 2, 37)
    a = np.concatenate([rng.integers(0, 2, 20_000), np.tile(block, 2000)])
    found = find_period(a)
    assert found is not None and found.period == 37 and found.start <= 20_001
    assert find_period(rng.integers(0, 2, 50_000)) is None


# -- dependence on a feature ----------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_first_clash_matches_the_definition(data: st.DataObject) -> None:
    size = data.draw(st.integers(0, 80))
    values = data.draw(st.lists(st.integers(0, 2), min_size=size, max_size=size))
    feature = data.draw(st.lists(st.integers(-3, 10**6), min_size=size, max_size=size))
    small = [abs(x) % 5 for x in feature]
    for f in (feature, small):
        assert first_clash(np.array(values, dtype=np.int64), np.array(f, dtype=np.int64)) == naive_clash(values, f)


def test_features_against_sympy() -> None:
    upto = 3000
    omega = big_omega(upto)
    v2 = two_adic(upto)
    found = features(upto, max_mod=7)
    for n in range(1, upto + 1):
        factors = sympy.factorint(n)
        assert omega[n] == sum(factors.values()), n
        assert v2[n] == factors.get(2, 0), n
        assert found["odd_part"][1][n - 1] == n // 2 ** factors.get(2, 0)
        assert found["parity"][1][n - 1] == n % 2
        assert found["mod 7"][1][n - 1] == n % 7


# -- the books: facts computed from the engine's brute force ---------------------------------------


def expected_clash(rules: str, feature: list[int]) -> tuple[int, int] | None:
    return naive_clash([0 if o == "P" else 1 for o in brute_outcomes(rules)], feature)


@pytest.mark.parametrize("rules", BOOKS)
def test_dependence_checks_agree_with_brute_force(rules: str) -> None:
    report = check_patterns(rules, UPTO, structures=["parity", "v2", "odd_part", "omega", "mod"], sequences=["P/N"])
    n = range(1, UPTO + 1)
    by_feature = {
        "function of the parity of n": [k % 2 for k in n],
        "function of v2(n)": [sympy.factorint(k).get(2, 0) for k in n],
        "function of the odd part of n": [k // 2 ** sympy.factorint(k).get(2, 0) for k in n],
        "function of Ω(n)": [sum(sympy.factorint(k).values()) for k in n],
        **{f"function of n mod {m}": [k % m for k in n] for m in range(3, 13)},
    }
    findings = {f.structure: f for f in report.findings}
    assert set(findings) == set(by_feature)
    for structure, feature in by_feature.items():
        clash = expected_clash(rules, feature)
        assert findings[structure].clash == clash, (rules, structure)
        assert findings[structure].holds == (clash is None)


def test_divisor_duel_parity_counterexample_is_2_and_4() -> None:
    outcomes = brute_outcomes("divisor-duel", 10)
    assert outcomes[1] == "P" and outcomes[3] == "N"  # 2 is P, 4 is N: both even
    (finding,) = check_patterns("divisor-duel", 1000, structures=["parity"], sequences=["P/N"]).findings
    assert finding.clash == expected_clash("divisor-duel", [k % 2 for k in range(1, UPTO + 1)]) == (2, 4)
    assert "2 and 4 are both even, but 2 is P and 4 is N" in finding.detail


def test_division_duel_outcome_is_a_function_of_big_omega() -> None:
    outcomes = brute_outcomes("division-duel")
    by_omega: dict[int, set[str]] = {}
    for n, outcome in enumerate(outcomes, start=1):
        by_omega.setdefault(sum(sympy.factorint(n).values()), set()).add(outcome)
    assert all(len(seen) == 1 for seen in by_omega.values())  # the fact, from the engine
    report = check_patterns("division-duel", 10_000, structures=["omega"], sequences=["P/N"])
    assert [f.holds for f in report.findings] == [True]


@pytest.mark.parametrize("rules", BOOKS)
def test_periodicity_of_the_books_agrees_with_brute_force(rules: str) -> None:
    outcomes = [0 if o == "P" else 1 for o in brute_outcomes(rules)]
    grundy = [brute(rules).grundy(n) for n in range(1, UPTO + 1)]
    report = check_patterns(rules, UPTO, structures=["period"])
    findings = {f.sequence: f for f in report.findings}
    for sequence, values in (("P/N", outcomes), ("Grundy", grundy)):
        expected = naive_period(values)
        period = findings[sequence].period
        assert (None if period is None else (period.period, period.start - 1)) == expected, (rules, sequence)


def test_misere_has_no_grundy_checks() -> None:
    report = check_patterns(MISERE, 100, structures=["parity"])
    assert [f.sequence for f in report.findings] == ["P/N"]
    assert "no Grundy values" in report.notes[0]


# -- a student's conjecture --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", BOOKS)
def test_a_true_guess_holds_and_a_wrong_one_fails_where_it_is_wrong(rules: str) -> None:
    truth = brute_outcomes(rules)
    report = check_conjecture(rules, lambda n: truth[n - 1] == "P", UPTO)
    assert report.holds and report.counterexample is None and "holds up to 150" in str(report)
    for wrong_at in (1, 37, UPTO):
        guess = {n: truth[n - 1] for n in range(1, UPTO + 1)}
        guess[wrong_at] = "N" if guess[wrong_at] == "P" else "P"
        report = check_conjecture(rules, lambda n, g=guess: g[n], UPTO)  # "P"/"N" answers work too
        assert not report.holds
        assert report.counterexample == (wrong_at, truth[wrong_at - 1], guess[wrong_at])


def test_a_grundy_guess() -> None:
    b = brute("factor-duel")
    values = [b.grundy(n) for n in range(1, 101)]
    assert check_conjecture("factor-duel", lambda n: values[n - 1], 100, sequence="Grundy").holds
    report = check_conjecture("factor-duel", lambda n: 0, 100, sequence="Grundy")
    first = next(n for n in range(1, 101) if values[n - 1] != 0)
    assert report.counterexample == (first, values[first - 1], 0)


def test_the_guess_runs_with_a_guard() -> None:
    truth = brute_outcomes("divisor-duel")

    def breaks(n: int) -> bool:
        return 1 / (n - 7) != 0 and truth[n - 1] == "P"

    report = check_conjecture("divisor-duel", breaks, 100)
    assert not report.holds and report.checked == 6
    assert "ZeroDivisionError" in str(report) and "n = 7" in str(report)
    report = check_conjecture("divisor-duel", lambda n: 3, 100)
    assert "returned 3 at n = 1" in str(report)
    report = check_conjecture("factor-duel", lambda n: True, 100, sequence="Grundy")
    assert "returned True" in str(report)
    slow = check_conjecture("divisor-duel", lambda n: truth[n - 1] == "P", 100, time_limit=0)
    assert not slow.holds and "stopped after 0 s" in str(slow) and slow.checked == 1


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: check_conjecture("divisor-duel", "n % 2 == 1", 10), "function"),  # text is never evaluated
        (lambda: check_conjecture("divisor-duel", print, 0), "N must be"),
        (lambda: check_conjecture(MISERE, lambda n: 0, 10, sequence="Grundy"), "no Grundy"),
        (lambda: check_conjecture("divisor-duel", bool, 10, sequence="nimbers"), "sequence"),
        (lambda: check_patterns("divisor-duel", 10, structures=["primes"]), "primes"),
        (lambda: check_patterns("divisor-duel", 10, sequences=["remoteness"]), "remoteness"),
        (lambda: check_patterns("divisor-duel", 10**7), "10,000,000"),
        (lambda: check_patterns("divisor-duel", "ten"), "ten"),
        (lambda: find_period([1, 2], min_periods=1), "min_periods"),
    ],
)
def test_bad_input_is_named(call: object, words: str) -> None:
    assert callable(call)
    with pytest.raises(PatternError, match=words):
        call()


def test_reports_show_themselves() -> None:
    report = check_patterns("factor-duel", 300, structures=["period", "parity"])
    assert isinstance(report, PatternReport)
    text = str(report)
    assert "Holds for n = 1..300" in text and "repeats with period 2" in text and "Fails" in text
    assert "<li>" in report._repr_html_() and "**Patterns in Factor Duel" in report._repr_markdown_()
    assert repr(report).startswith("<PatternReport 'Factor Duel'")
    guess = check_conjecture("divisor-duel", lambda n: n < 3, 10)
    assert isinstance(guess, ConjectureReport)
    assert "Does not hold" in guess._repr_html_() and "<script" not in guess._repr_html_()


# -- the widget ---------------------------------------------------------------------------------------


def test_pattern_explorer() -> None:
    from duel_lessons.views.patterns import PatternExplorer

    explorer = PatternExplorer("factor-duel", upto=300, structures=["period"])
    explorer.check()
    assert "period 2" in explorer.report_html.value and "Problem" not in explorer.message.value
    explorer.upto_box.value = "１２"  # full-width digits: refused with a message, nothing lost
    assert "Problem" in explorer.message.value
    explorer.upto_box.value = "200"
    for box in explorer.ticks.values():
        box.value = False
    explorer.check()
    assert "Tick at least one" in explorer.message.value
    assert explorer.guess_button.disabled
    explorer.test_guess()
    assert "No guess" in explorer.message.value
    truth = brute_outcomes("divisor-duel")
    guesser = PatternExplorer(get_rules("divisor-duel").variant(divisors="even"), 100, conjecture=lambda n: n % 2 == 1)
    guesser.test_guess()
    assert "Guess about P/N" in guesser.report_html.value
    guesser.rules_box.value = "divisor-duel"
    guesser.conjecture = lambda n: truth[n - 1] == "P"
    guesser.test_guess()
    assert "holds up to 100" in guesser.report_html.value
    labels = [explorer.rules_box.description, explorer.upto_box.description, explorer.check_button.description]
    assert all(labels) and all(box.description for box in explorer.ticks.values())
    bundle = explorer._repr_mimebundle_()
    assert bundle is not None and "PatternExplorer" in bundle["text/plain"]


def test_errors_are_duel_errors() -> None:
    assert issubclass(PatternError, DuelError)
