"""Pattern tools: test a guess about who wins against the table, and check simple structures.

Everything here is a pure function of a variant's table (:func:`~duel_lessons.solving.tables.tabulate`)
for n = 1..N.  Nothing is claimed beyond N: a pattern "holds up to N", or fails
with its first counterexample.

Test a student's guess (a function n -> True when they think n is a P-position):

>>> check_conjecture("divisor-duel", lambda n: n % 2 == 1, 100)
Guess about P/N for Divisor Duel: fails at n = 2: the table says P, the guess says N.

Check structures: eventual periodicity, and whether P/N is a function of the
parity, v2(n), the odd part, Ω(n) or n mod k:

>>> report = check_patterns("divisor-duel", 100, structures=["parity"])
>>> print(report.findings[0])
P/N is not a function of the parity of n: 2 and 4 are both even, but 2 is P and 4 is N.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Literal

import numpy as np

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.numbers import whole_number
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.solving.tables import tabulate

#: Largest N the pattern checks accept (a table of 10**6 takes a few seconds).
MAX_UPTO = 10**6
#: The structures :func:`check_patterns` knows, by key, with the words used in reports.
STRUCTURES: dict[str, str] = {
    "period": "eventual periodicity",
    "parity": "the parity of n",
    "v2": "v2(n), the number of times 2 divides n",
    "odd_part": "the odd part of n",
    "omega": "Ω(n), the number of prime factors of n counted with repeats",
    "mod": "n mod k",
}
#: The sequences that can be checked: P/N (outcome) and the Grundy value.
Sequence_ = Literal["P/N", "Grundy"]
SEQUENCES: tuple[Sequence_, ...] = ("P/N", "Grundy")


class PatternError(DuelError):
    """A pattern check asked for with bad arguments (range, structure or sequence)."""


def _upto(upto: object) -> int:
    number = whole_number(upto, "N", PatternError)
    if not 1 <= number <= MAX_UPTO:
        raise PatternError(f"N must be between 1 and {MAX_UPTO:,}, not {number:,}.")
    return number


# -- number-theoretic features (numpy, for n = 1..N) ------------------------------------------------


def big_omega(upto: int) -> np.ndarray:
    """Ω(n) for n = 0..upto (Ω(0) = Ω(1) = 0): prime factors counted with repeats, by a sieve.

    >>> big_omega(12)[1:].tolist()
    [0, 1, 1, 2, 1, 2, 1, 3, 2, 2, 1, 3]
    """
    omega = np.zeros(upto + 1, dtype=np.int64)
    is_prime = np.ones(upto + 1, dtype=bool)
    is_prime[:2] = False
    for p in range(2, int(upto**0.5) + 1):
        if is_prime[p]:
            is_prime[p * p :: p] = False
    for p in np.flatnonzero(is_prime).tolist():
        power = p
        while power <= upto:
            omega[power::power] += 1
            power *= p
    return omega


def two_adic(upto: int) -> np.ndarray:
    """v2(n), the exponent of 2 in n, for n = 0..upto (v2(0) set to 0).

    >>> two_adic(12)[1:].tolist()
    [0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2]
    """
    n = np.arange(upto + 1, dtype=np.int64)
    n[0] = 1
    lowest = n & -n  # the largest power of 2 dividing n
    exponents: np.ndarray = np.round(np.log2(lowest)).astype(np.int64)
    return exponents


def features(upto: int, max_mod: int = 12, which: Iterable[str] | None = None) -> dict[str, tuple[str, np.ndarray]]:
    """Feature arrays X(n) for n = 1..upto (index 0 is n = 1), by name: (words for reports, values).

    Keys: "parity", "v2", "odd_part", "omega" and "mod k" for k = 3..max_mod
    (only those named in ``which``, if given; "mod" means all the "mod k").

    >>> features(6)["parity"][1].tolist()
    [1, 0, 1, 0, 1, 0]
    """
    wanted = set(STRUCTURES) if which is None else set(which)
    n = np.arange(1, upto + 1, dtype=np.int64)
    found: dict[str, tuple[str, np.ndarray]] = {}
    if "parity" in wanted:
        found["parity"] = ("the parity of n", n % 2)
    if wanted & {"v2", "odd_part"}:
        v2 = two_adic(upto)[1:]
        found["v2"] = ("v2(n)", v2)
        found["odd_part"] = ("the odd part of n", n >> v2)
    if "omega" in wanted:
        found["omega"] = ("Ω(n)", big_omega(upto)[1:])
    if "mod" in wanted:
        for k in range(3, max_mod + 1):
            found[f"mod {k}"] = (f"n mod {k}", n % k)
    return found


# -- structures on a sequence -------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    """``values[n] == values[n + period]`` for every n >= ``start`` (both n and n + period up to ``upto``)."""

    period: int
    start: int
    upto: int

    @property
    def confirmed(self) -> float:
        """How many whole periods lie in start..upto."""
        return (self.upto - self.start + 1) / self.period


def _last_mismatch(values: np.ndarray, p: int, lo: int, hi: int) -> int | None:
    """The largest index i in [lo, hi] with values[i] != values[i + p], scanning back in growing blocks."""
    block = 64
    end = hi + 1
    while end > lo:
        begin = max(lo, end - block)
        bad = np.flatnonzero(values[begin:end] != values[begin + p : end + p])
        if len(bad):
            return begin + int(bad[-1])
        end = begin
        block *= 4
    return None


def find_period(
    values: Sequence[int] | np.ndarray, min_periods: int = 3, first: int = 1, min_fraction: float = 0.5
) -> Period | None:
    """The smallest period p, and for it the earliest start, such that the sequence repeats with period p
    from that start to its end; None if no p qualifies.

    A period counts only if the repeating part holds at least ``min_periods``
    whole periods and at least ``min_fraction`` of the sequence (so a short run
    at the end is not taken for a pattern).  ``values[0]`` is the term for
    n = ``first``; the start is reported as an n.

    >>> find_period([5, 1, 2, 1, 2, 1, 2, 1, 2])
    Period(period=2, start=2, upto=9)
    >>> find_period([1, 2, 3, 4, 5, 6, 7, 7, 7]) is None
    True
    """
    if min_periods < 2:
        raise PatternError(f"min_periods must be at least 2, not {min_periods}.")
    if not 0 <= min_fraction <= 1:
        raise PatternError(f"min_fraction must be between 0 and 1, not {min_fraction}.")
    a = np.asarray(values)
    size = len(a)
    least = int(np.ceil(min_fraction * size))
    quick = 64  # the last `quick` pairs of each window are compared for all p at once
    chunk = 2048
    offsets = np.arange(quick)
    for low in range(1, size // min_periods + 1, chunk):
        ps = np.arange(low, min(low + chunk, size // min_periods + 1))
        needed = np.maximum(min_periods * ps, least)  # the repeating tail must be this long
        ends = size - 1 - ps  # the last i with i + p inside the sequence
        index = np.maximum(ends[:, None] - offsets[None, :], 0)
        clash = (a[index] != a[index + ps[:, None]]) & (ends[:, None] - offsets[None, :] >= size - needed[:, None])
        for p, tail in zip(ps[~clash.any(axis=1)].tolist(), needed[~clash.any(axis=1)].tolist(), strict=True):
            window_lo = size - tail
            if _last_mismatch(a, p, window_lo, size - 1 - p) is not None:
                continue
            last = _last_mismatch(a, p, 0, window_lo - 1) if window_lo > 0 else None
            start = 0 if last is None else last + 1
            return Period(period=p, start=start + first, upto=size - 1 + first)
    return None


def first_clash(values: np.ndarray, feature: np.ndarray, first: int = 1) -> tuple[int, int] | None:
    """The first pair (m, n), m < n, with feature(m) == feature(n) but values differ; None if values are a
    function of the feature.  "First" means smallest n; m is then the first number with that feature value.

    >>> first_clash(np.array([0, 0, 0, 1]), np.array([1, 0, 1, 0]))
    (2, 4)
    """
    feature = np.asarray(feature)
    if not len(feature):
        return None
    if feature.dtype.kind in "iu" and feature.min() >= 0 and feature.max() <= 4 * len(feature):
        first_index = np.full(int(feature.max()) + 1, len(feature), dtype=np.int64)
        np.minimum.at(first_index, feature, np.arange(len(feature)))  # O(N): no sort for small whole numbers
        earliest = first_index[feature]
    else:
        _, first_index, inverse = np.unique(feature, return_index=True, return_inverse=True)
        earliest = first_index[inverse.reshape(-1)]
    bad = np.flatnonzero(values != values[earliest])
    if not len(bad):
        return None
    n = int(bad[0])
    return int(earliest[n]) + first, n + first


# -- reports -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One structure checked on one sequence: whether it holds up to N, and the evidence in words."""

    structure: str
    sequence: str
    holds: bool
    detail: str
    period: Period | None = None
    clash: tuple[int, int] | None = None

    def __str__(self) -> str:
        return self.detail


