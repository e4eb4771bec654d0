"""Checks for lesson 05, "Is Division Duel a fair game?" (book 001 and its prime-divisor repair).

Every right answer and every model answer is computed here from the lesson's parameters, never in the notebook.
Two proofs, each built in two steps: the one-move win (``proof-1``: the divisor N/p, typed; ``proof-2``: the
smallest counterexample to "divide by 2 and the opponent is stuck") and the repaired game that nobody can
steer (``proof-3``: the game's length in terms of Ω, typed; ``proof-4``: which line fails when squares of
primes are allowed, and a divisor that shows it).

>>> p = {"rules": "division-duel", "start": 60, "upto": 100, "ex_start": 36, "ex_length": 5}
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
from duel_lessons.teaching.checks.common import compare_sets, expression_form, listing
from duel_lessons.teaching.feedback import Misconception, Verdict, expect_list, expect_number, plain
from duel_lessons.teaching.proofs import expect_counterexample, expect_expression, expect_step

SPEC = register(LessonSpec("05", needs=("rules", "start", "upto", "ex_start", "ex_length")))

HAND_OVER = (12, 25, 30, 49)
REPAIR_CHOICES = (8, 12, 16, 30, 60)

SPEC.discovers(
    "hand-over",
    r"\bin one move\b",
    r"\bat once\b",
    r"\bcomposites? (numbers? )?(always )?wins?\b",
    r"\bevery composite",
    r"N\s*/\s*p\b",
    r"N\s*÷\s*p\b",
    r"leaves? (its |a |the )?(largest |smallest |biggest )?prime",
    r"\b(largest|biggest) (proper )?divisor (wins|leaves)",
    r"divid(e|ing) by the (largest|biggest)",
)
SPEC.discovers(
    "repair",
    r"\bsteer",
    r"whatever (anyone|anybody|you|they) plays?",
    r"Ω\s*\(\s*[nN]\s*\)\s*[−-]\s*1",
    r"\bW\s*[−-]\s*1\b",
    r"lowers? Ω",
    r"Ω[^.\n]*\b(odd|even)\b",
    r"exactly one prime factor",
)


def rules_of(p: Params) -> Rules:
    """The lesson's rule book (Division Duel)."""
    return get_rules(p["rules"])


def repaired(p: Params) -> Rules:
    """The repair of section 5: prime divisors only."""
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


def _list_of(pool: tuple[int, ...], value: object) -> str | None:
    ask = f"Give a list of the numbers from {listing(pool)} you would hand over, such as [{pool[0]}] ([] for none)."
    if not isinstance(value, (list, tuple, set)):
        return ask
    if any(type(x) is not int or x not in pool for x in value):
        return ask
    return None


@SPEC.guess_form("hand-over")
def hand_over_form(value: object, p: Params) -> str | None:
    """A list of some of 12, 25, 30 and 49."""
    return _list_of(HAND_OVER, value)


@SPEC.guess_form("repair")
def repair_form(value: object, p: Params) -> str | None:
    """A list of some of 8, 12, 16, 30 and 60."""
    return _list_of(REPAIR_CHOICES, value)


@SPEC.reveal("hand-over")
def hand_over(guess: object, p: Params) -> str:
    """How the guess of section 2 compares with the table."""
    table = tabulate(rules_of(p), max(HAND_OVER))
    losing = [n for n in HAND_OVER if table.is_p(n)]
    upto = int(p["upto"])
    big = tabulate(rules_of(p), upto)
    composite_p = [n for n in range(4, upto + 1) if not sympy.isprime(n) and big.is_p(n)]
    tail = (
        f" In fact, from every composite number up to {upto} the player to move wins:"
        " the P-positions are 1 and the primes."
        if not composite_p
        else f" The composite P-positions up to {upto} start {composite_p[:5]}."
    )
    return picks_text(guess, HAND_OVER, losing) + tail + " Section 4 asks: why, for every composite number?"


@SPEC.reveal("repair")
def repair(guess: object, p: Params) -> str:
    """How the guess about the repaired game compares with the table."""
    table = tabulate(repaired(p), max(REPAIR_CHOICES))
    losing = [n for n in REPAIR_CHOICES if table.is_p(n)]
    return picks_text(guess, REPAIR_CHOICES, losing) + (
        " Compare the outcomes with the Ω column: n > 1 loses exactly when Ω(n) is odd. The proof below shows why."
    )


#: How far a conjecture test reaches beyond the data (the table is built that far: a few milliseconds).
REACH = 10**4


@SPEC.truth("loses", yes="loses", no="wins", reach=REACH)
def loses(p: Params) -> Callable[[int], bool]:
    """The table of the lesson's game: True where the player to move loses."""
    table = tabulate(rules_of(p), max(int(p["upto"]), REACH))
    return table.is_p


