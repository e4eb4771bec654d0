"""Sums of games: the XOR rule against a brute force over the sum's own game tree."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from duel_lessons.engine.game import GameState, IllegalMoveError, play_out
from duel_lessons.engine.rules import DIVISOR_DUEL, FACTOR_DUEL, BadStartError, DuelError, Rules
from duel_lessons.play.sums import (
    PerfectSumPlayer,
    SumMoveError,
    SumState,
    count_winning_positions,
    grundy_value,
    hint,
    new_sum,
    outcome,
    sum_grundy,
    sum_transcript,
    winning_moves,
)

from books import all_rules


def _summable(rules: Rules) -> bool:
    try:
        grundy_value(rules, 1)
    except DuelError:  # misère, or a game in which a move can reach a losing number: refused in sums
        return False
    return True


#: Every rule set the tests know (tests/books.py) that sums accept.
MIX: list[Rules] = [rules for rules in all_rules() if _summable(rules)]


def can_be_component(rules: Rules, n: int) -> bool:
    """Numbers whose reaching loses (Factor Duel's 1) are not positions to play a sum from."""
    return rules.ends_on_reaching(n) != "loss"


@cache
def children(rules: Rules, n: int) -> tuple[int, ...]:
    """The numbers one move away in a single component, by the game engine."""
    return tuple(rules.result(n, d) for d in GameState(rules, n).legal_moves)


def mover_wins(components: tuple[tuple[Rules, int], ...]) -> bool:
    """Exhaustive search over the sum's own game tree (engine moves only, no Grundy values)."""
    return _wins(tuple(sorted(components, key=lambda c: (c[0].name, c[1]))))


@cache
def _wins(components: tuple[tuple[Rules, int], ...]) -> bool:
    for i, (rules, n) in enumerate(components):
        for after in children(rules, n):
            if not mover_wins(components[:i] + ((rules, after),) + components[i + 1 :]):
                return True
    return False


@cache
def brute_grundy(rules: Rules, n: int) -> int:
    """mex over the component's moves, a finished component being 0."""
    game = GameState(rules, n)
    seen = {brute_grundy(rules, rules.result(n, d)) for d in game.legal_moves}
    return next(g for g in range(len(seen) + 1) if g not in seen)


component = st.tuples(st.sampled_from(MIX), st.integers(1, 30)).filter(lambda c: can_be_component(*c))


@settings(max_examples=150, deadline=None)
@given(st.lists(component, min_size=2, max_size=3))
def test_xor_rule_matches_brute_force(parts: list[tuple[Rules, int]]) -> None:
    components = tuple(parts)
    assert outcome(components) == ("N" if mover_wins(components) else "P")


@pytest.mark.parametrize("rules", MIX, ids=lambda r: r.name)
def test_grundy_values_match_the_component_graph(rules: Rules) -> None:
    numbers = [n for n in range(1, 80) if can_be_component(rules, n)]
    assert [grundy_value(rules, n) for n in numbers] == [brute_grundy(rules, n) for n in numbers]


def test_one_grundy_convention_with_the_table() -> None:
    """Sums and the single-game table agree where the game ends, Factor Duel's 1 included."""
    from duel_lessons.solving.tables import tabulate

    for rules in MIX:
        table = tabulate(rules, 200)
        assert [grundy_value(rules, n) for n in range(1, 201)] == [int(g) for g in table.grundy[1:201]]
    with pytest.raises(DuelError, match="has lost already"):
        SumState(((FACTOR_DUEL, 1), (DIVISOR_DUEL, 12)))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(MIX[:6]), st.integers(1, 3000)).filter(lambda c: can_be_component(*c)),
        min_size=2,
        max_size=3,
    )
)
def test_winning_moves_lead_to_xor_zero(parts: list[tuple[Rules, int]]) -> None:
    state = SumState(tuple(parts))
    moves = winning_moves(state)
    assert bool(moves) == (sum_grundy(state) != 0)
    for i, d in moves:
        assert (i, d) in state.legal_moves
        assert sum_grundy(state.play(i, d)) == 0
    # and no other move reaches XOR 0
    others = set(state.legal_moves) - set(moves)
    assert all(sum_grundy(state.play(i, d)) != 0 for i, d in sorted(others)[:40])


