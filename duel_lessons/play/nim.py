"""Nim and subtraction games by brute force, a Nim game to play in a notebook, and the data lesson 09 shows.

Nothing here uses the XOR rule to *decide* who wins: outcomes come from trying every move, so lesson 09's
data and checks are independent of the rule the students are asked to find.

>>> nim_outcome((1, 2, 3)), nim_outcome((1, 2, 4))
('P', 'N')
>>> subtraction_outcome(8, (1, 2, 3))
'P'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

__all__ = [
    "MAX_HEAP_TABLE",
    "MAX_PILE_TABLE",
    "NimGame",
    "after",
    "losing_piles",
    "nim_moves",
    "nim_outcome",
    "nim_p_positions",
    "nim_winning_moves",
    "subtraction_outcome",
    "three_heap_lines",
    "two_heap_lines",
]

Heaps = tuple[int, ...]

#: The largest heap the lesson's data tables show (the exercises ask beyond it).
MAX_HEAP_TABLE = 15
#: The largest pile the lesson's subtraction data shows.
MAX_PILE_TABLE = 100


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
    """"P" if the player to move loses Nim from these heaps (the last to take wins), else "N"; by brute force."""
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
    """"P" or "N" for one pile of n counters when a move takes one of ``moves`` counters (the last to take wins)."""
    for k in range(n + 1):  # fill the cache from the bottom: no deep recursion
        _sub_p(k, tuple(moves))
    return "P" if _sub_p(n, tuple(moves)) else "N"


# -- the data lesson 09 shows (small on purpose: the exercises ask beyond it) ---------------------------------


def _capped(upto: int, cap: int, what: str) -> int:
    if isinstance(upto, bool) or not isinstance(upto, int) or not 1 <= upto <= cap:
        raise ValueError(f"{what} goes from 1 to {cap}, not {upto!r}.")
    return upto


def two_heap_lines(upto: int) -> list[str]:
    """Every two-heap position with heaps 0 .. upto (at most 15): a row per first heap, P where the mover loses.

    >>> print("\\n".join(two_heap_lines(1)))
          0  1
      0   P  N
      1   N  P
    """
    upto = _capped(upto, MAX_HEAP_TABLE, "The table")
    lines = ["     " + " ".join(f"{b:>2}" for b in range(upto + 1))]
    for a in range(upto + 1):
        lines.append(f"{a:>3}  " + " ".join(f"{nim_outcome((a, b)):>2}" for b in range(upto + 1)))
    return lines


def three_heap_lines(upto: int) -> list[str]:
    """The three-heap P-positions with heaps 1 .. upto (at most 15), each heap also written in binary.

    >>> three_heap_lines(3)[:4]
    ['heaps [1, 2, 3]:', '    1 = 01', '    2 = 10', '    3 = 11']
    """
    upto = _capped(upto, MAX_HEAP_TABLE, "The list")
    width = upto.bit_length()
    lines = []
    for position in nim_p_positions(3, upto):
        lines.append(f"heaps {list(position)}:")
        lines += [f"   {h:>2} = {h:0{width}b}" for h in position]
    return lines


def losing_piles(moves: Sequence[int], upto: int) -> list[int]:
    """The pile sizes 1 .. upto (at most 100) that lose for the player to move.

    >>> losing_piles([1, 2, 3], 12)
    [4, 8, 12]
    """
    upto = _capped(upto, MAX_PILE_TABLE, "The list of piles")
    return [n for n in range(1, upto + 1) if subtraction_outcome(n, moves) == "P"]


# -- a game to play in a notebook ----------------------------------------------------------------------


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


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
        if not self.heaps or any(h < 0 for h in self.heaps) or sum(self.heaps) > 60:
            raise ValueError(f"Nim here needs 1 or more heaps, none negative, at most 60 counters, not {list(heaps)}.")
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
            print("The game is over. Start a new one: run the cell with NimGame again.")
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
        h, c = _whole(heap), _whole(count)
        if h is None or c is None:
            return f"give two whole numbers, the heap and how many, not {heap!r} and {count!r}."
        if not 1 <= h <= len(self.heaps):
            return f"there is no heap {h}: the heaps are numbered 1 to {len(self.heaps)}."
        if not 1 <= c <= self.heaps[h - 1]:
            return f"from heap {h} you may take 1 to {self.heaps[h - 1]} counters, not {c}."
        return None
