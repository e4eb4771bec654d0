"""Lesson 09, "How do you win at Nim?": the checks (Nim and subtraction games by brute force live in play.nim_solver).

>>> from duel_lessons.play.nim_solver import nim_outcome, subtraction_outcome
>>> nim_outcome((1, 2, 3)), subtraction_outcome(8, (1, 2, 3))
('P', 'P')
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from duel_lessons.play.nim import losing_piles
from duel_lessons.play.nim_solver import (
    after,
    nim_moves,
    nim_outcome,
    nim_p_positions,
    nim_winning_moves,
    subtraction_outcome,
)
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

__all__ = ["SPEC", "nim_outcome", "nim_p_positions", "nim_winning_moves", "subtraction_outcome"]

SPEC = register(
    LessonSpec(
        "09",
        needs=("heaps", "heap_upto", "sub_set", "sub_upto", "ex_moves", "ex_sub"),
        offers={
            "heap_upto": (5, 15),
            "sub_set": ((1, 2), (1, 2, 3, 4), (1, 3, 4)),
            "ex_moves": ((12, 21, 26), (13, 22, 27), (3, 5, 7)),
            "ex_sub": (1000, 997),
        },
    )
)

Heaps = tuple[int, ...]

# -- what the students discover (nothing before its reveal may say it) ----------------------------------

SPEC.discovers(
    "hand-over",
    r"copy (your|the) opponent",
    r"\bequal heaps\b",
    r"heaps are equal",
)
SPEC.discovers(
    "nim",
    r"\bxor\b",
    r"nim-?sum",
    r"even number of 1s",
    r"every column (has )?(an )?even",
    r"\bbalanced\b",
    r"a\s*\^\s*b\s*\^\s*c",
)
SPEC.discovers(
    "subtract",
    r"multiples? of (4|four)",
    r"\b4\s*[-−]\s*k\b",
    r"whatever your opponent takes",
)

# -- guesses, truths and reveals -------------------------------------------------------------------

CHOICES: dict[str, Heaps] = {"A": (1, 1), "B": (1, 2), "C": (2, 2), "D": (1, 2, 3), "E": (1, 2, 4)}


@SPEC.guess_form("hand-over")
def hand_over_form(value: object, p: Params) -> str | None:
    """A list of some of the letters A-E (or [] for none)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, set)):
        return 'Give a list of letters, like ["A", "E"], or [] for none.'
    if any(not isinstance(x, str) or x.strip().upper() not in CHOICES for x in value):
        return 'Each item is one of the letters "A" to "E", in quotes.'
    return None


@SPEC.guess_form("pile")
def pile_form(value: object, p: Params) -> str | None:
    """ "first" or "second"."""
    if not isinstance(value, str) or value.strip().lower() not in ("first", "second"):
        return 'Answer "first" or "second", in quotes.'
    return None


@SPEC.guess_form("nim")
def nim_form(value: object, p: Params) -> str | None:
    """Your rule for three heaps, committed: a function that tells some positions apart (right or not)."""
    if not callable(value):
        return "Give your rule, my_nim_rule (the def above, without brackets)."
    upto = min(int(p["heap_upto"]), 7)
    seen = set()
    for heaps in itertools.product(range(upto + 1), repeat=3):
        try:
            said = value(*heaps)
        except Exception as error:  # the student's function
            return f"Your rule stopped with {type(error).__name__} at heaps {list(heaps)}: fix it first."
        if is_unanswered(said):
            return "Your rule still answers ...: write it first."
        told = as_truth(said)
        if told is None:
            return f"Your rule should give True or False; at heaps {list(heaps)} it gave {show(said)}."
        seen.add(told)
    if len(seen) < 2:
        return "Your rule says the same for every position: write one that tells some positions apart."
    return None


