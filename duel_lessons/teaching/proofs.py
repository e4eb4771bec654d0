"""Proof steps the student builds, each judged like every other check (a :class:`~.feedback.Verdict`).

- :func:`expect_order`: a Parsons problem, the proof's lines put in order (with plausible wrong lines mixed in);
- :func:`expect_expression`: an algebraic step typed as text, read by a safe parser (never ``eval``) and
  compared with sympy; a wrong one is refuted by the first case where the values differ;
- :func:`expect_counterexample`: the smallest number where a plausible false lemma fails;
- :func:`expect_step`: which step of a flawed proof fails, and a number that shows it.

Every helper first turns the answer into a plain value (:func:`~.feedback.plain`).

>>> lines = {"A": "d divides N", "B": "so N - d = d(N/d - 1)", "C": "so d divides N - d"}
>>> expect_order(["A", "B", "C"], lines=lines, proof=["A", "B", "C"]).kind
'right'
>>> expect_expression("d*(N/d - 1)", "N - d", names=["N", "d"], cases=[{"N": 12, "d": 3}]).kind
'right'
>>> expect_expression("d*(N - 1)", "N - d", names=["N", "d"], cases=[{"N": 12, "d": 3}]).message
'For N = 12, d = 3 your expression is 33, but it should equal 9.'
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from duel_lessons.teaching.feedback import (
    Misconception,
    Unreadable,
    Verdict,
    as_whole,
    is_unanswered,
    plain,
    right,
    show,
    unanswered,
)

#: The longest expression text read, and the most AST nodes in it.
MAX_TEXT = 300
MAX_NODES = 120
#: The biggest constant exponent (``9**9**9`` is refused at once) and the biggest whole number written.
MAX_EXPONENT = 64
MAX_CONSTANT = 10**18
#: A value bigger than this many bits, met while evaluating an expression at a case, is refused.
MAX_BITS = 4096

ORDER_HINT = "For each line, ask what it relies on: that must come earlier. The conclusion comes last."
ORDER_STRONGER = (
    "Start with the lines that rely on nothing but the set-up; add a line only once everything it uses is "
    "already above it; leave out any line that is not true."
)


def _as_label(value: object) -> str | None:
    return value if type(value) is str else None


def expect_order(
    answer: object,
    *,
    lines: Mapping[str, str],
    proof: Sequence[str],
    uses: Mapping[str, Collection[str]] | None = None,
    wrong: Mapping[str, str] | None = None,
    hint: str = ORDER_HINT,
    stronger: str = ORDER_STRONGER,
    shows: Mapping[str, str] | None = None,
) -> Verdict:
    """A Parsons problem: ``answer`` lists labels of ``lines`` in the order of the proof.

    ``proof`` is a right order of the right lines; ``uses[x]`` are the lines that ``x`` relies on
    (any order that respects them and ends with the conclusion ``proof[-1]`` is right; without
    ``uses`` each line relies on the one before it); ``wrong[x]`` says why the plausible wrong
    line ``x`` is wrong, told only when the student includes it.  ``shows[d]`` says in other words
    what line ``d`` establishes: a line used too early or never is then named by that fact, not by
    its label, so the student reads the mathematics to find it (a program that only moves the
    labels it is told about cannot finish).

    >>> facts = {"A": "N is odd", "B": "the divisors of N are odd"}
    >>> expect_order(["B", "A", "C"], lines={"A": "a", "B": "b", "C": "c"}, proof=["A", "B", "C"], shows=facts).message
    'Your proof uses that N is odd before it shows it.'

    >>> lines = {"A": "N is odd", "B": "every divisor d of N is odd", "C": "N - d is even", "D": "N - d is odd"}
    >>> kw = dict(lines=lines, proof=["A", "B", "C"], uses={"B": ["A"], "C": ["B"]}, wrong={"D": "odd - odd is even."})
    >>> expect_order(["A", "B", "C"], **kw).kind
    'right'
    >>> v = expect_order(["B", "A", "C"], **kw)
    >>> v.kind, v.message
    ('partial', 'Line B uses line A, which comes after it.')
    >>> expect_order(["A", "B", "D"], **kw).hint
    'Line D is not true: odd - odd is even.'
    >>> expect_order(["A", "B"], **kw).message
    'Every line you have is in a good place, but the proof is not finished: 1 line is missing.'
    >>> expect_order(["a", "b", "c"], **kw).kind, expect_order("ABC", **kw).kind
    ('format', 'format')
    """
    uses = dict(uses) if uses else {b: (a,) for a, b in itertools.pairwise(proof)}
    wrong = dict(wrong or {})
    labels = list(lines)
    example = ", ".join(repr(x) for x in labels[:3])
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    if not isinstance(answer, (list, tuple)):
        return Verdict(
            "format", f"Give a list of line labels in order, like [{example}, ...].", key="format:not-a-list"
        )
    order = [_as_label(x) for x in answer]
    if any(x is None for x in order):
        return Verdict("format", f"Each line is given by its label in quotes, like {labels[0]!r}.", key="format:label")
    chosen = [x for x in order if x is not None]
    unknown = [x for x in chosen if x not in lines]
    if unknown:
        if all(x.strip().upper() in {y.upper() for y in labels} for x in unknown):
            return Verdict(
                "format", f"Write each label exactly as shown: {', '.join(map(repr, labels))}.", key="format:case"
            )
        return Verdict(
            "format", f"{show(unknown[0])} is not a label here: use {', '.join(map(repr, labels))}.", key="format:label"
        )
    if len(set(chosen)) != len(chosen):
        return Verdict("format", "Use each line at most once.", key="format:repeat")
    for x in chosen:
        if x not in proof and x in wrong:
            return Verdict(
                "misconception",
                f"Your proof uses line {x}.",
                f"Line {x} is not true: {wrong[x]}",
                f"Line {x} does not belong in the proof ({wrong[x]}) Take it out and order the rest.",
                f"wrong:{x}",
            )
    for x in chosen:
        if x not in proof:
            return Verdict(
                "misconception",
                f"Your proof uses line {x}.",
                f"Line {x} is not a step of this proof.",
                f"Line {x} does not belong in the proof: take it out and order the rest.",
                f"wrong:{x}",
            )
    done: set[str] = set()
    for x in chosen:
        for d in uses.get(x, ()):
            if d not in done:
                fact = (shows or {}).get(d)
                if d in chosen:
                    key = f"order:{x}:{d}"
                    message = (
                        f"Your proof uses that {fact} before it shows it."
                        if fact
                        else f"Line {x} uses line {d}, which comes after it."
                    )
                else:
                    key = f"missing:{d}"
                    message = (
                        f"Your proof uses that {fact}, but no line of yours shows it."
                        if fact
                        else f"Line {x} uses line {d}, which is not in your proof."
                    )
                return Verdict("partial", message, hint, stronger, key)
        done.add(x)
    missing = [x for x in proof if x not in done]
    if missing:
        count = f"{len(missing)} line{'s are' if len(missing) > 1 else ' is'} missing"
        message = f"Every line you have is in a good place, but the proof is not finished: {count}."
        return Verdict("partial", message, hint, stronger, f"short:{len(missing)}")
    if chosen[-1] != proof[-1]:
        return Verdict(
            "partial",
            f"The right lines, but a proof ends with what it proves: does line {chosen[-1]} say that?",
            hint,
            stronger,
            "conclusion",
        )
    return right()


class ExpressionError(ValueError):
    """Text that is not an expression this checker reads (the message says what could not be read)."""


_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)


def _is_factor(node: ast.expr, names: Sequence[str]) -> bool:
    """Whether ``node`` could be the first factor of a product typed without ``*``: a name here, a number, a bracket."""
    if isinstance(node, ast.Name):
        return node.id in names
    return isinstance(node, (ast.Constant, ast.BinOp, ast.UnaryOp))


#: A decimal written out, such as 0.5 or 2.25: read exactly, as a fraction (1e3 and 1.5e2 are not read).
_DECIMAL = re.compile(r"\d{1,18}\.\d{1,18}|\.\d{1,18}")


def _exact_decimals(tree: ast.Expression, source: str) -> ast.Expression:
    """``tree`` with each decimal written out (``0.5``) replaced by the exact fraction it stands for (``1/2``).

    >>> ast.unparse(_exact_decimals(ast.parse("0.5*(1 - q)", mode="eval"), "0.5*(1 - q)"))
    '1 / 2 * (1 - q)'
    """

    class Exact(ast.NodeTransformer):
        def visit_Constant(self, node: ast.Constant) -> ast.expr:
            segment = ast.get_source_segment(source, node) or ""
            if type(node.value) is float and _DECIMAL.fullmatch(segment):
                value = Fraction(segment)
                return ast.copy_location(
                    ast.BinOp(ast.Constant(value.numerator), ast.Div(), ast.Constant(value.denominator)), node
                )
            return node

    exact: ast.Expression = ast.fix_missing_locations(Exact().visit(tree))
    return exact


def _read(text: str, names: Sequence[str]) -> ast.expr:
    """The AST of an arithmetic expression in ``names``; ExpressionError, naming the problem, if it is not one."""
    if len(text) > MAX_TEXT:
        raise ExpressionError(f"That is longer than {MAX_TEXT} characters.")
    source = text.strip().replace("^", "**").replace("×", "*").replace("·", "*").replace("−", "-").replace("÷", "/")
    if not source:
        raise ExpressionError("That is empty: type an expression, such as 3*(a + b).")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        slip = re.search(r"(\d\s*[A-Za-z(])|(\)\s*[A-Za-z0-9(])", source)
        if slip:
            raise ExpressionError(
                f"Write * for every product: {slip.group(0)[0]}*{slip.group(0)[-1]}, not {slip.group(0)}."
            ) from None
        raise ExpressionError("Those brackets or signs do not make an expression: check each ( has its ).") from None
    tree = _exact_decimals(tree, source)
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise ExpressionError("That expression is too long: a shorter one says the same.")
    for node in nodes:
        if isinstance(node, (ast.Expression, ast.Load, ast.UAdd, ast.USub, *_OPERATORS)):
            continue
        if isinstance(node, ast.BinOp) and isinstance(node.op, _OPERATORS):
            continue
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
            continue
        if isinstance(node, ast.Constant) and type(node.value) is int:
            if node.value > MAX_CONSTANT:
                raise ExpressionError("That number is too big for this step.")
            continue
        if isinstance(node, ast.Name) and node.id in names:
            continue
        if isinstance(node, ast.Call) and not node.keywords and _is_factor(node.func, names):
            factor = ast.get_source_segment(source, node.func) or "..."
            if isinstance(node.func, (ast.BinOp, ast.UnaryOp)):
                factor = f"({factor})"  # 2(n) and (n - 1)(n + 1) parse as calls: a missing *
            raise ExpressionError(f"Write * for every product: {factor}*(...), not {factor}(...).")
        if isinstance(node, ast.Name):
            raise ExpressionError(f"{node.id!r} is not a name here: use {', '.join(names)}.")
        if isinstance(node, ast.Constant):
            raise ExpressionError(f"Use whole numbers only, not {node.value!r}.")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitXor):  # pragma: no cover - ^ is replaced
            continue
        part = ast.get_source_segment(source, node) or type(node).__name__
        raise ExpressionError(f"Could not read {part!r}: use numbers, {', '.join(names)}, + - * / ^ and brackets.")
    return tree.body


def _value(node: ast.expr, case: Mapping[str, int]) -> Fraction:
    """The exact value of a checked AST at ``case`` (ZeroDivisionError or ExpressionError if there is none)."""
    if isinstance(node, ast.Constant):
        return Fraction(int(node.value))  # type: ignore[arg-type]  # an int: _read allows nothing else
    if isinstance(node, ast.Name):
        return Fraction(case[node.id])
    if isinstance(node, ast.UnaryOp):
        inner = _value(node.operand, case)
        return -inner if isinstance(node.op, ast.USub) else inner
    assert isinstance(node, ast.BinOp)
    left, right_ = _value(node.left, case), _value(node.right, case)
    if isinstance(node.op, ast.Add):
        result = left + right_
    elif isinstance(node.op, ast.Sub):
        result = left - right_
    elif isinstance(node.op, ast.Mult):
        result = left * right_
    elif isinstance(node.op, ast.Div):
        result = left / right_
    else:
        if right_.denominator != 1:
            raise ExpressionError("An exponent there is not a whole number.")
        if abs(right_) > MAX_BITS:
            raise ExpressionError("An exponent there is too big to work out.")
        if (
            left.numerator.bit_length() * abs(right_) > MAX_BITS
            or left.denominator.bit_length() * abs(right_) > MAX_BITS
        ):
            raise ExpressionError("A power there is too big to work out.")
        result = left ** int(right_)
    if result.numerator.bit_length() > MAX_BITS or result.denominator.bit_length() > MAX_BITS:
        raise ExpressionError("A value there is too big to work out.")
    return result


def _sympy(node: ast.expr, symbols: Mapping[str, Any]) -> Any:
    """The sympy expression of a checked AST (a constant exponent above MAX_EXPONENT is refused)."""
    import sympy

    if isinstance(node, ast.Constant):
        return sympy.Integer(node.value)
    if isinstance(node, ast.Name):
        return symbols[node.id]
    if isinstance(node, ast.UnaryOp):
        inner = _sympy(node.operand, symbols)
        return -inner if isinstance(node.op, ast.USub) else inner
    assert isinstance(node, ast.BinOp)
    left, right_ = _sympy(node.left, symbols), _sympy(node.right, symbols)
    if isinstance(node.op, ast.Add):
        return left + right_
    if isinstance(node.op, ast.Sub):
        return left - right_
    if isinstance(node.op, ast.Mult):
        return left * right_
    if isinstance(node.op, ast.Div):
        return left / right_
    if right_.is_number and (not right_.is_integer or abs(right_) > MAX_EXPONENT):
        raise ExpressionError(f"Keep exponents to whole numbers up to {MAX_EXPONENT} (or a letter).")
    if not right_.is_number and any(p.is_Pow for p in sympy.preorder_traversal(right_)):
        raise ExpressionError("A power of a power is more than this step needs.")
    if left.is_Rational and right_.is_Integer:
        bits = max(int(left.p).bit_length(), int(left.q).bit_length()) * abs(int(right_))
        if bits > MAX_BITS:
            raise ExpressionError("That power is too big to work out.")
    power = sympy.Pow(left, right_)
    if power.is_Pow and power.exp.is_number and abs(power.exp) > MAX_EXPONENT:  # (x**64)**64 is x**4096
        raise ExpressionError(f"Keep exponents to whole numbers up to {MAX_EXPONENT} (or a letter).")
    return power


def parse_expression(text: str, names: Sequence[str]) -> Any:
    """``text`` as a sympy expression in ``names``, read by an allow-list (never eval); ``^`` is a power.

    >>> parse_expression("2^k*m - m", ["k", "m"])
    2**k*m - m
    >>> parse_expression("9**9**9", ["n"])
    Traceback (most recent call last):
    ...
    duel_lessons.teaching.proofs.ExpressionError: Keep exponents to whole numbers up to 64 (or a letter).
    >>> parse_expression("open(1)", ["n"])
    Traceback (most recent call last):
    ...
    duel_lessons.teaching.proofs.ExpressionError: Could not read 'open(1)': use numbers, n, + - * / ^ and brackets.
    """
    import sympy

    symbols = {name: sympy.Symbol(name, integer=True, positive=True) for name in names}
    return _sympy(_read(text, names), symbols)


def _equal(a: Any, b: Any) -> bool:
    import sympy

    difference = sympy.expand(a - b)
    if difference == 0:
        return True
    return bool(sympy.simplify(sympy.powsimp(sympy.together(difference), force=True)) == 0)


def _case_words(case: Mapping[str, int]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in case.items())


def _number_words(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def expect_expression(
    answer: object,
    target: str,
    *,
    names: Sequence[str],
    cases: Iterable[Mapping[str, int]],
    shape: Callable[[Any], str | None] | None = None,
    misconceptions: Sequence[Misconception] = (),
    hint: str = "",
    stronger: str = "",
) -> Verdict:
    """An algebraic step typed as text, right when sympy proves it equal to ``target`` (and ``shape`` is met).

    ``cases`` are values of ``names`` at which a wrong expression is refuted (the first where the values
    differ); ``shape(expr)`` returns None when the expression has the asked form, else what is missing
    ("write it as a product with the factor d"). A misconception's ``matches`` is an expression (text)
    or a function of the sympy expression.

    >>> kw = dict(names=["N", "d"], cases=[{"N": 12, "d": 3}, {"N": 20, "d": 5}])
    >>> expect_expression("N - d", "N - d", shape=lambda e: None if e.is_Mul else "Write it as a product.", **kw).kind
    'partial'
    >>> expect_expression("d(N/d - 1)", "N - d", **kw).message
    'Write * for every product: d*(...), not d(...).'
    >>> expect_expression(12, "N - d", **kw).kind
    'format'
    """
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    if type(answer) is not str:
        return Verdict("format", 'Type the expression as text in quotes, like "3*(a + b)".', key="format:not-text")
    try:
        tree = _read(answer, names)
        expr = parse_expression(answer, names)
    except ExpressionError as error:
        return Verdict("format", str(error), key="format:expression")
    want_tree = _read(target, names)
    want = parse_expression(target, names)
    for case in cases:
        try:
            theirs = _value(tree, case)
        except ZeroDivisionError:
            continue
        except ExpressionError as error:
            return Verdict("format", f"For {_case_words(case)}: {error}", key="format:expression")
        should = _value(want_tree, case)
        if theirs != should:
            for m in misconceptions:
                matches = m.matches
                fits = (
                    _equal(expr, parse_expression(matches, names))
                    if isinstance(matches, str)
                    else m.fits(expr, lambda a, b: False)
                )
                if fits:
                    return Verdict(
                        "misconception",
                        f"For {_case_words(case)} your expression is {_number_words(theirs)}, "
                        f"but it should equal {_number_words(should)}.",
                        m.hint,
                        m.stronger or m.hint,
                        m.key,
                    )
            return Verdict(
                "miss",
                f"For {_case_words(case)} your expression is {_number_words(theirs)}, "
                f"but it should equal {_number_words(should)}.",
                hint,
                stronger or hint,
                f"case:{_case_words(case)}:{_number_words(theirs)}",
            )
    if not _equal(expr, want):
        return Verdict(
            "miss",
            "It agrees at the numbers tried, but it is not the same expression for every value.",
            hint,
            stronger or hint,
            f"differs:{answer.strip()}",
        )
    if shape is not None:
        missing = shape(expr)
        if missing:
            return Verdict(
                "partial", f"It is equal, but not yet in the form asked for: {missing}", hint, stronger or hint, "shape"
            )
    return right()


def _one_number(answer: object, limit: int) -> int | Verdict:
    value = as_whole(answer)
    if value is None:
        if isinstance(answer, (list, tuple, set, frozenset)) and len(answer) == 1:
            return Verdict("format", "Give one number, not a list.", key="format:list")
        if isinstance(answer, Unreadable):
            return Verdict("format", f"{show(answer)} is far beyond the numbers here.", key="format:big")
        return Verdict("format", f"Give one whole number, not {show(answer)}.", key="format:not-a-number")
    if not 1 <= value <= limit:
        return Verdict("format", f"Give a whole number from 1 to {limit:,}.", key="format:range")
    return value


def expect_counterexample(
    answer: object,
    *,
    fails: Callable[[int], bool],
    smallest: int,
    claim: str,
    limit: int = 10**6,
    hint: str = "",
    stronger: str = "",
) -> Verdict:
    """The smallest n (1 .. ``limit``) where the plausible false ``claim`` fails (``fails(n)``).

    >>> kw = dict(fails=lambda n: n % 2 == 0 and n % 4 != 0, smallest=2, claim="n is odd or a multiple of 4")
    >>> expect_counterexample(2, **kw).kind, expect_counterexample(6, **kw).kind
    ('right', 'partial')
    >>> expect_counterexample(4, **kw).message
    'The claim holds for 4 (n is odd or a multiple of 4), so 4 is no counterexample.'
    """
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    value = _one_number(answer, limit)
    if isinstance(value, Verdict):
        return value
    if value == smallest:
        return right()
    if fails(value):
        return Verdict(
            "partial",
            f"Yes, the claim fails for {value}; but there is a smaller number where it fails.",
            hint,
            stronger or hint,
            "larger",
        )
    return Verdict(
        "miss",
        f"The claim holds for {value} ({claim}), so {value} is no counterexample.",
        hint,
        stronger or hint,
        f"holds:{value}",
    )


def expect_step(
    answer: object,
    *,
    steps: int,
    failing: int,
    shows: Callable[[int], bool],
    what: str,
    limit: int = 10**6,
    hint: str = "",
    stronger: str = "",
) -> Verdict:
    """Which step (1 .. ``steps``) of a flawed proof fails, and a number that shows it: ``(step, number)``.

    ``shows(number)`` says whether the number shows the step failing; ``what`` says what such a number is.

    >>> kw = dict(steps=3, failing=2, shows=lambda n: n == 8, what="a number whose odd part is 1")
    >>> expect_step((2, 8), **kw).kind, expect_step((2, 6), **kw).kind, expect_step((1, 8), **kw).kind
    ('right', 'partial', 'partial')
    >>> expect_step("2", **kw).kind, expect_step((5, 8), **kw).kind
    ('format', 'format')
    """
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    if not isinstance(answer, (list, tuple)) or len(answer) != 2:
        message = "Give the step and a number as a pair, like (step, number)."
        return Verdict("format", message, key="format:pair", options=steps)
    step, number = as_whole(answer[0]), _one_number(answer[1], limit)
    if step is None or not 1 <= step <= steps:
        return Verdict("format", f"The step is a whole number from 1 to {steps}.", key="format:step", options=steps)
    if isinstance(number, Verdict):
        return number
    good = shows(number)
    if step == failing and good:
        return right()
    if step == failing:
        return Verdict(
            "partial",
            f"{number} does not show step {step} failing: you need {what}.",
            hint,
            stronger or hint,
            f"number:{number}",
            steps,
        )
    if good:
        return Verdict(
            "partial",
            f"{number} is a good example, but look again at which step it breaks.",
            hint,
            stronger or hint,
            f"step:{step}",
            steps,
        )
    return Verdict(
        "miss", f"Your answer was step {step} with {number}.", hint, stronger or hint, f"step:{step}:{number}", steps
    )
