"""A declared proof's lines, exactly: each mistake a teacher can make is refused with its own message.

Fast (pure functions, no lesson file): the mutation area ``content`` runs these first.  Every
expected value is worked out by hand from the lines written here.
"""

from __future__ import annotations

import pytest

from duel_lessons.engine.rules import DuelError
from duel_lessons.teaching.declared.orders import LINE_FIELDS, DeclarationError, check_lines, respects, topological

W = "99-x.lesson.toml: [exercise.p]"


def refusal(lines: object) -> str:
    with pytest.raises(DeclarationError) as caught:
        check_lines(lines, W)
    return str(caught.value)


def test_a_declaration_error_is_a_duel_error_and_a_line_has_four_fields() -> None:
    assert issubclass(DeclarationError, DuelError)
    assert LINE_FIELDS == ("text", "uses", "shows", "wrong")


def test_two_good_lines_pass() -> None:
    lines = {"A": {"text": "a", "shows": "fact a"}, "B": {"text": "b", "uses": ["A"]}}
    assert check_lines(lines, W) is None
    # a line that does not belong, beside the proof, passes too
    assert check_lines({**lines, "C": {"text": "c", "wrong": "no"}}, W) is None


@pytest.mark.parametrize("lines", [None, [], {"A": {"text": "a"}}, {}])
def test_a_proof_needs_at_least_two_lines_in_a_table(lines: object) -> None:
    assert refusal(lines) == f"{W} lines: give at least two lines, as [exercise.NAME.lines.A] tables."


@pytest.mark.parametrize("line", ["a", {"uses": []}, {"text": 3}, {"text": None}])
def test_every_line_needs_its_text(line: object) -> None:
    assert refusal({"A": {"text": "a"}, "B": line}) == f"{W} lines.B text: every line needs its text."


def test_an_unknown_field_of_a_line_is_named_with_the_fields_allowed() -> None:
    assert refusal({"A": {"text": "a", "colour": 1}, "B": {"text": "b"}}) == (
        f"{W} lines.A colour: not a field of a line (its fields: text, uses, shows, wrong)."
    )


@pytest.mark.parametrize("uses", ["A", [1], ["A", 2], {"A": 1}])
def test_uses_is_a_list_of_labels(uses: object) -> None:
    lines = {"A": {"text": "a", "shows": "fa"}, "B": {"text": "b", "uses": uses}}
    assert refusal(lines) == f'{W} lines.B uses: give a list of line labels, such as ["A", "C"].'


@pytest.mark.parametrize("extra", [{"uses": ["A"]}, {"shows": "x"}, {"shows": ""}])
def test_a_wrong_line_uses_nothing_and_shows_nothing(extra: dict[str, object]) -> None:
    lines = {"A": {"text": "a", "shows": "fa"}, "B": {"text": "b", "wrong": "no", **extra}}
    assert refusal(lines) == f"{W} lines.B wrong: a line that does not belong uses nothing and shows nothing."


def test_a_wrong_line_with_empty_uses_passes() -> None:
    lines = {"A": {"text": "a", "shows": "fa"}, "B": {"text": "b", "uses": ["A"]}, "C": {"text": "c", "wrong": "x"}}
    assert check_lines({**lines, "C": {"text": "c", "wrong": "x", "uses": []}}, W) is None


def test_a_use_of_a_line_that_is_not_there_is_named() -> None:
    lines = {"A": {"text": "a", "shows": "fa"}, "B": {"text": "b", "uses": ["A", "Z"]}}
    assert refusal(lines) == f"{W} lines.B uses: 'Z' is not a line here."


def test_nothing_can_use_a_wrong_line() -> None:
    lines = {"A": {"text": "a", "wrong": "no"}, "B": {"text": "b", "uses": ["A"]}}
    assert refusal(lines) == f"{W} lines.B uses: line A is marked wrong, so nothing can use it."


@pytest.mark.parametrize("shows", [None, "", "   ", 7])
def test_a_line_used_says_what_it_shows(shows: object) -> None:
    first = {"text": "a"} if shows is None else {"text": "a", "shows": shows}
    assert refusal({"A": first, "B": {"text": "b", "uses": ["A"]}}) == (
        f"{W} lines.A shows: line A is used by line B, so say in other words what it shows "
        "(the feedback names that fact, never the label)."
    )


def test_a_proof_has_one_conclusion() -> None:
    two = {"A": {"text": "a"}, "B": {"text": "b"}, "C": {"text": "c", "wrong": "no"}}
    assert refusal(two) == f"{W} lines: a proof has one conclusion, a line no other line uses; here A, B."
    both = {"A": {"text": "a", "shows": "fa", "uses": ["B"]}, "B": {"text": "b", "shows": "fb", "uses": ["A"]}}
    assert refusal(both) == f"{W} lines: a proof has one conclusion, a line no other line uses; here none."


def test_a_circle_of_uses_is_refused() -> None:
    # C is the one conclusion, but A and B use each other: no order puts each after what it uses
    lines = {
        "A": {"text": "a", "shows": "fa", "uses": ["B"]},
        "B": {"text": "b", "shows": "fb", "uses": ["A"]},
        "C": {"text": "c", "uses": ["A"]},
    }
    assert refusal(lines) == f"{W} lines: the uses go round in a circle."


def test_a_wrong_lines_uses_do_not_count_as_used() -> None:
    # B is the one conclusion of the proof: the wrong line C is left out of the count (it has no uses anyway)
    lines = {"A": {"text": "a", "shows": "fa"}, "B": {"text": "b", "uses": ["A"]}, "C": {"text": "c", "wrong": "w"}}
    assert check_lines(lines, W) is None


def test_respects_puts_every_line_strictly_after_what_it_uses() -> None:
    lines = {"A": {}, "B": {"uses": ["A"]}, "C": {"uses": ["A", "B"]}}
    assert respects(["A", "B", "C"], lines) is True
    assert respects(["B", "A", "C"], lines) is False
    assert respects(["A", "C", "B"], lines) is False
    assert respects(["A"], lines) is True
    assert respects(["A"], {"A": {"uses": ["A"]}}) is False  # a line never comes after itself


def test_topological_keeps_the_order_written_when_it_is_valid() -> None:
    assert topological({"A": {}, "B": {"uses": ["A"]}, "C": {}}) == ["A", "B", "C"]
    assert topological({"C": {}, "A": {}, "B": {}}) == ["C", "A", "B"]


def test_topological_puts_a_line_after_what_it_uses_and_drops_wrong_lines() -> None:
    # A waits for C; B is ready first (written before C); then C, then A
    lines = {"A": {"uses": ["C"]}, "B": {}, "X": {"wrong": "no"}, "C": {"uses": ["B"]}}
    assert topological(lines) == ["B", "C", "A"]
    assert topological({"X": {"wrong": ""}}) == []


def test_topological_refuses_a_circle() -> None:
    with pytest.raises(ValueError, match=r"^cycle$"):
        topological({"A": {"uses": ["B"]}, "B": {"uses": ["A"]}})
