"""Checks for lesson 08, "What happens when you change the rules?" (restricted divisors and misère play).

>>> p = {"upto": 1000, "ex_even": 60, "misere_divisors": "odd"}
>>> SPEC.checks["1"](2, p).kind, SPEC.checks["1"](4, p).kind
('right', 'misconception')
>>> SPEC.checks["2"](lambda n: n % 2 == 0, p).kind
'miss'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from duel_lessons.engine.rules import DIVISOR_DUEL, Rules
from duel_lessons.solving.closed_forms import ClosedForm, closed_form
from duel_lessons.solving.tables import Table, tabulate
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import compare_sets, listing, subset_form
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_member,
    first_difference,
    is_unanswered,
    unanswered,
)
from duel_lessons.teaching.proofs import expect_expression

SPEC = register(
    LessonSpec(
        "08",
        needs=("upto", "ex_even", "misere_divisors"),
        offers={"ex_even": (60, 2 * 10**12 + 2, 3 * 2**50), "misere_divisors": ("even",), "upto": (10**4,)},
    )
)

EVEN = DIVISOR_DUEL.variant("even-only", divisors="even", title="Even divisors only")
ODD = DIVISOR_DUEL.variant("odd-only", divisors="odd", title="Odd divisors only")
PRIME = DIVISOR_DUEL.variant("prime-only", divisors="prime", title="Prime divisors only")
MISERE = DIVISOR_DUEL.variant("misere", last_mover_wins=False, title="Misère Divisor Duel")
HAND_OVER = (6, 8, 12, 18, 20)
TEST_UPTO = 1000
#: Exercise 2 tests a rule on n = 1 .. min(UPTO, this), and at a few huge numbers from the proved rule.
EX2_MOST = 10**5
EX2_HUGE = (2**40, 2**40 + 2, 3 * 2**40, 10**12 + 1, 10**12 + 2, 4 * 10**12 + 6, 2**58)

# -- what the students discover (nothing before its reveal may say it) ----------------------------------

SPEC.discovers(
    "hand-over",
    r"not a multiple of (4|four)",
    r"multiples? of (4|four)",
    r"\bn\s*%\s*4\b",
    r"(≡|\\equiv)\s*2",
    r"twice an odd",
    r"\b(6|18) (is|are) (a )?P\b",
)
SPEC.discovers("odd", r"odd or a power of (2|two)", r"subtract its odd part")


def misere_variant(p: Params) -> Rules:
    """Exercise 2's game: misère play with the parameter's divisors ("odd" or "even")."""
    kind = str(p["misere_divisors"])
    title = f"Misère, {kind} divisors"
    return DIVISOR_DUEL.variant(f"misere-{kind}", divisors=kind, last_mover_wins=False, title=title)


def _loses(rules: Rules, p: Params) -> Callable[[int], bool]:
    return tabulate(rules, max(TEST_UPTO, min(int(p["upto"]), 10**6))).is_p


@SPEC.truth("even", yes="loses", no="wins")
def even_loses(p: Params) -> Callable[[int], bool]:
    """Even divisors only."""
    return _loses(EVEN, p)


@SPEC.truth("odd", yes="loses", no="wins")
def odd_loses(p: Params) -> Callable[[int], bool]:
    """Odd divisors only."""
    return _loses(ODD, p)


@SPEC.truth("misere", yes="loses", no="wins")
def misere_loses(p: Params) -> Callable[[int], bool]:
    """Misère Divisor Duel (no rule known)."""
    return _loses(MISERE, p)


# -- the guess and the reveals ---------------------------------------------------------------------------


@SPEC.guess_form("hand-over")
def hand_over_form(value: object, p: Params) -> str | None:
    """A list of some of 6, 8, 12, 18, 20 (or [] for none)."""
    return subset_form(value, HAND_OVER)


@SPEC.reveal("hand-over")
def hand_over(guess: object, p: Params) -> str:
    """The guess of section 2 against the even-only table, then the rule."""
    table = tabulate(EVEN, max(HAND_OVER))
    losing = [n for n in HAND_OVER if table.is_p(n)]
    chosen = [int(n) for n in guess] if isinstance(guess, (list, tuple, set)) else []
    upto = max(TEST_UPTO, min(int(p["upto"]), 10**6))
    return (
        f"**Of {listing(HAND_OVER)}, the player to move loses from {listing(losing) or 'none'}.** "
        f"{compare_sets(chosen, losing, HAND_OVER)}\n\nWith even divisors only, n is P exactly when n is **not a "
        f"multiple of 4** (odd, or 2 more than a multiple of 4). The solver agrees up to {upto:,}; the proof below "
        "covers every n."
    )


def _rule_reveal(rules: Rules, words: str, rule: object, p: Params) -> str:
    truth = _loses(rules, p)
    mine = ""
    if callable(rule):
        found = first_difference(rule, truth, TEST_UPTO)
        mine = (f"Your last rule holds up to {TEST_UPTO:,}." if found is None
                else f"Your last rule first differs at n = {found[0]}.")
    return f"{words} {mine}".strip()


@SPEC.reveal("odd")
def odd_reveal(rule: object, p: Params) -> str:
    """The odd-only rule, compared with the student's last tested rule."""
    return _rule_reveal(ODD, "With odd divisors only, n is P exactly when n is **odd or a power of 2**. "
                             "From any other n, subtract its odd part.", rule, p)


