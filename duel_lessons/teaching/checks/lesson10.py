"""Checks for lesson 10, "Is 'winning' enough to know who wins two duels at once?" (sums, mex, Grundy values).

Sums are decided here by brute force (trying every move), independently of the Grundy values they are compared with,
except in exercise 3, after the proof: its pair is beyond brute force, and its winning moves are those to equal values.

>>> p = {"rules": "divisor-duel", "hand_limit": 12, "partner": 12, "ex_set": [0, 1, 2, 4], "ex_g": 14,
...      "ex_pair": [10, 16]}
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

SPEC = register(LessonSpec("10", needs=("rules", "hand_limit", "partner", "ex_set", "ex_g", "ex_pair")))

PARTNER_UPTO = 60
#: The numbers n the "partner" guess is about (PARTNER + n for n in this range).
GUESS_RANGE = range(13, 31)
#: How far the counterexample hunt of proof question 1 looks.
HUNT_LIMIT = 1000


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


def _moves(rules: Rules, n: int) -> list[int]:
    return [rules.result(n, d) for d in rules.divisors_of(n)]


# -- section 2: the guess about 4 + 4 and 4 + 6 ------------------------------------------------------------------


@SPEC.guess_form("sums")
def sums_form(value: object, p: Params) -> str | None:
    """Two letters, P or N: one for 4 + 4, one for 4 + 6."""
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(x, str) and x.strip().upper() in ("P", "N") for x in value)
    ):
        return None
    return 'Give two letters in a list, one for 4 + 4 and one for 4 + 6, each "P" or "N": for example ["N", "P"].'


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


SPEC.discovers(
    "sums",
    r"4\s*\+\s*4\W{0,4}(is|=|:)\W{0,4}P\b",
    r"4\s*\+\s*6\W{0,4}(is|=|:)\W{0,4}N\b",
    r"'N',\s*'N',\s*'P',\s*'N'",
    r"\bN\s*\+\s*N\W{0,4}(=|is|can)\W{0,4}(P\b|go either)",
    r"labels? .{0,30}(not enough|do not decide|does not decide)",
)


# -- section 4: mex and the Grundy table -------------------------------------------------------------------------


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
    reach = sorted({grundy_value(rules, m) for m in _moves(rules, n)})
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


@SPEC.model("grundy-table")
def model_table(p: Params) -> tuple[object, str]:
    """g(1) .. g(HAND_LIMIT)."""
    rules = rules_of(p)
    return (
        {n: grundy_value(rules, n) for n in range(1, int(p["hand_limit"]) + 1)},
        "From the bottom up: each value is the mex of the values of the numbers it moves to.",
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


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """mex(EX_SET) with its reason."""
    values = sorted({int(v) for v in p["ex_set"]})
    m = mex(values)
    below = [v for v in range(m)]
    return m, (
        f"{listing(below)} {'is' if len(below) == 1 else 'are'} in the set, {m} is not."
        if below
        else "0 is not in the set."
    )


@SPEC.check(2)
def grundy_of(answer: object, p: Params) -> Verdict:
    """g(EX_G)."""
    rules = rules_of(p)
    n = int(p["ex_g"])
    reach = [grundy_value(rules, m) for m in _moves(rules, n)]
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
            ),
            Misconception(
                "max-plus-one",
                biggest + 1 if biggest + 1 != right else -1,
                "That is one more than the largest reachable value. The mex is the SMALLEST value that "
                "no move reaches.",
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
    rules = rules_of(p)
    n = int(p["ex_g"])
    moves = _moves(rules, n)
    values = [grundy_value(rules, m) for m in moves]
    g = grundy_value(rules, n)
    if not moves:
        return g, f"{n} has no move: mex{{}} = 0."
    return g, (
        f"{n} moves to {listing(moves)}, with values {listing(values)}; the smallest whole number missing is {g}."
    )


# -- section 5: partners of PARTNER --------------------------------------------------------------------------------


def _partner_truth(p: Params) -> Callable[[int], bool]:
    rules = rules_of(p)
    partner = int(p["partner"])
    return lambda n: brute(rules, (partner, n)) == "P"


@SPEC.guess_form("partner")
def partner_form(value: object, p: Params) -> str | None:
    """A list of numbers from 13 to 30 (at least one)."""
    lo, hi = GUESS_RANGE[0], GUESS_RANGE[-1]
    if (
        isinstance(value, (list, tuple))
        and value
        and all(as_whole(x) is not None and lo <= int(x) <= hi for x in value)
        and {int(x) for x in value} != set(GUESS_RANGE)  # every number is no prediction
    ):
        return None
    return (
        f"Give a list of the numbers from {lo} to {hi} you think work (at least one, not all of them), "
        "for example [14, 27]."
    )


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
    code = getattr(rule, "__code__", None)
    if callable(rule) and "brute" in (*getattr(code, "co_names", ()), *getattr(code, "co_freevars", ())):
        text += (
            " Your last rule asks `brute` itself: it copies the data instead of predicting it, so it proves "
            "nothing. Try one that uses grundy_value only."
        )
    elif callable(rule):
        found = first_difference(rule, _partner_truth(p), PARTNER_UPTO)
        text += (
            f" Your last rule agrees up to {PARTNER_UPTO}."
            if found is None
            else f" Your last rule first differs at n = {found[0]}."
        )
    return text


SPEC.discovers(
    "partner",
    r"g\s*\(\s*n\s*\)\s*=\s*g\s*\(\s*(12|partner)",
    r"equal (grundy )?values",
    r"same (grundy )?values?\b",
    r"values? (are|is) (the )?(equal|same)",
    r"exactly when (they are|the values are) equal",
    r"behaves? like (a|two) nim heaps?",
)


# -- the proof for two parts -----------------------------------------------------------------------------------


def _raises(rules: Rules, n: int) -> bool:
    """Whether n has value at least 1 and some move from n reaches a LARGER value."""
    g = grundy_value(rules, n)
    return g >= 1 and any(grundy_value(rules, m) > g for m in _moves(rules, n))


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


# -- exercise 3 -----------------------------------------------------------------------------------------------


def _pair(p: Params) -> tuple[int, int]:
    a, b = (int(n) for n in p["ex_pair"])
    return a, b


def _winning_pair_moves(rules: Rules, a: int, b: int) -> list[tuple[int, int]]:
    """Every winning move from a + b as (the number changed, the divisor subtracted): to equal values, the rule proved
    in section 5 (EX_PAIR is beyond brute force, so that a loop over the notebook's ``brute`` does not answer it)."""
    moves = []
    for n, other in ((a, b), (b, a)):
        for d in rules.divisors_of(n):
            if grundy_value(rules, rules.result(n, d)) == grundy_value(rules, other) and (n, d) not in moves:
                moves.append((n, d))
    return moves


@SPEC.check(3)
def pair_move(answer: object, p: Params) -> Verdict:
    """From EX_PAIR: a winning move (number, divisor), or "P" if there is none."""
    if is_unanswered(answer):
        return unanswered()
    rules = rules_of(p)
    a, b = _pair(p)
    good = _winning_pair_moves(rules, a, b)
    if isinstance(answer, str):
        said = answer.strip().upper()
        if said not in ("P", "N"):
            return Verdict("format", 'Give a move as (number, divisor), like (10, 5), or "P".', key="format:text")
        if answer.strip() != said:  # a case slip is named whatever the answer, so that it confirms nothing
            return Verdict(
                "format", 'Write the letter as a capital, "P", or give a move as (number, divisor).', key="format:case"
            )
        if said == "P" and not good:
            return Verdict("right", "No move wins: the values are equal.")
        if said == "P":
            return Verdict(
                "misconception",
                f"Your answer was {answer!r}.",
                "Compare the two Grundy values. Are they equal?",
                "Two parts make a P-position exactly when their values are equal. Compute both values.",
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
        return Verdict(
            "miss",
            f"Your answer was {answer!r}.",
            "Compare the two Grundy values.",
            "Two parts make a P-position exactly when their values are equal.",
            key="n-when-p",
        )
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
    a, b = _pair(p)
    ga, gb = grundy_value(rules, a), grundy_value(rules, b)
    good = _winning_pair_moves(rules, a, b)
    if not good:
        return "P", f"g({a}) = g({b}) = {ga}: equal values, so no move wins."
    n, d = good[0]
    other = gb if n == a else ga
    return (n, d), (
        f"g({a}) = {ga} and g({b}) = {gb}. {n} - {d} = {n - d} has value {other}, the other part's "
        "value, so the two values are equal again."
    )
