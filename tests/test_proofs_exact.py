"""The proof checks' whole verdicts (kind, message, hints, key, options), each written out by hand.

``test_proofs.py`` checks what the proof exercises accept; mutation testing showed that most of
what they *say* was unchecked: a dropped hint, a wrong key (so a repeated mistake would not get
the stronger hint), a step range off by one. Each case here is the full ``Verdict``.
"""

from __future__ import annotations

import pytest

from duel_lessons.teaching.feedback import Misconception, Verdict
from duel_lessons.teaching.proofs import (
    ORDER_HINT,
    ORDER_STRONGER,
    ExpressionError,
    expect_counterexample,
    expect_expression,
    expect_order,
    expect_step,
    parse_expression,
)

# -- name the step that fails, and the number that shows it -------------------------------------

STEP = dict(steps=3, failing=2, shows=lambda n: n in (8, 16), what="a power of 2", limit=100, hint="H", stronger="S")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ((2, 8), Verdict("right")),
        ([2, 16.0], Verdict("right")),
        ((2, 6), Verdict("partial", "6 does not show step 2 failing: you need a power of 2.", "H", "S", "number:6", 3)),
        (
            (1, 8),
            Verdict("partial", "8 is a good example, but look again at which step it breaks.", "H", "S", "step:1", 3),
        ),
        (
            (3, 16),
            Verdict("partial", "16 is a good example, but look again at which step it breaks.", "H", "S", "step:3", 3),
        ),
        ((3, 6), Verdict("miss", "Your answer was step 3 with 6.", "H", "S", "step:3:6", 3)),
        ((1, 1), Verdict("miss", "Your answer was step 1 with 1.", "H", "S", "step:1:1", 3)),
        ((1, 100), Verdict("miss", "Your answer was step 1 with 100.", "H", "S", "step:1:100", 3)),
    ],
)
def test_a_step_and_a_number(answer: object, verdict: Verdict) -> None:
    assert expect_step(answer, **STEP) == verdict  # type: ignore[arg-type]


STEP_FORMAT = "The step is a whole number from 1 to 3."


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (..., Verdict("unanswered")),
        (None, Verdict("unanswered")),
        (
            "2, 8",
            Verdict(
                "format", "Give the step and a number as a pair, like (step, number).", key="format:pair", options=3
            ),
        ),
        (
            (2,),
            Verdict(
                "format", "Give the step and a number as a pair, like (step, number).", key="format:pair", options=3
            ),
        ),
        (
            (2, 8, 1),
            Verdict(
                "format", "Give the step and a number as a pair, like (step, number).", key="format:pair", options=3
            ),
        ),
        ((0, 8), Verdict("format", STEP_FORMAT, key="format:step", options=3)),
        ((4, 8), Verdict("format", STEP_FORMAT, key="format:step", options=3)),
        (("2", 8), Verdict("format", STEP_FORMAT, key="format:step", options=3)),
        ((True, 8), Verdict("format", STEP_FORMAT, key="format:step", options=3)),
        ((2, 0), Verdict("format", "Give a whole number from 1 to 100.", key="format:range")),
        ((2, 101), Verdict("format", "Give a whole number from 1 to 100.", key="format:range")),
        ((2, [8]), Verdict("format", "Give one number, not a list.", key="format:list")),
        ((2, "8"), Verdict("format", "Give one whole number, not '8'.", key="format:not-a-number")),
        ((2, 8.5), Verdict("format", "Give one whole number, not 8.5.", key="format:not-a-number")),
        ((2, [8, 16]), Verdict("format", "Give one whole number, not [8, 16].", key="format:not-a-number")),
        (
            (2, 10**30),
            Verdict("format", "a number with about 31 digits is far beyond the numbers here.", key="format:big"),
        ),
    ],
)
def test_a_step_answer_of_the_wrong_form(answer: object, verdict: Verdict) -> None:
    assert expect_step(answer, **STEP) == verdict  # type: ignore[arg-type]


