"""Lesson 09, "How do you win at Nim?": Nim and subtraction games by brute force, a Nim game to play, and the checks.

Nothing here uses the XOR rule to *decide* who wins: outcomes come from trying every move (brute force), so the
checks and the lesson's data are independent of the rule the students are asked to find.  (The computer opponent
may use any winning move it finds by brute force.)

>>> nim_outcome((1, 2, 3)), nim_outcome((1, 2, 4))
('P', 'N')
>>> subtraction_outcome(8, (1, 2, 3))
'P'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations_with_replacement

from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    as_whole,
    expect_choice,
    expect_list,
    expect_number,
    is_unanswered,
    show,
    unanswered,
)

SPEC = register(LessonSpec("09", needs=("heaps", "heap_upto", "sub_set", "sub_upto", "ex_nim", "ex_moves", "ex_sub")))

Heaps = tuple[int, ...]


# -- brute force -----------------------------------------------------------------------------------


def nim_moves(heaps: Sequence[int]) -> list[tuple[int, int]]:
    """Every move (heap number counted from 1, how many to take).

    >>> nim_moves([1, 2])
    [(1, 1), (2, 1), (2, 2)]
    """
    return [(i + 1, k) for i, h in enumerate(heaps) for k in range(1, h + 1)]


def after(heaps: Sequence[int], move: tuple[int, int]) -> Heaps:
    """The heaps after taking ``count`` from heap ``heap`` (counted from 1)."""
    heap, count = move
    return tuple(h - count if i == heap - 1 else h for i, h in enumerate(heaps))


@cache
def _nim_p(key: Heaps) -> bool:
    return not any(_nim_p(tuple(sorted(after(key, m)))) for m in nim_moves(key))


def nim_outcome(heaps: Sequence[int]) -> str:
    """ "P" if the player to move loses Nim from these heaps (the last to take wins), else "N"; by brute force."""
    return "P" if _nim_p(tuple(sorted(int(h) for h in heaps))) else "N"


def nim_winning_moves(heaps: Sequence[int]) -> list[tuple[int, int]]:
    """Every move that leaves a P-position, by brute force.

    >>> nim_winning_moves([3, 4, 5])
    [(1, 2)]
    """
    return [m for m in nim_moves(heaps) if nim_outcome(after(heaps, m)) == "P"]


def nim_p_positions(heap_count: int, upto: int) -> list[Heaps]:
    """The P-positions with ``heap_count`` heaps of 1 .. upto counters, each listed once (smallest heaps first)."""
    return [t for t in combinations_with_replacement(range(1, upto + 1), heap_count) if nim_outcome(t) == "P"]


@cache
def _sub_p(n: int, moves: tuple[int, ...]) -> bool:
    return not any(_sub_p(n - m, moves) for m in moves if m <= n)


def subtraction_outcome(n: int, moves: Sequence[int]) -> str:
    """ "P" or "N" for one pile of n counters when a move takes one of ``moves`` counters (the last to take wins)."""
    for k in range(n + 1):  # fill the cache from the bottom: no deep recursion
        _sub_p(k, tuple(moves))
    return "P" if _sub_p(n, tuple(moves)) else "N"


# -- a game to play in a notebook ------------------------------------------------------------------


class NimGame:
    """Nim against the computer, typed in cells: ``game.take(heap, count)``; heaps are counted from 1.

    >>> game = NimGame([1, 1], seed=1)
    >>> game.take(1, 1)
    You take 1 from heap 1: heaps [0, 1].
    The computer takes 1 from heap 2: heaps [0, 0].
    The computer took the last counter and wins.
    """

    def __init__(self, heaps: Sequence[int], seed: int | None = None) -> None:
        self.heaps = [int(h) for h in heaps]
        if not self.heaps or any(h < 0 for h in self.heaps):
            raise ValueError(f"Nim needs at least one heap and no negative heaps, not {list(heaps)}.")
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"Heaps: {self.heaps}. " + ("Game over." if self.over else "Your move: game.take(heap, count).")

    @property
    def over(self) -> bool:
        """Whether every heap is empty."""
        return not any(self.heaps)

    def take(self, heap: int, count: int) -> None:
        """Your move, then the computer's reply (a winning move if it has one, else a random small move)."""
        if self.over:
            print("The game is over. Start a new one: game = NimGame([3, 4, 5]).")
            return
        problem = self._why_not(heap, count)
        if problem:
            print(f"Not allowed: {problem} Heaps are {self.heaps}; try again.")
            return
        self.heaps = list(after(self.heaps, (heap, count)))
        print(f"You take {count} from heap {heap}: heaps {self.heaps}.")
        if self.over:
            print("You took the last counter and win!")
            return
        good = nim_winning_moves(self.heaps)
        move = good[0] if good else self._rng.choice([(h, 1) for h, _ in nim_moves(self.heaps)])
        self.heaps = list(after(self.heaps, move))
        print(f"The computer takes {move[1]} from heap {move[0]}: heaps {self.heaps}.")
        if self.over:
            print("The computer took the last counter and wins.")

    def _why_not(self, heap: object, count: object) -> str | None:
        h, c = as_whole(heap), as_whole(count)
        if h is None or c is None:
            return f"give two whole numbers, the heap and how many, not {show(heap)} and {show(count)}."
        if not 1 <= h <= len(self.heaps):
            return f"there is no heap {h}: the heaps are numbered 1 to {len(self.heaps)}."
        if not 1 <= c <= self.heaps[h - 1]:
            return f"from heap {h} you may take 1 to {self.heaps[h - 1]} counters, not {c}."
        return None


