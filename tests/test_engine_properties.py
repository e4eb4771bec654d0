"""Property tests of the engine: random starts, random legal play, every book and several variants."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import duel_lessons.books
from duel_lessons import (
    DIVISOR_DUEL,
    FACTOR_DUEL,
    BadStartError,
    DuelError,
    GameOverError,
    GameState,
    IllegalMoveError,
    Moved,
    Rules,
    RulesError,
    custom_variants,
    get_rules,
    new_game,
    register,
)
from duel_lessons.engine.rules import RULEBOOKS, unregister

from books import all_rules

#: Every shipped book, closed form and generated variant (tests/books.py): no list kept here.
VARIANTS: list[Rules] = all_rules()
rules_st = st.sampled_from(VARIANTS)


def play_out(state: GameState, data: st.DataObject) -> GameState:
    """Random legal play to the end, checking invariants on the way."""
    for _ in range(10_000):
        if state.is_over:
            return state
        if state.must_pass:
            state = state.pass_turn()
        else:
            move = data.draw(st.sampled_from(state.legal_moves))
            before = state.number
            state = state.play(move)
            assert state.number < before
    raise AssertionError("game did not end")


def expected_winner(state: GameState) -> int:
    """The winner by the book's wording, computed from the history alone."""
    rules = state.rules
    moves = [e for e in state.history if isinstance(e, Moved)]
    first = state.history[0].player if state.history else state.to_move
    # The start counts as reached by the opponent of the first player.
    last_mover = moves[-1].player if moves else 3 - first
    if rules.win_on_reaching == "prime" and Rules.is_kind(state.number, "prime"):
        return last_mover
    if rules.lose_on_reaching == "one" and state.number == 1:
        return 2 if last_mover == 1 else 1
    return last_mover if rules.last_mover_wins else (2 if last_mover == 1 else 1)


