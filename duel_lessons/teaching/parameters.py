"""A lesson notebook's parameters, read without running it: the ``# PARAMETERS`` cell and ``Lesson(...)``.

The parameters cell (tagged ``parameters``) holds plain assignments; each value is read with
:func:`ast.literal_eval`, or as whole-number arithmetic on literals (``10**6``), never with
``eval``.  The set-up cell's ``lesson = Lesson("04", rules=RULES, ...)`` names the keyword
arguments; :func:`lesson_arguments` resolves them against the parameters, optionally with
some parameters changed (a teacher's choice that the lesson ``offers``).

>>> cells = [
...     {"cell_type": "code", "metadata": {"tags": ["parameters"]},
...      "source": "# PARAMETERS\\nRULES = 'divisor-duel'  # or 'factor-duel'\\nUPTO = 10**2\\nA, B = 3, 4"},
...     {"cell_type": "code", "metadata": {}, "source": "lesson = Lesson('04', rules=RULES, upto=UPTO, big=[A, B])"},
... ]
>>> notebook_parameters(cells)
{'RULES': 'divisor-duel', 'UPTO': 100, 'A': 3, 'B': 4}
>>> lesson_arguments(cells)
('04', {'rules': 'divisor-duel', 'upto': 100, 'big': [3, 4]})
>>> lesson_arguments(cells, {"rules": "factor-duel"})[1]["rules"]
'factor-duel'
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Mapping, Sequence
from typing import Any

from duel_lessons.engine.errors import DuelError

#: The biggest exponent read in a parameters cell (``10**18`` is fine; ``9**9**9`` is refused at once).
MAX_EXPONENT = 4096


class ParametersError(DuelError):
    """A notebook whose parameters cell or ``Lesson(...)`` call cannot be read without running it."""


def _source(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _tags(cell: Mapping[str, Any]) -> list[str]:
    tags = cell.get("metadata", {}).get("tags", [])
    return [str(t).lower() for t in tags] if isinstance(tags, list) else str(tags).lower().split()


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv}


def literal(node: ast.expr, names: Mapping[str, Any] | None = None) -> Any:
    """The value of a literal, whole-number arithmetic on literals, or (given ``names``) a name among them.

    >>> literal(ast.parse("[2**10, -3, 'a']", mode="eval").body)
    [1024, -3, 'a']
    >>> literal(ast.parse("9**9**9", mode="eval").body)
    Traceback (most recent call last):
    ...
    duel_lessons.teaching.parameters.ParametersError: Cannot read 9 ** 9 ** 9 without running it (exponent > 4096).
    """
    names = names or {}
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = [literal(x, names) for x in node.elts]
        return items if isinstance(node, ast.List) else tuple(items) if isinstance(node, ast.Tuple) else set(items)
    if isinstance(node, ast.Dict):
        return {literal(k, names): literal(v, names) for k, v in zip(node.keys, node.values, strict=True) if k}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = literal(node.operand, names)
        if type(value) in (int, float):
            return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        left, right = literal(node.left, names), literal(node.right, names)
        if type(left) is int and type(right) is int:
            if isinstance(node.op, ast.Pow):
                if not 0 <= right <= MAX_EXPONENT:
                    raise ParametersError(
                        f"Cannot read {ast.unparse(node)} without running it (exponent > {MAX_EXPONENT})."
                    )
                return left**right
            if type(node.op) in _OPS:
                return _OPS[type(node.op)](left, right)
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        raise ParametersError(f"Cannot read {ast.unparse(node)} without running it.") from None


def parameters_cell(cells: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    """The code cell tagged ``parameters`` (exactly one)."""
    found = [c for c in cells if c.get("cell_type") == "code" and "parameters" in _tags(c)]
    if len(found) != 1:
        raise ParametersError(f"A lesson has one code cell tagged 'parameters', not {len(found)}.")
    return found[0]


def notebook_parameters(cells: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The values the ``# PARAMETERS`` cell assigns, by name (``A, B = 3, 4`` assigns both)."""
    values: dict[str, Any] = {}
    for statement in ast.parse(_source(parameters_cell(cells))).body:
        if not isinstance(statement, (ast.Assign, ast.AnnAssign)) or statement.value is None:
            raise ParametersError(f"The parameters cell holds only assignments, not {ast.unparse(statement)!r}.")
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        value = literal(statement.value, values)
        for target in targets:
            if isinstance(target, ast.Name):
                values[target.id] = value
            elif isinstance(target, ast.Tuple) and all(isinstance(t, ast.Name) for t in target.elts):
                parts = list(value)
                if len(parts) != len(target.elts):
                    raise ParametersError(f"Cannot unpack {ast.unparse(statement)}.")
                values.update({t.id: v for t, v in zip(target.elts, parts, strict=True)})  # type: ignore[attr-defined]
            else:
                raise ParametersError(f"Cannot read the assignment {ast.unparse(statement)!r}.")
    return values


def lesson_call(cells: Sequence[Mapping[str, Any]]) -> ast.Call:
    """The first ``Lesson(...)`` call of the notebook's code cells."""
    for cell in cells:
        if cell.get("cell_type") != "code" or "Lesson(" not in _source(cell):
            continue
        try:
            tree = ast.parse(_source(cell))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] == "Lesson":
                return node
    raise ParametersError("No lesson = Lesson(...) call in the notebook.")


def lesson_arguments(
    cells: Sequence[Mapping[str, Any]], changed: Mapping[str, Any] | None = None
) -> tuple[str, dict[str, Any]]:
    """The lesson number and keyword arguments of the notebook's ``Lesson(...)``, read without running it.

    ``changed`` overrides parameters, by keyword name (``"rules"``) or by notebook name (``"RULES"``).
    """
    changed = dict(changed or {})
    values = notebook_parameters(cells)
    values.update({k: v for k, v in changed.items() if k in values})
    call = lesson_call(cells)
    if not call.args:
        raise ParametersError("Lesson(...) needs the lesson number first.")
    number = str(literal(call.args[0])).zfill(2)
    arguments = {k.arg: literal(k.value, values) for k in call.keywords if k.arg is not None}
    arguments.update({k: v for k, v in changed.items() if k in arguments})
    unknown = [k for k in changed if k not in arguments and k not in values]
    if unknown:
        raise ParametersError(f"Lesson {number} has no parameter {', '.join(unknown)}.")
    return number, arguments
