"""Divisors and primality by trial division below TRIAL_BELOW agree with sympy (which the engine uses above)."""

from __future__ import annotations

import sympy
from hypothesis import given
from hypothesis import strategies as st

from duel_lessons.engine.numbers import TRIAL_BELOW, divisors, is_prime


@given(st.integers(min_value=1, max_value=TRIAL_BELOW - 1))
def test_trial_division_agrees_with_sympy(n: int) -> None:
    assert divisors(n) == [int(d) for d in sympy.divisors(n)]
    assert is_prime(n) == bool(sympy.isprime(n))


def test_the_edges_of_trial_division() -> None:
    for n in [1, 2, 3, 4, 9, 25, 997 * 997, 999_983, TRIAL_BELOW - 1, TRIAL_BELOW, TRIAL_BELOW + 3]:
        assert divisors(n) == [int(d) for d in sympy.divisors(n)], n
        assert is_prime(n) == bool(sympy.isprime(n)), n
