"""Checks for lesson 08, "What happens when you change the rules?" (restricted divisors and misère play).

>>> p = {"upto": 1000, "ex_even": 60, "misere_divisors": "odd"}
>>> SPEC.checks["1"](30, p).kind, SPEC.checks["1"](2, p).kind, SPEC.checks["1"](4, p).kind
('right', 'partial', 'misconception')
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
    as_whole,
    first_difference,
    is_unanswered,
    plain,
    show,
    unanswered,
)
from duel_lessons.teaching.proofs import expect_expression, parse_expression

SPEC = register(
    LessonSpec(
        "08",
        needs=("upto", "ex_even", "misere_divisors"),
        offers={"ex_even": (10**24, 2 * 10**20 + 2, 3 * 2**70), "misere_divisors": ("even",), "upto": (10**4,)},
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
    r"odd numbers (are stuck|lose|are P)",
    r"\bm\$? is P exactly when \$?m\$? is odd",
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
        mine = (
            f"Your last rule holds up to {TEST_UPTO:,}."
            if found is None
            else f"Your last rule first differs at n = {found[0]}."
        )
    return f"{words} {mine}".strip()


@SPEC.reveal("odd")
def odd_reveal(rule: object, p: Params) -> str:
    """The odd-only rule, compared with the student's last tested rule."""
    return _rule_reveal(
        ODD,
        "With odd divisors only, n is P exactly when n is **odd or a power of 2**. "
        "From any other n, subtract its odd part.",
        rule,
        p,
    )


# -- the proof: halve the game ---------------------------------------------------------------------------

HALF_CASES = [{"m": 6, "e": 1}, {"m": 6, "e": 3}, {"m": 15, "e": 5}, {"m": 10, "e": 2}]
_HALVE = "Halve each term instead."
#: Signs a student may type for the operations (as the expression reader reads them).
_SIGNS = str.maketrans({"^": "**", "×": "*", "·": "*", "−": "-", "÷": "/"})


def bracket_form(text: str) -> str | None:
    """None if ``text`` (an expression equal to m − e) is the bracket itself; else what it still lacks.

    The asked form takes the factor 2 out of both terms: no division, and no part equal to 2m − 2e
    (or another multiple of m − e, such as 4m − 4e), which would only restate the left-hand side.

    >>> bracket_form("m - e") is None, bracket_form("-(e - m)") is None, bracket_form("-e + m") is None
    (True, True, True)
    >>> bracket_form("(2*m - 2*e)/2")
    'dividing by 2 only restates the question (the bracket is (2m − 2e)/2 by definition). Halve each term instead.'
    >>> bracket_form("2*(m - e) - m + e")
    'part of it, 2 * (m - e), is 2 × (m − e): that restates 2m − 2e. Halve each term instead.'
    """
    import ast

    import sympy

    tree = ast.parse(text.strip().translate(_SIGNS), mode="eval")
    nodes = list(ast.walk(tree.body))
    if any(isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) for node in nodes) or any(
        isinstance(node, ast.Constant) and type(node.value) is not int for node in nodes
    ):
        return "dividing by 2 only restates the question (the bracket is (2m − 2e)/2 by definition). " + _HALVE
    m, e = sympy.symbols("m e", integer=True, positive=True)
    for node in nodes:
        if isinstance(node, (ast.BinOp, ast.UnaryOp)):
            ratio = sympy.cancel(parse_expression(ast.unparse(node), ["m", "e"]) / (m - e))
            if ratio.is_number and ratio not in (0, 1, -1):
                return f"part of it, {ast.unparse(node)}, is {ratio} × (m − e): that restates 2m − 2e. " + _HALVE
    return None


@SPEC.check("proof-1")
def halving(answer: object, p: Params) -> Verdict:
    """2m - 2e = 2 × (m - e): the bracket, typed as an expression, in the asked form (no restatement)."""
    answer = plain(answer)
    verdict = _halving_value(answer)
    if verdict.right and type(answer) is str:
        missing = bracket_form(answer)
        if missing:
            return Verdict(
                "partial",
                f"It is equal, but not the bracket asked for: {missing}",
                "2m − 2e = 2 × (bracket): the bracket is what is left once each term is halved.",
                "Write the bracket with m, e and signs only: no division, and no part that is 2m − 2e again.",
                key="shape:restated",
            )
    return verdict


