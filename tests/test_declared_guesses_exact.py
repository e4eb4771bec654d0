"""Declared guesses, truths and reveals, exactly: forms, reveals and refusals, worked out by hand.

Fast (no lesson file, no notebook): the mutation area ``content`` runs these first.  Divisor Duel's
P-positions are the odd numbers and 2, 8, 32, ... (2 to an odd power).
"""

from __future__ import annotations

import pytest

from duel_lessons.teaching.declared.guesses import (
    FORMS,
    GUESS_FIELDS,
    REVEAL_FIELDS,
    TRUTH_FIELDS,
    Guess,
    Reveal,
    Truth,
    compare_sets,
    listing,
)
from duel_lessons.teaching.declared.orders import DeclarationError

W = "99-x.lesson.toml: [guess.g]"
DD = {"rules": "divisor-duel"}


def refusal(item: Guess | Truth | Reveal) -> str:
    with pytest.raises(DeclarationError) as caught:
        item.validate(W)
    return str(caught.value)


def test_the_forms_and_fields() -> None:
    assert FORMS == ("subset", "number", "label", "letters")
    assert GUESS_FIELDS == ("form", "among", "options", "least", "most", "picks", "answer", "reveal", "values")
    assert TRUTH_FIELDS == ("value", "yes", "no", "reach", "reveal", "values", "compare_upto")
    assert REVEAL_FIELDS == ("after", "text", "values")


# -- words ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ([15, 21, 32], "15, 21 and 32"),
        ([15, 21], "15 and 21"),
        ([8], "8"),
        ([], "none"),
        ((1, 2), "1 and 2"),
        (range(1, 4), "1, 2 and 3"),
        (["a", "b"], "a and b"),  # texts as they are, not quoted
        ("words", "words"),
        (0.25, "0.25"),
        (7, "7"),
        ({"a": 1}, "{'a': 1}"),
        ([0.5, "x"], "0.5 and x"),
    ],
)
def test_a_value_in_words(value: object, words: str) -> None:
    assert listing(value) == words


def test_a_generator_is_listed_once() -> None:
    assert listing(n * n for n in (1, 2, 3)) == "1, 4 and 9"


@pytest.mark.parametrize(
    ("guess", "truth", "within", "words"),
    [
        ([15, 21], [15, 21], [15, 16, 21], "Your guess was right for every one of 15, 16 and 21."),
        (
            [16],
            [15],
            [15, 16],
            "You were right about none of them; you chose 16, which is not one of them; you left out 15.",
        ),
        (
            [15, 16, 21],
            [15],
            [15, 16, 21, 32],
            "You were right about 15 and 32; you chose 16 and 21, which are not one of them.",
        ),
        ([], [15, 21], [15, 16, 21], "You were right about 16; you left out 15 and 21."),
    ],
)
def test_a_guessed_set_is_compared_number_by_number(
    guess: list[int], truth: list[int], within: list[int], words: str
) -> None:
    assert compare_sets(guess, truth, within) == words


def test_a_pool_of_twelve_is_spoken_of_whole_and_a_longer_one_only_where_named() -> None:
    twelve = list(range(1, 13))
    assert compare_sets([1], [1], twelve) == "Your guess was right for every one of " + listing(twelve) + "."
    # 13 numbers: only those the guess or the answer names
    assert compare_sets([1], [1, 13], range(1, 14)) == "You were right about 1; you left out 13."
    assert compare_sets([2], [2], range(1, 14)) == "Your guess was right for every one of 2."


# -- fields ----------------------------------------------------------------------------------------------------------


def test_an_unknown_field_is_named_with_the_fields_allowed() -> None:
    assert refusal(Reveal("r", {"after": "g", "text": "t", "colour": 1})) == (
        f"{W} colour: not a field here (its fields: after, text, values)."
    )


@pytest.mark.parametrize("key", ["reveal", "text", "after"])
def test_texts_are_written_in_quotes(key: str) -> None:
    fields = {"after": "g", "text": "t", key: 5}
    if key == "reveal":
        assert refusal(Guess("g", {"form": "number", "reveal": 5})) == f"{W} reveal: write it as text in quotes."
    else:
        assert refusal(Reveal("r", fields)) == f"{W} {key}: write it as text in quotes."


@pytest.mark.parametrize("key", ["yes", "no"])
def test_yes_and_no_are_written_in_quotes(key: str) -> None:
    fields = {"value": "n", "yes": "a", "no": "b", key: 1}
    assert refusal(Truth("t", fields)) == f"{W} {key}: write it as text in quotes."


