"""Checks for lesson 10, "Is 'winning' enough to know who wins two duels at once?" (sums, mex, Grundy values).

Sums are decided here by brute force (trying every move), independently of the Grundy values they are compared with.

>>> p = {"rules": "divisor-duel", "hand_limit": 12, "partner": 12, "ex_set": [0, 1, 3], "ex_g": 24, "ex_pair": [6, 16]}
>>> SPEC.checks["3"]([20, 36, 40, 48], p).message
'2 of your 4 numbers are right, but 36, 40 are not one of them.'
>>> SPEC.checks["3"]([36, 40], p).kind
'misconception'
>>> SPEC.checks["3"]([20, 48], p).kind
'right'
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
    expect_choice,
    expect_list,
    expect_member,
    expect_number,
    first_difference,
    is_unanswered,
    unanswered,
)

SPEC = register(LessonSpec("10", needs=("rules", "hand_limit", "partner", "ex_set", "ex_g", "ex_pair")))

PARTNER_UPTO = 60
EX3_RANGE = range(13, 51)


def mex(values: Iterable[int]) -> int:
    """The smallest whole number not among ``values``.

    >>> mex([0, 1, 3]), mex([1, 2]), mex([])
    (2, 0, 0)
    """
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


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
            rest = numbers[:i] + (rules.result(n, d),) + numbers[i + 1 :]
            if _brute_p(rules, tuple(sorted(rest))):
                return False
    return True


@SPEC.reveal("sums")
def sums(guess: object, p: Params) -> str:
    """4 + 4 and 4 + 6 against the guess."""
    rules = rules_of(p)
    truth = [brute(rules, (4, 4)), brute(rules, (4, 6))]
    items = list(guess) if isinstance(guess, (list, tuple)) else [guess]
    said = [str(x).strip().upper() for x in items]
    score = sum(a == b for a, b in zip(said, truth, strict=False))
    return (
        f"**4 + 4 is {truth[0]}, and 4 + 6 is {truth[1]}**, although 4 and 6 are both N on their own. "
        f"Your guess {said} got {score} of 2. So the labels of the parts do not decide the sum."
    )


@SPEC.check("grundy-table", label="Your Grundy table")
def grundy_table(answer: object, p: Params) -> Verdict:
    """The student's Grundy values for n = 1 .. HAND_LIMIT."""
    rules = rules_of(p)
    limit = int(p["hand_limit"])
    if is_unanswered(answer):
        return unanswered()
    if not isinstance(answer, dict):
        return Verdict("format", "Give a dict such as {1: 0, 2: ...}.", key="format:dict")
    missing = [n for n in range(1, limit + 1) if is_unanswered(answer.get(n))]
    if any(isinstance(answer.get(n), str) for n in range(1, limit + 1)):
        return Verdict(
            "format", "Give each value as a whole number (0, 1, 2, ...), not a letter or text.", key="format:text"
        )
    wrong = [n for n in range(1, limit + 1) if n not in missing and as_whole(answer.get(n)) != grundy_value(rules, n)]
    done = limit - len(missing)
    if done == 0:
        return unanswered()
    if not wrong and not missing:
        return Verdict("right", "Every value is right.")
    if not wrong:
        return Verdict(
            "partial",
            f"All {done} values so far are right. Still to fill in: {listing(missing)}.",
            key=f"partial:{len(missing)}",
        )
    n = wrong[0]
    reach = sorted({grundy_value(rules, rules.result(n, d)) for d in rules.divisors_of(n)})
    hint = (
        f"For {n}: list the values of the numbers it moves to (use your own values for them), then take the "
        "smallest whole number that is missing."
    )
    stronger = f"The values {n} can reach are {reach}. Which is the smallest whole number not among them?"
    return Verdict(
        "partial" if done - len(wrong) else "miss",
        f"{done - len(wrong)} of {limit} values right. The first to look at again: {n}.",
        hint,
        stronger,
        key=f"table:{n}",
    )


def _partner_truth(p: Params) -> Callable[[int], bool]:
    rules = rules_of(p)
    partner = int(p["partner"])
    return lambda n: brute(rules, (partner, n)) == "P"


@SPEC.truth("partner", yes="makes a P-sum", no="makes an N-sum")
def partner_truth(p: Params) -> Callable[[int], bool]:
    """Whether PARTNER + n is a P-position, by brute force."""
    return _partner_truth(p)


@SPEC.reveal("partner")
def partner_reveal(rule: object, p: Params) -> str:
    """The rule for two parts, compared with the student's last tested rule."""
    rules = rules_of(p)
    partner = int(p["partner"])
    g = grundy_value(rules, partner)
    text = (
        f"**{partner} + n is P exactly when g(n) = g({partner}) = {g}.** Two duels behave like two Nim heaps "
        "of sizes g(a) and g(b): P exactly when they are equal."
    )
    if callable(rule):
        found = first_difference(rule, _partner_truth(p), PARTNER_UPTO)
        text += (
            f" Your last rule agrees up to {PARTNER_UPTO}."
            if found is None
            else f" Your last rule first differs at n = {found[0]}."
        )
    return text


