"""Every declared proof order: every valid order is right, and a program that only obeys the feedback never finishes.

The valid orders are found by brute force over all permutations of the lines not marked wrong,
checked against the declared ``uses`` here (not by the checker's own code).  The follower is the
15-line program of issue 27, made as strong as a label-reader can be: it removes a line the feedback
names as not true, adds lines while one is missing, and moves a line it can identify (by its label,
or by a quoted text that is a line's own text) before the line that uses it.  When the feedback
names no line it can act on, it is stuck, and it tries its next guess.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from duel_lessons.teaching import declared
from duel_lessons.teaching.feedback import Verdict
from duel_lessons.teaching.lesson import MAX_TRIES
from duel_lessons.teaching.proofs import expect_order

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
ORDERS = [
    (path.name, name, exercise)
    for path in sorted(NOTEBOOKS.glob("*.lesson.toml"))
    for name, exercise in declared.load(path).exercises.items()
    if exercise.kind == "order"
]


def test_every_ordering_problem_of_the_lessons_is_declared() -> None:
    assert [(f[:2], name) for f, name, _ in ORDERS] == [
        ("01", "proof-1"),
        ("02", "proof-1"),
        ("03", "proof-1"),
        ("04", "order"),
        ("06", "order"),
        ("08", "half"),
        ("09", "nim-proof"),
        ("10", "order"),
        ("11", "order"),
    ]


def _valid(order: tuple[str, ...], lines: dict[str, dict[str, object]]) -> bool:
    at = {x: i for i, x in enumerate(order)}
    return all(at[u] < at[x] for x in order for u in lines[x].get("uses", []))  # type: ignore[union-attr]


@pytest.mark.parametrize(("file", "name", "exercise"), ORDERS, ids=[f"{f[:2]}-{n}" for f, n, _ in ORDERS])
def test_every_order_the_dependencies_allow_is_right_and_no_other(file: str, name: str, exercise: object) -> None:
    found = declared.load(NOTEBOOKS / file)
    lines = exercise.fields["lines"]  # type: ignore[attr-defined]
    proof = [x for x, line in lines.items() if "wrong" not in line]
    right = wrong = 0
    for order in itertools.permutations(proof):
        verdict = found.check(name, list(order), {})
        if _valid(order, lines):
            assert verdict.right, (order, verdict)
            right += 1
        else:
            assert not verdict.right, order
            wrong += 1
    assert right >= 1 and wrong >= 1


def test_lesson_01s_order_refused_before_is_right() -> None:
    found = declared.load(next(NOTEBOOKS.glob("01-*.lesson.toml")))
    assert found.check("proof-1", ["H", "D", "C", "G", "A", "F"], {}).right


def _follow(
    judge: Callable[[list[str]], Verdict], labels: list[str], proof: list[str], texts: dict[str, str], seed: int
) -> int | None:
    """The number of checks the obeying program needs to be right, or None if it is not right within MAX_TRIES."""
    rng = random.Random(seed)
    order = labels[:]
    while True:  # a start that is not right by luck: its proof lines, wrong ones taken out, are out of order
        rng.shuffle(order)
        if not judge([x for x in order if x in proof]).right:
            break
    removed: set[str] = set()
    for tries in range(1, MAX_TRIES + 1):
        verdict = judge(order)
        if verdict.right:
            return tries
        said = " ".join((verdict.message, verdict.hint, verdict.stronger))
        named = [x for x in re.findall(r"\bline ([A-Z])\b", said, flags=re.IGNORECASE) if x in labels]
        named += [x for x, text in texts.items() if text in said]
        if verdict.kind == "misconception" and named:  # "line E is not true": take it out
            removed.add(named[0])
            order = [x for x in order if x != named[0]]
        elif "missing" in said and len(order) < len(labels) - len(removed):  # add a line not used yet
            order.append(next(x for x in labels if x not in order and x not in removed))
        elif verdict.key.startswith(("order:", "missing:")) and len(named) >= 2:  # "X uses Y": move Y before X
            x, y = named[0], named[1]
            if y in order:
                order.remove(y)
            order.insert(order.index(x), y)
        # else: the feedback names nothing it can act on, so it has nothing to change
    return None


@pytest.mark.parametrize(("file", "name", "exercise"), ORDERS, ids=[f"{f[:2]}-{n}" for f, n, _ in ORDERS])
def test_a_program_that_only_obeys_the_feedback_does_not_finish(file: str, name: str, exercise: object) -> None:
    found = declared.load(NOTEBOOKS / file)
    lines = exercise.fields["lines"]  # type: ignore[attr-defined]
    texts = {x: str(line["text"]) for x, line in lines.items()}

    def judge(order: list[str]) -> Verdict:
        return found.check(name, order, {})

    finished = [
        seed
        for seed in range(20)
        if _follow(judge, list(lines), [x for x, line in lines.items() if "wrong" not in line], texts, seed) is not None
    ]
    assert finished == []


def test_the_follower_wins_when_the_feedback_names_labels() -> None:
    """The same program orders lesson 04's proof when the feedback names labels (as before issue 27): it can fail."""
    found = declared.load(next(NOTEBOOKS.glob("04-*.lesson.toml")))
    lines = found.exercises["order"].fields["lines"]
    proof = [x for x, line in lines.items() if "wrong" not in line]

    def judge(order: list[str]) -> Verdict:  # the feedback of before: "Line X uses line Y, which comes after it."
        return expect_order(
            order,
            lines={x: line["text"] for x, line in lines.items()},
            proof=declared.topological(lines),
            uses={x: tuple(lines[x].get("uses", ())) for x in proof},
            wrong={x: line["wrong"] for x, line in lines.items() if "wrong" in line},
        )

    texts = {x: str(line["text"]) for x, line in lines.items()}
    needed = [
        _follow(judge, list(lines), [x for x, line in lines.items() if "wrong" not in line], texts, seed)
        for seed in range(20)
    ]
    assert all(n is not None and n <= MAX_TRIES for n in needed)


@pytest.mark.parametrize(("file", "name", "exercise"), ORDERS, ids=[f"{f[:2]}-{n}" for f, n, _ in ORDERS])
def test_a_fact_is_said_in_other_words_than_its_line(file: str, name: str, exercise: object) -> None:
    lines = exercise.fields["lines"]  # type: ignore[attr-defined]
    for x, line in lines.items():
        if "shows" in line:
            assert line["shows"].lower() not in " ".join(str(y["text"]).lower() for y in lines.values()), x
