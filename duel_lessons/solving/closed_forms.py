"""Proved closed forms: who wins from n, in one line of arithmetic, with the proof.

Each :class:`ClosedForm` answers "is n a P-position?" and "which divisor wins?"
instantly for n up to 10**18, without a table, and explains the answer in words
from the mathematics.  The proofs are lesson-ready markdown.

A *P-position* is a number from which the player to move loses with best play
(the Previous player wins); an *N-position* is one from which the player to move
(the Next player) wins.  Positions where the game is already over count as well:
a number whose reaching ends the game is P if reaching it won for the player who
moved there, and N if it lost.

>>> from duel_lessons.engine.rules import DIVISOR_DUEL
>>> cf = closed_form(DIVISOR_DUEL)
>>> cf.is_p(57), cf.winning_move(60)
(True, 15)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy

from duel_lessons.engine.rules import (
    DIVISION_DUEL,
    DIVISOR_DUEL,
    FACTOR_DUEL,
    NUMBER_FACTOR,
    Rules,
    smallest_prime_factor,
)

# -- arithmetic helpers (no factorisation) ---------------------------------------


def v2(n: int) -> int:
    """The exponent of 2 in n (n >= 1): how many times 2 divides n."""
    return (n & -n).bit_length() - 1


def odd_part(n: int) -> int:
    """n with every factor 2 shifted out."""
    return n >> v2(n)


def is_power_of_two(n: int) -> bool:
    """Whether n = 2**k for some k >= 0."""
    return n >= 1 and n & (n - 1) == 0


def _isprime(n: int) -> bool:
    return bool(sympy.isprime(n))


def _smallest_prime_factor(n: int) -> int:
    """The smallest prime factor of n >= 2 (trial division first, then sympy)."""
    p = smallest_prime_factor(n)
    assert p is not None, n
    return p


def _omega(n: int) -> int:
    """Big Omega: the number of prime factors of n counted with multiplicity."""
    return sum(sympy.factorint(n).values())


def _factor_words(n: int) -> str:
    """n's prime factorisation, e.g. '2^2 × 3 × 5'."""
    parts = sorted(sympy.factorint(n).items())
    return " × ".join(f"{p}^{e}" if e > 1 else str(p) for p, e in parts)


def _split(n: int) -> str:
    """'60 = 4 × 15' for an even n that is not a power of 2."""
    k = v2(n)
    return f"{n} = 2^{k} × {n >> k}" if k > 1 else f"{n} = 2 × {n >> 1}"


# -- the closed form type -----------------------------------------------------------


@dataclass(frozen=True)
class ClosedForm:
    """A proved rule for who wins a game from n, with one winning move and a proof.

    ``key`` is the ``Rules.game_key()`` of the game it solves.  ``statement``
    is one markdown sentence, ``proof`` a lesson-ready markdown proof.
    """

    name: str
    key: tuple[object, ...]
    statement: str
    proof: str
    p_rule: Callable[[int], bool]
    move_rule: Callable[[int], int | None]
    explain_rule: Callable[[int], str]
    grundy_rule: Callable[[int], int] | None = None

    def is_p(self, n: int) -> bool:
        """Whether n (>= 1) is a P-position: the player to move loses with best play."""
        _check(n)
        return self.p_rule(n)

    def is_n(self, n: int) -> bool:
        """Whether n is an N-position: the player to move wins with best play."""
        return not self.is_p(n)

    def winning_move(self, n: int) -> int | None:
        """One divisor that wins from n (its result is a P-position), or None if there is none."""
        _check(n)
        return self.move_rule(n)

    def explain(self, n: int) -> str:
        """Why n is won or lost for the player to move, in words from the proof."""
        _check(n)
        return self.explain_rule(n)

    @property
    def has_grundy(self) -> bool:
        """Whether a proved formula for the Grundy value comes with this closed form."""
        return self.grundy_rule is not None

    def grundy(self, n: int) -> int | None:
        """The Grundy value of n where a formula is proved, else None."""
        _check(n)
        return None if self.grundy_rule is None else self.grundy_rule(n)

    def _repr_markdown_(self) -> str:
        return f"**{self.name}.** {self.statement}\n\n{self.proof}"