def test_worked_example() -> None:
    state = new_sum([12, 18, 30])
    assert [grundy_value(r, n) for r, n in state.components] == [3, 1, 1]
    assert sum_grundy(state) == 3 and outcome(state) == "N"
    assert winning_moves(state) == ((0, 3), (0, 4), (1, 2), (2, 2))
    assert "3 XOR 1 XOR 1 = 3" in hint(state) and "component 1" in hint(state)
    after = state.play(0, 3)
    assert outcome(after) == "P" and "P-position" in hint(after)


def test_illegal_moves_leave_the_state_unchanged() -> None:
    state = new_sum([12, "division-duel:18", 30])
    before = (state.components, state.to_move, state.history)
    cases = [(1, 5, "5 does not divide 18"), (3, 2, "only 3 components"), (0, "6", "whole number"), (0, 12, "not less")]
    for index, divisor, words in cases:
        with pytest.raises(IllegalMoveError) as info:
            state.play(index, divisor)  # type: ignore[arg-type]
        assert words in str(info.value)
        assert isinstance(info.value, SumMoveError)
    with pytest.raises(SumMoveError) as info:
        state.play(1, 5)
    message = str(info.value)
    assert "component 2" in message and "Division Duel" in message and "5" in message
    assert (state.components, state.to_move, state.history) == before
    finished = SumState(((DIVISOR_DUEL, 7), (DIVISOR_DUEL, 12)))
    with pytest.raises(SumMoveError, match="no moves left"):
        finished.play(0, 1)


def test_state_basics() -> None:
    state = new_sum([4, "factor-duel:5"])
    assert state.legal_moves == ((0, 2),)  # factor-duel at the prime 5 is a finished component
    end = state.play(0, 2)
    assert end.is_over and end.winner == 1 and end.to_move == 2
    twin = SumState(end.components, 2, end.history)
    assert hash(end) == hash(twin) and end == twin
    assert end.starts == (4, 5)
    text = sum_transcript(end)
    assert "4 (Divisor Duel) + 5 (Factor Duel)" in text and "component 1, 4 - 2 = 2" in text and "Player 1 wins" in text
    assert "<table>" in end._repr_html_()


def test_bad_sums_are_refused_clearly() -> None:
    with pytest.raises(DuelError, match="misère"):
        new_sum([(DIVISOR_DUEL.variant(last_mover_wins=False), 10)])
    with pytest.raises(DuelError, match="reaching loses"):
        grundy_value(DIVISOR_DUEL.variant(allow_one=True, lose_on_reaching="prime"), 10)
    with pytest.raises(DuelError, match="reaching loses"):
        new_sum([(DIVISOR_DUEL.variant(allow_one=True, lose_on_reaching="one"), 10)])
    with pytest.raises(BadStartError, match="7 is prime"):
        new_sum([12, "division-duel:7"])
    with pytest.raises(DuelError, match="not a component"):
        new_sum(["twelve"])
    with pytest.raises(DuelError, match="at least one"):
        SumState(())
    with pytest.raises(DuelError, match="positive whole number"):
        SumState(((DIVISOR_DUEL, 0),))


def test_perfect_player_wins_from_n_positions() -> None:
    rng = random.Random(3)
    player = PerfectSumPlayer()
    for _ in range(20):
        state = new_sum([rng.randint(3, 200), f"division-duel:{rng.choice([12, 30, 64])}", rng.randint(3, 200)])
        if outcome(state) == "P":
            state = state.play(*player(state))  # the perfect player moves second from an N-position
            perfect = 2
        else:
            perfect = 1
        while not state.is_over:
            move = player(state) if state.to_move == perfect else rng.choice(state.legal_moves)
            state = state.play(*move)
        assert state.winner == perfect


