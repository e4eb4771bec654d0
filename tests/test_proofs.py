"""Proof steps the student builds: Parsons order, typed expressions, counterexamples, the failing step.

Each helper is tried with right, wrong, malformed, spy and liar answers; the expression reader is
tried with hostile text (code, huge powers) and must refuse it without evaluating anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from duel_lessons.teaching import Lesson
from duel_lessons.teaching.checks import LessonError, LessonSpec
from duel_lessons.teaching.feedback import Misconception
from duel_lessons.teaching.lesson import forget
from duel_lessons.teaching.proofs import (
    ExpressionError,
    expect_counterexample,
    expect_expression,
    expect_order,
    expect_step,
    parse_expression,
)

# -- a Parsons problem: lesson 04's "odd numbers lose" in miniature -----------------------------------

LINES = {
    "A": "Let N be odd.",
    "B": "Every divisor d of N is odd.",
    "C": "So N - d is even (odd minus odd).",
    "D": "So N - d is odd.",
    "E": "An even number is an N-position (induction).",
    "F": "So every move from N leads to an N-position: N is P.",
}
PROOF = ["A", "B", "C", "E", "F"]
USES = {"B": ["A"], "C": ["B"], "F": ["C", "E"]}
WRONG = {"D": "odd minus odd is even, not odd."}


def order(answer: object) -> Any:
    return expect_order(answer, lines=LINES, proof=PROOF, uses=USES, wrong=WRONG)


def test_parsons_right_orders_are_every_order_that_respects_uses() -> None:
    assert order(PROOF).right
    assert order(["E", "A", "B", "C", "F"]).right  # E relies on nothing listed: it may come first
    assert order(tuple(PROOF)).right


def test_parsons_names_the_first_line_that_uses_something_not_yet_there() -> None:
    v = order(["A", "C", "B", "E", "F"])
    assert (v.kind, v.message) == ("partial", "Line C uses line B, which comes after it.")
    v = order(["A", "C", "E", "F"])
    assert (v.kind, v.message) == ("partial", "Line C uses line B, which is not in your proof.")


def test_parsons_tells_why_a_wrong_line_is_wrong_only_when_it_is_used() -> None:
    v = order(["A", "B", "D", "E", "F"])
    assert v.kind == "misconception" and v.key == "wrong:D" and "odd minus odd is even" in v.hint
    assert "odd minus odd" not in order(["A", "C", "B", "E", "F"]).hint + order(["A", "C", "B", "E", "F"]).message


def test_parsons_missing_lines_and_a_conclusion_not_last() -> None:
    v = order(["A", "B", "C", "F"])  # F uses E, which is missing
    assert v.message == "Line F uses line E, which is not in your proof."
    v = order(["A", "B", "C"])
    assert v.kind == "partial" and "2 lines are missing" in v.message
    plain = {"A": "one", "B": "two", "C": "three"}
    v = expect_order(["A", "B", "C"], lines=plain, proof=["A", "B", "C"], uses={"C": ["A"]})
    assert v.right
    v = expect_order(["A", "C", "B"], lines=plain, proof=["A", "B", "C"], uses={"C": ["A"]})
    assert v.kind == "partial" and v.key == "conclusion" and "line B" in v.message


def test_parsons_without_uses_wants_the_given_order() -> None:
    plain = {"A": "one", "B": "two", "C": "three"}
    assert expect_order(["A", "B", "C"], lines=plain, proof=["A", "B", "C"]).right
    assert not expect_order(["B", "A", "C"], lines=plain, proof=["A", "B", "C"]).right


@pytest.mark.parametrize(
    ("answer", "key"),
    [
        ("ABCEF", "format:not-a-list"),
        (["a", "b", "c", "e", "f"], "format:case"),
        (["A", "B", "Z"], "format:label"),
        (["A", 2, "C"], "format:label"),
        (["A", "A", "B"], "format:repeat"),
        (12, "format:not-a-list"),
    ],
)
def test_parsons_malformed_answers_are_format_slips(answer: object, key: str) -> None:
    v = order(answer)
    assert (v.kind, v.key) == ("format", key)


def test_parsons_case_slip_is_the_same_for_a_right_and_a_wrong_order() -> None:
    assert order([x.lower() for x in PROOF]) == order(["f", "e", "c", "b", "a"])


def test_parsons_unanswered() -> None:
    assert order(...).kind == "unanswered"


def test_a_parsons_problem_must_name_its_own_lines() -> None:
    with pytest.raises(LessonError, match="'Z' is not one of its lines"):
        LessonSpec("95").parsons("order", lines={"A": "a"}, proof=["A", "Z"])


# -- expressions ----------------------------------------------------------------------------------------

CASES = [{"N": 12, "d": 3}, {"N": 20, "d": 5}, {"N": 9, "d": 9}]


def factor(answer: object, **kw: Any) -> Any:
    return expect_expression(answer, "N - d", names=["N", "d"], cases=CASES, **kw)


@pytest.mark.parametrize("text", ["d*(N/d - 1)", "N - d", "(N/d-1)*d", "-d + N", "d * (N / d) - d", "d*(N/d − 1)"])
def test_equivalent_expressions_are_right(text: str) -> None:
    assert factor(text).right


def test_caret_is_a_power() -> None:
    assert expect_expression("m*(2^k - 1)", "2**k*m - m", names=["k", "m"], cases=[{"k": 3, "m": 5}]).right
    assert expect_expression("2^k*m - m", "m*(2**k - 1)", names=["k", "m"], cases=[{"k": 3, "m": 5}]).right


def test_a_wrong_expression_is_refuted_by_its_first_differing_case() -> None:
    v = factor("d*(N - 1)")
    assert (v.kind, v.message) == ("miss", "For N = 12, d = 3 your expression is 33, but it should equal 9.")
    v = factor("d*(N/d + 1) - 2*d - 0*N + 0")
    assert v.right
    v = factor("N/d - 1")
    assert v.message == "For N = 12, d = 3 your expression is 3, but it should equal 9."


def test_fractions_are_shown_exactly() -> None:
    v = factor("N/d/2")
    assert v.message == "For N = 12, d = 3 your expression is 2, but it should equal 9."
    v = expect_expression("N/5", "N", names=["N"], cases=[{"N": 12}])
    assert "12/5" in v.message


def test_an_expression_equal_at_the_cases_but_not_always_is_a_miss() -> None:
    v = expect_expression("N*(N - 11)", "N", names=["N"], cases=[{"N": 12}])
    assert v.kind == "miss" and "not the same expression" in v.message


def test_shape_makes_an_equal_expression_partial() -> None:
    def product_with_d(expr: Any) -> str | None:
        import sympy

        d = sympy.Symbol("d", integer=True, positive=True)
        return None if expr.is_Mul and d in expr.args else "write it as d times something."

    assert factor("d*(N/d - 1)", shape=product_with_d).right
    v = factor("N - d", shape=product_with_d)
    assert v.kind == "partial" and "d times something" in v.message


def test_expression_misconceptions_are_named() -> None:
    known = [Misconception("dropped-d", "N/d - 1", "You divided by d: multiply back.", "d*(N/d - 1) ...")]
    v = factor("N/d - 1", misconceptions=known)
    assert v.kind == "misconception" and v.key == "dropped-d"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("2d", "Write * for every product: 2*d, not 2d."),
        ("d(N/d - 1)", "Write * for every product: d*(...), not d(...)."),
        ("(N - d", "brackets"),
        ("N - x", "'x' is not a name here: use N, d."),
        ("N - 5e-1", "whole numbers only"),  # 0.5 is read exactly; scientific notation is not
        ("__import__('os').system('true')", "Could not read"),
        ("[N, d]", "Could not read"),
        ("N if d else 0", "Could not read"),
        ("lambda: 1", "Could not read"),
        ("", "empty"),
        ("N" + " + N" * 200, "longer than"),
        ("d" + "*(d" * 70 + ")" * 70, "too long"),
        ("9**9**9", "exponents"),
        ("2^(2^100)", "exponents"),
        ("N^(d^d)", "power of a power"),
        ("10000000000000000000", "too big"),
        ("((((9^64)^64)^64)^64)^64", "too big"),
        ("((N+d)^64)^64", "exponents"),
    ],
)
def test_malformed_or_hostile_text_is_a_format_slip_naming_the_problem(text: str, says: str) -> None:
    v = factor(text)
    assert v.kind == "format" and says in v.message, v.message


def test_a_huge_power_at_a_case_is_refused_not_computed() -> None:
    v = expect_expression("2^(N*d)", "N", names=["N", "d"], cases=[{"N": 10**6, "d": 10**6}])
    assert v.kind == "format" and "too big" in v.message


def test_an_expression_that_is_not_text_is_a_format_slip() -> None:
    assert factor(9).kind == "format" and "as text" in factor(9).message
    assert factor(...).kind == "unanswered"


def test_the_reader_never_evaluates_code() -> None:
    with pytest.raises(ExpressionError):
        parse_expression("__import__('os').system('echo hacked')", ["n"])
    with pytest.raises(ExpressionError):
        parse_expression("n.__class__", ["n"])


# -- counterexamples --------------------------------------------------------------------------------


def lemma(answer: object) -> Any:
    """ "Every even number has an odd divisor bigger than 1": fails at 2, 4, 8, 16 ..."""
    return expect_counterexample(
        answer,
        fails=lambda n: n % 2 == 0 and n & (n - 1) == 0,
        smallest=2,
        claim="every even number has an odd divisor bigger than 1",
    )


def test_the_smallest_counterexample_is_right_a_larger_one_partial() -> None:
    assert lemma(2).right
    v = lemma(8)
    assert v.kind == "partial" and "smaller" in v.message


def test_a_number_where_the_claim_holds_is_told_why() -> None:
    v = lemma(6)
    assert v.kind == "miss" and "holds for 6" in v.message and "odd divisor" in v.message


@pytest.mark.parametrize("answer", ["2", [2], 2.5, 0, -2, 10**30, None])
def test_counterexample_malformed(answer: object) -> None:
    assert lemma(answer).kind in ("format", "unanswered")


# -- which step fails ---------------------------------------------------------------------------------


def step(answer: object) -> Any:
    return expect_step(answer, steps=4, failing=3, shows=lambda n: n in (8, 32), what="a power of 2, odd exponent")


def test_step_right_partial_and_wrong() -> None:
    assert step((3, 8)).right and step([3, 32]).right
    assert step((3, 6)).kind == "partial" and "does not show" in step((3, 6)).message
    assert step((2, 8)).kind == "partial"
    assert step((2, 6)).kind == "miss"
    assert step((2, 6)).options == 4  # few steps: cycling escalates


@pytest.mark.parametrize("answer", ["C", 3, (3,), (5, 8), (0, 8), ("3", 8), (3, "8"), (3, 8, 1)])
def test_step_malformed(answer: object) -> None:
    assert step(answer).kind == "format"


# -- spies and liars against every proof helper ------------------------------------------------------


class Liar:
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class LiarStr(str):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


class SpyInt(int):
    seen: ClassVar[list[object]] = []

    def __eq__(self, other: object) -> bool:
        SpyInt.seen.append(other)
        return int.__eq__(self, other)  # type: ignore[no-any-return]

    __hash__ = int.__hash__

    def __lt__(self, other: int) -> bool:
        SpyInt.seen.append(other)
        return int.__lt__(self, other)


def test_proof_helpers_pass_no_liar_and_tell_a_spy_nothing() -> None:
    judges = [order, factor, lemma, step]
    for judge in judges:
        for liar in (Liar(), LiarStr("zz"), [Liar()], (Liar(), Liar())):
            assert not judge(liar).right, (judge.__name__, liar)
    SpyInt.seen.clear()
    for answer in (SpyInt(2), SpyInt(3), (SpyInt(3), SpyInt(8)), [SpyInt(1)]):
        for judge in judges:
            judge(answer)
    assert SpyInt.seen == []
    assert lemma(SpyInt(2)).right and step((SpyInt(3), SpyInt(8))).right  # its value is read, honestly


# -- Lesson.parsons and SPEC.parsons -------------------------------------------------------------------


@pytest.fixture
def proof_lesson(monkeypatch: pytest.MonkeyPatch) -> Iterator[Lesson]:
    from duel_lessons.teaching import checks

    fake = LessonSpec("94")
    fake.parsons("order", lines=LINES, proof=PROOF, uses=USES, wrong=WRONG, label="The proof that odd N lose")
    monkeypatch.setitem(checks._SPECS, "94", fake)
    forget("94")
    yield Lesson("94")
    forget("94")


def test_lesson_parsons_prints_the_labelled_lines_and_shows_a_widget(
    proof_lesson: Lesson, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from duel_lessons.teaching import widgets

    shown: list[Any] = []
    real = widgets.parsons_widget
    monkeypatch.setattr(widgets, "parsons_widget", lambda *a, **k: shown.append(real(*a, **k, show=False)))
    proof_lesson.parsons("order")
    out = capsys.readouterr().out
    assert "The proof that odd N lose: the lines, shuffled" in out
    assert all(f"  {x}. {text}" in out for x, text in LINES.items())
    (box,) = shown
    order_box, _out_box, buttons, result = box.children[1:]
    labelled = [order_box.description, *(b.description for b in buttons.children)]
    assert labelled == ["Your order:", "Move up", "Move down", "Leave out", "Put back", "Check"]
    order_box.value = "D"
    buttons.children[2].click()  # leave D out
    buttons.children[4].click()  # check A B C E F
    assert "right!" in result.value
    assert proof_lesson.attempts.judged["order"] == 1  # the widget's check counts as an attempt


def test_a_parsons_problem_is_also_a_check_with_a_model_answer(
    proof_lesson: Lesson, capsys: pytest.CaptureFixture[str]
) -> None:
    assert proof_lesson.check("order", ["A", "B", "D", "E", "F"]) is not None
    assert "odd minus odd is even" in capsys.readouterr().out
    proof_lesson.solution("order")
    out = capsys.readouterr().out
    assert "Model answer for the proof that odd N lose: ['A', 'B', 'C', 'E', 'F']" in out
    assert proof_lesson.judge("order", proof_lesson.model("order")[0]).right


def test_an_unknown_parsons_problem_is_named(proof_lesson: Lesson) -> None:
    with pytest.raises(LessonError, match=r"no Parsons problem 'nope'\. Its Parsons problems: order"):
        proof_lesson.parsons("nope")
