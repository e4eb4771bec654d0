"""Checks for lesson 05, "Is Division Duel a fair game?" (book 001 and its prime-divisor repair).

Every right answer is computed here from the lesson's parameters, never in the notebook.

>>> p = {"rules": "division-duel", "start": 60, "upto": 100, "ex_start": 36, "ex_omega": 720,
...      "ex_power": 1024, "ex_length": 5}
>>> SPEC.checks["1"]([2, 3], p).kind
'misconception'
>>> SPEC.checks["1"]([18, 12], p).kind
'right'
"""

from __future__ import annotations

from collections.abc import Callable

import sympy

from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.solving.tables import tabulate
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import compare_sets, listing
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_choice,
    expect_list,
    expect_member,
    expect_number,
)

SPEC = register(LessonSpec("05", needs=("rules", "start", "upto", "ex_start", "ex_omega", "ex_power", "ex_length")))

HAND_OVER = (12, 25, 30, 49)
REPAIR_CHOICES = (8, 12, 16, 30, 60)


def rules_of(p: Params) -> Rules:
    """The lesson's rule book (Division Duel unless a teacher changed it)."""
    return get_rules(p["rules"])


def repaired(p: Params) -> Rules:
    """The repair of section 6: prime divisors only."""
    rules = rules_of(p)
    return rules.variant(f"{rules.name}/prime", divisors="prime", title=f"{rules.title}, prime divisors only")


def omega(n: int) -> int:
    """Ω(n), the number of prime factors of n counted with repetition.

    >>> omega(720)
    7
    """
    return int(sympy.primeomega(n))


# -- guesses and reveals -------------------------------------------------------------------------


def picks_text(guess: object, pool: tuple[int, ...], truth: list[int]) -> str:
    """How a guessed list of numbers to hand over compares with the numbers that really lose (used by later lessons).

    >>> picks_text([25, 49], (12, 25, 30, 49), []).split("** ")[0]
    '**The player to move loses from none of 12, 25, 30 and 49.'
    """
    try:
        chosen = [int(n) for n in guess] if isinstance(guess, (list, tuple, set)) else [int(str(guess))]
    except (TypeError, ValueError):
        chosen = []
    head = f"**The player to move loses from {listing(truth) if truth else 'none'} of {listing(pool)}.**"
    if truth:
        head = f"**Of {listing(pool)}, the player to move loses from {listing(truth)}.**"
    return f"{head} {compare_sets(chosen, truth, pool)}"


@SPEC.reveal("hand-over")
def hand_over(guess: object, p: Params) -> str:
    """How the guess of section 2 compares with the table."""
    table = tabulate(rules_of(p), max(HAND_OVER))
    losing = [n for n in HAND_OVER if table.is_p(n)]
    upto = int(p["upto"])
    big = tabulate(rules_of(p), upto)
    composite_p = [n for n in range(4, upto + 1) if not sympy.isprime(n) and big.is_p(n)]
    tail = (
        " In fact, from every composite number up to UPTO the player to move wins:"
        " the P-positions are 1 and the primes."
        if not composite_p
        else f" The composite P-positions up to UPTO start {composite_p[:5]}."
    )
    return picks_text(guess, HAND_OVER, losing) + tail + " Section 5 asks: why, for every composite number?"


@SPEC.reveal("repair")
def repair(guess: object, p: Params) -> str:
    """How the guess about the repaired game compares with the table."""
    table = tabulate(repaired(p), max(REPAIR_CHOICES))
    losing = [n for n in REPAIR_CHOICES if table.is_p(n)]
    return picks_text(guess, REPAIR_CHOICES, losing) + (
        " Compare the outcome column with the Ω column: n > 1 loses exactly when Ω(n) is odd."
        " The proof below shows why."
    )


@SPEC.truth("loses", yes="loses", no="wins")
def loses(p: Params) -> Callable[[int], bool]:
    """The table of the lesson's game: True where the player to move loses."""
    table = tabulate(rules_of(p), int(p["upto"]))
    return table.is_p