@dataclass(frozen=True)
class PatternReport:
    """What holds for n = 1..N in a variant, and the first counterexample of what fails.

    Shows itself as text (``print``), Markdown and HTML in a notebook.
    """

    title: str
    upto: int
    findings: tuple[Finding, ...]
    notes: tuple[str, ...] = ()
    seconds: float = field(default=0.0, compare=False)

    def holding(self) -> list[Finding]:
        return [f for f in self.findings if f.holds]

    def failing(self) -> list[Finding]:
        return [f for f in self.findings if not f.holds]

    def _sections(self) -> list[tuple[str, list[str]]]:
        return [
            (
                f"Holds for n = 1..{self.upto:,}",
                [f.detail for f in self.holding()] or ["None of the patterns checked."],
            ),
            ("Fails (first counterexample)", [f.detail for f in self.failing()] or ["None of the patterns checked."]),
        ] + ([("Notes", list(self.notes))] if self.notes else [])

    def __str__(self) -> str:
        lines = [f"Patterns in {self.title}, n = 1..{self.upto:,}"]
        for head, items in self._sections():
            lines += ["", head + ":"] + [f"  - {item}" for item in items]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"<PatternReport {self.title!r} n=1..{self.upto}: {len(self.holding())} hold, {len(self.failing())} fail>"
        )

    def _repr_markdown_(self) -> str:
        parts = [f"**Patterns in {self.title}, n = 1..{self.upto:,}**"]
        for head, items in self._sections():
            parts.append(f"*{head}:*\n\n" + "\n".join(f"- {item}" for item in items))
        return "\n\n".join(parts)

    def _repr_html_(self) -> str:
        parts = [f"<p><b>Patterns in {escape(self.title)}, n = 1..{self.upto:,}</b></p>"]
        for head, items in self._sections():
            rows = "".join(f"<li>{escape(item)}</li>" for item in items)
            parts.append(f"<p><i>{escape(head)}:</i></p><ul>{rows}</ul>")
        return "<div class='duel-patterns'>" + "".join(parts) + "</div>"


