"""Lesson 08's unusual checks (the rest is declared in notebooks/08-invent-your-own-variant.lesson.toml).

Python stays for: proof step 1 (the bracket must not restate 2m − 2e: an ``expression`` judges values only),
exercise 2 (a rule as a function, tested beyond the table at huge numbers: no declared kind takes a function)
and the misère truth (no rule is known, so it is the solver's table of a variant no formula can name).

>>> SPEC.checks["proof-1"]("m - e", {}).kind, SPEC.checks["proof-1"]("(2*m - 2*e)/2", {}).kind
('right', 'partial')
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

import sympy

from duel_lessons.engine.rules import DIVISOR_DUEL, Rules
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.tables import tabulate
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.feedback import Misconception, Verdict, first_difference, is_unanswered, plain, unanswered
from duel_lessons.teaching.proofs import expect_expression, parse_expression

SPEC = register(LessonSpec("08"))
#: The misère truth and exercise 2 test n = 1 .. UPTO (at least 1,000; at most 10**6 and 10**5), then huge n.
HUGE = (2**40, 2**40 + 2, 3 * 2**40, 10**12 + 1, 10**12 + 2, 4 * 10**12 + 6, 2**58)


@SPEC.truth("misere", yes="loses", no="wins")
def misere_loses(p: Params) -> Callable[[int], bool]:
    """Misère Divisor Duel (no rule known): the solver's table."""
    misere = DIVISOR_DUEL.variant("misere", last_mover_wins=False, title="Misère Divisor Duel")
    return tabulate(misere, max(1000, min(int(p["upto"]), 10**6))).is_p


# -- proof step 1: the bracket, not a restatement ---------------------------------------------------------

_HALVE = "Halve each term instead."
_SIGNS = str.maketrans({"^": "**", "×": "*", "·": "*", "−": "-", "÷": "/"})


def bracket_form(text: str) -> str | None:
    """None if ``text`` (equal to m − e) is the bracket itself; else what it lacks: no division, and no part that
    is a multiple of m − e (such as 2m − 2e), which would only restate the left-hand side.

    >>> bracket_form("-(e - m)") is None, bracket_form("2*(m - e) - m + e")[:22]
    (True, 'part of it, 2 * (m - e')
    """
    nodes = list(ast.walk(ast.parse(text.strip().translate(_SIGNS), mode="eval").body))
    if any(isinstance(x, ast.BinOp) and isinstance(x.op, ast.Div) for x in nodes) or any(
        isinstance(x, ast.Constant) and type(x.value) is not int for x in nodes
    ):
        return "dividing by 2 only restates the question (the bracket is (2m − 2e)/2 by definition). " + _HALVE
    m, e = sympy.symbols("m e", integer=True, positive=True)
    for node in (x for x in nodes if isinstance(x, (ast.BinOp, ast.UnaryOp))):
        ratio = sympy.cancel(parse_expression(ast.unparse(node), ["m", "e"]) / (m - e))
        if ratio.is_number and ratio not in (0, 1, -1):
            return f"part of it, {ast.unparse(node)}, is {ratio} × (m − e): that restates 2m − 2e. " + _HALVE
    return None


@SPEC.check("proof-1")
def halving(answer: object, p: Params) -> Verdict:
    """2m − 2e = 2 × (m − e): the bracket, typed as an expression, in the asked form (no restatement)."""
    answer = plain(answer)
    whole = "That is the whole of 2m − 2e. The question asks what is left inside the bracket once the factor 2 is "
    verdict = expect_expression(
        answer,
        "m - e",
        names=["m", "e"],
        cases=[{"m": 6, "e": 1}, {"m": 6, "e": 3}, {"m": 15, "e": 5}, {"m": 10, "e": 2}],
        misconceptions=[
            Misconception(
                "not-factored", "2*m - 2*e", whole + "taken out.", "2 × (bracket) must equal 2m − 2e. Halve 2m − 2e."
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
    missing = bracket_form(answer) if verdict.right and type(answer) is str else None
    if not missing:
        return verdict
    return Verdict(
        "partial",
        f"It is equal, but not the bracket asked for: {missing}",
        "2m − 2e = 2 × (bracket): the bracket is what is left once each term is halved.",
        "Write the bracket with m, e and signs only: no division, and no part that is 2m − 2e again.",
        key="shape:restated",
    )


@SPEC.model("proof-1")
def model_proof_1(p: Params) -> tuple[object, str]:
    """The bracket."""
    return "m - e", "2m − 2e = 2 × (m − e): the move 2e from 2m is the move e from m, doubled"


# -- exercise 2: a rule for misère play, not a table --------------------------------------------------------


def misere_variant(p: Params) -> Rules:
    """Exercise 2's game: misère play with the parameter's divisors ("odd" or "even")."""
    kind = str(p["misere_divisors"])
    return DIVISOR_DUEL.variant(
        f"misere-{kind}", divisors=kind, last_mover_wins=False, title=f"Misère, {kind} divisors"
    )


@SPEC.check(2)
def misere_rule(answer: object, p: Params) -> Verdict:
    """A function True exactly at the misère variant's P-positions: on 1 .. UPTO (at most 10**5), then huge n."""
    if not callable(answer):
        return unanswered() if is_unanswered(answer) else Verdict("format", NOT_A_RULE, key="format:not-a-function")
    try:
        if answer(2) is ...:
            return unanswered()
    except Exception:  # the student's function: first_difference reports it below
        pass
    rules, upto = misere_variant(p), max(1000, min(int(p["upto"]), 10**5))
    form = closed_form(rules)
    assert form is not None, rules.name  # both offered variants have a proved rule
    found = first_difference(answer, tabulate(rules, upto).is_p, upto)
    beyond = first_difference(answer, form.is_p, 0, among=HUGE) if found is None else None
    if found is None and beyond is None:
        return Verdict("right", f"It agrees with the table up to {upto:,} and at numbers beyond it. Can you prove it?")
    if beyond is not None:
        n, really, said = beyond
        error = f" it stopped with {type(said).__name__}" if isinstance(said, Exception) else ""
        return Verdict(
            "partial",
            f"It agrees with the table up to {upto:,}, but {'' if error else 'not '}at n = {n:,}{error}: "
            f"there the player to move {'loses' if really else 'wins'}.",
            "A rule, not a look-up: does it say what the P-positions have in common, or only list them?",
            "Say it in words first (which numbers are P?), then test it on big numbers of the same kinds.",
            key=f"partial:{n}",
        )
    assert found is not None
    n, really, said = found
    if isinstance(said, Exception):
        return Verdict("format", f"Your function stopped with {type(said).__name__} at n = {n}.", key="format:error")
    powers = n & (n - 1) == 0 and n % 2 == 0 and p["misere_divisors"] == "odd"
    return Verdict(
        "miss",
        f"First counterexample: n = {n}. Your rule says {'P' if said else 'N'}, the table {'P' if really else 'N'}.",
        "Look at the powers of 2 (lesson 4)." if powers else MISERE_HINT,
        POWER_HINT
        if powers
        else f"Write the P-positions up to 40 with their remainders on division by 4; compare n = {n}.",
        f"miss:{n}",
    )


NOT_A_RULE = "Give a function, such as answer_2 (a def), not a value."
MISERE_HINT = "Look at the list of P-positions above: what do they have in common, and which even numbers are missing?"
POWER_HINT = "A power of 2 has no odd divisor but 1: the player to move there cannot move. In misère play, good or bad?"


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
    form = closed_form(misere_variant(p))
    assert form is not None
    return MISERE_RULES[str(p["misere_divisors"])], f"the proved rule: {form.statement}"