# -- the one-move proof ----------------------------------------------------------------------------

#: (N, p): N composite, p a prime factor of N; a wrong divisor is refuted on the first that differs.
MOVE_CASES = ({"N": 60, "p": 5}, {"N": 60, "p": 2}, {"N": 15, "p": 3}, {"N": 12, "p": 3}, {"N": 49, "p": 7})


@SPEC.check("proof-1", label="Proof step 1 (the winning divisor)")
def proof_1(answer: object, p: Params) -> Verdict:
    """The divisor d that leaves the prime factor p: N/p, typed in N and p."""
    slip = expression_form(answer, "N - 2*p")
    if slip is not None:
        return slip
    return expect_expression(
        answer,
        "N/p",
        names=("N", "p"),
        cases=MOVE_CASES,
        misconceptions=[
            Misconception(
                "the-prime",
                "p",
                "Dividing by p leaves N ÷ p. You want to LEAVE p: N ÷ d = p.",
                "Try N = 60, p = 5: 60 ÷ 5 = 12, not 5. Which d gives 60 ÷ d = 5?",
            ),
            Misconception(
                "subtract",
                "N - p",
                "This game divides; it does not subtract. You need N ÷ d = p.",
                "N − p is what subtraction would leave. Solve N ÷ d = p for d.",
            ),
            Misconception(
                "times",
                "N*p",
                "N × p is bigger than N, so it is not a divisor you may play.",
                "A divisor you may play is smaller than N. Solve N ÷ d = p for d.",
            ),
        ],
        hint="You want N ÷ d = p. Solve for d.",
        stronger="Try N = 60 and p = 5: which d gives 60 ÷ d = 5? Now say how you got it from 60 and 5.",
    )


@SPEC.model("proof-1")
def model_proof_1(p: Params) -> tuple[object, str]:
    start = int(p["start"])
    prime = max(sympy.factorint(start))
    return "N/p", f"N = (N/p) × p, so N ÷ (N/p) = p: for {start} and p = {prime}, {start} ÷ {start // prime} = {prime}."


