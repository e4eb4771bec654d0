"""Student answers as plain values, and in words: what every check compares and shows.

:func:`plain` turns an answer into an exact ``int``, ``float``, ``str``, ``bool``, ``Fraction``, or a
list, tuple, set or dict of those, before any comparison, so that a value of the student's own class
learns nothing from being compared and passes nothing by saying it equals everything; :func:`show`
puts a value into bounded words (a huge number is described, not written out).  :func:`strict` says
whether errors inside checks are raised (the test suite) or turned into notices (a classroom).
"""

from __future__ import annotations

import math
import os
import sys
import types
from fractions import Fraction
from itertools import islice
from typing import Any

from duel_lessons.engine.rules import MAX_NUMBER

#: The longest list a check reads (a generator that never ends must not hang the kernel).
MAX_ITEMS = 10_000
#: The longest text of a student's value that feedback shows.
MAX_SHOWN = 200


#: Set to "1" (the test suite does, in conftest.py) to make a check's own error, a misconception test that
#: breaks, or a model answer that fails its check an error instead of a notice: bugs in checks show up.
STRICT = "DUEL_LESSONS_STRICT_SOLUTIONS"


def strict() -> bool:
    """Whether errors inside checks are raised (the test suite) rather than turned into a notice (a classroom)."""
    return os.environ.get(STRICT) == "1"


class Unreadable:
    """A student's value that no check reads: an object of their own class, a number too big to be an answer.

    It equals only itself, so no comparison passes it.

    >>> u = Unreadable("a Spy object")
    >>> u == u, u == 3, repr(u)
    (True, False, 'a Spy object')
    """

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what

    def __repr__(self) -> str:
        return self.what

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__


#: A whole number beyond ±10**18 with at most this many digits keeps its value, for a check whose question
#: allows numbers of any size (lesson 01: "a number above 10¹² with exactly one divisor 1 < d < n").
LARGE_DIGITS = 1000


class LargeNumber(Unreadable):
    """A whole number beyond ±10**18: unreadable like any :class:`Unreadable` (it equals only itself), but a
    check whose question allows numbers of any size may read its exact ``value``.

    >>> big = plain(10**30 + 7)
    >>> big == 10**30 + 7, big.value == 10**30 + 7, big
    (False, True, a number with about 31 digits)
    >>> isinstance(plain(10**5000), LargeNumber)
    False
    """

    __slots__ = ("value",)

    def __init__(self, what: str, value: int) -> None:
        super().__init__(what)
        self.value = value


def _digits(value: int) -> int:
    """About how many decimal digits ``value`` has (never converts it to text)."""
    return max(1, int(abs(value).bit_length() * math.log10(2)) + 1)


def _too_big(value: int) -> Unreadable:
    what = f"a number with about {_digits(value):,} digits"
    return LargeNumber(what, value) if _digits(value) <= LARGE_DIGITS else Unreadable(what)


def _plain_int(value: int) -> int | Unreadable:
    return value if -MAX_NUMBER <= value <= MAX_NUMBER else _too_big(value)


