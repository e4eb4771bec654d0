"""Hostile answers to the list checks: endless generators, huge lists, generators read once."""

from __future__ import annotations

import itertools

from duel_lessons.teaching.feedback import MAX_ITEMS, MAX_SHOWN, expect_list, show


def test_endless_generator_is_refused_not_read_forever() -> None:
    verdict = expect_list(itertools.count(), [2, 4])
    assert verdict.kind == "format"
    assert "more than" in verdict.message


def test_huge_list_is_refused_and_feedback_stays_short() -> None:
    verdict = expect_list(list(range(MAX_ITEMS + 1)), [2, 4])
    assert verdict.kind == "format"
    assert len(verdict.message) < 500


def test_generator_of_the_right_numbers_is_read_once_and_judged_on_its_numbers() -> None:
    assert expect_list((x for x in [4, 2]), [2, 4]).kind == "right"
    assert expect_list((x for x in [2, 5]), [2, 4]).kind == "partial"


def test_partial_feedback_names_at_most_ten_wrong_numbers() -> None:
    verdict = expect_list([2, *range(100, 200)], [2, 4])
    assert verdict.kind == "partial"
    assert "199" not in verdict.message


def test_show_is_capped() -> None:
    assert len(show(list(range(10**4)))) <= MAX_SHOWN


class _EqualToAll:
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class _StrEqualToAll(str):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


def test_an_object_equal_to_everything_does_not_pass_a_choice_check() -> None:
    from duel_lessons.teaching.feedback import expect_choice

    assert expect_choice(_EqualToAll(), "P", ("P", "N")).kind == "format"
    assert not expect_choice(_StrEqualToAll("zzz"), "P", ("P", "N")).right
    assert expect_choice("P", "P", ("P", "N")).right