def test_a_step_check_without_a_stronger_hint_repeats_its_hint() -> None:
    kw = dict(steps=2, failing=1, shows=lambda n: n == 4, what="4", limit=10)
    assert expect_step((1, 3), **kw, hint="H") == Verdict(  # type: ignore[arg-type]
        "partial", "3 does not show step 1 failing: you need 4.", "H", "H", "number:3", 2
    )
    assert expect_step((2, 4), **kw, hint="H") == Verdict(  # type: ignore[arg-type]
        "partial", "4 is a good example, but look again at which step it breaks.", "H", "H", "step:2", 2
    )
    assert expect_step((2, 3), **kw, hint="H") == Verdict(  # type: ignore[arg-type]
        "miss", "Your answer was step 2 with 3.", "H", "H", "step:2:3", 2
    )


def test_the_default_limit_is_a_million() -> None:
    kw = dict(steps=2, failing=1, shows=lambda n: n == 10**6, what="a million")
    assert expect_step((1, 10**6), **kw) == Verdict("right")  # type: ignore[arg-type]
    assert expect_step((1, 10**6 + 1), **kw) == Verdict(  # type: ignore[arg-type]
        "format", "Give a whole number from 1 to 1,000,000.", key="format:range"
    )


# -- the smallest counterexample ----------------------------------------------------------------

CLAIM = dict(
    fails=lambda n: n % 2 == 0 and n % 4 != 0,
    smallest=2,
    claim="n is odd or a multiple of 4",
    limit=50,
    hint="H",
    stronger="S",
)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (2, Verdict("right")),
        (2.0, Verdict("right")),
        (
            6,
            Verdict(
                "partial",
                "Yes, the claim fails for 6; but there is a smaller number where it fails.",
                "H",
                "S",
                "larger",
            ),
        ),
        (
            50,
            Verdict(
                "partial",
                "Yes, the claim fails for 50; but there is a smaller number where it fails.",
                "H",
                "S",
                "larger",
            ),
        ),
        (
            4,
            Verdict(
                "miss",
                "The claim holds for 4 (n is odd or a multiple of 4), so 4 is no counterexample.",
                "H",
                "S",
                "holds:4",
            ),
        ),
        (
            1,
            Verdict(
                "miss",
                "The claim holds for 1 (n is odd or a multiple of 4), so 1 is no counterexample.",
                "H",
                "S",
                "holds:1",
            ),
        ),
        (..., Verdict("unanswered")),
        (0, Verdict("format", "Give a whole number from 1 to 50.", key="format:range")),
        (51, Verdict("format", "Give a whole number from 1 to 50.", key="format:range")),
        ((2,), Verdict("format", "Give one number, not a list.", key="format:list")),
        ({2}, Verdict("format", "Give one number, not a list.", key="format:list")),
        ("two", Verdict("format", "Give one whole number, not 'two'.", key="format:not-a-number")),
        (True, Verdict("format", "Give one whole number, not True.", key="format:not-a-number")),
    ],
)
def test_a_counterexample(answer: object, verdict: Verdict) -> None:
    assert expect_counterexample(answer, **CLAIM) == verdict  # type: ignore[arg-type]


def test_a_counterexample_check_without_a_stronger_hint_repeats_its_hint() -> None:
    kw = dict(fails=lambda n: n > 3, smallest=4, claim="n < 4")
    assert expect_counterexample(9, **kw, hint="H") == Verdict(  # type: ignore[arg-type]
        "partial", "Yes, the claim fails for 9; but there is a smaller number where it fails.", "H", "H", "larger"
    )
    assert expect_counterexample(3, **kw, hint="H") == Verdict(  # type: ignore[arg-type]
        "miss", "The claim holds for 3 (n < 4), so 3 is no counterexample.", "H", "H", "holds:3"
    )
    assert expect_counterexample(10**6, **kw) == Verdict(  # type: ignore[arg-type]
        "partial", "Yes, the claim fails for 1000000; but there is a smaller number where it fails.", "", "", "larger"
    )
    assert expect_counterexample(10**6 + 1, **kw).key == "format:range"  # type: ignore[arg-type]


