"""Lesson 10's unusual checks (the rest is declared in ``notebooks/10-mex-and-grundy-values.lesson.toml``).

- the Grundy table, a dict of whole numbers judged entry by entry (the declared ``table`` kind takes "P"/"N" only);
- the partner conjecture: sums are decided here by brute force (trying every move), independently of the Grundy
  values they are compared with, and its reveal names a rule that only copies the notebook's ``brute``;
- exercise 3, a move in a sum or "P": beyond brute force, so its winning moves are those to equal values (the proof).

>>> p = {"rules": "divisor-duel", "hand_limit": 12, "partner": 12, "ex_g": 14, "ex_pair": [10, 16]}
>>> SPEC.checks["3"]((16, 2), p).kind, SPEC.checks["3"]("P", p).kind
('right', 'misconception')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from duel_lessons.engine.rules import Rules
from duel_lessons.play.sums import grundy_value
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import rules_of
from duel_lessons.teaching.declared.guesses import listing
from duel_lessons.teaching.feedback import Verdict, as_whole, first_difference, is_unanswered, unanswered

SPEC = register(LessonSpec("10"))
PARTNER_UPTO = 60
GUESS_RANGE = range(13, 31)  #: the n of the "partner" guess (PARTNER + n)


def brute(rules: Rules, numbers: Iterable[int]) -> str:
    """ "P" or "N" for a sum of duels, by trying every move in every part (no Grundy values).

    >>> from duel_lessons import DIVISOR_DUEL
    >>> brute(DIVISOR_DUEL, [4, 4]), brute(DIVISOR_DUEL, [4, 6])
    ('P', 'N')
    """
    return "P" if _brute_p(rules, tuple(sorted(numbers))) else "N"


@cache
def _brute_p(rules: Rules, numbers: tuple[int, ...]) -> bool:
    return not any(
        _brute_p(rules, tuple(sorted(numbers[:i] + (rules.result(n, d),) + numbers[i + 1 :])))
        for i, n in enumerate(numbers)
        for d in rules.divisors_of(n)
    )


@SPEC.check("grundy-table", label="Your Grundy table")
def grundy_table(answer: object, p: Params) -> Verdict:
    """The student's Grundy values for n = 1 .. HAND_LIMIT."""
    rules, limit = rules_of(p), int(p["hand_limit"])
    if not isinstance(answer, dict) or is_unanswered(answer):
        return (
            unanswered()
            if is_unanswered(answer)
            else Verdict("format", "Give a dict such as {1: 0, 2: ...}.", key="format:dict")
        )
    if any(isinstance(answer.get(n), str) for n in range(1, limit + 1)):
        return Verdict("format", "Give each value as a whole number (0, 1, 2, ...), not text.", key="format:text")
    missing = [n for n in range(1, limit + 1) if is_unanswered(answer.get(n))]
    wrong = [n for n in range(1, limit + 1) if n not in missing and as_whole(answer[n]) != grundy_value(rules, n)]
    done = limit - len(missing)
    if not done or not wrong:
        if not done or not missing:
            return Verdict("right", "Every value is right.") if done else unanswered()
        text = f"All {done} values so far are right. Still to fill in: {listing(missing)}."
        return Verdict("partial", text, key=f"partial:{len(missing)}")
    n, reached = wrong[0], sorted({grundy_value(rules, rules.result(wrong[0], d)) for d in rules.divisors_of(wrong[0])})
    return Verdict(
        "partial" if done - len(wrong) else "miss",
        f"{done - len(wrong)} of {limit} values right. The first to look at again: {n}.",
        f"For {n}: list the values of the numbers it moves to (use your own values for them), then take the "
        "smallest whole number that is missing.",
        f"The values {n} can reach are {reached}. Which is the smallest whole number not among them?",
        key=f"table:{n}",
    )


@SPEC.model("grundy-table")
def model_table(p: Params) -> tuple[object, str]:
    """g(1) .. g(HAND_LIMIT)."""
    table = {n: grundy_value(rules_of(p), n) for n in range(1, int(p["hand_limit"]) + 1)}
    return table, "From the bottom up: each value is the mex of the values of the numbers it moves to."


@SPEC.guess_form("partner")
def partner_form(value: object, p: Params) -> str | None:
    """A list of numbers from 13 to 30 (at least one, not all: every number is no prediction)."""
    chosen = value if isinstance(value, (list, tuple)) else ["no list"]
    numbers = {int(x) if as_whole(x) is not None else 0 for x in chosen}
    if numbers <= set(GUESS_RANGE) and 0 < len(numbers) < len(GUESS_RANGE):
        return None
    return "Give a list of the numbers from 13 to 30 you think work (at least one, not all), for example [14, 27]."


@SPEC.truth("partner", yes="makes a P-sum", no="makes an N-sum")
def partner_truth(p: Params) -> Callable[[int], bool]:
    """Whether PARTNER + n is a P-position, by brute force."""
    rules, partner = rules_of(p), int(p["partner"])
    return lambda n: brute(rules, (partner, n)) == "P"


