"""bounded_json's limits at their exact edges: the value budget of a whole reply, the rule list, the reply's size.

Expected values are counted by hand (issue 30: the `report` area's survivors in bounded_json.py).
"""

from __future__ import annotations

import json

import pytest

from duel_lessons.teaching.bounded_json import MAX_REPLY, MAX_VALUES, Unreadable, decode, parse_reply


def test_the_limits() -> None:
    assert (MAX_REPLY, MAX_VALUES) == (8 * 2**20, 500_000)


def test_one_value_holds_at_most_500000_values_counting_its_lists() -> None:
    # 1 outer list + 49 lists + 490,000 numbers = 490,050 values: read.
    assert len(decode([[0] * 10_000] * 49)) == 49
    # 1 + 50 + 500,000 = 500,051: refused.
    with pytest.raises(Unreadable) as caught:
        decode([[0] * 10_000] * 50)
    assert str(caught.value) == "it holds more than 500,000 values"


def test_nesting_64_deep_is_read_and_65_is_not() -> None:
    value: object = 1
    for _ in range(64):
        value = [value]
    assert decode(value) == value  # the 1 sits at level 64
    with pytest.raises(Unreadable, match=r"^it is nested more than 64 deep$"):
        decode([value])


def reply(answers: object = None, rules: object = None) -> bytes:
    body = {}
    if answers is not None:
        body["answers"] = answers
    if rules is not None:
        body["rules"] = rules
    return json.dumps(body).encode()


def test_the_budget_is_shared_by_every_answer_and_rule_of_a_reply() -> None:
    third = [[0] * 10_000] * 20  # 200,021 values
    assert len(parse_reply(reply({"a": third, "b": third}, {})).answers) == 2  # 400,042: read
    for answers, rules in [
        ({"a": third, "b": third, "c": third}, {}),  # 600,063 in the answers
        ({"a": third, "b": third}, {"test:t": [third]}),  # the rest in a rule's list
        ({"a": third, "b": third}, {"test:u": {"tuple": third}}),  # or in one rule value
    ]:
        with pytest.raises(Unreadable) as caught:
            parse_reply(reply(answers, rules))
        assert str(caught.value) == "it holds more than 500,000 values"


def test_a_rule_gives_at_most_100000_values() -> None:
    assert len(parse_reply(reply({}, {"test:t": [1] * 100_000})).rules["test:t"]) == 100_000
    assert len(parse_reply(reply({}, {"test:t": [1] * 20_000})).rules["test:t"]) == 20_000  # above a list's 10,000
    with pytest.raises(Unreadable) as caught:
        parse_reply(reply({}, {"test:t": [1] * 100_001}))
    assert str(caught.value) == "a rule gave more than 100,000 values"
    assert parse_reply(reply({}, {"test:t": [1, 2]}), max_rule_values=2).rules == {"test:t": [1, 2]}


def test_a_reply_of_exactly_8_mib_is_read() -> None:
    line = reply({}, {})
    exact = line[:-1] + b" " * (MAX_REPLY - len(line)) + b"}"
    assert len(exact) == MAX_REPLY and parse_reply(exact).answers == {}
    with pytest.raises(Unreadable) as caught:
        parse_reply(exact + b" ")
    assert str(caught.value) == "it is larger than 8,388,608 bytes"


def test_missing_answers_or_rules_are_none_and_raw_values_are_kept() -> None:
    only_rules = parse_reply(reply(rules={"test:t": 5}))
    assert only_rules.answers == {} and only_rules.rules == {"test:t": 5}
    assert only_rules.raw_rules == {"test:t": 5} and only_rules.raw_answers == {}
    only_answers = parse_reply(reply(answers={"check:1": {"tuple": [1]}}))
    assert only_answers.answers == {"check:1": (1,)} and only_answers.rules == {}
    assert only_answers.raw_answers == {"check:1": {"tuple": [1]}} and only_answers.raw_rules == {}
    assert parse_reply(reply({}, {"test:u": {"tuple": [2, 3]}})).rules == {"test:u": (2, 3)}


def test_exactly_500000_values_are_read() -> None:
    # 1 outer list + 49 lists of 10,000 (490,049) + 1 list of 9,949 (9,950) = 500,000 values.
    assert len(decode([*[[0] * 10_000] * 49, [0] * 9_949])) == 50


def test_texts_tuples_and_decimals_at_their_limits() -> None:
    assert decode("x" * 10_000) == "x" * 10_000
    assert decode({"tuple": [0] * 10_000}) == (0,) * 10_000
    assert decode({"float": "1." + "0" * 38}) == 1.0  # 40 characters
    with pytest.raises(Unreadable) as caught:
        decode({"float": "1." + "0" * 39})
    assert str(caught.value) == "it holds a value of an unknown kind ('float')"
    assert decode({"error": "e" * 300}) == {"error": "e" * 200}
    with pytest.raises(Unreadable) as caught:
        decode({"y" * 50: 1})
    assert str(caught.value) == f"it holds a value of an unknown kind ({'y' * 40!r})"


def test_tuples_nest_64_deep_and_no_more() -> None:
    value: object = 1
    for _ in range(64):
        value = {"tuple": [value]}
    expected: object = 1
    for _ in range(64):
        expected = (expected,)
    assert decode(value) == expected
    with pytest.raises(Unreadable, match=r"^it is nested more than 64 deep$"):
        decode({"tuple": [value]})
