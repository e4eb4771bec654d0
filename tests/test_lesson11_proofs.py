"""Lesson 11: the built proof steps, the exercises, the guesses' forms and the stated facts, by brute force."""

from __future__ import annotations

import itertools
import json
import re
from functools import cache, reduce
from operator import xor

import pytest
from lesson_helpers import ROOT, model_failures, source, spoilers_before_reveal, student_cells

from duel_lessons import DIVISOR_DUEL
from duel_lessons.play.sums import grundy_value
from duel_lessons.teaching.checks import spec
from duel_lessons.teaching.gating import gated_cell, gated_texts
from duel_lessons.teaching.student_copies import student_notebook

P = {"rules": "divisor-duel", "triple_upto": 8, "example": [12, 18, 30], "ex_sum": [100, 360, 840], "small_box": 20}
OTHER = {**P, "triple_upto": 6, "example": [4, 6, 12], "ex_sum": [120, 360, 960], "small_box": 12}
SPEC = spec("11")


def check(name: str, answer: object, params: dict[str, object] = P) -> object:
    return SPEC.checks[name](answer, params)


@cache
def lost(numbers: tuple[int, ...]) -> bool:
    """Brute force written here: the player to move loses the sum (no Grundy values)."""
    for i, n in enumerate(numbers):
        for d in DIVISOR_DUEL.divisors_of(n):
            rest = tuple(sorted((*numbers[:i], n - d, *numbers[i + 1 :])))
            if lost(rest):
                return False
    return True


def g(n: int) -> int:
    return grundy_value(DIVISOR_DUEL, n)


def test_the_sum_rule_by_brute_force() -> None:
    for parts in itertools.combinations_with_replacement(range(1, 15), 3):
        assert lost(parts) == (reduce(xor, map(g, parts)) == 0), parts


def test_the_flawed_step_facts() -> None:
    # 24 + 24 + 4: values 4, 4, 1; s = 1; the largest value 4 becomes 5 (larger); 4 is the smallest such third number
    assert (g(24), g(4)) == (4, 1)
    assert 4 ^ 1 == 5
    shows = [n for n in range(1, 30) if (s := g(24) ^ g(24) ^ g(n)) and max(4, g(n)) ^ s >= max(4, g(n))]
    assert shows[0] == 4
    assert not lost((24, 24, 4))
    # the even-sum wrong line: values 1, 1, 2 (4 + 4 + 6) add up to 4 but the sum is N
    assert [g(n) for n in (4, 4, 6)] == [1, 1, 2] and not lost((4, 4, 6))


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ((3, 4), "right"),
        ([3, 6], "right"),
        ((3, 5), "partial"),
        ((2, 4), "partial"),
        ((1, 5), "miss"),
        ("3", "format"),
        ((9, 4), "format"),
        ((3,), "format"),
        ((3, "x"), "format"),
    ],
)
def test_which_step_fails(answer: object, kind: str) -> None:
    assert check("proof-1", answer).kind == kind


@pytest.mark.parametrize(
    "order",
    [["B", "C", "F", "A", "E", "G", "H"], ["C", "F", "A", "B", "G", "E", "H"], ["G", "B", "C", "F", "A", "E", "H"]],
)
def test_parsons_right_orders(order: list[str]) -> None:
    assert check("order", order).kind == "right"


@pytest.mark.parametrize("order", [["B", "C", "D", "A", "E", "G", "H"], ["I", "B", "C", "F", "A", "E", "G", "H"]])
def test_parsons_plausible_wrong_lines(order: list[str]) -> None:
    assert check("order", order).kind != "right"


def test_parsons_used_too_early_and_malformed() -> None:
    assert check("order", ["B", "F", "C", "A", "E", "G", "H"]).kind == "partial"
    assert check("order", "BCFAEGH").kind == "format"
    assert check("order", ["b", "c", "f", "a", "e", "g", "h"]).kind == "format"


def test_exercise_1_beyond_brute_force() -> None:
    assert [g(n) for n in (100, 360, 840)] == [2, 3, 3]  # XOR 2: N; the ordinary sum 8 is even
    for answer in (("N", 2), ["N", 2.0], ("n", 2), (" N ", 2)):
        assert check("1", answer).kind == "right", answer
    assert check("1", ("P", 2)).key == "letter"  # the XOR right, the letter not
    assert check("1", ("p", 2)).key == "letter"
    assert check("1", ("P", 8)).key == check("1", ("N", 8)).key == "even-sum"  # the ordinary sum
    assert check("1", (2, "N")).key == "swapped"
    assert check("1", ("maybe", 2)).kind == "partial" and "letter" in check("1", ("maybe", 2)).message
    for answer in ("N", "P", "n", ("N",), ("N", 2, 3), []):
        assert check("1", answer).kind == "format", answer


@pytest.mark.parametrize("told", [0, 1, 3, 4, 5, 6, 7, 11, "two"])
def test_exercise_1_a_wrong_xor_confirms_no_letter(told: object) -> None:
    # trying "P" and then "N" with a wrong XOR passes nothing (review rev4): the same verdict for both letters
    said = [check("1", (letter, told)) for letter in ("P", "N", "p", "n")]
    assert {(v.kind, v.hint, v.key) for v in said} == {("misconception", said[0].hint, "xor")}, told


