"""Checks for lesson 11, "Who wins a sum of duels?" (the XOR rule, its proof, winning moves, counting).

Sums are decided by brute force (lesson 10's ``brute``), never by the XOR rule the students are asked to find.

>>> p = {"rules": "divisor-duel", "triple_upto": 8, "example": [12, 18, 30], "ex_sum": [6, 10, 12],
...      "ex_pair": [4, 6], "small_box": 20}
>>> SPEC.checks["2"]([(1, 3), (1, 4), (2, 2), (3, 2)], p).kind
'format'
>>> SPEC.checks["sum-rule"](lambda v: sum(v) % 2 == 0, p).kind
'miss'
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from duel_lessons.engine.rules import Rules
from duel_lessons.play.sums import grundy_value
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import rules_of
from duel_lessons.teaching.checks.lesson10 import brute
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    as_whole,
    expect_choice,
    expect_member,
    is_unanswered,
    show,
    unanswered,
)

SPEC = register(LessonSpec("11", needs=("rules", "triple_upto", "example", "ex_sum", "ex_pair", "small_box")))

CHOICES = {"A": (4, 4, 4), "B": (4, 6, 12), "C": (6, 6, 24), "D": (12, 18, 30), "E": (10, 16, 20)}
FLAW_LIMIT = 60


@SPEC.reveal("hand-over")
def hand_over(guess: object, p: Params) -> str:
    """Which of A-E lose, against the guess, then the rule."""
    rules = rules_of(p)
    losing = [k for k, t in CHOICES.items() if brute(rules, t) == "P"]
    items = list(guess) if isinstance(guess, (list, tuple, set)) else [guess]
    chosen = sorted({str(x).strip().upper() for x in items})
    right = [k for k in CHOICES if (k in chosen) == (k in losing)]
    return (
        f"The player to move loses from **{', '.join(losing)}**; you picked {chosen or 'none'} and were right "
        f"about {len(right)} of the 5.\n\n**The rule (Sprague–Grundy):** a sum is P exactly when the XOR of the "
        "Grundy values of its parts is 0, just like Nim with heaps of those sizes. With two parts, XOR 0 means "
        "equal values (lesson 10)."
    )


def _all_sums(rules: Rules, upto: int) -> list[tuple[int, ...]]:
    return [t for k in (1, 2, 3) for t in combinations_with_replacement(range(1, upto + 1), k)]


@SPEC.check("sum-rule", label="Your sum rule")
def sum_rule(answer: object, p: Params) -> Verdict:
    """A function of the list of Grundy values, True exactly for P-sums (brute force, up to three parts)."""
    if is_unanswered(answer):
        return unanswered()
    if not callable(answer):
        return Verdict("format", "Give a function of a list of values, such as my_sum_rule.", key="format:function")
    rules = rules_of(p)
    upto = int(p["triple_upto"])
    for parts in _all_sums(rules, upto):
        values = [grundy_value(rules, n) for n in parts]
        try:
            said = answer(list(values))
        except Exception as error:  # the student's function
            return Verdict(
                "format", f"Your rule stopped with {type(error).__name__} for values {values}.", key="format:error"
            )
        if said is ...:
            return unanswered()
        really = brute(rules, parts) == "P"
        if bool(said) != really:
            sum_words = " + ".join(map(str, parts))
            return Verdict(
                "miss",
                f"First counterexample: {sum_words} (values {values}) is "
                f"{'P' if really else 'N'}, but your rule says {'P' if said else 'N'}.",
                "Write the values in binary, one under the other, as you did for Nim heaps.",
                "A duel with value g behaves like a Nim heap of g counters. What was the Nim rule?",
                key=f"miss:{parts}",
            )
    return Verdict("right", f"Your rule agrees with brute force on every sum of up to three numbers up to {upto}.")


@SPEC.check("proof-1")
def never_same(answer: object, p: Params) -> Verdict:
    """Step 1 uses: a move never reaches the same value."""
    return expect_choice(
        answer,
        "b",
        ("a", "b", "c"),
        misconceptions=[
            Misconception(
                "c",
                "C",
                "True, but the parts need not be odd. What must be different after a move, for the XOR to change?",
                "(c) is true, but a move in an even part is not "
                "about odd numbers at all. Which fact says the "
                "moved part's value is different afterwards?",
            )
        ],
        hint="For the XOR to change, the value of the part that moved must change.",
        stronger="XOR one number with two different values and you get two different results. "
        "So which fact guarantees that the moved part's value is different?",
    )


@SPEC.check("proof-2")
def balance_twelve(answer: object, p: Params) -> Verdict:
    """A number 12 can move to with value 0."""
    rules = rules_of(p)
    good = [12 - d for d in rules.divisors_of(12) if grundy_value(rules, 12 - d) == 0]
    return expect_member(
        answer,
        good,
        what="number",
        misconceptions=[
            Misconception(
                "divisor",
                lambda a: a in [12 - n for n in good],
                "That is the divisor you subtract. The question asks for the number you move 12 to.",
                "The answer is a number that 12 can become: 12 minus a divisor.",
            )
        ],
        hint="The moves from 12 go to 10, 9, 8 and 6. Which of them have value 3 XOR 3 = 0?",
        stronger="Look up the values of 10, 9, 8 and 6 in section 1's list (odd numbers have value 0).",
    )


@SPEC.check("proof-3")
def even_sum_flaw(answer: object, p: Params) -> Verdict:
    """A sum (numbers at most 60, at most three of them) where "even sum of values" and brute force disagree."""
    if is_unanswered(answer):
        return unanswered()
    if not isinstance(answer, (list, tuple)) or not answer:
        return Verdict("format", "Give the sum as a list of numbers, like [4, 6].", key="format:list")
    parts = [as_whole(x) for x in answer]
    if any(x is None or not 1 <= x <= FLAW_LIMIT for x in parts) or len(parts) > 3:
        return Verdict("format", f"Give two or three whole numbers from 1 to {FLAW_LIMIT}.", key="format:numbers")
    rules = rules_of(p)
    numbers = tuple(int(x) for x in parts if x is not None)
    values = [grundy_value(rules, n) for n in numbers]
    really = brute(rules, numbers) == "P"
    if (sum(values) % 2 == 0) != really:
        return Verdict(
            "right",
            f"Values {values}: the sum {sum(values)} is {'even' if sum(values) % 2 == 0 else 'odd'}"
            f", but the position is {'P' if really else 'N'}.",
        )
    return Verdict(
        "miss",
        f"For {show(list(numbers))} the values are {values}, and the conjecture happens to be right there.",
        "Look for values whose ordinary sum is even but whose XOR is not 0.",
        "Two equal values cancel in the XOR but add up to an even number. Add a third part with an even, "
        "nonzero value, and find numbers with those values in section 1's list.",
        key=f"miss:{numbers}",
    )


@SPEC.check(1)
def p_or_n(answer: object, p: Params) -> Verdict:
    """P or N for EX_SUM."""
    rules = rules_of(p)
    return expect_choice(
        answer,
        brute(rules, [int(n) for n in p["ex_sum"]]),
        ("P", "N"),
        hint="Find the Grundy values, write them in binary, and XOR them.",
        stronger="Balanced (XOR 0) = P. Look the three values up with grundy_value, then compute a ^ b ^ c.",
    )


def _winning(rules: Rules, numbers: tuple[int, ...]) -> set[tuple[int, int]]:
    moves = set()
    for i, n in enumerate(numbers):
        for d in rules.divisors_of(n):
            rest = numbers[:i] + (rules.result(n, d),) + numbers[i + 1 :]
            if brute(rules, rest) == "P":
                moves.add((i, d))
    return moves


@SPEC.check(2)
def winning_moves(answer: object, p: Params) -> Verdict:
    """Every winning move from EXAMPLE as (component from 0, divisor)."""
    if is_unanswered(answer):
        return unanswered()
    rules = rules_of(p)
    good = _winning(rules, tuple(int(n) for n in p["example"]))
    pairs = []
    if isinstance(answer, (list, tuple, set)):
        for m in answer:
            if isinstance(m, (list, tuple)) and len(m) == 2 and all(as_whole(x) is not None for x in m):
                pairs.append((int(m[0]), int(m[1])))
            else:
                return Verdict("format", "Each move is a pair (component, divisor), like (0, 2).", key="format:pair")
    else:
        return Verdict("format", "Give a list of moves, like [(0, 2), (1, 3)].", key="format:list")
    moves = set(pairs)
    if moves == good:
        return Verdict("right")
    if {(i - 1, d) for i, d in moves} == good:
        return Verdict(
            "format",
            "The right moves, but count the components from 0: the first number is component 0.",
            key="format:from-one",
        )
    right = moves & good
    missing = len(good - moves)
    extra = sorted(moves - good)
    if right:
        text = f"{len(right)} of the {len(good)} winning moves"
        text += f"; {extra} {'does' if len(extra) == 1 else 'do'} not win." if extra else "."
        return Verdict(
            "partial",
            text,
            "Check each component: which value would make the XOR 0, and can that "
            "part reach a number with that value? It may be a LARGER value.",
            "For each part, list every move with grundy_value(rules, n - d) and keep the moves that make "
            "the XOR 0. Do it for all three parts.",
            key=f"partial:{missing}:{extra}",
        )
    return Verdict(
        "miss",
        "None of those moves wins.",
        "Find the XOR s of the three values. For each part with "
        "value g, you need a move to a number with value g XOR s.",
        "Write the three values and s. For each part, which value makes the XOR 0? Then list that "
        "part's moves and their values.",
        key=f"miss:{sorted(moves)}",
    )


@SPEC.check(3)
def third_number(answer: object, p: Params) -> Verdict:
    """An n from 1 to 60 with EX_PAIR + n a P-position."""
    rules = rules_of(p)
    pair = tuple(int(n) for n in p["ex_pair"])
    good = [n for n in range(1, 61) if brute(rules, (*pair, n)) == "P"]
    return expect_member(
        answer,
        good,
        misconceptions=[
            Misconception(
                "equal-to-part",
                lambda a: a in pair,
                "Adding a copy of one part cancels that part only. What about the other one?",
                "The third part must cancel BOTH given parts: its value must be g(first) XOR g(second).",
            )
        ],
        hint="XOR the values of the two given parts. Which n has exactly that value?",
        stronger="Compute g(a) ^ g(b) for EX_PAIR = [a, b], then look for an n up to 60 with "
        "grundy_value(rules, n) equal to it.",
    )


@SPEC.reveal("box")
def box(guess: object, p: Params) -> str:
    """The brute-force count of the small box against the guessed fraction."""
    rules = rules_of(p)
    size = int(p["small_box"])
    count = sum(brute(rules, (a, b)) == "P" for a in range(1, size + 1) for b in range(1, size + 1))
    fraction = count / size**2
    try:
        guessed = f"You guessed {float(str(guess)):g}; "
    except ValueError:
        guessed = ""
    zeros = sum(grundy_value(rules, n) == 0 for n in range(1, size + 1))
    return (
        f"{guessed}the brute-force fraction is {count}/{size**2} = {fraction:.2f}. Of the {count} P-pairs, "
        f"{zeros**2} pair two numbers of value 0 (the odd numbers, and 2, 8, ...); "
        f"the other {count - zeros**2} pair two even numbers of the same nonzero value."
    )