@SPEC.truth("repaired-loses", yes="loses", no="wins")
def repaired_loses(p: Params) -> Callable[[int], bool]:
    """The table of the repaired game."""
    table = tabulate(repaired(p), int(p["upto"]))
    return table.is_p


# -- proof steps -----------------------------------------------------------------------------------


@SPEC.check("proof-1")
def proof_1(answer: object, p: Params) -> Verdict:
    """The divisor of START that leaves its largest prime factor."""
    start = int(p["start"])
    primes = sorted(sympy.factorint(start))
    return expect_number(
        answer,
        start // primes[-1],
        misconceptions=[
            Misconception("result-not-divisor", primes[-1],
                          "That is the number you want to leave. The move is the divisor you divide by."),
            Misconception("smallest-prime", start // primes[0],
                          "That divisor leaves the smallest prime factor. The question asks for the largest."),
        ],
        hint="You want START ÷ d to be the largest prime factor. Solve for d.",
        stronger="If START = d × p, then START ÷ d = p. Which d goes with the largest p?",
    )


@SPEC.check("proof-2")
def proof_2(answer: object, p: Params) -> Verdict:
    """Which divisor leaves the prime factor p: (b) N / p."""
    return expect_choice(
        answer, "b", ("a", "b", "c", "d"),
        misconceptions=[
            Misconception("c", "C", "Dividing by p leaves N / p. Is that a prime? Try N = 60, p = 5."),
            Misconception("a", "A", "This game divides; it does not subtract."),
            Misconception("d", "D", "N · p is bigger than N, so it is not a divisor you may play."),
        ],
        hint="Try each option on N = 60, p = 5: which one gives 60 ÷ d = 5?",
    )


