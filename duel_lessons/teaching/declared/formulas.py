"""Computed values in a lesson's declarations: small formulas over the lesson's parameters, never ``eval``.

A declared answer that depends on the parameters is a formula, such as ``winning_moves(rules, win_from)``
or ``p_among(rules, big)``; a claim a counterexample refutes is a formula in ``n``, such as
``n % 2 == 1 or is_power_of_two(n)``.  A formula is read by Python's parser into a tree, and only
these parts of the tree are allowed:

- whole numbers, texts in quotes, lists ``[2, 3]``, ``True``/``False``;
- names of the lesson's parameters, and ``n`` where a formula is a test of one number;
- ``+ - * / // % **`` (``/`` is exact: ``1/2`` is one half), comparisons (``== != < <= > >= in``,
  ``not in``), ``and``, ``or``, ``not``,
  ``x if condition else y``, and ``list[i]``;
- calls of the functions in :data:`FUNCTIONS` (the solver and sympy's number theory, by name).

Everything else (attributes, lambdas, comprehensions, other names) is refused when the file is read,
with the formula's text in the message.  Numbers are bounded (:data:`MAX_BITS`), and so are lists and
ranges (:data:`MAX_ITEMS`), so a formula cannot hang the lesson.

>>> evaluate("winning_moves(rules, start)", {"rules": "divisor-duel", "start": 84})
[3, 7, 21]
>>> try:
...     evaluate("[m for m in range(9)]", {})
... except FormulaError as error:
...     print(error)
'[m for m in range(9)]': a list comprehension is not allowed in a formula.
>>> test = predicate("n % 2 == 1 or is_power_of_two(n)", {})
>>> [m for m in range(1, 10) if not test(m)]
[6]
"""

from __future__ import annotations

import ast
import functools
import operator
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import sympy

from duel_lessons.engine.numbers import is_power_of_two, odd_part
from duel_lessons.engine.rules import DuelError, Rules, get_rules
from duel_lessons.solving.oracle import oracle

#: The largest number (in bits) a formula may make, and the longest list or range.
MAX_BITS = 4096
MAX_ITEMS = 100_000
#: The longest formula read.
MAX_LENGTH = 500


class FormulaError(DuelError):
    """A formula that is not allowed, or that cannot be worked out: the message quotes it."""


def _rules(value: object) -> Rules:
    if isinstance(value, Rules):
        return value
    if not isinstance(value, str):
        raise FormulaError(f"{value!r} is not the name of a rule book.")
    return get_rules(value)


def _items(values: object) -> list[Any]:
    if isinstance(values, (list, tuple, range)):
        return list(values)
    raise FormulaError(f"{values!r} is not a list.")


def _number(value: object) -> int:
    if type(value) is not int:
        raise FormulaError(f"{value!r} is not a whole number.")
    return value


def _positions(rules: object, numbers: Iterable[int], want_p: bool) -> list[int]:
    ask = oracle(_rules(rules))
    return [n for n in numbers if ask.is_p(_number(n)) == want_p]


def _range(*bounds: int) -> range:
    made = range(*(_number(b) for b in bounds))
    if len(made) > MAX_ITEMS:
        raise FormulaError(f"a range of {len(made):,} numbers is too long (at most {MAX_ITEMS:,}).")
    return made


def _mex(values: object) -> int:
    seen = set(_items(values))
    return next(m for m in range(len(seen) + 1) if m not in seen)


def _xor(values: object) -> int:
    return functools.reduce(operator.xor, (_number(v) for v in _items(values)), 0)


def _first_p_above(rules: object, n: int) -> int:
    ask, start = oracle(_rules(rules)), _number(n) + 1
    found = next((m for m in range(start, start + MAX_ITEMS) if ask.is_p(m)), None)
    if found is None:
        raise FormulaError(f"no P-position among the {MAX_ITEMS:,} numbers after {start - 1}.")
    return found