def _value_words(sequence: str, value: int) -> str:
    """ "is P" / "has Grundy value 2": what a number's value is, in words."""
    if sequence == "P/N":
        return "is P" if value == 0 else "is N"
    return f"has Grundy value {value}"


def _period_finding(sequence: str, values: np.ndarray, upto: int, min_periods: int) -> Finding:
    period = find_period(values, min_periods)
    name = "eventual periodicity"
    if period is None:
        detail = (
            f"{sequence} does not repeat with any period p up to {upto // min_periods:,} over the second half "
            f"of n = 1..{upto:,} (with at least {min_periods} whole periods)."
        )
        return Finding(name, sequence, False, detail)
    after = "from the start" if period.start == 1 else f"from n = {period.start:,} on"
    detail = (
        f"{sequence} repeats with period {period.period} {after} "
        f"({int(period.confirmed):,} whole periods seen up to {upto:,})."
    )
    return Finding(name, sequence, True, detail, period=period)


def _clash_finding(sequence: str, values: np.ndarray, key: str, words: str, feature: np.ndarray) -> Finding:
    clash = first_clash(values, feature)
    name = f"function of {words}"
    if clash is None:
        return Finding(name, sequence, True, f"{sequence} is a function of {words}.")
    m, n = clash
    x = int(feature[m - 1])
    same = {"parity": "are both odd" if x == 1 else "are both even"}.get(key, f"both have {words} = {x}")
    detail = (
        f"{sequence} is not a function of {words}: {m} and {n} {same}, "
        f"but {m} {_value_words(sequence, int(values[m - 1]))} "
        f"and {n} {_value_words(sequence, int(values[n - 1]))}."
    )
    return Finding(name, sequence, False, detail, clash=clash)


