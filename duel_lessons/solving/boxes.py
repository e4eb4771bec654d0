"""Count the positions of sums over a box of starts by their Grundy values, never listing the box.

A sum of games is lost for the player to move (a P-position) exactly when the XOR of its components'
Grundy values is 0 (Sprague–Grundy).  So only the *Grundy value* of each component matters:

1. on each axis, count how many numbers have each Grundy value (a histogram: a proved formula's
   ``counts`` for huge ranges, or the solver's table up to 10**7);
2. combine the axes by XOR convolution: with the Walsh–Hadamard transform W, the number of boxes
   whose values XOR to x is W(W(h1) · W(h2) · …)[x] / L, where L is the transform's length.

Three axes of 10**18 numbers each are 10**54 positions, but only a few dozen Grundy values: the
count takes milliseconds.  All arithmetic is on Python integers, so the counts are exact.  Only
*listing* the P-positions (:meth:`BoxCount.p_positions`) visits the box position by position, so
it is for boxes of at most ``LIST_LIMIT`` positions.

>>> from duel_lessons.engine.rules import DIVISOR_DUEL
>>> count_box(DIVISOR_DUEL, [range(1, 13), range(1, 13)]).p_count
70
>>> big = count_box(DIVISOR_DUEL.variant(allow_one=True), [range(1, 10**18 + 1)] * 3)
>>> big.total == 10**54
True
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

import numpy as np

from duel_lessons.engine.errors import DuelError, TooBigError
from duel_lessons.engine.numbers import MAX_NUMBER
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.solving.grundy_formulas import formula_for
from duel_lessons.solving.oracle import table_length
from duel_lessons.solving.tables import TABLE_LIMIT, tabulate


def sum_rules(rules: Rules | str) -> Rules:
    """The rules of a sum component, or DuelError where Grundy values do not decide sums.

    Misère rules are refused (XOR does not decide misère sums), and so are rules in which a move can
    reach a number whose reaching loses at once (in a sum that would end the whole game suddenly).
    """
    book = get_rules(rules)
    if not book.last_mover_wins:
        raise DuelError(
            f"{book.title} ({book.name}) is a misère game (the last player to move loses). Sums of games "
            f"need normal play: the Sprague–Grundy XOR rule does not decide misère sums."
        )
    if losing_number_reachable(book):
        raise DuelError(
            f"In {book.title} ({book.name}) a move can reach a number whose reaching loses at once; in a sum "
            f"that would end every game suddenly, so such rules cannot be sum components."
        )
    return book


def losing_number_reachable(rules: Rules) -> bool:
    """Whether some move can reach a number whose reaching loses (by the rules' structure).

    Reaching 1 needs subtracting 1 from 2 (division never reaches 1: d < n), and 2 must not already
    end the game.  Reaching a prime is possible in any subtraction game with moves.
    """
    if rules.lose_on_reaching == "one":
        two_ends = rules.win_on_reaching == "prime"  # 2 is prime: the game ends there first
        return rules.move == "subtract" and rules.allow_one and not two_ends
    return rules.lose_on_reaching == "prime"


# -- one axis -----------------------------------------------------------------------------------------


def _as_range(numbers: Iterable[int], axis: int) -> range | np.ndarray:
    if isinstance(numbers, range):
        return numbers
    limit = TABLE_LIMIT + 1
    values = np.fromiter((int(n) for n in itertools.islice(numbers, limit)), dtype=np.int64)
    if values.size == limit:
        raise TooBigError(
            f"Axis {axis + 1} lists more than {TABLE_LIMIT:,} numbers; give a huge axis as a range, "
            f"for example range(1, 10**12 + 1), so that it never has to be listed."
        )
    return values


def grundy_histogram(rules: Rules | str, numbers: Iterable[int], axis: int = 0) -> list[int]:
    """How many of ``numbers`` have each Grundy value: entry g counts the numbers of value g.

    A ``range`` of step 1 is counted from the proved formula where there is one (any size up to
    10**18) and otherwise from the solver's table (up to 10**7); it is never turned into a list.

    >>> from duel_lessons.engine.rules import DIVISOR_DUEL
    >>> grundy_histogram(DIVISOR_DUEL, range(1, 13))
    [8, 2, 1, 1]
    """
    book = sum_rules(rules)
    values = _as_range(numbers, axis)
    if isinstance(values, range):
        if values.step < 1:
            raise DuelError(f"Axis {axis + 1}: a range of components must count upwards, not {values!r}.")
        if not values:
            return [0]
        lo, hi = values[0], values[-1]
        if lo < 1 or hi > MAX_NUMBER:
            raise DuelError(f"Axis {axis + 1} runs from {lo} to {hi}; components lie from 1 to 10**18.")
        formula = formula_for(book)
        if formula is not None and values.step == 1:
            above, below = formula.counts(hi), formula.counts(lo - 1)
            top = max(above, default=0)
            return [above.get(g, 0) - below.get(g, 0) for g in range(top + 1)]
    else:
        if not values.size:
            return [0]
        lo = int(values.min())
        if lo < 1:
            raise DuelError(f"Axis {axis + 1} holds {lo}: components are positive whole numbers.")
    grundy = _table_values(book, values, axis)
    return [int(c) for c in np.bincount(grundy.astype(np.int64))]


def _table_values(rules: Rules, numbers: range | np.ndarray, axis: int) -> np.ndarray:
    """The Grundy value of each of ``numbers`` (positive, in order; a range counts upwards) from the solver's table."""
    hi = numbers[-1] if isinstance(numbers, range) else int(numbers.max())
    if hi > TABLE_LIMIT:
        raise TooBigError(
            f"Axis {axis + 1} goes up to {hi:,}: {rules.title} has no proved formula for its Grundy values "
            f"that can count them, and the solver's tables stop at {TABLE_LIMIT:,}."
        )
    grundy = tabulate(rules, table_length(hi, TABLE_LIMIT)).grundy
    if isinstance(numbers, range):
        return grundy[numbers.start : hi + 1 : numbers.step]
    picked: np.ndarray = grundy[numbers]
    return picked


def grundy_values(rules: Rules | str, numbers: range | Sequence[int], axis: int = 0) -> np.ndarray:
    """The Grundy value of each of ``numbers``, in their order: from the proved formula where there is
    one (any number up to 10**18, one at a time), otherwise from the solver's table (up to 10**7).

    >>> from duel_lessons.engine.rules import DIVISOR_DUEL
    >>> grundy_values(DIVISOR_DUEL, [12, 1, 6]).tolist()
    [3, 0, 2]
    >>> grundy_values(DIVISOR_DUEL.variant(allow_one=True), range(10**18 - 3, 10**18 + 1)).tolist()
    [0, 1, 0, 18]
    """
    book = sum_rules(rules)
    if not len(numbers):
        return np.zeros(0, dtype=np.int64)
    if len(numbers) > TABLE_LIMIT:
        raise TooBigError(
            f"Axis {axis + 1} holds {len(numbers):,} numbers: Grundy values are listed for at most {TABLE_LIMIT:,} "
            f"numbers at once (grundy_histogram counts them on an axis of any length)."
        )
    ends = (numbers[0], numbers[-1]) if isinstance(numbers, range) else (min(numbers), max(numbers))
    lo, hi = min(ends), max(ends)
    if lo < 1 or hi > MAX_NUMBER:
        raise DuelError(f"Axis {axis + 1} holds numbers from {lo} to {hi}; components lie from 1 to 10**18.")
    formula = formula_for(book)
    if formula is not None:
        return np.array([formula.value(int(n)) for n in numbers], dtype=np.int64)
    if isinstance(numbers, range) and numbers.step > 0:
        return _table_values(book, numbers, axis).astype(np.int64)
    return _table_values(book, np.asarray(numbers, dtype=np.int64), axis).astype(np.int64)


# -- combining axes by XOR -------------------------------------------------------------------------------


def walsh_hadamard(values: Sequence[int]) -> list[int]:
    """The Walsh–Hadamard transform of a list whose length is a power of 2 (exact integers).

    Applying it twice multiplies by the length:

    >>> walsh_hadamard(walsh_hadamard([3, 1, 4, 1]))
    [12, 4, 16, 4]
    """
    out = list(values)
    size = len(out)
    if size & (size - 1):
        raise DuelError(f"The transform needs a length that is a power of 2, not {size}.")
    half = 1
    while half < size:
        for start in range(0, size, 2 * half):
            for i in range(start, start + half):
                a, b = out[i], out[i + half]
                out[i], out[i + half] = a + b, a - b
        half *= 2
    return out


def xor_distribution(histograms: Sequence[Sequence[int]]) -> list[int]:
    """Entry x counts the ways to pick one value per histogram whose XOR is x.

    >>> xor_distribution([[1, 1], [1, 1]])  # (0,0), (1,1) XOR to 0; (0,1), (1,0) to 1
    [2, 2]
    """
    width = max((len(h) - 1 for h in histograms), default=0).bit_length()
    size = 1 << width
    product = [1] * size
    for histogram in histograms:
        padded = list(histogram) + [0] * (size - len(histogram))
        product = [p * w for p, w in zip(product, walsh_hadamard(padded), strict=True)]
    return [v // size for v in walsh_hadamard(product)]


#: The most positions a box may hold for :meth:`BoxCount.p_positions` to list its P-positions (it visits
#: every one); counting them (``p_count``) works at every size.
LIST_LIMIT = 10**6


@dataclass(frozen=True)
class BoxCount:
    """The P- and N-positions among all sums in a box (one axis of starts per component).

    ``by_xor[x]`` counts the positions whose Grundy values XOR to x; a P-position (the player to move
    loses) is one with XOR 0.

    Grundy values of Divisor Duel: g(3) = g(5) = 0, g(4) = 1, g(6) = 2; so a + b is P when g(a) = g(b).

    >>> box = count_box("divisor-duel", [range(3, 7), range(4, 6)])
    >>> box.total, box.p_count, box.n_count
    (8, 3, 5)
    >>> box.p_positions()
    [(3, 5), (4, 4), (5, 5)]
    >>> print(box)
    Divisor Duel + Divisor Duel: 8 positions, 5 N (62.5%, the first player wins), 3 P (37.5%).
    """

    rules: tuple[Rules, ...]
    axes: tuple[range | tuple[int, ...], ...]
    by_xor: tuple[int, ...]

    @property
    def total(self) -> int:
        """How many positions the box holds."""
        return sum(self.by_xor)

    @property
    def p_count(self) -> int:
        """How many P-positions (the player to move loses): XOR of Grundy values 0."""
        return self.by_xor[0] if self.by_xor else 0

    @property
    def n_count(self) -> int:
        """How many N-positions (the player to move wins)."""
        return self.total - self.p_count

    @property
    def p_fraction(self) -> float:
        """The fraction of P-positions (0.0 for an empty box)."""
        return self.p_count / self.total if self.total else 0.0

    @property
    def n_fraction(self) -> float:
        """The fraction of N-positions, where the first player wins (0.0 for an empty box)."""
        return self.n_count / self.total if self.total else 0.0

    def p_positions(self, limit: int | None = None) -> list[tuple[int, ...]]:
        """The P-positions as tuples of numbers, one per axis, in the box's order (the first ``limit``).

        Listing visits every position, so it refuses (DuelError) a box of more than ``LIST_LIMIT``
        positions; ``p_count`` counts them in any box.
        """
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
            raise DuelError(f"limit is how many P-positions to list: a whole number 0 or more, or None; not {limit!r}.")
        if self.total > LIST_LIMIT:
            raise DuelError(
                f"The box holds {self.total:,} positions: P-positions are listed only from boxes of at most "
                f"{LIST_LIMIT:,} positions. Count them with p_count ({self.p_count:,}), or list a smaller box."
            )
        if not self.total or limit == 0:
            return []
        columns = [
            grundy_values(book, axis, k) for k, (book, axis) in enumerate(zip(self.rules, self.axes, strict=True))
        ]
        xor = np.zeros((1,) * len(columns), dtype=np.int64)
        for k, values in enumerate(columns):
            shape = [1] * len(columns)
            shape[k] = values.size
            xor = xor ^ values.reshape(shape)
        found = np.argwhere(xor == 0)[:limit]
        numbers = [np.array(axis, dtype=np.int64)[found[:, k]].tolist() for k, axis in enumerate(self.axes)]
        return list(zip(*numbers, strict=True))

    def __str__(self) -> str:
        games = " + ".join(r.title for r in self.rules)
        return (
            f"{games}: {self.total:,} positions, {self.n_count:,} N ({self.n_fraction:.1%}, the first player "
            f"wins), {self.p_count:,} P ({self.p_fraction:.1%})."
        )

    def __repr__(self) -> str:
        return f"BoxCount(total={self.total}, p_count={self.p_count}, n_count={self.n_count})"

    def _repr_html_(self) -> str:
        games = escape(" + ".join(r.title for r in self.rules))
        return (
            f"<div><b>{games}</b><br>Positions in the box: <b>{self.total:,}</b><br>"
            f"P-positions (the player to move loses): <b>{self.p_count:,}</b> ({self.p_fraction:.4%})<br>"
            f"N-positions (the first player wins): <b>{self.n_count:,}</b> ({self.n_fraction:.4%})</div>"
        )


#: How many numbers of an axis are checked one by one against a start rule such as "composite only".
START_SCAN = 5_000
#: The longest listed axis that is checked against such a start rule.
START_LIST_LIMIT = 100_000


def start_problem(rules: Rules, numbers: range | Sequence[int], axis: int = 0) -> str | None:
    """Why some number of an axis cannot start a game of ``rules`` (as :func:`~duel_lessons.play.sums.new_sum`
    refuses it), or None.

    The smallest number is always checked; a rule such as "composite only" is checked number by number on a
    listed axis and on the first ``START_SCAN`` numbers of a range (a range of step 1 that long always holds
    a prime: no gap between primes below 10**18 is that wide).

    >>> from duel_lessons.engine.rules import get_rules
    >>> start_problem(get_rules("factor-duel"), range(1, 10))
    'Axis 1 holds 1: 1 is too small to start Factor Duel. Factor Duel starts from a number greater than 2 (book 003).'
    >>> start_problem(get_rules("factor-duel"), range(3, 10)) is None
    True
    """
    if not len(numbers):
        return None
    lowest = numbers[0] if isinstance(numbers, range) else min(numbers)
    if lowest < 1 or (isinstance(numbers, range) and numbers.step < 1):
        return None  # refused when the axis is counted, with its own message
    checks = [int(lowest)]
    if rules.composite_start or rules.when_stuck == "pass":
        if isinstance(numbers, range):
            checks += list(numbers[:START_SCAN])
        elif len(numbers) > START_LIST_LIMIT:
            return (
                f"Axis {axis + 1} lists {len(numbers):,} numbers: {rules.title} has a start rule "
                f"({rules.start_rule}), checked on at most {START_LIST_LIMIT:,} listed numbers."
            )
        else:
            checks += sorted({int(n) for n in numbers})
    for n in checks:
        problem = rules.start_problem(n)
        if problem is not None:
            return f"Axis {axis + 1} holds {n}: {problem}"
    return None


def count_box(
    rules: Rules | str | Sequence[Rules | str], box: Sequence[Iterable[int]], *, every_number: bool = False
) -> BoxCount:
    """Count the P- and N-positions of every sum in a box, by Grundy values (see the module docstring).

    ``rules`` is one rule set for every component or one per component; ``box`` is one collection of
    starts per component (a ``range`` for huge axes).  Like :func:`~duel_lessons.play.sums.new_sum`, it
    refuses a number that cannot start its game (1 and 2 in Factor Duel, a prime in Division Duel) with a
    DuelError naming it; ``every_number=True`` counts every positive number instead, as a position that a
    game can reach.

    >>> count_box("factor-duel", [range(1, 5)] * 2)
    Traceback (most recent call last):
    ...
    duel_lessons.engine.errors.DuelError: Axis 1 holds 1: 1 is too small to start Factor Duel. Factor Duel \
starts from a number greater than 2 (book 003).
    >>> count_box("factor-duel", [range(1, 5)] * 2, every_number=True).total
    16
    """
    choices: Sequence[Rules | str] = [rules] * len(box) if isinstance(rules, (str, Rules)) else rules
    books = [sum_rules(r) for r in choices]
    if len(books) != len(box) or not books:
        raise DuelError(f"Give one range per component: {len(books)} rule sets but {len(box)} ranges.")
    axes: list[range | tuple[int, ...]] = []
    histograms = []
    for i, (book, numbers) in enumerate(zip(books, box, strict=True)):
        if not isinstance(numbers, range):
            numbers = tuple(int(n) for n in _as_range(numbers, i))
        elif numbers.step < 0:
            numbers = numbers[::-1]  # the same numbers, counting upwards
        if not every_number:
            problem = start_problem(book, numbers, i)
            if problem is not None:
                raise DuelError(problem)
        axes.append(numbers)
        histograms.append(grundy_histogram(book, numbers, i))
    return BoxCount(tuple(books), tuple(axes), tuple(xor_distribution(histograms)))
