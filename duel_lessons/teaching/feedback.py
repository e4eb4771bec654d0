"""Diagnostic feedback on a student's answer: pure functions, no printing.

A check compares an answer with the right one and returns a :class:`Verdict` that
says what *kind* of answer it was:

- ``"unanswered"``: still ``...`` (or ``None``);
- ``"right"``;
- ``"format"``: the right idea written the wrong way (``512`` for ``[512]``,
  ``"p"`` for ``"P"``, ``"25%"`` for ``0.25``, counting from 1 instead of 0);
- ``"partial"``: part of the answer ("2 of the 3 winning moves");
- ``"misconception"``: a known wrong idea, with a hint aimed at it;
- ``"miss"``: plainly wrong, with a general hint.

Every wrong verdict has a ``key`` naming the mistake, so that a display layer can
give a stronger hint (``stronger``) when the same mistake comes back.  No hint
contains the answer: the helpers only ever put the *student's* values into words.

>>> expect_list([2, 3], [2, 3, 4], what="winning moves").kind
'partial'
>>> expect_list(512, [512]).kind
'format'
>>> expect_choice("p", "P", ("P", "N")).kind
'format'
>>> expect_number("25%", 0.25).kind
'format'

Every helper first turns the answer into a plain value (:func:`plain`): an exact
``int``, ``float``, ``str``, ``Fraction``, or a list, tuple, set or dict of those.
So a value of the student's own class that records what it is compared with learns
nothing, and one that says it equals everything passes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from duel_lessons.engine.rules import MAX_NUMBER
from duel_lessons.teaching.plain import (
    MAX_ITEMS,
    MAX_SHOWN,
    STRICT,
    Unreadable,
    plain,
    show,
    strict,
)

__all__ = [
    "MAX_ITEMS",
    "MAX_SHOWN",
    "STRICT",
    "Misconception",
    "Unreadable",
    "Verdict",
    "as_truth",
    "as_whole",
    "expect_choice",
    "expect_list",
    "expect_member",
    "expect_number",
    "expect_table",
    "first_difference",
    "is_unanswered",
    "plain",
    "right",
    "show",
    "strict",
    "unanswered",
]

Kind = Literal["unanswered", "right", "format", "partial", "misconception", "miss"]

WRONG_KINDS: frozenset[str] = frozenset({"format", "partial", "misconception", "miss"})


@dataclass(frozen=True)
class Verdict:
    """What kind of answer a student gave, and what to tell them.

    ``message`` describes the answer; ``hint`` is the first hint and ``stronger``
    the one for a repeat of the same mistake (``key``).
    """

    kind: Kind
    message: str = ""
    hint: str = ""
    stronger: str = ""
    key: str = ""
    #: How many options a choice offered (0: not a choice); cycling through few options escalates at once.
    options: int = 0

    @property
    def right(self) -> bool:
        """Whether the answer is right."""
        return self.kind == "right"


def right(message: str = "") -> Verdict:
    """A right answer (with optional praise)."""
    return Verdict("right", message)


def unanswered() -> Verdict:
    """An answer that is still ``...``."""
    return Verdict("unanswered")


def is_unanswered(answer: object) -> bool:
    """Whether the student has not answered yet (``...`` or ``None``).

    >>> is_unanswered(...), is_unanswered(0)
    (True, False)
    """
    return answer is ... or answer is None


@dataclass(frozen=True)
class Misconception:
    """A known wrong answer (or a test that spots a wrong idea) with a hint aimed at it.

    ``matches`` is a value to compare with, or a function of the answer.
    """

    key: str
    matches: object
    hint: str
    stronger: str = ""

    def fits(self, answer: object, same: Callable[[object, object], bool]) -> bool:
        """Whether ``answer`` (a plain value) shows this misconception.

        A test that breaks is no match in a classroom, and an error under :func:`strict` (a bug in the check).
        """
        if callable(self.matches):
            try:
                return bool(self.matches(answer))
            except Exception:
                if strict():
                    raise
                return False
        return same(answer, self.matches)


def _miss(answer: object, hint: str, stronger: str, key: str = "") -> Verdict:
    return Verdict("miss", f"Your answer was {show(answer)}.", hint, stronger, key or f"miss:{show(answer)}")


def _misconception(answer: object, known: Sequence[Misconception], same: Callable[[object, object], bool]) -> Verdict:
    for m in known:
        if m.fits(answer, same):
            return Verdict("misconception", f"Your answer was {show(answer)}.", m.hint, m.stronger or m.hint, m.key)
    return Verdict("miss")


def as_whole(value: object) -> int | None:
    """``value`` as an exact int if it is a whole number up to 10**18 (not a bool), else None.

    >>> as_whole(3), as_whole(3.0), as_whole("3"), as_whole(True), as_whole(10**19)
    (3, 3, None, None, None)
    """
    value = plain(value, 0)
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer() and abs(value) <= MAX_NUMBER:
        return int(value)
    return None


def _text_number(value: object) -> float | None:
    """A number written as text ("12", " 0.25 ", "25%"), else None."""
    if type(value) is not str or len(value) > 40:
        return None
    text = value.strip().replace(",", "")
    scale = 1.0
    if text.endswith("%"):
        text, scale = text[:-1].strip(), 0.01
    try:
        number = float(text) * scale
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _whole_list(answer: object) -> list[int] | None:
    if not isinstance(answer, (list, tuple, set, frozenset)) or len(answer) > MAX_ITEMS:
        return None
    wholes = [as_whole(x) for x in answer]
    return None if any(w is None for w in wholes) else [w for w in wholes if w is not None]


def expect_list(
    answer: object,
    correct: Iterable[int],
    *,
    what: str = "numbers",
    ordered: bool = False,
    misconceptions: Sequence[Misconception] = (),
    hint: str = "",
    stronger: str = "",
) -> Verdict:
    """Compare a list of whole numbers with the right list (any order unless ``ordered``).

    A lone number or text is a format slip whatever its value (the form never confirms the answer).

    >>> expect_list([4, 2], [2, 4]).kind, expect_list([4, 2], [2, 4], ordered=True).kind
    ('right', 'format')
    >>> v = expect_list([2, 3, 5], [2, 3, 4], what="winning moves")
    >>> v.kind, v.message
    ('partial', '2 of your 3 winning moves are right, but 5 is not one of them.')
    >>> expect_list(512, [512]).message == expect_list(511, [512]).message
    True
    """
    want = [int(x) for x in correct]
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    if as_whole(answer) is not None or type(answer) is int:
        return Verdict("format", "Give your answer as a list, like [7] or [2, 5].", key="format:not-a-list")
    if isinstance(answer, str) and _text_number(answer) is not None:
        return Verdict("format", 'Give whole numbers, not text: write [7], not "7".', key="format:text")
    if isinstance(answer, (list, tuple, set, frozenset)) and len(answer) > MAX_ITEMS:
        return Verdict(
            "format", f"That is more than {MAX_ITEMS:,} numbers: give only the ones asked for.", key="format:long"
        )
    listed_or_none = _whole_list(answer)
    if listed_or_none is None:
        big = [x for x in answer if isinstance(x, Unreadable)] if isinstance(answer, (list, tuple, set)) else []
        if big or isinstance(answer, Unreadable):
            return Verdict(
                "format", f"{show(answer)} is not a list of numbers this lesson asks about.", key="format:not-numbers"
            )
        return Verdict(
            "format", f"Give a list of whole numbers, like [2, 5], not {show(answer)}.", key="format:not-numbers"
        )
    listed = listed_or_none
    answer = list(listed)

    def same(a: object, b: object) -> bool:
        la = _whole_list(plain(a))
        lb = _whole_list(plain(list(b) if isinstance(b, (list, tuple, set, frozenset)) else b))
        return la is not None and lb is not None and sorted(la) == sorted(lb)

    if sorted(listed) == sorted(want):
        if ordered and listed != want:
            return Verdict("format", "The right numbers, but put them in order, smallest first.", key="format:order")
        if len(set(listed)) != len(listed):
            return Verdict("format", "The right numbers, but some twice: write each one once.", key="format:repeat")
        return right()
    if set(listed) == set(want):
        return Verdict("format", "The right numbers, but some twice: write each one once.", key="format:repeat")
    found = _misconception(answer, misconceptions, same)
    if found.kind == "misconception":
        return found
    good = [x for x in dict.fromkeys(listed) if x in want]
    bad = [x for x in dict.fromkeys(listed) if x not in want]
    if good and (len(good) < len(set(want)) or bad):
        parts = f"{len(good)} of your {len(set(listed))} {what} {'is' if len(good) == 1 else 'are'} right"
        if not bad:
            message = f"{len(good)} of the {len(set(want))} {what}: some are missing."
        else:
            wrong = ", ".join(str(x) for x in bad[:10]) + (", ..." if len(bad) > 10 else "")
            message = f"{parts}, but {wrong} {'is' if len(bad) == 1 else 'are'} not one of them."
        return Verdict("partial", message, hint, stronger or hint, f"partial:{sorted(set(listed))}")
    return _miss(answer, hint, stronger or hint)


def _real(value: object) -> float | Fraction | int | None:
    """A plain number (not a bool, not nan), else None."""
    if isinstance(value, (int, Fraction)) and type(value) in (int, Fraction):
        return value
    if isinstance(value, float) and type(value) is float and not math.isnan(value):
        return value
    return None


def expect_number(
    answer: object,
    correct: float,
    *,
    misconceptions: Sequence[Misconception] = (),
    hint: str = "",
    stronger: str = "",
    tolerance: float = 0.0,
) -> Verdict:
    """Compare a number with the right one; text such as "12" or "25%", or a list, is a format slip.

    >>> expect_number(12, 12).kind, expect_number("12", 12).kind, expect_number([12], 12).kind
    ('right', 'format', 'format')
    >>> expect_number(11, 12).kind, expect_number("11", 12).kind
    ('miss', 'format')
    """
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()

    def same(a: object, b: object) -> bool:
        x, y = _real(plain(a)), _real(plain(b))
        if x is None or y is None:
            return False
        difference: Any = x - y
        return bool(abs(difference) <= tolerance)

    if _text_number(answer) is not None:
        return Verdict("format", "Give a number, not text (no quotes, no % sign).", key="format:text")
    if isinstance(answer, (list, tuple, set, frozenset)) and len(answer) == 1:
        return Verdict("format", "Give one number, not a list.", key="format:list")
    if same(answer, correct):
        return right()
    if _real(answer) is None:
        return Verdict("format", f"Give a number, not {show(answer)}.", key="format:not-a-number")
    found = _misconception(answer, misconceptions, same)
    if found.kind == "misconception":
        return found
    return _miss(answer, hint, stronger or hint)


def expect_choice(
    answer: object,
    correct: str,
    options: Sequence[str],
    *,
    misconceptions: Sequence[Misconception] = (),
    hint: str = "",
    stronger: str = "",
) -> Verdict:
    """Compare a choice such as ``"P"``/``"N"`` or ``"A"``-``"D"``; another case or spaces is a format slip.

    The format slip is the same for every option, right or wrong: it never confirms the answer.

    >>> expect_choice("N", "P", ("P", "N")).kind, expect_choice(" p", "P", ("P", "N")).kind
    ('miss', 'format')
    >>> expect_choice("p", "P", ("P", "N")).message == expect_choice("n", "P", ("P", "N")).message
    True
    >>> expect_choice("Q", "P", ("P", "N")).message
    "Answer one of 'P', 'N', not 'Q'."
    """
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    listed = ", ".join(map(repr, options))
    if type(answer) is str and answer == correct:
        return right()
    if type(answer) is not str or answer.strip().upper() not in {o.upper() for o in options}:
        return Verdict(
            "format", f"Answer one of {listed}, not {show(answer)}.", key="format:option", options=len(options)
        )
    if answer not in options:
        return Verdict(
            "format",
            f"Write it exactly as one of {listed}: the letter in quotes, as shown, with no spaces.",
            key="format:case",
            options=len(options),
        )
    found = _misconception(answer, misconceptions, lambda a, b: a == b)
    if found.kind == "misconception":
        return Verdict(found.kind, found.message, found.hint, found.stronger, found.key, len(options))
    missed = _miss(answer, hint, stronger or hint)
    return Verdict(missed.kind, missed.message, missed.hint, missed.stronger, missed.key, len(options))


def expect_member(
    answer: object,
    allowed: Iterable[int],
    *,
    what: str = "number",
    misconceptions: Sequence[Misconception] = (),
    hint: str = "",
    stronger: str = "",
) -> Verdict:
    """A whole number that must be one of several right answers.

    >>> expect_member(3, {3, 5}).kind, expect_member([3], {3, 5}).kind, expect_member(4, {3, 5}).kind
    ('right', 'format', 'miss')
    """
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    good = {int(x) for x in allowed}
    value = as_whole(answer)
    if value is None:
        if isinstance(answer, (list, tuple, set, frozenset)) and len(answer) == 1:
            return Verdict("format", f"Give one {what}, not a list.", key="format:list")
        if _text_number(answer) is not None:
            return Verdict("format", "Give a number, not text (no quotes).", key="format:text")
        return Verdict("format", f"Give one whole number, not {show(answer)}.", key="format:not-a-number")
    if value in good:
        return right()
    found = _misconception(value, misconceptions, lambda a, b: a == b)
    if found.kind == "misconception":
        return found
    return _miss(answer, hint, stronger or hint)


def expect_table(
    answer: object,
    correct: Mapping[int, str],
    *,
    given: Iterable[int] = (),
    hint: str = "",
    stronger: str = "",
) -> Verdict:
    """A dict ``{n: "P" or "N"}`` filled in by hand: partial credit names the first wrong entry.

    ``given`` are entries filled in for the student: a table with nothing more is unanswered.
    A small letter or a space is a format slip, right or wrong.

    >>> expect_table({1: "P", 2: "N"}, {1: "P", 2: "P"}).message
    '1 of 2 entries right. The first to look at again: 2.'
    >>> expect_table({1: "p", 2: "P"}, {1: "P", 2: "P"}).kind, expect_table({1: "n", 2: "P"}, {1: "P", 2: "P"}).kind
    ('format', 'format')
    """
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    if not isinstance(answer, dict):
        return Verdict("format", 'Give a dict such as {1: "P", 2: ...}.', key="format:not-a-dict")
    missing = [n for n in correct if is_unanswered(answer.get(n))]
    if set(correct) - set(missing) <= set(given):  # only the entries filled in for the student
        return unanswered()
    strange = [n for n in correct if n not in missing and answer.get(n) not in ("P", "N")]
    if strange:
        if all(type(answer[n]) is str and answer[n].strip().upper() in ("P", "N") for n in strange):
            return Verdict("format", 'Write "P" and "N" as capital letters in quotes.', key="format:case")
        return Verdict("format", f'Each entry is "P" or "N"; look at {strange[0]}.', key="format:entry")
    wrong = [n for n in correct if n not in missing and answer[n] != correct[n]]
    done = len(correct) - len(missing)
    if not wrong and not missing:
        return right()
    message = f"{done - len(wrong)} of {len(correct)} entries right."
    if wrong:
        message += f" The first to look at again: {wrong[0]}."
    if missing:
        message += f" Still to fill in: {', '.join(map(str, missing[:6]))}{' ...' if len(missing) > 6 else ''}."
    kind: Kind = "partial" if done - len(wrong) else "miss"
    return Verdict(kind, message, hint if wrong else "", stronger or hint, f"table:{wrong[:1]}:{len(missing)}")


def as_truth(said: object) -> bool | None:
    """A rule's answer as True/False (``True``, ``1``, numpy's booleans), else None.

    >>> as_truth(True), as_truth(0), as_truth("yes"), as_truth(2)
    (True, False, None, None)
    """
    value = plain(said, 0)
    if type(value) is bool:
        return value
    if type(value) is int and value in (0, 1):
        return bool(value)
    return None


def first_difference(
    rule: Callable[[int], Any], truth: Callable[[int], bool], upto: int, start: int = 1, among: Iterable[int] = ()
) -> tuple[int, bool, object] | None:
    """The first n (start .. upto) where ``rule(n)`` differs from ``truth(n)``: (n, truth, rule's value).

    A rule that raises, or returns something other than True/False (a list, a numpy array), differs there.

    >>> first_difference(lambda n: n % 2 == 1, lambda n: n in (1, 3, 5, 8), 10)
    (7, False, True)
    >>> first_difference(lambda n: n < 4, lambda n: n < 4, 10) is None
    True

    ``among`` tests those numbers instead (in the order given), for the numbers beyond the data:

    >>> first_difference(lambda n: n % 2 == 1 or n == 8, lambda n: n % 2 == 1, 0, among=[9, 8, 100])
    (8, False, True)
    """
    numbers = among or range(start, upto + 1)
    for n in numbers:
        try:
            said: object = rule(n)
        except Exception as error:  # the student's function: report, never crash
            return n, truth(n), error
        told = as_truth(said)
        if told is None:
            return n, truth(n), plain(said)
        if told != truth(n):
            return n, truth(n), told
    return None


#: The longest message, hint or stronger hint printed (a check that quotes a huge answer is cut short).
MAX_MESSAGE = 1000


def bounded(verdict: Verdict) -> Verdict:
    """``verdict`` with its texts cut to MAX_MESSAGE characters.

    >>> len(bounded(Verdict("miss", "x" * 5000)).message)
    1000
    """

    def cut(text: str) -> str:
        return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"

    return replace(verdict, message=cut(verdict.message), hint=cut(verdict.hint), stronger=cut(verdict.stronger))


class Result:
    """Whether an answer was right: true or false, and invisible in a notebook.

    >>> bool(Result(True)), Result(False)
    (True, Result(right=False))
    """

    def __init__(self, right: bool) -> None:
        self.right = right

    def __bool__(self) -> bool:
        return self.right

    def __repr__(self) -> str:
        return f"Result(right={self.right})"

    def _ipython_display_(self) -> None:
        """Show nothing: the feedback has been printed already."""
