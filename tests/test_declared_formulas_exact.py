"""A declared formula, exactly: each function, operator and refusal, with values worked out by hand.

Fast (no lesson file, no notebook): the mutation area ``content`` runs these first.

Divisor Duel by hand (a move takes away a divisor d of n with 1 < d < n; no move loses):
1, 2, 3, 5, 7 have no move (P, Grundy 0, remoteness 0); 4 -> 2 (N, Grundy 1, remoteness 1);
6 -> 4, 3 (N, Grundy mex{1, 0} = 2, remoteness 1); 8 -> 6, 4 (P, Grundy 0, remoteness 1 + 1 = 2);
9 -> 6 (P, remoteness 2); 10 -> 8, 5 (N, Grundy mex{0, 0} = 1, remoteness 1 + min(2, 0) = 1);
12 -> 10, 9, 8, 6 (N, Grundy mex{1, 0, 0, 2} = 3, remoteness 1 + min(2, 2) = 3).
The P-positions are the odd numbers and 2, 8, 32, ... (2 to an odd power).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from duel_lessons.engine.rules import DuelError, get_rules
from duel_lessons.teaching.declared import formulas
from duel_lessons.teaching.declared.formulas import (
    MAX_BITS,
    MAX_ITEMS,
    MAX_LENGTH,
    FormulaError,
    evaluate,
    function,
    parse,
    predicate,
)

DD = {"rules": "divisor-duel"}


def refusal(text: str, names: dict[str, object] | None = None) -> str:
    with pytest.raises(FormulaError) as caught:
        evaluate(text, DD if names is None else names)
    return str(caught.value)


def test_the_bounds_and_the_error_class() -> None:
    assert (MAX_BITS, MAX_ITEMS, MAX_LENGTH) == (4096, 100_000, 500)
    assert issubclass(FormulaError, DuelError)


# -- the functions, one by one -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("is_p(rules, 8)", True),
        ("is_p(rules, 12)", False),
        ("outcome(rules, 9)", "P"),
        ("outcome(rules, 10)", "N"),
        ("moves(rules, 12)", [2, 3, 4, 6]),
        ("moves(rules, 7)", []),
        ("winning_moves(rules, 12)", [3, 4]),  # 12 - 3 = 9 and 12 - 4 = 8 are P
        ("winning_move(rules, 12)", 3),
        ("winning_move(rules, 10)", 5),  # 10 - 5 = 5 (remoteness 0) wins faster than 10 - 2 = 8 (remoteness 2)
        ("winning_move(rules, 9)", None),  # a P-position has none
        ("grundy(rules, 12)", 3),
        ("grundy(rules, 6)", 2),
        ("remoteness(rules, 12)", 3),
        ("remoteness(rules, 8)", 2),
        ("p_among(rules, [4, 5, 6, 8])", [5, 8]),
        ("n_among(rules, [4, 5, 6, 8])", [4, 6]),
        ("p_among(rules, (9, 10))", [9]),
        ("p_among(rules, range(4, 7))", [5]),
        ("p_positions(rules, 9)", [1, 2, 3, 5, 7, 8, 9]),
        ("p_positions(rules, 8)", [1, 2, 3, 5, 7, 8]),
        ("first_p_above(rules, 0)", 1),
        ("first_p_above(rules, 1)", 2),
        ("first_p_above(rules, 3)", 5),
        ("first_p_above(rules, 9)", 11),
        ("first_p_above(rules, 5)", 7),
        ("reached(rules, 12)", [6, 8, 9, 10]),
        ("reached(rules, 5)", []),
        ("grundies(rules, [4, 6, 12, 9])", [1, 2, 3, 0]),
        ("outcomes(rules, [9, 10, 4])", ["P", "N", "N"]),
        ("divisors(12)", [1, 2, 3, 4, 6, 12]),
        ("divisors(1)", [1]),
        ("proper_divisors(12)", [2, 3, 4, 6]),
        ("proper_divisors(7)", []),
        ("divisor_count(12)", 6),
        ("divisor_count(72)", 12),  # 2^3 3^2: 4 x 3
        ("prime_factors(12)", [2, 2, 3]),
        ("prime_factors(90)", [2, 3, 3, 5]),
        ("prime_factors(1)", []),
        ("distinct_primes(90)", [2, 3, 5]),
        ("omega(90)", 4),
        ("omega(1)", 0),
        ("is_prime(7)", True),
        ("is_prime(9)", False),
        ("primes(10)", [2, 3, 5, 7]),
        ("primes(11)", [2, 3, 5, 7, 11]),
        ("primes(1)", []),
        ("odd_part(96)", 3),
        ("odd_part(7)", 7),
        ("is_power_of_two(8)", True),
        ("is_power_of_two(6)", False),
        ("mex([0, 1, 3])", 2),
        ("mex([1, 2])", 0),
        ("mex([])", 0),
        ("mex([2, 0, 1])", 3),
        ("mex([0, 0, 1])", 2),
        ("xor([5, 3])", 6),
        ("xor([])", 0),
        ("xor([7, 7, 1])", 1),
        ("count([4, 5, 4])", 3),
        ("count([])", 0),
        ("total([1, 2, 3])", 6),
        ("total([])", 0),
        ("smallest([3, 1, 2])", 1),
        ("largest([3, 1, 2])", 3),
        ("range(2, 5)", range(2, 5)),
        ("range(3)", range(3)),
        ("range(1, 10, 3)", range(1, 10, 3)),
        ("sorted([3, 1, 2])", [1, 2, 3]),
        ("same([3, 2, 2], [2, 3])", True),
        ("same([2], [2, 3])", False),
        ("same([], [])", True),
        ("without([5, 1, 3, 1], [3])", [5, 1, 1]),
        ("both([5, 1, 3, 1], [1, 3, 4])", [1, 3, 1]),
    ],
)
def test_each_function_gives_what_the_hand_gives(text: str, value: object) -> None:
    found = evaluate(text, DD)
    assert found == value and type(found) is type(value), (text, found)


def test_a_function_returns_plain_python_numbers() -> None:
    # sympy's own Integer is not an int: a formula gives ints, which print and compare as a student expects
    for text in ("divisors(12)", "proper_divisors(12)", "prime_factors(12)", "distinct_primes(12)", "primes(7)"):
        assert all(type(x) is int for x in evaluate(text, {})), text
    for text in ("divisor_count(12)", "omega(12)"):
        assert type(evaluate(text, {})) is int, text
    assert type(evaluate("is_prime(7)", {})) is bool


def test_rules_may_be_a_rule_book_itself() -> None:
    assert evaluate("winning_moves(r, 12)", {"r": get_rules("divisor-duel")}) == [3, 4]


@pytest.mark.parametrize(
    ("text", "names", "message"),
    [
        ("is_p(5, 3)", {}, "'is_p(5, 3)': 5 is not the name of a rule book."),
        ("count(5)", {}, "'count(5)': 5 is not a list."),
        ("count(x)", {"x": {1, 2}}, "'count(x)': {1, 2} is not a list."),
        ("divisors(True)", {}, "'divisors(True)': True is not a whole number."),
        ("divisors(x)", {"x": 2.0}, "'divisors(x)': 2.0 is not a whole number."),
        ("range(0, 100001)", {}, "'range(0, 100001)': a range of 100,001 numbers is too long (at most 100,000)."),
        ("p_positions(rules, 100001)", DD, "'p_positions(rules, 100001)': a range of 100,001 numbers is too long"),
        ("primes(100000)", {}, "'primes(100000)': a range of 100,001 numbers is too long (at most 100,000)."),
        ("is_p('no-such-game', 3)", {}, "\"is_p('no-such-game', 3)\": cannot be worked out (Unknown rule book"),
    ],
)
def test_a_wrong_argument_is_named(text: str, names: dict[str, object], message: str) -> None:
    assert refusal(text, names).startswith(message)


def test_a_range_may_be_as_long_as_the_bound() -> None:
    assert len(evaluate("range(0, 100000)", {})) == MAX_ITEMS
    assert len(evaluate("primes(99999)", {})) == 9592  # the primes below 100,000 (a known count)


# -- the language ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("7 + 2", 9),
        ("7 - 2", 5),
        ("7 * 2", 14),
        ("7 // 2", 3),
        ("7 % 3", 1),
        ("2 ** 3", 8),
        ("1 / 2", Fraction(1, 2)),
        ("-3", -3),
        ("+3", 3),
        ("-(-3)", 3),
        ("not 0", True),
        ("not 3", False),
        ("0 or 5", 5),
        ("3 or 5", 3),
        ("0 or ''", ""),
        ("3 and 5", 5),
        ("0 and 5", 0),
        ("1 and 2 and 0 and 3", 0),
        ("0 or 0 or 4 or 5", 4),
        ("1 < 2 < 3", True),
        ("1 < 3 < 2", False),
        ("3 < 2 < 5", False),
        ("1 == 1", True),
        ("1 != 1", False),
        ("2 <= 2", True),
        ("2 >= 3", False),
        ("3 > 2", True),
        ("2 in [1, 2]", True),
        ("2 not in [1, 2]", False),
        ("'big' if 5 > 3 else 'small'", "big"),
        ("'big' if 5 < 3 else 'small'", "small"),
        ("[2, 3][1]", 3),
        ("[2, 3][-1]", 3),
        ("(1, 2)", [1, 2]),
        ("[]", []),
        ("True", True),
        ("False or x", 7),
        ("x if True else 0", 7),
        ("'text'", "text"),
        ("x + 1", 8),
        ("[x, 1]", [7, 1]),
        ("'big' if x > 3 else 'small'", "big"),
        ("[1, 2, 3][x - 6]", 2),
    ],
)
def test_the_language_computes_as_python_does(text: str, value: object) -> None:
    found = evaluate(text, {"x": 7})
    assert found == value and type(found) is type(value), (text, found)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("().__class__", "'().__class__': an attribute (a dot) is not allowed in a formula."),
        ("[m for m in range(9)]", "'[m for m in range(9)]': a list comprehension is not allowed in a formula."),
        ("lambda: 1", "'lambda: 1': a lambda is not allowed in a formula."),
        ("count(m for m in [1])", "'count(m for m in [1])': a generator is not allowed in a formula."),
        ("{1: 2}", "'{1: 2}': Dict is not allowed in a formula."),
        ("[1, 2][0:1]", "'[1, 2][0:1]': Slice is not allowed in a formula."),
        ("open('x')", "\"open('x')\": open is not a function a formula may call (see FUNCTIONS)."),
        ("divisors(n=3)", "'divisors(n=3)': divisors is not a function a formula may call (see FUNCTIONS)."),
        ("[divisors][0](3)", "'[divisors][0](3)': [divisors][0] is not a function a formula may call (see FUNCTIONS)."),
        ("1.5", "'1.5': 1.5 is not allowed in a formula (numbers, texts and lists are)."),
        ("None", "'None': None is not allowed in a formula (numbers, texts and lists are)."),
        ("b'x'", "\"b'x'\": b'x' is not allowed in a formula (numbers, texts and lists are)."),
        ("_x + 1", "'_x + 1': a name may not start with _ (_x)."),
        ("1 +", "'1 +': not a formula (invalid syntax)."),
        ("", "'': write the formula as text in quotes."),
        ("   ", "'   ': write the formula as text in quotes."),
    ],
)
def test_anything_else_is_refused_with_the_formula_quoted(text: str, message: str) -> None:
    assert refusal(text, {"_x": 1}) == message


def test_a_formula_that_is_not_text_is_refused() -> None:
    with pytest.raises(FormulaError, match=r"^5: write the formula as text in quotes\.$"):
        parse(5)  # type: ignore[arg-type]


def test_a_formula_may_be_as_long_as_the_bound_and_no_longer() -> None:
    assert evaluate("1" * MAX_LENGTH, {}) == int("1" * MAX_LENGTH)
    assert refusal("1" * (MAX_LENGTH + 1)) == "a formula of 501 characters is too long (at most 500)."


def test_spaces_around_a_formula_are_allowed() -> None:
    assert evaluate("  1 + 2\n", {}) == 3
    assert parse(" n + 1\n", ["n"]).__class__.__name__ == "BinOp"


def test_an_unknown_name_lists_the_known_ones_in_order() -> None:
    assert refusal("y + 1", {"b": 1, "a": 2}) == "'y + 1': y is not a parameter of the lesson here (known: a, b)."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 // 0", "'1 // 0': cannot be worked out (integer division or modulo by zero)."),
        ("1 + 'a'", "\"1 + 'a'\": cannot be worked out (unsupported operand type(s) for +: 'int' and 'str')."),
        ("[1][5]", "'[1][5]': cannot be worked out (list index out of range)."),
        ("[1]['a']", "\"[1]['a']\": 'a' is not a whole number."),
        ("'ab'[0]", "\"'ab'[0]\": 'ab' is not a list."),
        ("smallest([])", "'smallest([])': cannot be worked out (min() arg is an empty sequence)."),
    ],
)
def test_a_formula_that_cannot_be_worked_out_says_why(text: str, message: str) -> None:
    assert refusal(text) == message


def test_first_p_above_looks_max_items_numbers_ahead_and_then_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(formulas, "MAX_ITEMS", 2)  # Divisor Duel: 4 and 6 are N, 5 and 7 are P
    assert evaluate("first_p_above(rules, 3)", DD) == 5  # 4, then 5
    assert evaluate("first_p_above(rules, 5)", DD) == 7  # 6, then 7
    monkeypatch.setattr(formulas, "MAX_ITEMS", 1)
    message = "'first_p_above(rules, 5)': no P-position among the 1 numbers after 5."
    assert refusal("first_p_above(rules, 5)") == message


def test_a_message_that_already_quotes_the_formula_is_not_quoted_twice() -> None:
    # the value of x is the formula's own text, so the message of count() starts with the formula quoted
    assert refusal("count(x)", {"x": "count(x)"}) == "'count(x)' is not a list."


# -- the bounds ----------------------------------------------------------------------------------------------------


def test_a_number_may_have_max_bits_and_no_more() -> None:
    assert evaluate("2 ** 2048 * 2 ** 2047", {}) == 2**4095  # 4,096 bits: each power within 2 x 2048 bits
    too_big = "a number of 4,097 bits is too big for a formula."
    assert refusal("2 ** 2048 * 2 ** 2048") == f"'2 ** 2048 * 2 ** 2048': {too_big}"
    assert refusal("x + 0", {"x": 2**4096}) == "'x + 0': a number of 4,097 bits is too big for a formula."


def test_a_power_is_refused_before_it_is_worked_out() -> None:
    # the base's bits times the exponent bounds the result's bits: 2 has 2 bits, 2 x 2048 = 4096 is allowed
    assert evaluate("2 ** 2048", {}) == 2**2048
    assert refusal("2 ** 2049") == "'2 ** 2049': 2 ** 2049 is too big for a formula."
    assert refusal("x ** 1", {"x": 2**4096}) == f"'x ** 1': {2**4096} ** 1 is too big for a formula."
    assert evaluate("x ** 0", {"x": 2**4096}) == 1
    assert evaluate("2 ** -1", {}) == 0.5
    assert refusal("[2] ** 2").startswith("'[2] ** 2': cannot be worked out (unsupported operand")


def test_a_list_may_have_max_items_and_no_more() -> None:
    assert len(evaluate("[1] * 100000", {})) == MAX_ITEMS
    assert refusal("[1] * 100001") == "'[1] * 100001': a list of 100,001 items is too long for a formula."
    assert refusal("divisors(2) * 50001") == "'divisors(2) * 50001': a list of 100,002 items is too long for a formula."
    too_long = "a list of 100,001 items is too long for a formula."
    assert refusal("sorted(x)", {"x": [0] * 100001}) == f"'sorted(x)': {too_long}"


# -- functions of n ------------------------------------------------------------------------------------------------


def test_a_function_of_n_names_the_n_that_fails() -> None:
    twice = function("m * 2", {}, "m")
    assert [twice(3), twice(5)] == [6, 10]
    assert function("outcome(rules, n)", DD)(6) == "N"
    with pytest.raises(FormulaError) as caught:
        function("12 // n", {})(0)
    assert str(caught.value) == "'12 // n' at n = 0: cannot be worked out (integer division or modulo by zero)."
    with pytest.raises(FormulaError) as caught:
        function("count(n)", {})(5)
    assert str(caught.value) == "'count(n)' at n = 5: 5 is not a list."
    with pytest.raises(FormulaError, match=r"^'1 \+': not a formula"):
        function("1 +", {})


def test_a_predicate_is_true_or_false() -> None:
    odd = predicate("n % 2", {})
    assert [odd(4), odd(5)] == [False, True] and type(odd(5)) is bool
    assert predicate("k > lo", {"lo": 2}, "k")(3) is True
    assert predicate("k > lo", {"lo": 2}, "k")(2) is False
    test = predicate("n % 2 == 1 or is_power_of_two(n)", {})
    assert [m for m in range(1, 13) if not test(m)] == [6, 10, 12]