#: The functions a formula may call, by name: (the function, what it gives, for the authoring guide).
FUNCTIONS: dict[str, tuple[Callable[..., Any], str]] = {
    "is_p": (lambda r, n: oracle(_rules(r)).is_p(_number(n)), "whether n loses for the player to move (a P-position)"),
    "outcome": (lambda r, n: oracle(_rules(r)).outcome(_number(n)), '"P" or "N" for n'),
    "moves": (lambda r, n: sorted(_rules(r).divisors_of(_number(n))), "the moves allowed from n"),
    "winning_moves": (lambda r, n: sorted(oracle(_rules(r)).winning_moves(_number(n))), "every winning move from n"),
    "winning_move": (
        lambda r, n: oracle(_rules(r)).winning_move(_number(n)),
        "a winning move from n: the fastest (ties to the smallest)",
    ),
    "grundy": (lambda r, n: oracle(_rules(r)).grundy(_number(n)), "the Grundy value of n"),
    "remoteness": (lambda r, n: oracle(_rules(r)).remoteness(_number(n)), "the remoteness of n"),
    "p_among": (lambda r, ns: _positions(r, _items(ns), True), "the P-positions among a list of numbers"),
    "n_among": (lambda r, ns: _positions(r, _items(ns), False), "the N-positions among a list of numbers"),
    "p_positions": (lambda r, upto: _positions(r, _range(1, _number(upto) + 1), True), "the P-positions 1 .. upto"),
    "first_p_above": (_first_p_above, "the smallest P-position above n"),
    "reached": (
        lambda r, n: sorted({_rules(r).result(_number(n), d) for d in _rules(r).divisors_of(_number(n))}),
        "the numbers a move from n can leave",
    ),
    "grundies": (
        lambda r, ns: [oracle(_rules(r)).grundy(_number(m)) for m in _items(ns)],
        "the Grundy value of each number of a list",
    ),
    "outcomes": (
        lambda r, ns: [oracle(_rules(r)).outcome(_number(m)) for m in _items(ns)],
        '"P" or "N" for each number of a list',
    ),
    "divisors": (lambda n: [int(d) for d in sympy.divisors(_number(n))], "the divisors of n, 1 and n included"),
    "proper_divisors": (lambda n: [int(d) for d in sympy.divisors(_number(n))[1:-1]], "the divisors of n but 1 and n"),
    "divisor_count": (lambda n: int(sympy.divisor_count(_number(n))), "how many divisors n has"),
    "prime_factors": (
        lambda n: [int(p) for p, k in sorted(sympy.factorint(_number(n)).items()) for _ in range(k)],
        "the prime factors of n, repeated: 12 gives [2, 2, 3]",
    ),
    "distinct_primes": (lambda n: [int(p) for p in sympy.primefactors(_number(n))], "the primes dividing n"),
    "omega": (lambda n: int(sum(sympy.factorint(_number(n)).values())), "how many prime factors n has, repeated"),
    "is_prime": (lambda n: bool(sympy.isprime(_number(n))), "whether n is prime"),
    "primes": (
        lambda upto: [int(p) for p in sympy.primerange(2, _range(0, _number(upto) + 1).stop)],
        "the primes up to upto",
    ),
    "odd_part": (lambda n: odd_part(_number(n)), "n with every factor 2 taken out"),
    "is_power_of_two": (lambda n: is_power_of_two(_number(n)), "whether n is 1, 2, 4, 8, ..."),
    "mex": (_mex, "the smallest whole number (0, 1, ...) not in the list"),
    "xor": (_xor, "the nim-sum (XOR) of a list of numbers"),
    "count": (lambda xs: len(_items(xs)), "how many items a list has"),
    "total": (lambda xs: sum(_number(x) for x in _items(xs)), "the sum of a list of numbers"),
    "smallest": (lambda xs: min(_items(xs)), "the smallest item of a list"),
    "largest": (lambda xs: max(_items(xs)), "the largest item of a list"),
    "range": (_range, "the numbers a, a + 1, ..., b - 1 (as range(a, b))"),
    "sorted": (lambda xs: sorted(_items(xs)), "a list in increasing order"),
    "same": (
        lambda xs, ys: sorted(set(_items(xs))) == sorted(set(_items(ys))),
        "whether two lists hold the same items",
    ),
    "without": (lambda xs, ys: [x for x in _items(xs) if x not in _items(ys)], "the items of a list not in another"),
    "both": (lambda xs, ys: [x for x in _items(xs) if x in _items(ys)], "the items of a list that are in another"),
}

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: lambda a, b: Fraction(a) / Fraction(b),  # exact: 1/2 is one half, never 0.49999
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_WORDS = {
    ast.ListComp: "a list comprehension",
    ast.Attribute: "an attribute (a dot)",
    ast.Lambda: "a lambda",
    ast.GeneratorExp: "a generator",
}


def parse(text: str, names: Iterable[str] = ()) -> ast.expr:
    """The tree of formula ``text``, checked: only the parts allowed, only ``names`` and known functions.

    ``names`` (such as ``n``) are only documentation here: names are checked when the formula is worked
    out, against the lesson's parameters.  A FormulaError quotes the formula and says what is not allowed.

    >>> parse("odd_part(n) + 1", ["n"]).__class__.__name__
    'BinOp'
    >>> try:
    ...     parse("globals()")
    ... except FormulaError as error:
    ...     print(error)
    'globals()': globals is not a function a formula may call (see FUNCTIONS).
    """
    if not isinstance(text, str) or not text.strip():
        raise FormulaError(f"{text!r}: write the formula as text in quotes.")
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"a formula of {len(text)} characters is too long (at most {MAX_LENGTH}).")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as error:
        raise FormulaError(f"{text!r}: not a formula ({error.msg}).") from None
    for node in ast.walk(tree):
        _allowed(node, text)
    return tree


