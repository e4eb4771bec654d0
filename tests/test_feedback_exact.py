"""Every verdict of the feedback checks, written out in full by hand: kind, words, hints, key and options.

Issue 23: mutation testing found verdicts that no test pinned (an all-wrong table called "partial",
a changed message or key, a boundary moved by one). Each case below is the whole :class:`Verdict`
a student gets, so any change to what they are told fails here.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    as_truth,
    as_whole,
    expect_choice,
    expect_list,
    expect_member,
    expect_number,
    expect_table,
    first_difference,
    right,
)

UNANSWERED = Verdict("unanswered")
RIGHT = Verdict("right")
PN = ("P", "N")


# -- expect_table -----------------------------------------------------------------------------------


def test_an_all_wrong_table_is_a_miss_not_partial() -> None:
    """The issue's named survivor: no entry right is no partial credit."""
    truth = {1: "P", 2: "P"}
    assert expect_table({1: "N", 2: "N"}, truth, hint="h", stronger="s") == Verdict(
        "miss", "0 of 2 entries right. The first to look at again: 1.", "h", "s", "table:[1]:0"
    )
    assert expect_table({1: "N", 2: ...}, truth, hint="h") == Verdict(
        "miss", "0 of 2 entries right. The first to look at again: 1. Still to fill in: 2.", "h", "h", "table:[1]:1"
    )


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (..., UNANSWERED),
        (None, UNANSWERED),
        ({}, UNANSWERED),
        ({1: ..., 2: None, 3: ...}, UNANSWERED),
        ({1: "P", 2: "P", 3: "N"}, RIGHT),
        ({1: "P", 2: "P", 3: "N", 9: "X"}, RIGHT),  # entries not asked for are not judged
        ([1, 2], Verdict("format", 'Give a dict such as {1: "P", 2: ...}.', key="format:not-a-dict")),
        (
            {1: "p", 2: "P", 3: "N"},
            Verdict("format", 'Write "P" and "N" as capital letters in quotes.', key="format:case"),
        ),
        (
            {1: "P", 2: " N", 3: "N"},
            Verdict("format", 'Write "P" and "N" as capital letters in quotes.', key="format:case"),
        ),
        ({1: "P", 2: "X", 3: "N"}, Verdict("format", 'Each entry is "P" or "N"; look at 2.', key="format:entry")),
        ({1: "P", 2: 1, 3: "N"}, Verdict("format", 'Each entry is "P" or "N"; look at 2.', key="format:entry")),
        ({1: "p", 2: "X", 3: "N"}, Verdict("format", 'Each entry is "P" or "N"; look at 1.', key="format:entry")),
        (
            {1: "P", 2: "N", 3: "P"},
            Verdict("partial", "1 of 3 entries right. The first to look at again: 2.", "h", "s", "table:[2]:0"),
        ),
        (
            {1: "P", 2: ..., 3: "N"},
            Verdict("partial", "2 of 3 entries right. Still to fill in: 2.", "", "s", "table:[]:1"),
        ),
        (
            {1: "P", 2: "N", 3: ...},
            Verdict(
                "partial",
                "1 of 3 entries right. The first to look at again: 2. Still to fill in: 3.",
                "h",
                "s",
                "table:[2]:1",
            ),
        ),
    ],
)
def test_table_verdicts(answer: object, verdict: Verdict) -> None:
    assert expect_table(answer, {1: "P", 2: "P", 3: "N"}, hint="h", stronger="s") == verdict


def test_a_table_lists_at_most_six_entries_still_to_fill_in() -> None:
    seven = {n: "P" for n in range(1, 8)}
    assert expect_table({1: "P"}, seven) == Verdict(
        "partial", "1 of 7 entries right. Still to fill in: 2, 3, 4, 5, 6, 7.", "", "", "table:[]:6"
    )
    eight = {n: "P" for n in range(1, 9)}
    assert expect_table({1: "P"}, eight, hint="h") == Verdict(
        "partial", "1 of 8 entries right. Still to fill in: 2, 3, 4, 5, 6, 7 ....", "", "h", "table:[]:7"
    )


