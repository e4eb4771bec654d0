"""Tables of who wins from where: outcome, Sprague–Grundy value and remoteness.

>>> t = tabulate("divisor-duel", 20)
>>> t.p_positions()
[1, 2, 3, 5, 7, 8, 9, 11, 13, 15, 17, 19]
>>> t.winning_moves(12)
(3, 4)

How the table is filled (the same game as :mod:`duel_lessons.engine.game`):

* A number whose *reaching* ends the game is settled at once: if the player
  who moved there wins it is P (grundy 0); if they lose it is N.  We give such
  a losing-to-reach number grundy 1 and remoteness 1, as if the player to move
  had one move that ends the game (a modelling choice: the move graph itself has
  no edge; it keeps remoteness odd at every N-position of a normal-play game).
* A number with no legal move is P in normal play (the last mover wins) and N
  in misère play.  Passing when stuck changes nothing (after two passes the
  last mover still wins), so ``when_stuck`` is ignored.
* Otherwise n is N exactly when some move leads to a P-position.  Every move
  makes the number smaller, so one pass over n = 1, 2, 3, ... fills the table.

Remoteness is the number of moves left under best play: the winner hurries
(1 + the least remoteness of a P-child), the loser delays (1 + the largest
remoteness of any child).  The inner loop is compiled by numba (see
:mod:`duel_lessons.solving.kernel`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html import escape
from typing import Any, Literal

import numpy as np

from duel_lessons.engine.rules import DuelError, Game, Rules, get_rules, whole_number
from duel_lessons.solving import kernel as _kernel
from duel_lessons.solving import retrograde as _retrograde

# Re-exported for lessons: whether the kernel is compiled (numba).
# (``COMPILED`` is worked out on first use, by __getattr__ below: importing numba takes half a second.)
from duel_lessons.solving.kernel import compiled as compiled

#: The largest N a table may have (a 10**7 table takes about 130 MB while it is built).
TABLE_LIMIT: int = 10**7

_FAMILY = {"all": _kernel.ALL, "even": _kernel.EVEN, "odd": _kernel.ODD, "prime": _kernel.PRIME}
_TARGET = {"none": _kernel.NONE, "prime": _kernel.PRIME_NUMBER, "one": _kernel.ONE}
_CHUNK = 100_000  # numbers per kernel call between progress reports
_BATCH = 10_000  # numbers per kernel call when listing winning moves
_FOUND = 32 * _kernel.DIVISOR_BUFFER  # room for winning moves per kernel call (at least DIVISOR_BUFFER)
_FEW = 500  # shorter ranges list winning moves with sympy instead of the kernel
#: Without numba, tables that grow by at least this many numbers are solved in numpy (solving.retrograde);
#: shorter extensions run the kernel's loop as plain Python, which is as quick for them.
_VECTOR_FROM = 4096
#: Without numba, the largest table solved in numpy: its list of moves takes about 60 bytes a number
#: (13 moves a number at 10**6), so larger ones run the kernel's loop as plain Python (slow, but small).
VECTOR_LIMIT: int = 2 * 10**6


def lesson_size(size: int, plain: int, what: str = "N") -> int:
    """``size``, unless the kernel is not compiled and ``size`` is above :data:`VECTOR_LIMIT`; then the larger
    of ``plain`` and VECTOR_LIMIT, with a printed note saying so.

    Kept for notebooks that call it (``N = lesson_size(10**6, 10**5)``).  Lessons used to shrink
    their sizes here without numba; the numpy solver now runs every lesson at full size (a Divisor
    Duel table to 10**6 in about 3 s), so only a size numpy cannot take is scaled down: above
    VECTOR_LIMIT the kernel's loop would run as plain Python, minutes for 10**7.

    >>> lesson_size(10**6, 10**5)   # numba or not: the full size
    1000000
    """
    if size <= VECTOR_LIMIT or plain >= size or _kernel.compiled():
        return size
    smaller = max(plain, VECTOR_LIMIT)
    print(
        f"Note: the solver is not compiled here (numba is not available), so {what} = {smaller:,} "
        f"instead of {size:,} to keep this lesson quick. The results hold the same way; only fewer numbers are checked."
    )
    return smaller


class TableTooLargeError(DuelError):
    """A table larger than :data:`TABLE_LIMIT` was asked for."""


# -- caches -------------------------------------------------------------------

#: When a cached table must grow, it grows to at least GROWTH times its old length, so asking for
#: n = 1, 2, 3, ..., N costs about as much as one table of N (not N tables: quadratic).
GROWTH: float = 2.0
#: The cache keeps tables up to this many bytes in all (9 bytes per number: about 45 tables of 10**6,
#: or four of 10**7), dropping the least recently used first; change it with :func:`set_cache_limit`.
#: The sieve shared by all tables (4 bytes per number, at most 40 MB) is kept apart from this.
DEFAULT_CACHE_BYTES: int = 400 * 2**20

_lock = threading.RLock()  # re-entrant: a progress callback may ask for another table
_sieve_cache: np.ndarray = np.zeros(0, np.int32)
# game -> (outcome, grundy, remoteness), the largest table computed so far; least recently used first.
_table_cache: dict[Game, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
_cache_limit: int = DEFAULT_CACHE_BYTES


@dataclass(frozen=True)
class CacheInfo:
    """What the table cache holds: how many tables, their bytes, and the limit."""

    tables: int
    bytes: int
    limit: int


def clear_cache() -> None:
    """Forget every table and sieve computed so far (e.g. to time a fresh run)."""
    global _sieve_cache
    with _lock:
        _table_cache.clear()
        _sieve_cache = np.zeros(0, np.int32)


def cache_info() -> CacheInfo:
    """How many tables the cache holds, and their bytes.

    >>> cache_info().limit == DEFAULT_CACHE_BYTES
    True
    """
    with _lock:
        used = sum(a.nbytes for arrays in _table_cache.values() for a in arrays)
        return CacheInfo(len(_table_cache), used, _cache_limit)


def set_cache_limit(nbytes: int) -> None:
    """Keep at most ``nbytes`` of tables in the cache (the most recently used table is always kept)."""
    global _cache_limit
    limit = whole_number(nbytes, "The cache limit")
    if limit < 0:
        raise DuelError(f"The cache limit must be a number of bytes, at least 0, not {limit}.")
    with _lock:
        _cache_limit = limit
        _evict()


def _evict() -> None:
    """Drop the least recently used tables until the cache fits its limit (keeping the newest)."""
    used = sum(a.nbytes for arrays in _table_cache.values() for a in arrays)
    while used > _cache_limit and len(_table_cache) > 1:
        oldest = next(iter(_table_cache))
        used -= sum(a.nbytes for a in _table_cache.pop(oldest))


def _smallest_prime_factors(upto: int) -> np.ndarray:
    """spf[n] for n <= upto, sliced from the largest sieve made so far."""
    global _sieve_cache
    if len(_sieve_cache) <= upto:
        _sieve_cache = _kernel.sieve(upto)
        _sieve_cache.flags.writeable = False
    return _sieve_cache[: upto + 1]


def _codes(rules: Rules) -> tuple[int, int, int, int, int]:
    """move, family, allow_one, win_target, lose_target as the kernel's int codes."""
    move = _kernel.SUBTRACT if rules.move == "subtract" else _kernel.DIVIDE
    return (
        move,
        _FAMILY[rules.divisors],
        int(rules.allow_one),
        _TARGET[rules.win_on_reaching],
        _TARGET[rules.lose_on_reaching],
    )