# -- order a shuffled proof -----------------------------------------------------------------------

LINES = {"A": "N is odd", "B": "every divisor d of N is odd", "C": "N - d is even", "D": "N - d is odd", "E": "d > 1"}
ORDER = dict(lines=LINES, proof=["A", "B", "C"], wrong={"D": "odd - odd is even."})
LABELS = "'A', 'B', 'C', 'D', 'E'"
USES_FALSE_LINE_D = Verdict(
    "misconception",
    "Your proof uses line D.",
    "Line D is not true: odd - odd is even.",
    "Line D does not belong in the proof (odd - odd is even.) Take it out and order the rest.",
    "wrong:D",
)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (
            "ABC",
            Verdict(
                "format", "Give a list of line labels in order, like ['A', 'B', 'C', ...].", key="format:not-a-list"
            ),
        ),
        (["A", 2, "C"], Verdict("format", "Each line is given by its label in quotes, like 'A'.", key="format:label")),
        (["a", " b", "C"], Verdict("format", f"Write each label exactly as shown: {LABELS}.", key="format:case")),
        (["A", "X", "Y"], Verdict("format", f"'X' is not a label here: use {LABELS}.", key="format:label")),
        (["A", "b", "Y"], Verdict("format", f"'b' is not a label here: use {LABELS}.", key="format:label")),
        (["A", "B", "B", "C"], Verdict("format", "Use each line at most once.", key="format:repeat")),
        (["A", "B", "D"], USES_FALSE_LINE_D),
        (
            ["A", "E", "B", "C"],
            Verdict(
                "misconception",
                "Your proof uses line E.",
                "Line E is not a step of this proof.",
                "Line E does not belong in the proof: take it out and order the rest.",
                "wrong:E",
            ),
        ),
        (["E", "A", "D"], USES_FALSE_LINE_D),  # a false line is named before a line that is merely extra
        (
            ["B", "A", "C"],
            Verdict("partial", "Line B uses line A, which comes after it.", ORDER_HINT, ORDER_STRONGER, "order:B:A"),
        ),
        (
            ["A", "C"],
            Verdict(
                "partial", "Line C uses line B, which is not in your proof.", ORDER_HINT, ORDER_STRONGER, "missing:B"
            ),
        ),
        (
            ["A"],
            Verdict(
                "partial",
                "Every line you have is in a good place, but the proof is not finished: 2 lines are missing.",
                ORDER_HINT,
                ORDER_STRONGER,
                "short:2",
            ),
        ),
        (
            ["A", "B"],
            Verdict(
                "partial",
                "Every line you have is in a good place, but the proof is not finished: 1 line is missing.",
                ORDER_HINT,
                ORDER_STRONGER,
                "short:1",
            ),
        ),
        (("A", "B", "C"), Verdict("right")),
    ],
)
def test_an_order(answer: object, verdict: Verdict) -> None:
    assert expect_order(answer, **ORDER) == verdict  # type: ignore[arg-type]


def test_a_short_list_of_lines_shows_them_all_as_the_example() -> None:
    verdict = expect_order("A", lines={"P": "p", "Q": "q"}, proof=["P", "Q"])
    assert verdict.message == "Give a list of line labels in order, like ['P', 'Q', ...]."


def test_an_order_whose_lines_rely_on_more_than_the_line_before() -> None:
    kw = dict(lines=LINES, proof=["A", "E", "B", "C"], uses={"B": ["A"], "C": ["B", "E"]}, hint="h", stronger="s")
    assert expect_order(["A", "B", "E", "C"], **kw) == Verdict("right")  # type: ignore[arg-type]
    assert expect_order(["E", "A", "B", "C"], **kw) == Verdict("right")  # type: ignore[arg-type]
    assert expect_order(["A", "B", "C", "E"], **kw) == Verdict(  # type: ignore[arg-type]
        "partial", "Line C uses line E, which comes after it.", "h", "s", "order:C:E"
    )
    assert expect_order(["A", "E", "C", "B"], **kw) == Verdict(  # type: ignore[arg-type]
        "partial", "Line C uses line B, which comes after it.", "h", "s", "order:C:B"
    )
    assert expect_order(["E", "A", "C", "B"], **kw).key == "order:C:B"  # type: ignore[arg-type]


