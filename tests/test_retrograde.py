"""The solver without numba (solving/retrograde.py) against a brute force, for every rule set the tests know.

The numpy solver is plain numpy, so it runs here whether numba is installed or not; ``tabulate`` uses it
for large tables only where numba is missing (simulated below by making ``compiled()`` say False).
"""

from __future__ import annotations

import numpy as np
import pytest

from duel_lessons import DIVISOR_DUEL, Rules, get_rules
from duel_lessons.solving import kernel, retrograde, tables
from duel_lessons.solving.tables import tabulate

from books import all_rules
from brute import Brute

VARIANTS: list[Rules] = all_rules()
IDS = [r.name for r in VARIANTS]
SMALL = 300


def empty(upto: int) -> list[np.ndarray]:
    return [np.full(upto + 1, -1, t) for t in (np.int8, np.int32, np.int32)]


def retro(rules: Rules, upto: int, known: list[np.ndarray] | None = None, lo: int = 1) -> list[np.ndarray]:
    """The numpy solver's arrays for 1 .. upto, continuing from ``known`` (filled below lo)."""
    arrays = empty(upto)
    if known is not None:
        for mine, theirs in zip(arrays, known, strict=True):
            mine[:lo] = theirs[:lo]
    codes = tables._codes(rules)
    retrograde.solve(lo, upto + 1, *codes, int(rules.last_mover_wins), kernel.sieve(upto), *arrays)
    return arrays


def expected(rules: Rules, upto: int) -> tuple[list[int], list[int], list[int]]:
    brute = Brute(rules)
    outcome = [1 if brute.wins(n) else 0 for n in range(1, upto + 1)]
    grundy = [brute.grundy(n) if rules.last_mover_wins else -1 for n in range(1, upto + 1)]
    return outcome, grundy, [brute.remoteness(n) for n in range(1, upto + 1)]


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_the_numpy_solver_matches_brute_force(rules: Rules) -> None:
    outcome, grundy, remoteness = retro(rules, SMALL)
    want_outcome, want_grundy, want_remoteness = expected(rules, SMALL)
    assert outcome[1:].tolist() == want_outcome
    assert remoteness[1:].tolist() == want_remoteness
    if rules.last_mover_wins:
        assert grundy[1:].tolist() == want_grundy


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_continuing_a_table_gives_the_same_numbers(rules: Rules) -> None:
    whole = retro(rules, SMALL)
    for lo in (2, 97, SMALL):
        part = retro(rules, SMALL, whole, lo)
        for mine, theirs in zip(part, whole, strict=True):
            assert mine[1:].tolist() == theirs[1:].tolist(), lo


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_long_chains_finished_in_order_of_n(rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    """_finish, forced after every second step and however many numbers a step decides."""
    monkeypatch.setattr(retrograde, "_WAVES", 1)
    monkeypatch.setattr(retrograde, "_FEW", 10**9)
    outcome, grundy, remoteness = retro(rules, SMALL)
    want_outcome, want_grundy, want_remoteness = expected(rules, SMALL)
    assert outcome[1:].tolist() == want_outcome and remoteness[1:].tolist() == want_remoteness
    if rules.last_mover_wins:
        assert grundy[1:].tolist() == want_grundy


@pytest.mark.parametrize("name", ["divisor-duel", "divisor-duel/divisors=prime", "factor-duel", "division-duel"])
def test_the_numpy_solver_matches_the_kernel_further_out(name: str) -> None:
    """Up to 20,000 (long chains of Grundy rounds with prime divisors) against the kernel's loop."""
    rules = DIVISOR_DUEL.variant(divisors="prime") if "/" in name else get_rules(name)
    upto = 20_000
    theirs = empty(upto)
    work = np.zeros(kernel.WORK_SIZE, np.int64)
    codes = tables._codes(rules)
    kernel.solve(1, upto + 1, *codes, int(rules.last_mover_wins), kernel.sieve(upto), *theirs, work)
    mine = retro(rules, upto)
    for a, b in zip(mine, theirs, strict=True):
        assert a[1:].tolist() == b[1:].tolist()


def test_moves_backwards_by_hand() -> None:
    start, parents = retrograde._subtraction_moves(12, kernel.ALL, 0, np.array([2, 3, 5, 7, 11]))
    into = {c: sorted(parents[start[c] : start[c + 1]].tolist()) for c in range(1, 13)}
    # 12 - 6 = 6, 12 - 4 = 8, 12 - 3 = 9, 12 - 2 = 10; 10 - 5 = 5, 10 - 2 = 8; 9 - 3 = 6; 8 - 4 = 4, 8 - 2 = 6; ...
    assert into == {1: [], 2: [4], 3: [6], 4: [6, 8], 5: [10], 6: [8, 9, 12], 7: [], 8: [10, 12], 9: [12],
                    10: [12], 11: [], 12: []}  # fmt: skip
    owner, divisor = retrograde._divisors(np.array([18, 1]), kernel.sieve(18))
    assert sorted(divisor[owner == 0].tolist()) == [1, 2, 3, 6, 9, 18] and divisor[owner == 1].tolist() == [1]


def test_tabulate_without_numba_uses_the_numpy_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """With compiled() False, a table growing by _VECTOR_FROM numbers or more is solved in numpy, with progress."""
    calls: list[str] = []
    solve = retrograde.solve
    monkeypatch.setattr(kernel, "compiled", lambda: False)
    monkeypatch.setattr(tables, "_VECTOR_FROM", 50)
    monkeypatch.setattr(tables, "GROWTH", 1.0)  # a table grows by exactly what is asked
    monkeypatch.setattr(retrograde, "solve", lambda *args: calls.append("numpy") or solve(*args))
    tables.clear_cache()
    try:
        progress: list[float] = []
        table = tabulate("divisor-duel", SMALL, progress.append)
        assert calls == ["numpy"] and progress[-1] == 1.0 and progress == sorted(progress)
        brute = Brute(DIVISOR_DUEL)
        assert table.outcome[1:].tolist() == [1 if brute.wins(n) else 0 for n in range(1, SMALL + 1)]
        assert table.grundy[1:].tolist() == [brute.grundy(n) for n in range(1, SMALL + 1)]
        tabulate("divisor-duel", SMALL + 20)  # grows by fewer than _VECTOR_FROM numbers: the kernel's loop
        assert calls == ["numpy"]
        monkeypatch.setattr(tables, "VECTOR_LIMIT", 700)
        assert tabulate("divisor-duel", 701).is_p(701)  # above VECTOR_LIMIT: the kernel's loop again
        assert tabulate("divisor-duel", 701).row(700)["winning_moves"] == list(brute.winning_moves(700))
        assert calls == ["numpy"]
    finally:
        tables.clear_cache()