def _divide_by_two_works(n: int) -> bool:
    return n % 2 == 0 and sympy.isprime(n // 2)


@SPEC.check("proof-3")
def proof_3(answer: object, p: Params) -> Verdict:
    """A composite number where "divide by 2 and the opponent is stuck" fails."""
    upto = int(p["upto"])
    flaws = [n for n in range(4, upto + 1) if not sympy.isprime(n) and not _divide_by_two_works(n)]
    return expect_member(
        answer, flaws,
        misconceptions=[
            Misconception("prime", lambda n: sympy.isprime(n),
                          "That number is prime. The claim is about composite numbers only."),
            Misconception("works", lambda n: isinstance(n, int) and n > 3 and _divide_by_two_works(n),
                          "From that number, dividing by 2 does leave a prime: the argument works there. "
                          "Look for a composite number where it cannot work."),
            Misconception("too-big", lambda n: isinstance(n, int) and n > upto,
                          "Pick a number up to UPTO."),
            Misconception("one", 1, "1 is not composite (it has no prime factor at all)."),
        ],
        hint="The argument needs two things: 2 must divide the number, and the result must be prime. "
             "Find a composite number where one of them fails.",
        stronger="Try an odd composite number, or try 8.",
    )


@SPEC.check("proof-4")
def proof_4(answer: object, p: Params) -> Verdict:
    """Every move of the repaired game lowers Ω by exactly 1."""
    return expect_number(
        answer, 1,
        misconceptions=[Misconception("two", 2, "Dividing 12 = 2 × 2 × 3 by the prime 2 gives 6 = 2 × 3. "
                                                "How many prime factors went?")],
        hint="Try it: Ω(60) = 4. Divide 60 by 3. What is Ω of the result?",
    )


@SPEC.check("proof-5")
def proof_5(answer: object, p: Params) -> Verdict:
    """The length of every repaired game from START."""
    start = int(p["start"])
    length = int(tabulate(repaired(p), start).remoteness[start])
    return expect_number(
        answer, length,
        misconceptions=[Misconception("omega", omega(start),
                                      "That is Ω(START), the number of prime factors. The game stops at a prime, "
                                      "which still has one prime factor left.")],
        hint="Count the prime factors of START, then count how many can be removed before a prime is left.",
    )


@SPEC.check("proof-6")
def proof_6(answer: object, p: Params) -> Verdict:
    """With squares of primes allowed, line 1 (and so line 3) fails."""
    return expect_member(
        answer, {1},
        misconceptions=[
            Misconception("line-3", 3, "Line 3 does fail, but only because an earlier line fails first. Which one?"),
            Misconception("line-2", 2, "A prime still has no allowed divisor (4, 9, 25 are not primes' divisors). "
                                       "Try dividing 12 by 4: what happens to Ω?"),
        ],
        hint="Divide 12 = 2 × 2 × 3 by 4. By how much does Ω go down?",
    )


# -- exercises -------------------------------------------------------------------------------------


@SPEC.check(1)
def winning_first_moves(answer: object, p: Params) -> Verdict:
    """Every winning first move from EX_START in the lesson's game."""
    n = int(p["ex_start"])
    rules = rules_of(p)
    moves = list(tabulate(rules, n).winning_moves(n))
    results = sorted(n // d for d in moves)
    return expect_list(
        answer, moves, what="winning moves",
        misconceptions=[
            Misconception("results", results,
                          "Those are the numbers left after the moves. A move is the divisor you divide by."),
            Misconception("all-divisors", list(rules.divisors_of(n)),
                          "That is every legal move. Which of them leave your opponent stuck?"),
        ],
        hint="A move d wins when EX_START ÷ d is a prime. Which primes divide EX_START?",
        stronger="For each prime factor p of EX_START, which divisor d gives EX_START ÷ d = p?",
    )


@SPEC.check(2)
def omega_of(answer: object, p: Params) -> Verdict:
    """Ω(EX_OMEGA)."""
    n = int(p["ex_omega"])
    return expect_number(
        answer, omega(n),
        misconceptions=[
            Misconception("distinct", int(sympy.primenu(n)) if sympy.primenu(n) != omega(n) else -1,
                          "You counted the different primes. Ω counts with repetition: Ω(12) = 3, for 2 × 2 × 3."),
            Misconception("divisors", int(sympy.divisor_count(n)),
                          "That is the number of divisors. Ω counts prime factors."),
        ],
        hint="Split EX_OMEGA into primes step by step (720 = 72 × 10 = 8 × 9 × 2 × 5 = ...) and count them all.",
    )


@SPEC.check(3)
def repaired_length(answer: object, p: Params) -> Verdict:
    """The length of the repaired game from EX_POWER."""
    n = int(p["ex_power"])
    length = int(tabulate(repaired(p), n).remoteness[n])
    return expect_number(
        answer, length,
        misconceptions=[Misconception("omega", omega(n),
                                      "That counts the prime factors. The game stops at a prime, "
                                      "so not every factor can be removed.")],
        hint="Every move removes one prime factor. When does the game stop?",
    )


@SPEC.check(4)
def smallest_start(answer: object, p: Params) -> Verdict:
    """The smallest start of a repaired game lasting EX_LENGTH moves: the smallest n with Ω(n) = EX_LENGTH + 1."""
    length = int(p["ex_length"])
    smallest = 2 ** (length + 1)  # every n with Ω(n) = k is at least 2^k, and 2^k has Ω = k
    primorial = int(sympy.primorial(length + 1))
    return expect_number(
        answer, smallest,
        misconceptions=[
            Misconception("off-by-one", 2**length,
                          "From that number the game lasts one move fewer: the game stops at a prime."),
            Misconception("distinct-primes", primorial,
                          "That number has the right number of prime factors, but a smaller one does too: "
                          "a prime may be used more than once."),
        ],
        hint="How many prime factors must the start have? Then make that number as small as possible.",
        stronger="A game of k moves needs k + 1 prime factors. Which is the smallest prime? Use it every time.",
    )