def _check(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"A position is a positive whole number, not {n!r}.")


# -- divisor-duel: N -> N - d, 1 < d < N, normal play ------------------------------------


def _dd_is_p(n: int) -> bool:
    return n % 2 == 1 or (is_power_of_two(n) and v2(n) % 2 == 1)


def _dd_move(n: int) -> int | None:
    if _dd_is_p(n):
        return None
    m = odd_part(n)
    return m if m > 1 else n // 2


def _dd_explain(n: int) -> str:
    if n % 2 == 1:
        if n == 1 or _isprime(n):
            return f"{n} has no divisor d with 1 < d < {n}, so the player to move has no move and loses."
        d = _smallest_prime_factor(n)
        return (
            f"{n} is odd, so every divisor of {n} is odd, and odd − odd is even. "
            f"Each result {n} − d = d × ({n}/d − 1) still has the odd factor d > 1, so it is not a power of 2 "
            f"(for example {n} − {d} = {d} × {n // d - 1} = {n - d}). "
            f"So every move hands your opponent an even number that is not a power of 2, which is a winning "
            f"position for them: they subtract its odd part and hand you an odd number again. "
            f"{n} is a losing position for the player to move."
        )
    k = v2(n)
    m = n >> k
    if m > 1:
        r = n - m
        return (
            f"{_split(n)} is even and not a power of 2; its odd part is {m}. "
            f"Subtract {m}: {n} − {m} = {m} × ({2**k} − 1) = {r}, which is odd. "
            f"An odd number is a losing position for the player to move: every divisor of {r} is odd, "
            f"odd − odd is even, and the result keeps an odd factor, so it is never a power of 2. "
            f"Whatever your opponent does, you get an even number that is not a power of 2 and repeat. "
            f"So {m} is the winning move."
        )
    if n == 2:
        return "2 has no divisor d with 1 < d < 2, so the player to move has no move and loses."
    if k % 2 == 0:
        h = n // 2
        return (
            f"{n} = 2^{k}, a power of 2 with even exponent {k}. Subtract {h}: {n} − {h} = {h} = 2^{k - 1}, "
            f"a power of 2 with odd exponent {k - 1}. From 2^{k - 1} every move subtracts some 2^i and leaves "
            f"2^i × (2^({k - 1}−i) − 1): either an even number with an odd factor > 1 (you subtract its odd "
            f"part and give back an odd number) or, halving, 2^{k - 2} with even exponent (you halve again). "
            f"So {h} is the winning move."
        )
    return (
        f"{n} = 2^{k}, a power of 2 with odd exponent {k}. Its divisors are 2, 4, …, 2^{k - 1}. "
        f"Subtracting 2^{k - 1} = {n // 2} leaves 2^{k - 1} with even exponent: your opponent subtracts half of it and "
        f"hands you a power of 2 with odd exponent again. Subtracting a smaller 2^i leaves "
        f"2^i × (2^({k}−i) − 1), an even number with an odd factor > 1: your opponent subtracts its odd part "
        f"and hands you an odd number. Every move loses, so {n} is a losing position for the player to move."
    )


