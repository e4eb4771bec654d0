"""Lesson 11's unusual checks: the student's sum rule (a function, run in its own process), and moves in a sum.

The rest is declared in ``notebooks/11-sums-of-duels.lesson.toml``.  Small sums are decided by brute force (lesson
10's ``brute``), never by the XOR rule the students are asked to find; the bigger sums after every small one, and
exercise 2 (beyond brute force, asked after the proof), use the XOR of the values.

>>> p = {"rules": "divisor-duel", "triple_upto": 8, "example": [12, 18, 30], "ex_sum": [100, 360, 840]}
>>> SPEC.checks["2"]([(1, 3), (1, 4), (2, 2), (3, 2)], p).kind
'format'
"""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from itertools import combinations_with_replacement
from operator import xor

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import new_game
from duel_lessons.engine.rules import Rules
from duel_lessons.play.sums import grundy_value
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import rules_of
from duel_lessons.teaching.checks.lesson10 import brute
from duel_lessons.teaching.checks.rule_process import (
    BIG_BASE,
    BIG_LISTS,
    SAID_NOTHING,
    SAID_OTHER,
    ask_big,
    rule_sandbox,
)
from duel_lessons.teaching.declared.guesses import listing
from duel_lessons.teaching.feedback import Verdict, as_whole, is_unanswered, plain, unanswered

SPEC = register(LessonSpec("11"))
Judge = Callable[[dict[tuple[int, ...], int]], "Verdict | None"]
NOT_BOOL = "Your rule should give True or False; for values {} it gave something else."


def _values(rules: Rules, numbers: tuple[int, ...] | list[int]) -> list[int]:
    return [grundy_value(rules, n) for n in numbers]


def _small(p: Params) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every sum of up to three numbers up to TRIPLE_UPTO with its values, in the check's order."""
    rules, upto = rules_of(p), int(p["triple_upto"])
    sums = [t for k in (1, 2, 3) for t in combinations_with_replacement(range(1, upto + 1), k)]
    return [(parts, tuple(_values(rules, parts))) for parts in sums]


def _run(rule: Callable[..., object], p: Params, judge: Judge | None = None) -> dict[tuple[int, ...], int] | Verdict:
    """The rule's answer (0 or 1) for each list of values of the small sums, or the verdict that stops it; then, if
    ``judge`` (of those answers) finds nothing wrong, for each of BIG_LISTS too.

    The rule runs in its own process with a time limit (the bot sandbox of lesson 12), so a rule that loops, crashes
    the process, returns a strange object or reads the check's variables cannot hang or fool the check. In JupyterLite
    (no processes) it runs in the kernel under the same time limit: a loop is still stopped, but nothing is isolated.
    """
    from duel_lessons.play.referee import Forfeit  # no process started here: imports without psutil

    rules = rules_of(p)
    lists = list(dict.fromkeys(values for _, values in _small(p)))
    told: dict[tuple[int, ...], int] = {}
    try:
        with rule_sandbox(rule, [*lists, *[()] * (BIG_BASE - len(lists)), *BIG_LISTS], rules) as sandbox:
            for k, values in enumerate(lists):
                try:
                    told[values] = said = sandbox.ask(new_game(rules, 2 + k))
                except Forfeit as stopped:
                    why = "Your rule must return True or False for every list of values, quickly: no endless loop."
                    message = f"For values {list(values)} your rule gave no answer: it {stopped.reason}."
                    return Verdict("format", message, why, key="format:error")
                if said == SAID_NOTHING:
                    return unanswered()
                if said == SAID_OTHER:
                    return Verdict("format", NOT_BOOL.format(list(values)), key="format:not-bool")
            verdict = None if judge is None else judge(told)
            if judge is None or verdict is not None:
                return verdict or told
            for big in BIG_LISTS:
                answer = ask_big(sandbox, rules, big)
                if isinstance(answer, Verdict):
                    return answer
                told[big] = answer
    except DuelError as error:  # no process could be started for it (where functions cannot be sent to one)
        return Verdict("format", f"Your rule could not be run: {error}", key="format:process")
    return told


