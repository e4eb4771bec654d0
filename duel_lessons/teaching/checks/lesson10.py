"""Lesson 10's unusual checks (the rest is declared in ``notebooks/10-mex-and-grundy-values.lesson.toml``).

- the Grundy table, a dict judged entry by entry; exercise 2 and proof question 1, which need the values a number's
  moves reach (a declared formula cannot map over a list);
- the partner conjecture: sums are decided here by brute force (trying every move), independently of the Grundy
  values they are compared with, and its reveal names a rule that only copies the notebook's ``brute``;
- exercise 3, a move in a sum: beyond brute force, so its winning moves are those to equal values (the proved rule).

>>> p = {"rules": "divisor-duel", "hand_limit": 12, "partner": 12, "ex_g": 14, "ex_pair": [10, 16]}
>>> SPEC.checks["3"]((16, 2), p).kind, SPEC.checks["3"]("P", p).kind
('right', 'misconception')
>>> SPEC.checks["proof-1"](14, p).kind, SPEC.checks["proof-1"](18, p).kind
('right', 'partial')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from duel_lessons.engine.rules import Rules
from duel_lessons.play.sums import grundy_value
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import listing, rules_of
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    as_whole,
    expect_number,
    first_difference,
    is_unanswered,
    unanswered,
)
from duel_lessons.teaching.proofs import expect_counterexample

SPEC = register(LessonSpec("10"))

PARTNER_UPTO = 60
#: The numbers n the "partner" guess is about (PARTNER + n for n in this range), and how far proof question 1 looks.
GUESS_RANGE = range(13, 31)
HUNT_LIMIT = 1000


def brute(rules: Rules, numbers: Iterable[int]) -> str:
    """ "P" or "N" for a sum of duels, by trying every move in every part (no Grundy values).

    >>> from duel_lessons import DIVISOR_DUEL
    >>> brute(DIVISOR_DUEL, [4, 4]), brute(DIVISOR_DUEL, [4, 6])
    ('P', 'N')
    """
    return "P" if _brute_p(rules, tuple(sorted(numbers))) else "N"


@cache
def _brute_p(rules: Rules, numbers: tuple[int, ...]) -> bool:
    for i, n in enumerate(numbers):
        for d in rules.divisors_of(n):
            if _brute_p(rules, tuple(sorted(numbers[:i] + (rules.result(n, d),) + numbers[i + 1 :]))):
                return False
    return True


def _moves(rules: Rules, n: int) -> list[int]:
    return [rules.result(n, d) for d in rules.divisors_of(n)]


def _reached(rules: Rules, n: int) -> list[int]:
    """The Grundy values of the numbers n moves to."""
    return [grundy_value(rules, m) for m in _moves(rules, n)]


# -- section 4: the Grundy table and exercise 2 --------------------------------------------------------------------


@SPEC.check("grundy-table", label="Your Grundy table")
def grundy_table(answer: object, p: Params) -> Verdict:
    """The student's Grundy values for n = 1 .. HAND_LIMIT."""
    rules, limit = rules_of(p), int(p["hand_limit"])
    if is_unanswered(answer):
        return unanswered()
    if not isinstance(answer, dict):
        return Verdict("format", "Give a dict such as {1: 0, 2: ...}.", key="format:dict")
    if any(isinstance(answer.get(n), str) for n in range(1, limit + 1)):
        return Verdict("format", "Give each value as a whole number (0, 1, 2, ...), not text.", key="format:text")
    missing = [n for n in range(1, limit + 1) if is_unanswered(answer.get(n))]
    wrong = [n for n in range(1, limit + 1) if n not in missing and as_whole(answer[n]) != grundy_value(rules, n)]
    done = limit - len(missing)
    if done == 0:
        return unanswered()
    if not wrong:
        if not missing:
            return Verdict("right", "Every value is right.")
        text = f"All {done} values so far are right. Still to fill in: {listing(missing)}."
        return Verdict("partial", text, key=f"partial:{len(missing)}")
    n = wrong[0]
    return Verdict(
        "partial" if done - len(wrong) else "miss",
        f"{done - len(wrong)} of {limit} values right. The first to look at again: {n}.",
        f"For {n}: list the values of the numbers it moves to (use your own values for them), then take the "
        "smallest whole number that is missing.",
        f"The values {n} can reach are {sorted(set(_reached(rules, n)))}. Which is the smallest whole number not "
        "among them?",
        key=f"table:{n}",
    )


