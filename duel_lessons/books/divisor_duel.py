"""Divisor Duel (books 000 and 002): subtract a proper divisor; a player with no move loses.

This file holds the book's rules and wording, its closed form with the proof, and the closed
forms of the variants that only change which divisors may be used (even, odd or prime
divisors only; misère play with odd or even divisors only), each with the coach's hint.

>>> DIVISOR_DUEL.describe().splitlines()[1]
'On your turn, subtract d from N, using proper divisors d with 1 < d < N.'
>>> [form.is_p(8) for form in CLOSED_FORMS]
[True, False, True, True, False, False]
"""

from __future__ import annotations

from duel_lessons.engine.closed_form import (
    ClosedForm,
    is_power_of_two,
    is_prime,
    least_prime_factor,
    odd_part,
    split_two_power,
    v2,
)
from duel_lessons.engine.rules import Rules, Wording

__all__ = [
    "BOOK_002_WORDING",
    "CLOSED_FORMS",
    "DIVISOR_DUEL",
    "DIVISOR_DUEL_FORM",
    "EVEN_DIVISORS_FORM",
    "MISERE_EVEN_DIVISORS_FORM",
    "MISERE_ODD_DIVISORS_FORM",
    "ODD_DIVISORS_FORM",
    "PRIME_SUBTRACTION_FORM",
    "RULES",
]

#: The book files that describe this game.
BOOK_NUMBERS = ("000", "002")

DIVISOR_DUEL = Rules(
    name="divisor-duel",
    title="Divisor Duel",
    source="books 000 and 002",
    default_start=60,
    start_rule="Any whole number from 1 up can start; from a prime, 1 or 2 the first player has no move.",
    wording=Wording(
        opening="Game Start! Current Number (N): {n}",
        show="Proper divisors of {n}: {divisors}",
        separator=",",
        prompt="Enter your chosen divisor: ",
        moved="Subtracting {d} from {n}. New N is {new}.",
        show_stuck="Proper divisors of {n}: None",
        end_stuck="No valid moves left. {winner} wins!",
    ),
)
RULES = DIVISOR_DUEL

#: Book 002's wording of the same game (its 12-start transcript).
BOOK_002_WORDING = Wording(
    opening="",
    show="Current number is {n}.\nProper divisors (excluding 1 and {n}): {divisors}",
    prompt="Enter the divisor to subtract: ",
    moved="You subtract {d}. New current number is {new}.",
    show_stuck="Current number is {n}.\nNo proper divisors. You cannot make a move.",
    end_stuck="{loser} loses. {winner} wins!",
)


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
        if n == 1 or is_prime(n):
            return f"{n} has no divisor d with 1 < d < {n}, so the player to move has no move and loses."
        d = least_prime_factor(n)
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
            f"{split_two_power(n)} is even and not a power of 2; its odd part is {m}. "
            f"Subtract {m}: {n} − {m} = {m} × ({2**k} − 1) = {r}, which is odd. "
            f"An odd number is a losing position for the player to move: every divisor of {r} is odd, "
            f"odd − odd is even, and the result keeps an odd factor, so it is never a power of 2. "
            f"Whatever your opponent does, you get an even number that is not a power of 2 and repeat. "
            f"So {m} is the winning move."
        )
    if n == 2:
        return "2 has no divisor d with 1 < d < 2, so the player to move has no move and loses."
    if n == 4:
        return (
            "4 = 2^2, and its only allowed divisor is 2. Subtract 2: 4 − 2 = 2, and 2 has no divisor d "
            "with 1 < d < 2, so your opponent has no move and loses. So 2 is the winning move."
        )
    if k % 2 == 0:
        h = n // 2
        return (
            f"{n} = 2^{k}, a power of 2 with even exponent {k}. Subtract {h}: {n} − {h} = {h} = 2^{k - 1}, "
            f"a power of 2 with odd exponent {k - 1}. From 2^{k - 1} every move subtracts some 2^i and leaves "
            f"2^i × (2^({k - 1}−i) − 1): either an even number with an odd factor > 1 (you subtract its odd "
            f"part and give back an odd number) or, subtracting half, 2^{k - 2} with even exponent {k - 2} "
            f"(you subtract half again). "
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
    rules=DIVISOR_DUEL,
    statement="$n$ is a P-position iff $n$ is odd, or $n = 2^k$ with $k$ odd ($2, 8, 32, \\dots$).",
    proof=_DD_PROOF.strip(),
    p_rule=_dd_is_p,
    move_rule=_dd_move,
    explain_rule=_dd_explain,
    hint=(
        "Is {n} odd or even? If it is even, is it a power of 2? "
        "Odd or even: what kind of number would you like to hand your opponent?"
    ),
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
    rules=DIVISOR_DUEL.variant(divisors="even"),
    statement="$n$ is a P-position iff $n$ is odd or $n \\equiv 2 \\pmod 4$ (from a multiple of 4, subtract 2).",
    proof=_EVEN_PROOF.strip(),
    p_rule=_even_is_p,
    move_rule=_even_move,
    explain_rule=_even_explain,
    hint=("Write {n} as 2 × m. What does the game look like in terms of m?"),
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
        if is_prime(n):
            return f"{n} is prime, so it has no divisor d with 1 < d < {n}: the player to move has no move and loses."
        d = least_prime_factor(n)
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
        f"{split_two_power(n)} is even with odd part {m}. Subtract {m}: {n} − {m} = {m} × ({2**k} − 1) "
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
    rules=DIVISOR_DUEL.variant(divisors="odd"),
    statement="$n$ is a P-position iff $n$ is odd or a power of 2 (otherwise, subtract the odd part).",
    proof=_ODD_PROOF.strip(),
    p_rule=_odd_is_p,
    move_rule=_odd_move,
    explain_rule=_odd_explain,
    hint=("Is {n} odd or even? What is its odd part, and what is left if you subtract it?"),
)