def test_an_order_must_end_with_what_it_proves() -> None:
    kw = dict(lines=LINES, proof=["A", "B", "C"], uses={"B": ["A"], "C": ["A"]}, hint="h", stronger="s")
    assert expect_order(["A", "C", "B"], **kw) == Verdict(  # type: ignore[arg-type]
        "partial",
        "The right lines, but a proof ends with what it proves: does line B say that?",
        "h",
        "s",
        "conclusion",
    )
    assert expect_order(["A", "B", "C"], **kw) == Verdict("right")  # type: ignore[arg-type]


# -- type an algebraic step ---------------------------------------------------------------------

ND = dict(names=["N", "d"], cases=[{"N": 12, "d": 3}, {"N": 20, "d": 5}], hint="h", stronger="s")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (12, Verdict("format", 'Type the expression as text in quotes, like "3*(a + b)".', key="format:not-text")),
        (
            "N -",
            Verdict(
                "format",
                "Those brackets or signs do not make an expression: check each ( has its ).",
                key="format:expression",
            ),
        ),
        (
            "open(1)",
            Verdict(
                "format",
                "Could not read 'open(1)': use numbers, N, d, + - * / ^ and brackets.",
                key="format:expression",
            ),
        ),
        (
            "N + d",
            Verdict(
                "miss",
                "For N = 12, d = 3 your expression is 15, but it should equal 9.",
                "h",
                "s",
                "case:N = 12, d = 3:15",
            ),
        ),
        (
            "N/d",
            Verdict(
                "miss",
                "For N = 12, d = 3 your expression is 4, but it should equal 9.",
                "h",
                "s",
                "case:N = 12, d = 3:4",
            ),
        ),
        (
            "N/(d+2)",
            Verdict(
                "miss",
                "For N = 12, d = 3 your expression is 12/5, but it should equal 9.",
                "h",
                "s",
                "case:N = 12, d = 3:12/5",
            ),
        ),
        ("+N - d", Verdict("right")),
        ("-(d - N)", Verdict("right")),
        ("d*(N/d - 1)", Verdict("right")),
    ],
)
def test_an_expression(answer: object, verdict: Verdict) -> None:
    assert expect_expression(answer, "N - d", **ND) == verdict  # type: ignore[arg-type]


def test_an_expression_equal_at_the_cases_but_not_everywhere() -> None:
    verdict = expect_expression("N - d + (N - 12)*(N - 20)", "N - d", **ND)  # type: ignore[arg-type]
    assert verdict == Verdict(
        "miss",
        "It agrees at the numbers tried, but it is not the same expression for every value.",
        "h",
        "s",
        "differs:N - d + (N - 12)*(N - 20)",
    )


def test_equal_only_once_fractions_are_put_together() -> None:
    """1/d - 1/(d+1) and 1/(d(d+1)): equal for every d, though expanding their difference does not give 0."""
    kw = dict(names=["d"], cases=[{"d": 1}, {"d": 5}])
    assert expect_expression("1/d - 1/(d + 1)", "1/(d*(d + 1))", **kw) == Verdict("right")  # type: ignore[arg-type]
    assert expect_expression("1/(d*(d + 1))", "1/d - 1/(d + 1)", **kw) == Verdict("right")  # type: ignore[arg-type]


def test_a_misconception_is_matched_exactly_not_nearly() -> None:
    off_by_one = Misconception("off-by-one", "N - d", "Subtracting d once is enough.")
    kw = dict(names=["N", "d"], cases=[{"N": 12, "d": 3}], misconceptions=[off_by_one])
    assert expect_expression("N - d", "N - 2*d", **kw) == Verdict(  # type: ignore[arg-type]
        "misconception",
        "For N = 12, d = 3 your expression is 9, but it should equal 6.",
        "Subtracting d once is enough.",
        "Subtracting d once is enough.",
        "off-by-one",
    )
    assert expect_expression("N - d + 1", "N - 2*d", **kw).kind == "miss"  # type: ignore[arg-type]  # 1 more