def test_values_are_a_table_of_formulas() -> None:
    assert refusal(Reveal("r", {"after": "g", "text": "t", "values": ["1"]})) == (
        f"{W} values: give a table of NAME = formula."
    )
    assert refusal(Reveal("r", {"after": "g", "text": "t", "values": {"a": "1", "b": "x.y"}})) == (
        f"{W} values.b: 'x.y': an attribute (a dot) is not allowed in a formula."
    )
    assert Reveal("r", {"after": "g", "text": "t", "values": {"a": "1 + x"}}).validate(W) is None


# -- guesses ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"form": "colour"}, "form: 'colour' is not a form; use one of subset, number, label, letters."),
        ({}, "form: None is not a form; use one of subset, number, label, letters."),
        ({"form": "subset"}, "among: give the numbers offered, or the name of a lesson parameter."),
        ({"form": "subset", "among": 5}, "among: give the numbers offered, or the name of a lesson parameter."),
        ({"form": "label"}, 'options: give the options as texts, such as ["a", "b"].'),
        ({"form": "letters", "options": "ab"}, 'options: give the options as texts, such as ["a", "b"].'),
        ({"form": "letters", "options": ["a", 2]}, 'options: give the options as texts, such as ["a", "b"].'),
        ({"form": "number", "answer": "1 +"}, "answer: '1 +': not a formula (invalid syntax)."),
        ({"form": "letters", "options": ["a"], "answer": "x.y"}, "answer: 'x.y': an attribute (a dot) is not allowed"),
        ({"form": "number", "colour": 1}, "colour: not a field here (its fields: form, among, options, least, most,"),
    ],
)
def test_a_malformed_guess_is_named_by_its_field(fields: dict[str, object], message: str) -> None:
    assert refusal(Guess("g", fields)).startswith(f"{W} {message}")


def test_a_well_formed_guess_passes() -> None:
    assert Guess("g", {"form": "subset", "among": [1, 2], "answer": "[1]"}).validate(W) is None
    assert Guess("g", {"form": "subset", "among": "big"}).validate(W) is None
    assert Guess("g", {"form": "number", "answer": 3}).validate(W) is None
    # a label's answer is the label itself, never read as a formula
    assert Guess("g", {"form": "label", "options": ["x.y"], "answer": "x.y"}).validate(W) is None
    assert Guess("g", {"form": "letters", "options": []}).validate(W) is None


def test_among_is_a_list_a_parameter_or_a_formula() -> None:
    assert Guess("g", {"form": "subset", "among": [3, 1]}).among({}) == [3, 1]
    assert Guess("g", {"form": "subset", "among": "big"}).among({"big": (4, 5)}) == [4, 5]
    assert Guess("g", {"form": "subset", "among": "range(1, upto + 1)"}).among({"upto": 3}) == [1, 2, 3]
    assert Guess("g", {"form": "subset", "among": "p_among(rules, [8, 9, 10])"}).among({}) == [8, 9]
    assert Guess("g", {"form": "number"}).among({}) == []


SUBSET = Guess("g", {"form": "subset", "among": [15, 16, 21, 32], "answer": "p_among(rules, among)"})


def test_a_subset_guess_takes_a_list_of_the_numbers_offered() -> None:
    for good in ([15, 21], [], (16,), {32}, frozenset({15})):
        assert SUBSET.form(good, {}) is None, good
    expected = "Guess a list of some of the numbers from [15, 16, 21, 32], such as [15] (or [] for none)."
    for bad in ([15, 99], 15, "15", [True], [15.0]):
        assert SUBSET.form(bad, {}) == expected, bad


def test_a_subset_guess_may_ask_for_at_least_some() -> None:
    picky = Guess("g", {"form": "subset", "among": "range(1, 31)", "picks": 2})
    assert picky.form([1, 2], {}) is None and picky.form([1, 2, 3], {}) is None
    assert picky.form([1], {}) == "Guess a list of at least 2 of the numbers from 1 to 30, such as [1]."
    twelve = Guess("g", {"form": "subset", "among": list(range(1, 13))})
    assert twelve.form([13], {}) == (
        "Guess a list of some of the numbers from [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], such as [1]"
        " (or [] for none)."
    )
    thirteen = Guess("g", {"form": "subset", "among": list(range(1, 14))})
    assert thirteen.form([14], {}).startswith("Guess a list of some of the numbers from 1 to 13,")  # type: ignore[union-attr]


def test_a_number_guess_is_a_number_within_its_bounds() -> None:
    number = Guess("g", {"form": "number", "least": 2, "most": 5})
    assert [number.form(x, {}) is None for x in (1, 2, 5, 6, 2.5, "3", True)] == [
        False, True, True, False, True, False, False,
    ]  # fmt: skip
    assert number.form(1, {}) == "Guess a number from 2 to 5 (no quotes)."
    free = Guess("g", {"form": "number"})
    assert free.form(0, {}) is None and free.form(10**12, {}) is None
    assert free.form(-1, {}) == "Guess a number from 0 to 1000000000000 (no quotes)."
    assert free.form(10**12 + 1, {}) is not None