# -- prime divisors only, subtraction: N -> N - p, p prime, p < N -------------------------


def _psub_is_p(n: int) -> bool:
    return n % 2 == 1 or n == 2 or (is_power_of_two(n) and n >= 8)


def _psub_move(n: int) -> int | None:
    if _psub_is_p(n):
        return None
    if n == 4:
        return 2
    return least_prime_factor(odd_part(n))


def _psub_explain(n: int) -> str:
    if n == 1 or is_prime(n):
        return f"{n} has no prime divisor smaller than itself: the player to move has no move and loses."
    if n % 2 == 1:
        p = least_prime_factor(n)
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
    p = least_prime_factor(odd_part(n))
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
    rules=DIVISOR_DUEL.variant(divisors="prime"),
    statement="$n$ is a P-position iff $n$ is odd, or $n = 2$, or $n = 2^k$ with $k \\ge 3$.",
    proof=_PSUB_PROOF.strip(),
    p_rule=_psub_is_p,
    move_rule=_psub_move,
    explain_rule=_psub_explain,
    hint=("Is {n} odd, even, or a power of 2? What does subtracting an odd prime do to odd and even numbers?"),
)


# -- misère, odd divisors only: the last player to move loses -------------------------------


def _misere_odd_is_p(n: int) -> bool:
    return n % 2 == 0 and not is_power_of_two(n)


def _misere_odd_move(n: int) -> int | None:
    if n % 2 == 0 or n == 1 or is_prime(n):
        return None
    return least_prime_factor(n)


def _misere_odd_explain(n: int) -> str:
    if is_power_of_two(n) or n == 1 or is_prime(n):
        return (
            f"{n} has no odd divisor d with 1 < d < {n}, so the player to move cannot move. In misère play the "
            f"last player to move loses, so the player to move wins."
        )
    if n % 2 == 1:
        p = least_prime_factor(n)
        return (
            f"{n} is odd and composite. Subtract {p}: {n} − {p} = {p} × {n // p - 1} = {n - p}, an even number "
            f"with the odd factor {p}, so not a power of 2. From there every allowed divisor is odd and every move "
            f"gives an odd number; whenever your opponent hands you an odd composite you do this again, until they "
            f"make the last move. So {p} is a winning move."
        )
    return (
        f"{split_two_power(n)} is even and not a power of 2. Every allowed divisor d is odd, so {n}/d is even and "
        f"{n} − d = d × ({n}/d − 1) is odd: every move hands your opponent an odd number. If it is prime, your "
        f"opponent cannot move and wins; if it is composite, they subtract a prime factor and hand you an even "
        f"number that is not a power of 2 again. {n} is a losing position for the player to move."
    )


_MISERE_ODD_PROOF = r"""
**Theorem.** In misère Divisor Duel with *odd divisors only* (subtract an odd $d$ with $d \mid N$ and
$1 < d < N$; the player who cannot move **wins**), $N$ is a P-position exactly when $N$ is even and not a
power of 2. From an odd composite $N$, subtract any prime factor.

**Stuck numbers** (1, the odd primes and the powers of 2: no odd divisor strictly between 1 and $N$) are
N-positions: the player to move cannot move, and in misère play that player wins.

**Odd composite $N$.** Subtract a prime factor $p$: $N - p = p\,(N/p - 1)$ is even (odd − odd) and has the
odd factor $p > 1$, so it is not a power of 2: a P-position by induction.

**Even $N$ that is not a power of 2.** Every allowed divisor $d$ is odd, so $N/d$ is even and
$N - d = d\,(N/d - 1)$ is odd: every move gives an odd number, which is an N-position (stuck, or an odd
composite) by induction. So every move loses.
"""

MISERE_ODD_DIVISORS_FORM = ClosedForm(
    name="Misère Divisor Duel, odd divisors only",
    rules=DIVISOR_DUEL.variant(divisors="odd", last_mover_wins=False),
    statement="$n$ is a P-position iff $n$ is even and not a power of 2.",
    proof=_MISERE_ODD_PROOF.strip(),
    p_rule=_misere_odd_is_p,
    move_rule=_misere_odd_move,
    explain_rule=_misere_odd_explain,
    hint=(
        "In misère play being stuck wins. From {n}, which numbers leave your opponent stuck, "
        "and what do odd and even numbers do under an odd subtraction?"
    ),
)