_DD_PROOF = r"""
**Theorem.** In Divisor Duel (subtract a divisor $d$ with $1 < d < N$; a player with no move loses),
$N$ is a losing position for the player to move (a P-position) exactly when $N$ is odd, or
$N = 2^k$ with $k$ odd ($2, 8, 32, 128, \dots$).

Call the numbers in the statement *cold* and all others *hot*. We prove, by strong induction on $N$,
that from a cold number every move goes to a hot number, and from a hot number some move goes to a
cold number. (A number with no move at all — 1, 2 and the odd primes — is cold, as it should be: the
player facing it has lost.) Then the player who always hands over a cold number can always reply, and since the
number goes down every move, the game ends with the opponent stuck. That is exactly "cold = P".

**Step 1: odd $N$.** Every divisor $d$ of an odd number is odd, so $N - d$ is even. Write
$N - d = d\,(N/d - 1)$. The factor $d > 1$ is odd, so $N - d$ has an odd factor bigger than 1 and is
**not** a power of 2. So every move from odd $N$ gives an even number that is not a power of 2, which
is hot. (If $N$ is 1 or prime there is no move at all, and the player to move has lost already.)

**Step 2: even $N$ that is not a power of 2.** Write $N = 2^k m$ with $m > 1$ odd. Then $m$ divides $N$
and $1 < m < N$, so subtracting $m$ is legal, and $N - m = m\,(2^k - 1)$ is odd × odd = odd: cold.
So these numbers are hot.

**Step 3: powers of 2.** The divisors of $2^k$ are $2, 4, \dots, 2^{k-1}$, and
$2^k - 2^i = 2^i\,(2^{k-i} - 1)$. For $i < k - 1$ the bracket is odd and at least 3, so the result is
even but not a power of 2: hot (Step 2). Only $i = k-1$ gives a power of 2, namely $2^{k-1}$.
So from $2^k$ the only hope is to move to $2^{k-1}$:
* $2^1 = 2$ has no move: cold.
* $2^k$ with $k$ even: moving to $2^{k-1}$ (odd exponent, cold by induction) wins, so it is hot.
* $2^k$ with $k$ odd $\ge 3$: the only power-of-2 move gives $2^{k-1}$ with even exponent, which is
  hot; all other moves are hot too. So it is cold.

**Winning moves.** From $N = 2^k m$ ($m > 1$ odd) subtract the odd part $m$. From $2^k$ with $k$ even,
subtract $2^{k-1}$. Finding the odd part needs no factorisation: keep halving until the number is odd.
"""

DIVISOR_DUEL_FORM = ClosedForm(
    name="Divisor Duel",
    key=DIVISOR_DUEL.game_key(),
    statement="$n$ is a P-position iff $n$ is odd, or $n = 2^k$ with $k$ odd ($2, 8, 32, \\dots$).",
    proof=_DD_PROOF.strip(),
    p_rule=_dd_is_p,
    move_rule=_dd_move,
    explain_rule=_dd_explain,
)


# -- division-duel and number-factor: N -> N / d, 1 < d < N ---------------------------


def _div_is_p(n: int) -> bool:
    return n == 1 or _isprime(n)


def _div_move(n: int) -> int | None:
    return None if _div_is_p(n) else n // _smallest_prime_factor(n)


def _div_grundy(n: int) -> int:
    return max(_omega(n) - 1, 0) if n > 1 else 0


def _div_explainer(passing: bool) -> Callable[[int], str]:
    stuck = (
        "must pass; then nobody can move, and after two passes the last player who moved wins, "
        "so the player to move loses"
        if passing
        else "has no move and loses"
    )
    opponent = (
        "your opponent must pass, you must pass too, and you win as the last player who moved"
        if passing
        else "your opponent has no move and you win"
    )

    def explain(n: int) -> str:
        if n == 1 and passing:
            return "Reaching 1 wins at once, so whoever moved to 1 has won and the player to move has lost."
        if n == 1:
            return f"1 has no divisor d with 1 < d < 1, so the player to move {stuck}."
        if _isprime(n):
            return f"{n} is prime, so it has no divisor d with 1 < d < {n}: the player to move {stuck}."
        p = _smallest_prime_factor(n)
        d = n // p
        return (
            f"{n} = {_factor_words(n)} is composite, with the prime factor {p}. "
            f"Divide by {d}: {n} ÷ {d} = {p}, a prime. {p} has no divisor d with 1 < d < {p}, "
            f"so {opponent}. "
            f"Every composite number wins in one move this way."
        )

    return explain


