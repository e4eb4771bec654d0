"""Lessons 05-12: the checks' brute force agrees with the package, hints hold no answers, bots that crash fail."""

from __future__ import annotations

import itertools

import pytest

from duel_lessons import DIVISOR_DUEL
from duel_lessons.engine.game import GameState
from duel_lessons.play.nim_solver import nim_outcome, nim_winning_moves, subtraction_outcome
from duel_lessons.play.sums import new_sum, outcome
from duel_lessons.teaching.checks import spec
from duel_lessons.teaching.checks.lesson10 import brute
from duel_lessons.teaching.checks.lesson12 import largest_odd

STARTS_12 = [32, 36, 40, 91, 128, 138, 141, 152, 169, 175]  # lesson 12's STARTS
LESSON_12 = {"rules": "divisor-duel", "starts": STARTS_12, "check_upto": 40}


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
        ("06", "3", {"rules": "factor-duel", "start": 100, "upto": 100, "ex_number": 91}, [5, 25], [1, 5, 25]),
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


def test_numbers_stated_in_lessons_05_12_prose() -> None:
    """Numbers that the prose, teacher notes and teacher guide state for lessons 05-12, by brute force."""
    import sympy

    from duel_lessons import get_rules, new_game
    from duel_lessons.play.players import make_player
    from duel_lessons.play.sums import grundy_value
    from duel_lessons.solving.tables import tabulate

    division, factor = get_rules("division-duel"), get_rules("factor-duel")
    assert new_game(division, 60).legal_moves == (2, 3, 4, 5, 6, 10, 12, 15, 20, 30)  # lesson 05's introduction
    assert tabulate(division, 45).winning_moves(45) == (9, 15) and sympy.primeomega(45) - 1 == 2  # 05 exit ticket
    assert tabulate(factor, 100).winning_moves(50) == (1, 5, 25) and tabulate(factor, 100).is_p(77)  # 06 exit ticket
    assert tabulate(factor, 100).winning_moves(60) == (1, 3, 5, 15)  # 06 teacher note
    assert new_game(factor, 30).play(15).play(5).play(5).winner == 1  # 06: book 003's Example 2 is consistent
    even = DIVISOR_DUEL.variant(divisors="even")
    assert tabulate(even, 60).winning_moves(44) == (2, 22)  # 08 exit ticket
    assert nim_winning_moves([6, 10, 13]) == [(3, 1)] and nim_winning_moves([3, 4, 6]) == [(1, 1)]  # 09
    g = {n: grundy_value(DIVISOR_DUEL, n) for n in range(1, 41)}
    assert [(28 - d, g[28 - d]) for d in DIVISOR_DUEL.divisors_of(28)] == [(26, 1), (24, 4), (21, 0), (14, 1)]
    assert g[28] == 2  # 10 exit ticket
    assert (g[10], g[12], g[24], g[16]) == (1, 3, 4, 2)  # 11 exit ticket: 1 ^ 3 ^ 4 = 6, and 24 -> 16
    assert (g[18], g[16]) == (1, 2) and (g[4], g[4], g[6]) == (1, 1, 2)  # 11 teacher note
    perfect = make_player("perfect")
    assert [largest_odd(new_game(DIVISOR_DUEL, n)) for n in (16, 64)] == [2, 2]  # lesson 12's model answer
    assert [perfect(new_game(DIVISOR_DUEL, n)) for n in (16, 64)] == [8, 32]
    assert [n for n in STARTS_12 if not tabulate(DIVISOR_DUEL, 200).is_p(n)] == [36, 40, 138, 152]  # 12 ex. 1