@SPEC.reveal("hand-over")
def hand_over(guess: object, p: Params) -> str:
    """Which of the positions A-E lose for the player to move, against the guess, and the two-heap rule."""
    losing = [k for k, heaps in CHOICES.items() if nim_outcome(heaps) == "P"]
    items = list(guess) if isinstance(guess, (list, tuple, set)) else [guess]
    chosen = sorted({str(x).strip().upper() for x in items})
    right = [k for k in CHOICES if (k in chosen) == (k in losing)]
    return (
        f"The player to move loses from **{', '.join(losing)}**; you picked {chosen or 'none'} and were right about "
        f"{len(right)} of the 5.\n\n**Two heaps:** the player to move loses exactly when the heaps are equal. "
        "From equal heaps, whatever your opponent takes from one heap, you take the same from the other: you copy "
        "your opponent, so you never face an empty board first. Three heaps are harder: next."
    )


@SPEC.reveal("nim")
def nim_reveal(rule: object, p: Params) -> str:
    """Nim's rule, compared with the rule the student committed."""
    upto = int(p["heap_upto"])
    mine = ""
    if callable(rule):
        for heaps in itertools.product(range(upto + 1), repeat=3):
            try:
                said = as_truth(rule(*heaps))
            except Exception:  # the student's function
                said = None
            if said != (nim_outcome(heaps) == "P"):
                mine = f"Your rule first differs from it at heaps {list(heaps)}."
                break
        else:
            mine = f"Your rule agrees with it for every position with heaps up to {upto}."
    return (
        "**The rule:** write the heaps in binary. A Nim position is P exactly when every column has an even "
        "number of 1s. Adding in binary *without carrying* is called **XOR** or the **nim-sum** (in Python "
        f"`a ^ b ^ c`): the position is P exactly when the nim-sum is 0. Call such a position **balanced**. {mine} "
        "The proof is next."
    )


@SPEC.truth("subtract", yes="loses", no="wins", reach=20_000)
def subtract(p: Params) -> Callable[[int], bool]:
    """One pile, take one of SUB_SET counters: True where the player to move loses."""
    moves = tuple(int(m) for m in p["sub_set"])
    return lambda n: subtraction_outcome(n, moves) == "P"


@SPEC.reveal("subtract")
def subtract_reveal(rule: object, p: Params) -> str:
    """The subtraction game's rule, after a first test."""
    moves = tuple(sorted(int(m) for m in p["sub_set"]))
    period = max(moves) + 1
    upto = int(p["sub_upto"])
    losing = losing_piles(moves, min(upto, 100))
    text = f"Up to {min(upto, 100)}, the player to move loses from {losing}."
    if moves == tuple(range(1, period)):
        text += (
            f" These are the multiples of {period}: whatever your opponent takes (k), take {period} − k, "
            f"and the pile stays a multiple of {period}."
        )
    else:
        text += " The pattern repeats: look for its period in the list."
    return text


# -- checks ----------------------------------------------------------------------------------------


def _heaps(answer: object) -> Heaps | None:
    if isinstance(answer, (str, bytes)) or not isinstance(answer, (list, tuple)):
        return None
    values = [as_whole(x) for x in answer]
    return None if any(v is None or v < 0 for v in values) else tuple(v for v in values if v is not None)


@SPEC.check("proof-1")
def mirror(answer: object, p: Params) -> Verdict:
    """From [5, 5] the opponent takes 2 from heap 1; the safe reply leaves [3, 3]."""
    heaps = _heaps(answer)
    if is_unanswered(answer):
        return unanswered()
    if heaps is None:
        return Verdict("format", "Give the heaps you leave as a list, like [4, 1].", key="format:not-heaps")
    if len(heaps) != 2:
        return Verdict("format", "There are two heaps: give both, like [4, 1].", key="format:two")
    if sorted(heaps) == [3, 3]:
        return Verdict("right")
    if heaps not in {after((3, 5), m) for m in nim_moves((3, 5))}:
        return Verdict("format", f"From [3, 5] one move cannot leave {list(heaps)}.", key="format:not-a-move")
    return Verdict(
        "miss",
        f"Your answer was {list(heaps)}: your opponent can win from there.",
        "After your opponent's move the heaps are [3, 5]. Look at the table: which positions are P? "
        "Leave one of those.",
        "The P-positions of two heaps lie on one line of the table. Which of them can you reach from "
        "[3, 5] in one move?",
        key=f"miss:{heaps}",
    )


