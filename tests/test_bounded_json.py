"""The class report's reading of hand-in JSON (:mod:`duel_lessons.teaching.bounded_json`): limits on size,
depth and types, and a reason in words for each refusal.  Expected values are written out by hand, or
come from an independent recursive depth count on values json itself writes."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duel_lessons.teaching.bounded_json import MAX_DEPTH, Unreadable, decode, depth, loads, parse_reply
from duel_lessons.teaching.grade_worker import plain


def nesting(value: Any) -> int:
    """The depth of a JSON value by recursion over it (independent of the text scan under test)."""
    if isinstance(value, list):
        return 1 + max((nesting(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((nesting(v) for v in value.values()), default=0)
    return 0


JSON = st.recursive(
    st.none() | st.integers() | st.text(alphabet='[]{}"\\ab\n,:'),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='[]{}"\\a'), inner, max_size=4),
    max_leaves=30,
)


@given(JSON)
def test_the_depth_of_any_json_is_its_nesting(value: Any) -> None:
    """Brackets, quotes and backslashes inside strings never count."""
    assert depth(json.dumps(value)) == nesting(value)


def test_a_hundred_thousand_brackets_are_refused_before_json_reads_them() -> None:
    text = '{"cells": ' + "[" * 100_000
    with pytest.raises(Unreadable, match=r"^it is nested more than 100 deep$"):
        loads(text, max_depth=100)


def test_a_string_never_closed_hides_nothing_after_it() -> None:
    """Past a quote that is never closed, JSON reads nothing: the scan stops there (and takes linear time)."""
    assert depth('[[ "\\"\\"' + "[" * 50) == 2
    with pytest.raises(Unreadable, match="well-formed"):
        loads('[[ "\\"\\"' + "[" * 50)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[NaN]", "it holds NaN, which is not a JSON number"),
        ("[-Infinity]", "it holds -Infinity, which is not a JSON number"),
        ("[1,", "it is not well-formed JSON"),
        ("[" + "9" * 5000 + "]", "it is not well-formed JSON"),  # more digits than Python reads
        (b"[\xff]", "it is not UTF-8 text"),
    ],
)
def test_what_json_cannot_mean_is_refused_in_words(text: str | bytes, why: str) -> None:
    with pytest.raises(Unreadable) as caught:
        loads(text)
    assert str(caught.value) == why


def test_a_reply_longer_than_its_limit_is_not_read() -> None:
    with pytest.raises(Unreadable, match=r"^it is larger than 10 bytes$"):
        loads("[1, 2, 3, 4]", max_bytes=10)
    assert loads("[1, 2, 34]", max_bytes=10) == [1, 2, 34]


@pytest.mark.parametrize(
    "value",
    [
        [1, "P", (2, 3), {4, 5}, Fraction(1, 3), None, True, 2.5, {"a": [1]}, ...],
        {(1, 2): frozenset({3})},
        [[[[1]]]],
        "",
    ],
)
def test_decode_gives_back_what_the_worker_encoded(value: object) -> None:
    decoded = decode(json.loads(json.dumps(plain(value))))
    expected = {(1, 2): {3}} if isinstance(value, dict) and (1, 2) in value else value
    assert decoded == expected
    assert type(decoded) is type(expected)


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ({"fraction": [1, 0]}, "it holds a fraction with denominator 0"),
        ({"fraction": [1, "2"]}, "it holds a fraction that is not two whole numbers"),
        ({"fraction": [1]}, "it holds a fraction that is not two whole numbers"),
        ({"set": [[1]]}, "it holds a set with a list, set or dict inside, which cannot be one"),
        ({"dict": [[[1], 2]]}, "it holds a dict key with a list, set or dict inside, which cannot be one"),
        ({"dict": [[1, 2, 3]]}, "it holds a dict that is not a list of pairs"),
        ({"tuple": "ab"}, "it holds a tuple that is not a list of at most 10,000 items"),
        ({"float": "1e999999999999999999999999999999999999999999"}, None),
        ({"float": "not a number"}, "it holds a decimal number that cannot be read"),
        ({"bool": 1}, "it holds a value of an unknown kind ('bool')"),
        ({"ellipsis": 1}, "it holds a value of an unknown kind ('ellipsis')"),
        ({"eval": "1"}, "it holds a value of an unknown kind ('eval')"),
        ({"a": 1, "b": 2}, "it holds a dict the answers never hold"),
        (1.5, "it holds a float the answers never hold"),
        (True, "it holds a bool the answers never hold"),
        ("x" * 10_001, "it holds a text longer than 10,000 characters"),
        ([0] * 10_001, "it holds a list longer than 10,000 items"),
    ],
)
def test_decode_refuses_what_the_worker_never_writes(value: object, why: str | None) -> None:
    with pytest.raises(Unreadable) as caught:
        decode(value)
    if why is not None:
        assert str(caught.value) == why


def test_decode_refuses_more_nesting_than_its_limit() -> None:
    deep: object = 1
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    with pytest.raises(Unreadable, match="nested more than 64 deep"):
        decode(deep)
    assert decode([[[1]]]) == [[[1]]]


def test_the_markers_stay_markers() -> None:
    assert decode({"missing": True}) is None
    assert decode({"function": "my_rule"}) == {"function": "my_rule"}
    assert decode({"timeout": True}) == {"timeout": "True"}
    assert decode({"error": ["x"]}) == {"error": "?"}


def line(answers: str) -> bytes:
    return b'{"ran": 3, "failed": 0, "answers": ' + answers.encode() + b', "rules": {}}\n'


@pytest.mark.parametrize(
    ("reply", "why"),
    [  # what a notebook that writes its own line to the grader's pipe carried (issue 28)
        (line('{"check:1": {"fraction": [1, 0]}}'), "it holds a fraction with denominator 0"),
        (line('{"check:1": {"set": [[1, 2]]}}'), "it holds a set with a list, set or dict inside, which cannot be one"),
        (b'{"answers": {"check:1": ' + b"[" * 200_000 + b"\n", "it is nested more than 64 deep"),
        (b"printed\nnothing\n", "the run gave no answers"),
        (b"[1]\n", "the run gave no answers"),
        (b'{"answers": [1], "rules": {}}', "its answers or rules are not JSON objects"),
        (b'{"answers": {}, "rules": {"test:x": [1, 2, 3]}}', "a rule gave more than 2 values"),
    ],
)
def test_a_forged_reply_is_refused_with_its_reason(reply: bytes, why: str) -> None:
    with pytest.raises(Unreadable) as caught:
        parse_reply(reply, max_rule_values=2)
    assert str(caught.value) == why


def test_the_last_json_line_of_a_reply_is_read_and_kept_raw_for_the_judge() -> None:
    reply = parse_reply(
        b'{"answers": {"check:1": [9]}}\n'
        b'{"answers": {"check:1": {"tuple": [2, 3]}, "guess:g": {"missing": true}},'
        b' "rules": {"test:t": [{"bool": true}, {"error": "ZeroDivisionError"}], "test:u": {"missing": true}}}\n'
    )
    assert reply.answers == {"check:1": (2, 3), "guess:g": None}
    assert reply.raw_answers["check:1"] == {"tuple": [2, 3]}
    assert reply.rules == {"test:t": [True, {"error": "ZeroDivisionError"}], "test:u": None}
