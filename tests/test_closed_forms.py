"""The proved closed forms against brute force, small and large."""

from __future__ import annotations

import re

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from duel_lessons.books.division_duel import DIVISION_DUEL_FORM
from duel_lessons.books.number_factor import NUMBER_FACTOR_FORM
from duel_lessons.engine.errors import DuelError, PositionError, RulesError
from duel_lessons.engine.rules import (
    DIVISION_DUEL,
    DIVISOR_DUEL,
    FACTOR_DUEL,
    NUMBER_FACTOR,
    RULEBOOKS,
    Rules,
    book_modules,
)
from duel_lessons.solving.closed_forms import (
    ClosedForm,
    all_closed_forms,
    closed_form,
    is_power_of_two,
    odd_part,
    v2,
)

#: Every registered closed form, by name (from the books' registry).
SHIPPED: dict[str, Rules] = {form.name: form.rules for form in all_closed_forms()}
#: Forms of division games factorise n to decide who wins (slower on random 18-digit numbers).
FACTORISING = {name for name, rules in SHIPPED.items() if rules.move == "divide"}
WITH_GRUNDY = [form.name for form in all_closed_forms() if form.has_grundy]

BIG = 10**18


def form_of(rules: Rules) -> ClosedForm:
    form = closed_form(rules)
    assert form is not None, rules.name
    return form


def brute(rules: Rules, upto: int) -> list[bool]:
    """is_p[n] for n <= upto, straight from the rules with sympy (index 0 unused)."""
    is_p = [False] * (upto + 1)
    for n in range(1, upto + 1):
        ending = rules.ends_on_reaching(n)
        if ending is not None:
            is_p[n] = ending == "win"
            continue
        moves = rules.divisors_of(n)
        if not moves:
            is_p[n] = rules.last_mover_wins
            continue
        is_p[n] = not any(is_p[rules.result(n, d)] for d in moves)
    return is_p


def is_terminal(rules: Rules, n: int) -> bool:
    return rules.ends_on_reaching(n) is not None or not rules.divisors_of(n)


@pytest.mark.parametrize("name", SHIPPED)
def test_closed_form_matches_sympy_brute_force(name: str) -> None:
    rules = SHIPPED[name]
    form = form_of(rules)
    expected = brute(rules, 2000)
    wrong = [n for n in range(1, 2001) if form.is_p(n) != expected[n]]
    assert wrong == []


@pytest.mark.parametrize("name", SHIPPED)
def test_closed_form_matches_solver_table(name: str) -> None:
    from duel_lessons.solving.tables import tabulate

    rules = SHIPPED[name]
    form = form_of(rules)
    upto = 10**5
    table = tabulate(rules, upto)
    wrong = [n for n in range(1, upto + 1) if form.is_p(n) != bool(table.outcome[n] == 0)]
    assert wrong == []
    if form.has_grundy:
        bad = [n for n in range(1, upto + 1, 7) if form.grundy(n) != int(table.grundy[n])]
        assert bad == []


@pytest.mark.parametrize("name", SHIPPED)
def test_winning_move_is_legal_and_leads_to_p(name: str) -> None:
    rules = SHIPPED[name]
    form = form_of(rules)
    for n in range(1, 3001):
        move = form.winning_move(n)
        if form.is_p(n) or is_terminal(rules, n):
            assert move is None, n
            continue
        assert move is not None, n
        assert rules.allows(move, n), (n, move)
        assert form.is_p(rules.result(n, move)), (n, move)


@pytest.mark.parametrize("name", SHIPPED)
def test_p_positions_only_move_to_n_positions(name: str) -> None:
    rules = SHIPPED[name]
    form = form_of(rules)
    for n in range(1, 1001):
        if form.is_p(n) and rules.ends_on_reaching(n) is None:
            assert all(not form.is_p(rules.result(n, d)) for d in rules.divisors_of(n)), n


big_numbers = st.one_of(
    st.integers(1, BIG),
    st.builds(lambda k, m: (2**k) * m, st.integers(0, 59), st.integers(0, 2**30).map(lambda x: 2 * x + 1)).filter(
        lambda n: 1 <= n <= BIG
    ),
    st.integers(0, 59).map(lambda k: 2**k),
)


@pytest.mark.parametrize("name", SHIPPED)
@settings(max_examples=40, deadline=None)
@given(n=big_numbers)
def test_large_n_winning_move_is_consistent(name: str, n: int) -> None:
    rules = SHIPPED[name]
    form = form_of(rules)
    move = form.winning_move(n)
    if move is None:
        assert form.is_p(n) or is_terminal(rules, n)
        return
    assert not form.is_p(n)
    assert 1 <= move < n and n % move == 0
    assert rules.allows(move, n)
    assert form.is_p(rules.result(n, move))
    assert str(move) in form.explain(n)


@pytest.mark.parametrize("name", sorted(set(SHIPPED) - FACTORISING))
@settings(max_examples=25, deadline=None)
@given(n=big_numbers)
def test_large_p_positions_have_no_winning_divisor(name: str, n: int) -> None:
    rules = SHIPPED[name]
    form = form_of(rules)
    if not form.is_p(n) or rules.ends_on_reaching(n) is not None:
        return
    for d in rules.divisors_of(n)[:50]:
        assert not form.is_p(rules.result(n, d)), (n, d)


@pytest.mark.parametrize("name", WITH_GRUNDY)
@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 10**12))
def test_grundy_is_zero_exactly_at_p_positions(name: str, n: int) -> None:
    form = form_of(SHIPPED[name])
    assert (form.grundy(n) == 0) == form.is_p(n)