@SPEC.model("proof-1")
def model_proof_1(p: Params) -> tuple[object, str]:
    """The safe reply from [3, 5]."""
    return [3, 3], "copy your opponent: take 2 from the other heap, and the heaps are equal again"


@SPEC.check("nim-rule", label="Your Nim rule")
def nim_rule(answer: object, p: Params) -> Verdict:
    """A function of three heaps, True exactly at the P-positions (heaps 0 .. HEAP_UPTO)."""
    if is_unanswered(answer):
        return unanswered()
    if not callable(answer):
        return Verdict("format", "Give a function of three heaps, such as my_nim_rule.", key="format:function")
    upto = int(p["heap_upto"])
    positions = [(a, b, c) for a in range(upto + 1) for b in range(upto + 1) for c in range(upto + 1)]
    for a, b, c in positions:
        try:
            said = answer(a, b, c)
        except Exception as error:  # the student's function
            return Verdict(
                "format", f"Your rule stopped with {type(error).__name__} at heaps {[a, b, c]}.", key="format:error"
            )
        if said is ...:
            return unanswered()
        really = nim_outcome((a, b, c)) == "P"
        if bool(said) != really:
            word = "loses" if really else "wins"
            return Verdict(
                "miss",
                f"First counterexample: heaps {[a, b, c]}. The player to move {word} there, but "
                f"your rule says {'loses' if said else 'wins'}.",
                "Look at the binary digits of each P-position above, one column at a time.",
                "How many 1s are in the fours column of each P-position? In the twos? In the ones? "
                "(a & 4, a & 2 and a & 1 test a column.)",
                key=f"miss:{a},{b},{c}",
            )
    for a, b, c in _beyond(upto):  # a rule, not a look-up of the data shown
        try:
            said = answer(a, b, c)
        except Exception as error:  # the student's function
            return Verdict(
                "partial",
                f"Right for every position with heaps up to {upto}, but at heaps {[a, b, c]} "
                f"it stopped with {type(error).__name__}.",
                "A rule, not a look-up of the table: it must work for heaps of any size.",
                "Say in words what every P-position in the binary list has in common, then write that.",
                key="partial:lookup",
            )
        really = nim_outcome((a, b, c)) == "P"
        if bool(said) != really:
            return Verdict(
                "partial",
                f"Right for every position with heaps up to {upto}, but not at heaps "
                f"{[a, b, c]}, beyond the data: there the player to move "
                f"{'loses' if really else 'wins'}.",
                "Does your rule say what the P-positions have in common, or only list them?",
                "Look at the binary digits of each P-position, one column at a time, and write that as "
                "a rule for any heaps.",
                key=f"partial:{a},{b},{c}",
            )
    return Verdict("right", f"Your rule is right for every position with heaps up to {upto}, and beyond. Now: why?")


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


@SPEC.check("proof-2")
def largest_heap_flaw(answer: object, p: Params) -> Verdict:
    """Three heaps, an N-position, where no winning move takes from a largest heap."""
    if is_unanswered(answer):
        return unanswered()
    heaps = _heaps(answer)
    if heaps is None or len(heaps) != 3:
        return Verdict("format", "Give three heaps as a list, like [1, 2, 4].", key="format:heaps")
    if max(heaps) > 20:
        return Verdict("format", "Keep the heaps at most 20, so the check stays quick.", key="format:big")
    good = nim_winning_moves(heaps)
    if not good:
        return Verdict(
            "misconception",
            f"From {list(heaps)} there is no winning move at all (a P-position).",
            "The claim is about positions where you can win. Find one where the winning move is not in a largest heap.",
            key="p-position",
        )
    top = max(heaps)
    if all(heaps[h - 1] != top for h, _ in good):
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