def test_a_label_guess_is_one_of_the_options_in_any_case() -> None:
    label = Guess("g", {"form": "label", "options": ["Perfect", " Random "], "answer": "Perfect"})
    assert label.form(" perfect ", {}) is None and label.form("RANDOM", {}) is None
    assert label.form("lucky", {}) == "Choose one of 'Perfect', ' Random '."
    assert label.form(["Perfect"], {}) == "Choose one of 'Perfect', ' Random '."


def test_a_letters_guess_is_a_list_of_some_of_the_options() -> None:
    letters = Guess("g", {"form": "letters", "options": ["A", "B", "C"], "answer": ["a", "c"]})
    for good in (["a", " C"], [], ("b",), {"A"}):
        assert letters.form(good, {}) is None, good
    for bad in (["d"], "a", ["a", 1], frozenset({"a"})):
        assert letters.form(bad, {}) == "Give a list of some of ['A', 'B', 'C'] (or [] for none).", bad


def test_the_answer_is_a_formula_except_for_a_label() -> None:
    assert SUBSET.answer(DD) == [15, 21, 32]
    assert SUBSET.answer({}) == [15, 21, 32]  # the rules are Divisor Duel unless the lesson says otherwise
    assert Guess("g", {"form": "number", "answer": "among"}).answer({}) == []
    assert Guess("g", {"form": "number", "answer": 7}).answer({}) == 7
    assert Guess("g", {"form": "label", "options": ["1 + 1"], "answer": "1 + 1"}).answer({}) == "1 + 1"
    assert Guess("g", {"form": "number", "answer": "1 + 1"}).answer({}) == 2
    assert Guess("g", {"form": "number", "answer": "rules"}).answer({"rules": "factor-duel"}) == "factor-duel"


def test_a_subset_reveal_compares_the_sets_and_fills_the_names() -> None:
    guess = Guess("g", {**SUBSET.fields, "reveal": "{guess} / {answer} / {among} / {rules} / {unknown} / {comparison}"})
    assert guess.reveal([15, 16], {}) == (
        "15 and 16 / 15, 21 and 32 / 15, 16, 21 and 32 / divisor-duel / {unknown} / You were right about 15; "
        "you chose 16, which is not one of them; you left out 21 and 32."
    )


def test_a_reveal_without_text_is_the_comparison() -> None:
    assert SUBSET.reveal([15, 21, 32], {}) == "Your guess was right for every one of 15, 16, 21 and 32."


def test_a_letters_reveal_counts_the_options_right() -> None:
    letters = Guess("g", {"form": "letters", "options": ["A", "B", "C"], "answer": ["a", "C"]})
    assert letters.reveal(["c", " A"], {}) == "You chose A and C: right."
    # chose a and b: a right, b wrong, c missed: 1 of the 3 right
    assert letters.reveal(["b", "a"], {}) == "You chose A and B; you were right about 1 of the 3."
    assert letters.reveal([], {}) == "You chose none; you were right about 1 of the 3."  # only b, left out
    assert letters.reveal("a", {}) == "You chose none; you were right about 1 of the 3."  # not a list: nothing chosen
    words = Guess("g", {"form": "letters", "options": ["odd", "even"], "answer": ["odd"]})
    assert words.reveal(["odd"], {}) == "You chose odd: right."
    formula = Guess("g", {"form": "letters", "options": ["A", "B"], "answer": "['b']"})
    assert formula.reveal(["B"], {}) == "You chose B: right."
    odd = Guess("g", {"form": "letters", "options": ["A", "B"], "answer": 7})  # not a list: no option is right
    assert odd.reveal([], {}) == "You chose none: right."


def test_a_number_or_label_reveal_says_whether_the_guess_was_right() -> None:
    number = Guess("g", {"form": "number", "answer": "2 + 2", "reveal": "{answer}: {comparison} ({guess})"})
    assert number.reveal(4, {}) == "4: Your guess was right. (4)"
    assert number.reveal(5, {}) == "4: You guessed 5. (5)"
    label = Guess("g", {"form": "label", "options": ["Perfect", "Random"], "answer": "Perfect"})
    assert label.reveal(" PERFECT", {}) == "Your guess was right."
    assert label.reveal("Random", {}) == "You guessed 'Random'."
    assert Guess("g", {"form": "label", "options": ["a"], "answer": 1}).reveal("1", {}) == "You guessed '1'."