@pytest.mark.parametrize("name", SHIPPED)
def test_grundy_zero_exactly_at_p_small(name: str) -> None:
    form = form_of(SHIPPED[name])
    if not form.has_grundy:
        assert form.grundy(12) is None
        return
    assert all((form.grundy(n) == 0) == form.is_p(n) for n in range(1, 2001))


def test_division_grundy_formula() -> None:
    for n in (2, 4, 12, 60, 2**10, 3**5 * 7):
        assert DIVISION_DUEL_FORM.grundy(n) == int(sympy.primeomega(n)) - 1


def test_the_registry_is_keyed_on_the_game() -> None:
    assert closed_form(DIVISOR_DUEL.variant(name="mine", title="Mine", default_start=9)) is closed_form(DIVISOR_DUEL)
    assert closed_form(NUMBER_FACTOR) is NUMBER_FACTOR_FORM
    assert closed_form(DIVISION_DUEL) is DIVISION_DUEL_FORM
    assert closed_form(DIVISOR_DUEL.variant(last_mover_wins=False)) is None


def test_the_registry_holds_every_books_closed_forms() -> None:
    listed = [form for module in book_modules() for form in module.CLOSED_FORMS]
    assert list(all_closed_forms()) == listed
    assert len({form.key for form in listed}) == len(listed)  # no two forms for one game
    assert all(closed_form(book) is not None for book in RULEBOOKS.values())  # every shipped book is solved


def test_closed_form_accepts_names_and_refuses_other_things() -> None:
    assert closed_form("divisor-duel") is closed_form(DIVISOR_DUEL)
    assert closed_form("003") is closed_form(FACTOR_DUEL)
    for bad in ("no-such-book", None, 12, 1.5):
        with pytest.raises(RulesError):
            closed_form(bad)  # type: ignore[arg-type]


def test_closed_forms_accept_numpy_integers_and_refuse_the_rest() -> None:
    import numpy as np

    form = form_of(DIVISOR_DUEL)
    assert form.is_p(np.int64(57)) and form.winning_move(np.int32(60)) == 15
    for bad in (12.0, True, "12", None, 0, -3, 10**18 + 1):
        with pytest.raises(PositionError):
            form.is_p(bad)  # type: ignore[arg-type]
        with pytest.raises(DuelError):
            form.explain(bad)  # type: ignore[arg-type]


_EQUATION = re.compile(r"(\d+) ([−÷]) (\d+) = (\d+)(?![\d ]*×)")


@pytest.mark.parametrize("name", SHIPPED)
def test_every_worked_step_in_an_explanation_is_a_true_legal_move(name: str) -> None:
    """'60 − 15 = 45' in an explanation of 60: true arithmetic, and 15 is an allowed divisor of 60."""
    rules = SHIPPED[name]
    form = form_of(rules)
    for n in range(1, 300):
        for a, op, b, c in _EQUATION.findall(form.explain(n)):
            a, b, c = int(a), int(b), int(c)
            assert (a - b if op == "−" else a // b) == c and (op == "−" or a % b == 0), (n, a, op, b, c)
            if a == n:  # a move from n itself
                assert rules.allows(b, a), (n, form.explain(n))
                assert op == ("−" if rules.move == "subtract" else "÷"), (n, op)


def test_divisor_duel_at_4_speaks_only_of_real_moves() -> None:
    """Issue 11: the explanation for 4 spoke of moves from 2 and of halving 1; by brute force 2 has no move."""
    form = form_of(DIVISOR_DUEL)
    text = form.explain(4)
    assert DIVISOR_DUEL.divisors_of(4) == (2,) and DIVISOR_DUEL.divisors_of(2) == ()
    assert "2^0" not in text and "From 2^1" not in text and "halve" not in text
    assert "4 − 2 = 2" in text and "no move" in text


@pytest.mark.parametrize("name", SHIPPED)
def test_statement_and_proof_are_lesson_text(name: str) -> None:
    form = form_of(SHIPPED[name])
    assert "P-position iff" in form.statement
    theorem, _, proof = form.proof.partition("\n\n")  # docs/authoring.md: the theorem, then its proof
    assert theorem.startswith("**Theorem.**") and proof.strip()


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("n", [1, 2, 4, 8, 9, 12, 16, 57, 60, 96, 97, 1024, 10**18, 2**59, 3**37])
def test_explanations_mention_the_numbers(name: str, n: int) -> None:
    rules = SHIPPED[name]
    form = form_of(rules)
    text = form.explain(n)
    assert str(n) in text
    move = form.winning_move(n)
    if move is not None:
        assert str(move) in text and str(rules.result(n, move)) in text
    else:
        assert any(word in text for word in ("losing", "loses", "lost", "won")), text


def test_divisor_duel_examples() -> None:
    form = form_of(DIVISOR_DUEL)
    assert [n for n in range(1, 40) if not form.is_p(n)] == [
        4, 6, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 34, 36, 38
    ]  # fmt: skip
    assert form.winning_move(60) == 15 and form.winning_move(16) == 8
    assert "57 is odd, so every divisor of 57 is odd" in form.explain(57)


def test_factor_duel_subtract_one() -> None:
    form = form_of(FACTOR_DUEL)
    assert form.winning_move(100) == 1
    assert not form.is_p(1) and form.is_p(2) and form.is_p(9)
    assert "Subtract 1" in form.explain(100)


def test_helpers() -> None:
    assert [v2(n) for n in (1, 2, 12, 2**60)] == [0, 1, 2, 60]
    assert odd_part(96) == 3 and odd_part(2**59) == 1
    assert is_power_of_two(1) and is_power_of_two(2**59) and not is_power_of_two(12)
    with pytest.raises(ValueError):
        form_of(DIVISOR_DUEL).is_p(0)