def test_perfect_player_from_p_keeps_most_options() -> None:
    state = SumState(((DIVISOR_DUEL, 9), (DIVISOR_DUEL, 3)))  # 9: only 9 - 3 = 6
    assert outcome(state) == "P" and PerfectSumPlayer()(state) == (0, 3)
    with pytest.raises(DuelError, match="over"):
        PerfectSumPlayer()(SumState(((DIVISOR_DUEL, 3),)))


def brute_p_positions(books, box) -> list[tuple[int, ...]]:
    """Every P-position of the box in the box's order, by the sum's own game tree (no Grundy values)."""
    return [point for point in itertools.product(*box) if not mover_wins(tuple(zip(books, point, strict=True)))]


def test_count_matches_brute_force_on_a_small_box() -> None:
    books = [MIX[0], MIX[2], MIX[1]]
    box = [range(1, 13), range(3, 11), range(4, 9)]
    result = count_winning_positions(books, box)
    expected = brute_p_positions(books, box)
    assert result.p_positions() == expected
    assert (result.total, result.p_count, result.n_count) == (480, len(expected), 480 - len(expected))
    assert result.p_fraction == pytest.approx(len(expected) / 480)
    assert result.n_fraction == pytest.approx(1 - len(expected) / 480)
    assert result.p_positions(3) == expected[:3] and result.p_positions(0) == []


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(MIX), min_size=1, max_size=3), st.data())
def test_count_with_a_rule_book_per_axis_against_the_game_tree(books: list[Rules], data: st.DataObject) -> None:
    """Mixed rule books per axis; axes as ranges (upwards or downwards) or lists with repeats."""
    box: list[range | list[int]] = []
    for _ in books:
        lo = data.draw(st.integers(1, 14))
        hi = data.draw(st.integers(lo - 1, 16))
        kind = data.draw(st.sampled_from(["up", "down", "list"]))
        if kind == "up":
            box.append(range(lo, hi + 1))
        elif kind == "down":
            box.append(range(hi, lo - 1, -1))
        else:
            box.append(data.draw(st.lists(st.integers(1, 16), max_size=6)))
    assume(all(can_be_component(b, n) for b, axis in zip(books, box, strict=True) for n in axis))  # Factor Duel's 1
    result = count_winning_positions(books, box)
    numbers = [sorted(axis) if isinstance(axis, range) else axis for axis in box]  # a range is listed upwards
    expected = brute_p_positions(books, numbers)
    total = 1
    for axis in box:
        total *= len(axis)
    assert (result.total, result.p_count, result.n_count) == (total, len(expected), total - len(expected))
    assert result.p_positions() == expected


def test_count_one_book_for_every_range() -> None:
    two = count_winning_positions("divisor-duel", [range(1, 101), range(1, 101)])
    same = count_winning_positions(["divisor-duel", "divisor-duel"], [range(1, 101), range(1, 101)])
    assert two == same
    listed = two.p_positions()
    assert len(listed) == two.p_count and {(b, a) for a, b in listed} == set(listed)  # a + b is b + a
    assert "10,000 positions" in str(two) and "Divisor Duel + Divisor Duel" in str(two)
    assert f"{two.p_count:,}" in two._repr_html_()
    with pytest.raises(DuelError, match="one range per component"):
        count_winning_positions(["divisor-duel"], [range(1, 5), range(1, 5)])