_DIV_PROOF = r"""
**Theorem.** In the division game (divide by a divisor $d$ with $1 < d < N$; the last player able to
move wins), $N$ is a P-position exactly when $N$ is 1 or prime. Moreover the Grundy value of $N > 1$ is
$\Omega(N) - 1$, where $\Omega(N)$ counts the prime factors of $N$ with repetition
($\Omega(60) = \Omega(2 \cdot 2 \cdot 3 \cdot 5) = 4$).

**Who wins.** A prime $p$ (and 1) has no divisor strictly between 1 and itself, so the player to
move is stuck: P. If $N$ is composite, pick a prime factor $p$ of $N$; then $d = N/p$ satisfies
$1 < d < N$ (because $N$ is not prime), and $N / d = p$ is prime. So every composite number wins in
one move, and the first player always wins from a composite start. This is a design flaw of the game,
and a good lesson: a game that ends in one move needs repairing (for example, allow prime divisors
only).

**Where the moves go.** As $d$ runs over the divisors with $1 < d < N$, the result $N/d$ runs over the
same set: the divisors $m$ of $N$ with $1 < m < N$. So the positions reachable from $N$ are exactly its
divisors other than 1 and $N$.

**Grundy value, by strong induction.** Primes have no move: Grundy value $0 = \Omega(p) - 1$. Let $N$
be composite with $\Omega(N) = k \ge 2$ and assume the formula for every smaller number. If
$N = p_1 p_2 \cdots p_k$ (primes with repetition), the divisors $p_1$, $p_1 p_2$, …,
$p_1 \cdots p_{k-1}$ are reachable and have $\Omega = 1, 2, \dots, k-1$, so Grundy values
$0, 1, \dots, k-2$ all occur among the moves. Every reachable $m$ is a proper divisor, so
$\Omega(m) \le k - 1$ and its Grundy value is at most $k - 2$. The smallest value not reached is
therefore $k - 1 = \Omega(N) - 1$.
"""

_NF_NOTE = r"""

**Number Factor is the same game.** Its "reach 1 wins" clause can never fire, because $N / d \ge 2$
for every allowed $d$. A player facing a prime must pass, the opponent must pass too (the number has
not changed), and then the last player who moved wins — exactly as if the game had ended when the
first player got stuck. So passing changes nothing about who wins.
"""

DIVISION_DUEL_FORM = ClosedForm(
    name="Division Duel",
    key=DIVISION_DUEL.game_key(),
    statement="$n$ is a P-position iff $n$ is 1 or prime; every composite $n$ wins in one move.",
    proof=_DIV_PROOF.strip(),
    p_rule=_div_is_p,
    move_rule=_div_move,
    explain_rule=_div_explainer(passing=False),
    grundy_rule=_div_grundy,
)

NUMBER_FACTOR_FORM = ClosedForm(
    name="Number Factor",
    key=NUMBER_FACTOR.game_key(),
    statement="$n$ is a P-position iff $n$ is 1 or prime; every composite $n$ wins in one move.",
    proof=(_DIV_PROOF + _NF_NOTE).strip(),
    p_rule=_div_is_p,
    move_rule=_div_move,
    explain_rule=_div_explainer(passing=True),
    grundy_rule=_div_grundy,
)


# -- factor-duel: N -> N - d, 1 <= d < N, moving to a prime wins, to 1 loses ----------


def _fd_is_p(n: int) -> bool:
    return n == 2 or (n % 2 == 1 and n > 1)


def _fd_move(n: int) -> int | None:
    return None if _fd_is_p(n) or n == 1 else 1


def _fd_explain(n: int) -> str:
    if n == 1:
        return "The player who moved to 1 lost at once, so the game is over and the player now to move has won."
    if _isprime(n):
        return f"{n} is prime: the player who moved to {n} won at once, so the player to move has lost."
    if n % 2 == 0:
        r = n - 1
        if _isprime(r):
            then = f"{r} is prime, so you win at once."
        else:
            then = (
                f"{r} is odd and composite, a losing position for your opponent: every divisor of {r} "
                f"(including 1) is odd, so every move gives an even number; the largest allowed divisor is at "
                f"most {r}/3, so the result is at least 2 × {r}/3 ≥ 6, an even number that is neither prime "
                f"nor 1. Then you subtract 1 again."
            )
        return f"{n} is even. Subtract 1: {n} − 1 = {r}, which is odd. {then}"
    p = _smallest_prime_factor(n)
    return (
        f"{n} is odd and composite, so every divisor of {n} (including 1) is odd, and odd − odd is even. "
        f"Its smallest prime factor is {p}, so the largest allowed divisor is {n}/{p} = {n // p}, "
        f"and every result is at least {n} − {n // p} = {n - n // p}: an even number of at least 6, "
        f"so neither prime nor 1. Your opponent does not win at once "
        f"and you do not lose at once — but they now subtract 1 and hand you an odd number again. "
        f"{n} is a losing position for the player to move."
    )


