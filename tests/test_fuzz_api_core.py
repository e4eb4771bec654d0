"""Fuzzing the core API with values of every type: only correct results or DuelError subclasses.

Each entry point (new_game, GameState, play, attempt, closed_form, the oracle, make_player,
analyse, the coach) gets ints (small, huge, negative), numpy integers, floats, bools, text,
None and containers.  Whatever it gets, it must answer or raise a DuelError subclass: never
TypeError, AttributeError, KeyError or a plain ValueError, and never hang.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duel_lessons import DuelError, GameState, new_game
from duel_lessons.engine.rules import RULEBOOKS, Rules
from duel_lessons.play import coach
from duel_lessons.play.analysis import Analysis, analyse
from duel_lessons.play.players import make_player
from duel_lessons.solving.closed_forms import ClosedForm, closed_form
from duel_lessons.solving.oracle import Oracle, oracle

from brute import Brute

numbers = st.one_of(
    st.integers(-5, 200),
    st.integers(-(10**30), 10**30),
    st.sampled_from([10**18, 10**18 + 1, 0, -1, 2**63]),
    st.integers(1, 200).map(np.int64),
    st.integers(1, 200).map(np.int32),
)
anything = st.one_of(
    numbers,
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=12),
    st.sampled_from(["divisor-duel", "003", "12", " 60 ", "perfect", "coach", "", "²"]),
    st.none(),
    st.lists(st.integers(0, 9), max_size=3),
    st.tuples(st.integers(0, 3), st.integers(0, 9)),
    st.builds(complex, st.integers(0, 3), st.integers(0, 3)),
)
rules_like = st.one_of(st.sampled_from([*RULEBOOKS.values(), *RULEBOOKS]), anything)

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def answers_or_duel_error(call: Callable[[], object]) -> object:
    """Call it: a result, or None if it raised a DuelError subclass (anything else fails the test)."""
    try:
        return call()
    except DuelError as error:
        assert type(error) is not ValueError and str(error), repr(error)
        return None


@FUZZ
@given(rules=rules_like, start=anything, first=anything)
def test_new_game(rules: object, start: object, first: object) -> None:
    game = answers_or_duel_error(lambda: new_game(rules, start, first))  # type: ignore[arg-type]
    if game is not None:
        assert isinstance(game, GameState) and 1 <= game.number <= 10**18 and game.to_move in (1, 2)


@FUZZ
@given(rules=rules_like, n=anything, to_move=anything)
def test_game_state(rules: object, n: object, to_move: object) -> None:
    state = answers_or_duel_error(lambda: GameState(rules, n, to_move))  # type: ignore[arg-type]
    if state is not None:
        assert isinstance(state, GameState) and type(state.number) is int and isinstance(state.rules, Rules)


@FUZZ
@given(book=st.sampled_from(list(RULEBOOKS.values())), n=st.integers(2, 400), move=anything)
def test_play_and_attempt(book: Rules, n: int, move: object) -> None:
    state = GameState(book, n)
    played = answers_or_duel_error(lambda: state.play(move))  # type: ignore[arg-type]
    if played is not None:
        assert isinstance(played, GameState) and played.number < n
    tried = answers_or_duel_error(lambda: state.attempt(move))
    if tried is not None:
        assert isinstance(tried, GameState) and tried.to_move != state.to_move


def _small_whole(n: object) -> int | None:
    """n as a position small enough for the brute force (1..200), else None."""
    if isinstance(n, (bool, float, complex)) or not isinstance(n, (int, np.integer)):
        return None
    return int(n) if 1 <= int(n) <= 200 else None


@FUZZ
@given(rules=rules_like, n=anything)
def test_closed_form(rules: object, n: object) -> None:
    """Whatever closed_form is given, a form it returns answers like the brute force of its own rules."""
    form = answers_or_duel_error(lambda: closed_form(rules))  # type: ignore[arg-type]
    if form is None:
        return
    assert isinstance(form, ClosedForm)
    small = _small_whole(n)
    answers = {
        name: answers_or_duel_error(lambda q=question: q(n))  # type: ignore[misc]
        for name, question in (("is_p", form.is_p), ("move", form.winning_move), ("explain", form.explain))
    }
    if small is None:
        return
    brute = Brute.of(form.rules)
    assert answers["is_p"] == (brute.outcome(small) == "P")
    if answers["is_p"]:
        assert answers["move"] is None
    else:
        assert answers["move"] in brute.winning_moves(small)
    assert isinstance(answers["explain"], str) and answers["explain"]


@FUZZ
@given(rules=rules_like, n=anything, size=anything)
def test_oracle(rules: object, n: object, size: object) -> None:
    """Whatever the oracle is given, its answers agree with each other and with the brute force."""
    answers_or_duel_error(lambda: oracle(rules, size))  # type: ignore[arg-type]
    ask = answers_or_duel_error(lambda: oracle(rules))  # type: ignore[arg-type]
    if ask is None:
        return
    assert isinstance(ask, Oracle)
    questions = {
        "is_p": ask.is_p,
        "outcome": ask.outcome,
        "winning_moves": ask.winning_moves,
        "best_move": ask.best_move,
        "grundy": ask.grundy,
        "explain": ask.explain,
    }
    got = {name: answers_or_duel_error(lambda q=q: q(n)) for name, q in questions.items()}  # type: ignore[misc]
    small = _small_whole(n)
    if small is None:
        return
    brute = Brute.of(ask.rules)
    truth = brute.outcome(small)
    assert got["outcome"] == truth and got["is_p"] == (truth == "P")
    assert set(got["winning_moves"]) == set(brute.winning_moves(small))  # type: ignore[call-overload]
    if brute.winning_moves(small):  # an N-position whose game is over (reached-loss) has no winning move
        assert got["best_move"] in brute.winning_moves(small)
    if ask.rules.last_mover_wins:
        assert got["grundy"] == brute.grundy(small)
    assert isinstance(got["explain"], str) and str(small) in got["explain"]


@FUZZ
@given(level=anything, seed=anything)
def test_make_player(level: object, seed: object) -> None:
    player = answers_or_duel_error(lambda: make_player(level, seed))  # type: ignore[arg-type]
    if player is not None:
        assert callable(player) and player(new_game("divisor-duel", 60)) in (2, 3, 4, 5, 6, 10, 12, 15, 20, 30)


@settings(max_examples=80, deadline=None)
@given(rules=rules_like, n=st.one_of(anything, st.integers(1, 300)))
def test_analyse(rules: object, n: object) -> None:
    """Whatever analyse is given, an analysis it returns agrees with the brute force of its own rules."""
    a = answers_or_duel_error(lambda: analyse(rules, n))  # type: ignore[arg-type]
    if a is None:
        return
    assert isinstance(a, Analysis) and a.explanation
    small = _small_whole(n)
    if small is None:
        return
    brute = Brute.of(a.rules)
    assert a.n == small and a.outcome == brute.outcome(small)
    assert set(a.winning_moves) == set(brute.winning_moves(small))


@FUZZ
@given(
    state=st.one_of(anything, st.integers(2, 200).map(lambda n: GameState("divisor-duel", n))),
    stage=st.one_of(st.sampled_from([1, 2, 3]), anything),
)
def test_coach(state: object, stage: object) -> None:
    """The coach answers any state in words, or refuses it; its winning moves are the brute force's."""
    said = [
        answers_or_duel_error(ask)
        for ask in (
            lambda: coach.hint(state, stage=stage),  # type: ignore[arg-type]
            lambda: coach.explain(state),  # type: ignore[arg-type]
            lambda: coach.situation(state),  # type: ignore[arg-type]
        )
    ]
    moves = answers_or_duel_error(lambda: coach.winning_moves(state))  # type: ignore[arg-type]
    if isinstance(state, GameState):
        assert all(isinstance(text, str) and text for text in said[1:])
        a_stage = not isinstance(stage, bool) and stage in (1, 2, 3)
        assert (isinstance(said[0], str) and bool(said[0])) == a_stage, (stage, said[0])  # else refused by name
        assert set(moves) == set(Brute.of("divisor-duel").winning_moves(state.number))  # type: ignore[call-overload]
    else:
        assert said[1:] == [None, None] and moves is None


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: closed_form("divisor-duel").rules.name, "divisor-duel"),  # type: ignore[union-attr]
        (lambda: GameState("divisor-duel", 12).number, 12),
        (lambda: closed_form("divisor-duel").is_p(np.int64(12)), False),  # type: ignore[union-attr]
        (lambda: closed_form("divisor-duel").is_p(np.int64(8)), True),  # type: ignore[union-attr]
    ],
)
def test_the_answers_named_in_issue_10(call: Callable[[], object], expected: object) -> None:
    assert call() == expected


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: make_player(None), "level"),  # type: ignore[arg-type]
        (lambda: new_game("number-factor", 30).attempt(2.0), "whole number"),
        (lambda: closed_form("divisor-duel").is_p(0), "position"),  # type: ignore[union-attr]
    ],
)
def test_the_refusals_named_in_issue_10(call: Callable[[], object], error: str) -> None:
    with pytest.raises(DuelError, match=error):
        call()