def _allowed(node: ast.AST, text: str) -> None:
    simple = (ast.Constant, ast.Name, ast.List, ast.Tuple, ast.BoolOp, ast.UnaryOp, ast.IfExp, ast.Compare)
    grammar = (ast.Load, ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd, ast.BinOp, ast.Subscript, *_BINARY, *_COMPARE)
    if isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in FUNCTIONS or node.keywords:
            shown = name or ast.unparse(node.func)
            raise FormulaError(f"{text!r}: {shown} is not a function a formula may call (see FUNCTIONS).")
    elif isinstance(node, ast.Constant) and not isinstance(node.value, (int, str)):
        raise FormulaError(f"{text!r}: {node.value!r} is not allowed in a formula (numbers, texts and lists are).")
    elif isinstance(node, ast.Name) and node.id.startswith("_"):
        raise FormulaError(f"{text!r}: a name may not start with _ ({node.id}).")
    elif not isinstance(node, simple + grammar):
        what = _WORDS.get(type(node), type(node).__name__)
        raise FormulaError(f"{text!r}: {what} is not allowed in a formula.")


def _bounded(value: Any) -> Any:
    if type(value) is int and value.bit_length() > MAX_BITS:
        raise FormulaError(f"a number of {value.bit_length():,} bits is too big for a formula.")
    if isinstance(value, (list, tuple, range)) and len(value) > MAX_ITEMS:
        raise FormulaError(f"a list of {len(value):,} items is too long for a formula.")
    return value


def _power(base: Any, exponent: Any) -> Any:
    if type(base) is int and type(exponent) is int and exponent > 0 and base.bit_length() * exponent > MAX_BITS:
        raise FormulaError(f"{base} ** {exponent} is too big for a formula.")
    return base**exponent


def _value(node: ast.expr, names: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):  # True and False are constants to Python's parser
        if node.id not in names:
            raise FormulaError(f"{node.id} is not a parameter of the lesson here (known: {', '.join(sorted(names))}).")
        return names[node.id]
    if isinstance(node, (ast.List, ast.Tuple)):
        return _bounded([_value(x, names) for x in node.elts])
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left, names), _value(node.right, names)
        do = _power if isinstance(node.op, ast.Pow) else _BINARY[type(node.op)]
        return _bounded(do(left, right))
    if isinstance(node, ast.UnaryOp):
        inner = _value(node.operand, names)
        return not inner if isinstance(node.op, ast.Not) else -inner if isinstance(node.op, ast.USub) else +inner
    if isinstance(node, ast.BoolOp):  # as Python: the first value that settles it, else the last
        for item in node.values[:-1]:
            result = _value(item, names)
            if bool(result) != isinstance(node.op, ast.And):
                return result
        return _value(node.values[-1], names)
    if isinstance(node, ast.Compare):
        left = _value(node.left, names)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _value(right_node, names)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return _value(node.body if _value(node.test, names) else node.orelse, names)
    if isinstance(node, ast.Subscript):
        return _items(_value(node.value, names))[_number(_value(node.slice, names))]
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)  # the only node left (see _allowed)
    function = FUNCTIONS[node.func.id][0]
    return _bounded(function(*(_value(x, names) for x in node.args)))


def evaluate(text: str, names: Mapping[str, Any]) -> Any:
    """The value of formula ``text`` for the lesson's parameters (and any other ``names``).

    >>> evaluate("p_among(rules, [15, 16, 21, 32])", {"rules": "divisor-duel"})
    [15, 21, 32]
    >>> evaluate("2 ** 5000", {})
    Traceback (most recent call last):
    ...
    duel_lessons.teaching.declared.formulas.FormulaError: '2 ** 5000': 2 ** 5000 is too big for a formula.
    """
    tree = parse(text)
    try:
        return _value(tree, names)
    except FormulaError as error:
        message = str(error)
        raise FormulaError(message if message.startswith(repr(text)) else f"{text!r}: {message}") from None
    except (ArithmeticError, TypeError, ValueError, IndexError, DuelError) as error:
        raise FormulaError(f"{text!r}: cannot be worked out ({error}).") from None


def function(text: str, names: Mapping[str, Any], variable: str = "n") -> Callable[[Any], Any]:
    """Formula ``text`` as a function of ``variable`` (``n``): its value, for the lesson's parameters.

    >>> function("outcome(rules, n)", {"rules": "divisor-duel"})(6)
    'N'
    """
    tree = parse(text)  # the names are checked when it is worked out, with the variable among them

    def value(x: Any) -> Any:
        try:
            return _value(tree, {**names, variable: x})
        except FormulaError as error:
            raise FormulaError(f"{text!r} at {variable} = {x}: {error}") from None
        except (ArithmeticError, TypeError, ValueError, IndexError, DuelError) as error:
            raise FormulaError(f"{text!r} at {variable} = {x}: cannot be worked out ({error}).") from None

    return value


def predicate(text: str, names: Mapping[str, Any], variable: str = "n") -> Callable[[int], bool]:
    """A test of one number: formula ``text`` in ``variable`` (``n``), for the lesson's parameters.

    >>> predicate("is_p(rules, n)", {"rules": "divisor-duel"})(9)
    True
    """
    worked = function(text, names, variable)
    return lambda value: bool(worked(value))
