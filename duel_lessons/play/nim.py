"""A Nim game to play in a notebook, and the data lesson 09 shows (small tables: the exercises ask beyond them).

The brute-force solver the game and the tables use lives in :mod:`duel_lessons.play.nim_solver`; it is
imported here under private names only, so nothing this module offers a student answers an exercise
(the tables stop at heaps of 15 and piles of 100; the exercises ask beyond them).

>>> print("\\n".join(two_heap_lines(2)))
      0  1  2
  0   P  N  N
  1   N  P  N
  2   N  N  P
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from duel_lessons.play.nim_solver import after as _after
from duel_lessons.play.nim_solver import nim_moves as _nim_moves
from duel_lessons.play.nim_solver import nim_outcome as _nim_outcome
from duel_lessons.play.nim_solver import nim_p_positions as _nim_p_positions
from duel_lessons.play.nim_solver import nim_winning_moves as _nim_winning_moves
from duel_lessons.play.nim_solver import subtraction_outcome as _subtraction_outcome

__all__ = ["MAX_HEAP_TABLE", "MAX_PILE_TABLE", "NimGame", "losing_piles", "three_heap_lines", "two_heap_lines"]

#: The largest heap the lesson's data tables show (the exercises ask beyond it).
MAX_HEAP_TABLE = 15
#: The largest pile the lesson's subtraction data shows.
MAX_PILE_TABLE = 100


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
        lines.append(f"{a:>3}  " + " ".join(f"{_nim_outcome((a, b)):>2}" for b in range(upto + 1)))
    return lines


def three_heap_lines(upto: int) -> list[str]:
    """The three-heap P-positions with heaps 1 .. upto (at most 15), each heap also written in binary.

    >>> three_heap_lines(3)[:4]
    ['heaps [1, 2, 3]:', '    1 = 01', '    2 = 10', '    3 = 11']
    """
    upto = _capped(upto, MAX_HEAP_TABLE, "The list")
    width = upto.bit_length()
    lines = []
    for position in _nim_p_positions(3, upto):
        lines.append(f"heaps {list(position)}:")
        lines += [f"   {h:>2} = {h:0{width}b}" for h in position]
    return lines


def losing_piles(moves: Sequence[int], upto: int) -> list[int]:
    """The pile sizes 1 .. upto (at most 100) that lose for the player to move.

    >>> losing_piles([1, 2, 3], 12)
    [4, 8, 12]
    """
    upto = _capped(upto, MAX_PILE_TABLE, "The list of piles")
    return [n for n in range(1, upto + 1) if _subtraction_outcome(n, moves) == "P"]


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
        self.heaps = list(_after(self.heaps, (heap, count)))
        print(f"You take {count} from heap {heap}: heaps {self.heaps}.")
        if self.over:
            print("You took the last counter and win!")
            return
        good = _nim_winning_moves(self.heaps)
        move = good[0] if good else self._rng.choice([(h, 1) for h, _ in _nim_moves(self.heaps)])
        self.heaps = list(_after(self.heaps, move))
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