def _halving_works(n: int) -> bool:
    return n % 2 == 0 and sympy.isprime(n // 2)


def _composite(n: int) -> bool:
    return n > 3 and not sympy.isprime(n)


def smallest_flaw() -> int:
    """The smallest composite number where "divide by 2 and the opponent is stuck" fails.

    >>> smallest_flaw()
    8
    """
    return next(n for n in range(4, 1000) if _composite(n) and not _halving_works(n))


@SPEC.check("proof-2", label="Proof step 2 (the flaw)")
def proof_2(answer: object, p: Params) -> Verdict:
    """The smallest composite number where "divide by 2 and the opponent is stuck" fails."""
    value = plain(answer)
    if type(value) is int and (value == 1 or (value > 1 and sympy.isprime(value))):
        return Verdict(
            "misconception",
            f"Your answer was {value}.",
            "The classmate's claim is about composite numbers only: numbers with a divisor d, 1 < d < N.",
            "Composite means a product of two numbers bigger than 1, such as 4 = 2 × 2. Go through 4, 6, 8, 9, ...",
            "not-composite",
        )
    return expect_counterexample(
        answer,
        fails=lambda n: _composite(n) and not _halving_works(n),
        smallest=smallest_flaw(),
        claim="dividing by 2 leaves a prime there",
        hint="The argument needs two things: 2 must divide the number, and the result must be prime. "
        "Go through the composite numbers from 4 up.",
        stronger="For each of 4, 6, 8, 9, 10, ...: does 2 divide it, and is half of it a prime?",
    )


@SPEC.model("proof-2")
def model_proof_2(p: Params) -> tuple[object, str]:
    n = smallest_flaw()
    if n % 2:
        return n, f"{n} is composite and odd: 2 does not divide it."
    return n, f"{n} ÷ 2 = {n // 2}, which is not prime: the opponent can still move ({n // 2} ÷ 2 = {n // 4})."


# -- the repaired game's proof ---------------------------------------------------------------------


@SPEC.check("proof-3", label="Proof step 3 (the length of every game)")
def proof_3(answer: object, p: Params) -> Verdict:
    """Every repaired game from N lasts Ω(N) − 1 moves: typed as W - 1, with W = Ω(N)."""
    slip = expression_form(answer, "2*W")
    if slip is not None:
        return slip
    return expect_expression(
        answer,
        "W - 1",
        names=("W",),
        cases=({"W": 4}, {"W": 2}, {"W": 7}, {"W": 1}),
        misconceptions=[
            Misconception(
                "omega",
                "W",
                "The game stops at a prime, which still has one prime factor left.",
                "Ω(60) = 4, and a game from 60 stops when one prime is left: how many factors were removed?",
            ),
            Misconception(
                "plus-one",
                "W + 1",
                "Each move removes a prime factor: can a game have more moves than N has prime factors?",
                "Ω(60) = 4, and a game from 60 stops when one prime is left: how many factors were removed?",
            ),
        ],
        hint="Line 1: each move removes one prime factor. Line 2: the game stops when Ω = 1.",
        stronger="Start with W prime factors and remove one per move until one is left. How many moves is that?",
    )


@SPEC.model("proof-3")
def model_proof_3(p: Params) -> tuple[object, str]:
    start = int(p["start"])
    w = omega(start)
    return "W - 1", f"Ω({start}) = {w}, and the game stops at a prime (Ω = 1): {w} − 1 = {w - 1} moves from {start}."


def _prime_square(d: int) -> bool:
    root = sympy.integer_nthroot(d, 2)
    return bool(root[1]) and sympy.isprime(int(root[0]))


@SPEC.check("proof-4", label="Proof step 4 (squares of primes)")
def proof_4(answer: object, p: Params) -> Verdict:
    """With squares of primes allowed, line 1 fails; a square of a prime (4, 9, ...) shows it."""
    value = plain(answer)
    if isinstance(value, (list, tuple)) and len(value) == 2 and value[0] == 3 and type(value[1]) is int:
        return Verdict(
            "misconception",
            f"Your answer was line 3 with {value[1]}.",
            "Line 3 does fail, but only because an earlier line fails first. Which one?",
            "Line 3 needs line 1 (every move lowers Ω by the same amount). Is that still true for the new moves?",
            "line-3",
        )
    return expect_step(
        answer,
        steps=4,
        failing=1,
        shows=_prime_square,
        what="a new divisor (a square of a prime) that removes more than one prime factor",
        hint="Take a square of a prime as the divisor, and divide a number by it. By how much does Ω go down?",
        stronger="Write the square of a prime as p × p. Dividing by it removes how many prime factors? "
        "Which line says how many a move removes?",
    )


@SPEC.model("proof-4")
def model_proof_4(p: Params) -> tuple[object, str]:
    start = int(p["start"])
    square = next((q * q for q in sorted(sympy.factorint(start)) if start % (q * q) == 0), 4)
    return (1, square), (
        f"Dividing by {square} = {sympy.integer_nthroot(square, 2)[0]} × {sympy.integer_nthroot(square, 2)[0]} "
        "lowers Ω by 2, so line 1 fails (and with it line 3)."
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
        answer,
        moves,
        what="winning moves",
        misconceptions=[
            Misconception(
                "results",
                results,
                "Those are the numbers left after the moves. A move is the divisor you divide by.",
                "A move is the divisor d; your list holds EX_START ÷ d. For each prime you listed, which d leaves it?",
            ),
            Misconception(
                "all-divisors",
                list(rules.divisors_of(n)),
                "That is every legal move. Which of them leave your opponent stuck?",
                "A winning move leaves the opponent stuck, that is on a prime. Keep only the "
                "divisors d for which EX_START ÷ d is prime.",
            ),
        ],
        hint="A move d wins when EX_START ÷ d is a prime. Which primes divide EX_START?",
        stronger="For each prime factor p of EX_START, which divisor d gives EX_START ÷ d = p?",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    n = int(p["ex_start"])
    moves = sorted(tabulate(rules_of(p), n).winning_moves(n))
    return moves, " and ".join(f"{n} ÷ {d} = {n // d}" for d in moves) + ": each leaves a prime."


@SPEC.check(2)
def smallest_start(answer: object, p: Params) -> Verdict:
    """The smallest start of a repaired game lasting EX_LENGTH moves: the smallest n with Ω(n) = EX_LENGTH + 1."""
    length = int(p["ex_length"])
    smallest = 2 ** (length + 1)  # every n with Ω(n) = k is at least 2^k, and 2^k has Ω = k
    primorial = int(sympy.primorial(length + 1))
    return expect_number(
        answer,
        smallest,
        misconceptions=[
            Misconception(
                "off-by-one",
                2**length,
                "From that number the game lasts one move fewer: the game stops at a prime.",
                "A game needs one more prime factor than it has moves: the game stops when ONE prime is left.",
            ),
            Misconception(
                "distinct-primes",
                primorial,
                "That number has the right number of prime factors, but a smaller one does too: "
                "a prime may be used more than once.",
                "Use the smallest prime, 2, for every factor: which number is that?",
            ),
        ],
        hint="How many prime factors must the start have? Then make that number as small as possible.",
        stronger="A game of k moves needs k + 1 prime factors. Which is the smallest prime? Use it every time.",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    length = int(p["ex_length"])
    n = 2 ** (length + 1)
    return n, (
        f"{length} moves need Ω = {length + 1}, and the smallest number with {length + 1} prime factors "
        f"is 2^{length + 1} = {n}."
    )
