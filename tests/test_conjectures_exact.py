"""teaching.conjectures, value by value: how far a conjecture test reaches, and which numbers it tries.

Expected values are written by hand or listed from the docstring's own description (issue 30: the
`content` area's mutants).
"""

from __future__ import annotations

import pytest

from duel_lessons.teaching.conjectures import BEYOND, FURTHEST, SHOWN, answered_by, beyond, reach_of


def test_the_limits() -> None:
    assert (SHOWN, FURTHEST, BEYOND) == (30, 10**12, 300)


@pytest.mark.parametrize(
    ("reach", "params", "expected"),
    [
        (500, {}, 500),
        ("upto", {"upto": 77}, 77),
        ("upto", {}, 0),  # a parameter the lesson does not have
        ("upto", {"upto": "many"}, 0),  # not a whole number
        (10**13, {}, 10**12),  # never beyond FURTHEST
        ("far", {"far": 10**15}, 10**12),
        (10**12, {}, 10**12),
    ],
)
def test_reach_of(reach: int | str, params: dict[str, object], expected: int) -> None:
    assert reach_of(reach, params) == expected


def test_answered_by_stops_before_the_first_number_the_truth_cannot_answer() -> None:
    def truth(n: int) -> bool:
        if n > 4:
            raise KeyError(n)
        return n % 2 == 0

    assert answered_by(truth, [1, 2, 3, 4, 5, 6]) == [1, 2, 3, 4]
    assert answered_by(truth, [7, 1]) == []
    assert answered_by(truth, [3, 1, 2]) == [3, 1, 2]
    assert answered_by(truth, []) == []


def test_beyond_a_short_reach_is_every_number_up_to_it() -> None:
    assert beyond(10, 11) == [11]
    assert beyond(0, 5) == [1, 2, 3, 4, 5]
    assert beyond(10, 10) == [] and beyond(10, 9) == []
    assert beyond(100, 250) == list(range(101, 251))  # 150 numbers: all of them


def test_beyond_a_middle_reach_is_the_next_hundred_and_the_special_numbers() -> None:
    # upto 1000, reach 3000: 1001..1100, then 2**k - 1, 2**k, 2**k + 1, 3 * 2**k, 10**k - 1, 10**k,
    # 10**k + 1 that lie in 1101..3000 (written out by hand), then spread numbers up to 300 in all.
    found = beyond(1000, 3000)
    special = [1536, 2047, 2048, 2049]  # 3 * 2**9, and 2**11 with its neighbours
    assert found[:100] == list(range(1001, 1101))
    assert set(special) <= set(found)
    assert len(found) == 300 and found == sorted(set(found))
    assert found[0] == 1001 and found[-1] <= 3000


def test_beyond_a_far_reach_keeps_the_next_hundred_and_thins_the_rest() -> None:
    found = beyond(10_000, 10**12)
    assert len(found) == 300 and found == sorted(set(found))
    assert found[:100] == list(range(10_001, 10_101))
    assert 2**15 in found and 10**12 in found and found[-1] == 10**12
    assert all(10_000 < n <= 10**12 for n in found)


def test_beyond_is_the_same_every_time() -> None:
    assert beyond(50, 10**6) == beyond(50, 10**6)


def special(upto: int, reach: int) -> list[int]:
    """The docstring's numbers in (upto, reach], smallest first: the next 100, powers of 2 and of 10 with
    their neighbours, and 3 x 2^k (listed here from the words, up to 2^40 and 10^12)."""
    found = set(range(upto + 1, upto + 101))
    found |= {2**k + d for k in range(1, 41) for d in (-1, 0, 1)} | {3 * 2**k for k in range(1, 41)}
    found |= {10**k + d for k in range(1, 13) for d in (-1, 0, 1)}
    return sorted(n for n in found if upto < n <= reach)


def test_beyond_keeps_every_special_number_when_there_are_at_most_250() -> None:
    wanted = special(10_000, 10**12)
    assert len(wanted) == 228  # 100 + 78 powers of 2 and neighbours + 27 of 3 x 2^k + 23 of 10^k
    found = beyond(10_000, 10**12)
    assert set(wanted) <= set(found) and len(found) == 300
    assert 2**39 + 1 in found and 3 * 2**38 in found and 10**11 + 1 in found and 10**12 - 1 in found


def test_beyond_thins_more_than_250_special_numbers_to_the_smallest_250() -> None:
    wanted = special(0, 10**12)
    assert len(wanted) == 262  # 100 + 99 powers of 2 and neighbours + 33 of 3 x 2^k + 30 of 10^k (101 too)
    found = set(beyond(0, 10**12))
    assert len(found) == 300
    assert set(wanted[:250]) <= found
    assert not set(wanted[250:]) & found  # the 12 largest are left to the spread numbers (which miss them)


def test_a_reach_that_is_not_a_whole_number_reaches_nothing() -> None:
    assert reach_of("upto", {"upto": None}) == 0 and reach_of("upto", {"upto": 2.5}) == 0


def test_the_next_hundred_are_tried_even_where_no_power_is_near() -> None:
    # 5001 .. 5100 hold no power of 2 or 10 (nor a neighbour) and no 3 x 2^k; the next special is
    # 6144 = 3 x 2^11, and the spread numbers (up to 10^12) fall far above it.
    found = beyond(5_000, 10**12)
    assert found[:101] == [*range(5_001, 5_101), 6_144]