# -- the proof: halve the game ---------------------------------------------------------------------------

HALF_CASES = [{"m": 6, "e": 1}, {"m": 6, "e": 3}, {"m": 15, "e": 5}, {"m": 10, "e": 2}]


@SPEC.check("proof-1")
def halving(answer: object, p: Params) -> Verdict:
    """2m - 2e = 2 × (m - e): the bracket, typed as an expression."""
    return expect_expression(
        answer, "m - e", names=["m", "e"], cases=HALF_CASES,
        misconceptions=[
            Misconception("not-factored", "2*m - 2*e", "That is the whole of 2m − 2e. The question asks what is left "
                                                       "inside the bracket once the factor 2 is taken out.",
                          "2 × (bracket) must equal 2m − 2e. Halve 2m − 2e."),
            Misconception("half-one-term", "m - 2*e", "Only 2m was halved. Both terms share the factor 2.",
                          "Check with m = 6, e = 1: 2m − 2e = 10, so the bracket must be 5."),
        ],
        hint="Take the factor 2 out of both terms: 2m − 2e = 2 × (what?).",
        stronger="Try m = 6, e = 1: 12 − 2 = 10 = 2 × 5. Which expression in m and e gives 5?",
    )


@SPEC.model("proof-1")
def model_proof_1(p: Params) -> tuple[object, str]:
    """The bracket."""
    return "m - e", "2m − 2e = 2 × (m − e): the move 2e from 2m is the move e from m, doubled"


SPEC.parsons(
    "half",
    label="The half game, in order",
    lines={
        "A": "So m − e is even, and by the assumption an N-position: every move from an odd m hands your opponent "
             "an N-position, so an odd m is P.",
        "B": "If m is even, every move from m leaves an odd number.",
        "C": "Suppose the claim holds for every number below m (strong induction).",
        "D": "If m is even, you may subtract e = 1, leaving the odd number m − 1: by the assumption a P-position, so "
             "an even m is N.",
        "E": "m = 1 has no move, so 1 is P (and 1 is odd).",
        "F": "If m is odd, every divisor e of m is odd.",
        "G": "So the claim holds for m, and by strong induction for every m.",
        "H": "If m is odd, m − 1 is even and an N-position, so m is P.",
    },
    proof=["E", "C", "F", "A", "D", "G"],
    uses={"A": ["C", "F"], "D": ["C"], "G": ["E", "A", "D"]},
    wrong={
        "B": "Even minus an even divisor is even (12 − 2 = 10): only the move e = 1 is sure to leave an odd number.",
        "H": "One move to an N-position does not make m P: P needs EVERY move to hand your opponent an N-position.",
    },
    why="Claim: in the half game m is P exactly when m is odd. Base 1; odd m: all divisors odd, so every move leaves "
        "an even number (N); even m: subtract 1 to leave an odd number (P).",
)


# -- exercises -------------------------------------------------------------------------------------------


def _form(rules: Rules) -> ClosedForm:
    form = closed_form(rules)
    assert form is not None, rules.name  # every game an exercise asks about has a proved rule
    return form


def _even_moves(n: int) -> tuple[set[int], set[int]]:
    """The winning moves from n with even divisors only ({0} if none), and all legal moves."""
    form = _form(EVEN)
    legal = set(EVEN.divisors_of(n)) if n > 2 else set()
    good = {d for d in legal if form.is_p(n - d)}
    return good or {0}, legal


