"""The exercise checker gives kind feedback and never raises."""

from __future__ import annotations

import pytest

from duel_lessons.teaching.exercises import NOT_ANSWERED, check


def test_unanswered(capsys: pytest.CaptureFixture[str]) -> None:
    assert not check(..., expected=[1, 2])
    assert capsys.readouterr().out.strip() == NOT_ANSWERED


def test_right_and_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    assert check([2, 3, 4, 6], expected=(2, 3, 4, 6))
    assert "Correct" in capsys.readouterr().out
    assert not check([2, 3], expected=[2, 3, 4, 6], hint="Leave out 1 and 12.")
    out = capsys.readouterr().out
    assert "[2, 3]" in out and "Leave out 1 and 12." in out


def test_unordered_and_custom_tests(capsys: pytest.CaptureFixture[str]) -> None:
    assert check({6, 2, 4, 3}, expected=[2, 3, 4, 6], unordered=True)
    assert check(7, test=lambda a: a % 2 == 1)
    assert not check(8, test=lambda a: a % 2 == 1)


def test_a_test_that_breaks_on_odd_answers_does_not_raise(capsys: pytest.CaptureFixture[str]) -> None:
    assert not check("seven", test=lambda a: a % 2 == 1, hint="A whole number, please.")
    out = capsys.readouterr().out
    assert "A whole number, please." in out and "TypeError" in out


def test_the_result_shows_nothing_in_a_notebook(capsys: pytest.CaptureFixture[str]) -> None:
    result = check(3, expected=3)
    assert result and result._ipython_display_() is None
    assert "right=True" in repr(result)