def test_a_table_with_only_the_given_entries_is_unanswered_and_one_more_is_judged() -> None:
    truth = {1: "P", 2: "N", 3: "P"}
    assert expect_table({1: "P", 2: "N", 3: ...}, truth, given=[1, 2]) == UNANSWERED
    assert expect_table({1: "P", 2: "N", 3: "P"}, truth, given=[1, 2]) == RIGHT
    assert expect_table({1: "P", 2: "N", 3: ...}, truth, given=[1]) == Verdict(
        "partial", "2 of 3 entries right. Still to fill in: 3.", "", "", "table:[]:1"
    )


# -- expect_list ------------------------------------------------------------------------------------

ENDS = Misconception("ends", [1, 2, 3, 6], "Not 1 or the number itself.", "Between 1 and N.")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (..., UNANSWERED),
        (None, UNANSWERED),
        ([3, 2], RIGHT),
        ((2, 3), RIGHT),
        ({3, 2}, RIGHT),
        ([2.0, 3], RIGHT),
        (7, Verdict("format", "Give your answer as a list, like [7] or [2, 5].", key="format:not-a-list")),
        (7.0, Verdict("format", "Give your answer as a list, like [7] or [2, 5].", key="format:not-a-list")),
        ("7", Verdict("format", 'Give whole numbers, not text: write [7], not "7".', key="format:text")),
        ("abc", Verdict("format", "Give a list of whole numbers, like [2, 5], not 'abc'.", key="format:not-numbers")),
        (7.5, Verdict("format", "Give a list of whole numbers, like [2, 5], not 7.5.", key="format:not-numbers")),
        (
            [1.5, 2],
            Verdict("format", "Give a list of whole numbers, like [2, 5], not [1.5, 2].", key="format:not-numbers"),
        ),
        (
            [True, 2],
            Verdict("format", "Give a list of whole numbers, like [2, 5], not [True, 2].", key="format:not-numbers"),
        ),
        (
            [10**20],
            Verdict(
                "format",
                "[a number with about 21 digits] is not a list of numbers this lesson asks about.",
                key="format:not-numbers",
            ),
        ),
        (
            10**20,
            Verdict(
                "format",
                "a number with about 21 digits is not a list of numbers this lesson asks about.",
                key="format:not-numbers",
            ),
        ),
        ([2, 2, 3], Verdict("format", "The right numbers, but some twice: write each one once.", key="format:repeat")),
        ([], Verdict("miss", "Your answer was [].", "h", "s", "miss:[]")),
        ([9], Verdict("miss", "Your answer was [9].", "h", "s", "miss:[9]")),
        ((9, 8), Verdict("miss", "Your answer was [9, 8].", "h", "s", "miss:[9, 8]")),
        (
            [2],
            Verdict("partial", "1 of the 2 divisors: some are missing.", "h", "s", "partial:[2]"),
        ),
        (
            [2, 5],
            Verdict("partial", "1 of your 2 divisors is right, but 5 is not one of them.", "h", "s", "partial:[2, 5]"),
        ),
        (
            [5, 2, 2],
            Verdict("partial", "1 of your 2 divisors is right, but 5 is not one of them.", "h", "s", "partial:[2, 5]"),
        ),
        (
            [2, 3, 5, 4],
            Verdict(
                "partial",
                "2 of your 4 divisors are right, but 5, 4 are not one of them.",
                "h",
                "s",
                "partial:[2, 3, 4, 5]",
            ),
        ),
        (
            [6, 3, 2, 1],
            Verdict("misconception", "Your answer was [6, 3, 2, 1].", ENDS.hint, ENDS.stronger, "ends"),
        ),
    ],
)
def test_list_verdicts(answer: object, verdict: Verdict) -> None:
    assert expect_list(answer, [2, 3], what="divisors", misconceptions=[ENDS], hint="h", stronger="s") == verdict


