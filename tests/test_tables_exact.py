"""Exact-value tests of the solver's tables and the proved Grundy formulas (written by hand or brute force).

duel_lessons/solving/tables.py and solving/grundy_formulas.py: every expected value is written by
hand or comes from tests/brute.py (plain recursion over GameState), never from the code under
test.  Written to kill mutation-testing survivors (issue 23).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.solving import tables as solver
from duel_lessons.solving.grundy_formulas import FORMULAS, formula_for
from duel_lessons.solving.tables import TABLE_LIMIT, TableTooLargeError, tabulate

from brute import Brute

DIVISOR_DUEL = get_rules("divisor-duel")
#: Divisor Duel's P-positions up to 30, by hand: the odd numbers and the odd powers of 2 (2, 8).
P_UP_TO_30 = [1, 2, 3, 5, 7, 8, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29]


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    solver.clear_cache()
    try:
        yield
    finally:
        solver.set_cache_limit(solver.DEFAULT_CACHE_BYTES)
        solver.clear_cache()


# -- one table, exactly --------------------------------------------------------------------------


def test_divisor_duel_table_by_hand() -> None:
    table = tabulate("divisor-duel", 30)
    assert len(table) == 30 and table.p_positions() == P_UP_TO_30 and table.count_p() == 17
    assert repr(tabulate("divisor-duel", 12)) == "<Table 'divisor-duel' n=1..12, 8 P-positions>"
    assert (table.is_p(8), table.is_p(12), table.outcome_of(8), table.outcome_of(12)) == (True, False, "P", "N")
    assert table.winning_moves(12) == (3, 4)  # 12 - 3 = 9 and 12 - 4 = 8 are P; 10 and 6 are N
    # g(6) = mex{g(4) = 1, g(3) = 0} = 2, g(10) = mex{g(8), g(5)} = 1, so g(12) = mex{1, 0, 0, 2} = 3;
    # remoteness: 12 -> 8 or 9 (each 2 moves from the end: 8 -> 6 or 4, then one move) = 3.
    assert table.winning_moves(9) == ()
    assert table.row(12) == {"n": 12, "outcome": "N", "grundy": 3, "remoteness": 3, "winning_moves": [3, 4]}
    for array in (table.outcome, table.grundy, table.remoteness):
        assert array[0] == -1 and not array.flags.writeable


def test_tables_agree_with_brute_force_for_every_book_and_misere() -> None:
    misere = DIVISOR_DUEL.variant(divisors="odd", last_mover_wins=False)
    for rules in [
        *(get_rules(name) for name in ("divisor-duel", "division-duel", "factor-duel", "number-factor")),
        misere,
    ]:
        brute = Brute(rules)
        table = tabulate(rules, 120)
        for n in range(1, 121):
            assert table.outcome_of(n) == brute.outcome(n), (rules.name, n)
            assert table.winning_moves(n) == (brute.winning_moves(n) if brute.wins(n) else ()), (rules.name, n)
            if rules.last_mover_wins:
                assert int(table.grundy[n]) == brute.grundy(n), (rules.name, n)
                assert int(table.remoteness[n]) == brute.remoteness(n), (rules.name, n)
    assert set(tabulate(misere, 120).grundy.tolist()) == {-1}  # misère Grundy values are not kept


def test_a_number_whose_reaching_loses_has_no_winning_move() -> None:
    # Reaching a prime loses; 1 is allowed.  From 5 the move 1 leaves 4, a P-position
    # (4 -> 3 and 4 -> 2 both reach a prime), but the game already ended on reaching 5.
    rules = Rules(name="test-prime-loses", title="Test", allow_one=True, lose_on_reaching="prime")
    table = tabulate(rules, 10)
    assert table.is_p(4) and not table.is_p(5)
    assert table.winning_moves(5) == () and table.winning_moves(6) == (2,)  # 6 -> 5 and 6 -> 3 reach a prime
    assert (int(table.grundy[5]), int(table.remoteness[5])) == (1, 1)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (0, "n = 0 is outside this table, which covers 1 .. 12."),
        (13, "n = 13 is outside this table, which covers 1 .. 12."),
        (True, "n must be a whole number, not True."),
        (2.0, "n must be a whole number, not 2.0."),
    ],
)
def test_numbers_outside_a_table_are_named(bad: object, message: str) -> None:
    table = tabulate("divisor-duel", 12)
    for method in (table.is_p, table.outcome_of, table.winning_moves, table.row):
        with pytest.raises(DuelError) as caught:
            method(bad)  # type: ignore[arg-type]
        assert str(caught.value) == message


def test_an_empty_range_is_named() -> None:
    with pytest.raises(DuelError) as caught:
        tabulate("divisor-duel", 12).to_csv(5, 3)
    assert str(caught.value) == "The range 5 .. 3 is empty: lo must not be larger than hi."


# -- exports ----------------------------------------------------------------------------------------


def test_exports_word_for_word() -> None:
    table = tabulate("divisor-duel", 12)
    assert table.to_csv(1, 4) == "n,outcome,grundy,remoteness,winning_moves\n1,P,0,0,\n2,P,0,0,\n3,P,0,0,\n4,N,1,1,2\n"
    assert table.to_csv(11, None).splitlines() == [
        "n,outcome,grundy,remoteness,winning_moves",
        "11,P,0,0,",
        "12,N,3,3,3 4",
    ]
    assert json.loads(table.to_json(3, 4)) == [
        {"n": 3, "outcome": "P", "grundy": 0, "remoteness": 0, "winning_moves": []},
        {"n": 4, "outcome": "N", "grundy": 1, "remoteness": 1, "winning_moves": [2]},
    ]
    assert table.to_records(4, 4) == [{"n": 4, "outcome": "N", "grundy": 1, "remoteness": 1, "winning_moves": [2]}]
    assert table.to_dict(3, 4) == {
        "n": [3, 4],
        "outcome": ["P", "N"],
        "grundy": [0, 1],
        "remoteness": [0, 1],
        "winning_moves": [[], [2]],
    }
    assert table.to_text(3, 4) == (
        "n  outcome  grundy  remoteness  winning moves\n"
        "3        P       0           0\n"
        "4        N       1           1  2\n"
    )
    columns = table.to_numpy()
    assert columns["n"].tolist() == list(range(1, 13))
    assert columns["outcome"].tolist() == [0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1]


def test_long_ranges_list_the_brute_force_winning_moves() -> None:
    # 600 numbers: listed by the compiled kernel in batches, not one by one.
    brute = Brute(DIVISOR_DUEL)
    rows = list(tabulate("divisor-duel", 700).rows(101, 700))
    assert [r["n"] for r in rows] == list(range(101, 701))
    for r in rows:
        assert tuple(r["winning_moves"]) == (brute.winning_moves(r["n"]) if brute.wins(r["n"]) else ()), r["n"]


def test_html_shows_the_first_rows_and_p_positions() -> None:
    small = tabulate("divisor-duel", 12)._repr_html_()
    assert small.startswith(
        "<p><b>Divisor Duel</b> (divisor-duel): n = 1 .. 12, 8 P-positions: 1, 2, 3, 5, 7, 8, 9, 11</p><table>"
    )
    assert "<tr><td>12</td><td>N</td><td>3</td><td>3</td><td>3 4</td></tr>" in small
    assert "First" not in small and small.endswith("</table>")
    big = tabulate("divisor-duel", 30)._repr_html_()
    assert "17 P-positions: 1, 2, 3, 5, 7, 8, 9, 11, 13, 15, 17, 19, 21, 23, 25, …</p>" in big
    assert big.count("<tr>") == 21 and big.endswith("</table><p>First 20 of 30 rows.</p>")


# -- sizes, the cache, progress --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (0, "upto must be a whole number of at least 1, not 0."),
        (-3, "upto must be a whole number of at least 1, not -3."),
        (2.0, "upto must be a whole number, not 2.0."),
        (True, "upto must be a whole number, not True."),
    ],
)
def test_bad_sizes_are_named(bad: object, message: str) -> None:
    with pytest.raises(DuelError) as caught:
        tabulate("divisor-duel", bad)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_a_table_too_large_says_what_to_do() -> None:
    with pytest.raises(TableTooLargeError) as caught:
        tabulate("divisor-duel", TABLE_LIMIT + 1)
    assert str(caught.value) == (
        "A table up to N = 10,000,001 is too large: the limit is TABLE_LIMIT = 10,000,000 numbers. "
        "For bigger numbers use a closed form (a proved pattern of P-positions) or play single positions "
        "with the game engine."
    )
    table = tabulate("divisor-duel", np.int64(5))  # type: ignore[arg-type]
    assert table.upto == 5 and type(table.upto) is int


def test_the_cache_grows_geometrically_and_serves_slices(fresh_cache: None) -> None:
    assert solver.cache_info() == solver.CacheInfo(0, 0, solver.DEFAULT_CACHE_BYTES)
    calls: list[float] = []
    tabulate("divisor-duel", 100, calls.append)
    assert calls == [1.0]
    assert solver.cache_info().tables == 1 and solver.cache_info().bytes == 101 * 9  # int8 + int32 + int32
    calls.clear()
    tabulate("divisor-duel", 150, calls.append)  # grows to 2 × 100 numbers, not 150
    assert solver.cache_info().bytes == 201 * 9 and calls == [1.0]
    calls.clear()
    table = tabulate("divisor-duel", 50, calls.append)  # a slice: nothing computed
    assert calls == [1.0] and table.upto == 50 and len(table.outcome) == 51
    assert solver.cache_info().bytes == 201 * 9
    tabulate("divisor-duel", 60)
    assert solver.cache_info().bytes == 201 * 9
    tabulate("division-duel", 10)
    assert solver.cache_info() == solver.CacheInfo(2, 201 * 9 + 11 * 9, solver.DEFAULT_CACHE_BYTES)


def test_the_cache_drops_the_least_recently_used(fresh_cache: None) -> None:
    tabulate("divisor-duel", 100)
    tabulate("division-duel", 100)
    tabulate("divisor-duel", 10)  # now divisor-duel is the most recently used
    solver.set_cache_limit(101 * 9)
    assert solver.cache_info() == solver.CacheInfo(1, 101 * 9, 101 * 9)
    assert solver._table_cache.keys() == {DIVISOR_DUEL.game}
    solver.set_cache_limit(0)
    assert solver.cache_info().tables == 1  # the newest table always stays


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (-1, "The cache limit must be a number of bytes, at least 0, not -1."),
        (1.5, "The cache limit must be a whole number, not 1.5."),
    ],
)
def test_bad_cache_limits_are_named(bad: object, message: str, fresh_cache: None) -> None:
    with pytest.raises(DuelError) as caught:
        solver.set_cache_limit(bad)  # type: ignore[arg-type]
    assert str(caught.value) == message
    assert solver.cache_info().limit == solver.DEFAULT_CACHE_BYTES


def test_progress_over_chunks_reaches_one(fresh_cache: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "_CHUNK", 25)
    calls: list[float] = []
    tabulate("divisor-duel", 99, calls.append)  # numbers 1..99 in chunks of 25: 26, 51, 76, then the end
    assert calls == [25 / 99, 50 / 99, 75 / 99, 1.0]


def test_compiled_flag_and_unknown_attributes() -> None:
    assert isinstance(solver.COMPILED, bool)
    with pytest.raises(AttributeError) as caught:
        _ = solver.NO_SUCH_NAME
    assert str(caught.value) == "module 'duel_lessons.solving.tables' has no attribute 'NO_SUCH_NAME'"


# -- the proved Grundy formulas against brute force --------------------------------------------------


@pytest.mark.parametrize("formula", FORMULAS, ids=[f.name for f in FORMULAS])
def test_each_grundy_formula_against_brute_force(formula: object) -> None:
    from duel_lessons.solving.grundy_formulas import GrundyFormula

    assert isinstance(formula, GrundyFormula)
    rules = formula.rules
    assert (rules.divisors, rules.allow_one, rules.move, rules.last_mover_wins) == (
        formula.divisors,
        formula.allow_one,
        "subtract",
        True,
    )
    assert formula_for(rules) is formula and formula.key == rules.game
    brute = Brute(rules)
    values = [brute.grundy(n) for n in range(1, 301)]
    assert [formula.value(n) for n in range(1, 301)] == values
    for upto in range(0, 301):
        expected = dict(sorted(Counter(values[:upto]).items()))
        assert formula.counts(upto) == expected, (formula.name, upto)
    assert formula._repr_markdown_() == f"**{formula.name}.** {formula.statement}\n\n{formula.proof}"


def test_games_without_a_grundy_formula() -> None:
    for name in ("divisor-duel", "division-duel", "factor-duel", "number-factor"):
        assert formula_for(get_rules(name)) is None
    assert formula_for(DIVISOR_DUEL.variant(divisors="odd", last_mover_wins=False)) is None
    assert len({(f.divisors, f.allow_one) for f in FORMULAS}) == len(FORMULAS) == 7


def test_exports_default_to_the_whole_table() -> None:
    table = tabulate("divisor-duel", 4)
    assert table.to_csv() == "n,outcome,grundy,remoteness,winning_moves\n1,P,0,0,\n2,P,0,0,\n3,P,0,0,\n4,N,1,1,2\n"
    assert [r["n"] for r in table.to_records()] == [1, 2, 3, 4]
    assert [r["n"] for r in json.loads(table.to_json())] == [1, 2, 3, 4]
    assert table.to_dict()["n"] == [1, 2, 3, 4]
    assert table.to_text().splitlines()[1] == "1        P       0           0"
    assert tabulate("divisor-duel", 12).to_text(12).splitlines()[-1] == "12        N       3           3  3 4"
    columns = table.to_numpy()
    assert sorted(columns) == ["grundy", "n", "outcome", "remoteness"]
    assert columns["n"].dtype == np.int64 and columns["n"].tolist() == [1, 2, 3, 4]
    assert columns["grundy"].tolist() == [0, 0, 0, 1] and columns["remoteness"].tolist() == [0, 0, 0, 1]


def test_html_table_head_and_rows() -> None:
    html = tabulate("divisor-duel", 2)._repr_html_()
    assert html.endswith(
        "<table><tr><th>n</th><th>outcome</th><th>grundy</th><th>remoteness</th><th>winning moves</th></tr>"
        "<tr><td>1</td><td>P</td><td>0</td><td>0</td><td></td></tr>"
        "<tr><td>2</td><td>P</td><td>0</td><td>0</td><td></td></tr></table>"
    )


def test_eviction_stops_as_soon_as_the_tables_fit(fresh_cache: None) -> None:
    tabulate("divisor-duel", 100)  # 101 × 9 bytes
    tabulate("division-duel", 10)  # 11 × 9 bytes
    tabulate("factor-duel", 10)  # 11 × 9 bytes
    solver.set_cache_limit(2 * 99)  # only the oldest table goes
    assert solver.cache_info() == solver.CacheInfo(2, 2 * 99, 2 * 99)
    assert list(solver._table_cache) == [get_rules("division-duel").game, get_rules("factor-duel").game]
    tabulate("divisor-duel", 10)  # 99 bytes more: now 3 × 99 > the limit, the least recently used goes
    assert solver.cache_info().tables == 2
    assert list(solver._table_cache) == [get_rules("factor-duel").game, DIVISOR_DUEL.game]


def test_the_sieve_is_a_read_only_slice_of_the_right_length(fresh_cache: None) -> None:
    # Smallest prime factors by hand, from n = 2.
    assert solver._smallest_prime_factors(10).tolist()[2:] == [2, 3, 2, 5, 2, 7, 2, 3, 2]
    grown = solver._smallest_prime_factors(11)  # one more than the sieve holds: it is rebuilt
    assert len(grown) == 12 and grown.tolist()[2:] == [2, 3, 2, 5, 2, 7, 2, 3, 2, 11]
    assert not grown.flags.writeable
    solver._smallest_prime_factors(100)
    small = solver._smallest_prime_factors(11)
    assert len(small) == 12 and not small.flags.writeable


def test_sizes_at_the_edges(fresh_cache: None, monkeypatch: pytest.MonkeyPatch) -> None:
    one = tabulate("divisor-duel", 1)
    assert one.p_positions() == [1] and one.row(1)["outcome"] == "P"
    tabulate("divisor-duel", 10)
    eleven = tabulate("divisor-duel", 11)  # the cached table holds 0..10: it must grow, not be sliced
    assert len(eleven.outcome) == 12 and eleven.is_p(11)
    monkeypatch.setattr(solver, "TABLE_LIMIT", 50)
    assert tabulate("factor-duel", 50).upto == 50
    with pytest.raises(TableTooLargeError):
        tabulate("factor-duel", 51)


def test_the_last_number_of_a_chunk_is_computed(fresh_cache: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "_CHUNK", 25)
    calls: list[float] = []
    table = tabulate("divisor-duel", 26, calls.append)  # chunks 1..25, then 26 alone
    assert calls == [25 / 26, 1.0]
    assert table.outcome_of(26) == "N" and table.winning_moves(26) == (13,) and int(table.grundy[26]) >= 0
    calls.clear()
    tabulate("divisor-duel", 60, calls.append)  # grows from 0..26 to 0..60: 34 new numbers
    assert calls == [25 / 34, 1.0]


def test_growing_a_one_number_table_reports_progress_once(fresh_cache: None) -> None:
    tabulate("divisor-duel", 1)
    calls: list[float] = []
    assert tabulate("divisor-duel", 2, calls.append).p_positions() == [1, 2]
    assert calls == [1.0]


def test_winning_moves_over_batch_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "_BATCH", 100)
    brute = Brute(DIVISOR_DUEL)
    table = tabulate("divisor-duel", 501)
    rows = list(table.rows())  # 501 numbers: the kernel's batches end at 100, 200, ..., 500, then 501 alone
    assert [r["n"] for r in rows] == list(range(1, 502))
    for r in rows:
        assert r["winning_moves"] == list(brute.winning_moves(r["n"]) if brute.wins(r["n"]) else ()), r["n"]
        assert all(type(d) is int for d in r["winning_moves"])


def test_a_misere_table_shows_no_grundy_value_rather_than_minus_one() -> None:
    """Misère Grundy values are not kept (-1 in the array): the tables a student reads show "-" there.

    By hand, misère Divisor Duel: 2 has no move (the player there wins: N), 4 -> 2 only (P), 6 -> 4 wins."""
    misere = tabulate(DIVISOR_DUEL.variant(last_mover_wins=False), 6)
    assert misere.to_text(4, 6).splitlines()[1:] == ["4        P       -           1", "5        N       -           0",
                                                     "6        N       -           2  2"]  # fmt: skip
    html = misere._repr_html_()
    assert "<td>4</td><td>P</td><td>-</td><td>1</td>" in html and "<td>-1</td>" not in html
    normal = tabulate(DIVISOR_DUEL, 6)._repr_html_()
    assert "<td>1</td><td>P</td><td>0</td><td>0</td>" in normal