_FD_PROOF = r"""
**Theorem.** In Factor Duel (subtract a divisor $d$ with $1 \le d < N$; whoever moves to a prime wins
at once, whoever moves to 1 loses at once), the player to move loses exactly when $N$ is odd and
$N > 1$, or $N = 2$. In every other case (an even composite $N$) **subtracting 1** wins.

(A prime on the board means the opponent has just won by moving there, so primes — including 2 — are
losing for the player to move. The number 1 means the opponent has just lost.)

**Why subtract 1 is the key move.** From an odd number *every* divisor is odd (including 1), so every
move gives an even number. From an even number, subtracting an odd divisor gives an odd number, and
1 is the one odd divisor that **every** number has. So the player facing an even number can always
hand back an odd number, and the player facing an odd number can never do so: parity decides the
game, and subtracting 1 is the move that is always there to keep it. (Other odd divisors win too:
from 60, subtracting 3, 5 or 15 also leaves an odd number.)

**Proof, by strong induction on $N$.**

*Even composite $N$ (so $N \ge 4$).* Subtract 1. The result $N - 1 \ge 3$ is odd. If it is prime, you
have won at once. If not, it is an odd composite, which is a P-position by the next case (it is smaller
than $N$).

*Odd composite $N$.* Every divisor of $N$ is odd (including 1), so every result $N - d$ is even. Since
$N$ is odd, its largest proper divisor is at most $N/3$, so $N - d \ge 2N/3 \ge 6$ (as $N \ge 9$).
An even number $\ge 6$ is neither prime nor 1, so no move ends the game; each move hands the opponent an
even composite number, which is an N-position by the previous case. So every move loses.

Together with "primes are lost for the player to move", this proves the theorem. Notice that the
winner only ever subtracts 1, except that from 4 the move $4 - 2 = 2$ (a prime) also wins at once.
"""

FACTOR_DUEL_FORM = ClosedForm(
    name="Factor Duel",
    key=FACTOR_DUEL.game_key(),
    statement=(
        "$n$ is a P-position iff $n$ is odd and $n > 1$, or $n = 2$ (every even composite wins by subtracting 1)."
    ),
    proof=_FD_PROOF.strip(),
    p_rule=_fd_is_p,
    move_rule=_fd_move,
    explain_rule=_fd_explain,
)


# -- even divisors only: N -> N - d, d even, 1 < d < N ----------------------------------


def _even_is_p(n: int) -> bool:
    return n % 4 != 0


def _even_move(n: int) -> int | None:
    return 2 if n % 4 == 0 else None


def _even_explain(n: int) -> str:
    if n % 2 == 1:
        return f"{n} is odd, so it has no even divisors: the player to move has no move and loses."
    if n == 2:
        return "2 has no even divisor d with 1 < d < 2: the player to move has no move and loses."
    if n % 4 == 2:
        m = n // 2
        return (
            f"{n} = 2 × {m} with {m} odd, so every even divisor of {n} is 2e with e an (odd) divisor of {m}, "
            f"and {n} − 2e = 2 × ({m} − e) with {m} − e even: every result is a multiple of 4 "
            f"(for example {n} − 2 = {n - 2}). From a multiple of 4 your opponent subtracts 2 and hands you "
            f"a number that is 2 more than a multiple of 4 again. {n} is a losing position for the player to move."
        )
    return (
        f"{n} is a multiple of 4. Subtract 2: {n} − 2 = {n - 2} = 2 × {(n - 2) // 2}, twice an odd number. "
        f"From there every even divisor is 2e with e odd, and subtracting it leaves 2 × (odd − odd), a multiple "
        f"of 4. You subtract 2 again each time, so you always hand over twice an odd number, and the numbers keep "
        f"going down until your opponent is stuck at 2. So 2 is the winning move."
    )