def test_a_box_far_over_the_old_limit_is_counted_exactly() -> None:
    """The old enumeration refused boxes over 2 * 10**8 positions; now any box is counted by Grundy values.

    With 1 allowed, g(n) = v2(n) (the exponent of 2 in n).  Of 1 .. 2^k, exactly 2^(k-g-1) numbers have
    v2 = g for g < k, and one (2^k itself) has v2 = k.  Two parts are P when their values are equal, so
    the box 1..2^k squared holds 4^(k-1) + 4^(k-2) + ... + 1 + 1 = (4^k - 1) / 3 + 1 P-positions.
    """
    k = 59  # 2^59 < 10**18 < 2^60
    rules = DIVISOR_DUEL.variant(allow_one=True)
    huge = count_winning_positions(rules, [range(1, 2**k + 1)] * 2)
    assert huge.total == 4**k
    assert huge.p_count == (4**k - 1) // 3 + 1
    assert huge.n_count == 4**k - huge.p_count
    with pytest.raises(DuelError, match=r"listed only from boxes of at most 1,000,000 positions"):
        huge.p_positions()
    with pytest.raises(DuelError, match="at most 1,000,000"):
        huge.p_positions(1)  # even a few: listing visits the box position by position


def test_plain_divisor_duel_over_the_old_limit() -> None:
    """20,000 × 20,000 (4 * 10**8 positions, twice the old limit): two parts are P exactly when their Grundy
    values are equal, so the count is the sum of the squares of how many n have each value (from the
    single-game table, not the box counter)."""
    from collections import Counter

    from duel_lessons.solving.tables import tabulate

    grundy = tabulate(DIVISOR_DUEL, 20_000).grundy
    values = Counter(int(g) for g in grundy[1:20_001])
    box = count_winning_positions("divisor-duel", [range(1, 20_001)] * 2)
    assert box.total == 4 * 10**8
    assert box.p_count == sum(c * c for c in values.values())


def test_listing_limits_are_checked() -> None:
    box = count_winning_positions("divisor-duel", [range(1, 5)])
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(DuelError, match="whole number 0 or more"):
            box.p_positions(bad)
    assert box.p_positions(None) == [(1,), (2,), (3,)]  # 4 - 2 = 2 is the only move from 4
    empty = count_winning_positions("divisor-duel", [range(1, 5), range(3, 3)])
    assert (empty.total, empty.p_count, empty.p_fraction, empty.p_positions()) == (0, 0, 0.0, [])


def test_big_sums_are_solved_by_xor() -> None:
    """Sums of three numbers up to 10^4: the outcome is the XOR of the Grundy values, and every
    winning move leaves XOR 0 (how fast: benchmarks/bench_sums.py)."""
    from duel_lessons.solving.tables import tabulate

    table = tabulate(DIVISOR_DUEL, 10_000)
    rng = random.Random(0)
    for _ in range(30):
        numbers = [rng.randint(1, 10_000) for _ in range(3)]
        state = new_sum(numbers)
        total = 0
        for n in numbers:
            total ^= int(table.grundy[n])
        assert outcome(state) == ("N" if total else "P")
        every_zeroing_move = {
            (i, d)
            for i, n in enumerate(numbers)
            for d in DIVISOR_DUEL.divisors_of(n)
            if total ^ int(table.grundy[n]) ^ int(table.grundy[n - d]) == 0
        }
        assert set(winning_moves(state)) == every_zeroing_move, numbers  # all of them, and none from a P-position
        assert bool(every_zeroing_move) == bool(total)


def test_play_out_drives_a_sum() -> None:
    """SumState is a Position: play_out plays sums with the same loop as single games."""
    perfect = PerfectSumPlayer()
    state = new_sum([12, 18, 30])
    assert outcome(state) == "N" and not state.must_pass
    end = play_out(state, (perfect, lambda s: s.legal_moves[0]))
    assert end.is_over and end.winner == 1
    with pytest.raises(SumMoveError, match="pair"):
        state.attempt(6)
    with pytest.raises(SumMoveError, match="no passing"):
        state.pass_turn()
    with pytest.raises(SumMoveError):
        play_out(state, (lambda s: (0, 5), perfect))  # 5 does not divide 12
