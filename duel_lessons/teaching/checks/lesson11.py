"""Checks for lesson 11, "Who wins a sum of duels?" (the XOR rule, its proof, winning moves, counting).

Before the rule is revealed, sums are decided by brute force (lesson 10's ``brute``), never by the XOR rule the
students are asked to find. Exercises 1 and 2 ask about numbers far beyond brute force, after the rule is proved
(so a loop over the notebook's ``brute`` does not answer them): their checks use the XOR of the Grundy values, and
so do the bigger sums the sum-rule check adds after every small one.

>>> p = {"rules": "divisor-duel", "triple_upto": 8, "example": [12, 18, 30], "ex_sum": [100, 360, 840],
...      "small_box": 20}
>>> SPEC.checks["2"]([(1, 3), (1, 4), (2, 2), (3, 2)], p).kind
'format'
>>> SPEC.checks["sum-rule"](lambda v: sum(v) % 2 == 0, p).kind
'miss'
>>> SPEC.checks["proof-1"]((3, 4), p).kind, SPEC.checks["proof-1"]((2, 4), p).kind
('right', 'partial')
"""

from __future__ import annotations

from functools import reduce
from itertools import combinations_with_replacement
from operator import xor

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import new_game
from duel_lessons.engine.rules import Rules
from duel_lessons.play.sums import grundy_value
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import listing, rules_of
from duel_lessons.teaching.checks.lesson10 import brute
from duel_lessons.teaching.checks.rule_process import (
    BIG_BASE,
    BIG_LISTS,
    SAID_NOTHING,
    SAID_OTHER,
    ask_big,
    rule_sandbox,
)
from duel_lessons.teaching.feedback import (
    Verdict,
    as_whole,
    is_unanswered,
    plain,
    unanswered,
)
from duel_lessons.teaching.proofs import expect_step

SPEC = register(LessonSpec("11", needs=("rules", "triple_upto", "example", "ex_sum", "small_box")))

CHOICES = {"A": (4, 4, 4), "B": (4, 6, 12), "C": (6, 6, 24), "D": (12, 18, 30), "E": (10, 16, 20)}
#: The two equal parts of the flawed step-2 proof (proof question 1): the sum FLAW_PAIR + n.
FLAW_PAIR = (24, 24)
FLAW_STEPS = 4
FLAW_LIMIT = 1000


def _values(rules: Rules, numbers: tuple[int, ...] | list[int]) -> list[int]:
    return [grundy_value(rules, n) for n in numbers]


def _xor(values: list[int]) -> int:
    return reduce(xor, values, 0)


# -- the guess and the conjecture ----------------------------------------------------------------------------------


@SPEC.guess_form("hand-over")
def hand_over_form(value: object, p: Params) -> str | None:
    """A list of letters from A to E (at least one)."""
    if (
        isinstance(value, (list, tuple))
        and value
        and all(isinstance(x, str) and x.strip().upper() in CHOICES for x in value)
    ):
        return None
    return 'Give a list of the letters A to E you would hand over (at least one), for example ["A", "C"].'


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
        f"about {len(right)} of the 5. The rule behind it opens once you have handed in a rule of your own."
    )


@SPEC.guess_form("rule")
def rule_form(value: object, p: Params) -> str | None:
    """A rule of the student's own (run in its own process): it answers every small sum, and not always alike.

    So the rule's reveal opens only after a real conjecture: not ``...``, not a rule that loops or crashes, not a
    constant rule such as ``return True``.
    """
    if not callable(value):
        return "Hand in your rule itself, the function name without brackets: my_sum_rule."
    from duel_lessons.play.sandbox import Forfeit  # only where a rule is run: the module imports without psutil

    rules = rules_of(p)
    lists = _small_lists(rules, int(p["triple_upto"]))
    told: list[int] = []
    try:
        with rule_sandbox(value, lists, rules) as sandbox:
            for k, values in enumerate(lists):
                try:
                    said = sandbox.ask(new_game(rules, 2 + k))
                except Forfeit as stopped:
                    return f"For values {list(values)} your rule gave no answer: it {stopped.reason}."
                if said == SAID_NOTHING:
                    return "Write your rule first: replace the ... after return."
                if said == SAID_OTHER:
                    return f"Your rule should give True or False; for values {list(values)} it gave something else."
                told.append(said)
    except DuelError as error:
        return f"Your rule could not be run: {error}"
    if len(set(told)) < 2:
        return (
            f"Your rule says {'P' if told and told[0] else 'N'} for every sum: that is no conjecture. Which sums "
            "in the data are P, and what do their values have in common?"
        )
    return None


