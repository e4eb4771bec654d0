"""Division Duel (book 001): divide by a proper divisor; a player with no move loses.

This file holds the book's rules and wording, its closed form (with the Grundy value
Ω(n) − 1) and the closed form of the prime-divisors-only variant, each with the coach's hint.
Number Factor (book 004) is the same game with passes; its file reuses the arithmetic here.

>>> DIVISION_DUEL_FORM.winning_move(60), PRIME_DIVISION_FORM.is_p(12)
(30, True)
"""

from __future__ import annotations

from collections.abc import Callable

from duel_lessons.engine.closed_form import ClosedForm, factor_words, is_prime, least_prime_factor, omega
from duel_lessons.engine.rules import Rules, Wording

__all__ = ["CLOSED_FORMS", "DIVISION_DUEL", "DIVISION_DUEL_FORM", "DIVISION_PROOF", "PRIME_DIVISION_FORM", "RULES"]

BOOK_NUMBERS = ("001",)

DIVISION_DUEL = Rules(
    name="division-duel",
    title="Division Duel",
    move="divide",
    source="book 001",
    default_start=60,
    composite_start=True,
    start_rule="Division Duel starts from a composite number (book 001).",
    wording=Wording(
        opening="Game Start! Shared Number: {n}",
        turn="",
        show="Current Shared Number: {n}\nAvailable Divisors: {divisors}",
        prompt="{player}, enter your chosen divisor: ",
        moved="{n} divided by {d} equals {new}.\nNew Shared Number is {new}.",
        show_stuck="Current Shared Number: {n}",
        end_stuck="{loser} has no valid moves. {winner} wins!",
    ),
)
RULES = DIVISION_DUEL


# -- division-duel and number-factor: N -> N / d, 1 < d < N ---------------------------


def division_is_p(n: int) -> bool:
    return n == 1 or is_prime(n)


def division_move(n: int) -> int | None:
    return None if division_is_p(n) else n // least_prime_factor(n)


def division_grundy(n: int) -> int:
    return max(omega(n) - 1, 0) if n > 1 else 0


def division_explainer(passing: bool) -> Callable[[int], str]:
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
        if is_prime(n):
            return f"{n} is prime, so it has no divisor d with 1 < d < {n}: the player to move {stuck}."
        p = least_prime_factor(n)
        d = n // p
        return (
            f"{n} = {factor_words(n)} is composite, with the prime factor {p}. "
            f"Divide by {d}: {n} ÷ {d} = {p}, a prime. {p} has no divisor d with 1 < d < {p}, "
            f"so {opponent}. "
            f"Every composite number wins in one move this way."
        )

    return explain


DIVISION_PROOF = r"""
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


DIVISION_DUEL_FORM = ClosedForm(
    name="Division Duel",
    rules=DIVISION_DUEL,
    statement="$n$ is a P-position iff $n$ is 1 or prime; every composite $n$ wins in one move.",
    proof=DIVISION_PROOF.strip(),
    p_rule=division_is_p,
    move_rule=division_move,
    explain_rule=division_explainer(passing=False),
    grundy_rule=division_grundy,
    hint=("What happens to a player who is handed a prime? Can you hand one over from {n} right now?"),
)

# -- prime divisors only, division: N -> N / p --------------------------------------------


def _pdiv_is_p(n: int) -> bool:
    return n == 1 or omega(n) % 2 == 1


def _pdiv_move(n: int) -> int | None:
    return None if _pdiv_is_p(n) else least_prime_factor(n)


def _pdiv_grundy(n: int) -> int:
    return 0 if n == 1 else (omega(n) - 1) % 2


def _pdiv_explain(n: int) -> str:
    if n == 1 or is_prime(n):
        return f"{n} has no prime divisor smaller than itself: the player to move has no move and loses."
    k = omega(n)
    moves = k - 1
    plural = "move" if moves == 1 else "moves"
    text = (
        f"{n} = {factor_words(n)} has {k} prime factors counted with repetition. Every move divides by one "
        f"prime, so it removes exactly one factor, and the game stops when one prime is left. So the game lasts "
        f"exactly {k} − 1 = {moves} {plural}, whatever anybody plays. "
    )
    if moves % 2 == 1:
        p = least_prime_factor(n)
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
    rules=DIVISION_DUEL.variant(divisors="prime"),
    statement="$n$ is a P-position iff $n = 1$ or $\\Omega(n)$ (prime factors with repetition) is odd.",
    proof=_PDIV_PROOF.strip(),
    p_rule=_pdiv_is_p,
    move_rule=_pdiv_move,
    explain_rule=_pdiv_explain,
    grundy_rule=_pdiv_grundy,
    hint=("Count the prime factors of {n} (with repetition). How many moves can the game last?"),
)


CLOSED_FORMS = (DIVISION_DUEL_FORM, PRIME_DIVISION_FORM)