def test_list_verdicts_with_the_defaults() -> None:
    assert expect_list([2, 5], [2, 3]) == Verdict(
        "partial", "1 of your 2 numbers is right, but 5 is not one of them.", "", "", "partial:[2, 5]"
    )
    assert expect_list([9], [2], hint="h") == Verdict("miss", "Your answer was [9].", "h", "h", "miss:[9]")
    assert expect_list([2], [2, 3], hint="h") == Verdict(
        "partial", "1 of the 2 numbers: some are missing.", "h", "h", "partial:[2]"
    )
    only_hint = Misconception("k", [9], "only a hint")
    assert expect_list([9], [2], misconceptions=[only_hint]) == Verdict(
        "misconception", "Your answer was [9].", "only a hint", "only a hint", "k"
    )
    assert right("Well done") == Verdict("right", "Well done")


def test_a_list_in_the_wrong_order_is_a_format_slip_only_when_order_counts() -> None:
    assert expect_list([3, 2], [2, 3], ordered=True) == Verdict(
        "format", "The right numbers, but put them in order, smallest first.", key="format:order"
    )
    assert expect_list([2, 3], [2, 3], ordered=True) == RIGHT
    assert expect_list([2, 3], [2, 2, 3]) == Verdict(
        "format", "The right numbers, but some twice: write each one once.", key="format:repeat"
    )


def test_at_most_ten_wrong_numbers_are_named() -> None:
    ten = list(range(10, 20))
    assert expect_list([2, *ten], [2, 3]).message == (
        "1 of your 11 numbers is right, but 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 are not one of them."
    )
    eleven = list(range(10, 21))
    assert expect_list([2, *eleven], [2, 3]).message == (
        "1 of your 12 numbers is right, but 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, ... are not one of them."
    )


def test_a_list_of_ten_thousand_is_read_and_one_more_is_refused() -> None:
    read = expect_list(list(range(1, 10_001)), [1])
    assert read.kind == "partial"
    assert (
        read.message == "1 of your 10000 numbers is right, but 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ... are not one of them."
    )
    assert expect_list(list(range(1, 10_002)), [1]) == Verdict(
        "format", "That is more than 10,000 numbers: give only the ones asked for.", key="format:long"
    )


def test_a_list_misconception_is_matched_in_any_order_but_not_as_a_subset() -> None:
    near = Misconception("near", [4, 5], "h")
    assert expect_list([5, 4], [2], misconceptions=[near]).key == "near"
    assert expect_list([4], [2], misconceptions=[near]).key == "miss:[4]"
    assert expect_list([4, 5, 6], [2], misconceptions=[near]).key == "miss:[4, 5, 6]"
    assert expect_list([4, 5], [2], misconceptions=[Misconception("set", {4, 5}, "h")]).key == "set"
    assert expect_list([4, 5], [2], misconceptions=[Misconception("one", 4, "h")]).key == "miss:[4, 5]"


# -- expect_number ----------------------------------------------------------------------------------

HALF = Misconception("half", 0.5, "Half of what?", "Count again.")
TEXT = Verdict("format", "Give a number, not text (no quotes, no % sign).", key="format:text")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (..., UNANSWERED),
        (None, UNANSWERED),
        (0.25, RIGHT),
        (Fraction(1, 4), RIGHT),
        ("0.25", TEXT),
        (" 0.25 ", TEXT),
        ("25%", TEXT),
        ("25 %", TEXT),
        (".5%", TEXT),
        ("5%", TEXT),
        ("1,000", TEXT),
        ("1e308", TEXT),
        ("1.79e308%", TEXT),
        ("1e308%", TEXT),
        ("1" * 40, TEXT),
        ("1" * 41, Verdict("format", f"Give a number, not '{'1' * 41}'.", key="format:not-a-number")),
        ("inf", Verdict("format", "Give a number, not 'inf'.", key="format:not-a-number")),
        ("nan", Verdict("format", "Give a number, not 'nan'.", key="format:not-a-number")),
        ("%", Verdict("format", "Give a number, not '%'.", key="format:not-a-number")),
        ([0.25], Verdict("format", "Give one number, not a list.", key="format:list")),
        ([1, 2], Verdict("format", "Give a number, not [1, 2].", key="format:not-a-number")),
        (True, Verdict("format", "Give a number, not True.", key="format:not-a-number")),
        (float("nan"), Verdict("format", "Give a number, not nan.", key="format:not-a-number")),
        (0.5, Verdict("misconception", "Your answer was 0.5.", "Half of what?", "Count again.", "half")),
        (0.75, Verdict("miss", "Your answer was 0.75.", "h", "s", "miss:0.75")),
        (-0.25, Verdict("miss", "Your answer was -0.25.", "h", "s", "miss:-0.25")),
        (Fraction(1, 3), Verdict("miss", "Your answer was 1/3.", "h", "s", "miss:1/3")),
    ],
)
def test_number_verdicts(answer: object, verdict: Verdict) -> None:
    assert expect_number(answer, 0.25, misconceptions=[HALF], hint="h", stronger="s") == verdict