@SPEC.check("proof-1")
def same_value(answer: object, p: Params) -> Verdict:
    """A move never keeps the Grundy value of a part."""
    return expect_choice(
        answer,
        "no",
        ("yes", "no"),
        hint="g(n) is the smallest value that NO move reaches. Can a move reach g(n) itself?",
        stronger="Take 12, with g(12) = mex{1, 0, 0, 2} = 3. Its moves reach the values 1, 0, 0 "
        "and 2. Is 3 among them? Could it ever be, for any n?",
    )


@SPEC.check("proof-2")
def copy_move(answer: object, p: Params) -> Verdict:
    """In 12 + 20 after 20 → 10 (value 1): the divisor of 12 that reaches value 1."""
    rules = rules_of(p)
    target = grundy_value(rules, 10)
    good = [d for d in rules.divisors_of(12) if grundy_value(rules, 12 - d) == target]
    return expect_member(
        answer,
        good,
        what="divisor",
        misconceptions=[
            Misconception(
                "not-divisor",
                lambda a: isinstance(a, int) and a not in rules.divisors_of(12),
                "That is not a divisor you may subtract from 12: use 2, 3, 4 or 6.",
                "The divisors you may subtract from 12 are 2, 3, 4 and 6. Which one leaves a number of value 1?",
            )
        ],
        hint="Copying means making the two values equal again. Which value must the 12 part get? Which move "
        "of 12 reaches it?",
        stronger="The moves of 12 go to 10, 9, 8 and 6. Which of them has value 1 (your Grundy table)?",
    )


@SPEC.check(1)
def mex_of(answer: object, p: Params) -> Verdict:
    """mex(EX_SET)."""
    values = [int(v) for v in p["ex_set"]]
    right = mex(values)
    above = max(values, default=-1) + 1
    return expect_number(
        answer,
        right,
        misconceptions=[
            Misconception(
                "max-plus-one",
                above if above != right else -1,
                "That is one more than the largest. The mex is the SMALLEST missing whole number, starting from 0.",
                "Is 0 in the set? Is 1? Is 2? Stop at the first answer 'no'.",
            )
        ],
        hint="Go through 0, 1, 2, 3, ... and stop at the first one that is not in the set.",
        stronger="Write 0, 1, 2, 3, 4 in a row and cross out the numbers in EX_SET. Which is the first left?",
    )


@SPEC.check(2)
def grundy_of(answer: object, p: Params) -> Verdict:
    """g(EX_G)."""
    rules = rules_of(p)
    n = int(p["ex_g"])
    reach = [grundy_value(rules, rules.result(n, d)) for d in rules.divisors_of(n)]
    right = grundy_value(rules, n)
    biggest = max(reach, default=-1)
    return expect_number(
        answer,
        right,
        misconceptions=[
            Misconception(
                "max",
                biggest if biggest != right else -1,
                "That is the largest reachable value. The mex is the smallest value NOT reached.",
                "Is 0 reached? 1? 2? ... The first value that is not reached is g.",
            )
        ],
        hint="List the values the moves reach, then go through 0, 1, 2, ... to find the first one missing.",
        stronger="Write 0, 1, 2, 3, 4, 5 in a row and cross out every value a move reaches. Which is the first left?",
    )


@SPEC.check(3)
def partners(answer: object, p: Params) -> Verdict:
    """Every n from 13 to 50 with PARTNER + n a P-position."""
    rules = rules_of(p)
    truth = _partner_truth(p)
    right = [n for n in EX3_RANGE if truth(n)]
    g = grundy_value(rules, int(p["partner"]))

    def wrong_values(a: object) -> bool:
        listed = a if isinstance(a, (list, tuple, set)) else []
        return any(as_whole(x) is not None and grundy_value(rules, int(x)) != g for x in listed if 1 <= int(x) <= 60)

    return expect_list(
        answer,
        right,
        what="numbers",
        misconceptions=[
            Misconception(
                "wrong-value",
                lambda a: wrong_values(a) and not set(right) <= set(a),
                "Some of your numbers do not have the same Grundy value as PARTNER. Compute "
                "g(n) for each of them with the mex rule or grundy_value.",
                "Check each number of your list with grundy_value(rules, n): keep only those "
                "with the value of PARTNER.",
            )
        ],
        hint="PARTNER + n is P exactly when g(n) = g(PARTNER). Which n from 13 to 50 have that value?",
        stronger="Compute grundy_value(rules, n) for every n from 13 to 50 (a loop) and compare with g(PARTNER).",
    )


@SPEC.check(4)
def pair(answer: object, p: Params) -> Verdict:
    """P or N for the sum EX_PAIR."""
    rules = rules_of(p)
    right = brute(rules, [int(n) for n in p["ex_pair"]])
    return expect_choice(
        answer,
        right,
        ("P", "N"),
        hint="Compare the Grundy values of the two parts.",
        stronger="Two parts make a P-position exactly when their Grundy values are equal "
        "(section 5). Find both values with grundy_value.",
    )
