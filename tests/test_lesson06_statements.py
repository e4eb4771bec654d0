"""Factor Duel's statements about winning moves, checked by a brute force written from the rules alone."""

from __future__ import annotations

from functools import cache

from duel_lessons.books.factor_duel import FACTOR_DUEL_FORM


def _prime(n: int) -> bool:
    return n > 1 and all(n % p for p in range(2, int(n**0.5) + 1))


@cache
def _to_move_wins(n: int) -> bool:
    """Book 003 from the rules: subtract d | n, 1 <= d < n; reaching a prime wins, reaching 1 loses."""
    if _prime(n):
        return False  # the opponent moved to a prime and has won
    if n == 1:
        return True  # the opponent moved to 1 and has lost
    return any(_prime(n - d) or (n - d != 1 and not _to_move_wins(n - d)) for d in range(1, n) if n % d == 0)


def _winning(n: int) -> set[int]:
    return {d for d in range(1, n) if n % d == 0 and (_prime(n - d) or (n - d != 1 and not _to_move_wins(n - d)))}


LIMIT = 600


def test_from_every_even_number_from_6_the_winning_moves_are_its_odd_divisors() -> None:
    for n in range(6, LIMIT + 1, 2):
        assert _winning(n) == {d for d in range(1, n, 2) if n % d == 0}, n


def test_from_4_both_moves_win_and_60_has_four_winning_moves() -> None:
    assert _winning(4) == {1, 2}
    assert _winning(60) == {1, 3, 5, 15}


def test_subtract_1_is_the_only_winning_move_exactly_from_the_powers_of_2_from_8() -> None:
    only_one = {n for n in range(6, LIMIT + 1, 2) if _winning(n) == {1}}
    assert only_one == {8, 16, 32, 64, 128, 256, 512}


def test_the_proof_no_longer_says_the_winner_only_subtracts_1() -> None:
    proof = FACTOR_DUEL_FORM.proof
    assert "only ever subtracts 1" not in proof
    assert "odd** divisors" in proof and "60 - 15" in proof


def test_the_closed_form_agrees_with_the_brute_force() -> None:
    for n in range(3, LIMIT + 1):
        assert FACTOR_DUEL_FORM.is_p(n) == (not _to_move_wins(n)), n
        move = FACTOR_DUEL_FORM.winning_move(n)
        assert (move is None) == (not _to_move_wins(n)), n
        assert move is None or move in _winning(n), n


def test_the_even_numbers_with_one_winning_move_are_the_powers_of_2_from_8() -> None:
    """Exercise 4: the smallest even number with fewer than two winning moves is 8, not 4 (the first one asked)."""
    assert [n for n in range(4, LIMIT + 1, 2) if len(_winning(n)) < 2] == [8, 16, 32, 64, 128, 256, 512]