# -- guesses, truths and reveals -------------------------------------------------------------------

CHOICES: dict[str, Heaps] = {"A": (1, 1), "B": (1, 2), "C": (2, 2), "D": (1, 2, 3), "E": (1, 2, 4)}


@SPEC.reveal("hand-over")
def hand_over(guess: object, p: Params) -> str:
    """Which of the positions A-E lose for the player to move, against the guess."""
    losing = [k for k, heaps in CHOICES.items() if nim_outcome(heaps) == "P"]
    items = list(guess) if isinstance(guess, (list, tuple, set)) else [guess]
    chosen = sorted({str(x).strip().upper() for x in items})
    right = [k for k in CHOICES if (k in chosen) == (k in losing)]
    return (
        f"The player to move loses from **{', '.join(losing)}**; you picked {chosen or 'none'} and were right about "
        f"{len(right)} of the 5.\n\n**The rule:** write the heaps in binary. A Nim position is P exactly when every "
        "column has an even number of 1s, that is, when the heaps XOR to 0 (in Python, `a ^ b ^ c == 0`). "
        "With two heaps that means: equal heaps. The proof is next."
    )


@SPEC.truth("subtract", yes="loses", no="wins")
def subtract(p: Params) -> Callable[[int], bool]:
    """One pile, take one of SUB_SET counters: True where the player to move loses."""
    moves = tuple(int(m) for m in p["sub_set"])
    return lambda n: subtraction_outcome(n, moves) == "P"


@SPEC.reveal("subtract")
def subtract_reveal(rule: object, p: Params) -> str:
    """The subtraction game's rule, after a first test."""
    moves = tuple(int(m) for m in p["sub_set"])
    period = max(moves) + 1
    upto = int(p["sub_upto"])
    losing = [n for n in range(1, upto + 1) if subtraction_outcome(n, moves) == "P"]
    text = f"Up to {upto}, the player to move loses from {losing}."
    if moves == tuple(range(1, period)):
        text += (
            f" These are the multiples of {period}: whatever your opponent takes (k), take {period} − k, "
            f"and the pile stays a multiple of {period}."
        )
    return text


# -- checks ----------------------------------------------------------------------------------------


def _heaps(answer: object) -> Heaps | None:
    if isinstance(answer, (str, bytes)) or not isinstance(answer, (list, tuple)):
        return None
    values = [as_whole(x) for x in answer]
    return None if any(v is None or v < 0 for v in values) else tuple(v for v in values if v is not None)


@SPEC.check("proof-1")
def mirror(answer: object, p: Params) -> Verdict:
    """From [5, 5] the opponent takes 2 from heap 1; the mirror reply leaves [3, 3]."""
    heaps = _heaps(answer)
    if is_unanswered(answer):
        return unanswered()
    if heaps is None:
        return Verdict("format", "Give the heaps you leave as a list, like [4, 1].", key="format:not-heaps")
    if sorted(heaps) == [3, 3]:
        return Verdict("right")
    if sorted(heaps) in ([0, 3], [1, 3], [2, 3]):
        return Verdict(
            "misconception",
            f"Your answer was {list(heaps)}.",
            "Copy your opponent: make the two heaps equal again.",
            "Your opponent took 2 from one heap. Take the same number from the other heap.",
            key="not-equal",
        )
    return Verdict(
        "miss",
        f"Your answer was {list(heaps)}.",
        "After your opponent's move the heaps are [3, 5]. Which move makes them equal?",
        "Your opponent took 2 from heap 1. Copy: take 2 from heap 2. Which heaps are left?",
        key=f"miss:{heaps}",
    )


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
                "Write the three heaps of each P-position in binary, one under the other, and count the "
                "1s in each column.",
                "Look at one column at a time in the P-positions above: how many 1s are in the fours "
                "column of each? In the twos? In the ones? (a & 4, a & 2 and a & 1 test a column.)",
                key=f"miss:{a},{b},{c}",
            )
    return Verdict("right", f"Your rule is right for every position with heaps up to {upto}. Now: why?")


@SPEC.check("proof-2")
def winning_move(answer: object, p: Params) -> Verdict:
    """A winning move from HEAPS, as (heap counted from 1, how many)."""
    heaps = tuple(int(h) for h in p["heaps"])
    good = nim_winning_moves(heaps)
    return _move_verdict(answer, heaps, good)


