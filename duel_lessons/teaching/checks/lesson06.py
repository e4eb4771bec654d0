"""Checks for lesson 06, "What changes when you may subtract 1?" (Factor Duel, book 003).

The proof is built in two steps: the odd composite case put in order (``order``, a Parsons problem
with two plausible wrong lines) and the smallest counterexample to a classmate's shortcut for the
even case (``flaw``: an even N >= 4 with N - 1 not prime).

>>> p = {"rules": "factor-duel", "start": 100, "upto": 100, "ex_number": 10**9 + 1}
>>> SPEC.checks["1"](2, p).kind, SPEC.checks["1"](1, p).kind
('right', 'misconception')
>>> SPEC.checks["3"]([5, 25], p).kind
'misconception'
"""

from __future__ import annotations

from collections.abc import Callable

import sympy

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.tables import tabulate
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import listing
from duel_lessons.teaching.checks.lesson05 import picks_text
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_choice,
    expect_list,
    expect_member,
    plain,
)
from duel_lessons.teaching.proofs import expect_counterexample

SPEC = register(LessonSpec("06", needs=("rules", "start", "upto", "ex_number")))

HAND_OVER = (15, 16, 21, 32)
BOOK_MOVES = (25, 25, 25, 5, 10, 5)  # rule book 003, Example 1, from 100

SPEC.discovers(
    "book",
    r"\bmistakes?\b",
    r"\bmisprint",
    r"\bwrong\b",
    r"\berrors?\b",
    r"contradicts?",
    r"Player 2 wins",
    r"catch the (rule )?book",
)
SPEC.discovers(
    "hand-over",
    r"\bodd\b",
    r"\bodd numbers? (lose|are P)",
    r"\beven numbers? (win|are N)",
    r"\bparity\b",
    r"n\s*%\s*2",
    r"odd divisors?",
    r"subtract(ing)? 1 (wins|is the key)",
    r"powers of 2 are not special",
)


def rules_of(p: Params) -> Rules:
    """Factor Duel (book 003)."""
    return get_rules(p["rules"])


def _book_game(p: Params) -> GameState:
    state = new_game(rules_of(p), 100)
    for d in BOOK_MOVES:
        state = state.play(d)
    return state


def book_winner(p: Params) -> int:
    """Who wins the book's Example 1 under the book's own rule (the engine follows the rule)."""
    state = _book_game(p)
    assert state.winner is not None
    return int(state.winner)


@SPEC.guess_form("book")
def book_form(value: object, p: Params) -> str | None:
    """Player 1 or 2."""
    return None if type(plain(value)) is int and plain(value) in (1, 2) else "Answer 1 or 2 (a number, no quotes)."


