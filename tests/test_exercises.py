"""The exercise checker gives kind feedback and never raises."""

from __future__ import annotations

import pytest

from duel_lessons.exercises import NOT_ANSWERED, check


def test_unanswered(capsys: pytest.CaptureFixture[str]) -> None:
    assert check(..., expected=[1, 2]) is False
    assert capsys.readouterr().out.strip() == NOT_ANSWERED


def test_right_and_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    assert check([2, 3, 4, 6], expected=(2, 3, 4, 6)) is True
    assert "Correct" in capsys.readouterr().out
    assert check([2, 3], expected=[2, 3, 4, 6], hint="Leave out 1 and 12.") is False
    out = capsys.readouterr().out
    assert "[2, 3]" in out and "Leave out 1 and 12." in out


def test_unordered_and_custom_tests(capsys: pytest.CaptureFixture[str]) -> None:
    assert check({6, 2, 4, 3}, expected=[2, 3, 4, 6], unordered=True) is True
    assert check(7, test=lambda a: a % 2 == 1) is True
    assert check(8, test=lambda a: a % 2 == 1) is False


def test_a_test_that_breaks_on_odd_answers_does_not_raise(capsys: pytest.CaptureFixture[str]) -> None:
    assert check("seven", test=lambda a: a % 2 == 1, hint="A whole number, please.") is False
    out = capsys.readouterr().out
    assert "A whole number, please." in out and "TypeError" in out