_EVEN_PROOF = r"""
**Theorem.** In Divisor Duel with *even divisors only* (subtract an even $d$ with $d \mid N$ and
$1 < d < N$; a player with no move loses), $N$ is a P-position exactly when $N$ is odd or
$N \equiv 2 \pmod 4$. From a multiple of 4, subtract 2.

**Odd $N$.** An odd number has no even divisors, so the player to move is stuck and loses.

**Even $N = 2m$.** The even divisors of $2m$ that are less than $2m$ are exactly the numbers $2e$ with
$e \mid m$ and $1 \le e < m$, and $2m - 2e = 2(m - e)$. So the game on $2m$ is *the same game* as the
game on $m$ in which you may subtract **any** divisor $e$ of $m$ with $1 \le e < m$ (1 allowed!), and the
player facing $m = 1$ is stuck.

**That halved game, by strong induction: $m$ is a P-position iff $m$ is odd.**
* $m = 1$: no move, P.
* $m$ odd, $m > 1$: every divisor $e$ of $m$ is odd, so $m - e$ is even: every move gives an even
  number, which is N by induction.
* $m$ even: subtract $e = 1$; $m - 1$ is odd, P by induction. So $m$ is N.

Translating back: $N = 2m$ is P iff $m$ is odd iff $N \equiv 2 \pmod 4$, and the winning move $e = 1$
becomes $d = 2$.
"""

EVEN_DIVISORS_FORM = ClosedForm(
    name="Divisor Duel, even divisors only",
    key=DIVISOR_DUEL.variant(divisors="even").game_key(),
    statement="$n$ is a P-position iff $n$ is odd or $n \\equiv 2 \\pmod 4$ (from a multiple of 4, subtract 2).",
    proof=_EVEN_PROOF.strip(),
    p_rule=_even_is_p,
    move_rule=_even_move,
    explain_rule=_even_explain,
)


# -- odd divisors only: N -> N - d, d odd, 1 < d < N ------------------------------------


def _odd_is_p(n: int) -> bool:
    return n % 2 == 1 or is_power_of_two(n)


def _odd_move(n: int) -> int | None:
    return None if _odd_is_p(n) else odd_part(n)


def _odd_explain(n: int) -> str:
    if is_power_of_two(n):
        return f"{n} is a power of 2, so it has no odd divisor d > 1: the player to move has no move and loses."
    if n % 2 == 1:
        if _isprime(n):
            return f"{n} is prime, so it has no divisor d with 1 < d < {n}: the player to move has no move and loses."
        d = _smallest_prime_factor(n)
        return (
            f"{n} is odd, so every divisor of {n} is odd, and odd − odd is even. Each result "
            f"{n} − d = d × ({n}/d − 1) keeps the odd factor d > 1, so it is not a power of 2 "
            f"(for example {n} − {d} = {n - d}). So every move hands your opponent an even number that is not "
            f"a power of 2, and they subtract its odd part to hand you an odd number again. "
            f"{n} is a losing position for the player to move."
        )
    k = v2(n)
    m = n >> k
    return (
        f"{_split(n)} is even with odd part {m}. Subtract {m}: {n} − {m} = {m} × ({2**k} − 1) "
        f"= {n - m}, which is odd. From an odd number every allowed divisor is odd, so every move gives an even "
        f"number with an odd factor > 1, and you subtract its odd part again. So {m} is the winning move."
    )


_ODD_PROOF = r"""
**Theorem.** In Divisor Duel with *odd divisors only* (subtract an odd $d$ with $d \mid N$ and
$1 < d < N$), $N$ is a P-position exactly when $N$ is odd or a power of 2. From any other $N$,
subtract its odd part.

**Powers of 2** have no odd divisor bigger than 1: the player to move is stuck.

**Odd $N$.** Every divisor $d$ of $N$ is odd, so $N - d$ is even, and $N - d = d\,(N/d - 1)$ has the odd
factor $d > 1$: it is an even number that is not a power of 2. (If $N$ is 1 or prime, there is no move.)

**Even $N$ that is not a power of 2.** Write $N = 2^k m$ with $m > 1$ odd. Then $m$ is an odd divisor with
$1 < m < N$, and $N - m = m\,(2^k - 1)$ is odd.

By strong induction, odd numbers and powers of 2 only lead to "even, not a power of 2", and those can
always be sent back to an odd number. So the odd numbers and powers of 2 are exactly the P-positions.
"""

ODD_DIVISORS_FORM = ClosedForm(
    name="Divisor Duel, odd divisors only",
    key=DIVISOR_DUEL.variant(divisors="odd").game_key(),
    statement="$n$ is a P-position iff $n$ is odd or a power of 2 (otherwise, subtract the odd part).",
    proof=_ODD_PROOF.strip(),
    p_rule=_odd_is_p,
    move_rule=_odd_move,
    explain_rule=_odd_explain,
)