@SPEC.reveal("rule")
def the_rule(rule: object, p: Params) -> str:
    """The sum rule, compared with the student's rule (by the sum-rule check)."""
    text = (
        "**The rule (Sprague–Grundy):** a sum is P exactly when the XOR of the Grundy values of its parts is 0, "
        "just like Nim with heaps of those sizes. With two parts, XOR 0 means equal values (lesson 10)."
    )
    if callable(rule):
        verdict = sum_rule(rule, p)
        text += (
            " Your rule agrees with it on every sum the check tried."
            if verdict.kind == "right"
            else f" Your rule: {verdict.message}"
        )
    return text


def _small_lists(rules: Rules, upto: int) -> list[tuple[int, ...]]:
    """The lists of values of every sum of up to three numbers up to ``upto``, each once, in the check's order."""
    lists: list[tuple[int, ...]] = []
    for parts in _all_sums(upto):
        values = tuple(_values(rules, parts))
        if values not in lists:
            lists.append(values)
    return lists


for _guess in ("hand-over", "rule"):
    SPEC.discovers(
        _guess,
        r"\bxor\b",
        r"⊕",
        r"\^",
        r"nim[- ]?sum",
        r"exclusive or",
        r"behaves? like (a|two) nim heaps?",
        r"nim heaps? of",
        r"even number of 1s",
        r"sprague",
        r"\bbalanced\b",
    )


def _all_sums(upto: int) -> list[tuple[int, ...]]:
    return [t for k in (1, 2, 3) for t in combinations_with_replacement(range(1, upto + 1), k)]


@SPEC.check("sum-rule", label="Your sum rule")
def sum_rule(answer: object, p: Params) -> Verdict:
    """A function of the list of Grundy values, True exactly for P-sums (brute force, up to three parts).

    The rule runs in its own process with a time limit (the bot sandbox of lesson 12), so a rule that loops, crashes
    the process, returns a strange object or reads the check's variables cannot hang or fool the check.
    """
    if is_unanswered(answer):
        return unanswered()
    if not callable(answer):
        return Verdict("format", "Give a function of a list of values, such as my_sum_rule.", key="format:function")
    from duel_lessons.play.sandbox import Forfeit  # only where a rule is run: the module imports without psutil

    rules = rules_of(p)
    upto = int(p["triple_upto"])
    sums = _all_sums(upto)
    lists: list[tuple[int, ...]] = []
    for parts in sums:
        values = tuple(_values(rules, parts))
        if values not in lists:
            lists.append(values)
    lists = lists[:BIG_BASE] + [()] * (BIG_BASE - len(lists)) + list(BIG_LISTS)
    told: dict[tuple[int, ...], int] = {}
    try:
        with rule_sandbox(answer, lists, rules) as sandbox:
            for parts in sums:
                values = tuple(_values(rules, parts))
                if values not in told:
                    try:
                        told[values] = sandbox.ask(new_game(rules, 2 + lists.index(values)))
                    except Forfeit as stopped:
                        return Verdict(
                            "format",
                            f"For values {list(values)} your rule gave no answer: it {stopped.reason}.",
                            "Your rule must return True or False for every list of values, quickly: no endless loop.",
                            key="format:error",
                        )
                said = told[values]
                if said == SAID_NOTHING:
                    return unanswered()
                if said == SAID_OTHER:
                    return Verdict(
                        "format",
                        f"Your rule should give True or False; for values {list(values)} it gave something else.",
                        key="format:not-bool",
                    )
                really = brute(rules, parts) == "P"
                if bool(said) != really:
                    sum_words = " + ".join(map(str, parts))
                    return Verdict(
                        "miss",
                        f"First counterexample: {sum_words} (values {list(values)}) is "
                        f"{'P' if really else 'N'}, but your rule says {'P' if said else 'N'}.",
                        "Write the values in binary, one under the other, as you did for Nim heaps.",
                        "A duel with value g behaves like a Nim heap of g counters. What was the Nim rule?",
                        key=f"miss:{parts}",
                    )
            for big in BIG_LISTS:
                told_big = ask_big(sandbox, rules, big)
                if isinstance(told_big, Verdict):
                    return told_big
                really = _xor(list(big)) == 0
                if bool(told_big) != really:
                    return Verdict(
                        "miss",
                        f"It holds on every sum of up to three numbers up to {upto}, but not on a bigger one: a sum "
                        f"whose parts have the values {list(big)} ({' + '.join(map(str, _smallest_with(rules, big)))}"
                        f", for example, far too big for brute force) is {'P' if really else 'N'}, but your rule "
                        f"says {'P' if told_big else 'N'}.",
                        "Does your rule work for any number of parts, and for values bigger than 3?",
                        "Write the values in binary, one under the other, as you did for Nim heaps. What was the "
                        "Nim rule?",
                        key=f"miss-big:{big}",
                    )
    except DuelError as error:  # no process could be started for it (where functions cannot be sent to one)
        return Verdict("format", f"Your rule could not be run: {error}", key="format:process")
    return Verdict(
        "right",
        f"Your rule agrees with brute force on every sum of up to three numbers up to {upto}, and on "
        f"{len(BIG_LISTS)} bigger sums (up to {max(map(len, BIG_LISTS))} parts, values up to "
        f"{max(map(max, BIG_LISTS))}).",
    )