def test_a_reveal_fills_values_from_formulas() -> None:
    guess = Guess(
        "g",
        {
            "form": "number",
            "answer": 3,
            "values": {"twice": "2 * answer", "guess": "99"},
            "reveal": "{values.twice} {guess} {values.guess} {values.none}",
        },
    )
    assert guess.reveal(5, {}) == "6 5 99 {values.none}"
    broken = Guess("g", {"form": "number", "answer": 3, "values": {"bad": "1 // 0"}})
    with pytest.raises(DeclarationError) as caught:
        broken.reveal(5, {})
    assert (
        str(caught.value)
        == "[guess.g] values.bad: '1 // 0': cannot be worked out (integer division or modulo by zero)."
    )


# -- truths and further reveals ----------------------------------------------------------------------------------


def test_a_truth_needs_a_value_a_yes_and_a_no() -> None:
    message = f'{W} value: give value (a formula in n), yes and no, such as yes = "loses".'
    for fields in ({"yes": "a", "no": "b"}, {"value": "n", "no": "b"}, {"value": "n", "yes": "a"}):
        assert refusal(Truth("t", fields)) == message, fields
    assert (
        refusal(Truth("t", {"value": "n +", "yes": "a", "no": "b"}))
        == f"{W} value: 'n +': not a formula (invalid syntax)."
    )


@pytest.mark.parametrize(
    ("reach", "good"), [(0, True), (5, True), ("upto", True), (-1, False), ("1x", False), (2.5, False), (True, False)]
)
def test_a_truths_reach_is_a_whole_number_or_a_parameter(reach: object, good: bool) -> None:
    truth = Truth("t", {"value": "is_p(rules, n)", "yes": "loses", "no": "wins", "reach": reach})
    if good:
        assert truth.validate(W) is None
    else:
        assert refusal(truth) == f"{W} reach: give a whole number, or the name of a lesson parameter."


LOSES = Truth("t", {"value": "is_p(rules, n)", "yes": "loses", "no": "wins"})


def test_a_truth_is_a_function_of_n() -> None:
    assert [LOSES.function({})(n) for n in (2, 4, 8, 9, 16)] == [True, False, True, True, False]


def test_a_truth_reveal_says_where_the_rule_first_differs() -> None:
    # odd numbers and 2, 8, 32, ...: "odd" first differs at 2; "odd or 2" at 8
    assert LOSES.reveal(lambda n: n % 2 == 1, {}) == "Your last rule differs from it first at n = 2."
    assert LOSES.reveal(lambda n: n % 2 == 1 or n == 2, {}) == "Your last rule differs from it first at n = 8."
    assert LOSES.reveal(None, {}) == "Test a rule first to compare it."
    short = Truth("t", {**LOSES.fields, "compare_upto": 7, "reveal": "{comparison} ({rules})"})
    assert short.reveal(lambda n: n % 2 == 1 or n == 2, {}) == (
        "Your last rule agrees with it for every n from 1 to 7. Well found! (divisor-duel)"
    )
    assert short.reveal(lambda n: n % 2 == 1, {}) == "Your last rule differs from it first at n = 2. (divisor-duel)"
    right = Truth("t", {"value": "n > 0", "yes": "a", "no": "b"})
    assert right.reveal(lambda n: True, {}) == "Your last rule agrees with it for every n from 1 to 10,000. Well found!"


def test_a_truth_reveal_names_a_value_that_cannot_be_worked_out() -> None:
    broken = Truth("t", {**LOSES.fields, "values": {"bad": "1 // 0"}})
    with pytest.raises(DeclarationError) as caught:
        broken.reveal(None, {})
    assert (
        str(caught.value)
        == "[truth.t] values.bad: '1 // 0': cannot be worked out (integer division or modulo by zero)."
    )


def test_a_further_reveal_needs_after_and_text() -> None:
    message = f"{W} after: give after (the guess or truth that opens it) and text."
    assert refusal(Reveal("r", {"text": "t"})) == message
    assert refusal(Reveal("r", {"after": "g"})) == message
    assert Reveal("r", {"after": "g", "text": "t"}).validate(W) is None


def test_a_further_reveal_fills_the_guess_and_values() -> None:
    more = Reveal("r", {"after": "g", "text": "{guess}: {values.half} of {rules}", "values": {"half": "guess // 2"}})
    assert more.reveal(8, {"rules": "factor-duel"}) == "8: 4 of factor-duel"
    broken = Reveal("r", {"after": "g", "text": "t", "values": {"bad": "nope"}})
    with pytest.raises(DeclarationError, match=r"^\[reveal\.r\] values\.bad: 'nope': nope is not a parameter"):
        broken.reveal(1, {})