# -- prime divisors only, subtraction: N -> N - p, p prime, p < N -------------------------


def _psub_is_p(n: int) -> bool:
    return n % 2 == 1 or n == 2 or (is_power_of_two(n) and n >= 8)


def _psub_move(n: int) -> int | None:
    if _psub_is_p(n):
        return None
    if n == 4:
        return 2
    return _smallest_prime_factor(odd_part(n))


def _psub_explain(n: int) -> str:
    if n == 1 or _isprime(n):
        return f"{n} has no prime divisor smaller than itself: the player to move has no move and loses."
    if n % 2 == 1:
        p = _smallest_prime_factor(n)
        return (
            f"{n} is odd, so every prime factor of {n} is odd, and odd − odd is even. Each result "
            f"{n} − p = p × ({n}/p − 1) keeps the odd factor p, so it is even, not a power of 2, and at least 6 "
            f"(for example {n} − {p} = {n - p}). From such a number your opponent subtracts an odd prime factor "
            f"and hands you an odd number again. {n} is a losing position for the player to move."
        )
    if n == 4:
        return "Subtract 2: 4 − 2 = 2, and 2 has no prime divisor smaller than itself, so your opponent is stuck."
    if is_power_of_two(n):
        k = v2(n)
        return (
            f"{n} = 2^{k}: its only prime factor is 2, so the only move is {n} − 2 = {n - 2} = 2 × {(n - 2) // 2}, "
            f"an even number with the odd factor {(n - 2) // 2} > 1. Your opponent subtracts an odd prime factor "
            f"of it and hands you an odd number. {n} is a losing position for the player to move."
        )
    p = _smallest_prime_factor(odd_part(n))
    return (
        f"{n} is even and not a power of 2, so it has an odd prime factor, {p}. Subtract {p}: "
        f"{n} − {p} = {p} × ({n // p} − 1) = {n - p}, and {n // p} is even, so {n // p} − 1 and the result are odd. "
        f"From an odd number every prime factor is odd, so every move gives an even number with an odd factor, "
        f"and you can repeat. So {p} is a winning move."
    )


_PSUB_PROOF = r"""
**Theorem.** In Divisor Duel with *prime divisors only* (subtract a prime $p$ with $p \mid N$ and
$p < N$), $N$ is a P-position exactly when $N$ is odd, or $N = 2$, or $N = 2^k$ with $k \ge 3$.
From 4 subtract 2; from an even $N$ that is not a power of 2, subtract an odd prime factor.

Call these numbers *cold*; we show by strong induction that cold numbers only move to hot ones and hot
numbers can move to a cold one.

**Odd $N$.** If $N$ is 1 or prime there is no move. Otherwise every prime factor $p$ is odd and
$N - p = p\,(N/p - 1)$ is even (odd − odd), has the odd factor $p > 1$ (so it is not a power of 2), and
is at least $2p \ge 6$. So it is an even number that is not a power of 2: hot.

**Even $N$, not a power of 2.** It has an odd prime factor $p$. Then $N/p$ is even, so $N/p - 1$ is odd,
and $N - p = p\,(N/p - 1)$ is odd: cold.

**Powers of 2.** The only prime factor is 2, so the only move is $2^k \to 2^k - 2 = 2\,(2^{k-1} - 1)$.
* $2$: no move ($p < N$ fails), cold.
* $4 \to 2$, which is cold, so 4 is hot.
* $k \ge 3$: $2^{k-1} - 1 \ge 3$ is odd, so $2^k - 2$ is even and not a power of 2: hot. So $2^k$ is cold.
"""

PRIME_SUBTRACTION_FORM = ClosedForm(
    name="Divisor Duel, prime divisors only",
    key=DIVISOR_DUEL.variant(divisors="prime").game_key(),
    statement="$n$ is a P-position iff $n$ is odd, or $n = 2$, or $n = 2^k$ with $k \\ge 3$.",
    proof=_PSUB_PROOF.strip(),
    p_rule=_psub_is_p,
    move_rule=_psub_move,
    explain_rule=_psub_explain,
)