def _smallest_with(rules: Rules, values: tuple[int, ...]) -> list[int]:
    """For each value, the smallest number that has it (searched up to FLAW_LIMIT; "?" not expected)."""
    found: dict[int, int] = {}
    for n in range(1, FLAW_LIMIT + 1):
        found.setdefault(grundy_value(rules, n), n)
        if all(v in found for v in values):
            break
    return [found.get(v, 0) for v in values]


def my_sum_rule(values: list[int]) -> bool:
    """The model sum rule: the XOR of the values is 0."""
    return _xor(list(values)) == 0


@SPEC.model("sum-rule")
def model_sum_rule(p: Params) -> tuple[object, str]:
    """The XOR rule."""
    return (
        my_sum_rule,
        "def my_sum_rule(values): return the XOR of the values (a ^ b ^ ...) == 0; every binary column "
        "of the values has an even number of 1s.",
    )


# -- the proof -----------------------------------------------------------------------------------------------------


def _flaw_shows(rules: Rules, n: int) -> bool:
    """Whether FLAW_PAIR + n breaks step 3 of the flawed proof: unbalanced, yet the largest value g has g ^ s >= g."""
    values = _values(rules, (*FLAW_PAIR, n))
    s = _xor(values)
    g = max(values)
    return s != 0 and g ^ s >= g


def _flaw_smallest(rules: Rules) -> int:
    return next(n for n in range(1, FLAW_LIMIT + 1) if _flaw_shows(rules, n))


@SPEC.check("proof-1")
def flawed_step(answer: object, p: Params) -> Verdict:
    """Which step of the "largest value" version of step 2 fails, and a third number n in 24 + 24 + n showing it."""
    rules = rules_of(p)
    return expect_step(
        answer,
        steps=FLAW_STEPS,
        failing=3,
        shows=lambda n: _flaw_shows(rules, n),
        what="a third number n for which 24 + 24 + n is unbalanced, but the largest value g has g XOR s bigger than g",
        limit=FLAW_LIMIT,
        hint="Try small third numbers n. For each, write the three values and s, take the largest value g, and "
        "compute g ^ s. Is it really smaller than g?",
        stronger="g(24) = 4 is 100 in binary. Which third values make s so small that XOR with s makes 4 bigger? "
        "Which numbers n have such a value?",
    )


