"""JSON from a hand-in, read with limits on size, depth and types (the class report's only way in).

A handed-in notebook file and the line a re-run notebook sends back are written by the student:
either can be 100,000 brackets deep (``json.loads`` then raises RecursionError), carry a fraction
1/0 or a set holding a list.  :func:`loads` measures the depth first, without recursion, and reads
only what is within the limits; :func:`decode` turns the worker's plain encoding
(:func:`duel_lessons.teaching.grade_worker.plain`) back into Python values, checking every type;
:func:`parse_reply` checks the whole reply of :mod:`.grade_worker`.  Each raises
:class:`Unreadable` with the reason in words, for the report's row.

>>> loads('{"a": [1, [2]]}', max_depth=3)
{'a': [1, [2]]}
>>> loads("[" * 100_000, max_depth=64)
Traceback (most recent call last):
...
duel_lessons.teaching.bounded_json.Unreadable: it is nested more than 64 deep
>>> decode({"set": [1, {"tuple": [2, 3]}]}) == {1, (2, 3)}
True
>>> decode({"fraction": [1, 0]})
Traceback (most recent call last):
...
duel_lessons.teaching.bounded_json.Unreadable: it holds a fraction with denominator 0
"""

from __future__ import annotations

import array
import itertools
import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

#: The most bytes of a worker's reply, and how deep its JSON may nest.
MAX_REPLY = 8 * 2**20
MAX_DEPTH = 64
#: The most items of one list and characters of one text (the worker's own limit), and values in all.
MAX_ITEMS = 10_000
MAX_TEXT = 10_000
MAX_VALUES = 500_000
#: The markers the worker writes for what has no plain value.
MARKERS = ("missing", "function", "timeout", "error")

#: A JSON string, or the rest of the text after a quote never closed (read in one pass, never backtracking).
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
#: Opening brackets to +1, closing ones to -1 (as signed bytes).
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


class Unreadable(ValueError):
    """JSON that breaks a limit or holds what the encoding cannot mean; the message says what, in words."""


def depth(text: str) -> int:
    """How deep the brackets of JSON ``text`` nest (those inside strings skipped), without recursion and in
    time linear in the text (the loops run in C: a 20 MB file of brackets takes a fraction of a second).

    >>> depth('{"a": "[[[", "b": [[1], {"c": "\\\\"}]}'), depth("[" * 10**6)
    (3, 1000000)
    """
    steps = _NOT_BRACKETS.sub("", _STRINGS.sub("", text)).encode("ascii").translate(_STEPS)
    return max(itertools.accumulate(array.array("b", steps)), default=0)


def _refuse_constant(name: str) -> object:
    raise Unreadable(f"it holds {name}, which is not a JSON number")


def loads(data: bytes | str, *, max_bytes: int = MAX_REPLY, max_depth: int = MAX_DEPTH) -> Any:
    """JSON ``data`` read only if it is at most ``max_bytes`` long and ``max_depth`` deep (Unreadable otherwise)."""
    if len(data) > max_bytes:
        raise Unreadable(f"it is larger than {max_bytes:,} bytes")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise Unreadable("it is not UTF-8 text") from None
    if depth(text) > max_depth:  # stops at the first bracket too deep: 100,000 cost nothing
        raise Unreadable(f"it is nested more than {max_depth} deep")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except Unreadable:
        raise
    except (ValueError, RecursionError, MemoryError) as error:  # malformed, or a number too long to read
        raise Unreadable("it is not well-formed JSON") from error


@dataclass
class _Budget:
    left: int = MAX_VALUES


def _hashable(value: object, what: str) -> object:
    try:
        hash(value)
    except TypeError:
        raise Unreadable(f"it holds a {what} with a list, set or dict inside, which cannot be one") from None
    return value


def _whole(value: object) -> int:
    if type(value) is not int:
        raise Unreadable("it holds a fraction that is not two whole numbers")
    return value