def _halving_value(answer: object) -> Verdict:
    return expect_expression(
        answer,
        "m - e",
        names=["m", "e"],
        cases=HALF_CASES,
        misconceptions=[
            Misconception(
                "not-factored",
                "2*m - 2*e",
                "That is the whole of 2m − 2e. The question asks what is left "
                "inside the bracket once the factor 2 is taken out.",
                "2 × (bracket) must equal 2m − 2e. Halve 2m − 2e.",
            ),
            Misconception(
                "half-one-term",
                "m - 2*e",
                "Only 2m was halved. Both terms share the factor 2.",
                "Check with m = 6, e = 1: 2m − 2e = 10, so the bracket must be 5.",
            ),
        ],
        hint="Take the factor 2 out of both terms: 2m − 2e = 2 × (what?).",
        stronger="Try m = 6, e = 1: 12 − 2 = 10 = 2 × 5. Which expression in m and e gives 5?",
    )


@SPEC.model("proof-1")
def model_proof_1(p: Params) -> tuple[object, str]:
    """The bracket."""
    return "m - e", "2m − 2e = 2 × (m − e): the move 2e from 2m is the move e from m, doubled"


# -- exercises -------------------------------------------------------------------------------------------


def _form(rules: Rules) -> ClosedForm:
    form = closed_form(rules)
    assert form is not None, rules.name  # every game an exercise asks about has a proved rule
    return form


def _odd_part(n: int) -> int:
    """n without its factors 2 (n >= 1).

    >>> _odd_part(40), _odd_part(7)
    (5, 7)
    """
    return n >> ((n & -n).bit_length() - 1)


def _even_p(n: int) -> bool:
    """Even divisors only: n is P exactly when it is not a multiple of 4 (proved in section 3; any size of n)."""
    return n % 4 != 0


def _largest_even_move(n: int) -> int:
    """The largest winning move from n, even divisors only (0 if none): twice the odd part, when 4 divides n.

    A winning move d is an even divisor with n − d not a multiple of 4, so d = 2e with e odd and e | n/2;
    the largest is 2 × (the odd part of n).  The tests check it against the solver's winning moves.

    >>> _largest_even_move(60), _largest_even_move(64), _largest_even_move(30)
    (30, 2, 0)
    """
    return 2 * _odd_part(n) if n % 4 == 0 else 0


def _whole_upto(answer: object, n: int) -> int | None:
    """``answer`` as an exact whole number of about the size of ``n`` or less (beyond the 10**18 of :func:`as_whole`).

    EX_EVEN may be beyond 10**18, and so may a student's move from it (or EX_EVEN itself, a common slip).

    >>> _whole_upto(2 * 5**40, 10**40), _whole_upto(10**41, 10**40), _whole_upto(10**80, 10**40)
    (18189894035458564758300781250, 100000000000000000000000000000000000000000, None)
    >>> _whole_upto(True, 10), _whole_upto(6.0, 10), _whole_upto("6", 10)
    (None, 6, None)
    """
    if isinstance(answer, int) and not isinstance(answer, bool):
        value = int.__index__(answer)  # int's own value, whatever a subclass overrides
        return value if abs(value).bit_length() <= max(n, 10**18).bit_length() + 64 else None
    return as_whole(answer)