def test_number_tolerance_is_inclusive_on_both_sides() -> None:
    assert expect_number(13, 12, tolerance=1) == RIGHT
    assert expect_number(11, 12, tolerance=1) == RIGHT
    assert expect_number(14, 12, tolerance=1, hint="h") == Verdict("miss", "Your answer was 14.", "h", "h", "miss:14")
    assert expect_number(10, 12, tolerance=1).kind == "miss"
    assert expect_number(-12, 12).kind == "miss"
    assert expect_number(0, 0) == RIGHT
    near_half = Misconception("half", 6, "h")
    assert expect_number(7, 12, tolerance=1, misconceptions=[near_half]).key == "half"
    assert expect_number(8, 12, tolerance=1, misconceptions=[near_half]).key == "miss:8"


def test_a_number_misconception_must_be_a_number() -> None:
    assert expect_number(3, 4, misconceptions=[Misconception("text", "3", "h")]).key == "miss:3"
    assert expect_number(3, 4, misconceptions=[Misconception("bool", True, "h")]).key == "miss:3"


# -- expect_choice ----------------------------------------------------------------------------------

FIRST = Misconception("first-wins", "N", "Who moves first?", "Try 2 by hand.")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (..., UNANSWERED),
        ("P", RIGHT),
        ("N", Verdict("misconception", "Your answer was 'N'.", "Who moves first?", "Try 2 by hand.", "first-wins", 2)),
        (
            "p",
            Verdict(
                "format",
                "Write it exactly as one of 'P', 'N': the letter in quotes, as shown, with no spaces.",
                key="format:case",
                options=2,
            ),
        ),
        (
            " N ",
            Verdict(
                "format",
                "Write it exactly as one of 'P', 'N': the letter in quotes, as shown, with no spaces.",
                key="format:case",
                options=2,
            ),
        ),
        ("Q", Verdict("format", "Answer one of 'P', 'N', not 'Q'.", key="format:option", options=2)),
        (1, Verdict("format", "Answer one of 'P', 'N', not 1.", key="format:option", options=2)),
        (["P"], Verdict("format", "Answer one of 'P', 'N', not ['P'].", key="format:option", options=2)),
    ],
)
def test_choice_verdicts(answer: object, verdict: Verdict) -> None:
    assert expect_choice(answer, "P", PN, misconceptions=[FIRST], hint="h", stronger="s") == verdict


def test_a_choice_miss_carries_its_options_and_hints() -> None:
    assert expect_choice("C", "A", ("A", "B", "C", "D"), hint="h", stronger="s") == Verdict(
        "miss", "Your answer was 'C'.", "h", "s", "miss:'C'", 4
    )
    assert expect_choice("N", "P", PN, hint="h") == Verdict("miss", "Your answer was 'N'.", "h", "h", "miss:'N'", 2)
    assert expect_choice("N", "P", PN, misconceptions=[Misconception("k", "N", "only")]) == Verdict(
        "misconception", "Your answer was 'N'.", "only", "only", "k", 2
    )
    assert expect_choice("N", "P", PN, misconceptions=[Misconception("k", "P", "h")]).key == "miss:'N'"
    assert expect_choice("P", "P", PN).right and not expect_choice("N", "P", PN).right


# -- expect_member ----------------------------------------------------------------------------------