@SPEC.check(1)
def even_winning_move(answer: object, p: Params) -> Verdict:
    """One winning move from EX_EVEN with even divisors only (0 if there is none)."""
    n = int(p["ex_even"])
    moves, legal = _even_moves(n)
    return expect_member(
        answer, moves, what="divisor",
        misconceptions=[
            Misconception("odd-divisor", lambda a: isinstance(a, int) and a % 2 == 1 and a > 0,
                          "Only even divisors are allowed in this variant.",
                          "The proof's winning move in the half game is e = 1. Which move d is that in the real game?"),
            Misconception("losing-move", lambda a: a in legal,
                          "That is a legal move, but look at what it leaves: can your opponent win from there?",
                          "Use the proof: which numbers lose in Even-only Duel? Leave your opponent one of them."),
        ],
        hint="Which numbers lose in Even-only Duel? Hand your opponent one of them. (If there is no such move, "
             "answer 0.)",
        stronger="Translate the half game's winning move e = 1 back to the real game. (And first decide: is EX_EVEN "
                 "a P-position? Then answer 0.)",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """A winning move from EX_EVEN."""
    n = int(p["ex_even"])
    moves, _ = _even_moves(n)
    if moves == {0}:
        return 0, f"{n:,} is not a multiple of 4, so it is a P-position: no move wins"
    d = 2 if 2 in moves else min(moves)
    return d, f"{n:,} − {d} = {n - d:,}, which is 2 more than a multiple of 4: a P-position (the half game's e = 1)"


def _table(rules: Rules, upto: int) -> Table:
    return tabulate(rules, upto)


@SPEC.check(2)
def misere_rule(answer: object, p: Params) -> Verdict:
    """A function that is True exactly for the P-positions of the misère variant, on 1 .. N and at huge numbers."""
    if is_unanswered(answer):
        return unanswered()
    if not callable(answer):
        return Verdict("format", "Give a function, such as answer_2 (a def), not a value.", key="format:not-a-function")
    try:
        if answer(2) is ...:
            return unanswered()
    except Exception:  # the student's function: first_difference reports it below
        pass
    rules = misere_variant(p)
    form = _form(rules)
    upto = max(TEST_UPTO, min(int(p["upto"]), EX2_MOST))
    truth = _table(rules, upto).is_p
    found = first_difference(answer, truth, upto)
    if found is None:
        for n in EX2_HUGE:
            try:
                said: object = answer(n)
            except Exception as error:  # the student's function
                return Verdict("partial", f"It agrees with the table up to {upto:,}, but at n = {n:,} it stopped with "
                                          f"{type(error).__name__}.",
                               "A rule, not a look-up: it must work for every n, however large.",
                               "Say it in words first (which numbers are P?), then write that as Python.",
                               key="partial:lookup")
            if bool(said) != form.is_p(n):
                return Verdict("partial", f"It agrees with the table up to {upto:,}, but not at n = {n:,}: there the "
                                          f"player to move {'loses' if form.is_p(n) else 'wins'}.",
                               "Does your rule say what the P-positions have in common, or only list them?",
                               "Test your rule on big numbers of the same kinds as the small ones.",
                               key=f"partial:{n}")
        return Verdict("right", f"It agrees with the table up to {upto:,} and at numbers beyond it. Can you prove it?")
    n, really, said = found
    if isinstance(said, Exception):
        return Verdict("format", f"Your function stopped with {type(said).__name__} at n = {n}.", key="format:error")
    powers = n & (n - 1) == 0 and n % 2 == 0
    odd = p["misere_divisors"] == "odd"
    hint = ("Look at the powers of 2 (lesson 4)." if powers and odd
            else "Look at the list of P-positions above: what do they have in common, and which even numbers are "
                 "missing?")
    stronger = ("A power of 2 has no odd divisor except 1, so the player to move there cannot move. In misère "
                "play, is that good or bad for them?" if powers and odd
                else f"Write the P-positions up to 40 in a row, with their remainders on division by 4, and compare "
                     f"with n = {n}.")
    return Verdict("miss", f"First counterexample: n = {n}. Your rule says {'P' if said else 'N'}, the table says "
                           f"{'P' if really else 'N'}.", hint, stronger, f"miss:{n}")


@dataclass(frozen=True)
class WrittenRule:
    """A rule as a function that shows itself as the Python a student would write (for the teacher's key)."""

    text: str
    rule: Callable[[int], bool]

    def __call__(self, n: int) -> bool:
        return self.rule(n)

    def __repr__(self) -> str:
        return self.text


#: Exercise 2's model rules, as a student would write them, by the parameter MISERE_DIVISORS.
MISERE_RULES = {
    "odd": WrittenRule("lambda n: n % 2 == 0 and n & (n - 1) != 0", lambda n: n % 2 == 0 and n & (n - 1) != 0),
    "even": WrittenRule("lambda n: n == 4 or (n % 4 == 2 and n >= 10)", lambda n: n == 4 or (n % 4 == 2 and n >= 10)),
}


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """The rule of the misère variant, with the proved statement."""
    form = _form(misere_variant(p))
    return MISERE_RULES[str(p["misere_divisors"])], f"the proved rule: {form.statement}"
