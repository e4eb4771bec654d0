"""Factor Duel (book 003): subtract a divisor, 1 allowed; moving to a prime wins, to 1 loses.

This file holds the book's rules and wording, its closed form with the proof, and the coach's hint.

>>> FACTOR_DUEL_FORM.is_p(9), FACTOR_DUEL_FORM.winning_move(100)
(True, 1)
"""

from __future__ import annotations

from duel_lessons.engine.closed_form import ClosedForm, is_prime, least_prime_factor
from duel_lessons.engine.rules import Rules, Wording

__all__ = ["CLOSED_FORMS", "FACTOR_DUEL", "FACTOR_DUEL_FORM", "RULES"]

BOOK_NUMBERS = ("003",)

FACTOR_DUEL = Rules(
    name="factor-duel",
    title="Factor Duel",
    allow_one=True,
    win_on_reaching="prime",
    lose_on_reaching="one",
    source="book 003",
    default_start=100,
    min_start=3,
    start_rule="Factor Duel starts from a number greater than 2 (book 003).",
    wording=Wording(
        opening="Game Start! Starting Number: {n}",
        show="Current number is {n}.\nProper divisors of {n}: {divisors}",
        prompt="Enter the divisor to subtract: ",
        moved="{player} subtracts {d}: {n} - {d} = {new}",
        end_reached="{why} {winner} wins!",
    ),
)
RULES = FACTOR_DUEL


# -- factor-duel: N -> N - d, 1 <= d < N, moving to a prime wins, to 1 loses ----------


def _fd_is_p(n: int) -> bool:
    return n == 2 or (n % 2 == 1 and n > 1)


def _fd_move(n: int) -> int | None:
    return None if _fd_is_p(n) or n == 1 else 1


def _fd_explain(n: int) -> str:
    if n == 1:
        return "The player who moved to 1 lost at once, so the game is over and the player now to move has won."
    if is_prime(n):
        return f"{n} is prime: the player who moved to {n} won at once, so the player to move has lost."
    if n % 2 == 0:
        r = n - 1
        if is_prime(r):
            then = f"{r} is prime, so you win at once."
        else:
            then = (
                f"{r} is odd and composite, a losing position for your opponent: every divisor of {r} "
                f"(including 1) is odd, so every move gives an even number; the largest allowed divisor is at "
                f"most {r}/3, so the result is at least 2 × {r}/3 ≥ 6, an even number that is neither prime "
                f"nor 1. Then you subtract 1 again."
            )
        return f"{n} is even. Subtract 1: {n} − 1 = {r}, which is odd. {then}"
    p = least_prime_factor(n)
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

Together with "primes are lost for the player to move", this proves the theorem.

**Which moves win.** Subtracting 1 is one winning move, never the only one from $N \ge 6$: from an even
$N \ge 6$ the winning moves are exactly its **odd** divisors ($60 - 1$, $60 - 3$, $60 - 5$ and $60 - 15$ all
win). An odd divisor $d$ leaves the odd number $N - d \ge 3$, a prime or an odd composite; an even divisor
leaves an even number, which is at least 4 (it is 2 only if $N - 2$ divides $N$, that is $N = 4$), so it is
an N-position. From 4 both moves win: $4 - 1 = 3$ and $4 - 2 = 2$ are primes.
"""

FACTOR_DUEL_FORM = ClosedForm(
    name="Factor Duel",
    rules=FACTOR_DUEL,
    statement=(
        "$n$ is a P-position iff $n$ is odd and $n > 1$, or $n = 2$ (every even composite wins by subtracting 1)."
    ),
    proof=_FD_PROOF.strip(),
    p_rule=_fd_is_p,
    move_rule=_fd_move,
    explain_rule=_fd_explain,
    hint=(
        "Is {n} odd or even? Remember that 1 is an allowed divisor. "
        "Which divisor changes odd into even or even into odd, and who can always use it?"
    ),
)


CLOSED_FORMS = (FACTOR_DUEL_FORM,)
