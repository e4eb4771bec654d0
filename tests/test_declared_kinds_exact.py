"""The declared kinds (duel_lessons.teaching.declared.kinds), value by value: fast, pure, worked out by hand.

Each expected value is worked out in the comment beside it (or by tests/brute.py's brute force over the
game engine, never by the code under test). The messages checked are the ones a teacher or a student
reads: a declaration's problem names its exercise and field, a verdict says what to look at again.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import Any

import pytest

from duel_lessons.teaching.declared.kinds import (
    COMMON,
    KINDS,
    SEALED,
    Exercise,
    _factor,
    _literal,
    check,
    digest,
    fill,
    model,
    names_of,
    validate,
)
from duel_lessons.teaching.declared.orders import DeclarationError
from duel_lessons.teaching.proofs import ORDER_HINT, ORDER_STRONGER, parse_expression
from tests.brute import Brute

DD = {"rules": "divisor-duel"}
WHERE = "[exercise.e]"


def refusal(kind: str, fields: dict[str, Any], edition: str = "teacher") -> str:
    """The message validate gives for this declaration (the test fails if it takes it)."""
    with pytest.raises(DeclarationError) as caught:
        validate(Exercise("e", kind, fields), WHERE, edition)
    return str(caught.value)


def takes(kind: str, fields: dict[str, Any], edition: str = "teacher") -> bool:
    validate(Exercise("e", kind, fields), WHERE, edition)
    return True


# -- digest, fill, label ---------------------------------------------------------------------------------------


def test_a_digest_is_the_sha256_of_the_salt_a_newline_and_the_json_of_the_value() -> None:
    assert digest(512, "04:2") == hashlib.sha256(b"04:2\n512").hexdigest()
    assert digest("P", "s") == hashlib.sha256(b's\n"P"').hexdigest()
    assert digest([2, 5], "s") == hashlib.sha256(b"s\n[2, 5]").hexdigest()
    # the keys are sorted: the same table written in another order has the same digest
    assert digest({"b": 1, "a": 2}, "s") == hashlib.sha256(b's\n{"a": 2, "b": 1}').hexdigest()


def test_fill_writes_a_parameter_and_a_list_as_the_reveals_do() -> None:
    assert fill("from {start}.", {"start": 84}) == "from 84."
    assert fill("{moves}", {"moves": [2, 4, 8]}) == "2, 4 and 8"
    assert fill("{moves}", {"moves": (3, 7)}) == "3 and 7"
    assert fill("{moves}", {"moves": [5]}) == "5"
    assert fill("{moves}", {"moves": []}) == "[]"  # nothing to list: written as it is
    assert fill("{x_1} {_y} {N}", {"x_1": 1, "_y": "two", "N": 45}) == "1 two 45"
    assert fill("{a} {b} {1a} { a }", {"a": 1}) == "1 {b} {1a} { a }"  # not a parameter: left as written


def test_an_exercise_label_is_its_label_field_as_text() -> None:
    assert Exercise("e", "number", {"label": "Exercise 2", "answer": 1}).label == "Exercise 2"
    assert Exercise("e", "number", {"answer": 1}).label == ""


# -- validate: what each kind takes ----------------------------------------------------------------------------

LINES = {
    "A": {"text": "N is odd.", "shows": "N is odd"},
    "B": {"text": "Every divisor of N is odd.", "uses": ["A"], "shows": "every divisor of N is odd"},
    "C": {"text": "So N - d is even.", "uses": ["B"]},
    "D": {"text": "So N - d is odd.", "wrong": "odd - odd is even."},
}
CASES = [{"N": 45, "d": 3}, {"N": 21, "d": 7}]
GOOD: list[tuple[str, dict[str, Any]]] = [
    ("number", {"answer": 3}),
    ("number", {"answer": 0.5, "tolerance": 0.1}),
    ("number", {"value": "1 + 2", "label": "L", "hint": "h", "stronger": "s", "why": "w"}),
    ("numbers", {"answer": [2, 5], "ordered": True, "what": "moves"}),
    ("numbers", {"answer": []}),
    ("numbers", {"value": "[1]"}),
    ("label", {"answer": "P", "options": ["P", "N"]}),
    ("label", {"value": "'P'", "options": ["P", "N"]}),
    ("winning-move", {"start": 2}),
    ("winning-moves", {"start": "start"}),
    ("order", {"lines": LINES}),
    ("order", {"lines": LINES, "model": ["A", "B", "C"]}),
    ("expression", {"target": "N - d", "names": ["N", "d"], "cases": CASES, "factor": "d"}),
    ("counterexample", {"claim": "c", "fails": "n > 3", "answer": 4}),
    ("counterexample", {"claim": "c", "fails": "n > 3", "value": "4"}),
    ("step", {"steps": 3, "answer": 2, "shows": "n == 1", "what": "w", "limit": 9}),
    ("explanation", {}),
    ("explanation", {"words": 4}),
    ("table", {"numbers": [1, 2], "value": "outcome(rules, n)"}),
    ("table", {"numbers": "range(1, 3)", "value": "'P'"}),
    ("pair", {"first": {"answer": "N", "what": "P or N"}, "second": {"value": "xor([12, 20])"}}),
    (
        "number",
        {
            "answer": 3,
            "misconceptions": [{"key": "k", "value": 2, "hint": "h"}, {"key": "j", "when": "answer > 5", "hint": "h"}],
        },
    ),
    ("number", {"answer": 3, "misconceptions": [{"key": "k", "value": 2, "hint": "h", "stronger": "s"}]}),
    ("number", {"answer": 3, "values": {"a": "1", "b": "a + 1"}}),
]


@pytest.mark.parametrize(("kind", "fields"), GOOD)
def test_a_well_declared_exercise_is_taken(kind: str, fields: dict[str, Any]) -> None:
    assert takes(kind, fields)


def test_validate_reads_a_teachers_file_unless_told_otherwise() -> None:
    with pytest.raises(DeclarationError, match="needs its answer"):
        validate(Exercise("e", "number", {}), WHERE)


def test_a_field_of_another_kind_is_refused_with_the_fields_of_this_one() -> None:
    assert refusal("number", {"answer": 3, "colour": "red"}) == (
        "[exercise.e] colour: not a field of a 'number' exercise (its fields: answer, hint, kind, label, "
        "misconceptions, stronger, tolerance, value, values, why)."
    )
    # a student copy keeps digests in place of the answer; a teacher's file may not hold them
    assert takes("number", {"answer_digest": "x", "answer_digests": [], "answer_count": 0}, "student")
    assert refusal("number", {"answer": 3, "answer_digest": "x"}).startswith("[exercise.e] answer_digest: not a field")
    message = refusal("numbers", {"colour": 1}, "student")
    assert message.endswith("(its fields: answer, answer_count, answer_digest, answer_digests, hint, kind, label, "
                            "misconceptions, ordered, stronger, value, values, what, why).")  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "key"),
    [("number", "label"), ("number", "hint"), ("number", "stronger"), ("number", "why"), ("counterexample", "claim"),
     ("numbers", "what")],
)  # fmt: skip
def test_a_text_field_must_be_text(kind: str, key: str) -> None:
    fields = {"answer": [1] if kind == "numbers" else 1, "claim": "c", "fails": "n > 1", key: 3}
    if kind != "counterexample":
        del fields["claim"], fields["fails"]
    assert refusal(kind, fields) == f"[exercise.e] {key}: write it as text in quotes."


@pytest.mark.parametrize(
    ("kind", "fields", "key"),
    [
        ("number", {"value": "n +"}, "value"),
        ("counterexample", {"claim": "c", "fails": "n +", "answer": 1}, "fails"),
        ("step", {"steps": 2, "answer": 1, "shows": "n +", "what": "w"}, "shows"),
    ],
)
def test_a_formula_field_must_be_a_formula(kind: str, fields: dict[str, Any], key: str) -> None:
    assert refusal(kind, fields).startswith(f"[exercise.e] {key}: 'n +': not a formula")


@pytest.mark.parametrize("kind", ["number", "numbers", "label"])
def test_an_answer_and_a_value_together_are_refused(kind: str) -> None:
    fields = {"answer": 1, "value": "1", "options": ["P", "N"]} if kind == "label" else {"answer": 1, "value": "1"}
    assert refusal(kind, fields) == "[exercise.e] value: give the answer or a value that computes it, not both."


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("number", {}),
        ("numbers", {}),
        ("label", {"options": ["P", "N"]}),
        ("counterexample", {"claim": "c", "fails": "n > 1"}),
        ("step", {"steps": 2, "shows": "n == 1", "what": "w"}),
    ],
)
def test_a_teachers_exercise_needs_its_answer_and_a_students_copy_does_not(kind: str, fields: dict[str, Any]) -> None:
    assert refusal(kind, fields) == f"[exercise.e] answer: a {kind!r} exercise needs its answer (or a value formula)."
    assert takes(kind, fields, "student")


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("number", {"answer": "3"}),
        ("number", {"answer": True}),  # a bool is no number here
        ("counterexample", {"claim": "c", "fails": "n > 1", "answer": "8"}),
        ("step", {"steps": 2, "answer": [1], "shows": "n == 1", "what": "w"}),
    ],
)
def test_a_numeric_answer_must_be_a_number(kind: str, fields: dict[str, Any]) -> None:
    assert refusal(kind, fields) == "[exercise.e] answer: give a number."


@pytest.mark.parametrize("answer", ["2, 5", [2, True], [2, "5"], (2, 5)])
def test_a_list_answer_must_be_a_list_of_whole_numbers(answer: object) -> None:
    assert (
        refusal("numbers", {"answer": answer}) == "[exercise.e] answer: give a list of whole numbers, such as [2, 5]."
    )


@pytest.mark.parametrize("options", [None, ["P"], ["P", 1], "PN"])
def test_a_label_needs_two_options_or_more_as_texts(options: object) -> None:
    fields = {"answer": "P"} if options is None else {"answer": "P", "options": options}
    assert refusal("label", fields) == '[exercise.e] options: give the options as a list of texts, such as ["P", "N"].'


def test_a_labels_answer_is_one_of_its_options() -> None:
    assert (
        refusal("label", {"answer": "Q", "options": ["P", "N"]})
        == "[exercise.e] answer: 'Q' is not one of the options."
    )
    assert takes("label", {"options": ["P", "N"], "answer_digest": "x"}, "student")


@pytest.mark.parametrize("kind", ["winning-move", "winning-moves"])
@pytest.mark.parametrize("start", [1, 0, True, 2.5, "2x", None])
def test_a_start_is_a_whole_number_above_1_or_a_parameter(kind: str, start: object) -> None:
    fields = {} if start is None else {"start": start}
    message = "[exercise.e] start: give a whole number above 1, or the name of a lesson parameter."
    assert refusal(kind, fields) == message


@pytest.mark.parametrize("fields", [{"claim": "c", "answer": 4}, {"fails": "n > 3", "answer": 4}])
def test_a_counterexample_needs_its_claim_and_fails(fields: dict[str, Any]) -> None:
    message = "[exercise.e] fails: give the claim in words and fails, a formula in n true where it fails."
    assert refusal("counterexample", fields) == message


@pytest.mark.parametrize(
    "fields",
    [
        {"steps": "3", "shows": "n == 1", "what": "w"},
        {"steps": 3, "what": "w"},
        {"steps": 3, "shows": "n == 1"},
        {"shows": "n == 1", "what": "w"},
    ],
)
def test_a_step_needs_steps_shows_and_what(fields: dict[str, Any]) -> None:
    message = "[exercise.e] steps: give steps (how many), shows (a formula in n) and what (in words)."
    assert refusal("step", {**fields, "answer": 2}) == message


EXPRESSION_FIELDS = {"target": "N - d", "names": ["N", "d"], "cases": CASES}
CASES_WANTED = "cases: give tables of a whole number for each of ['N', 'd'], such as {N = 45, d = 3}."


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"target": 3}, 'target: give the expression the answer must equal, such as "N - d".'),
        ({"target": None}, 'target: give the expression the answer must equal, such as "N - d".'),
        ({"names": "N d"}, 'names: give the letters the expression may use, such as ["N", "d"].'),
        ({"names": []}, 'names: give the letters the expression may use, such as ["N", "d"].'),
        ({"names": ["N", "2d"]}, 'names: give the letters the expression may use, such as ["N", "d"].'),
        ({"names": ["N", 4]}, 'names: give the letters the expression may use, such as ["N", "d"].'),
        ({"cases": {"N": 1, "d": 2}}, CASES_WANTED),
        ({"cases": []}, CASES_WANTED),
        ({"cases": [{"N": 1}]}, CASES_WANTED),
        ({"cases": [{"N": 1, "d": 2}, 5]}, CASES_WANTED),
        ({"factor": "k"}, "factor: name one of the letters ['N', 'd']."),
    ],
)  # fmt: skip
def test_an_expression_names_its_target_letters_cases_and_factor(change: dict[str, Any], message: str) -> None:
    fields = {**EXPRESSION_FIELDS, **change}
    if change.get("target", "") is None:
        del fields["target"]
    assert refusal("expression", fields) == f"[exercise.e] {message}"


@pytest.mark.parametrize(
    "fields",
    [{"numbers": 5, "value": "'P'"}, {"numbers": [1, 2]}, {"numbers": {1: 2}, "value": "'P'"}, {"value": "'P'"}],
)
def test_a_table_needs_its_numbers_and_a_value_formula(fields: dict[str, Any]) -> None:
    message = "[exercise.e] numbers: give numbers (a list or formula) and value (a formula in n)."
    assert refusal("table", fields) == message


@pytest.mark.parametrize(
    ("first", "part"),
    [
        ("N", "first"),
        ({"what": "P or N"}, "first"),
        ({"answer": "N", "value": "'N'"}, "first"),
        ({"answer": "N", "colour": 1}, "first"),
        ({"answer": "N"}, "second"),  # the second is the broken one below
    ],
)
def test_a_pair_gives_each_part_an_answer_or_a_value(first: object, part: str) -> None:
    second: object = {"value": "1"} if part == "first" else {"answer": 1, "shows": 1}
    message = f"[exercise.e] {part}: give a table with answer (or value, a formula) and what."
    assert refusal("pair", {"first": first, "second": second}) == message
    bad = refusal("pair", {"first": {"answer": "N"}, "second": {"value": "n +"}})
    assert bad.startswith("[exercise.e] second.value: 'n +': not a formula")


@pytest.mark.parametrize(
    "item",
    [
        "k",
        {"value": 2, "hint": "h"},
        {"key": "k", "value": 2},
        {"key": "k", "hint": "h"},
        {"key": "k", "value": 2, "when": "answer > 1", "hint": "h"},
        {"key": "k", "value": 2, "hint": "h", "colour": 1},
    ],
)
def test_a_misconception_has_a_key_a_value_or_when_and_a_hint(item: object) -> None:
    good = {"key": "j", "value": 1, "hint": "h"}
    assert refusal("number", {"answer": 3, "misconceptions": [good, item]}) == (
        "[exercise.e] misconceptions[1]: give key, value (or when, a formula in answer) and hint "
        "(and stronger if you like)."
    )
    bad = {"key": "k", "when": "answer +", "hint": "h"}
    message = refusal("number", {"answer": 3, "misconceptions": [good, bad]})
    assert message.startswith("[exercise.e] misconceptions[1] when: 'answer +': not a formula")


def test_values_are_a_table_of_formulas() -> None:
    assert refusal("number", {"answer": 3, "values": ["a"]}) == "[exercise.e] values: give a table of NAME = formula."
    message = refusal("number", {"answer": 3, "values": {"a": "1", "b": "n +"}})
    assert message.startswith("[exercise.e] values.b: 'n +': not a formula")


@pytest.mark.parametrize("order", ["ABC", ["A", "B"], ["A", "B", "C", "D"], ["B", "A", "C"], ["A", "B", "C", "C"]])
def test_an_orders_model_is_every_line_of_the_proof_once_in_an_order_its_uses_allow(order: object) -> None:
    message = "[exercise.e] model: give every line of the proof once, in an order its uses allow."
    assert refusal("order", {"lines": LINES, "model": order}) == message


def test_an_orders_lines_are_checked() -> None:
    message = refusal("order", {"lines": {"A": {"text": "a"}}})
    assert message == "[exercise.e] lines: give at least two lines, as [exercise.NAME.lines.A] tables."


def test_the_kinds_and_their_fields() -> None:
    assert set(KINDS) == {"number", "numbers", "label", "winning-move", "winning-moves", "order", "expression",
                          "counterexample", "step", "explanation", "table", "pair"}  # fmt: skip
    assert "kind" in COMMON and SEALED == ("answer_digest", "answer_digests", "answer_count")


# -- judging: number, numbers, label ---------------------------------------------------------------------------


def kinds_of(
    exercise: Exercise, answers: list[object], params: dict[str, Any] | None = None, salt: str = "s"
) -> list[str]:
    return [check(exercise, a, params or {}, salt).kind for a in answers]


def test_a_number_is_judged_against_its_answer_its_value_or_its_digest() -> None:
    literal = Exercise("e", "number", {"answer": 12})
    assert kinds_of(literal, [12, 11, 12.5, 12.0, ...]) == ["right", "miss", "miss", "right", "unanswered"]
    computed = Exercise("e", "number", {"value": "start // 2"})
    assert kinds_of(computed, [42, 84], {"start": 84}) == ["right", "miss"]
    sealed = Exercise("e", "number", {"answer_digest": digest(12, "99:e")})
    assert kinds_of(sealed, [12, 13, ...], salt="99:e") == ["right", "miss", "unanswered"]
    assert kinds_of(sealed, [12], salt="99:f") == ["miss"]  # another exercise's salt
    # an answer that is no plain value is not the answer: a format slip, never a crash
    assert check(sealed, len, {}, "99:e").message == "Give a number, not len."


def test_a_numbers_tolerance_and_exactness() -> None:
    near = Exercise("e", "number", {"answer": 12, "tolerance": 0.5})
    assert kinds_of(near, [12.4, 11.6, 12.6]) == ["right", "right", "miss"]
    assert kinds_of(Exercise("e", "number", {"answer": 0.5}), [0.5, Fraction(1, 2), 0.25]) == ["right", "right", "miss"]
    assert kinds_of(Exercise("e", "number", {"value": "1/2"}), [0.5, 0.25]) == ["right", "miss"]  # Fraction(1, 2)
    # a value that is a truth or a text is no number: no answer equals it (True would equal 1)
    assert kinds_of(Exercise("e", "number", {"value": "5 > 3"}), [1, True]) == ["miss", "format"]
    assert kinds_of(Exercise("e", "number", {"value": "'12'"}), [12]) == ["miss"]


def test_a_literal_that_cannot_be_digested_is_not_the_answer() -> None:
    sealed = Exercise("e", "number", {"answer_digest": digest(1, "s")})
    assert _literal(sealed, 1, {}, "s") == 1
    assert _literal(sealed, ..., {}, "s") != _literal(sealed, ..., {}, "s")  # nan: equal to nothing
    assert _literal(sealed, 10**5000, {}, "s") != 10**5000  # json refuses 5,001 digits (ValueError)


def test_a_list_is_judged_against_its_answer_or_value() -> None:
    moves = Exercise("e", "numbers", {"answer": [2, 5]})
    assert kinds_of(moves, [[5, 2], [2], [2, 7], [7]]) == ["right", "partial", "partial", "miss"]
    assert check(moves, [2, 7], {}, "s").message == "1 of your 2 numbers is right, but 7 is not one of them."
    named = Exercise("e", "numbers", {"answer": [2, 5], "what": "moves", "ordered": True})
    assert check(named, [2, 7], {}, "s").message == "1 of your 2 moves is right, but 7 is not one of them."
    assert check(named, [5, 2], {}, "s").key == "format:order"
    texts = {"hint": "From {start}.", "misconceptions": [{"key": "one", "value": [1, 2, 5], "hint": "Not 1."}]}
    taught = Exercise("e", "numbers", {"answer": [2, 5], **texts})
    assert check(taught, [5, 2, 1], {"start": 10}, "s").key == "one"
    assert check(taught, [3], {"start": 10}, "s").hint == "From 10."
    computed = Exercise("e", "numbers", {"value": "moves(rules, 12)"})  # 12: divisors 2, 3, 4, 6
    assert kinds_of(computed, [[6, 4, 3, 2], [2, 3, 4]], DD) == ["right", "partial"]


def test_a_students_list_is_judged_by_the_digests_of_its_elements() -> None:
    salt = "99:e"
    sealed = Exercise(
        "e", "numbers", {"answer_digests": [digest(2, salt), digest(5, salt)], "answer_count": 2, "what": "moves"}
    )
    verdicts = [check(sealed, a, {}, salt) for a in ([2, 5], (5, 2), {2, 5}, frozenset({5, 2}), [2], [2, 7], [1], [])]
    assert [v.kind for v in verdicts] == ["right"] * 4 + ["partial", "partial", "miss", "miss"]
    assert verdicts[4].message == "1 of the 2 moves: some are missing."  # the missing 5 stands as -1, never shown
    assert verdicts[5].message == "1 of your 2 moves is right, but 7 is not one of them."
    assert check(sealed, [2, 2, 5], {}, salt).key == "format:repeat"
    assert check(sealed, [2, 5, 7], {}, salt).kind == "partial"
    assert check(sealed, 2, {}, salt).key == "format:not-a-list"
    assert check(sealed, [10**30], {}, salt).key == "format:not-numbers"  # a huge number: no digest tried
    # the stand-ins for the elements not given are numbers no student can type (beyond ±10**18)
    typeable = [[2, -1], [-1, -2], [2, -(10**18)], [2, 1 - 10**18], [7, -(10**18)], [-(10**18), -(10**18) - 1]]
    assert kinds_of(sealed, typeable, salt=salt) == ["partial", "miss", "partial", "partial", "miss", "format"]
    unordered = Exercise("e", "numbers", {"answer_digests": [digest(2, salt)], "answer_count": 1})
    assert check(unordered, [2], {}, salt).kind == "right"
    empty = Exercise("e", "numbers", {"answer_digests": [], "answer_count": 0})
    assert kinds_of(empty, [[], [2]], salt=salt) == ["right", "miss"]
    assert kinds_of(Exercise("e", "numbers", {"answer_digests": []}), [[]], salt=salt) == ["right"]  # no count: 0
    assert kinds_of(Exercise("e", "numbers", {"answer_count": 1}), [[2], [-1]], salt=salt) == ["miss", "miss"]
    no_count = Exercise("e", "numbers", {"answer_digests": [digest(2, salt)]})
    assert check(no_count, [2], {}, salt).kind == "right"  # no count: only the digests matched


def test_a_label_is_judged_against_its_answer_value_or_digest() -> None:
    options = ["P", "N"]
    literal = Exercise("e", "label", {"answer": "P", "options": options})
    assert kinds_of(literal, ["P", "N", "p", "Q"]) == ["right", "miss", "format", "format"]
    assert check(literal, "Q", {}, "s").message == "Answer one of 'P', 'N', not 'Q'."
    computed = Exercise("e", "label", {"value": "outcome(rules, start)", "options": options})
    assert kinds_of(computed, ["N", "P"], {**DD, "start": 12}) == ["right", "miss"]  # 12 − 3 = 9 is P: N
    sealed = Exercise("e", "label", {"answer_digest": digest("N", "s"), "options": options})
    assert kinds_of(sealed, ["N", "P"]) == ["right", "miss"]
    number = Exercise("e", "label", {"value": "1", "options": ["1", "2"]})
    assert kinds_of(number, ["1", "2"]) == ["miss", "miss"]  # a value that is no text matches no option
    # a student copy whose digest does not match has no right text: no text typed is right, not even "\0"
    assert kinds_of(sealed, ["\0", ""]) == ["format", "format"]
    texts = {"hint": "Look at {start}.", "misconceptions": [{"key": "flip", "value": "P", "hint": "Turn it round."}]}
    taught = Exercise("e", "label", {"answer": "N", "options": ["P", "N", "?"], **texts})
    assert check(taught, "P", {"start": 12}, "s").key == "flip"
    assert check(taught, "?", {"start": 12}, "s").hint == "Look at 12."
    numbered = Exercise("e", "label", {"answer": "1", "options": [1, 2]})
    assert kinds_of(numbered, ["1"]) == ["right"]  # the options are read as texts


# -- winning moves ---------------------------------------------------------------------------------------------


def test_winning_moves_follow_the_start_and_the_rules() -> None:
    # 84 = 2² × 3 × 7: 84 − d is a P-position (odd, or 2, 8, 32, ...) for d = 3, 7, 21 only
    one = Exercise("w", "winning-move", {"start": 84})
    assert kinds_of(one, [3, 21, 2, [3]]) == ["right", "right", "miss", "format"]
    every = Exercise("w", "winning-moves", {"start": "start", "hint": "From {start}."})
    assert kinds_of(every, [[3, 7, 21], [3, 7]], {"start": 84}) == ["right", "partial"]
    assert check(every, [3, 7], {"start": 84}, "s").message == "2 of the 3 winning moves: some are missing."
    assert check(every, [3, 2], {"start": 84}, "s").hint == "From 84."
    factor = {"rules": "factor-duel", "start": 12}
    assert model(every, factor) == list(Brute.of("factor-duel").winning_moves(12)) != [3, 7, 21]
    assert check(every, list(Brute.of("factor-duel").winning_moves(12)), factor, "s").kind == "right"
    with pytest.raises(DeclarationError, match=r"^\[exercise.w\] start: the lesson has no parameter 'start'\.$"):
        check(every, [3], {"begin": 84}, "s")


# -- order -----------------------------------------------------------------------------------------------------


def test_an_order_is_judged_by_the_uses_of_its_lines() -> None:
    proof = Exercise("o", "order", {"lines": LINES})
    assert check(proof, ["A", "B", "C"], {}, "s").kind == "right"
    early = check(proof, ["B", "A", "C"], {}, "s")
    assert early.kind == "partial" and early.message == "Your proof uses that N is odd before it shows it."
    assert (early.hint, early.stronger) == (ORDER_HINT, ORDER_STRONGER)  # no hint declared: the usual ones
    wrong = check(proof, ["A", "B", "D"], {}, "s")
    assert wrong.kind == "misconception" and wrong.hint == "Line D is not true: odd - odd is even."
    bare = {x: {k: v for k, v in line.items() if k != "shows"} for x, line in LINES.items()}
    bare["A"]["shows"] = "N is odd"  # B uses A, so A must say what it shows; C's use of B is named by label
    assert check(Exercise("o", "order", {"lines": bare}), ["A", "C", "B"], {}, "s").message == (
        "Line C uses line B, which comes after it."
    )
    hinted = Exercise("o", "order", {"lines": LINES, "hint": "Start from {x}.", "stronger": "Then {x}."})
    late = check(hinted, ["B", "A", "C"], {"x": "A"}, "s")
    assert (late.hint, late.stronger) == ("Start from A.", "Then A.")
    assert check(proof, "ABC", {}, "s").message == "Give a list of line labels in order, like ['A', 'B', 'C', ...]."


# -- expression ------------------------------------------------------------------------------------------------

EXPRESSION = Exercise(
    "x",
    "expression",
    {
        **EXPRESSION_FIELDS,
        "factor": "d",
        "hint": "Take out {letter}.",
        "misconceptions": [{"key": "plus-one", "value": "d*(N/d + 1)", "hint": "Both terms of {letter}."}],
    },
)


def test_an_expression_is_judged_with_its_factor_shape_and_misconceptions() -> None:
    params = {"letter": "d"}
    assert check(EXPRESSION, "d*(N/d - 1)", params, "s").kind == "right"
    assert check(EXPRESSION, "N - d", params, "s").message == (
        "It is equal, but not yet in the form asked for: write it as a product with the factor d, such as d*(...)."
    )
    assert check(EXPRESSION, "N*(1 - d/N)", params, "s").kind == "partial"  # a product, but with N
    slip = check(EXPRESSION, "d*(N/d + 1)", params, "s")
    assert (slip.key, slip.hint) == ("plus-one", "Both terms of d.")
    miss = check(EXPRESSION, "N + 2*d", params, "s")  # N = 45, d = 3: 51, not 42
    assert (miss.kind, miss.hint) == ("miss", "Take out d.")
    plain_target = Exercise("x", "expression", EXPRESSION_FIELDS)
    assert check(plain_target, "N - d", {}, "s").kind == "right"  # no factor asked: any equal form


def test_an_expression_that_is_no_text_is_a_format_slip_with_an_example() -> None:
    assert check(EXPRESSION, 5, {}, "s").message == 'Type the expression as text in quotes, such as "N + 1".'
    blank = check(EXPRESSION, "  ", {}, "s")
    assert (blank.kind, blank.message) == ("format", 'That is empty: type an expression, such as "N + 1".')
    assert check(EXPRESSION, "", {}, "s").key == "format:blank"
    assert check(EXPRESSION, ..., {}, "s").kind == "unanswered"
    given = Exercise("x", "expression", {**EXPRESSION_FIELDS, "example": "2*(N + d)"})
    assert check(given, [1], {}, "s").message == 'Type the expression as text in quotes, such as "2*(N + d)".'
    assert check(given, 5, {}, "s").key == "format:not-text"


def test_a_factors_shape_is_a_product_with_that_letter() -> None:
    shape = _factor("d")
    names = ["N", "d"]
    assert shape(parse_expression("d*(N/d - 1)", names)) is None
    assert shape(parse_expression("N*d", names)) is None
    assert shape(parse_expression("N*(1 - d/N)", names)) == (
        "write it as a product with the factor d, such as d*(...)."
    )
    assert shape(parse_expression("d + N", names)) is not None  # d is a term, not a factor


# -- counterexample and step -----------------------------------------------------------------------------------

CLAIM = {
    "claim": "n is odd or a power of 2 (up to {upto})",
    "fails": "n % 2 == 0 and not is_power_of_two(n)",
    "hint": "Try the even numbers up to {upto}.",
    "misconceptions": [
        {"key": "odd", "when": "answer % 2 == 1", "hint": "An odd {upto}?"},
        {"key": "four", "value": 4, "hint": "4 = 2 × 2", "stronger": "4 is a power of 2, below {upto}."},
    ],
}


def test_a_counterexample_is_the_smallest_number_where_the_claim_fails() -> None:
    # even and not a power of 2: 6, 10, 12, ...; 6 is the smallest
    flaw = Exercise("c", "counterexample", {**CLAIM, "answer": 6})
    params = {"upto": 20}
    assert kinds_of(flaw, [6, 10, ...], params) == ["right", "partial", "unanswered"]
    holds = check(flaw, 8, params, "s")
    assert holds.message == "The claim holds for 8 (n is odd or a power of 2 (up to 20)), so 8 is no counterexample."
    assert (holds.hint, holds.stronger) == ("Try the even numbers up to 20.", "Try the even numbers up to 20.")
    odd = check(flaw, 9, params, "s")
    assert (odd.kind, odd.key, odd.hint, odd.stronger) == ("misconception", "odd", "An odd 20?", "An odd 20?")
    four = check(flaw, 4, params, "s")
    assert (four.key, four.message, four.stronger) == ("four", "Your answer was 4.", "4 is a power of 2, below 20.")
    # a text is no mistake of the form "answer % 2 == 1": its own format slip
    assert check(flaw, "six", params, "s").message == "Give one whole number, not 'six'."
    assert check(flaw, 10**6 + 2, params, "s").message == "Give a whole number from 1 to 1,000,000."
    small = Exercise("c", "counterexample", {**CLAIM, "answer": 6, "limit": 100, "stronger": "Look at {upto}."})
    assert check(small, 102, params, "s").message == "Give a whole number from 1 to 100."
    assert check(small, 8, params, "s").stronger == "Look at 20."


def test_a_students_counterexample_is_known_by_its_digest() -> None:
    sealed = Exercise("c", "counterexample", {**CLAIM, "answer_digest": digest(6, "99:c")})
    assert kinds_of(sealed, [6, 10, 8], {"upto": 20}, "99:c") == ["right", "partial", "miss"]
    computed = Exercise("c", "counterexample", {**CLAIM, "value": "2 * 3"})
    assert kinds_of(computed, [6, 10], {"upto": 20}) == ["right", "partial"]
    six = {"claim": "n is not 6", "fails": "n == 6"}
    texted = Exercise("c", "counterexample", {**six, "value": "'six'"})
    assert kinds_of(texted, [6, 1]) == ["partial", "miss"]  # no whole smallest: 6 fails, but is not "it"
    truth = Exercise("c", "counterexample", {**six, "value": "1 > 0"})
    assert kinds_of(truth, [1]) == ["miss"]  # True is no number: 1 is not the answer
    bare = Exercise("c", "counterexample", {"claim": "c", "fails": "n == 6", "answer": 6})
    assert (check(bare, 8, {}, "s").hint, check(bare, 8, {}, "s").stronger) == ("", "")


STEP = {
    "steps": 3,
    "shows": "n == odd_part(start)",
    "what": "the odd part of {start}",
    "hint": "Step {failing} assumes too much.",
    "misconceptions": [{"key": "step-3", "when": "answer[0] == 3", "hint": "Step 3 is algebra."}],
}


def test_a_step_is_the_failing_step_and_a_number_that_shows_it() -> None:
    # the odd part of 24 = 2³ × 3 is 3
    step = Exercise("s", "step", {**STEP, "answer": 2})
    params = {"start": 24, "failing": "two"}
    assert kinds_of(step, [(2, 3), [2, 3], ...], params) == ["right", "right", "unanswered"]
    near = check(step, (2, 5), params, "s")
    assert (near.kind, near.message) == ("partial", "5 does not show step 2 failing: you need the odd part of 24.")
    assert (near.hint, near.stronger) == ("Step two assumes too much.", "Step two assumes too much.")
    assert check(step, (1, 3), params, "s").message == "3 is a good example, but look again at which step it breaks."
    assert check(step, (3, 3), params, "s").key == "step-3"
    assert check(step, "2", params, "s").key == "format:pair"
    assert check(step, (), params, "s").key == "format:pair"
    assert check(step, (2, 10**6 + 1), params, "s").message == "Give a whole number from 1 to 1,000,000."
    short = Exercise("s", "step", {**STEP, "answer": 2, "limit": 10, "stronger": "Look at {start}."})
    assert check(short, (2, 11), params, "s").message == "Give a whole number from 1 to 10."
    assert check(short, (2, 5), params, "s").stronger == "Look at 24."


def test_a_students_step_is_known_by_the_digest_of_the_step() -> None:
    sealed = Exercise("s", "step", {**STEP, "answer_digest": digest(2, "99:s")})
    params = {"start": 24, "failing": 2}
    assert kinds_of(sealed, [(2, 3), (1, 3), (2, 5)], params, "99:s") == ["right", "partial", "partial"]
    assert check(sealed, (1, 3), params, "99:s").key == "step:1"
    texted = Exercise("s", "step", {**STEP, "value": "'two'"})
    assert check(texted, (2, 3), params, "s").key == "step:2"  # no whole failing step: none is it
    truth = Exercise("s", "step", {**STEP, "value": "1 > 0"})
    assert check(truth, (1, 3), params, "s").key == "step:1"  # True is no step: step 1 is not the failing one
    bare = Exercise("s", "step", {"steps": 2, "answer": 2, "shows": "n == 1", "what": "one"})
    assert (check(bare, (1, 2), {}, "s").hint, check(bare, (1, 2), {}, "s").stronger) == ("", "")


# -- explanation, table, pair ----------------------------------------------------------------------------------


def test_an_explanation_takes_any_text_of_enough_words() -> None:
    said = Exercise("x", "explanation", {})
    assert kinds_of(said, ["one two three", "one two", 5, ...]) == ["right", "format", "format", "unanswered"]
    assert check(said, "a b c", {}, "s").message == "Saved for your teacher, who reads it. Compare it with a partner's."
    assert check(said, "a b", {}, "s").message == "Write your explanation as text in quotes, in at least 3 words."
    assert check(said, "a b", {}, "s").key == "format:words"
    four = Exercise("x", "explanation", {"words": 4})
    assert kinds_of(four, ["a b c", "a b c d"]) == ["format", "right"]


def test_a_table_is_judged_entry_by_entry() -> None:
    # Divisor Duel: 1, 2, 3 have no move (P); 4 − 2 = 2 (P): N; 5 P; 6 − 3 = 3 (P): N
    texts = {"hint": "Start at {a}.", "stronger": "Play {a} out."}
    listed = Exercise("t", "table", {"numbers": [4, 5, 6], "value": "outcome(rules, n)", **texts})
    right = {4: "N", 5: "P", 6: "N"}
    assert check(listed, right, {}, "s").kind == "right"  # the rules are Divisor Duel unless said
    wrong = check(listed, {**right, 5: "N"}, {"a": 5}, "s")
    assert (wrong.message, wrong.hint) == ("2 of 3 entries right. The first to look at again: 5.", "Start at 5.")
    assert wrong.stronger == "Play 5 out."
    named = Exercise("t", "table", {"numbers": "pool", "value": "outcome(rules, n)"})
    assert check(named, {1: "P", 4: "N"}, {"pool": [1, 4]}, "s").kind == "right"
    hidden = Exercise("t", "table", {"numbers": "_pool", "value": "outcome(rules, n)"})
    assert model(hidden, {"_pool": [1, 4]}) == {1: "P", 4: "N"}  # any parameter's name, even one no formula reads
    formula = Exercise("t", "table", {"numbers": "range(1, upto)", "value": "'P' if n < 3 else 'N'"})
    assert check(formula, {1: "P", 2: "P", 3: "N"}, {"upto": 4}, "s").kind == "right"
    assert model(formula, {"upto": 4}) == {1: "P", 2: "P", 3: "N"}
    # Factor Duel has other outcomes: the brute force says which
    factor = Exercise("t", "table", {"numbers": [12], "value": "outcome(rules, n)"})
    assert model(factor, {"rules": "factor-duel"}) == {12: Brute.of("factor-duel").outcome(12)}


PAIR = Exercise(
    "p",
    "pair",
    {
        "first": {"answer": "N", "what": "P or N"},
        "second": {"value": "xor([a, 20])", "what": "the nim-sum"},  # a = 12: 01100 ^ 10100 = 11000 = 24
        "hint": "Write {a} in binary.",
        "misconceptions": [{"key": "sum", "when": "answer[1] == 32", "hint": "Not the sum."}],
    },
)


def test_a_pair_is_right_when_both_parts_are() -> None:
    params = {"a": 12}
    assert kinds_of(PAIR, [("N", 24), [" n ", 24], ...], params) == ["right", "right", "unanswered"]
    assert check(PAIR, ("N", 32), params, "s").key == "sum"
    first = check(PAIR, ("P", 24), params, "s")
    assert (first.kind, first.message) == ("partial", "The second part is right; look again at the first (P or N).")
    assert (first.key, first.hint, first.stronger) == ("pair:first", "Write 12 in binary.", "Write 12 in binary.")
    second = check(PAIR, ("N", 25), params, "s")
    assert (second.message, second.key) == (
        "The first part is right; look again at the second (the nim-sum).",
        "pair:second",
    )
    miss = check(PAIR, ("P", 5), params, "s")
    assert miss.stronger == "Write 12 in binary."  # no stronger hint declared: the hint again
    assert (miss.kind, miss.message, miss.key, miss.hint) == (
        "miss",
        "Your answer was ('P', 5).",
        "pair",
        "Write 12 in binary.",
    )
    # a number where a text is expected, or a text where a number is: wrong, never a crash
    assert check(PAIR, (5, "24"), params, "s").kind == "miss"
    assert check(PAIR, ("N", "24"), params, "s").key == "pair:second"
    assert check(PAIR, ("N", 24, 1), params, "s").message == "Give a pair, (first, second), in round brackets."
    assert check(PAIR, "N", params, "s").key == "format:pair"
    unnamed = Exercise("p", "pair", {"first": {"answer": 1}, "second": {"answer": 2}, "stronger": "Both {a}."})
    assert check(unnamed, (1, 3), params, "s").message == "The first part is right; look again at the second (second)."
    assert check(unnamed, (1, 3), params, "s").stronger == "Both 12."
    assert check(Exercise("p", "pair", {**PAIR.fields, "what": "(label, number)"}), 5, params, "s").message == (
        "Give a pair, (label, number), in round brackets."
    )


# -- values, errors and model answers --------------------------------------------------------------------------


def test_values_are_worked_out_in_order_on_top_of_the_parameters() -> None:
    e = Exercise("e", "number", {"answer": 3, "values": {"b": "a + 1", "c": "b * 2"}})
    assert names_of(e, {"a": 1}) == {"rules": "divisor-duel", "a": 1, "b": 2, "c": 4}
    assert names_of(e, {"a": 1, "rules": "factor-duel"})["rules"] == "factor-duel"
    with pytest.raises(DeclarationError) as caught:
        names_of(e, {})
    assert str(caught.value).startswith("[exercise.e] values.b: 'a + 1': a is not a parameter")
    with pytest.raises(DeclarationError) as caught:
        check(Exercise("e", "number", {"value": "a + 1"}), 1, {}, "s")
    assert str(caught.value).startswith("[exercise.e] value: 'a + 1': a is not a parameter")


def test_a_formula_that_breaks_while_judging_names_its_exercise() -> None:
    broken = Exercise("t", "table", {"numbers": [1], "value": "m + n"})
    with pytest.raises(DeclarationError) as caught:
        check(broken, {1: "P"}, {}, "s")
    assert str(caught.value).startswith("[exercise.t]: ")


def test_the_model_answer_of_each_kind() -> None:
    assert model(Exercise("e", "number", {"answer": 12}), {}) == 12
    assert model(Exercise("e", "number", {"value": "start // 2"}), {"start": 84}) == 42
    assert model(Exercise("e", "numbers", {"value": "moves(rules, 12)"}), DD) == [2, 3, 4, 6]
    assert model(Exercise("e", "label", {"answer": "P", "options": ["P", "N"]}), {}) == "P"
    assert model(Exercise("w", "winning-moves", {"start": 84}), {}) == [3, 7, 21]
    assert model(Exercise("w", "winning-move", {"start": 84}), {}) == 3  # the smallest
    assert model(Exercise("w", "winning-move", {"start": 8}), {}) is None  # 8 is a P-position: no winning move
    assert model(Exercise("o", "order", {"lines": LINES}), {}) == ["A", "B", "C"]
    bare = {"A": {"text": "a", "shows": "a"}, "B": {"text": "b", "shows": "b"}, "C": {"text": "c", "uses": ["A", "B"]}}
    assert model(Exercise("o", "order", {"lines": bare, "model": ("B", "A", "C")}), {}) == ["B", "A", "C"]
    assert model(Exercise("s", "step", {**STEP, "answer": 2}), {}) == [2, "a number that shows it"]
    assert model(Exercise("s", "step", {**STEP, "answer": 2, "model": [2, 3]}), {}) == [2, 3]
    assert model(PAIR, {"a": 12}) == ("N", 24)
    assert model(PAIR, {"a": 5}) == ("N", 17)  # 00101 ^ 10100 = 10001
    assert model(Exercise("e", "label", {"value": "outcome(rules, 9)", "options": ["P", "N"]}), {}) == "P"  # 9 is odd
    assert model(Exercise("c", "counterexample", {**CLAIM, "value": "2 * 3"}), {}) == 6
    assert model(Exercise("c", "counterexample", {**CLAIM, "answer": 6}), {}) == 6
    assert model(Exercise("x", "expression", {**EXPRESSION_FIELDS, "model": "d*(N/d - 1)"}), {}) == "d*(N/d - 1)"
    assert model(Exercise("x", "explanation", {}), {}) == ""