# -- prime divisors only, division: N -> N / p --------------------------------------------


def _pdiv_is_p(n: int) -> bool:
    return n == 1 or _omega(n) % 2 == 1


def _pdiv_move(n: int) -> int | None:
    return None if _pdiv_is_p(n) else _smallest_prime_factor(n)


def _pdiv_grundy(n: int) -> int:
    return 0 if n == 1 else (_omega(n) - 1) % 2


def _pdiv_explain(n: int) -> str:
    if n == 1 or _isprime(n):
        return f"{n} has no prime divisor smaller than itself: the player to move has no move and loses."
    k = _omega(n)
    moves = k - 1
    plural = "move" if moves == 1 else "moves"
    text = (
        f"{n} = {_factor_words(n)} has {k} prime factors counted with repetition. Every move divides by one "
        f"prime, so it removes exactly one factor, and the game stops when one prime is left. So the game lasts "
        f"exactly {k} − 1 = {moves} {plural}, whatever anybody plays. "
    )
    if moves % 2 == 1:
        p = _smallest_prime_factor(n)
        return text + (
            f"{moves} is odd, so the player to move makes the last move and wins. Any move wins, for example "
            f"{p}: {n} ÷ {p} = {n // p}, from which an even number of moves ({moves - 1}) is left."
        )
    return text + (
        f"{moves} is even, so the opponent makes the last move: every move leaves {k - 1} prime factors, so an odd "
        f"number of moves ({moves - 1}) starting with the opponent. {n} is a losing position for the player to move."
    )


_PDIV_PROOF = r"""
**Theorem.** In Division Duel with *prime divisors only* (divide by a prime $p$ with $p \mid N$ and
$p < N$), $N > 1$ is a P-position exactly when $\Omega(N)$ is odd, where $\Omega(N)$ counts the prime
factors of $N$ with repetition ($\Omega(12) = \Omega(2 \cdot 2 \cdot 3) = 3$). 1 is a P-position too.
The Grundy value of $N > 1$ is $(\Omega(N) - 1) \bmod 2$.

**Proof.** Dividing by a prime removes exactly one prime factor: $\Omega(N/p) = \Omega(N) - 1$. A player
is stuck exactly when $N$ is prime ($\Omega = 1$; the only prime divisor is $N$ itself, not smaller than
$N$). So from $N > 1$ the game lasts exactly $\Omega(N) - 1$ moves, **whatever the players do**. With
normal play the player who makes the last move wins, so the first player wins iff $\Omega(N) - 1$ is odd,
i.e. iff $\Omega(N)$ is even. No strategy is needed at all: this is a pure parity game.

**Grundy values**, by induction on $\Omega$: a prime has Grundy value 0. If every position with
$\Omega = k$ has value $(k-1) \bmod 2$, then every move from a position with $\Omega = k + 1$ reaches that
single value, and the smallest value not reached is $k \bmod 2$.
"""

PRIME_DIVISION_FORM = ClosedForm(
    name="Division Duel, prime divisors only",
    key=DIVISION_DUEL.variant(divisors="prime").game_key(),
    statement="$n$ is a P-position iff $n = 1$ or $\\Omega(n)$ (prime factors with repetition) is odd.",
    proof=_PDIV_PROOF.strip(),
    p_rule=_pdiv_is_p,
    move_rule=_pdiv_move,
    explain_rule=_pdiv_explain,
    grundy_rule=_pdiv_grundy,
)


# -- registry ----------------------------------------------------------------------------

CLOSED_FORMS: dict[tuple[object, ...], ClosedForm] = {
    cf.key: cf
    for cf in (
        DIVISOR_DUEL_FORM,
        DIVISION_DUEL_FORM,
        NUMBER_FACTOR_FORM,
        FACTOR_DUEL_FORM,
        EVEN_DIVISORS_FORM,
        ODD_DIVISORS_FORM,
        PRIME_SUBTRACTION_FORM,
        PRIME_DIVISION_FORM,
    )
}


def closed_form(rules: Rules) -> ClosedForm | None:
    """The proved closed form for these rules (looked up by ``rules.game_key()``), or None."""
    return CLOSED_FORMS.get(rules.game_key())
