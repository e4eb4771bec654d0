"""Cheap answers: factorising only as far as the answer needs, and the oracle's quick is_p, against
independent references (sympy's factorisation, a brute force over the game engine, the solver's table).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duel_lessons.engine import numbers
from duel_lessons.engine.errors import PositionError
from duel_lessons.engine.game import GameState
from duel_lessons.play.players import make_player
from duel_lessons.solving.closed_forms import all_closed_forms
from duel_lessons.solving.oracle import Oracle, oracle
from duel_lessons.solving.tables import tabulate

from books import all_rules, shipped_books
from brute import Brute

P1, P2 = 1_000_003, 1_000_033  # the two primes just above 10**6 (trial division stops at 10**6)
BIG_P, BIG_Q = 999_000_011, 1_000_900_009  # sympy.nextprime(999_000_000), sympy.nextprime(1_000_900_000)

#: Numbers where the shortcuts could go wrong: every prime factor above 10**6, squares of such primes,
#: strong pseudoprimes to small bases, a Carmichael number, the edges of 10**18.
HARD = [
    P1 * P2, P1 * P1, 2 * P1 * P2, 997 * P1 * P2, 999_983 * P1 * 991, BIG_P * BIG_Q, 2**3 * BIG_P, P1**2 * 997,
    999_983, 999_983**2, 1009 * 1009, 1013 * P1, 561, 3215031751, 2152302898747, 3474749660383,
    341550071728321, 10**18, 10**18 - 1, 2**59,
    999_999_000_001, 999_999_999_999_999_989,
]  # fmt: skip


@pytest.fixture(params=["flint", "rho"])
def splitter(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each test below runs with FLINT's factoriser (a dependency) and with the engine's own Pollard rho
    (its fallback where python-flint is missing, as on Pyodide)."""
    numbers._smallest_factor.cache_clear()
    if request.param == "rho":
        monkeypatch.setattr(numbers, "_flint", lambda: None)
    else:
        assert numbers._flint() is not None, "python-flint is a dependency: pip install -e '.[dev]'"
    yield request.param
    numbers._smallest_factor.cache_clear()


def test_the_big_primes_are_prime() -> None:
    for p in (P1, P2, BIG_P, BIG_Q, 999_983):
        assert sympy.isprime(p)
    assert sympy.nextprime(10**6) == P1 and sympy.nextprime(999_000_000) == BIG_P


@pytest.mark.parametrize("n", HARD)
def test_factors_of_hard_numbers_agree_with_sympy(n: int, splitter: str) -> None:
    factors = sympy.factorint(n)
    assert numbers.omega(n) == sum(factors.values())
    assert numbers.smallest_prime_factor(n) == min(factors)
    odd = [p for p in factors if p != 2]
    assert numbers.smallest_prime_factor(n, skip_two=True) == (min(odd) if odd else None)
    assert numbers.is_prime(n) == sympy.isprime(n)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=1, max_value=numbers.MAX_NUMBER))
def test_factors_of_any_number_agree_with_sympy(n: int) -> None:
    factors = sympy.factorint(n)
    assert numbers.omega(n) == sum(factors.values())
    assert numbers.is_prime(n) == sympy.isprime(n)
    if n > 1:
        assert numbers.smallest_prime_factor(n) == min(factors)


# The fixture only chooses the splitter, the same for every example.
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=st.integers(min_value=10**6, max_value=10**9), b=st.integers(min_value=10**6, max_value=10**9))
def test_products_of_two_large_primes_are_split(a: int, b: int, splitter: str) -> None:
    p, q = sorted((int(sympy.nextprime(a)), int(sympy.nextprime(b))))
    assert numbers.omega(p * q) == 2
    assert numbers.smallest_prime_factor(p * q) == p
    assert numbers._split(p * q) in (p, q)


def test_small_numbers_by_brute_force() -> None:
    """Omega and the smallest prime factor of 1 .. 5000 by plain trial division, written out here."""
    for n in range(1, 5001):
        rest, count, first = n, 0, None
        for d in range(2, n + 1):
            while rest % d == 0:
                rest //= d
                count += 1
                first = first or d
        assert numbers.omega(n) == count, n
        assert numbers.smallest_prime_factor(n) == first, n
        assert numbers._is_probable_prime(n) == (n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1))), n