ONE = Misconception("one", 1, "1 is not a move.", "A move is a divisor other than 1.")


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (..., UNANSWERED),
        (None, UNANSWERED),
        (3, RIGHT),
        (5.0, RIGHT),
        ([3], Verdict("format", "Give one move, not a list.", key="format:list")),
        ((3,), Verdict("format", "Give one move, not a list.", key="format:list")),
        ("3", Verdict("format", "Give a number, not text (no quotes).", key="format:text")),
        ("three", Verdict("format", "Give one whole number, not 'three'.", key="format:not-a-number")),
        ([3, 5], Verdict("format", "Give one whole number, not [3, 5].", key="format:not-a-number")),
        (3.5, Verdict("format", "Give one whole number, not 3.5.", key="format:not-a-number")),
        (True, Verdict("format", "Give one whole number, not True.", key="format:not-a-number")),
        (1, Verdict("misconception", "Your answer was 1.", ONE.hint, ONE.stronger, "one")),
        (1.0, Verdict("misconception", "Your answer was 1.", ONE.hint, ONE.stronger, "one")),
        (4, Verdict("miss", "Your answer was 4.", "h", "s", "miss:4")),
        (4.0, Verdict("miss", "Your answer was 4.0.", "h", "s", "miss:4.0")),
    ],
)
def test_member_verdicts(answer: object, verdict: Verdict) -> None:
    assert expect_member(answer, {3, 5}, what="move", misconceptions=[ONE], hint="h", stronger="s") == verdict


def test_member_verdicts_with_the_defaults() -> None:
    assert expect_member([3], [3]) == Verdict("format", "Give one number, not a list.", key="format:list")
    assert expect_member(4, [3], hint="h") == Verdict("miss", "Your answer was 4.", "h", "h", "miss:4")
    assert expect_member(4, [3]) == Verdict("miss", "Your answer was 4.", "", "", "miss:4")


# -- the helpers ------------------------------------------------------------------------------------


def test_as_whole_reads_exact_whole_numbers_up_to_ten_to_the_eighteen() -> None:
    assert as_whole(-3.0) == -3
    assert as_whole(1e18) == 10**18 and as_whole(-1e18) == -(10**18)
    assert as_whole(1e19) is None and as_whole(-1e19) is None
    assert as_whole(2.5) is None and as_whole(float("inf")) is None and as_whole([3]) is None
    assert as_whole(10**18) == 10**18 and as_whole(10**18 + 1) is None


def test_as_truth_reads_only_booleans_and_zero_or_one() -> None:
    assert [as_truth(x) for x in (True, False, 1, 0, -1, 2, 1.0, "True", None)] == [
        True,
        False,
        True,
        False,
        None,
        None,
        None,
        None,
        None,
    ]


def test_first_difference_is_inclusive_of_both_ends() -> None:
    assert first_difference(lambda n: False, lambda n: n == 10, 10) == (10, True, False)
    assert first_difference(lambda n: False, lambda n: n == 10, 9) is None
    assert first_difference(lambda n: n > 5, lambda n: n >= 5, 10, start=6) is None
    assert first_difference(lambda n: n > 5, lambda n: n >= 5, 10, start=5) == (5, True, False)
    assert first_difference(lambda n: 1, lambda n: True, 3) is None  # 1 means True
    assert first_difference(lambda n: [n], lambda n: True, 3) == (1, True, [1])


def test_a_misconception_test_counts_when_it_returns_anything_true() -> None:
    assert expect_number(7, 6, misconceptions=[Misconception("k", lambda a: [a], "h")]).key == "k"
    assert expect_number(7, 6, misconceptions=[Misconception("k", lambda a: 0, "h")]).key == "miss:7"


def test_the_defaults_give_no_hint() -> None:
    assert expect_number(11, 12) == Verdict("miss", "Your answer was 11.", "", "", "miss:11")
    assert expect_choice("N", "P", PN) == Verdict("miss", "Your answer was 'N'.", "", "", "miss:'N'", 2)


def test_a_misconception_test_sees_the_answer_and_a_difference_reports_the_truth_there() -> None:
    assert expect_number(7, 6, misconceptions=[Misconception("seven", lambda a: a == 7, "h")]).key == "seven"
    assert expect_number(8, 6, misconceptions=[Misconception("seven", lambda a: a == 7, "h")]).key == "miss:8"
    assert first_difference(lambda n: "yes", lambda n: n == 1, 3) == (1, True, "yes")
    assert first_difference(lambda n: 1 // (n - 2) == 0, lambda n: n == 2, 3)[:2] == (2, True)  # type: ignore[index]