@settings(max_examples=300, deadline=None)
@given(rules=rules_st, start=st.integers(1, 20_000), first=st.sampled_from([1, 2]), data=st.data())
def test_random_games_end_with_the_books_winner(rules: Rules, start: int, first: int, data: st.DataObject) -> None:
    try:
        state = new_game(rules, start, first)
    except BadStartError:
        assume(False)
        raise
    end = play_out(state, data)
    assert end.is_over
    # no move is legal after the end
    assert end.legal_moves == () and not end.must_pass
    for d in (1, 2, 3, end.number // 2 or 1):
        with pytest.raises(GameOverError):
            end.play(d)
    with pytest.raises(GameOverError):
        end.pass_turn()
    assert end.winner == expected_winner(end)
    assert end.winner in (1, 2) and end.loser == 3 - end.winner


@settings(max_examples=300, deadline=None)
@given(rules=rules_st, start=st.integers(1, 10**6), value=st.integers(-(10**20), 10**20), data=st.data())
def test_illegal_moves_never_change_the_state(rules: Rules, start: int, value: int, data: st.DataObject) -> None:
    try:
        state = new_game(rules, start)
    except BadStartError:
        assume(False)
        raise
    steps = data.draw(st.integers(0, 3))
    for _ in range(steps):
        if state.is_over:
            break
        state = state.pass_turn() if state.must_pass else state.play(data.draw(st.sampled_from(state.legal_moves)))
    assume(value not in state.legal_moves)
    snapshot = (state.number, state.to_move, state.passes, state.history, hash(state))
    with pytest.raises(IllegalMoveError) as info:
        state.play(value)
    assert str(value) in str(info.value)
    assert isinstance(info.value, ValueError)
    assert (state.number, state.to_move, state.passes, state.history, hash(state)) == snapshot


@given(rules=rules_st, start=st.integers(4, 5000), data=st.data())
def test_states_are_values(rules: Rules, start: int, data: st.DataObject) -> None:
    try:
        state = new_game(rules, start)
    except BadStartError:
        assume(False)
        raise
    assume(state.legal_moves)
    move = data.draw(st.sampled_from(state.legal_moves))
    a, b = state.play(move), state.play(move)
    assert a == b and hash(a) == hash(b) and a is not b
    assert len({a, b, state}) == 2


@pytest.mark.parametrize("bad", [1.5, "6", None, True, 6.0])
def test_non_integer_moves_are_refused(bad: object) -> None:
    state = new_game("divisor-duel", 12)
    with pytest.raises(IllegalMoveError) as info:
        state.play(bad)  # type: ignore[arg-type]
    assert "whole number" in str(info.value)


def test_numpy_integers_are_moves() -> None:
    import numpy as np

    assert new_game("divisor-duel", 12).play(np.int64(6)).number == 6


@pytest.mark.parametrize(
    "changes,words",
    [
        ({"move": "multiply"}, "move='multiply'"),
        ({"divisors": "square"}, "divisors='square'"),
        ({"move": "divide", "allow_one": True}, "for ever"),
        ({"win_on_reaching": "prime", "lose_on_reaching": "prime"}, "both win and lose"),
        ({"colour": "red"}, "Unknown rule field"),
        ({"min_start": 0}, "min_start"),
    ],
)
def test_inconsistent_variants_are_refused(changes: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError) as info:
        DIVISOR_DUEL.variant(**changes)
    assert words in str(info.value)


def test_unknown_book_suggests_a_name() -> None:
    with pytest.raises(DuelError) as info:
        new_game("divisor-dual")
    assert "divisor-duel" in str(info.value)


def test_restricted_divisors_are_data() -> None:
    even = DIVISOR_DUEL.variant(divisors="even")
    assert GameState(even, 60).legal_moves == (2, 4, 6, 10, 12, 20, 30)
    assert GameState(DIVISOR_DUEL.variant(divisors="prime"), 60).legal_moves == (2, 3, 5)
    assert GameState(DIVISOR_DUEL.variant(divisors="odd"), 60).legal_moves == (3, 5, 15)
    with pytest.raises(IllegalMoveError) as info:
        GameState(even, 60).play(15)
    assert "odd" in str(info.value)


def test_huge_numbers_are_quick() -> None:
    n = 2**58 * 3  # about 8.6e17
    state = GameState(DIVISOR_DUEL, n)
    with pytest.raises(DuelError, match="10\\*\\*18"):
        GameState(DIVISOR_DUEL, 2**59 * 3)  # above 10**18: refused, never factorised
    assert n // 2 in state.legal_moves
    assert state.play(n // 2).number == n // 2


@settings(max_examples=300, deadline=None)
@given(rules=rules_st, n=st.one_of(st.integers(1, 5000), st.integers(1, 10**12)))
def test_smallest_divisor_is_the_first_legal_divisor(rules: Rules, n: int) -> None:
    moves = rules.divisors_of(n)
    assert rules.smallest_divisor(n) == (moves[0] if moves else None)


def test_books_by_number_and_short_repr() -> None:
    assert new_game("003").rules is FACTOR_DUEL and new_game("002").rules is DIVISOR_DUEL
    assert repr(new_game("divisor-duel", 60).play(15)) == "GameState('divisor-duel', number=45, to_move=2, moves=1)"


def test_variant_names_leave_out_the_title() -> None:
    assert DIVISOR_DUEL.variant(divisors="even", title="Even Duel").name == "divisor-duel/divisors=even"
    assert DIVISOR_DUEL.variant(title="My Duel").name == "divisor-duel/my-duel"


# -- the registry: shipped books read-only, custom variants apart --------------------------------


def test_shipped_books_are_found_by_scanning_the_books_package() -> None:
    from duel_lessons.engine.rules import book_modules

    modules = book_modules()
    assert [m.RULES.name for m in modules] == list(RULEBOOKS)  # one module per book, in book order
    firsts = [min(m.BOOK_NUMBERS) for m in modules]
    assert firsts == sorted(firsts)  # "book order": by the first rule-book number each module describes
    files = {p.stem for p in Path(duel_lessons.books.__file__).parent.glob("*.py") if p.stem != "__init__"}
    assert {m.__name__.rsplit(".", 1)[1] for m in modules} == files  # every file in books/ is a book
    assert {"divisor-duel", "division-duel", "factor-duel", "number-factor"} <= set(RULEBOOKS)  # the four shipped
    for number, name in {"000": "divisor-duel", "001": "division-duel", "002": "divisor-duel",
                         "003": "factor-duel", "004": "number-factor"}.items():  # fmt: skip
        assert get_rules(number).name == name


def test_a_shipped_name_cannot_be_replaced() -> None:
    """Issue 10: register(DIVISOR_DUEL.variant("divisor-duel", misère)) made every later "divisor-duel" misère."""
    for name in ("divisor-duel", "Divisor Duel", "003"):
        with pytest.raises(RulesError, match="shipped"):
            register(DIVISOR_DUEL.variant(name, last_mover_wins=False))
    assert get_rules("divisor-duel") is DIVISOR_DUEL and DIVISOR_DUEL.last_mover_wins
    with pytest.raises(TypeError):
        RULEBOOKS["mine"] = DIVISOR_DUEL  # type: ignore[index]  # a read-only view


def test_custom_variants_live_in_their_own_registry() -> None:
    mine = DIVISOR_DUEL.variant("my-misere-duel", last_mover_wins=False)
    try:
        assert register(mine) is mine
        assert get_rules("my-misere-duel") is mine and get_rules("My Misere Duel") is mine
        assert "my-misere-duel" in custom_variants() and "my-misere-duel" not in RULEBOOKS
        assert new_game("my-misere-duel", 12).rules is mine
    finally:
        unregister("my-misere-duel")
    with pytest.raises(RulesError, match="Unknown rule book"):
        get_rules("my-misere-duel")
    for bad in (None, 12, 1.5, ["divisor-duel"]):
        with pytest.raises(RulesError):
            get_rules(bad)  # type: ignore[arg-type]
        with pytest.raises(RulesError):
            register(bad)  # type: ignore[arg-type]


def test_game_state_accepts_a_book_name_and_numpy_integers() -> None:
    """Decision (issue 10): GameState looks a name up with get_rules, like new_game, tabulate and analyse."""
    import numpy as np

    state = GameState("divisor-duel", np.int64(12), np.int64(2))  # type: ignore[arg-type]
    assert state.rules is DIVISOR_DUEL and type(state.number) is int and state.to_move == 2
    assert state == GameState(DIVISOR_DUEL, 12, 2) and hash(state) == hash(GameState(DIVISOR_DUEL, 12, 2))
    for bad in (12.0, "12", None, True, 0):
        with pytest.raises(DuelError):
            GameState(DIVISOR_DUEL, bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        GameState("no-such-book", 12)  # type: ignore[arg-type]


def test_a_non_number_never_costs_a_turn() -> None:
    """Number Factor's invalid numbers lose the turn, but 2.0 or "3" is no number at all: refused, state kept."""
    state = new_game("number-factor", 30)
    for bad in (2.0, "3", None, True):
        with pytest.raises(IllegalMoveError):
            state.attempt(bad)
    assert state.attempt(7).to_move == 2  # a whole number that does not divide: the book's lost turn
