"""The declared format's engine: formulas (never eval, bounded), the new kinds, guesses, truths and reveals.

Every expected value is worked out by hand in the comment beside it.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import duel_lessons.teaching.declared as declared
from duel_lessons.teaching.declared.formulas import FormulaError, evaluate, predicate
from duel_lessons.teaching.declared.guesses import Guess, Truth
from duel_lessons.teaching.declared.kinds import Exercise, check

DD = {"rules": "divisor-duel"}


# -- formulas ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "().__class__",  # an attribute
        "__import__('os')",  # a function not in FUNCTIONS
        "open('x')",
        "(lambda: 1)()",
        "[x for x in range(3)]",
        "{1: 2}",
        "divisors(n=3)",  # keywords
        "_secret",
        "f'{1}'",
        "1.5",  # only whole numbers and texts
    ],
)
def test_a_formula_allows_only_its_small_language(text: str) -> None:
    with pytest.raises(FormulaError):
        evaluate(text, {"n": 3})


@pytest.mark.parametrize(
    "text", ["9 ** 99999", "range(0, 10 ** 9)", "divisors(2) * 10 ** 6", "primes(10 ** 12)", "x" * 600]
)
def test_a_formula_cannot_hang_or_fill_memory(text: str) -> None:
    with pytest.raises(FormulaError):
        evaluate(text, {})


def test_formulas_compute_what_the_hand_computes() -> None:
    # 84 = 2² × 3 × 7: moves 2, 3, 4, 6, 7, 12, 14, 21, 28, 42; 84 − d is odd (a P-position) for d = 3, 7, 21.
    assert evaluate("winning_moves(rules, 84)", DD) == [3, 7, 21]
    assert evaluate("moves(rules, 12)", DD) == [2, 3, 4, 6]
    # P-positions of Divisor Duel: odd numbers and 2, 8, 32, ...: among 15, 16, 21, 32 -> 15, 21, 32.
    assert evaluate("p_among(rules, [15, 16, 21, 32])", DD) == [15, 21, 32]
    assert evaluate("odd_part(96) + divisor_count(72) + mex([0, 1, 3]) + xor([5, 3])", {}) == 3 + 12 + 2 + 6
    assert evaluate("prime_factors(12)", {}) == [2, 2, 3]
    assert evaluate("'big' if 5 > 3 else 'small'", {}) == "big"
    assert evaluate("[2, 3][1]", {}) == 3
    # from 12 the moves 2, 3, 4, 6 leave 10, 9, 8, 6; 9 (odd) and 8 (2³) are P-positions: Grundy value 0
    assert evaluate("reached(rules, 12)", DD) == [6, 8, 9, 10]
    assert [g == 0 for g in evaluate("grundies(rules, reached(rules, 12))", DD)] == [False, True, True, False]
    assert evaluate("outcomes(rules, [9, 10])", DD) == ["P", "N"]
    assert evaluate("(1 - 9/20) / 2", {}) == Fraction(11, 40)  # exact, never 0.27499999
    test = predicate("n % 2 == 1 or is_power_of_two(n)", {})
    assert [m for m in range(1, 13) if not test(m)] == [6, 10, 12]


def test_an_unknown_name_in_a_formula_says_which_names_are_known() -> None:
    with pytest.raises(FormulaError, match=r"'start \+ 1'.*start is not a parameter .*known: rules"):
        evaluate("start + 1", DD)


# -- the kinds -----------------------------------------------------------------------------------------------

EXPRESSION = Exercise(
    "e",
    "expression",
    {
        "target": "N - d",
        "names": ["N", "d"],
        "cases": [{"N": 45, "d": 3}, {"N": 21, "d": 7}],
        "factor": "d",
        "example": "2*(N + d)",
        "misconceptions": [{"key": "plus-one", "value": "d*(N/d + 1)", "hint": "Both terms."}],
    },
)


def test_an_expression_is_judged_by_sympy_with_its_shape_and_misconceptions() -> None:
    assert check(EXPRESSION, "d*(N/d - 1)", {}, "s").kind == "right"
    assert check(EXPRESSION, "(N/d - 1)*d", {}, "s").kind == "right"  # any order of the factors
    assert check(EXPRESSION, "N - d", {}, "s").kind == "partial"  # equal, but not a product with d
    assert check(EXPRESSION, "d*(N/d + 1)", {}, "s").key == "plus-one"
    slip = check(EXPRESSION, 5, {}, "s")
    assert slip.kind == "format" and "2*(N + d)" in slip.message and "N/d - 1" not in slip.message


FLAW = {
    "claim": "every even number bigger than 2 is an N-position",
    "fails": "n > 2 and n % 2 == 0 and is_p(rules, n)",
    "misconceptions": [{"key": "odd", "when": "answer % 2 == 1", "hint": "Even numbers."}],
}


@pytest.mark.parametrize("edition", ["teacher", "student"])
def test_a_counterexample_in_either_edition(edition: str) -> None:
    # Even P-positions above 2: 8, 32, 128, ...: 8 is the smallest.
    text = '[exercise.flaw]\nkind = "counterexample"\nanswer = 8\n' + "\n".join(
        f"{k} = {v!r}" for k, v in FLAW.items() if k != "misconceptions"
    )
    text += '\nmisconceptions = [{ key = "odd", when = "answer % 2 == 1", hint = "Even numbers." }]\n'
    lesson = declared.parse('lesson = "99"\n' + text, "99-x.lesson.toml")
    if edition == "student":
        sealed = lesson.student_text()
        assert "answer = 8" not in sealed and "is_p" not in sealed
        lesson = declared.parse(sealed, "99-x.lesson.toml")
    assert lesson.check("flaw", 8, DD).kind == "right"
    assert lesson.check("flaw", 32, DD).kind == "partial"  # a counterexample, not the smallest
    assert lesson.check("flaw", 6, DD).kind == "miss"  # 6 → 3 wins: an N-position
    assert lesson.check("flaw", 9, DD).key == "odd"
    assert lesson.check("flaw", "eight", DD).kind == "format"


def test_a_step_names_the_failing_step_and_a_number_that_shows_it() -> None:
    step = Exercise(
        "s",
        "step",
        {
            "steps": 3,
            "answer": 2,
            "shows": "n == odd_part(8)",
            "what": "a number that shows it",
            "misconceptions": [{"key": "step-3", "when": "answer[0] == 3", "hint": "Step 3 is algebra."}],
        },
    )
    assert check(step, (2, 1), {}, "s").kind == "right"  # the odd part of 8 is 1
    assert check(step, (2, 3), {}, "s").kind == "partial"
    assert check(step, (3, 1), {}, "s").key == "step-3"
    assert check(step, "2", {}, "s").kind == "format"


def test_an_explanation_is_collected_not_judged() -> None:
    said = Exercise("x", "explanation", {"words": 4})
    assert check(said, "Every move from an odd number leaves an even one.", {}, "s").kind == "right"
    assert check(said, "odd", {}, "s").kind == "format"
    assert check(said, ..., {}, "s").kind == "unanswered"


def test_a_fraction_answer_is_exact() -> None:
    rate = Exercise("r", "number", {"value": "1 - 2*ex_rate", "tolerance": 0.001})
    assert check(rate, 0.1, {"ex_rate": Fraction(9, 20)}, "s").kind == "right"  # 1 − 9/10 = 1/10


def test_a_computed_answer_follows_the_parameters() -> None:
    count = Exercise("c", "number", {"value": "divisor_count(start)", "hint": "List the divisors of {start}."})
    assert check(count, 12, {"start": 72}, "s").kind == "right"  # 72 = 2³ × 3²: 4 × 3 = 12 divisors
    assert check(count, 6, {"start": 12}, "s").kind == "right"  # 1, 2, 3, 4, 6, 12
    assert check(count, 12, {"start": 12}, "s").hint == "List the divisors of 12."


# -- guesses, truths and reveals -------------------------------------------------------------------------------


def test_a_guess_has_a_form_and_a_reveal_filled_from_formulas() -> None:
    guess = Guess(
        "big",
        {"form": "subset", "among": "big", "answer": "p_among(rules, among)", "reveal": "P: {answer}. {comparison}"},
    )
    params = {**DD, "big": [999, 1000, 1024, 2048]}
    assert guess.form([999, 5], params) is not None and guess.form([], params) is None
    # 999 is odd (P); 1000 = 8 × 125 (N); 1024 = 2¹⁰ (even exponent: N); 2048 = 2¹¹ (P).
    assert guess.reveal([999, 1000], params) == (
        "P: 999 and 2048. You were right about 999 and 1024; you chose 1000, which is not one of them; "
        "you left out 2048."
    )


def test_a_truth_reveal_names_where_the_last_rule_first_differs() -> None:
    truth = Truth("loses", {"value": "is_p(rules, n)", "yes": "loses", "no": "wins", "reveal": "{comparison}"})
    assert truth.function(DD)(8) and not truth.function(DD)(16)
    assert truth.reveal(lambda n: n % 2 == 1, DD) == "Your last rule differs from it first at n = 2."
    assert "Test a rule first" in truth.reveal(None, DD)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[guess.g]\nform = "subset"\namong = [1]\nanswer = "open(1)"\n', "[guess.g] answer: 'open(1)': open is not"),
        ('[guess.g]\nform = "colour"\n', "[guess.g] form: 'colour' is not a form"),
        ('[truth.t]\nvalue = "n.real"\nyes = "a"\nno = "b"\n', "[truth.t] value: 'n.real': an attribute"),
        ('[reveal.r]\nafter = "g"\ntext = "x"\ncolour = 1\n', "[reveal.r] colour: not a field here"),
        ('[exercise.e]\nkind = "number"\nvalue = "n +"\n', "[exercise.e] value: 'n +': not a formula"),
        (
            '[exercise.e]\nkind = "number"\nanswer = 1\nmisconceptions = [{ key = "k", when = "a.b", hint = "h" }]\n',
            "[exercise.e] misconceptions[0] when: 'a.b': an attribute",
        ),
    ],
)
def test_a_malformed_section_is_named_by_file_section_and_field(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "99-x.lesson.toml").write_text('lesson = "99"\n' + text, encoding="utf-8")
    problems = declared.check_folder(tmp_path)
    assert len(problems) == 1 and problems[0].startswith("99-x.lesson.toml: " + message), problems


# -- round 2: tables, pairs, guesses over a formula, exact big numbers -----------------------------------------


def test_a_table_is_judged_entry_by_entry_from_a_formula() -> None:
    # Divisor Duel 1..6: 1 P (no move), 2 P, 3 P, 4 → 2 or 3 left... 4 − 2 = 2 (P): N; 5 P; 6 − 3 = 3 (P): N
    table = Exercise("t", "table", {"numbers": "range(1, 7)", "value": "outcome(rules, n)"})
    right = {1: "P", 2: "P", 3: "P", 4: "N", 5: "P", 6: "N"}
    assert check(table, right, DD, "s").kind == "right"
    assert check(table, {**right, 4: "P"}, DD, "s").message == "5 of 6 entries right. The first to look at again: 4."


def test_a_pair_is_right_when_both_parts_are() -> None:
    # 12 = 0b01100 and 20 = 0b10100 share the bit 4: their nim-sum is 0b11000 = 24, their sum 32
    pair = Exercise(
        "p",
        "pair",
        {
            "first": {"answer": "N", "what": "P or N"},
            "second": {"value": "xor([12, 20])", "what": "the nim-sum"},
            "misconceptions": [{"key": "sum", "when": "answer[1] == 32", "hint": "Not the sum."}],
        },
    )
    assert check(pair, ("N", 24), {}, "s").kind == "right" and check(pair, ("n", 24), {}, "s").kind == "right"
    assert check(pair, ("N", 32), {}, "s").key == "sum"
    half = check(pair, ("P", 24), {}, "s")
    assert half.kind == "partial" and half.message == "The second part is right; look again at the first (P or N)."
    assert check(pair, ("P", 5), {}, "s").kind == "miss" and check(pair, 5, {}, "s").kind == "format"


def test_a_guess_may_offer_a_range_and_ask_for_at_least_one() -> None:
    guess = Guess("stuck", {"form": "subset", "among": "range(1, upto + 1)", "picks": 1, "answer": "[1]"})
    assert guess.form([], {"upto": 30}) is not None and guess.form([31], {"upto": 30}) is not None
    assert guess.form([1, 30], {"upto": 30}) is None
    label = Guess("who", {"form": "label", "options": ["Perfect", "Random"], "answer": "Perfect"})
    assert label.form(" perfect", {}) is None and label.reveal("perfect", {}) == "Your guess was right."


def test_a_whole_number_answer_is_exact_at_any_size_and_lists_compare_as_sets() -> None:
    big = Exercise("b", "number", {"value": "2 * odd_part(ex_even)"})
    assert check(big, 2 * 5**24, {"ex_even": 10**24}, "s").kind == "right"  # 10**24 = 2**24 * 5**24
    assert check(big, 2 * 5**24 + 2, {"ex_even": 10**24}, "s").kind == "miss"  # a float would call it equal
    assert evaluate("same([3, 2], [2, 3]) and not same([2], [2, 3])", {}) is True
    assert evaluate("sorted(without([5, 1, 3], [3]))", {}) == [1, 5]


def test_a_students_copy_works_its_values_out_in_the_order_written() -> None:
    text = 'lesson = "99"\n[exercise.e]\nkind = "number"\nanswer = 3\nhint = "{zeta} then {alpha}"\n'
    text += 'values = { zeta = "2", alpha = "zeta + 1" }\n'  # alpha uses zeta, written first: not alphabetical
    sealed = declared.parse(declared.parse(text, "99-x.lesson.toml").student_text(), "99-x.lesson.toml")
    assert sealed.check("e", 5, {}).hint == "2 then 3"


def test_a_guess_over_a_long_pool_speaks_only_of_the_numbers_named() -> None:
    guess = Guess("stuck", {"form": "subset", "among": "range(1, 31)", "answer": "[1, 2, 3]", "reveal": "{comparison}"})
    assert guess.reveal([1, 9], {}) == (
        "You were right about 1; you chose 9, which is not one of them; you left out 2 and 3."
    )