@SPEC.guess_form("rule")
def rule_form(value: object, p: Params) -> str | None:
    """A rule of the student's own that answers every small sum, and not always alike (so ``...``, a rule that loops
    or crashes, and ``return True`` open nothing)."""
    if not callable(value):
        return "Hand in your rule itself, the function name without brackets: my_sum_rule."
    told = _run(value, p)
    if isinstance(told, Verdict):
        return "Write your rule first: replace the ... after return." if told.kind == "unanswered" else told.message
    small = {told[values] for _, values in _small(p)}
    if len(small) < 2:
        return (
            f"Your rule says {'P' if small == {1} else 'N'} for every sum: that is no conjecture. Which sums "
            "in the data are P, and what do their values have in common?"
        )
    return None


@SPEC.reveal("rule")
def the_rule(rule: object, p: Params) -> str:
    """The sum rule, compared with the student's rule (by the sum-rule check)."""
    verdict = sum_rule(rule, p)
    return (
        "**The rule (Sprague–Grundy):** a sum is P exactly when the XOR of the Grundy values of its parts is 0, "
        "just like Nim with heaps of those sizes. With two parts, XOR 0 means equal values (lesson 10). "
        + (
            "Your rule agrees with it on every sum the check tried."
            if verdict.right
            else f"Your rule: {verdict.message}"
        )
    )


@SPEC.check("sum-rule", label="Your sum rule")
def sum_rule(answer: object, p: Params) -> Verdict:
    """A function of the list of Grundy values, True exactly for P-sums (brute force up to three parts; then bigger
    sums, judged by the XOR rule)."""
    if is_unanswered(answer):
        return unanswered()
    if not callable(answer):
        return Verdict("format", "Give a function of a list of values, such as my_sum_rule.", key="format:function")
    rules, upto = rules_of(p), int(p["triple_upto"])

    def small_sums(told: dict[tuple[int, ...], int]) -> Verdict | None:
        for parts, values in _small(p):
            really = brute(rules, parts) == "P"
            if bool(told[values]) != really:
                return Verdict(
                    "miss",
                    f"First counterexample: {' + '.join(map(str, parts))} (values {list(values)}) is "
                    f"{'P' if really else 'N'}, but your rule says {'P' if told[values] else 'N'}.",
                    "Write the values in binary, one under the other, as you did for Nim heaps.",
                    "A duel with value g behaves like a Nim heap of g counters. What was the Nim rule?",
                    key=f"miss:{parts}",
                )
        return None

    told = _run(answer, p, small_sums)
    if isinstance(told, Verdict):
        return told
    for big in BIG_LISTS:
        really = reduce(xor, big) == 0
        if bool(told[big]) != really:
            example = " + ".join(str(next(n for n in range(1, 1000) if grundy_value(rules, n) == v)) for v in big)
            return Verdict(
                "miss",
                f"It holds on every sum of up to three numbers up to {upto}, but not on a bigger one: a sum whose "
                f"parts have the values {list(big)} ({example}, for example, far too big for brute force) is "
                f"{'P' if really else 'N'}, but your rule says {'P' if told[big] else 'N'}.",
                "Does your rule work for any number of parts, and for values bigger than 3?",
                "Write the values in binary, one under the other, as you did for Nim heaps. What was the Nim rule?",
                key=f"miss-big:{big}",
            )
    return Verdict(
        "right",
        f"Your rule agrees with brute force on every sum of up to three numbers up to {upto}, and on "
        f"{len(BIG_LISTS)} bigger sums (up to {max(map(len, BIG_LISTS))} parts, values up to "
        f"{max(map(max, BIG_LISTS))}).",
    )


def my_sum_rule(values: list[int]) -> bool:
    """The model sum rule: the XOR of the values is 0."""
    return reduce(xor, values, 0) == 0


@SPEC.model("sum-rule")
def model_sum_rule(p: Params) -> tuple[object, str]:
    """The XOR rule."""
    why = "def my_sum_rule(values): return the XOR of the values (a ^ b ^ ...) == 0; every binary column has an even "
    return my_sum_rule, why + "number of 1s."