def check_patterns(
    rules: Rules | str,
    upto: int = 1000,
    *,
    structures: Iterable[str] = tuple(STRUCTURES),
    sequences: Iterable[str] = SEQUENCES,
    min_periods: int = 3,
    max_mod: int = 12,
) -> PatternReport:
    """Check each structure on P/N and on the Grundy values of n = 1..upto; see :data:`STRUCTURES`.

    "mod" checks n mod k for k = 3..max_mod (parity is n mod 2).  Grundy values
    exist only in normal play; for other variants the Grundy checks are skipped
    with a note.
    """
    began = time.perf_counter()
    book = get_rules(rules)
    last = _upto(upto)
    chosen = list(structures)
    unknown = [s for s in chosen if s not in STRUCTURES]
    if unknown:
        raise PatternError(f"Unknown structure(s) {', '.join(map(repr, unknown))}. Known: {', '.join(STRUCTURES)}.")
    wanted = list(sequences)
    if bad := [s for s in wanted if s not in SEQUENCES]:
        raise PatternError(f"Unknown sequence(s) {', '.join(map(repr, bad))}. Known: {', '.join(SEQUENCES)}.")
    if not 2 <= max_mod <= 1000:
        raise PatternError(f"max_mod must be between 2 and 1000, not {max_mod}.")
    table = tabulate(book, last)
    data: dict[str, np.ndarray] = {}
    notes: list[str] = []
    if "P/N" in wanted:
        data["P/N"] = np.asarray(table.outcome[1 : last + 1])
    if "Grundy" in wanted:
        grundy = np.asarray(table.grundy[1 : last + 1])
        if (grundy < 0).any():
            notes.append(
                f"{book.title} is misère: the package computes no Grundy values there (they do not decide "
                "misère sums), so they were not checked."
            )
        else:
            data["Grundy"] = grundy
    found = features(last, max_mod, chosen)
    findings: list[Finding] = []
    for sequence, values in data.items():
        for structure in chosen:
            if structure == "period":
                findings.append(_period_finding(sequence, values, last, min_periods))
            elif structure == "mod":
                for k in range(3, max_mod + 1):
                    words, feature = found[f"mod {k}"]
                    findings.append(_clash_finding(sequence, values, f"mod {k}", words, feature))
            else:
                words, feature = found[structure]
                findings.append(_clash_finding(sequence, values, structure, words, feature))
    return PatternReport(book.title, last, tuple(findings), tuple(notes), time.perf_counter() - began)


# -- a student's conjecture ---------------------------------------------------------------------


@dataclass(frozen=True)
class ConjectureReport:
    """The result of testing a guess on n = 1..N: holds, its first counterexample, or the n where it broke."""

    title: str
    sequence: str
    upto: int
    checked: int
    counterexample: tuple[int, object, object] | None = None
    error: str | None = None

    @property
    def holds(self) -> bool:
        """True when the guess agrees with the table for every n checked and all of 1..N was checked."""
        return self.counterexample is None and self.error is None and self.checked == self.upto

    def __str__(self) -> str:
        head = f"Guess about {self.sequence} for {self.title}: "
        if self.error is not None:
            return head + self.error
        if self.counterexample is not None:
            n, expected, got = self.counterexample
            return head + f"fails at n = {n}: the table says {expected}, the guess says {got}."
        return head + f"holds up to {self.upto:,}."

    __repr__ = __str__

    def _repr_markdown_(self) -> str:
        return f"**{'Holds' if self.holds else 'Does not hold'}.** " + escape(str(self))

    def _repr_html_(self) -> str:
        colour = "#009E73" if self.holds else "#D55E00"  # Okabe-Ito green / vermillion
        verdict = "Holds" if self.holds else "Does not hold"
        return f"<p><b style='color:{colour}'>{verdict}.</b> {escape(str(self))}</p>"


