"""Nim and subtraction games by brute force: the truth lesson 09's checks judge against.

Nothing here uses the XOR rule to *decide* who wins: outcomes come from trying every move, so the
lesson's checks are independent of the rule the students are asked to find.  The lesson's notebook
imports only :mod:`duel_lessons.play.nim` (the game and the capped data tables), which names none of
these, so no function the lesson imports answers an exercise.

>>> nim_outcome((1, 2, 3)), nim_outcome((1, 2, 4))
('P', 'N')
>>> subtraction_outcome(8, (1, 2, 3))
'P'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

__all__ = ["after", "nim_moves", "nim_outcome", "nim_p_positions", "nim_winning_moves", "subtraction_outcome"]

Heaps = tuple[int, ...]


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
