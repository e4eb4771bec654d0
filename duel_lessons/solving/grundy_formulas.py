"""Proved Grundy-value formulas, with a way to count the n <= N of each value without a table.

Each :class:`GrundyFormula` gives the Grundy value g(n) of a subtraction variant in one line of
arithmetic, its proof, and ``counts(N)``: how many n in 1..N have each Grundy value, computed from
the formula (a few divisions), so boxes of sums far beyond any table (up to 10**18 per axis) are
counted exactly.

Notation: n = 2^k · m with m odd; k = v2(n) is the exponent of 2 in n.

>>> from duel_lessons.engine.rules import get_rules
>>> f = formula_for(get_rules("divisor-duel").variant(allow_one=True))
>>> [f.value(n) for n in range(1, 9)]
[0, 1, 0, 2, 0, 1, 0, 3]
>>> f.counts(8)
{0: 4, 1: 2, 2: 1, 3: 1}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from duel_lessons.engine.numbers import is_power_of_two, v2
from duel_lessons.engine.rules import Family, Game, Rules, get_rules


@dataclass(frozen=True)
class GrundyFormula:
    """A proved formula for the Grundy value of every n under one rule set, and counts of each value."""

    name: str
    divisors: Family
    allow_one: bool
    statement: str
    proof: str
    value: Callable[[int], int]
    counts: Callable[[int], dict[int, int]]

    @property
    def key(self) -> Game:
        """The game it solves: Divisor Duel's subtraction, normal play, with these divisors."""
        return Game(move="subtract", divisors=self.divisors, allow_one=self.allow_one)

    @property
    def rules(self) -> Rules:
        """The variant of Divisor Duel (book 000) that it solves."""
        book = get_rules("divisor-duel")
        if self.divisors != "all" and self.allow_one:
            return book.variant(divisors=self.divisors, allow_one=True)
        if self.divisors != "all":
            return book.variant(divisors=self.divisors)
        return book.variant(allow_one=self.allow_one)

    def _repr_markdown_(self) -> str:
        return f"**{self.name}.** {self.statement}\n\n{self.proof}"


# -- counting helpers: how many n in 1..N have each value ----------------------------------------


def _v2_counts(upto: int) -> dict[int, int]:
    """{k: how many n in 1..upto have v2(n) = k}: those divisible by 2^k but not by 2^(k+1)."""
    counts: dict[int, int] = {}
    k = 0
    while upto >> k:
        counts[k] = (upto >> k) - (upto >> (k + 1))
        k += 1
    return {k: c for k, c in counts.items() if c}


def _powers_of_two(lo: int, upto: int) -> int:
    """How many powers of 2 (1, 2, 4, ...) lie in lo..upto."""
    return sum(1 for k in range(upto.bit_length() + 1) if lo <= 1 << k <= upto)


def _drop_zeros(counts: dict[int, int]) -> dict[int, int]:
    return {g: c for g, c in sorted(counts.items()) if c}


# -- the formulas ----------------------------------------------------------------------------------


def _all_or_even_with_one(upto: int) -> dict[int, int]:
    return _v2_counts(upto)


_V2_PROOF = r"""
**Claim.** g(n) = v2(n), the exponent of 2 in n.

*Proof, by strong induction.* g(1) = 0 = v2(1): there is no move. Let n = 2^k · m with m odd, and
suppose the claim holds below n. Look at a move n → n − d, where d divides n and d < n.

- If v2(d) = j < k, then n − d = 2^j (2^(k−j) m − d/2^j), and the bracket is odd, so v2(n − d) = j.
- If v2(d) = k, then d = 2^k m′ with m′ odd and m′ < m, so n − d = 2^k (m − m′) with m − m′ even:
  v2(n − d) ≥ k + 1.

(v2(d) > k is impossible, since d divides n.) So by induction every option has Grundy value
v2(n − d) ≠ k. And every value j < k occurs: d = 2^j is an allowed divisor (d = 1 for j = 0, which
is why 1 must be allowed; d = 2^j is even for j ≥ 1, so the proof also covers "an even divisor
or 1") and gives v2(n − 2^j) = j.
The smallest value missing among the options is therefore k: g(n) = k. ∎
"""