def _check_upto(upto: object) -> int:
    n = upto if type(upto) is int else whole_number(upto, "upto")  # plain ints skip the slow Protocol check
    if n < 1:
        raise DuelError(f"upto must be a whole number of at least 1, not {n}.")
    if n > TABLE_LIMIT:
        raise TableTooLargeError(
            f"A table up to N = {n:,} is too large: the limit is TABLE_LIMIT = {TABLE_LIMIT:,} "
            f"numbers. For bigger numbers use a closed form (a proved pattern of P-positions) "
            f"or play single positions with the game engine."
        )
    return int(n)


# -- tabulate -----------------------------------------------------------------


def tabulate(rules: Rules | str, upto: int, progress: Callable[[float], None] | None = None) -> Table:
    """The table of outcomes, Grundy values and remoteness for n = 1 .. upto.

    ``rules`` is a Rules value or a rule book name.  Results are cached per game
    (``rules.game``: a renamed copy of a book shares its tables): a smaller table is a slice of a larger one, and a
    larger one continues from where the last one stopped, growing to at least
    :data:`GROWTH` times the old length.  The cache is bounded in bytes (see
    :data:`DEFAULT_CACHE_BYTES`).  ``progress`` is called with the fraction done
    (ending with 1.0).
    """
    rules = get_rules(rules)
    upto = _check_upto(upto)
    key = rules.game
    with _lock:
        cached = _table_cache.pop(key, None)
        if cached is None or len(cached[0]) <= upto:
            size = upto
            if cached is not None:  # grow geometrically: see GROWTH
                size = min(max(upto, int(GROWTH * (len(cached[0]) - 1))), TABLE_LIMIT)
            cached = _extend(rules, cached, size, progress)
            _table_cache[key] = cached
            _evict()
        else:
            _table_cache[key] = cached  # now the most recently used
            if progress is not None:
                progress(1.0)
    outcome, grundy, remoteness = (a[: upto + 1] for a in cached)
    return Table(rules, upto, outcome, grundy, remoteness)


