"""Lesson 09: Nim's proof built (in order, and the largest-heap counterexample), the exercises following their
parameters (SUB_SET drives exercise 2; every model answer under every offered parameter: test_model_solutions),
and the data tools small on purpose."""

from __future__ import annotations

import itertools

import pytest

from duel_lessons.play import nim
from duel_lessons.play.nim import MAX_HEAP_TABLE, losing_piles, three_heap_lines, two_heap_lines
from duel_lessons.play.nim_solver import nim_outcome, nim_winning_moves, subtraction_outcome
from duel_lessons.teaching.checks import spec

BASE = {
    "heaps": [3, 4, 5],
    "heap_upto": 7,
    "sub_set": [1, 2, 3],
    "sub_upto": 30,
    "ex_moves": [14, 21, 30],
    "ex_sub": 1001,
}
SPEC = spec("09")


def kind(name: str, answer: object, **changed: object) -> str:
    return SPEC.checks[name](answer, {**BASE, **changed}).kind


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        (["E", "C", "F", "A", "D", "G"], "right"),
        (["F", "A", "C", "E", "D", "G"], "right"),  # the two halves in the other order
        (["E", "C", "A", "F", "D", "G"], "partial"),  # A before the line it uses
        (["E", "C", "F", "A", "G"], "partial"),  # D missing
        (["E", "C", "B", "D", "G"], "misconception"),  # "take from the largest heap"
        (["E", "H", "F", "A", "D", "G"], "misconception"),  # "a move changes one column"
        ("ECFADG", "format"),
        (["E", "C", "F", "A", "D", "X"], "format"),
    ],
)
def test_the_nim_proof_in_order(order: object, expected: str) -> None:
    assert kind("nim-proof", order) == expected


@pytest.mark.parametrize(
    ("heaps", "expected"),
    [
        ([3, 4, 6], "right"),
        ([3, 8, 10], "right"),
        ([1, 2, 3], "misconception"),  # a P-position: nothing to balance
        ([1, 2, 4], "miss"),  # the largest heap balances (4 -> 3)
        ([3, 4], "format"),
        ([3, 4, 60], "format"),
        ("3, 4, 6", "format"),
    ],
)
def test_the_largest_heap_counterexample(heaps: object, expected: str) -> None:
    assert kind("proof-2", heaps) == expected


def test_every_right_counterexample_is_one_by_brute_force() -> None:
    for heaps in itertools.product(range(1, 9), repeat=3):
        good = nim_winning_moves(heaps)
        expected = bool(good) and all(heaps[h - 1] != max(heaps) for h, _ in good)
        assert (kind("proof-2", list(heaps)) == "right") == expected, heaps


def test_exercise_2_follows_sub_set() -> None:
    assert kind("2", 1) == "right"  # 1001 - 1 = 1000, a multiple of 4
    assert kind("2", 0, sub_set=[1, 3, 4]) == "right"  # 1001 = 7 * 143 is a losing size when taking 1, 3 or 4
    assert kind("2", 1, sub_set=[1, 3, 4]) != "right"
    assert [n for n in range(1, 22) if subtraction_outcome(n, (1, 3, 4)) == "P"] == [2, 7, 9, 14, 16, 21]
    assert kind("2", 2, sub_set=[1, 2]) == "right" and kind("2", 5) == "misconception"


def test_exercise_1_every_winning_move_from_heaps_beyond_the_data() -> None:
    assert kind("1", [(1, 3), (2, 5), (3, 3)]) == "right"
    assert kind("1", [(1, 3)]) == "partial"
    assert kind("1", [(0, 3), (1, 5), (2, 3)]) == "format"  # heaps counted from 0
    assert kind("1", [], ex_moves=[13, 22, 27]) == "right" and kind("1", [(1, 1)], ex_moves=[13, 22, 27]) != "right"
    assert max(BASE["ex_moves"]) > MAX_HEAP_TABLE  # type: ignore[call-overload]


def test_the_guess_forms() -> None:
    forms = SPEC.guess_forms
    assert forms["hand-over"](["A", "d"], BASE) is None and forms["hand-over"]([], BASE) is None
    assert forms["hand-over"]("dunno", BASE) and forms["hand-over"](["F"], BASE)
    assert forms["pile"]("second", BASE) is None and forms["pile"]("First", BASE) is None
    assert forms["pile"]("dunno", BASE) and forms["pile"](2, BASE)


