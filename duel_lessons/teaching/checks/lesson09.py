"""Lesson 09's unusual checks (the rest is declared in notebooks/09-nim-and-subtraction-games.lesson.toml).

Python stays for what no declared kind or formula says: Nim positions of three heaps (a rule of three heaps and
the guess that notes it, three heaps that refute a claim, moves as (heap, count) pairs), the subtraction game
SUB_SET (no rule book a formula can name) and the guess "pile" (a declared guess needs a reveal cell; a locked
output shows its answer).  Nim and subtraction games by brute force live in :mod:`duel_lessons.play.nim_solver`.

>>> p = {"sub_set": [1, 2, 3], "ex_sub": 1001, "heap_upto": 7}
>>> SPEC.checks["proof-2"]([3, 4, 6], p).kind, SPEC.checks["2"](1, p).kind, SPEC.checks["2"](5, p).kind
('right', 'right', 'misconception')
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Iterable

from duel_lessons.play.nim import losing_piles
from duel_lessons.play.nim_solver import nim_outcome, nim_winning_moves, subtraction_outcome
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    as_truth,
    as_whole,
    expect_number,
    is_unanswered,
    show,
    unanswered,
)

SPEC = register(LessonSpec("09"))
Heaps = tuple[int, ...]
Rule = Callable[..., object]
NOT_A_RULE = "Give a function of three heaps, such as my_nim_rule."
THREE_HEAPS = "Give three heaps of at most 20 as a list, like [1, 2, 4] (at most 20 keeps the check quick)."
PILE = 'Answer "first" or "second", in quotes.'
MOVES = "Give a list of moves, each (heap, count), like [(1, 2), (3, 1)], or [] for none."


def _heaps(answer: object) -> Heaps | None:
    if isinstance(answer, (str, bytes)) or not isinstance(answer, (list, tuple)):
        return None
    values = [as_whole(x) for x in answer]
    return None if any(v is None or v < 0 for v in values) else tuple(v for v in values if v is not None)


def _cube(upto: int) -> Iterable[Heaps]:
    return itertools.product(range(upto + 1), repeat=3)


def _wrong(rule: Rule, positions: Iterable[Heaps]) -> tuple[Heaps, bool, object] | None:
    """The first position where ``rule`` (of three heaps) is not True exactly at the P-positions:
    (heaps, whether the player to move loses there, what the rule said: True/False, another value, or its error)."""
    for heaps in positions:
        really = nim_outcome(heaps) == "P"
        try:
            said: object = rule(*heaps)
        except Exception as error:  # the student's function: reported, never raised
            return heaps, really, error
        if as_truth(said) != really:
            return heaps, really, said if as_truth(said) is None else as_truth(said)
    return None


@SPEC.guess_form("pile")
def pile_form(value: object, p: Params) -> str | None:
    """ "first" or "second" (its answer shows in a locked output: a declared guess would need a reveal cell)."""
    return None if isinstance(value, str) and value.strip().lower() in ("first", "second") else PILE


# -- the three-heap rule: noted as a guess (its reveal is declared) and checked ----------------------------------


@SPEC.guess_form("nim")
def nim_form(value: object, p: Params) -> str | None:
    """Your rule for three heaps, committed: a function that tells some positions apart (right or not)."""
    if not callable(value):
        return "Give your rule, my_nim_rule (the def above, without brackets)."
    seen = set()
    for heaps in _cube(min(int(p["heap_upto"]), 7)):
        try:
            said = value(*heaps)
        except Exception as error:  # the student's function
            return f"Your rule stopped with {type(error).__name__} at heaps {list(heaps)}: fix it first."
        if is_unanswered(said):
            return "Your rule still answers ...: write it first."
        if as_truth(said) is None:
            return f"Your rule should give True or False; at heaps {list(heaps)} it gave {show(said)}."
        seen.add(as_truth(said))
    return None if len(seen) == 2 else "Your rule says the same for every position: write one that tells some apart."


@SPEC.check("nim-rule", label="Your Nim rule")
def nim_rule(answer: object, p: Params) -> Verdict:
    """A function of three heaps, True exactly at the P-positions (heaps 0 .. HEAP_UPTO), and beyond the data."""
    if not callable(answer):
        return unanswered() if is_unanswered(answer) else Verdict("format", NOT_A_RULE, key="format:function")
    upto = int(p["heap_upto"])
    found = _wrong(answer, _cube(upto))
    if found is not None:
        heaps, really, said = found
        if said is ...:
            return unanswered()
        if not isinstance(said, bool):
            what = f"stopped with {type(said).__name__}" if isinstance(said, Exception) else f"gave {show(said)}"
            return Verdict("format", f"Your rule {what} at heaps {list(heaps)}.", key="format:error")
        return Verdict(
            "miss",
            f"First counterexample: heaps {list(heaps)}. The player to move {'loses' if really else 'wins'} there, "
            f"but your rule says {'loses' if said else 'wins'}.",
            "Look at the binary digits of each P-position above, one column at a time.",
            "How many 1s are in the fours column of each P-position? In the twos? In the ones? "
            "(a & 4, a & 2 and a & 1 test a column.)",
            key=f"miss:{','.join(map(str, heaps))}",
        )
    found = _wrong(answer, _beyond(upto))  # a rule, not a look-up of the data shown
    if found is None:
        return Verdict("right", f"Your rule is right for every position with heaps up to {upto}, and beyond. Now: why?")
    heaps, really, said = found
    error = "" if isinstance(said, bool) else f" it stopped with {type(said).__name__}"
    error = f" it gave {show(said)}" if error and not isinstance(said, Exception) else error
    return Verdict(
        "partial",
        f"Right for every position with heaps up to {upto}, but {'' if error else 'not '}at heaps {list(heaps)}"
        f"{error}, beyond the data: there the player to move {'loses' if really else 'wins'}.",
        "A rule, not a look-up of the table: does it say what the P-positions have in common, or only list them?",
        "Say in words what every P-position in the binary list has in common (one column at a time), then write that "
        "as a rule for heaps of any size.",
        key=f"partial:{','.join(map(str, heaps))}",
    )


def _beyond(upto: int) -> list[tuple[int, int, int]]:
    """Positions with a heap beyond the data (at most 2 × upto + 1): P-positions first, then their neighbours.

    They are built with the nim-sum only to be sure some are P; each is judged by brute force. A look-up
    of the table shown (which says "wins" beyond it) fails at the first one.

    >>> _beyond(7)[0], len(_beyond(7)) > 100, all(max(h) > 7 for h in _beyond(7))
    ((0, 8, 8), True, True)
    """
    span = range(2 * upto + 2)
    balanced = [(a, b, a ^ b) for a in span for b in span if max(a, b, a ^ b) > upto]
    return balanced + [(a, b, c + 1) for a, b, c in balanced]


@SPEC.model("nim-rule")
def model_nim_rule(p: Params) -> tuple[object, str]:
    """The XOR rule."""
    return (lambda a, b, c: a ^ b ^ c == 0), "every binary column has an even number of 1s: a ^ b ^ c == 0"


# -- three heaps: the largest-heap claim refuted ---------------------------------------


@SPEC.check("proof-2")
def largest_heap_flaw(answer: object, p: Params) -> Verdict:
    """Three heaps, an N-position, where no winning move takes from a largest heap."""
    heaps = _heaps(answer)
    if is_unanswered(answer) or heaps is None or len(heaps) != 3 or max(heaps) > 20:
        return unanswered() if is_unanswered(answer) else Verdict("format", THREE_HEAPS, key="format:heaps")
    good = nim_winning_moves(heaps)
    if not good:
        return Verdict(
            "misconception",
            f"From {list(heaps)} there is no winning move at all (a P-position).",
            "The claim is about positions where you can win. Find one where the winning move is not in a largest heap.",
            key="p-position",
        )
    if all(heaps[h - 1] != max(heaps) for h, _ in good):
        return Verdict("right", f"From {list(heaps)} the only winning moves are in a smaller heap.")
    return Verdict(
        "miss",
        f"From {list(heaps)} a largest heap does have a winning move.",
        "Which heaps can balance, by line F of the proof? Make sure the largest heap is not one of them.",
        "Aim for a nim-sum of 1: then only a heap with a 1 in the ones column (an odd heap) can balance. "
        "Make the largest heap even.",
        key=f"miss:{heaps}",
    )


@SPEC.model("proof-2")
def model_proof_2(p: Params) -> tuple[object, str]:
    """The classmate's counterexample."""
    return [3, 4, 6], "nim-sum 1: only heap 1 (3 → 2) balances; the largest heap, 6, has a 0 in the ones column"