def _extend(
    rules: Rules,
    old: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
    upto: int,
    progress: Callable[[float], None] | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Arrays for 0 .. upto, copying what ``old`` already holds and computing the rest."""
    outcome = np.full(upto + 1, -1, np.int8)
    grundy = np.full(upto + 1, -1, np.int32)
    remoteness = np.full(upto + 1, -1, np.int32)
    start = 1
    if old is not None:
        start = len(old[0])
        outcome[:start], grundy[:start], remoteness[:start] = old
    spf = _smallest_prime_factors(upto)
    work = np.zeros(_kernel.WORK_SIZE, np.int64)
    move, family, allow_one, win, lose = _codes(rules)
    lo = start
    if upto + 1 - start >= _VECTOR_FROM and upto <= VECTOR_LIMIT and not _kernel.compiled():
        _retrograde.solve(
            lo, upto + 1, move, family, allow_one, win, lose, int(rules.last_mover_wins),
            spf, outcome, grundy, remoteness, progress,
        )  # fmt: skip
        lo = upto + 1
        if progress is not None:
            progress(1.0)
    while lo <= upto:
        hi = min(lo + _CHUNK, upto + 1)
        _kernel.solve(
            lo, hi, move, family, allow_one, win, lose, int(rules.last_mover_wins),
            spf, outcome, grundy, remoteness, work,
        )  # fmt: skip
        lo = hi
        if progress is not None:
            progress((lo - start) / (upto + 1 - start) if lo <= upto else 1.0)
    if progress is not None and start > upto:
        progress(1.0)
    if not rules.last_mover_wins:
        # Misère Grundy values exist but do not decide misère sums, so none are kept.  (When a misère table is
        # extended, the kernel reads these -1s as children's values: harmless,
        # because the grundy it computes is thrown away here.)
        grundy[:] = -1
    grundy[0] = remoteness[0] = outcome[0] = -1
    for array in (outcome, grundy, remoteness):
        array.flags.writeable = False
    return outcome, grundy, remoteness


# -- the table ------------------------------------------------------------------


@dataclass(frozen=True, eq=False, repr=False)
class Table:
    """Outcome (0 = P, 1 = N), Grundy value and remoteness for n = 1 .. upto.

    The arrays are read-only and indexed by n; index 0 is unused (-1).  Ranges
    ``lo, hi`` in the methods below include both ends; ``hi=None`` means upto.
    """

    rules: Rules
    upto: int
    outcome: np.ndarray
    grundy: np.ndarray
    remoteness: np.ndarray

    def __len__(self) -> int:
        return self.upto

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickling (and copying) gives read-only arrays too."""
        for name, value in state.items():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"<Table {self.rules.name!r} n=1..{self.upto}, {self.count_p()} P-positions>"

    # -- single numbers -------------------------------------------------------

    def _check_n(self, n: object) -> int:
        value = whole_number(n, "n")
        if not 1 <= value <= self.upto:
            raise DuelError(f"n = {value} is outside this table, which covers 1 .. {self.upto}.")
        return value

    def is_p(self, n: int) -> bool:
        """Whether the player to move from n loses under best play."""
        return bool(self.outcome[self._check_n(n)] == 0)

    def outcome_of(self, n: int) -> Literal["P", "N"]:
        """'P' (the player to move loses) or 'N' (the player to move wins)."""
        return "P" if self.is_p(n) else "N"

    def winning_moves(self, n: int) -> tuple[int, ...]:
        """The legal divisors from n that leave a P-position (empty at P and game-over numbers)."""
        n = self._check_n(n)
        if self.outcome[n] == 0 or self.rules.ends_on_reaching(n) is not None:
            return ()
        return tuple(d for d in self.rules.divisors_of(n) if self.outcome[self.rules.result(n, d)] == 0)

    def p_positions(self) -> list[int]:
        """Every n with outcome P, smallest first."""
        return [int(n) for n in np.flatnonzero(self.outcome == 0)]

    def count_p(self) -> int:
        """How many P-positions the table has."""
        return int(np.count_nonzero(self.outcome == 0))

    # -- rows -----------------------------------------------------------------

    def _range(self, lo: int, hi: int | None) -> tuple[int, int]:
        lo = self._check_n(lo)
        hi = self.upto if hi is None else self._check_n(hi)
        if hi < lo:
            raise DuelError(f"The range {lo} .. {hi} is empty: lo must not be larger than hi.")
        return lo, hi

    def _moves_batches(self, lo: int, hi: int) -> Iterator[list[int]]:
        """Winning moves of each n in lo .. hi, computed in compiled batches."""
        if hi - lo < _FEW:  # few numbers: sympy is quicker than compiling the kernel
            for n in range(lo, hi + 1):
                yield list(self.winning_moves(n))
            return
        with _lock:
            spf = _smallest_prime_factors(hi)
        divisors = np.zeros(_kernel.DIVISOR_BUFFER, np.int64)
        starts = np.zeros(_BATCH + 1, np.int64)
        found = np.zeros(_FOUND, np.int64)
        n = lo
        while n <= hi:
            stop = _kernel.winning_moves(
                n, min(n + _BATCH, hi + 1), *_codes(self.rules), spf, self.outcome, divisors, starts, found
            )
            bounds = starts[: stop - n + 1].tolist()
            flat = found[: bounds[-1]].tolist()
            for i in range(stop - n):
                yield flat[bounds[i] : bounds[i + 1]]
            n = stop

    def rows(self, lo: int = 1, hi: int | None = None) -> Iterator[dict[str, Any]]:
        """One dict per n in lo .. hi: n, outcome, grundy, remoteness, winning_moves."""
        lo, hi = self._range(lo, hi)
        outcome = self.outcome[lo : hi + 1].tolist()
        grundy = self.grundy[lo : hi + 1].tolist()
        remoteness = self.remoteness[lo : hi + 1].tolist()
        for i, moves in enumerate(self._moves_batches(lo, hi)):
            yield {
                "n": lo + i,
                "outcome": "P" if outcome[i] == 0 else "N",
                "grundy": grundy[i],
                "remoteness": remoteness[i],
                "winning_moves": moves,
            }

    def row(self, n: int) -> dict[str, Any]:
        """The row of one number: n, outcome, grundy, remoteness, winning_moves."""
        n = self._check_n(n)
        return {
            "n": n,
            "outcome": self.outcome_of(n),
            "grundy": int(self.grundy[n]),
            "remoteness": int(self.remoteness[n]),
            "winning_moves": list(self.winning_moves(n)),
        }

    # -- export ---------------------------------------------------------------

    def to_numpy(self) -> dict[str, np.ndarray]:
        """Columns for n = 1 .. upto as numpy arrays (outcome as int8, 0 = P)."""
        return {
            "n": np.arange(1, self.upto + 1, dtype=np.int64),
            "outcome": self.outcome[1:],
            "grundy": self.grundy[1:],
            "remoteness": self.remoteness[1:],
        }

    def to_records(self, lo: int = 1, hi: int | None = None) -> list[dict[str, Any]]:
        """The rows as a list of dicts (plain Python values)."""
        return list(self.rows(lo, hi))

    def to_dict(self, lo: int = 1, hi: int | None = None) -> dict[str, list[Any]]:
        """The rows as columns: a dict of plain Python lists."""
        columns: dict[str, list[Any]] = {k: [] for k in ("n", "outcome", "grundy", "remoteness", "winning_moves")}
        for row in self.rows(lo, hi):
            for key, value in row.items():
                columns[key].append(value)
        return columns

    def to_csv(self, lo: int = 1, hi: int | None = None) -> str:
        """CSV text with header ``n,outcome,grundy,remoteness,winning_moves`` (moves space separated)."""
        lines = ["n,outcome,grundy,remoteness,winning_moves"]
        for r in self.rows(lo, hi):
            moves = " ".join(map(str, r["winning_moves"]))
            lines.append(f"{r['n']},{r['outcome']},{r['grundy']},{r['remoteness']},{moves}")
        return "\n".join(lines) + "\n"

    def to_json(self, lo: int = 1, hi: int | None = None) -> str:
        """JSON text: a list of row objects."""
        return json.dumps(self.to_records(lo, hi))

    def to_text(self, lo: int = 1, hi: int | None = None) -> str:
        """An aligned plain-text table; a Grundy value the package does not give (misère play) shows as ``-``.

        >>> from duel_lessons.engine.rules import DIVISOR_DUEL
        >>> print(tabulate(DIVISOR_DUEL.variant(last_mover_wins=False), 6).to_text(4, 6), end="")
        n  outcome  grundy  remoteness  winning moves
        4        P       -           1
        5        N       -           0
        6        N       -           2  2
        """
        header = ("n", "outcome", "grundy", "remoteness", "winning moves")
        body = [
            (str(r["n"]), r["outcome"], grundy_text(r["grundy"]), str(r["remoteness"]),
             " ".join(map(str, r["winning_moves"])))
            for r in self.rows(lo, hi)
        ]  # fmt: skip
        widths = [max(len(line[i]) for line in [header, *body]) for i in range(4)]
        lines = ["  ".join(cell.rjust(w) for cell, w in zip(line[:4], widths, strict=True)) + "  " + line[4]
                 for line in [header, *body]]  # fmt: skip
        return "\n".join(line.rstrip() for line in lines) + "\n"

    def _repr_html_(self) -> str:
        shown = min(self.upto, 20)
        count = self.count_p()
        first_p = np.flatnonzero(self.outcome == 0)[:15].tolist()
        more = ", …" if count > len(first_p) else ""
        summary = (
            f"<p><b>{escape(self.rules.title)}</b> ({escape(self.rules.name)}): n = 1 .. {self.upto:,}, "
            f"{count:,} P-positions: {', '.join(map(str, first_p))}{more}</p>"
        )
        head = "".join(f"<th>{h}</th>" for h in ("n", "outcome", "grundy", "remoteness", "winning moves"))
        body = "".join(
            "<tr>"
            + "".join(f"<td>{escape(cell)}</td>" for cell in (str(r["n"]), r["outcome"], grundy_text(r["grundy"]),
                                                              str(r["remoteness"])))
            + f"<td>{' '.join(map(str, r['winning_moves']))}</td></tr>"
            for r in self.rows(1, shown)
        )
        note = f"<p>First {shown} of {self.upto:,} rows.</p>" if shown < self.upto else ""
        return f"{summary}<table><tr>{head}</tr>{body}</table>{note}"


def grundy_text(value: int) -> str:
    """A Grundy value as a table shows it: ``-`` where there is none (kept as -1 in misère play)."""
    return "-" if value < 0 else str(value)


def __getattr__(name: str) -> bool:
    """``COMPILED``: whether the kernel is compiled by numba (:func:`compiled`), worked out on first use."""
    if name == "COMPILED":
        return compiled()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
