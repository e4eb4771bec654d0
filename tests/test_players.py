"""Computer players and the coach: perfect play never loses a won position."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duel_lessons.engine.game import GameState, new_game, play_out
from duel_lessons.engine.rules import NUMBER_FACTOR, DuelError, Rules
from duel_lessons.play import coach
from duel_lessons.play.coach import Coach, explain, hint, situation, winning_moves
from duel_lessons.play.players import (
    LEVELS,
    CoachPlayer,
    GreedyPlayer,
    PerfectPlayer,
    RandomPlayer,
    make_player,
)
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.oracle import oracle
from duel_lessons.solving.tables import tabulate

from books import all_rules

#: Every shipped book, every closed form's rules and the generated variants (tests/books.py).
VARIANTS: dict[str, Rules] = {rules.name: rules for rules in all_rules()}
CLOSED = [name for name, rules in VARIANTS.items() if closed_form(rules) is not None]
BIG = 10**18


def start(rules: Rules, n: int) -> GameState:
    return GameState(rules, n)


def n_positions(rules: Rules, upto: int) -> list[int]:
    table = tabulate(rules, upto)
    return [n for n in range(1, upto + 1) if not table.is_p(n) and rules.ends_on_reaching(n) is None]


def test_the_variants_cover_closed_forms_and_computed_games() -> None:
    assert set(CLOSED) >= {"divisor-duel", "division-duel", "factor-duel", "number-factor"}
    assert len(VARIANTS) - len(CLOSED) >= 5  # variants without a closed form: the table path


@pytest.mark.parametrize("name", VARIANTS)
def test_perfect_never_loses_from_n_positions_against_random_and_greedy(name: str) -> None:
    rules = VARIANTS[name]
    perfect = PerfectPlayer()
    for i, n in enumerate(n_positions(rules, 400)):
        for opponent in (RandomPlayer(seed=i), GreedyPlayer()):
            end = play_out(start(rules, n), {1: perfect, 2: opponent})  # the engine's one game loop
            assert end.winner == 1, (name, n, opponent.name, end.history)


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=30, deadline=None)
@given(data=st.data(), n=st.integers(1, 3000))
def test_perfect_never_loses_against_any_sequence(name: str, data: st.DataObject, n: int) -> None:
    rules = VARIANTS[name]
    if tabulate(rules, 3000).is_p(n) or rules.ends_on_reaching(n) is not None:
        return
    perfect = PerfectPlayer()
    state = start(rules, n)
    while not state.is_over:
        if state.must_pass:
            state = state.pass_turn()
        elif state.to_move == 1:
            state = state.play(perfect(state))
        else:
            state = state.play(data.draw(st.sampled_from(state.legal_moves)))
    assert state.winner == 1


@pytest.mark.parametrize("name", CLOSED)
@settings(max_examples=15, deadline=None)
@given(data=st.data(), n=st.integers(10**6, 10**7))
def test_perfect_with_closed_form_above_the_table_never_loses(name: str, data: st.DataObject, n: int) -> None:
    rules = VARIANTS[name]
    form = closed_form(rules)
    assert form is not None
    if form.is_p(n) or rules.ends_on_reaching(n) is not None:
        return
    perfect = PerfectPlayer(table_size=0)  # closed form only
    state = start(rules, n)
    for _ in range(6):  # a few rounds: every perfect move must hand over a P-position
        if state.is_over or state.must_pass:
            break
        state = state.play(perfect(state))
        assert state.is_over or form.is_p(state.number)
        if state.is_over or state.must_pass:
            break
        state = state.play(data.draw(st.sampled_from(state.legal_moves)))


@pytest.mark.parametrize("name", VARIANTS)
def test_perfect_moves_use_remoteness(name: str) -> None:
    rules = VARIANTS[name]
    table = tabulate(rules, 1500)
    perfect = PerfectPlayer()
    for n in range(1, 1501):
        state = start(rules, n)
        if not state.legal_moves:
            continue
        d = perfect(state)
        r = rules.result(n, d)
        assert table.is_p(r) != table.is_p(n), (n, d)
        # The winner hurries and the loser delays: either way the remoteness drops by exactly one.
        assert table.remoteness[r] == table.remoteness[n] - 1, (n, d)


@pytest.mark.parametrize("name", VARIANTS)
def test_perfect_move_at_10_to_the_18(name: str) -> None:
    rules = VARIANTS[name]
    form = oracle(rules).above_table  # the closed form, or outcomes from a proved Grundy formula
    perfect = PerfectPlayer()
    for n in (BIG, BIG - 1, BIG + 3 - 9, 2**59, 3**37, 999_999_999_999_999_989):
        state = start(rules, n)
        if not state.legal_moves:
            continue
        if form is None:
            with pytest.raises(DuelError, match="no proved closed form"):
                perfect(state)
            continue
        d = perfect(state)
        assert d in state.legal_moves
        if form.is_p(n):
            assert d == state.legal_moves[0]  # the documented heuristic: no remoteness beyond the table
        else:
            assert form.is_p(rules.result(n, d))
        assert set(winning_moves(state)) == {m for m in state.legal_moves if form.is_p(rules.result(n, m))}


@pytest.mark.parametrize("name", VARIANTS)
def test_coach_winning_moves_equal_the_solvers(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = VARIANTS[name]
    table = tabulate(rules, 2000)
    for n in range(1, 2001):
        assert winning_moves(start(rules, n)) == table.winning_moves(n), n
    if closed_form(rules) is not None:  # the closed-form path, as used above the oracle's table
        monkeypatch.setattr(coach, "_oracle", lambda state: oracle(state.rules, 1))
        for n in range(1, 2001):
            assert winning_moves(start(rules, n)) == table.winning_moves(n), n


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("n", [12, 57, 60, 64, 96, 100])
def test_explanations_mention_the_numbers(name: str, n: int) -> None:
    rules = VARIANTS[name]
    state = start(rules, n)
    text = explain(state)
    assert str(n) in text
    form = closed_form(rules)
    wins = winning_moves(state)
    named = [] if form is None or not wins else [form.winning_move(n)]
    for d in [*named, *wins]:
        assert d is not None and str(d) in text
    if closed_form(rules) is None and state.legal_moves:
        assert "computed check" in text
    else:
        assert "table" not in text


def test_coach_examples() -> None:
    state = new_game("divisor-duel", 57)
    text = Coach().explain(state)
    assert "57 is odd, so every divisor of 57 is odd" in text
    assert "57 − 3 = 54 and 57 − 19 = 38, each a winning position for your opponent" in text
    assert winning_moves(state) == ()
    assert "odd or even" in hint(state, stage=2) and "odd" not in hint(state, stage=1)
    assert "Every move from 57" in hint(state, stage=3)
    won = new_game("divisor-duel", 60)
    assert winning_moves(won) == (3, 5, 15) and "Subtract 15" in explain(won)
    assert "3 moves win here" in explain(won)
    assert "Play 3: 60 − 3 = 57" in hint(won, stage=3)
    assert situation(won) == "Player 1 to move from 60." and "to move from" not in explain(won)


def test_game_over_explanations() -> None:
    end = new_game("divisor-duel", 4).play(2)
    assert explain(end).endswith("Player 1 wins.") and "2" in explain(end)
    assert "game is over" in hint(end)
    prime = new_game("factor-duel", 12).play(1)
    assert "11" in explain(prime) and "Player 1 wins" in explain(prime)
    passes = new_game("number-factor", 6).play(3)
    passes = passes.pass_turn().pass_turn()
    assert "both players passed" in Coach(("Ann", "Bob")).explain(passes) and "Ann wins" in explain(
        passes, ("Ann", "Bob")
    )
    must = new_game("number-factor", 6).play(2)
    assert "must pass" in hint(must) and "3" in explain(must)


def test_levels_and_simple_players() -> None:
    assert list(LEVELS) == ["random", "greedy", "perfect", "coach"]
    state = new_game("divisor-duel", 60)
    assert make_player("greedy")(state) == 30
    assert make_player("Perfect")(state) in winning_moves(state)
    a, b = make_player("random", seed=3), make_player("random", seed=3)
    assert [a(state) for _ in range(10)] == [b(state) for _ in range(10)]
    for level in LEVELS:
        player = make_player(level, seed=1)
        assert player.level == level and player.name  # type: ignore[attr-defined]
    with pytest.raises(DuelError, match="Unknown player level"):
        make_player("grandmaster")
    with pytest.raises(DuelError, match="no legal move"):
        GreedyPlayer()(new_game("divisor-duel", 7))


def test_coach_player_explains_its_move() -> None:
    player = CoachPlayer()
    state = new_game(NUMBER_FACTOR, 60)
    d = player(state)
    assert d in winning_moves(state)
    assert player.last_explanation.startswith(f"I play {d}.") and "60" in player.last_explanation


#: Words that would give a theorem away in a first hint.
THEOREM_WORDS = ("odd", "even", "prime", "power", "P-position", "losing", "winning", "factor")


@pytest.mark.parametrize("name", VARIANTS)
def test_staged_hints_depend_on_the_position_and_say_more_each_stage(name: str) -> None:
    rules = VARIANTS[name]
    for n in (12, 30, 57, 60, 64, 96):
        state = start(rules, n)
        if not state.legal_moves:
            continue
        first, second, third = (hint(state, stage=k) for k in (1, 2, 3))
        assert "?" in first and str(rules.result(n, state.legal_moves[0])) in first
        assert not any(word in first.lower() for word in THEOREM_WORDS), first
        assert second != first and second != third
        wins = winning_moves(state)
        if wins:
            move = int(third.split(":")[0].removeprefix("Play "))
            assert move in wins, third
        else:
            assert third.startswith(f"Every move from {n}"), third
    assert hint(start(rules, 12), stage=1) != hint(start(rules, 30), stage=1)  # the question names this position


def test_hints_refuse_bad_stages_and_names() -> None:
    state = new_game("divisor-duel", 60)
    for stage in (0, 4, True, "2", None):
        with pytest.raises(DuelError):
            hint(state, stage=stage)  # type: ignore[arg-type]
    with pytest.raises(DuelError):
        hint(state, names="Ann")  # type: ignore[arg-type]
    with pytest.raises(DuelError):
        Coach().explain(60)  # type: ignore[arg-type]


def test_make_player_refuses_non_text() -> None:
    for bad in (None, 3, ["perfect"]):
        with pytest.raises(DuelError):
            make_player(bad)  # type: ignore[arg-type]