def test_the_data_tools_stop_at_their_caps() -> None:
    with pytest.raises(ValueError):
        two_heap_lines(16)
    with pytest.raises(ValueError):
        three_heap_lines(100)
    with pytest.raises(ValueError):
        losing_piles([1, 2, 3], 1001)
    assert "heaps [1, 2, 3]:" in three_heap_lines(3)


def test_the_xor_rule_by_brute_force_and_the_reveal_matches() -> None:
    for heaps in itertools.product(range(8), repeat=3):
        assert (nim_outcome(heaps) == "P") == (heaps[0] ^ heaps[1] ^ heaps[2] == 0), heaps
    assert [
        k
        for k, h in {"A": (1, 1), "B": (1, 2), "C": (2, 2), "D": (1, 2, 3), "E": (1, 2, 4)}.items()
        if nim_outcome(h) == "P"
    ] == ["A", "C", "D"]


def test_the_module_the_lesson_imports_offers_no_solver() -> None:
    """A student who lists what play.nim offers finds the game and the capped tables, no brute-force solver."""
    public = {name for name in dir(nim) if not name.startswith("_")}
    solvers = {"nim_outcome", "nim_winning_moves", "nim_p_positions", "subtraction_outcome", "nim_moves", "after"}
    assert public & solvers == set()
    assert set(nim.__all__) == {
        "MAX_HEAP_TABLE",
        "MAX_PILE_TABLE",
        "NimGame",
        "losing_piles",
        "three_heap_lines",
        "two_heap_lines",
    }
    with pytest.raises(ValueError, match="15"):
        two_heap_lines(MAX_HEAP_TABLE + 1)
    with pytest.raises(ValueError, match="100"):
        losing_piles([1, 2, 3], 1001)


def test_a_look_up_of_the_data_does_not_pass_the_nim_rule() -> None:
    """A rule copied from the tables (heaps 0 .. HEAP_UPTO) is partial: the check also tries heaps beyond the data."""
    upto = BASE["heap_upto"]
    assert isinstance(upto, int)
    seen = {
        (a, b, c)
        for a in range(upto + 1)
        for b in range(upto + 1)
        for c in range(upto + 1)
        if nim_outcome((a, b, c)) == "P"
    }
    verdict = SPEC.checks["nim-rule"](lambda a, b, c: (a, b, c) in seen, BASE)
    assert verdict.kind == "partial" and "beyond the data" in verdict.message
    assert SPEC.checks["nim-rule"](lambda a, b, c: a ^ b ^ c == 0, BASE).right
    assert SPEC.checks["nim-rule"](lambda a, b, c: a ^ b ^ c == 0, {**BASE, "heap_upto": 15}).right


# -- the three-heap rule opens only after the student has noted a rule (issue 27: text gated, not only outputs) ---

NIM_WORDS = ("XOR", "nim-sum", "even number of 1s", "balanced", "a ^ b ^ c")


