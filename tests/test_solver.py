"""The tabulating solver against a brute-force reference built on the game engine."""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import subprocess
import sys
import tracemalloc
from functools import cache

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from duel_lessons import (
    DIVISION_DUEL,
    DIVISOR_DUEL,
    FACTOR_DUEL,
    RULEBOOKS,
    DuelError,
    GameState,
    Rules,
)
from duel_lessons.solving import tables as solver
from duel_lessons.solving.tables import TABLE_LIMIT, Table, TableTooLargeError, tabulate

from books import all_rules

#: Every shipped book, closed form and generated variant (tests/books.py): no list kept here.
VARIANTS: list[Rules] = all_rules()
IDS = [r.name for r in VARIANTS]
SMALL = 300


# -- the reference: plain recursion over GameState ------------------------------


@cache
def reference(rules: Rules, n: int) -> tuple[str, int, int]:
    """(outcome, grundy, remoteness) of n, by playing every line with the engine."""
    state = GameState(rules, n)
    while state.must_pass:  # passing changes no number; follow it to the end
        state = state.pass_turn()
    if state.is_over:
        outcome = "N" if state.winner == 1 else "P"  # player 1 was to move at n
        # A number whose reaching loses: Grundy value 1 and remoteness 1 (one imagined move to a finished game).
        return outcome, (1 if outcome == "N" else 0), (1 if state.ending == "reached-loss" else 0)
    children = [reference(rules, state.play(d).number) for d in state.legal_moves]
    grundy = min(set(range(len(children) + 1)) - {c[1] for c in children})
    p_children = [c[2] for c in children if c[0] == "P"]
    if p_children:
        return "N", grundy, 1 + min(p_children)
    return "P", grundy, 1 + max(c[2] for c in children)


def reference_winning_moves(rules: Rules, n: int) -> tuple[int, ...]:
    state = GameState(rules, n)
    return tuple(d for d in state.legal_moves if reference(rules, state.play(d).number)[0] == "P")


