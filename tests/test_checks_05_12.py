"""Lessons 05-12: the checks' brute force agrees with the package, hints hold no answers, bots that crash fail."""

from __future__ import annotations

import itertools

import pytest

from duel_lessons import DIVISOR_DUEL
from duel_lessons.engine.game import GameState
from duel_lessons.play.sums import new_sum, outcome
from duel_lessons.teaching.checks import spec
from duel_lessons.teaching.checks.lesson09 import nim_outcome, nim_winning_moves, subtraction_outcome
from duel_lessons.teaching.checks.lesson10 import brute
from duel_lessons.teaching.checks.lesson12 import largest_odd

LESSON_12 = {"rules": "divisor-duel", "starts": 10, "seed": 2026, "start_range": (10, 200), "check_upto": 40}


def test_nim_brute_force_agrees_with_the_nim_sum() -> None:
    for heaps in itertools.product(range(6), repeat=3):
        assert (nim_outcome(heaps) == "P") == (heaps[0] ^ heaps[1] ^ heaps[2] == 0), heaps


def test_nim_winning_moves_leave_nim_sum_zero() -> None:
    for heaps in itertools.product(range(1, 6), repeat=3):
        for heap, count in nim_winning_moves(heaps):
            left = list(heaps)
            left[heap - 1] -= count
            assert left[0] ^ left[1] ^ left[2] == 0


def test_subtraction_game_1_2_3_loses_at_multiples_of_4() -> None:
    assert [n for n in range(1, 41) if subtraction_outcome(n, (1, 2, 3)) == "P"] == list(range(4, 41, 4))


def test_brute_force_sums_agree_with_the_package() -> None:
    for a, b in itertools.combinations_with_replacement(range(1, 25), 2):
        assert brute(DIVISOR_DUEL, (a, b)) == outcome(new_sum([a, b])), (a, b)


def test_issue_11_statements_by_brute_force() -> None:
    from duel_lessons.play.sums import grundy_value

    assert (grundy_value(DIVISOR_DUEL, 36), grundy_value(DIVISOR_DUEL, 40)) == (2, 4)
    assert [n for n in range(13, 51) if brute(DIVISOR_DUEL, (12, n)) == "P"] == [20, 48]
    misere = DIVISOR_DUEL.variant(last_mover_wins=False)
    assert [4 - d for d in misere.divisors_of(4)] == [2]


def crashing_on_powers_of_two(state: GameState) -> int:
    return max(d for d in state.legal_moves if d % 2 == 1)


def cheating(state: GameState) -> int:
    return state.number  # never a legal move


@pytest.mark.parametrize("bot", [crashing_on_powers_of_two, cheating])
def test_a_bot_that_forfeits_fails_both_bot_checks(bot: object) -> None:
    checks = spec("12").checks
    assert checks["2"](bot, LESSON_12).kind == "miss"
    assert checks["3"](bot, LESSON_12).kind == "miss"


def test_largest_odd_does_not_beat_itself() -> None:
    assert not spec("12").checks["3"](largest_odd, LESSON_12).right


def test_an_unwritten_bot_is_unanswered() -> None:
    def my_bot(state: GameState) -> None: ...

    assert spec("12").checks["3"](my_bot, LESSON_12).kind == "unanswered"


@pytest.mark.parametrize(
    ("lesson", "name", "params", "wrong", "right"),
    [
        ("05", "1", {"rules": "division-duel", "start": 60, "upto": 100, "ex_start": 36, "ex_omega": 720,
                     "ex_power": 1024, "ex_length": 5}, [12], [12, 18]),
        ("06", "4", {"rules": "factor-duel", "start": 100, "upto": 100, "ex_number": 91}, [5, 25], [1, 5, 25]),
        ("10", "3", {"rules": "divisor-duel", "hand_limit": 12, "partner": 12, "ex_set": [0, 1, 3], "ex_g": 24,
                     "ex_pair": [6, 16]}, [20, 36, 40], [20, 48]),
    ],
)
def test_hints_never_contain_the_answer(lesson: str, name: str, params: dict[str, object], wrong: list[int],
                                        right: list[int]) -> None:
    check = spec(lesson).checks[name]
    assert check(right, params).right
    verdict = check(wrong, params)
    assert not verdict.right
    for text in (verdict.hint, verdict.stronger):
        assert str(right) not in text and ", ".join(map(str, right)) not in text