_EVEN_PROOF = r"""
**Claim.** g(n) = max(v2(n) − 1, 0).

*Proof, by strong induction.* An odd n has no even divisor, so no move: g = 0. Let n = 2^k · m with
k ≥ 1 and m odd. A move subtracts an even d with d | n, d < n; write j = v2(d), so 1 ≤ j ≤ k.

- If j < k, then v2(n − d) = j (as in the proof for d = 1 allowed), so by induction the option has
  value j − 1, and d = 2^j gives each of the values 0, 1, …, k − 2.
- If j = k, then v2(n − d) ≥ k + 1, so the option has value at least k.

No option has value k − 1, and every smaller value occurs, so g(n) = k − 1. ∎
"""

_ODD_ONE_PROOF = r"""
**Claim.** g(n) = 1 if n is even, 0 if n is odd.

*Proof.* Every allowed d (1 or an odd divisor) is odd. From an odd n every move leaves an even
number; from an even n every move leaves an odd number. So, by strong induction, every option of an
odd n has value 1 (or there is none, for n = 1): g = 0; and an even n has at least the move d = 1,
and every option has value 0: g = 1. ∎
"""

_ODD_PROOF = r"""
**Claim.** g(n) = 1 if n is even and not a power of 2, otherwise 0.

*Proof, by strong induction.* A power of 2 has no odd divisor above 1: no move, g = 0.
From an odd n, a move leaves n − d = d (n/d − 1), even and with the odd factor d > 1, so not a
power of 2: every option has value 1, so g = 0. An even n = 2^k m with m > 1 odd can subtract m,
leaving m (2^k − 1), which is odd (value 0); every move subtracts an odd d and leaves an odd number
(value 0). So every option has value 0 and there is one: g = 1. ∎
"""

_PRIME_ONE_PROOF = r"""
**Claim.** g(n) = min(v2(n), 2): 0 for odd n, 1 for n ≡ 2 (mod 4), 2 for n ≡ 0 (mod 4).

*Proof, by strong induction.* The allowed d are 1 and the prime factors of n (below n).
- n odd: every d is odd, so every move leaves an even number, of value 1 or 2: g = 0.
- n ≡ 2 (mod 4): subtracting 1 or an odd prime leaves an odd number (value 0); subtracting 2
  (if 2 < n) leaves a multiple of 4 (value 2). The options are 0 and perhaps 2: g = 1.
- n ≡ 0 (mod 4): subtracting 1 or an odd prime leaves an odd number (0); subtracting 2 leaves a number
  ≡ 2 (mod 4) (value 1). The options are 0 and 1: g = 2. ∎
"""


def _prime_value(n: int) -> int:
    if n % 2 or (is_power_of_two(n) and n != 4):
        return 0
    if n in (4, 6):
        return {4: 1, 6: 2}[n]
    return 1 if n % 4 == 2 else 2


def _prime_counts(upto: int) -> dict[int, int]:
    odd = (upto + 1) // 2
    powers = _powers_of_two(2, upto)  # 2, 4, 8, ...: value 0, except 4
    four = 1 if upto >= 4 else 0
    six = 1 if upto >= 6 else 0
    two_mod_four = (upto + 2) // 4  # 2, 6, 10, ...
    zero_mod_four = upto // 4  # 4, 8, 12, ...
    powers_mod_four = _powers_of_two(4, upto)  # 4, 8, 16, ...: all ≡ 0 (mod 4)
    return _drop_zeros(
        {
            0: odd + powers - four,
            1: four + (two_mod_four - (1 if upto >= 2 else 0) - six),
            2: six + (zero_mod_four - powers_mod_four),
        }
    )