def _as_outcome(answer: object) -> str | None:
    """The guess's answer as "P"/"N": True or "P" means P; False or "N" means N; else None."""
    if isinstance(answer, (bool, np.bool_)):
        return "P" if answer else "N"
    if isinstance(answer, str) and answer.strip().upper() in ("P", "N"):
        return answer.strip().upper()
    return None


def check_conjecture(
    rules: Rules | str,
    conjecture: Callable[[int], object],
    upto: int = 1000,
    *,
    sequence: str = "P/N",
    time_limit: float = 10.0,
) -> ConjectureReport:
    """Test ``conjecture`` on n = 1..upto against the table; the first disagreement is the counterexample.

    For ``sequence="P/N"`` the guess returns True (or "P") when it thinks n is a
    P-position, False (or "N") otherwise; for ``"Grundy"`` it returns the
    Grundy value.  The guess is a Python function (never text to evaluate); an
    exception it raises, or an answer of the wrong kind, is reported with the n
    that caused it.  After ``time_limit`` seconds the check stops and says how
    far it got (one call that never returns cannot be stopped: interrupt the kernel).
    """
    book = get_rules(rules)
    last = _upto(upto)
    if not callable(conjecture):
        raise PatternError(f"The guess must be a function of n (def guess(n): ...), not {conjecture!r}.")
    if sequence not in SEQUENCES:
        raise PatternError(f"sequence must be one of {', '.join(SEQUENCES)}, not {sequence!r}.")
    table = tabulate(book, last)
    if sequence == "Grundy" and (np.asarray(table.grundy[1 : last + 1]) < 0).any():
        raise PatternError(
            f"{book.title} is misère: the package computes no Grundy values there; test a P/N guess instead."
        )
    outcome = table.outcome.tolist()
    grundy = table.grundy.tolist()
    report = ConjectureReport
    deadline = time.perf_counter() + time_limit
    for n in range(1, last + 1):
        try:
            answer = conjecture(n)
        except Exception as error:  # the student's code: report, never crash
            return report(book.title, sequence, last, n - 1, error=f"the guess raised {type(error).__name__}: "
                          f"{error} at n = {n}.")  # fmt: skip
        if sequence == "P/N":
            got: object = _as_outcome(answer)
            if got is None:
                return report(book.title, sequence, last, n - 1, error=f"the guess returned {answer!r} at n = {n}: "
                              "return True for a P-position and False for an N-position.")  # fmt: skip
            expected: object = "P" if outcome[n] == 0 else "N"
        else:
            if isinstance(answer, bool) or not isinstance(answer, (int, np.integer)):
                return report(book.title, sequence, last, n - 1, error=f"the guess returned {answer!r} at n = {n}: "
                              "return a whole number (the Grundy value).")  # fmt: skip
            got, expected = int(answer), grundy[n]
        if got != expected:
            return report(book.title, sequence, last, n, counterexample=(n, expected, got))
        if time.perf_counter() > deadline:
            unchecked = f"n = {n + 1:,}..{last:,} were not checked"
            return report(book.title, sequence, last, n, error=f"stopped after {time_limit:g} s: the guess agrees "
                          f"with the table for n = 1..{n:,}, but {unchecked}.")  # fmt: skip
    return report(book.title, sequence, last, last)


__all__ = [
    "MAX_UPTO",
    "SEQUENCES",
    "STRUCTURES",
    "ConjectureReport",
    "Finding",
    "PatternError",
    "PatternReport",
    "Period",
    "big_omega",
    "check_conjecture",
    "check_patterns",
    "features",
    "find_period",
    "first_clash",
    "two_adic",
]