# -- exercises -------------------------------------------------------------------------------------------------


def _winning(rules: Rules, numbers: tuple[int, ...]) -> set[tuple[int, int]]:
    """Every winning move (component, divisor): to XOR 0 (EXAMPLE is beyond a loop over lesson 10's ``brute``)."""
    values = _values(rules, numbers)
    s = reduce(xor, values)
    good = ((i, d) for i, n in enumerate(numbers) for d in rules.divisors_of(n))
    return {(i, d) for i, d in good if s and grundy_value(rules, rules.result(numbers[i], d)) == values[i] ^ s}


NAMED_EXTRAS = 2  #: at most this many moves that do not win are named (a list of every legal move gets no answer)


@SPEC.check(2)
def winning_moves(answer: object, p: Params) -> Verdict:
    """Every winning move from EXAMPLE as (component from 0, divisor)."""
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    rules, numbers = rules_of(p), tuple(int(n) for n in p["example"])
    if not isinstance(answer, (list, tuple, set)):
        return Verdict("format", "Give a list of moves, like [(0, 2), (1, 3)].", key="format:list")
    if not all(isinstance(m, (list, tuple)) and len(m) == 2 and None not in map(as_whole, m) for m in answer):
        return Verdict("format", "Each move is a pair (component, divisor), like (0, 2).", key="format:pair")
    moves, good = {(int(i), int(d)) for i, d in answer}, _winning(rules, numbers)
    if moves == good:
        return Verdict("right")

    def legal(move: tuple[int, int]) -> bool:
        return 0 <= move[0] < len(numbers) and move[1] in rules.divisors_of(numbers[move[0]])

    shifted = {(i - 1, d) for i, d in moves}
    if (
        shifted == good
        or (all(map(legal, shifted)) and not all(map(legal, moves)))
        or (shifted & good and not moves & good)
    ):
        why = "Count the components from 0, as Python does: the first number is component 0, the second component 1."
        return Verdict("format", why, key="format:from-one")
    illegal = sorted(m for m in moves if not legal(m))
    if illegal:
        i = illegal[0][0]
        where = f"component {i} is {numbers[i]}" if 0 <= i < len(numbers) else f"there is no component {i}"
        why = f"{illegal[0]} is not a legal move: {where}. Components count from 0: (0, d) changes the first number."
        return Verdict("format", why, key="format:illegal")
    right, extra = moves & good, sorted(moves - good)
    if not right:
        hint = "Find the XOR s of the three values. For each part with value g, you need a move to a value g XOR s."
        stronger = "Write the three values and s. For each part, which value makes the XOR 0? Then list its moves."
        return Verdict("miss", "None of those moves wins.", hint, stronger, key=f"miss:{sorted(moves)}")
    text = f"{len(right)} of the {len(good)} winning moves" + (
        f"; {len(extra)} of your moves do not win (too many to name: check each one with the rule)."
        if len(extra) > NAMED_EXTRAS
        else (f"; {extra} {'does' if len(extra) == 1 else 'do'} not win." if extra else ".")
    )
    return Verdict(
        "partial",
        text,
        "Check each component: which value would make the XOR 0, and can that part reach a number with that value? "
        "It may be a LARGER value.",
        "For each part, list every move with grundy_value(rules, n - d) and keep the moves that make the XOR 0. "
        "Do it for all three parts.",
        key=f"partial:{len(good - moves)}:{extra}",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """Every winning move from EXAMPLE."""
    rules, numbers = rules_of(p), tuple(int(n) for n in p["example"])
    values, moves = _values(rules, numbers), sorted(_winning(rules, numbers))
    s = reduce(xor, values)
    steps = "; ".join(f"{numbers[i]} → {numbers[i] - d} (value {values[i] ^ s})" for i, d in moves)
    return moves, f"The values are {listing(values)}, XOR {s}: {steps or 'no winning move'}."