# -- exercise 1: every winning move from EX_MOVES -------------------------------------------------------


@SPEC.check(1)
def all_winning_moves(answer: object, p: Params) -> Verdict:
    """Every winning move from EX_MOVES, as a list of (heap, count) pairs, heaps counted from 1."""
    good = set(nim_winning_moves(tuple(int(h) for h in p["ex_moves"])))
    pairs = [_heaps(x) for x in answer] if isinstance(answer, (list, tuple, set)) else [None]
    if is_unanswered(answer) or any(x is None or len(x) != 2 for x in pairs):
        return unanswered() if is_unanswered(answer) else Verdict("format", MOVES, key="format:moves")
    moves = {(x[0], x[1]) for x in pairs if x is not None}
    if moves == good:
        return Verdict("right")
    if moves and {(h + 1, c) for h, c in moves} == good:
        return Verdict("format", "The right moves, but count the heaps from 1.", key="format:from-zero")
    if not good:
        return Verdict(
            "misconception",
            "There is no winning move here.",
            "Every column already has an even number of 1s: whatever you do, you spoil it. Answer [].",
            key="p-position",
        )
    if moves & good:
        extra = sorted(moves - good)
        return Verdict(
            "partial",
            f"{len(moves & good)} of the {len(good)} winning moves"
            + (f"; {extra} {'does' if len(extra) == 1 else 'do'} not win." if extra else "."),
            "Check every heap: can changing it make every binary column even?",
            "Compute the nim-sum s. Every heap h with h ^ s smaller than h gives a winning move: take h - (h ^ s) "
            "from it.",
            key=f"partial:{sorted(moves)}",
        )
    return Verdict(
        "miss",
        "None of those moves wins.",
        "Find the nim-sum s of the heaps. A heap h can be changed to h ^ s if that is smaller than h.",
        "Write the heaps in binary. After a winning move every column has an even number of 1s: check each of your "
        "moves that way.",
        key=f"miss:{sorted(moves)}",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """Every winning move from EX_MOVES."""
    heaps = tuple(int(h) for h in p["ex_moves"])
    s = functools.reduce(operator.xor, heaps, 0)
    good = nim_winning_moves(heaps)
    if not good:
        return [], f"the nim-sum of {list(heaps)} is 0: a P-position, no move wins"
    steps = ", ".join(f"heap {i}: {heaps[i - 1]} → {heaps[i - 1] - c}" for i, c in good)
    return good, f"the nim-sum is {s}; each heap h with h ^ {s} < h can be lowered to h ^ {s}: {steps}"


# -- the subtraction game SUB_SET: its truth, its reveal, exercise 2 ------------------------------------


def _sub(p: Params) -> tuple[int, ...]:
    return tuple(sorted(int(m) for m in p["sub_set"]))


@SPEC.truth("subtract", yes="loses", no="wins", reach=20_000)
def subtract(p: Params) -> Callable[[int], bool]:
    """One pile, take one of SUB_SET counters: True where the player to move loses."""
    moves = _sub(p)
    return lambda n: subtraction_outcome(n, moves) == "P"


@SPEC.reveal("subtract")
def subtract_reveal(rule: object, p: Params) -> str:
    """The subtraction game's rule, after a first test."""
    moves, upto = _sub(p), min(int(p["sub_upto"]), 100)
    text = f"Up to {upto}, the player to move loses from {losing_piles(moves, upto)}."
    if moves != tuple(range(1, max(moves) + 1)):
        return text + " The pattern repeats: look for its period in the list."
    k = max(moves) + 1
    return f"{text} These are the multiples of {k}: whatever your opponent takes (k), take {k} − k, and the pile " + (
        f"stays a multiple of {k}."
    )


def _sub_good(p: Params) -> list[int]:
    moves, n = _sub(p), int(p["ex_sub"])
    return [m for m in moves if m <= n and subtraction_outcome(n - m, moves) == "P"] or [0]


@SPEC.check(2)
def subtraction_move(answer: object, p: Params) -> Verdict:
    """How many to take from a pile of EX_SUB in the subtraction game SUB_SET (0 if no move wins): any winning one."""
    moves, good = _sub(p), _sub_good(p)
    if as_whole(answer) in good:
        return Verdict("right")
    return expect_number(
        answer,
        good[0],
        misconceptions=[
            Misconception(
                "not-allowed",
                lambda a: a not in moves and a != 0,
                f"You may only take {list(moves)} counters (or answer 0).",
                f"Take one of {list(moves)}. Which of them leaves a losing pile size?",
            )
        ],
        hint="Which pile sizes lose for the player to move (your rule from section 5)? Leave one of those. (If EX_SUB "
        "itself loses, answer 0.)",
        stronger="The losing sizes repeat. Where in the repeating pattern is EX_SUB? Try each allowed move and see "
        "where it lands.",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """A winning move in the subtraction game, with the losing size it leaves."""
    moves, n, good = _sub(p), int(p["ex_sub"]), _sub_good(p)[0]
    if good == 0:
        return 0, f"{n} is itself a losing size for the game {list(moves)}: no move wins"
    return good, f"{n} − {good} = {n - good}, a losing size for the game {list(moves)}"