@SPEC.model("grundy-table")
def model_table(p: Params) -> tuple[object, str]:
    """g(1) .. g(HAND_LIMIT)."""
    table = {n: grundy_value(rules_of(p), n) for n in range(1, int(p["hand_limit"]) + 1)}
    return table, "From the bottom up: each value is the mex of the values of the numbers it moves to."


@SPEC.check(2)
def grundy_of(answer: object, p: Params) -> Verdict:
    """g(EX_G), naming the largest reachable value and one more than it."""
    rules, n = rules_of(p), int(p["ex_g"])
    right, biggest = grundy_value(rules, n), max(_reached(rules, n), default=-1)
    return expect_number(
        answer,
        right,
        misconceptions=[
            Misconception(
                "max",
                biggest if biggest != right else -1,
                "That is the largest reachable value. The mex is the smallest value NOT reached.",
                "Is 0 reached? 1? 2? ... The first value that is not reached is g.",
            ),
            Misconception(
                "max-plus-one",
                biggest + 1 if biggest + 1 != right else -1,
                "That is one more than the largest reachable value. The mex is the SMALLEST value that no move "
                "reaches.",
                "Go through 0, 1, 2, ... and stop at the first value that no move reaches.",
            ),
        ],
        hint="Look up the value of each number it moves to in your table, then go through 0, 1, 2, ... to find the "
        "first one missing.",
        stronger="Write 0, 1, 2, 3, 4, 5 in a row and cross out every value a move reaches. Which is the first left?",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """g(EX_G) with its reason."""
    rules, n = rules_of(p), int(p["ex_g"])
    g, moves = grundy_value(rules, n), _moves(rules, n)
    if not moves:
        return g, f"{n} has no move: mex{{}} = 0."
    values = listing(_reached(rules, n))
    return g, f"{n} moves to {listing(moves)}, with values {values}; the smallest whole number missing is {g}."


# -- section 5: partners of PARTNER --------------------------------------------------------------------------------


def _partner_truth(p: Params) -> Callable[[int], bool]:
    rules, partner = rules_of(p), int(p["partner"])
    return lambda n: brute(rules, (partner, n)) == "P"


@SPEC.guess_form("partner")
def partner_form(value: object, p: Params) -> str | None:
    """A list of numbers from 13 to 30 (at least one, not all: every number is no prediction)."""
    lo, hi = GUESS_RANGE[0], GUESS_RANGE[-1]
    if (
        isinstance(value, (list, tuple))
        and value
        and all(as_whole(x) is not None and lo <= int(x) <= hi for x in value)
        and {int(x) for x in value} != set(GUESS_RANGE)
    ):
        return None
    return f"Give a list of the numbers from {lo} to {hi} you think work (at least one, not all), for example [14, 27]."


@SPEC.truth("partner", yes="makes a P-sum", no="makes an N-sum")
def partner_truth(p: Params) -> Callable[[int], bool]:
    """Whether PARTNER + n is a P-position, by brute force."""
    return _partner_truth(p)


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
    found = first_difference(rule, _partner_truth(p), PARTNER_UPTO)
    return text + (
        f" Your last rule agrees up to {PARTNER_UPTO}."
        if found is None
        else f" Your last rule first differs at n = {found[0]}."
    )


# -- the proof for two parts: a move can raise a value ---------------------------------------------------------------


def _raises(rules: Rules, n: int) -> bool:
    """Whether n has value at least 1 and some move from n reaches a LARGER value."""
    g = grundy_value(rules, n)
    return g >= 1 and any(v > g for v in _reached(rules, n))


def _first_raise(rules: Rules) -> int:
    return next(n for n in range(1, HUNT_LIMIT + 1) if _raises(rules, n))


@SPEC.check("proof-1")
def move_can_raise(answer: object, p: Params) -> Verdict:
    """The smallest n with value at least 1 from which a move reaches a larger value."""
    rules = rules_of(p)
    return expect_counterexample(
        answer,
        fails=lambda n: _raises(rules, n),
        smallest=_first_raise(rules),
        limit=HUNT_LIMIT,
        claim="its value is 0, or every move from it reaches a smaller value",
        hint="For each n, compare g(n) with the values of the numbers n moves to. Skip the n with value 0.",
        stronger="Write a loop over n with grundy_value: for each n with g(n) at least 1, look at every move "
        "n - d and compare grundy_value(rules, n - d) with g(n). Stop at the first n where one is larger.",
    )


@SPEC.model("proof-1")
def model_proof_1(p: Params) -> tuple[object, str]:
    """The first number with a raising move, and the move."""
    rules = rules_of(p)
    n = _first_raise(rules)
    g = grundy_value(rules, n)
    m = next(m for m in _moves(rules, n) if grundy_value(rules, m) > g)
    return n, f"g({n}) = {g}, but {n} → {m} reaches the larger value g({m}) = {grundy_value(rules, m)}."


# -- exercise 3: a winning move in a sum beyond brute force ----------------------------------------------------------


def _winning_pair_moves(rules: Rules, a: int, b: int) -> list[tuple[int, int]]:
    """Every winning move from a + b as (the number changed, the divisor subtracted): to equal values."""
    moves = [
        (n, d)
        for n, o in ((a, b), (b, a))
        for d in rules.divisors_of(n)
        if grundy_value(rules, rules.result(n, d)) == grundy_value(rules, o)
    ]
    return list(dict.fromkeys(moves))


def _letter(answer: str, good: list[tuple[int, int]]) -> Verdict:
    said = answer.strip().upper()
    if said not in ("P", "N"):
        return Verdict("format", 'Give a move as (number, divisor), like (10, 5), or "P".', key="format:text")
    if answer.strip() != said:  # a case slip is named whatever the answer, so that it confirms nothing
        return Verdict(
            "format", 'Write the letter as a capital, "P", or give a move as (number, divisor).', key="format:case"
        )
    compare = "Two parts make a P-position exactly when their values are equal."
    if said == "P":
        if not good:
            return Verdict("right", "No move wins: the values are equal.")
        return Verdict(
            "misconception",
            f"Your answer was {answer!r}.",
            "Compare the two Grundy values. Are they equal?",
            compare + " Compute both values.",
            key="p-when-n",
        )
    if good:
        return Verdict(
            "partial",
            "Yes, the player to move wins here. Now give a winning move as (number, divisor).",
            "Which part do you change, and which value must it get?",
            "The part you change must end with the other part's value.",
            key="n-without-move",
        )
    return Verdict("miss", f"Your answer was {answer!r}.", "Compare the two Grundy values.", compare, key="n-when-p")


@SPEC.check(3)
def pair_move(answer: object, p: Params) -> Verdict:
    """From EX_PAIR: a winning move (number, divisor), or "P" if there is none."""
    if is_unanswered(answer):
        return unanswered()
    rules = rules_of(p)
    a, b = (int(n) for n in p["ex_pair"])
    good = _winning_pair_moves(rules, a, b)
    if isinstance(answer, str):
        return _letter(answer, good)
    if not (isinstance(answer, (list, tuple)) and len(answer) == 2 and all(as_whole(x) is not None for x in answer)):
        return Verdict("format", 'Give a move as a pair (number, divisor), like (10, 5), or "P".', key="format:pair")
    n, d = (int(x) for x in answer)
    if n not in (a, b):
        if d in (a, b) and n in rules.divisors_of(d):
            return Verdict("format", "The number comes first, then the divisor: (number, divisor).", key="format:order")
        return Verdict("format", f"The number you change is one of the two parts, {a} or {b}.", key="format:part")
    if d not in rules.divisors_of(n):
        return Verdict(
            "miss",
            f"{d} is not a divisor you may subtract from {n}.",
            f"List the moves of {n} first.",
            "Use a divisor from GameState(rules, n).legal_moves.",
            key=f"illegal:{n}:{d}",
        )
    if (n, d) in good:
        return Verdict("right")
    if not good:
        return Verdict(
            "misconception",
            f"After {n} - {d} your opponent can win: there is no winning move here.",
            "Compare the two Grundy values first.",
            'Equal values: the player to move loses. Answer "P".',
            key="move-when-p",
        )
    return Verdict(
        "miss",
        f"After {n} - {d} = {n - d} the two values are not equal, so your opponent can win.",
        "Which part do you change, and which value must it get?",
        "Compute both values. The part you change must move to a number with the other part's value.",
        key=f"miss:{n}:{d}",
    )


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """A winning move from EX_PAIR, or "P"."""
    rules = rules_of(p)
    a, b = (int(n) for n in p["ex_pair"])
    ga, gb = grundy_value(rules, a), grundy_value(rules, b)
    good = _winning_pair_moves(rules, a, b)
    if not good:
        return "P", f"g({a}) = g({b}) = {ga}: equal values, so no move wins."
    n, d = good[0]
    return (n, d), (
        f"g({a}) = {ga} and g({b}) = {gb}. {n} - {d} = {n - d} has value {gb if n == a else ga}, the other part's "
        "value, so the two values are equal again."
    )