@SPEC.check(1)
def example_winner(answer: object, p: Params) -> Verdict:
    """The winner of Example 1 by the rule (not the book's misprint)."""
    winner = book_winner(p)
    return expect_member(
        answer,
        {winner},
        what="player",
        misconceptions=[
            Misconception(
                "trust-the-book",
                3 - winner,
                "That is what the book says. Check it against the rule: who made the move that reached the prime?",
                "Moves alternate: move 1 is Player 1's, move 2 is Player 2's, ... Which player made move 6?",
            )
        ],
        hint="Find the move that lands on a prime. Who made it?",
        stronger="List the moves: which one leaves 5 on the board? Look at the player who made that move.",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    state = _book_game(p)
    before = state.number + BOOK_MOVES[-1]
    return book_winner(p), f"Player {book_winner(p)} made move {len(BOOK_MOVES)}, {before} → {state.number}, a prime."


@SPEC.reveal("book")
def book(guess: object, p: Params) -> str:
    """The engine's ending of Example 1."""
    last = _book_game(p).transcript().strip().splitlines()[-1]
    return (
        f'The engine, which follows the rule, ends the game with: "{last}" '
        "So the book contradicts its own rule. Example 2 (start 30: moves 15, 5, 5) is consistent."
    )


def _list_of(pool: tuple[int, ...], value: object) -> str | None:
    ask = f"Give a list of the numbers from {listing(pool)} you would hand over, such as [{pool[0]}] ([] for none)."
    if not isinstance(value, (list, tuple, set)) or any(type(x) is not int or x not in pool for x in value):
        return ask
    return None


@SPEC.guess_form("hand-over")
def hand_over_form(value: object, p: Params) -> str | None:
    """A list of some of 15, 16, 21 and 32."""
    return _list_of(HAND_OVER, value)


@SPEC.reveal("hand-over")
def hand_over(guess: object, p: Params) -> str:
    """The guess of section 3 against the table."""
    table = tabulate(rules_of(p), max(HAND_OVER))
    text = picks_text(guess, HAND_OVER, [n for n in HAND_OVER if table.is_p(n)])
    return text + (
        " From 3 on, the player to move loses exactly from the odd numbers, and 2 (a prime) loses too."
        " Unlike Divisor Duel, the powers of 2 are not special any more. Section 5 proves it."
    )


#: How far a conjecture test reaches beyond the data (the table is built that far: a few milliseconds).
REACH = 10**4


@SPEC.truth("loses", yes="loses", no="wins", reach=REACH)
def loses(p: Params) -> Callable[[int], bool]:
    """The Factor Duel table: True where the player to move loses."""
    return tabulate(rules_of(p), max(int(p["upto"]), REACH)).is_p


# -- the proof, built ------------------------------------------------------------------------------


def _shortcut_fails(n: int) -> bool:
    return n >= 4 and n % 2 == 0 and not sympy.isprime(n - 1)


def smallest_shortcut_failure() -> int:
    """The smallest even N >= 4 with N - 1 not prime (the classmate's shortcut fails there).

    >>> smallest_shortcut_failure()
    10
    """
    return next(n for n in range(4, 1000, 2) if _shortcut_fails(n))


@SPEC.check("flaw", label="Proof step 2 (the flaw)")
def flaw(answer: object, p: Params) -> Verdict:
    """The smallest even N >= 4 with N - 1 composite."""
    value = plain(answer)
    if type(value) is int and value % 2 == 1:
        return Verdict(
            "misconception",
            f"Your answer was {value}.",
            "The classmate's argument is about even numbers. Give an even number.",
            "The classmate subtracts 1 from an EVEN number. Try 4, 6, 8, ... in turn.",
            "odd",
        )
    if type(value) is int and value == 2:
        return Verdict(
            "misconception",
            "Your answer was 2.",
            "2 is prime: a game never starts from 2, and the even case is about N ≥ 4.",
            "Try 4, 6, 8, ... in turn: is N − 1 prime each time?",
            "two",
        )
    return expect_counterexample(
        answer,
        fails=_shortcut_fails,
        smallest=smallest_shortcut_failure(),
        claim="N − 1 is prime there",
        hint="Is every odd number prime? Subtract 1 from 4, 6, 8, ... in turn.",
        stronger="The argument says 'odd numbers are primes'. Go through 4, 6, 8, ... and stop at the first N "
        "for which N − 1 is not prime.",
    )


@SPEC.model("flaw")
def model_flaw(p: Params) -> tuple[object, str]:
    n = smallest_shortcut_failure()
    return n, (
        f"{n} − 1 = {n - 1} is odd but not prime; the real proof uses the induction there "
        f"({n - 1} is an odd composite, a P-position)."
    )


# -- exercises -------------------------------------------------------------------------------------


def _why_p_or_n(n: int) -> str:
    if n == 2 or (n % 2 and sympy.isprime(n)):
        return f"{n} is prime: the player who moved there has already won."
    if n % 2:
        return f"{n} is odd and composite: every move hands over an even number of at least 6."
    return f"{n} is even: subtract 1 and hand over the odd number {n - 1}."


@SPEC.check(2)
def p_or_n(answer: object, p: Params) -> Verdict:
    """P or N for EX_NUMBER, from the proved closed form."""
    form = closed_form(rules_of(p))
    assert form is not None
    n = int(p["ex_number"])
    right = "P" if form.is_p(n) else "N"
    return expect_choice(
        answer,
        right,
        ("P", "N"),
        misconceptions=[
            Misconception(
                "prime-or-composite",
                "N" if right == "P" else "P",
                "Is EX_NUMBER odd or even? Then use the claim you proved: does it matter whether it is prime?",
                "From 3 on, odd numbers are P-positions, prime or not; even numbers from 4 up are N. "
                "Which kind is EX_NUMBER?",
            )
        ],
        hint="Odd or even? Then use the claim of section 5.",
        stronger="Look at the last digit of EX_NUMBER: odd or even? Then use the claim you proved.",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    n = int(p["ex_number"])
    form = closed_form(rules_of(p))
    assert form is not None
    return ("P" if form.is_p(n) else "N"), _why_p_or_n(n)


@SPEC.check(3)
def winning_moves(answer: object, p: Params) -> Verdict:
    """Every winning move from START."""
    start = int(p["start"])
    rules = rules_of(p)
    right = list(tabulate(rules, start).winning_moves(start))
    legal = rules.divisors_of(start)
    return expect_list(
        answer,
        right,
        what="winning moves",
        misconceptions=[
            Misconception(
                "only-one",
                [1] if right != [1] else [-1],
                "1 wins, but it is not the only winning move. Which other moves leave an odd number?",
                "Every move that hands over a P-position wins. Which divisors of START leave an odd number?",
            ),
            Misconception(
                "results",
                [start - d for d in right],
                "Those are the numbers your moves leave. The answer is the divisors you subtract.",
                "For each number you listed, which divisor d gives START − d = that number?",
            ),
            Misconception(
                "forgot-one",
                [d for d in right if d != 1] if 1 in right else [-1],
                "Those moves win, but one winning move is missing. List the odd divisors of START"
                " again, smallest first.",
                "One odd divisor divides every number. Is it on your list?",
            ),
            Misconception(
                "even",
                [d for d in legal if d % 2 == 0],
                "An even number minus an even divisor is even. Whom does that help?",
                "START minus an even divisor is even, and even numbers are N-positions: those "
                "moves hand your opponent a win.",
            ),
        ],
        hint="A winning move leaves a P-position: an odd number (or a prime). Which divisors of START do that?",
        stronger="A winning move leaves an odd number. List every divisor of START that does, 1 included.",
    )


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    start = int(p["start"])
    right = list(tabulate(rules_of(p), start).winning_moves(start))
    if not right:
        return right, f"{start} is a P-position: no move wins."
    left = ", ".join(f"{start} − {d} = {start - d}" for d in right)
    return right, f"{left}: each hands over a P-position (odd, or a prime); every even divisor leaves an even number."


def _one_winning_move(rules: Rules, n: int) -> bool:
    """Whether the even number n >= 4 has fewer than two winning moves (the classmate's claim fails there)."""
    table = tabulate(rules, max(n, 4))
    return n >= 4 and n % 2 == 0 and len(table.winning_moves(n)) < 2


@SPEC.check(4)
def two_winning_moves(answer: object, p: Params) -> Verdict:
    """The smallest even N >= 4 with fewer than two winning moves (8: only 8 − 1 = 7 wins).

    Not 4, the first number the question names: from 4 both 4 − 1 = 3 and 4 − 2 = 2 are primes.
    """
    rules = rules_of(p)
    value = plain(answer)
    if type(value) is int and value % 2 == 1:
        return Verdict(
            "misconception",
            f"Your answer was {value}.",
            "The claim is about even numbers. Give an even number.",
            "Go through the even numbers from 4 up: list every move and what it leaves.",
            "odd",
        )
    if value == 2:
        return Verdict(
            "misconception",
            "Your answer was 2.",
            "The claim starts at 4: 2 is prime, and a game never starts from 2.",
            "Go through the even numbers from 4 up: list every move and what it leaves.",
            "two",
        )
    if type(value) is int and value >= 4 and value % 2 == 0 and not _one_winning_move(rules, value):
        moves = tabulate(rules, value).winning_moves(value)
        return Verdict(
            "miss",
            f"From {value} there are {len(moves)} winning moves, so the claim holds there.",
            "Which moves win from an even number? Use what you proved: a winning move hands over an odd number "
            "(or a prime). Which even numbers have few such moves?",
            "An even move leaves an even number, which wins only if it is the prime 2. Odd divisors leave odd "
            "numbers. Which even numbers have only one odd divisor?",
            f"holds:{value}",
        )
    return expect_counterexample(
        answer,
        fails=lambda n: _one_winning_move(rules, n),
        smallest=smallest_one_move(p),
        claim="it has at least two winning moves",
        limit=10**4,
        hint="Which moves win from an even number? Use what you proved: a winning move hands over an odd number "
        "(or a prime). Which even numbers have few such moves?",
        stronger="An even move leaves an even number, which wins only if it is the prime 2. Odd divisors leave odd "
        "numbers. Which even numbers have only one odd divisor?",
    )


def smallest_one_move(p: Params) -> int:
    """The smallest even N >= 4 with fewer than two winning moves.

    >>> smallest_one_move({"rules": "factor-duel"})
    8
    """
    rules = rules_of(p)
    return next(n for n in range(4, 10**4, 2) if _one_winning_move(rules, n))


@SPEC.model(4)
def model_4(p: Params) -> tuple[object, str]:
    n = smallest_one_move(p)
    rules = rules_of(p)
    wins = list(tabulate(rules, n).winning_moves(n))
    others = [d for d in rules.divisors_of(n) if d not in wins]
    left = " and ".join(f"{n} − {d} = {n - d}" for d in others)
    won = ", ".join(f"{n} − {d} = {n - d}" for d in wins) or "none"
    return n, f"From {n} only {won} wins; {left} hand over N-positions. (From 4, 4 − 1 = 3 and 4 − 2 = 2 both win.)"