@SPEC.model("proof-1")
def model_proof_1(p: Params) -> tuple[object, str]:
    """Step 3, with the smallest third number that shows it."""
    rules = rules_of(p)
    n = _flaw_smallest(rules)
    values = _values(rules, (*FLAW_PAIR, n))
    s = _xor(values)
    g = max(values)
    return (3, n), (
        f"24 + 24 + {n} has values {listing(values)}, so s = {s}; the largest value is {g}, but {g} XOR {s} = "
        f"{g ^ s}, which is not smaller than {g}. Only a part with a 1 in the leftmost column of s gets smaller."
    )


# -- exercises -------------------------------------------------------------------------------------------------


@SPEC.check(1)
def p_or_n(answer: object, p: Params) -> Verdict:
    """P or N for EX_SUM with the XOR of its values, as ("N", 6) (numbers beyond brute force: by the proved rule).

    The XOR is asked with the letter, so that trying "P" and then "N" does not pass: the letter alone is a format slip.
    """
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    rules = rules_of(p)
    values = _values(rules, [int(n) for n in p["ex_sum"]])
    s = _xor(values)
    right = "P" if s == 0 else "N"
    form = 'Give the letter and the XOR of the three values, as a pair: for example ("N", 6).'
    if not (isinstance(answer, (list, tuple)) and len(answer) == 2):
        return Verdict("format", form, key="format:pair")
    letter, number = answer
    if not isinstance(letter, str) or letter.strip().upper() not in ("P", "N") or as_whole(number) is None:
        return Verdict("format", form, key="format:pair")
    if letter.strip() != letter.strip().upper():  # named whatever the answer, so that it confirms nothing
        return Verdict("format", 'Write the letter as a capital: "P" or "N".', key="format:case")
    said, told = letter.strip(), as_whole(number)
    if told != s:
        if told == sum(values):
            return Verdict(
                "misconception",
                f"{told} is the ordinary sum of the values. The rule is about binary columns, not the sum.",
                "Write the three values in binary, one under the other, and count the 1s in each column.",
                "Look the three values up with grundy_value, then compute a ^ b ^ c in Python.",
                key="even-sum",
            )
        return Verdict(
            "miss",
            f"{told} is not the XOR of the three values.",
            "Find the Grundy values with grundy_value, write them in binary, and combine them column by column.",
            "Look the three values up with grundy_value, then compute a ^ b ^ c in Python.",
            key=f"xor:{told}",
        )
    if said != right:
        return Verdict(
            "misconception",
            f"The XOR {s} is right, but the letter is not.",
            "Which XOR makes a sum balanced? And who loses from a balanced sum?",
            "Balanced (XOR 0) sums are P; every other sum is N.",
            key="letter",
        )
    return Verdict("right")


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """P or N for EX_SUM, with the XOR of its values."""
    rules = rules_of(p)
    numbers = [int(n) for n in p["ex_sum"]]
    values = _values(rules, numbers)
    s = _xor(values)
    return ("P" if s == 0 else "N", s), (
        f"The values of {listing(numbers)} are {listing(values)}, and their XOR is {s}"
        + (": balanced." if s == 0 else ", not 0.")
    )


def _winning(rules: Rules, numbers: tuple[int, ...]) -> set[tuple[int, int]]:
    """Every winning move (component, divisor): those that make the XOR of the values 0 (the rule proved in section 4;
    EXAMPLE is beyond brute force, so that a loop over lesson 10's ``brute`` does not answer exercise 2)."""
    values = _values(rules, numbers)
    s = _xor(values)
    return {
        (i, d)
        for i, n in enumerate(numbers)
        for d in rules.divisors_of(n)
        if s and grundy_value(rules, rules.result(n, d)) == values[i] ^ s
    }


#: At most this many moves that do not win are named in exercise 2's feedback (more are only counted), so that
#: handing in every legal move does not get the losing ones named and the answer left over.
NAMED_EXTRAS = 2


def _legal(rules: Rules, numbers: tuple[int, ...], move: tuple[int, int]) -> bool:
    i, d = move
    return 0 <= i < len(numbers) and d in rules.divisors_of(numbers[i])