_PRIME_PROOF = r"""
**Claim.** g(n) = 0 for odd n and for powers of 2 other than 4; g(4) = 1; g(6) = 2; otherwise
g(n) = 1 if n ≡ 2 (mod 4) and g(n) = 2 if n ≡ 0 (mod 4).

*Proof, by strong induction.* The allowed d are the prime factors of n below n.
- A power of 2 can only subtract 2 (if n ≥ 4): 4 → 2 (value 0) gives g(4) = 1; 8 → 6 (value 2) gives
  g(8) = 0, and for 2^k ≥ 16, 2^k − 2 ≡ 2 (mod 4) and is at least 14, of value 1, so g = 0.
- An odd n subtracts an odd prime p | n, leaving n − p = p (n/p − 1): even, with the odd factor p, so
  neither a power of 2 nor 4; it is 6 only for n = 9 (p = 3), of value 2. Every option has value 1
  or 2: g = 0.
- An even n that is not a power of 2 has an odd prime factor p; n − p is odd (value 0). Its other
  option is n − 2, even. For n ≡ 2 (mod 4): n − 2 ≡ 0 (mod 4), of value 2, except n − 2 = 4 (value 1,
  so g(6) = mex{0, 1} = 2) or a power of 2 of value 0 (g = 1); so g = 1 for n ≥ 10. For n ≡ 0 (mod 4):
  n − 2 ≡ 2 (mod 4) with n − 2 ≥ 10, of value 1 (n − 2 = 6 would need n = 8, a power of 2): the options
  are 0 and 1, so g = 2. ∎
"""


def _prime_one_counts(upto: int) -> dict[int, int]:
    by_k = _v2_counts(upto)
    return _drop_zeros({g: sum(c for k, c in by_k.items() if min(k, 2) == g) for g in range(3)})


def _even_value(n: int) -> int:
    return max(v2(n) - 1, 0)


def _even_counts(upto: int) -> dict[int, int]:
    by_k = _v2_counts(upto)
    counts = {0: by_k.get(0, 0) + by_k.get(1, 0)}
    counts.update({k - 1: c for k, c in by_k.items() if k >= 2})
    return _drop_zeros(counts)


def _odd_one_counts(upto: int) -> dict[int, int]:
    return _drop_zeros({0: (upto + 1) // 2, 1: upto // 2})


def _odd_value(n: int) -> int:
    return 1 if n % 2 == 0 and not is_power_of_two(n) else 0


def _odd_counts(upto: int) -> dict[int, int]:
    even_not_power = upto // 2 - _powers_of_two(2, upto)
    return _drop_zeros({0: upto - even_not_power, 1: even_not_power})


FORMULAS: tuple[GrundyFormula, ...] = (
    GrundyFormula(
        "Subtract any divisor, 1 allowed",
        "all",
        True,
        "g(n) = v2(n), the exponent of 2 in n.",
        _V2_PROOF,
        v2,
        _all_or_even_with_one,
    ),
    GrundyFormula(
        "Subtract an even divisor or 1",
        "even",
        True,
        "g(n) = v2(n), the exponent of 2 in n.",
        _V2_PROOF,
        v2,
        _all_or_even_with_one,
    ),
    GrundyFormula(
        "Subtract an even divisor",
        "even",
        False,
        "g(n) = max(v2(n) − 1, 0).",
        _EVEN_PROOF,
        _even_value,
        _even_counts,
    ),
    GrundyFormula(
        "Subtract an odd divisor or 1",
        "odd",
        True,
        "g(n) = 1 if n is even, 0 if n is odd.",
        _ODD_ONE_PROOF,
        lambda n: 1 - n % 2,
        _odd_one_counts,
    ),
    GrundyFormula(
        "Subtract an odd divisor",
        "odd",
        False,
        "g(n) = 1 if n is even and not a power of 2, otherwise 0.",
        _ODD_PROOF,
        _odd_value,
        _odd_counts,
    ),
    GrundyFormula(
        "Subtract a prime factor or 1",
        "prime",
        True,
        "g(n) = min(v2(n), 2).",
        _PRIME_ONE_PROOF,
        lambda n: min(v2(n), 2),
        _prime_one_counts,
    ),
    GrundyFormula(
        "Subtract a prime factor",
        "prime",
        False,
        "g(n) = 0 for odd n and powers of 2 except g(4) = 1; g(6) = 2; "
        "otherwise 1 if n ≡ 2 (mod 4), 2 if n ≡ 0 (mod 4).",
        _PRIME_PROOF,
        _prime_value,
        _prime_counts,
    ),
)


def formula_for(rules: Rules) -> GrundyFormula | None:
    """The proved Grundy formula for these rules (matched by how the game is won), or None.

    >>> formula_for(get_rules("divisor-duel")) is None
    True
    """
    return next((f for f in FORMULAS if f.key == rules.game), None)