@SPEC.check(1)
def even_winning_move(answer: object, p: Params) -> Verdict:
    """The largest winning move from EX_EVEN with even divisors only (0 if there is none).

    EX_EVEN may be beyond 10**18, where the game board and the solver stop: only the proof answers it.
    """
    n = int(p["ex_even"])
    best = _largest_even_move(n)
    if is_unanswered(answer):
        return unanswered()
    value = _whole_upto(answer, n)
    if value is None:
        return Verdict(
            "format",
            "Give one whole number: a move (an even divisor of EX_EVEN), or 0 if no move wins.",
            key="format:number",
        )
    if value == best:
        return Verdict("right")
    if best == 0:
        return Verdict(
            "miss",
            f"{show(value)} is not a winning move.",
            "First decide: can the player to move from EX_EVEN win at all? (If not, answer 0.)",
            "Which numbers lose in Even-only Duel? Is EX_EVEN one of them?",
            key=f"miss:{value}",
        )
    if value == 0:
        return Verdict(
            "miss",
            "There is a winning move from EX_EVEN.",
            "Which numbers lose in Even-only Duel? Can you hand your opponent one of them?",
            "The half game's winning move e = 1 becomes which move in the real game?",
            key="miss:0",
        )
    if value < 0 or value >= n or n % value:
        return Verdict(
            "misconception",
            f"{show(value)} is not a move from EX_EVEN: a move is a divisor smaller than it.",
            "A move subtracts a divisor of EX_EVEN, other than EX_EVEN itself.",
            "Write EX_EVEN as a product of primes: its divisors are built from those.",
            key="not-a-move",
        )
    if value % 2:
        return Verdict(
            "misconception",
            "Only even divisors are allowed in this variant.",
            "The half game's moves e become the real moves 2e. Which of them win?",
            "A winning move in the half game from an even m leaves an odd number. Which divisors e do that?",
            key="odd-divisor",
        )
    if not _even_p(n - value):
        return Verdict(
            "misconception",
            "That is a legal move, but it hands your opponent a winning position.",
            "Use the proof: which numbers lose in Even-only Duel? Leave your opponent one of them.",
            "Halve everything: in the half game on m = EX_EVEN / 2, your move is e = d / 2. Which e leave "
            "your opponent a P-position?",
            key="losing-move",
        )
    return Verdict(
        "partial",
        "That is a winning move, but not the largest one.",
        "In the half game on m = EX_EVEN / 2, the winning moves are the divisors e that leave an odd "
        "number. Which e are those, and which is the largest?",
        "From an even m, m − e is odd exactly when e is odd. The largest odd divisor of m is m with every "
        "factor 2 taken out. Then double it back.",
        key=f"partial:{value}",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """The largest winning move from EX_EVEN."""
    n = int(p["ex_even"])
    d = _largest_even_move(n)
    if d == 0:
        return 0, f"{n:,} is not a multiple of 4, so it is a P-position: no move wins"
    return d, (
        f"a winning move d = 2e leaves {n:,} − d not a multiple of 4, so e is an odd divisor of {n // 2:,}; "
        f"the largest is its odd part {d // 2:,}, so d = {d:,} (leaving {n - d:,}, 2 more than a multiple "
        "of 4)"
    )


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
                return Verdict(
                    "partial",
                    f"It agrees with the table up to {upto:,}, but at n = {n:,} it stopped with "
                    f"{type(error).__name__}.",
                    "A rule, not a look-up: it must work for every n, however large.",
                    "Say it in words first (which numbers are P?), then write that as Python.",
                    key="partial:lookup",
                )
            if bool(said) != form.is_p(n):
                return Verdict(
                    "partial",
                    f"It agrees with the table up to {upto:,}, but not at n = {n:,}: there the "
                    f"player to move {'loses' if form.is_p(n) else 'wins'}.",
                    "Does your rule say what the P-positions have in common, or only list them?",
                    "Test your rule on big numbers of the same kinds as the small ones.",
                    key=f"partial:{n}",
                )
        return Verdict("right", f"It agrees with the table up to {upto:,} and at numbers beyond it. Can you prove it?")
    n, really, said = found
    if isinstance(said, Exception):
        return Verdict("format", f"Your function stopped with {type(said).__name__} at n = {n}.", key="format:error")
    powers = n & (n - 1) == 0 and n % 2 == 0
    odd = p["misere_divisors"] == "odd"
    hint = (
        "Look at the powers of 2 (lesson 4)."
        if powers and odd
        else "Look at the list of P-positions above: what do they have in common, and which even numbers are missing?"
    )
    stronger = (
        "A power of 2 has no odd divisor except 1, so the player to move there cannot move. In misère "
        "play, is that good or bad for them?"
        if powers and odd
        else f"Write the P-positions up to 40 in a row, with their remainders on division by 4, and compare "
        f"with n = {n}."
    )
    return Verdict(
        "miss",
        f"First counterexample: n = {n}. Your rule says {'P' if said else 'N'}, the table says "
        f"{'P' if really else 'N'}.",
        hint,
        stronger,
        f"miss:{n}",
    )


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