def test_exercise_2_from_one_gets_the_count_from_0_hint() -> None:
    right = [(0, 3), (0, 4), (1, 2), (2, 2)]
    assert check("2", right).kind == "right"
    from_one = [(i + 1, d) for i, d in right]
    for answer in (from_one, from_one[:1], from_one[:3], [(3, 2)]):
        verdict = check("2", answer)
        assert verdict.kind == "format" and "from 0" in verdict.message, answer
    assert check("2", right[:2]).kind == "partial"
    assert check("2", [(0, 2)]).kind == "miss"
    assert check("2", "(0, 3)").kind == "format"


def test_the_winning_moves_by_brute_force() -> None:
    start = (12, 18, 30)
    found = sorted(
        (i, d)
        for i, n in enumerate(start)
        for d in DIVISOR_DUEL.divisors_of(n)
        if lost(tuple(sorted((*start[:i], n - d, *start[i + 1 :]))))
    )
    assert found == [(0, 3), (0, 4), (1, 2), (2, 2)]


def test_sum_rule_check() -> None:
    assert check("sum-rule", lambda v: reduce(xor, v, 0) == 0).kind == "right"
    assert check("sum-rule", lambda v: sum(v) % 2 == 0).kind == "miss"
    assert check("sum-rule", lambda v: "yes").kind == "format"
    assert check("sum-rule", 3).kind == "format"


def test_every_model_answer_passes_its_check_under_other_parameters() -> None:
    """P and OTHER are not the notebook's parameters (test_model_solutions runs those and every offered value)."""
    assert model_failures("11", [("P", P), ("OTHER", OTHER)]) == []


def test_model_answers_follow_the_parameters() -> None:
    assert SPEC.models["1"](OTHER)[0] == ("P", 0)  # 4 ^ 3 ^ 7 = 0
    assert SPEC.models["2"](OTHER)[0] == []  # 4 + 6 + 12 is a P-position


@pytest.mark.parametrize(
    ("name", "value", "ok"),
    [
        ("hand-over", ["B", "d"], True),
        ("hand-over", [], True),  # "none of them" is a guess too (the declared letters form)
        ("hand-over", ["b"], True),
        ("hand-over", "dunno", False),
        ("hand-over", ["F"], False),
        ("box", 0.4, True),
        ("box", 1, True),
        ("box", "40%", False),
        ("box", 2, False),
    ],
)
def test_guess_forms(name: str, value: object, ok: bool) -> None:
    assert (SPEC.guess_forms[name](value, P) is None) == ok


def test_the_box_count_and_its_spoilers() -> None:
    count = sum(lost(tuple(sorted((a, b)))) for a in range(1, 21) for b in range(1, 21))
    assert count == 168
    patterns = SPEC.spoilers["box"]
    assert any(__import__("re").search(p, "168 of the 400 positions") for p in patterns)


def test_the_student_copy_tells_nothing_before_it_asks() -> None:
    assert spoilers_before_reveal("11-", "11") == []
    text = "\n".join(source(c) for c in student_cells("11-"))
    assert "teaching.checks" not in text


def test_exercise_2_example_is_beyond_brute_force_and_judged_by_the_xor() -> None:
    # The notebook's EXAMPLE: a loop over the notebook's brute force does not answer it (review rev4).
    params = {**P, "example": [120, 180, 300]}
    start = (120, 180, 300)
    values = [g(n) for n in start]
    s = reduce(xor, values)
    assert (values, s) == ([4, 2, 2], 4)
    moves = [(i, d) for i, n in enumerate(start) for d in DIVISOR_DUEL.divisors_of(n) if g(n - d) == values[i] ^ s]
    assert sorted(moves) == [(0, 3), (0, 5), (0, 15), (1, 20), (2, 12)]  # in every component, as the prose says
    assert check("2", moves, params).kind == "right"
    assert check("2", moves[:3], params).kind == "partial"
    assert check("2", [(i + 1, d) for i, d in moves], params).kind == "format"


def looks_up_brute_force(values: list[int]) -> bool:
    """A lazy rule: a number for each value, then brute force on those numbers (no rule at all)."""
    first = {}
    for n in range(1, 300):
        first.setdefault(g(n), n)
    return lost(tuple(sorted(first[v] for v in values)))


def only_three_parts(values: list[int]) -> bool:
    padded = [*values, 0, 0][:3]
    return padded[0] == padded[1] ^ padded[2] if len(values) <= 3 else True


def loops(values: list[int]) -> bool:
    while True:
        pass


def reads_the_checks_variables(values: list[int]) -> bool:
    import sys

    frame = sys._getframe(1)
    while frame is not None and "parts" not in frame.f_locals:
        frame = frame.f_back
    return frame is not None and lost(tuple(frame.f_locals["parts"]))


class Liar:
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0

    def __bool__(self) -> bool:
        raise SystemExit