# -- agreement with the reference -------------------------------------------------


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_table_matches_brute_force(rules: Rules) -> None:
    table = tabulate(rules, SMALL)
    for n in range(1, SMALL + 1):
        outcome, grundy, remoteness = reference(rules, n)
        assert table.outcome_of(n) == outcome, n
        assert table.remoteness[n] == remoteness, n
        assert table.grundy[n] == (grundy if rules.last_mover_wins else -1), n
        assert table.winning_moves(n) == reference_winning_moves(rules, n), n


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_compiled_winning_moves_match_sympy_ones(rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    table = tabulate(rules, 2000)
    expected = [list(table.winning_moves(n)) for n in range(1, 2001)]
    monkeypatch.setattr(solver, "_FEW", 0)  # force the compiled listing
    assert [row["winning_moves"] for row in table.rows()] == expected
    monkeypatch.setattr(solver, "_BATCH", 7)  # many short kernel calls
    monkeypatch.setattr(solver, "_FOUND", solver._kernel.DIVISOR_BUFFER + 1)  # the kernel stops early
    assert [row["winning_moves"] for row in table.rows(5, 1500)] == expected[4:1500]


def test_division_duel_is_won_at_once_from_every_composite() -> None:
    # Ruling 4 of the rule books: from a composite, divide down to a prime.
    table = tabulate("division-duel", 5000)
    for n in range(1, 5001):
        assert table.is_p(n) == (n == 1 or sympy.isprime(n)), n


def test_prime_division_is_a_parity_game() -> None:
    # Dividing by a prime removes one prime factor; a prime (one factor) is stuck.
    table = tabulate(DIVISION_DUEL.variant(divisors="prime"), 5000)
    for n in range(2, 5001):
        assert table.is_p(n) == (sympy.primeomega(n) % 2 == 1), n


normal_play = st.sampled_from([r for r in VARIANTS if r.last_mover_wins])


@settings(max_examples=200, deadline=None)
@given(rules=normal_play, n=st.integers(1, 20_000))
def test_grundy_is_zero_exactly_at_p_positions(rules: Rules, n: int) -> None:
    table = tabulate(rules, 20_000)
    assert (table.grundy[n] == 0) == table.is_p(n)


@settings(max_examples=200, deadline=None)
@given(rules=st.sampled_from(VARIANTS), n=st.integers(1, 20_000))
def test_winning_moves_exist_exactly_at_n_positions(rules: Rules, n: int) -> None:
    table = tabulate(rules, 20_000)
    moves = table.winning_moves(n)
    if rules.ends_on_reaching(n) is None and rules.divisors_of(n):
        assert bool(moves) == (table.outcome_of(n) == "N")
    else:
        assert moves == ()
    for d in moves:
        assert d in rules.divisors_of(n)
        assert table.is_p(rules.result(n, d))


# -- the API ---------------------------------------------------------------------


def test_csv_has_the_exact_header_and_the_table_values() -> None:
    table = tabulate("divisor-duel", 100)
    text = table.to_csv()
    assert text.splitlines()[0] == "n,outcome,grundy,remoteness,winning_moves"
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 100
    for row in rows:
        n = int(row["n"])
        assert row["outcome"] == table.outcome_of(n)
        assert int(row["grundy"]) == table.grundy[n]
        assert int(row["remoteness"]) == table.remoteness[n]
        assert tuple(int(d) for d in row["winning_moves"].split()) == table.winning_moves(n)
    assert table.to_csv(10, 12).count("\n") == 4


def test_other_exports_agree() -> None:
    table = tabulate("factor-duel", 60)
    records = table.to_records()
    assert json.loads(table.to_json()) == records
    assert records[11] == table.row(12)
    columns = table.to_dict()
    assert columns["n"] == list(range(1, 61))
    assert columns["outcome"] == [r["outcome"] for r in records]
    arrays = table.to_numpy()
    assert arrays["outcome"].dtype == np.int8
    assert list(arrays["n"]) == columns["n"] and list(arrays["grundy"]) == columns["grundy"]
    text = table.to_text(1, 10)
    lines = text.splitlines()
    assert len(lines) == 11 and lines[0].split()[:2] == ["n", "outcome"]
    assert len({line.index(table.outcome_of(i)) for i, line in enumerate(lines[1:], 1)}) == 1  # one column
    html = table._repr_html_()
    assert "Factor Duel" in html and html.count("<tr>") == 21
    assert len(table) == 60 and table.p_positions()[:3] == [2, 3, 5]


def test_arrays_are_read_only_and_index_zero_is_unused() -> None:
    table = tabulate("divisor-duel", 50)
    for array, dtype in ((table.outcome, np.int8), (table.grundy, np.int32), (table.remoteness, np.int32)):
        assert array.dtype == dtype and len(array) == 51 and array[0] == -1
        assert not array.flags.writeable
        with pytest.raises(ValueError):
            array[1] = 0


def test_too_large_raises_before_allocating() -> None:
    tracemalloc.start()
    try:
        with pytest.raises(TableTooLargeError) as info:
            tabulate("divisor-duel", TABLE_LIMIT + 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    assert isinstance(info.value, DuelError)
    message = str(info.value)
    assert "10,000,001" in message and "10,000,000" in message and "closed form" in message


@pytest.mark.parametrize("upto", [0, -5, 2.5, "100", True, None])
def test_bad_upto_is_refused(upto: object) -> None:
    with pytest.raises(DuelError, match="upto"):
        tabulate("divisor-duel", upto)  # type: ignore[arg-type]


def test_bad_n_is_refused() -> None:
    table = tabulate("divisor-duel", 10)
    for bad in (0, 11, -1):
        with pytest.raises(DuelError, match="outside"):
            table.outcome_of(bad)
    with pytest.raises(DuelError):
        table.winning_moves(2.0)  # type: ignore[arg-type]
    with pytest.raises(DuelError):
        list(table.rows(8, 3))


@pytest.mark.parametrize(
    "rules",
    [DIVISOR_DUEL, FACTOR_DUEL.variant(divisors="odd"), DIVISOR_DUEL.variant(last_mover_wins=False)],
    ids=["dd", "fd-odd", "dd-misere"],
)
def test_cache_slices_and_extensions_give_identical_arrays(rules: Rules) -> None:
    solver.clear_cache()
    fresh = tabulate(rules, 250_000)
    solver.clear_cache()
    small = tabulate(rules, 1000)
    grown = tabulate(rules, 250_000)  # continues from 1001
    sliced = tabulate(rules, 1000)
    renamed = tabulate(rules.variant(name="same-game", title="Same game"), 999)
    for name in ("outcome", "grundy", "remoteness"):
        assert np.array_equal(getattr(fresh, name), getattr(grown, name))
        assert np.array_equal(getattr(small, name), getattr(sliced, name))
        assert np.array_equal(getattr(fresh, name)[:1000], getattr(renamed, name))
    assert renamed.rules.title == "Same game" and len(renamed) == 999


def test_progress_reports_fractions_up_to_one() -> None:
    solver.clear_cache()
    seen: list[float] = []
    tabulate("number-factor", 350_000, progress=seen.append)
    assert len(seen) >= 3 and seen[-1] == 1.0
    assert all(0 < a <= b <= 1 for a, b in itertools.pairwise(seen))
    seen.clear()
    tabulate("number-factor", 10, progress=seen.append)
    assert seen == [1.0]


def test_uncompiled_kernel_gives_the_same_tables() -> None:
    script = (
        "import json\n"
        "from duel_lessons import RULEBOOKS, DIVISOR_DUEL\n"
        "from duel_lessons.solving import tables as solver\n"
        "assert not solver.COMPILED\n"
        "out = []\n"
        "for r in [*RULEBOOKS.values(), DIVISOR_DUEL.variant(divisors='even', last_mover_wins=False)]:\n"
        "    t = solver.tabulate(r, 400)\n"
        "    solver._FEW = 0  # list winning moves with the kernel\n"
        "    moves = [row['winning_moves'] for row in t.rows()]\n"
        "    out.append([t.outcome.tolist(), t.grundy.tolist(), t.remoteness.tolist(), moves])\n"
        "print(json.dumps(out))\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    variants = [*RULEBOOKS.values(), DIVISOR_DUEL.variant(divisors="even", last_mover_wins=False)]
    for r, (outcome, grundy, remoteness, moves) in zip(variants, json.loads(result.stdout), strict=True):
        t = tabulate(r, 400)
        assert outcome == t.outcome.tolist() and grundy == t.grundy.tolist() and remoteness == t.remoteness.tolist()
        assert moves == [list(t.winning_moves(n)) for n in range(1, 401)]


def test_table_type() -> None:
    table = tabulate("divisor-duel", 5)
    assert isinstance(table, Table) and "divisor-duel" in repr(table)


# -- growth, the cache's bound, read-only copies (issue 13 §3) --------------------------------
# (books by name through get_rules: the import list above belongs to the registry's tests)


def test_growing_one_number_at_a_time_is_geometric(monkeypatch: pytest.MonkeyPatch) -> None:
    from duel_lessons.engine.rules import get_rules

    solver.clear_cache()
    divisor_duel = get_rules("divisor-duel")
    reference = solver._extend(divisor_duel, None, 3000, None)[0]
    built: list[int] = []
    extend = solver._extend
    monkeypatch.setattr(solver, "_extend", lambda r, old, upto, p: built.append(upto) or extend(r, old, upto, p))
    for n in range(1, 3001):
        table = tabulate(divisor_duel, n)
        assert len(table) == n and table.outcome[n] == reference[n]
    assert len(built) <= 13  # 1, 2, 4, ..., 4096: log2(3000) + 1 builds, not 3000
    assert all(b >= 2 * a for a, b in itertools.pairwise(built))


def test_the_cache_keeps_the_most_recently_used_tables_within_its_bytes() -> None:
    from duel_lessons.engine.rules import get_rules

    solver.clear_cache()
    games = [get_rules(name) for name in ("divisor-duel", "division-duel", "factor-duel", "number-factor")]
    divisor_duel, factor_duel, number_factor = games[0], games[2], games[3]
    one = 9 * 10_001  # int8 + int32 + int32 per number, n = 0 .. 10**4
    try:
        solver.set_cache_limit(2 * one)
        for rules in games:
            tabulate(rules, 10_000)
        info = solver.cache_info()
        assert info.tables == 2 and info.bytes <= 2 * one
        keys = list(solver._table_cache)
        assert keys == [factor_duel.game, number_factor.game]
        tabulate(factor_duel, 50)  # used again: now the newest
        tabulate(divisor_duel, 10_000)  # so Number Factor is dropped
        assert list(solver._table_cache) == [factor_duel.game, divisor_duel.game]
        solver.set_cache_limit(0)  # the newest table always stays
        assert solver.cache_info().tables == 1
    finally:
        solver.set_cache_limit(solver.DEFAULT_CACHE_BYTES)
    with pytest.raises(DuelError):
        solver.set_cache_limit(-1)


def test_an_evicted_table_is_rebuilt_identically() -> None:
    solver.clear_cache()
    first = tabulate("number-factor", 5000)
    try:
        solver.set_cache_limit(0)
        tabulate("divisor-duel", 5000)  # evicts Number Factor
        again = tabulate("number-factor", 5000)
    finally:
        solver.set_cache_limit(solver.DEFAULT_CACHE_BYTES)
    assert np.array_equal(first.remoteness, again.remoteness) and np.array_equal(first.outcome, again.outcome)


def test_unpickled_and_copied_tables_are_read_only() -> None:
    import copy
    import pickle

    table = tabulate("factor-duel", 500)
    for other in (pickle.loads(pickle.dumps(table)), copy.deepcopy(table), copy.copy(table)):
        assert np.array_equal(other.outcome, table.outcome) and other.rules == table.rules
        for name in ("outcome", "grundy", "remoteness"):
            array = getattr(other, name)
            assert not array.flags.writeable
            with pytest.raises(ValueError, match="read-only"):
                array[1] = 7
        assert other.is_p(7) == table.is_p(7)