def test_the_nim_guess_takes_any_rule_that_tells_positions_apart_and_nothing_else() -> None:
    form = SPEC.guess_forms["nim"]
    assert form(lambda a, b, c: a == b, BASE) is None  # wrong, but a real attempt: noted
    assert form(lambda a, b, c: a ^ b ^ c == 0, BASE) is None
    assert "same for every position" in str(form(lambda a, b, c: True, BASE))
    assert "..." in str(form(lambda a, b, c: ..., BASE))
    assert "ZeroDivisionError" in str(form(lambda a, b, c: 1 // a > 0, BASE))
    assert "True or False" in str(form(lambda a, b, c: [a], BASE))
    assert "my_nim_rule" in str(form([1, 2, 3], BASE))


def test_the_first_guess_opens_the_two_heap_rule_but_not_the_three_heap_one() -> None:
    early = SPEC.reveals["hand-over"](["A", "C"], BASE)
    assert "**A, C and D**" in early and "heaps are equal" in early
    assert not [w for w in NIM_WORDS if w.lower() in early.lower()], early
    assert SPEC.gates["rule"] == "nim" and SPEC.gates["hand-over"] == "hand-over"


@pytest.mark.parametrize(
    ("guess", "right"),
    # by hand: A (1, 1), C (2, 2) and D (1, 2, 3) lose for the player to move; B and E do not
    [(["A", "E"], 2), (["a", "c", "d"], 5), ([], 2), (["B", "E"], 0), (("C", "d"), 4)],
)
def test_the_first_reveal_counts_the_letters_on_the_right_side(guess: list[str], right: int) -> None:
    told = SPEC.reveals["hand-over"](guess, BASE)
    assert (": right." in told) if right == 5 else (f"were right about {right} of the 5" in told), told


# by hand: from [3, 5] one move leaves (0..2, 5) or (3, 0..4); of these only (3, 3) has equal heaps (a P-position)
REACHED = [(a, 5) for a in range(3)] + [(3, b) for b in range(5)]


@pytest.mark.parametrize(
    ("heaps", "expected"),
    [
        ([3, 3], "right"),
        ((3, 3), "right"),
        ([3.0, 3], "right"),
        ([3, 4], "misconception"),  # a move, but not to a P-position
        ([2, 5], "misconception"),
        ([2, 2], "misconception"),  # equal, but no single move from [3, 5] leaves it
        ([5, 5], "misconception"),
        ([-1, 5], "misconception"),
        ([3], "format"),
        ("3, 3", "format"),
        ([3, 3, 3], "format"),
        (..., "unanswered"),
    ],
)
def test_proof_1_the_copying_reply(heaps: object, expected: str) -> None:
    assert kind("proof-1", heaps) == expected


def test_proof_1_names_a_reply_that_is_no_move_and_one_that_loses() -> None:
    reached = set(REACHED)
    for heaps in itertools.product(range(7), repeat=2):
        verdict = SPEC.checks["proof-1"](list(heaps), BASE)
        expected = "right" if heaps == (3, 3) else "unequal" if heaps in reached else "not-a-move"
        assert (verdict.kind if verdict.right else verdict.key) == expected, heaps
    assert SPEC.models["proof-1"](BASE)[0] == (3, 3)


def test_the_rule_reveal_waits_for_a_noted_rule_whose_first_error_the_check_names() -> None:
    told = SPEC.reveals["rule"](lambda a, b, c: a == b, BASE)
    assert all(w in told for w in ("XOR", "nim-sum", "`a ^ b ^ c`", "balanced")), told
    # by hand: (0, 0, 1) is the first position in order where a == b and the player to move does not lose
    assert nim_outcome((0, 0, 1)) == "N" and nim_outcome((0, 0, 0)) == "P"
    assert "First counterexample: heaps [0, 0, 1]" in SPEC.checks["nim-rule"](lambda a, b, c: a == b, BASE).message


def test_the_lesson_object_opens_the_rule_and_the_proof_only_after_a_rule_is_noted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from duel_lessons.teaching import Lesson

    lesson = Lesson("09", **BASE)
    lesson.guess("hand-over", ["A"])
    assert lesson.reveal_text("hand-over") is not None and lesson.reveal_text("rule") is None
    lesson.locked("nim", lambda: print("the proof's lines"))
    assert "🔒" in capsys.readouterr().out
    assert not lesson.guess("nim", lambda a, b, c: False)  # a constant rule notes nothing
    assert lesson.reveal_text("rule") is None
    assert lesson.guess("nim", lambda a, b, c: a == b)
    assert "XOR" in str(lesson.reveal_text("rule"))


def test_the_proof_text_waits_for_the_rule_and_the_going_further_part_is_gated() -> None:
    import json
    from pathlib import Path

    from duel_lessons.teaching.gating import gated_texts

    path = Path(__file__).resolve().parents[1] / "notebooks" / "09-nim-and-subtraction-games.ipynb"
    parts = list(gated_texts(json.loads(path.read_text(encoding="utf-8"))).values())
    proof = [gate for gate, text in parts if "Build the proof" in text]
    assert proof == ["nim"], parts
    further = [gate for gate, text in parts if text.startswith("## Going further")]
    assert further == ["nim"]
    assert {gate for gate, text in parts if "balanced" in text} == {"nim"}