def _move(item: object) -> tuple[int, int] | None:
    pair = _heaps(item)
    return (pair[0], pair[1]) if pair is not None and len(pair) == 2 else None


@SPEC.check(1)
def all_winning_moves(answer: object, p: Params) -> Verdict:
    """Every winning move from EX_MOVES, as a list of (heap, count) pairs, heaps counted from 1."""
    heaps = tuple(int(h) for h in p["ex_moves"])
    good = set(nim_winning_moves(heaps))
    if is_unanswered(answer):
        return unanswered()
    if not isinstance(answer, (list, tuple, set)) or any(_move(m) is None for m in answer):
        return Verdict(
            "format",
            "Give a list of moves, each (heap, count), like [(1, 2), (3, 1)], or [] for none.",
            key="format:moves",
        )
    moves = {m for m in (_move(x) for x in answer) if m is not None}
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
    right = moves & good
    if right:
        extra = sorted(moves - good)
        return Verdict(
            "partial",
            f"{len(right)} of the {len(good)} winning moves"
            + (f"; {extra} {'does' if len(extra) == 1 else 'do'} not win." if extra else "."),
            "Check every heap: can changing it make every binary column even?",
            "Compute the nim-sum s. Every heap h with h ^ s smaller than h gives a winning move: "
            "take h - (h ^ s) from it.",
            key=f"partial:{sorted(moves)}",
        )
    return Verdict(
        "miss",
        "None of those moves wins.",
        "Find the nim-sum s of the heaps. A heap h can be changed to h ^ s if that is smaller than h.",
        "Write the heaps in binary. After a winning move every column has an even number of 1s: check "
        "each of your moves that way.",
        key=f"miss:{sorted(moves)}",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """Every winning move from EX_MOVES."""
    heaps = tuple(int(h) for h in p["ex_moves"])
    s = 0
    for h in heaps:
        s ^= h
    good = nim_winning_moves(heaps)
    if not good:
        return [], f"the nim-sum of {list(heaps)} is 0: a P-position, no move wins"
    steps = ", ".join(f"heap {i}: {heaps[i - 1]} → {heaps[i - 1] - c}" for i, c in good)
    return good, f"the nim-sum is {s}; each heap h with h ^ {s} < h can be lowered to h ^ {s}: {steps}"


def _sub_moves(p: Params) -> tuple[int, ...]:
    return tuple(sorted(int(m) for m in p["sub_set"]))


def _sub_good(p: Params) -> list[int]:
    moves, n = _sub_moves(p), int(p["ex_sub"])
    return [m for m in moves if m <= n and subtraction_outcome(n - m, moves) == "P"] or [0]


@SPEC.check(2)
def subtraction_move(answer: object, p: Params) -> Verdict:
    """How many to take from a pile of EX_SUB in the subtraction game SUB_SET (0 if no move wins)."""
    moves = _sub_moves(p)
    good = _sub_good(p)
    value = as_whole(answer)
    if value is not None and value in good:
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
        hint="Which pile sizes lose for the player to move (your rule from section 5)? Leave one "
        "of those. (If EX_SUB itself loses, answer 0.)",
        stronger="The losing sizes repeat. Where in the repeating pattern is EX_SUB? Try each "
        "allowed move and see where it lands.",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """A winning move in the subtraction game, with the losing size it leaves."""
    moves, n = _sub_moves(p), int(p["ex_sub"])
    good = _sub_good(p)
    if good == [0]:
        return 0, f"{n} is itself a losing size for the game {list(moves)}: no move wins"
    return good[0], f"{n} − {good[0]} = {n - good[0]}, a losing size for the game {list(moves)}"