def decode(value: object, level: int = 0, budget: _Budget | None = None) -> object:
    """A plain value of the worker (:func:`~.grade_worker.plain`) as Python, every type checked.

    Whole numbers, text, None, lists, and ``{"tuple" | "set" | "fraction" | "bool" | "float" | "dict" |
    "ellipsis": ...}``; the markers ``{"missing" | "function" | "timeout" | "error": ...}`` are kept as
    they are (None for missing).  Anything else raises :class:`Unreadable`.

    >>> decode({"dict": [["a", {"fraction": [2, 4]}]]})
    {'a': Fraction(1, 2)}
    >>> decode({"set": [[1]]})
    Traceback (most recent call last):
    ...
    duel_lessons.teaching.bounded_json.Unreadable: it holds a set with a list, set or dict inside, which cannot be one
    """
    budget = budget if budget is not None else _Budget()
    budget.left -= 1
    if budget.left < 0:
        raise Unreadable(f"it holds more than {MAX_VALUES:,} values")
    if level > MAX_DEPTH:
        raise Unreadable(f"it is nested more than {MAX_DEPTH} deep")
    kind = type(value)
    if value is None or kind is int:
        return value
    if kind is str:
        if len(value) > MAX_TEXT:  # type: ignore[arg-type]
            raise Unreadable(f"it holds a text longer than {MAX_TEXT:,} characters")
        return value
    if kind is list:
        if len(value) > MAX_ITEMS:  # type: ignore[arg-type]
            raise Unreadable(f"it holds a list longer than {MAX_ITEMS:,} items")
        return [decode(v, level + 1, budget) for v in value]  # type: ignore[attr-defined]
    if kind is not dict or len(value) != 1:  # type: ignore[arg-type]
        raise Unreadable(f"it holds a {kind.__name__} the answers never hold")
    ((tag, inner),) = value.items()  # type: ignore[attr-defined]
    if tag in ("tuple", "set", "dict"):
        if type(inner) is not list or len(inner) > MAX_ITEMS:
            raise Unreadable(f"it holds a {tag} that is not a list of at most {MAX_ITEMS:,} items")
        items = [decode(v, level + 1, budget) for v in inner]
        if tag == "tuple":
            return tuple(items)
        if tag == "set":
            return {_hashable(v, "set") for v in items}
        pairs = [p for p in items if type(p) is list and len(p) == 2]
        if len(pairs) != len(items):
            raise Unreadable("it holds a dict that is not a list of pairs")
        return {_hashable(k, "dict key"): v for k, v in pairs}
    if tag == "fraction":
        if type(inner) is not list or len(inner) != 2:
            raise Unreadable("it holds a fraction that is not two whole numbers")
        top, bottom = _whole(inner[0]), _whole(inner[1])
        if bottom == 0:
            raise Unreadable("it holds a fraction with denominator 0")
        return Fraction(top, bottom)
    if tag == "bool" and type(inner) is bool:
        return inner
    if tag == "float" and type(inner) is str and len(inner) <= 40:
        try:
            return float(inner)
        except ValueError:
            raise Unreadable("it holds a decimal number that cannot be read") from None
    if tag == "ellipsis" and inner is True:
        return ...
    if tag in MARKERS:
        return None if tag == "missing" else {tag: str(inner)[:200] if type(inner) in (str, bool) else "?"}
    raise Unreadable(f"it holds a value of an unknown kind ({str(tag)[:40]!r})")


@dataclass
class Reply:
    """The re-run's answers and rule values, checked; ``raw`` keeps each one's plain JSON for the judge."""

    answers: dict[str, object] = field(default_factory=dict)
    rules: dict[str, object] = field(default_factory=dict)
    raw_answers: dict[str, object] = field(default_factory=dict)
    raw_rules: dict[str, object] = field(default_factory=dict)


def parse_reply(data: bytes, *, max_rule_values: int = 100_000) -> Reply:
    """The last JSON line of the worker's output, checked whole: a :class:`Reply`, or Unreadable saying why.

    >>> parse_reply(b'noise\\n{"answers": {"check:1": [2, 3]}, "rules": {}}\\n').answers
    {'check:1': [2, 3]}
    >>> parse_reply(b'{"answers": {"check:1": {"set": [[1]]}}, "rules": {}}')
    Traceback (most recent call last):
    ...
    duel_lessons.teaching.bounded_json.Unreadable: it holds a set with a list, set or dict inside, which cannot be one
    """
    if len(data) > MAX_REPLY:
        raise Unreadable(f"it is larger than {MAX_REPLY:,} bytes")
    lines = [line for line in data.split(b"\n") if line.startswith(b"{")]
    if not lines:
        raise Unreadable("the run gave no answers")
    reply = loads(lines[-1])
    if type(reply) is not dict:
        raise Unreadable("it is not a JSON object")
    answers, rules = reply.get("answers", {}), reply.get("rules", {})
    if type(answers) is not dict or type(rules) is not dict:
        raise Unreadable("its answers or rules are not JSON objects")
    checked = Reply(raw_answers=answers, raw_rules=rules)
    budget = _Budget()
    for name, value in answers.items():
        checked.answers[name] = decode(value, 0, budget)
    for name, value in rules.items():
        if type(value) is list and len(value) > max_rule_values:
            raise Unreadable(f"a rule gave more than {max_rule_values:,} values")
        if type(value) is list:
            checked.rules[name] = [decode(v, 1, budget) for v in value]
        else:
            checked.rules[name] = decode(value, 0, budget)
    return checked