def test_powers_one_step_past_the_exponent_and_size_limits() -> None:
    """An exponent or value of exactly the 4,096-bit limit is worked out; one step past it is refused by name."""

    def at(answer: str, n: int) -> Verdict:
        return expect_expression(answer, answer, names=["n"], cases=[{"n": n}])

    assert at("1^n", 4096) == Verdict("right")
    assert at("1^n", 4097).message == "For n = 4097: An exponent there is too big to work out."
    assert at("2^n", 2048) == Verdict("right")  # 2 bits x 2048 = 4096: at the limit
    assert at("2^n", 2049).message == "For n = 2049: A power there is too big to work out."
    assert at("3^n", 3000).message == "For n = 3000: A power there is too big to work out."
    assert at("(1/2)^n", 2048) == Verdict("right")
    assert at("(1/3)^n", 3000).message == "For n = 3000: A power there is too big to work out."
    assert at("2^n/2", 3) == Verdict("right")
    assert expect_expression("2^n", "2*2^(n - 1)", names=["n"], cases=[{"n": 3}]) == Verdict("right")


def test_values_one_bit_past_the_size_limit_are_refused() -> None:
    def at(answer: str, a: int) -> Verdict:
        return expect_expression(answer, answer, names=["a"], cases=[{"a": a}])

    assert at("a + 0", 2**4095) == Verdict("right")  # 4,096 bits
    big = at("a + 0", 2**4096)
    assert big.kind == "format" and big.message.endswith(": A value there is too big to work out.")
    assert at("1/a", 2**4095) == Verdict("right")
    assert at("1/a", 2**4096).message.endswith(": A value there is too big to work out.")


# -- reading what a student typed ------------------------------------------------------------------

PRODUCT_SLIP = "Write * for every product: "
NOT_READ = "use numbers, N, d, + - * / ^ and brackets."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("N" + " " * 300, "That is longer than 300 characters."),
        ("   ", "That is empty: type an expression, such as 3*(a + b)."),
        ("2N", PRODUCT_SLIP + "2*N, not 2N."),
        ("N - 2 d", PRODUCT_SLIP + "2*d, not 2 d."),
        ("2*x", "'x' is not a name here: use N, d."),  # after a number that is fine, the name is still read
        ("2 (N - d)", PRODUCT_SLIP + "2*(...), not 2(...)."),
        ("(N)d", PRODUCT_SLIP + ")*d, not )d."),
        ("(N - d)(N + d)", PRODUCT_SLIP + "(N - d)*(...), not (N - d)(...)."),
        ("-N(d)", PRODUCT_SLIP + "N*(...), not N(...)."),
        ("f(N)", f"Could not read 'f(N)': {NOT_READ}"),
        ("(N - d", "Those brackets or signs do not make an expression: check each ( has its )."),
        ("N" + "+N" * 30, "That expression is too long: a shorter one says the same."),  # 123 parts; 29 more is 119
        ("10000000000000000001", "That number is too big for this step."),
        ("x + N", "'x' is not a name here: use N, d."),
        ("d(N - 1)", PRODUCT_SLIP + "d*(...), not d(...)."),
        ("2.5e1*N", "Use whole numbers only, not 25.0."),  # exact decimals are read; scientific notation is not
        ("N % d", f"Could not read 'N % d': {NOT_READ}"),
        ("N == d", f"Could not read 'N == d': {NOT_READ}"),
        ("N ** 65", "Keep exponents to whole numbers up to 64 (or a letter)."),
        ("N ** (1/2)", "Keep exponents to whole numbers up to 64 (or a letter)."),
        ("N ** -65", "Keep exponents to whole numbers up to 64 (or a letter)."),
        ("(N**64)**64", "Keep exponents to whole numbers up to 64 (or a letter)."),  # N**4096
        ("2**2**d", "A power of a power is more than this step needs."),
        ("(2**64)**64", "That power is too big to work out."),  # 65 bits x 64 = 4160
        ("(2**64)**-64", "That power is too big to work out."),
    ],
)
def test_what_cannot_be_read_is_named(text: str, message: str) -> None:
    with pytest.raises(ExpressionError) as error:
        parse_expression(text, ["N", "d"])
    assert str(error.value) == message