def plain(value: object, depth: int = 4) -> Any:
    """``value`` as a plain value that a check can compare safely.

    Exact ``int`` (via ``int``'s own conversion, whatever the student's class overrides; beyond
    ±10**18 an :class:`Unreadable`), ``float``, ``str``, ``bool``, ``Fraction``; lists, tuples,
    sets and dicts of those (at most ``MAX_ITEMS + 1`` items are read, so an endless generator
    stops); numpy numbers and arrays as Python ones; functions and the package's own objects as
    they are; anything else as an :class:`Unreadable`.

    >>> class Spy(int):
    ...     def __eq__(self, other): raise AssertionError("compared")
    >>> type(plain(Spy(3))), plain([Spy(3), "P"])
    (<class 'int'>, [3, 'P'])
    >>> class Liar:
    ...     def __eq__(self, other): return True
    >>> plain(Liar()) == "P"
    False
    >>> plain(10**5000)
    a number with about 5,001 digits
    """
    if value is None or value is ...:
        return value
    kind = type(value)
    if kind in (bool, str, float, Fraction):
        return value
    if kind is int:
        return _plain_int(value)  # type: ignore[arg-type]
    if isinstance(value, int):  # a subclass: int's own conversion ignores what it overrides
        return _plain_int(int.__index__(value))
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, Fraction):
        slots: Any = Fraction  # read Fraction's own slots, whatever a subclass overrides
        return Fraction(plain(slots._numerator.__get__(value)), plain(slots._denominator.__get__(value)))
    module = getattr(kind, "__module__", "") or ""
    if module == "numpy" or module.startswith("numpy."):
        import numpy as np

        if isinstance(value, np.bool_):
            return bool(value)
        if isinstance(value, np.integer):
            return _plain_int(int(value))
        if isinstance(value, np.floating):
            return float(value)
        if isinstance(value, np.ndarray):
            return plain(
                value.ravel()[: MAX_ITEMS + 1].tolist() if value.ndim != 1 else value[: MAX_ITEMS + 1].tolist(), depth
            )
        return Unreadable(f"a numpy {kind.__name__}")
    if depth <= 0:
        return Unreadable("a value nested too deep")
    try:
        if isinstance(value, list):
            return [plain(x, depth - 1) for x in islice(list.__iter__(value), MAX_ITEMS + 1)]
        if isinstance(value, tuple):
            return tuple(plain(x, depth - 1) for x in islice(tuple.__iter__(value), MAX_ITEMS + 1))
        if isinstance(value, frozenset):
            return frozenset(plain(x, depth - 1) for x in islice(frozenset.__iter__(value), MAX_ITEMS + 1))
        if isinstance(value, set):
            return {plain(x, depth - 1) for x in islice(set.__iter__(value), MAX_ITEMS + 1)}
        if isinstance(value, dict):
            return {plain(k, depth - 1): plain(v, depth - 1) for k, v in islice(dict.items(value), MAX_ITEMS + 1)}
        if isinstance(value, (range, types.MappingProxyType)):
            return plain(
                list(value)
                if isinstance(value, range) and len(value) <= MAX_ITEMS
                else dict(value)
                if isinstance(value, types.MappingProxyType)
                else list(islice(value, MAX_ITEMS + 1)),
                depth,
            )
        if (
            isinstance(value, (types.GeneratorType, map, filter, zip, enumerate, reversed))
            or kind.__module__ == "itertools"
        ):
            return [plain(x, depth - 1) for x in islice(value, MAX_ITEMS + 1)]  # type: ignore[call-overload]
    except Exception as error:  # a generator that stops with an error, a dict whose keys cannot be hashed
        if strict() and not isinstance(error, (TypeError, ValueError, ArithmeticError)):
            raise
        return Unreadable(f"a value that could not be read ({type(error).__name__})")
    if isinstance(value, (types.BuiltinFunctionType, types.BuiltinMethodType)):
        return value
    if _ours(kind):
        return value  # the package's own objects (rules, players, ...), not a subclass made elsewhere
    if callable(value) and kind.__eq__ is object.__eq__:
        return value  # a student's function (a rule, a bot): called, never compared
    return Unreadable(f"a {kind.__name__} object")


def _ours(kind: type) -> bool:
    """Whether ``kind`` is a class of this package, found under its own name in its own module."""
    module = str(getattr(kind, "__module__", ""))
    if module != "duel_lessons" and not module.startswith("duel_lessons."):
        return False
    home = sys.modules.get(module)
    return home is not None and getattr(home, str(getattr(kind, "__name__", "")), None) is kind


def show(value: object) -> str:
    """A student's value in words, as they typed it (bounded: a huge number is described, not written).

    >>> show([3, 1]), show("P"), show([2**20000])
    ('[3, 1]', "'P'", '[a number with about 6,021 digits]')
    """
    text = _show(plain(value), 3)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def _show(value: object, depth: int) -> str:
    if isinstance(value, (set, frozenset)):
        try:
            value = sorted(value)
        except TypeError:
            value = list(value)
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_show(x, depth - 1) for x in value[:MAX_SHOWN]) if depth > 0 else "..."
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, dict):
        inner = ", ".join(f"{_show(k, 0)}: {_show(v, depth - 1)}" for k, v in list(value.items())[:MAX_SHOWN])
        return "{" + inner + "}"
    if isinstance(value, str):
        return repr(value[: MAX_SHOWN + 1])
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, (bool, int, float, Unreadable)) or value is None or value is ...:
        return repr(value)
    name = getattr(value, "__name__", None)
    if not isinstance(name, str):
        return f"a {type(value).__name__}"
    module = getattr(value, "__module__", None)
    if isinstance(module, str) and module.startswith("duel_lessons."):
        return f"{name} (the function in {module})"  # the package's own: its module, where a reader finds it
    code = getattr(value, "__code__", None)
    line = getattr(code, "co_firstlineno", None)
    return f"{name} (a function, line {line} of its cell or file)" if isinstance(line, int) else name