@pytest.mark.parametrize(
    ("rule", "kind", "says"),
    [
        (looks_up_brute_force, "format", "no answer"),  # runs out of time on the bigger sums
        (only_three_parts, "miss", "bigger one"),
        (loops, "format", "(stopped)"),  # by its CPU limit, or under load by the wall-clock backstop: both stop it
        (reads_the_checks_variables, "miss", "counterexample"),
        (lambda values: Liar(), "format", "something else"),
        (lambda values: 1 / 0, "format", "ZeroDivisionError"),
    ],
)
def test_sum_rule_lazy_and_hostile_rules_run_bounded_and_pass_nothing(rule: object, kind: str, says: str) -> None:
    verdict = check("sum-rule", rule, {**P, "triple_upto": 12})
    assert verdict.kind == kind and says in verdict.message, verdict.message


def test_exercise_2_every_legal_move_handed_in_does_not_get_the_wrong_ones_named() -> None:
    params = {**P, "example": [120, 180, 300]}
    every = [(i, d) for i, n in enumerate((120, 180, 300)) for d in DIVISOR_DUEL.divisors_of(n)]
    verdict = check("2", every, params)
    assert verdict.kind == "partial" and "too many to name" in verdict.message
    assert "(0, 2)" not in verdict.message and "(1, 2)" not in verdict.message
    named = check("2", [(0, 3), (0, 2)], params)
    assert named.kind == "partial" and "(0, 2)" in named.message  # one wrong move is still named


def test_the_rule_opens_only_after_a_real_conjecture_of_the_students_own() -> None:
    # Review rev4: the A-E guess used to open the XOR rule, so the sum-rule exercise could be skipped.
    form = SPEC.guess_forms["rule"]
    assert form(lambda values: reduce(xor, values, 0) == 0, P) is None
    assert form(lambda values: sum(values) % 2 == 0, P) is None  # wrong, but a conjecture
    for rule in (lambda values: True, lambda values: ..., loops, lambda values: "yes", "xor", 3):
        assert form(rule, P) is not None, rule
    assert "no conjecture" in str(form(lambda values: False, P))
    assert "(stopped)" in str(form(loops, P))  # by its CPU limit, or under load by the wall-clock backstop


def test_the_a_to_e_reveal_names_the_sums_that_lose_by_brute_force() -> None:
    choices = {"A": (4, 4, 4), "B": (4, 6, 12), "C": (6, 6, 24), "D": (12, 18, 30), "E": (10, 16, 20)}
    assert [k for k, parts in choices.items() if lost(parts)] == ["B", "E"]
    text = SPEC.reveals["hand-over"](["B", "e"], P)
    assert "**B and E**" in text and "You chose B and E: right." in text
    wrong = SPEC.reveals["hand-over"](["A", "B"], P)  # A wrongly chosen, E left out: right about B, C and D
    assert "You chose A and B; you were right about 3 of the 5." in wrong


def test_the_box_reveal_counts_the_pairs_of_value_0_by_brute_force() -> None:
    zeros = [n for n in range(1, 21) if lost((n,))]
    assert len(zeros) == 12  # the 10 odd numbers, 2 and 8
    text = SPEC.reveals["box"](0.3, P)
    assert "You guessed 0.3" in text and "144 pair two numbers of value 0 (12 numbers up to 20" in text


def test_the_a_to_e_reveal_keeps_the_rule_for_the_rule_reveal() -> None:
    before = SPEC.reveals["hand-over"](["A"], P)
    assert "XOR" not in before and "Sprague" not in before
    after = SPEC.reveals["rule"](lambda values: sum(values) % 2 == 0, P)
    assert "XOR" in after and "First counterexample" in after
    assert "agrees" in SPEC.reveals["rule"](lambda values: reduce(xor, values, 0) == 0, P)


def test_text_after_the_rule_is_gated_and_the_box_count_is_the_optional_part() -> None:
    # Issue 27: the proof, exercise 1 and the box count name the XOR rule, so they open once the student's own rule
    # is in; the box count is the gated "Going further" part, outside the 50 minutes.
    notebook = json.loads(next((ROOT / "notebooks").glob("11-*.ipynb")).read_text(encoding="utf-8"))
    parts = [text for gate, text in gated_texts(notebook).values() if gate == "rule"]
    assert any(text.startswith("## 4. Build the proof") and "XOR" in text for text in parts)
    assert any(text.startswith("**Exercise 1.**") and "XOR" in text for text in parts)
    assert any(text.startswith("## Going further (optional)") and "box" in text for text in parts)
    static = [source(c) for c in student_notebook(notebook)["cells"]]
    assert not any(re.search(r"xor|⊕|\\oplus|balanced", t, re.IGNORECASE) for t in static)
    box_guess = next(i for i, t in enumerate(static) if 'lesson.guess("box"' in t)
    going_further = next(i for i, (gate, text) in enumerate(gated_texts(notebook).values()) if "Going further" in text)
    assert static[box_guess - 1] == gated_cell(f"part-{going_further + 1}")["source"]