def test_what_can_be_read_at_the_limits() -> None:
    import sympy

    n, d = sympy.symbols("N d", integer=True, positive=True)
    assert parse_expression("N" + " " * 299, ["N", "d"]) == n  # 300 characters
    assert parse_expression("N" + "+N" * 29, ["N"]) == 30 * n  # 119 parts of the tree
    assert parse_expression("-2" + "+N" * 29, ["N"]) == 29 * n - 2  # 120 parts: the most read
    assert parse_expression("1000000000000000000", ["N"]) == 10**18
    assert parse_expression("N**64 * N**-64", ["N"]) == 1
    assert parse_expression("(2**64)**63", ["N"]) == 2**4032  # 65 bits x 63 = 4095
    assert parse_expression("(2**63)**64", ["N"]) == 2**4032  # 64 bits x 64 = 4096: at the limit
    assert parse_expression("N^2 × d − N ÷ d · 2", ["N", "d"]) == n**2 * d - 2 * n / d  # the signs people type
    assert parse_expression("-N + +d", ["N", "d"]) == d - n
    assert parse_expression("2**d", ["N", "d"]) == 2**d


def test_checks_without_hints_give_none() -> None:
    kw = dict(names=["N", "d"], cases=[{"N": 12, "d": 3}])
    assert expect_expression("N + d", "N - d", **kw) == Verdict(  # type: ignore[arg-type]
        "miss", "For N = 12, d = 3 your expression is 15, but it should equal 9.", "", "", "case:N = 12, d = 3:15"
    )
    step = dict(steps=2, failing=1, shows=lambda n: n == 4, what="4", limit=10)
    assert expect_step((2, 3), **step) == Verdict(  # type: ignore[arg-type]
        "miss", "Your answer was step 2 with 3.", "", "", "step:2:3", 2
    )


def test_a_value_too_big_at_a_case_is_a_format_slip_named_by_its_case() -> None:
    verdict = expect_expression("1^n", "1^n", names=["n"], cases=[{"n": 2}, {"n": 4097}])
    assert verdict == Verdict(
        "format", "For n = 4097: An exponent there is too big to work out.", key="format:expression"
    )


def test_a_misconception_given_as_a_test_of_the_expression() -> None:
    import sympy

    forgot_the_square = Misconception("no-square", lambda e: not e.has(sympy.Pow), "Where did the square go?", "S!")
    kw = dict(names=["n"], cases=[{"n": 3}], misconceptions=[forgot_the_square])
    assert expect_expression("2*n", "n^2", **kw) == Verdict(  # type: ignore[arg-type]
        "misconception",
        "For n = 3 your expression is 6, but it should equal 9.",
        "Where did the square go?",
        "S!",
        "no-square",
    )
    assert expect_expression("n^3", "n^2", **kw).kind == "miss"  # type: ignore[arg-type]


def test_an_equal_expression_not_yet_in_the_asked_form() -> None:
    def product(e: object) -> str | None:
        return None if getattr(e, "is_Mul", False) else "write it as a product with the factor d."

    kw = dict(names=["N", "d"], cases=[{"N": 12, "d": 3}], shape=product)
    assert expect_expression("N - d", "N - d", **kw, hint="h") == Verdict(  # type: ignore[arg-type]
        "partial",
        "It is equal, but not yet in the form asked for: write it as a product with the factor d.",
        "h",
        "h",
        "shape",
    )
    assert expect_expression("d*(N/d - 1)", "N - d", **kw, hint="h", stronger="s") == Verdict("right")  # type: ignore[arg-type]