@SPEC.reveal("partner")
def partner_reveal(rule: object, p: Params) -> str:
    """The rule for two parts, compared with the student's last tested rule (one that asks ``brute`` is named)."""
    partner = int(p["partner"])
    text = (
        f"**{partner} + n is P exactly when g(n) = g({partner}) = {grundy_value(rules_of(p), partner)}.** Two duels "
        "behave like two Nim heaps of sizes g(a) and g(b): P exactly when they are equal."
    )
    code = getattr(rule, "__code__", None)
    if callable(rule) and "brute" in (*getattr(code, "co_names", ()), *getattr(code, "co_freevars", ())):
        return text + (
            " Your last rule asks `brute` itself: it copies the data instead of predicting it, so it proves "
            "nothing. Try one that uses grundy_value only."
        )
    if not callable(rule):
        return text
    found = first_difference(rule, partner_truth(p), PARTNER_UPTO)
    return text + (
        f" Your last rule agrees up to {PARTNER_UPTO}."
        if found is None
        else f" Your last rule first differs at n = {found[0]}."
    )


# -- exercise 3: a winning move in a sum beyond brute force ----------------------------------------------------------


def _good(rules: Rules, a: int, b: int) -> list[tuple[int, int]]:
    """Every winning move from a + b as (the number changed, the divisor subtracted): to equal values."""
    pairs = ((a, b), (b, a))
    moves = [
        (n, d)
        for n, o in pairs
        for d in rules.divisors_of(n)
        if grundy_value(rules, rules.result(n, d)) == grundy_value(rules, o)
    ]
    return list(dict.fromkeys(moves))


@SPEC.check(3)
def pair_move(answer: object, p: Params) -> Verdict:
    """From EX_PAIR: a winning move (number, divisor), or "P" if there is none."""
    if is_unanswered(answer):
        return unanswered()
    rules, (a, b) = rules_of(p), (int(n) for n in p["ex_pair"])
    good, compare = _good(rules, a, b), "Two parts make a P-position exactly when their values are equal."
    which = "Which part do you change, and which value must it get?"
    if isinstance(answer, str):
        said = answer.strip().upper()
        if said not in ("P", "N"):
            return Verdict("format", 'Give a move as (number, divisor), like (10, 5), or "P".', key="format:text")
        if answer.strip() != said:  # a case slip is named whatever the answer, so that it confirms nothing
            return Verdict(
                "format", 'Write the letter as a capital, "P", or give a move as (number, divisor).', key="format:case"
            )
        if said == "N" and good:
            text = "Yes, the player to move wins here. Now give a winning move as (number, divisor)."
            return Verdict(
                "partial",
                text,
                which,
                "The part you change must end with the other part's value.",
                key="n-without-move",
            )
        if said == "P" and not good:
            return Verdict("right", "No move wins: the values are equal.")
        if said == "P":
            hint, stronger = "Compare the two Grundy values. Are they equal?", compare + " Compute both values."
            return Verdict("misconception", f"Your answer was {answer!r}.", hint, stronger, key="p-when-n")
        return Verdict(
            "miss", f"Your answer was {answer!r}.", "Compare the two Grundy values.", compare, key="n-when-p"
        )
    if not (isinstance(answer, (list, tuple)) and len(answer) == 2 and all(as_whole(x) is not None for x in answer)):
        return Verdict("format", 'Give a move as a pair (number, divisor), like (10, 5), or "P".', key="format:pair")
    n, d = (int(x) for x in answer)
    if n not in (a, b):
        if d in (a, b) and n in rules.divisors_of(d):
            return Verdict("format", "The number comes first, then the divisor: (number, divisor).", key="format:order")
        return Verdict("format", f"The number you change is one of the two parts, {a} or {b}.", key="format:part")
    if d not in rules.divisors_of(n):
        text, stronger = (
            f"{d} is not a divisor you may subtract from {n}.",
            "Use a divisor from GameState(rules, n).legal_moves.",
        )
        return Verdict("miss", text, f"List the moves of {n} first.", stronger, key=f"illegal:{n}:{d}")
    if (n, d) in good:
        return Verdict("right")
    if not good:
        text = f"After {n} - {d} your opponent can win: there is no winning move here."
        stronger = 'Equal values: the player to move loses. Answer "P".'
        return Verdict("misconception", text, "Compare the two Grundy values first.", stronger, key="move-when-p")
    text = f"After {n} - {d} = {n - d} the two values are not equal, so your opponent can win."
    stronger = "Compute both values. The part you change must move to a number with the other part's value."
    return Verdict("miss", text, which, stronger, key=f"miss:{n}:{d}")


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """A winning move from EX_PAIR, or "P"."""
    rules, (a, b) = rules_of(p), (int(n) for n in p["ex_pair"])
    ga, gb, good = grundy_value(rules, a), grundy_value(rules, b), _good(rules, a, b)
    if not good:
        return "P", f"g({a}) = g({b}) = {ga}: equal values, so no move wins."
    n, d = good[0]
    why = f"g({a}) = {ga} and g({b}) = {gb}. {n} - {d} = {n - d} has value {gb if n == a else ga}, the other part's "
    return (n, d), why + "value, so the two values are equal again."
