"""The oracle answers variants with a proved Grundy formula but no closed form above its table: P iff g = 0."""

from __future__ import annotations

import io
import re

import pytest

from duel_lessons import DIVISOR_DUEL
from duel_lessons.cli.app import main
from duel_lessons.solving import tables
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.oracle import grundy_form, oracle

from brute import Brute

WITH_ONE = [DIVISOR_DUEL.variant(allow_one=True)] + [
    DIVISOR_DUEL.variant(divisors=kind, allow_one=True) for kind in ("even", "odd", "prime")
]


@pytest.mark.parametrize("rules", WITH_ONE, ids=lambda r: r.name)
def test_outcomes_above_the_table_agree_with_brute_force(rules: object) -> None:
    assert closed_form(rules) is None  # type: ignore[arg-type]  # the case this covers: no P/N closed form
    brute = Brute.of(rules)  # type: ignore[arg-type]
    above = oracle(rules, table_size=0)  # type: ignore[arg-type]  # table_size 0: nothing from a table
    for n in range(1, 301):
        assert above.source(n) == "closed form"
        assert above.outcome(n) == brute.outcome(n), n
        assert above.winning_moves(n) == brute.winning_moves(n), n
        move = above.winning_move(n)
        assert (move is None) == (brute.outcome(n) == "P")
        assert move is None or move in brute.winning_moves(n)


def test_a_variant_without_a_formula_still_refuses_above_the_solvers_limit() -> None:
    misere = DIVISOR_DUEL.variant(last_mover_wins=False, divisors="prime")
    assert grundy_form(misere) is None and closed_form(misere) is None
    assert not oracle(misere).can_answer(10**12)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, io.StringIO(""), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("divisors", [[], ["--divisors", "even"], ["--divisors", "odd"], ["--divisors", "prime"]])
def test_solve_with_allow_one_answers_a_trillion_without_a_table(divisors: list[str]) -> None:
    tables.clear_cache()
    code, out, err = run(["solve", "divisor-duel", "1000000000000", "--allow-one", *divisors])
    assert code == 0 and err == "", err
    assert tables.cache_info().tables == 0  # from the formula: no table was built
    outcome = re.search(r"^Outcome:\s+([PN])-position", out, re.M)
    assert outcome and outcome.group(1) == "N"  # 10**12 is even: d = 1 leaves an odd number, Grundy value 0
    moves = re.search(r"^Winning moves:\s+(.*)$", out, re.M)
    assert moves and moves.group(1).split(", ")[0] == "1"


def test_solve_with_allow_one_names_an_odd_trillion_plus_one_lost() -> None:
    code, out, _ = run(["solve", "divisor-duel", "1000000000001", "--allow-one"])
    assert code == 0 and re.search(r"^Outcome:\s+P-position", out, re.M)
    assert re.search(r"^Winning moves:\s+none", out, re.M)


@pytest.mark.parametrize("rules", WITH_ONE, ids=lambda r: r.name)
def test_the_coach_explains_from_the_formula_above_the_table(rules: object) -> None:
    from duel_lessons.engine.game import GameState
    from duel_lessons.play.coach import explain

    for n in (3 * 10**6, 3 * 10**6 + 1, 10**12):
        text = explain(GameState(rules, n))  # type: ignore[arg-type]
        assert "proved Grundy formula" in text and "no proved formula" not in text
        assert ("lost for the player to move" in text) == (n % 2 == 1), n  # with 1 allowed: P iff n is odd


def test_with_one_allowed_the_p_positions_are_the_odd_numbers_by_brute_force() -> None:
    for rules in WITH_ONE:
        brute = Brute.of(rules)
        assert all((brute.outcome(n) == "P") == (n % 2 == 1) for n in range(1, 301)), rules.name


#: Every variant with a proved Grundy formula; three of them also have a closed form without Grundy values.
FORMULA_RULES = WITH_ONE + [DIVISOR_DUEL.variant(divisors=kind) for kind in ("even", "odd", "prime")]


@pytest.mark.parametrize("rules", FORMULA_RULES, ids=lambda r: r.name)
def test_above_the_table_grundy_values_come_from_the_proved_formula(rules: object) -> None:
    brute = Brute.of(rules)  # type: ignore[arg-type]
    above = oracle(rules, table_size=0)  # type: ignore[arg-type]  # nothing from a table
    assert [above.grundy(n) for n in range(1, 201)] == [brute.grundy(n) for n in range(1, 201)]


@pytest.mark.parametrize(
    ("divisors", "values"),
    [
        # Book statements of the formulas (solving/grundy_formulas.py), worked by hand:
        ("prime", {3**30: 0, 2 * 3**30: 1, 4 * 3**30: 2, 2**40: 0}),  # odd 0; 2 mod 4: 1; 0 mod 4: 2; 2^k: 0
        ("odd", {3**30: 0, 2 * 3**30: 1, 2**40 * 3: 1, 2**40: 0}),  # odd 0; even with an odd divisor: 1; 2^k: 0
    ],
)
def test_grundy_values_of_huge_numbers_are_the_formulas(divisors: str, values: dict[int, int]) -> None:
    ask = oracle(DIVISOR_DUEL.variant(divisors=divisors))  # type: ignore[arg-type]
    assert {n: ask.grundy(n) for n in values} == values


@pytest.mark.parametrize("rules", WITH_ONE, ids=lambda r: r.name)
def test_the_grundy_form_answers_like_brute_force(rules: object) -> None:
    form = grundy_form(rules)  # type: ignore[arg-type]
    brute = Brute.of(rules)  # type: ignore[arg-type]
    assert form is not None and form.rules == rules
    for n in range(1, 121):
        lost = brute.outcome(n) == "P"
        assert form.is_p(n) == lost, n
        move = form.winning_move(n)
        assert (move is None) if lost else (move in brute.winning_moves(n)), n
        assert form.grundy(n) == brute.grundy(n), n
        text = form.explain(n)
        assert f"{n:,} has Grundy value {brute.grundy(n)}" in text, text
        assert ("is lost for the player to move" in text) == lost, text
        if move is not None:
            assert f"subtract {move:,}: {n:,} − {move:,} = {n - move:,}, of Grundy value 0" in text, text