@SPEC.check(2)
def winning_moves(answer: object, p: Params) -> Verdict:
    """Every winning move from EXAMPLE as (component from 0, divisor)."""
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    rules = rules_of(p)
    numbers = tuple(int(n) for n in p["example"])
    good = _winning(rules, numbers)
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
    shifted = {(i - 1, d) for i, d in moves}
    from_one = (
        shifted == good
        or (
            moves
            and all(_legal(rules, numbers, m) for m in shifted)
            and not all(_legal(rules, numbers, m) for m in moves)
        )
        or (bool(shifted & good) and not moves & good)
    )
    if from_one:
        return Verdict(
            "format",
            "Count the components from 0, as Python does: the first number is component 0, the second component 1.",
            key="format:from-one",
        )
    illegal = sorted(m for m in moves if not _legal(rules, numbers, m))
    if illegal:
        i = illegal[0][0]
        where = f"component {i} is {numbers[i]}" if 0 <= i < len(numbers) else f"there is no component {i}"
        return Verdict(
            "format",
            f"{illegal[0]} is not a legal move: {where}. Components count from 0: (0, d) changes the first number.",
            key="format:illegal",
        )
    right = moves & good
    missing = len(good - moves)
    extra = sorted(moves - good)
    if right:
        text = f"{len(right)} of the {len(good)} winning moves"
        if len(extra) > NAMED_EXTRAS:  # a list of every legal move must not get the wrong ones named back
            text += f"; {len(extra)} of your moves do not win (too many to name: check each one with the rule)."
        else:
            text += f"; {extra} {'does' if len(extra) == 1 else 'do'} not win." if extra else "."
        return Verdict(
            "partial",
            text,
            "Check each component: which value would make the XOR 0, and can that part reach a number with that "
            "value? It may be a LARGER value.",
            "For each part, list every move with grundy_value(rules, n - d) and keep the moves that make the XOR 0. "
            "Do it for all three parts.",
            key=f"partial:{missing}:{extra}",
        )
    return Verdict(
        "miss",
        "None of those moves wins.",
        "Find the XOR s of the three values. For each part with value g, you need a move to a number with value g "
        "XOR s.",
        "Write the three values and s. For each part, which value makes the XOR 0? Then list that part's moves and "
        "their values.",
        key=f"miss:{sorted(moves)}",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """Every winning move from EXAMPLE."""
    rules = rules_of(p)
    numbers = tuple(int(n) for n in p["example"])
    values = _values(rules, numbers)
    s = _xor(values)
    moves = sorted(_winning(rules, numbers))
    steps = "; ".join(f"{numbers[i]} → {numbers[i] - d} (value {values[i] ^ s})" for i, d in moves)
    return moves, f"The values are {listing(values)}, XOR {s}: {steps or 'no winning move'}."


# -- the box ---------------------------------------------------------------------------------------------------


@SPEC.guess_form("box")
def box_form(value: object, p: Params) -> str | None:
    """A fraction from 0 to 1."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1:
        return None
    return "Give a fraction from 0 to 1 as a number, for example 0.3 (no quotes, no % sign)."


def _box_count(p: Params) -> int:
    rules = rules_of(p)
    size = int(p["small_box"])
    return sum(brute(rules, (a, b)) == "P" for a in range(1, size + 1) for b in range(1, size + 1))


@SPEC.reveal("box")
def box(guess: object, p: Params) -> str:
    """The brute-force count of the small box against the guessed fraction."""
    rules = rules_of(p)
    size = int(p["small_box"])
    count = _box_count(p)
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


def box_spoilers(p: Params) -> tuple[str, ...]:
    """What gives the box count away for these parameters: the count and the fraction."""
    size = int(p["small_box"])
    count = _box_count(p)
    return (
        rf"\b{count}\b of the {size**2}",
        rf"\b{count}\s*/\s*{size**2}\b",
        rf"0\.{round(100 * count / size**2):02d}\b",
    )


SPEC.discovers("box", *box_spoilers({"rules": "divisor-duel", "small_box": 20}))