# -- misère, even divisors only: the halving trick --------------------------------------------


def _misere_even_is_p(n: int) -> bool:
    return n == 4 or (n % 4 == 2 and n >= 10)


def _misere_even_move(n: int) -> int | None:
    if n % 2 == 1 or n == 2 or _misere_even_is_p(n):
        return None
    return 4 if n == 8 else 2


def _misere_even_explain(n: int) -> str:
    if n % 2 == 1 or n == 2:
        return (
            f"{n} has no even divisor d with 1 < d < {n}, so the player to move cannot move. In misère play the "
            f"last player to move loses, so the player to move wins."
        )
    if n == 4:
        return (
            "4 − 2 = 2 is the only move, and from 2 your opponent cannot move, which in misère play wins for them. "
            "4 is a losing position for the player to move."
        )
    if _misere_even_is_p(n):
        m = n // 2
        return (
            f"{n} = 2 × {m} with {m} odd and at least 5. Every even divisor is 2e with e an odd divisor of {m}, and "
            f"{n} − 2e = 2 × ({m} − e) is a multiple of 4 and at least 8 (as e ≤ {m}/3 or e = 1; it is 8 only "
            f"from 10): from a multiple of 4 other than 8 your opponent subtracts 2 and hands you twice an odd number "
            f"of at least 5 again, and from 8 they subtract 4 and leave you 4. {n} is a losing position for the "
            f"player to move."
        )
    d = 4 if n == 8 else 2
    return (
        f"Subtract {d}: {n} − {d} = {n - d}. "
        + (
            "From 4 the only move is 4 − 2 = 2, after which you cannot move and so win."
            if n - d == 4
            else f"{n - d} = 2 × {(n - d) // 2} is twice an odd number of at least 5, a losing position for your "
            f"opponent: every move from it leaves a multiple of 4 (at least 8), and you subtract 2 again (4 from 8)."
        )
        + f" So {d} is the winning move."
    )


_MISERE_EVEN_PROOF = r"""
**Theorem.** In misère Divisor Duel with *even divisors only* (subtract an even $d$ with $d \mid N$ and
$1 < d < N$; the player who cannot move **wins**), $N$ is a P-position exactly when $N = 4$, or
$N \equiv 2 \pmod 4$ and $N \ge 10$. From 8 subtract 4; from 6 and from other multiples of 4, subtract 2.

**The halving trick.** Odd $N$ and $N = 2$ have no allowed move: N-positions (stuck wins). For $N = 2m$
the even divisors below $N$ are the $2e$ with $e \mid m$, $1 \le e < m$, and $2m - 2e = 2(m - e)$. So the
game on $2m$ is the game $H$ on $m$: subtract **any** divisor $e < m$ of $m$ (1 allowed), the player stuck at
$m = 1$ winning.

**$H$, by strong induction: $m$ is P exactly when $m = 2$ or $m$ is odd and $m \ge 5$.**
* $m = 1$: stuck, so N. $m = 2$: the only move gives 1 (N), so P. $m = 3$: $3 - 1 = 2$ is P, so N.
  $m = 4$: $4 - 2 = 2$ is P, so N.
* Odd $m \ge 5$: every divisor $e$ is odd, so $m - e$ is even, and $m - e \ge m - m/3 > 3$ (or $e = 1$,
  $m - 1 \ge 4$): an even number $\ge 4$, an N-position. So $m$ is P.
* Even $m \ge 6$: $m - 1$ is odd and $\ge 5$, a P-position. So $m$ is N.

Translating back with $N = 2m$: P exactly when $N = 4$ or $N = 2m$ with $m$ odd, $m \ge 5$; the winning
moves $e = 1$ and ($m = 4$) $e = 2$ become $d = 2$ and $d = 4$.
"""

MISERE_EVEN_DIVISORS_FORM = ClosedForm(
    name="Misère Divisor Duel, even divisors only",
    rules=DIVISOR_DUEL.variant(divisors="even", last_mover_wins=False),
    statement="$n$ is a P-position iff $n = 4$, or $n \\equiv 2 \\pmod 4$ and $n \\ge 10$.",
    proof=_MISERE_EVEN_PROOF.strip(),
    p_rule=_misere_even_is_p,
    move_rule=_misere_even_move,
    explain_rule=_misere_even_explain,
    hint="Write {n} as 2 × m. In misère play being stuck wins: what does the game look like in terms of m?",
)


CLOSED_FORMS = (
    DIVISOR_DUEL_FORM,
    EVEN_DIVISORS_FORM,
    ODD_DIVISORS_FORM,
    PRIME_SUBTRACTION_FORM,
    MISERE_ODD_DIVISORS_FORM,
    MISERE_EVEN_DIVISORS_FORM,
)