def _move_verdict(answer: object, heaps: Heaps, good: list[tuple[int, int]]) -> Verdict:
    if is_unanswered(answer):
        return unanswered()
    pair = _heaps(answer)
    if pair is None or len(pair) != 2:
        return Verdict(
            "format", "Give a move as (heap, count), for example (2, 1): take 1 from heap 2.", key="format:pair"
        )
    move = (pair[0], pair[1])
    if move in good:
        return Verdict("right")
    if (move[0] + 1, move[1]) in good:
        return Verdict(
            "format", "Right move, but count the heaps from 1: the first heap is heap 1.", key="format:from-zero"
        )
    if not good:
        return Verdict(
            "misconception",
            "There is no winning move here.",
            "Every column already has an even number of 1s: whatever you do, you spoil it.",
            key="p-position",
        )
    if move not in nim_moves(heaps):
        return Verdict("format", f"{move} is not a legal move from {list(heaps)}.", key="format:illegal")
    left = after(heaps, move)
    return Verdict(
        "miss",
        f"That leaves {list(left)}, and your opponent can win from there.",
        "Write the heaps in binary. Which heap has a 1 in the leftmost column whose count is odd? "
        "Change that heap so every column is even.",
        "Find the nim-sum s of the heaps (section 4's `^`). A heap h with h ^ s smaller than h can be "
        "reduced to h ^ s: take h - (h ^ s) counters from it.",
        key=f"miss:{move}",
    )


@SPEC.check("proof-3")
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
        "Try positions where two heaps are small and the largest has no 1 in the leftmost odd column.",
        "Aim for a nim-sum of 1: then only a heap with a 1 in the ones column (an odd heap) can balance. "
        "Make the largest heap even.",
        key=f"miss:{heaps}",
    )


@SPEC.check(1)
def p_or_n(answer: object, p: Params) -> Verdict:
    """P or N for the Nim position EX_NIM."""
    heaps = tuple(int(h) for h in p["ex_nim"])
    return expect_choice(
        answer,
        nim_outcome(heaps),
        ("P", "N"),
        hint="Write each heap in binary, one under the other, and count the 1s in each column.",
        stronger="Use the columns 8, 4, 2, 1. A column with an odd number of 1s makes the "
        "position unbalanced. Balanced = P.",
    )


@SPEC.check(2)
def all_winning_moves(answer: object, p: Params) -> Verdict:
    """Every winning move from EX_MOVES, as a list of (heap, count) pairs, heaps counted from 1."""
    heaps = tuple(int(h) for h in p["ex_moves"])
    good = nim_winning_moves(heaps)
    if is_unanswered(answer):
        return unanswered()
    if not isinstance(answer, (list, tuple, set)) or not all(
        _heaps(m) is not None and len(_heaps(m) or ()) == 2 for m in answer
    ):
        return Verdict("format", "Give a list of moves, each (heap, count), like [(1, 2), (3, 1)].", key="format:moves")
    moves = {(int(m[0]), int(m[1])) for m in answer}
    if moves == set(good):
        return Verdict("right")
    if {(h + 1, c) for h, c in moves} == set(good):
        return Verdict("format", "The right moves, but count the heaps from 1.", key="format:from-zero")
    right = moves & set(good)
    if right:
        extra = sorted(moves - set(good))
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


@SPEC.check(3)
def subtraction_move(answer: object, p: Params) -> Verdict:
    """How many to take from a pile of EX_SUB in the subtraction game SUB_SET (0 if no move wins)."""
    moves = tuple(int(m) for m in p["sub_set"])
    n = int(p["ex_sub"])
    good = [m for m in moves if m <= n and subtraction_outcome(n - m, moves) == "P"] or [0]
    return expect_number(
        answer,
        good[0],
        misconceptions=[
            Misconception(
                "not-allowed",
                lambda a: a not in moves and a != 0,
                f"You may only take {list(moves)} counters.",
                f"Take one of {list(moves)}. Which of them leaves a losing pile size?",
            )
        ],
        hint="Which pile sizes lose for the player to move? Leave one of those.",
        stronger="Your rule from section 5 says which sizes lose. Try each allowed move from "
        "EX_SUB and see which leaves a losing size.",
    )


@SPEC.check(4)
def other_subtraction(answer: object, p: Params) -> Verdict:
    """The losing pile sizes 1 .. 20 when a move takes 1, 3 or 4 counters."""
    losing = [n for n in range(1, 21) if subtraction_outcome(n, (1, 3, 4)) == "P"]
    multiples = [n for n in range(1, 21) if n % 4 == 0]
    return expect_list(
        answer,
        losing,
        what="losing sizes",
        misconceptions=[
            Misconception(
                "copy-rule",
                multiples,
                "Those lose when you may take 1, 2 or 3. Here the moves are 1, 3 and 4: work up from 0 again.",
                "0 loses, 1 wins (take 1). Does 2 win? Its only move is to 1. Carry on like that up to 20.",
            )
        ],
        hint="Fill in a table from 0 up: a size loses when every move leads to a winning size.",
        stronger="Write 0 to 20 in a row. 0 loses. For each size, look back 1, 3 and 4 places: if "
        "any of those loses, this size wins.",
    )