def test_miller_rabin_refuses_strong_pseudoprimes() -> None:
    # The least strong pseudoprimes to the bases 2; 2, 3; 2, 3, 5; ...; 2 .. 23 (all composite).
    for n in (2047, 1373653, 25326001, 3215031751, 2152302898747, 3474749660383, 341550071728321,
              3825123056546413051):  # fmt: skip
        assert not numbers._is_probable_prime(n), n
        assert not sympy.isprime(n)
    assert numbers._is_probable_prime(2**61 - 1) and not numbers._is_probable_prime(2**61 + 1)


# -- the perfect move: every book and shipped variant, against brute force --------------------------


@pytest.mark.parametrize("rules", [form.rules for form in all_closed_forms()], ids=lambda r: r.name)
def test_the_perfect_move_above_the_table_wins_where_brute_force_says_it_can(rules: object) -> None:
    """With table_size 0 every move comes from the proved form and the cheap factorisation."""
    brute = Brute.of(rules)  # type: ignore[arg-type]
    ask = oracle(rules, table_size=0)  # type: ignore[arg-type]
    for n in range(2, 400):
        state = GameState(rules, n)  # type: ignore[arg-type]
        if state.is_over or not state.legal_moves:
            assert ask.best_move(n) is None, n
            continue
        move = ask.best_move(n)
        assert move in state.legal_moves, n
        if brute.wins(n):
            assert not brute.wins(state.play(move).number), (n, move)


@pytest.mark.parametrize("rules", shipped_books(), ids=lambda r: r.name)
def test_the_perfect_move_at_hard_numbers_is_legal(rules: object) -> None:
    player = make_player("perfect")
    for n in HARD:
        state = GameState(rules, n)  # type: ignore[arg-type]
        if state.is_over or not state.rules.divisors_of(n):
            continue
        move = player(state)
        assert state.rules.allows(move, n), (n, move)
        if oracle(rules).is_p(state.rules.result(n, move)) is False:  # type: ignore[arg-type]
            assert oracle(rules).is_p(n), (n, move)  # a move to an N-position only from a P-position


# -- the oracle's quick is_p -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", all_rules()[:12], ids=lambda r: r.name)
def test_the_quick_is_p_agrees_with_the_table_and_brute_force(rules: object) -> None:
    ask = Oracle(rules, table_size=2000)  # type: ignore[arg-type]  # a fresh oracle: its quick path starts empty
    brute = Brute.of(rules)  # type: ignore[arg-type]
    assert ask.is_p(1) == (not brute.wins(1))  # builds the first table, of 1024
    for n in range(1, 400):
        assert ask.is_p(n) == (not brute.wins(n)), n
    table = tabulate(rules, 2000)  # type: ignore[arg-type]
    for n in (1500, 1024, 1025, 2000, 777):
        assert ask.is_p(n) == table.is_p(n), n


def test_above_the_table_the_quick_is_p_is_the_proved_rule() -> None:
    ask = Oracle(oracle("divisor-duel").rules, table_size=100, form=oracle("divisor-duel").form)
    for n in (101, 128, 256, 2**58, 2**59, 3 * 2**40, 10**18, 10**18 - 1):
        expected = n % 2 == 1 or (n & (n - 1) == 0 and (n.bit_length() - 1) % 2 == 1)  # odd, or 2**odd
        assert ask.is_p(n) == expected, n
    assert ask.is_p(np.int64(2**59)) is True and ask.is_p(np.int64(100)) is False  # numpy ints: the long way


@pytest.mark.parametrize("bad", [0, -1, 10**18 + 1, True, 2.0, "7"])
def test_the_quick_is_p_refuses_what_the_long_way_refuses(bad: object) -> None:
    ask = oracle("divisor-duel")
    ask.is_p(500)  # the quick path holds a table now
    with pytest.raises(PositionError):
        ask.is_p(bad)  # type: ignore[arg-type]
