"""The kinds of declared exercise: what fields each reads, how a declaration is checked, judged and answered.

Every kind reads the common fields (``label``, ``hint``, ``stronger``, ``misconceptions``, ``why``);
a literal right answer is always the field ``answer`` (a student copy keeps only its salted digest),
and an answer computed from the lesson's parameters is the formula ``value``
(:mod:`~duel_lessons.teaching.declared.formulas`).

>>> from duel_lessons.teaching.declared.kinds import Exercise, check, validate
>>> e = Exercise("2", "number", {"value": "divisor_count(start)"})
>>> validate(e, "demo")
>>> check(e, 12, {"start": 72}, "99:2").kind, check(e, 6, {"start": 72}, "99:2").kind
('right', 'miss')
>>> claim = {"claim": "n is odd or a power of 2", "fails": "n % 2 == 0 and not is_power_of_two(n)"}
>>> e = Exercise("c", "counterexample", {**claim, "answer": 6})
>>> check(e, 6, {}, "s").kind, check(e, 10, {}, "s").kind, check(e, 8, {}, "s").kind
('right', 'partial', 'miss')
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from duel_lessons.engine.rules import MAX_NUMBER
from duel_lessons.teaching.declared.formulas import FormulaError, evaluate, function, parse, predicate
from duel_lessons.teaching.declared.orders import DeclarationError, check_lines, respects, topological
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_choice,
    expect_list,
    expect_member,
    expect_number,
    expect_table,
    is_unanswered,
    plain,
    right,
    show,
    unanswered,
)
from duel_lessons.teaching.proofs import expect_counterexample, expect_expression, expect_order, expect_step

#: The kinds of exercise a declaration may have, and the fields each one reads besides the common ones.
KINDS: dict[str, tuple[str, ...]] = {
    "number": ("answer", "value", "tolerance"),
    "numbers": ("answer", "value", "ordered", "what"),
    "label": ("answer", "value", "options"),
    "winning-move": ("start",),
    "winning-moves": ("start",),
    "order": ("lines", "model"),
    "expression": ("target", "names", "cases", "factor", "model", "example"),
    "counterexample": ("claim", "fails", "answer", "value", "limit"),
    "step": ("steps", "answer", "shows", "what", "limit", "model"),
    "explanation": ("words",),
    "table": ("numbers", "value", "options"),
    "pair": ("first", "second", "what"),
}
COMMON = ("kind", "label", "hint", "stronger", "misconceptions", "why", "values")
#: The fields a student copy keeps in place of a literal ``answer``.
SEALED = ("answer_digest", "answer_digests", "answer_count")


def digest(value: object, salt: str) -> str:
    """A salted SHA-256 of a plain answer (a whole number, a text or a sorted list): what a student copy keeps.

    >>> digest(512, "04:2") == digest(512, "04:2") != digest(512, "04:3")
    True
    """
    return hashlib.sha256(f"{salt}\n{json.dumps(value, sort_keys=True)}".encode()).hexdigest()


def fill(text: str, params: Mapping[str, Any]) -> str:
    """``text`` with each ``{name}`` of a lesson parameter replaced by its value (other braces stay).

    >>> fill("every winning move from {start}", {"start": 84})
    'every winning move from 84'
    >>> fill("{unknown} and {0}", {})
    '{unknown} and {0}'
    """
    import re

    def word(value: object) -> str:  # a list reads "2, 4 and 8", as in the reveals
        if isinstance(value, (list, tuple)) and value:
            items = [str(x) for x in value]
            return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
        return str(value)

    return re.sub(
        r"\{([A-Za-z_][A-Za-z0-9_]*)\}",
        lambda m: word(params[m.group(1)]) if m.group(1) in params else m.group(0),
        text,
    )


@dataclass(frozen=True)
class Exercise:
    """One declared exercise: its name, kind and fields as written (texts still hold ``{parameters}``)."""

    name: str
    kind: str
    fields: Mapping[str, Any]

    @property
    def label(self) -> str:
        return str(self.fields.get("label", ""))


# -- checking a declaration --------------------------------------------------------------------------------


def validate(exercise: Exercise, where: str, edition: str = "teacher") -> None:
    """Raise a DeclarationError naming ``where`` and the field if ``exercise`` is not well declared."""
    kind, fields = exercise.kind, exercise.fields
    allowed = set(COMMON) | set(KINDS[kind]) | (set(SEALED) if edition == "student" else set())
    for key in fields:
        if key not in allowed:
            raise DeclarationError(
                f"{where} {key}: not a field of a {kind!r} exercise (its fields: {', '.join(sorted(allowed))})."
            )
    for key in ("label", "hint", "stronger", "why", "claim", "what"):
        if not isinstance(fields.get(key, ""), str):
            raise DeclarationError(f"{where} {key}: write it as text in quotes.")
    for key in ("value", "fails", "shows"):
        if key in fields:
            _formula(fields[key], f"{where} {key}")
    if kind in ("number", "numbers", "label") and "answer" in fields and "value" in fields:
        raise DeclarationError(f"{where} value: give the answer or a value that computes it, not both.")
    literal = edition == "teacher" and "value" not in fields
    if literal and kind in ("number", "numbers", "label", "counterexample", "step") and "answer" not in fields:
        raise DeclarationError(f"{where} answer: a {kind!r} exercise needs its answer (or a value formula).")
    answer = fields.get("answer")
    if kind in ("number", "counterexample", "step") and "answer" in fields and type(answer) not in (int, float):
        raise DeclarationError(f"{where} answer: give a number.")
    if (
        kind == "numbers"
        and "answer" in fields
        and not (isinstance(answer, list) and all(type(x) is int for x in answer))
    ):
        raise DeclarationError(f"{where} answer: give a list of whole numbers, such as [2, 5].")
    if kind == "label":
        options = fields.get("options")
        if not isinstance(options, list) or len(options) < 2 or not all(isinstance(x, str) for x in options):
            raise DeclarationError(f'{where} options: give the options as a list of texts, such as ["P", "N"].')
        if "answer" in fields and answer not in options:
            raise DeclarationError(f"{where} answer: {answer!r} is not one of the options.")
    if kind in ("winning-move", "winning-moves"):
        start = fields.get("start")
        if not (type(start) is int and start > 1) and not (isinstance(start, str) and start.isidentifier()):
            raise DeclarationError(f"{where} start: give a whole number above 1, or the name of a lesson parameter.")
    if kind == "counterexample" and not ("claim" in fields and "fails" in fields):
        raise DeclarationError(f"{where} fails: give the claim in words and fails, a formula in n true where it fails.")
    if kind == "step" and not (type(fields.get("steps")) is int and "shows" in fields and "what" in fields):
        raise DeclarationError(f"{where} steps: give steps (how many), shows (a formula in n) and what (in words).")
    if kind == "expression":
        _check_expression(fields, where)
    if kind == "table" and not (
        isinstance(fields.get("numbers"), (list, str)) and isinstance(fields.get("value"), str)
    ):
        raise DeclarationError(f"{where} numbers: give numbers (a list or formula) and value (a formula in n).")
    if kind == "pair":
        for part in ("first", "second"):
            got = fields.get(part)
            keys = {"answer", "value"} if edition == "teacher" else {"answer_digest", "value"}
            if not isinstance(got, dict) or len(keys & set(got)) != 1 or set(got) - keys - {"what"}:
                raise DeclarationError(f"{where} {part}: give a table with answer (or value, a formula) and what.")
            if "value" in got:
                _formula(got["value"], f"{where} {part}.value")
    for i, item in enumerate(fields.get("misconceptions", [])):
        if (
            not isinstance(item, dict)
            or not {"key", "hint"} <= set(item)
            or len({"value", "when"} & set(item)) != 1
            or set(item) - {"key", "value", "when", "hint", "stronger"}
        ):
            raise DeclarationError(
                f"{where} misconceptions[{i}]: give key, value (or when, a formula in answer) and hint "
                "(and stronger if you like)."
            )
        if "when" in item:
            _formula(item["when"], f"{where} misconceptions[{i}] when")
    values = fields.get("values", {})
    if not isinstance(values, dict):
        raise DeclarationError(f"{where} values: give a table of NAME = formula.")
    for name, text in values.items():
        _formula(text, f"{where} values.{name}")
    if kind == "order":
        check_lines(fields.get("lines"), where)
        model, lines = fields.get("model"), fields["lines"]
        if model is not None and (
            not isinstance(model, list)
            or sorted(map(str, model)) != sorted(x for x, line in lines.items() if "wrong" not in line)
            or not respects(model, lines)
        ):
            raise DeclarationError(f"{where} model: give every line of the proof once, in an order its uses allow.")


def _formula(text: object, where: str) -> None:
    try:
        parse(text)  # type: ignore[arg-type]  # parse refuses what is not text
    except FormulaError as error:
        raise DeclarationError(f"{where}: {error}") from None


def _check_expression(fields: Mapping[str, Any], where: str) -> None:
    names, cases = fields.get("names"), fields.get("cases")
    if not isinstance(fields.get("target"), str):
        raise DeclarationError(f'{where} target: give the expression the answer must equal, such as "N - d".')
    if not isinstance(names, list) or not names or not all(isinstance(x, str) and x.isidentifier() for x in names):
        raise DeclarationError(f'{where} names: give the letters the expression may use, such as ["N", "d"].')
    if not isinstance(cases, list) or not cases or not all(isinstance(c, dict) and set(c) == set(names) for c in cases):
        raise DeclarationError(
            f"{where} cases: give tables of a whole number for each of {names}, such as {{N = 45, d = 3}}."
        )
    if "factor" in fields and fields["factor"] not in names:
        raise DeclarationError(f"{where} factor: name one of the letters {names}.")


# -- judging -------------------------------------------------------------------------------------------------


def names_of(exercise: Exercise, params: Mapping[str, Any]) -> dict[str, Any]:
    """The lesson's parameters, with the exercise's ``values`` worked out (``{name}`` in its texts)."""
    names: dict[str, Any] = {"rules": "divisor-duel", **params}
    for name, formula in exercise.fields.get("values", {}).items():
        try:
            names[name] = evaluate(formula, names)
        except FormulaError as error:
            raise DeclarationError(f"[exercise.{exercise.name}] values.{name}: {error}") from None
    return names


def _matcher(m: Mapping[str, Any], names: Mapping[str, Any]) -> object:
    if "when" not in m:
        return m["value"]
    test = predicate(m["when"], names, variable="answer")

    def matches(answer: object) -> bool:
        try:
            return test(answer)  # type: ignore[arg-type]  # any answer: the formula says what it matches
        except FormulaError:
            return False  # an answer of another shape: not this mistake

    return matches


def _misconceptions(exercise: Exercise, names: Mapping[str, Any]) -> list[Misconception]:
    return [
        Misconception(
            str(m["key"]), _matcher(m, names), fill(str(m["hint"]), names), fill(str(m.get("stronger", "")), names)
        )
        for m in exercise.fields.get("misconceptions", [])
    ]


def _texts(exercise: Exercise, params: Mapping[str, Any]) -> dict[str, Any]:
    f, names = exercise.fields, names_of(exercise, params)
    return {
        "misconceptions": _misconceptions(exercise, names),
        "hint": fill(str(f.get("hint", "")), names),
        "stronger": fill(str(f.get("stronger", "")), names),
    }


def _mistake(exercise: Exercise, answer: object, params: Mapping[str, Any]) -> Verdict | None:
    """For the kinds whose judge takes no misconceptions (counterexample, step): the first one the answer shows."""
    if is_unanswered(answer):
        return None
    texts = _texts(exercise, params)
    for m in texts["misconceptions"]:
        found = m.matches(answer) if callable(m.matches) else m.matches == answer
        if found:
            return Verdict("misconception", f"Your answer was {show(answer)}.", m.hint, m.stronger or m.hint, m.key)
    return None


def _start(exercise: Exercise, params: Mapping[str, Any]) -> int:
    start = exercise.fields["start"]
    if isinstance(start, str):
        if start not in params:
            raise DeclarationError(f"[exercise.{exercise.name}] start: the lesson has no parameter {start!r}.")
        start = params[start]
    return int(start)


def _winning(exercise: Exercise, params: Mapping[str, Any]) -> list[int]:
    rules = params.get("rules", "divisor-duel")
    return list(evaluate("winning_moves(rules, start)", {"rules": rules, "start": _start(exercise, params)}))


def _computed(exercise: Exercise, params: Mapping[str, Any]) -> Any:
    try:
        return evaluate(exercise.fields["value"], names_of(exercise, params))
    except FormulaError as error:
        raise DeclarationError(f"[exercise.{exercise.name}] value: {error}") from None


_NOTHING = float("nan")  # equal to no answer: stands for an answer the student edition keeps only as a digest


def _literal(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> object:
    """The right answer to compare ``answer`` with: the teacher's value, computed, or (student edition) the
    answer itself when its digest matches."""
    f = exercise.fields
    if "answer" in f:
        return f["answer"]
    if "value" in f:
        return _computed(exercise, params)
    try:
        return answer if f.get("answer_digest") == digest(answer, salt) else _NOTHING
    except (TypeError, ValueError):  # an answer that is no plain value (``...``, a function): not the answer
        return _NOTHING


def _number(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    correct = _literal(exercise, answer, params, salt)
    exact = isinstance(correct, (int, float, Fraction)) and not isinstance(correct, bool)
    number: Any = correct if exact else _NOTHING  # an int stays exact: 2 * 5**24 + 2 is not 2 * 5**24
    return expect_number(
        answer, number, tolerance=float(exercise.fields.get("tolerance", 0)), **_texts(exercise, params)
    )


def _numbers(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    f = exercise.fields
    if "answer" in f or "value" in f:
        correct = list(f["answer"] if "answer" in f else _computed(exercise, params))
    else:  # the student edition: the elements of the answer whose digests match, and stand-ins for the rest
        given = answer if isinstance(answer, (list, tuple, set, frozenset)) else []
        known = set(f.get("answer_digests", ()))
        correct = [x for x in dict.fromkeys(given) if type(x) is int and digest(x, salt) in known]
        # stand-ins no student can give: plain() reads a number beyond ±MAX_NUMBER as unreadable, never an int
        correct += [-(MAX_NUMBER + 1 + i) for i in range(int(f.get("answer_count", 0)) - len(correct))]
    what, ordered = str(f.get("what", "numbers")), bool(f.get("ordered", False))
    return expect_list(answer, correct, what=what, ordered=ordered, **_texts(exercise, params))


def _label(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    options = [str(x) for x in exercise.fields["options"]]
    correct = _literal(exercise, answer, params, salt)
    # A right answer that is no text (nan: a student edition's digest did not match) equals no answer, where a
    # stand-in text such as "\0" would be right for a student who typed it.
    return expect_choice(answer, cast(str, correct), options, **_texts(exercise, params))


def _order(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    lines = exercise.fields["lines"]
    texts = _texts(exercise, params)
    return expect_order(
        answer,
        lines={x: line["text"] for x, line in lines.items()},
        proof=topological(lines),
        uses={x: tuple(line.get("uses", ())) for x, line in lines.items() if "wrong" not in line},
        wrong={x: line["wrong"] for x, line in lines.items() if "wrong" in line},
        shows={x: line["shows"] for x, line in lines.items() if "shows" in line},
        **{k: texts[k] for k in ("hint", "stronger") if texts[k]},
    )


def _factor(name: str) -> Callable[[Any], str | None]:
    def shape(expr: Any) -> str | None:
        factors = expr.args if expr.is_Mul else ()
        found = any(f.is_Symbol and f.name == name for f in factors)
        return None if found else f"write it as a product with the factor {name}, such as {name}*(...)."

    return shape


def _expression(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    f = exercise.fields
    value = plain(answer)
    example = str(f.get("example", f"{f['names'][0]} + 1"))
    if not is_unanswered(value) and not isinstance(value, str):
        return Verdict("format", f'Type the expression as text in quotes, such as "{example}".', key="format:not-text")
    if isinstance(value, str) and not value.strip():
        return Verdict("format", f'That is empty: type an expression, such as "{example}".', key="format:blank")
    return expect_expression(
        answer,
        str(f["target"]),
        names=tuple(f["names"]),
        cases=[dict(c) for c in f["cases"]],
        shape=_factor(f["factor"]) if "factor" in f else None,
        **_texts(exercise, params),
    )


def _counterexample(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    f = exercise.fields
    smallest = _literal(exercise, answer, params, salt)
    mistake = _mistake(exercise, answer, params)
    if mistake is not None:
        return mistake
    return expect_counterexample(
        answer,
        fails=predicate(f["fails"], names_of(exercise, params)),
        smallest=smallest if type(smallest) is int else -1,
        claim=fill(str(f["claim"]), names_of(exercise, params)),
        limit=int(f.get("limit", 10**6)),
        hint=fill(str(f.get("hint", "")), names_of(exercise, params)),
        stronger=fill(str(f.get("stronger", "")), names_of(exercise, params)),
    )


def _step(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    f = exercise.fields
    given = plain(answer)
    step = given[0] if isinstance(given, (list, tuple)) and given else None
    failing = _literal(exercise, step, params, salt)
    mistake = _mistake(exercise, answer, params)
    if mistake is not None:
        return mistake
    return expect_step(
        answer,
        steps=int(f["steps"]),
        failing=failing if type(failing) is int else 0,
        shows=predicate(f["shows"], names_of(exercise, params)),
        what=fill(str(f["what"]), names_of(exercise, params)),
        limit=int(f.get("limit", 10**6)),
        hint=fill(str(f.get("hint", "")), names_of(exercise, params)),
        stronger=fill(str(f.get("stronger", "")), names_of(exercise, params)),
    )


def _explanation(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    """Collected for the teacher, not judged: any text of at least ``words`` words (3 by default) is taken."""
    value = plain(answer)
    if is_unanswered(value):
        return unanswered()
    least = int(exercise.fields.get("words", 3))
    if not isinstance(value, str) or len(value.split()) < least:
        return Verdict(
            "format", f"Write your explanation as text in quotes, in at least {least} words.", key="format:words"
        )
    return Verdict("right", "Saved for your teacher, who reads it. Compare it with a partner's.")


def _table(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    """A table ``{n: "P" or "N"}`` (or another label) filled in by hand, judged entry by entry."""
    correct = _table_of(exercise, params)
    texts = _texts(exercise, params)
    return expect_table(answer, correct, hint=texts["hint"], stronger=texts["stronger"])


def _table_of(exercise: Exercise, params: Mapping[str, Any]) -> dict[int, str]:
    f, names = exercise.fields, names_of(exercise, params)
    numbers = f["numbers"]
    numbers = names[numbers] if isinstance(numbers, str) and numbers in names else numbers
    numbers = evaluate(numbers, names) if isinstance(numbers, str) else numbers
    label = function(f["value"], names)
    return {int(n): str(label(int(n))) for n in numbers}


def pair_part(value: object) -> object:
    """One part of a pair as it is compared: a text without case or outer spaces, a whole float as an int.

    >>> pair_part(" N "), pair_part(6.0), pair_part(True), pair_part(2.5)
    ('n', 6, True, 2.5)
    """
    if isinstance(value, str):
        return value.strip().lower()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _part_digest(value: object, salt: str) -> str | None:
    """The digest of one part of a pair (:func:`pair_part`), or None for a value no digest is made of."""
    try:
        return digest(pair_part(value), salt)
    except (TypeError, ValueError, OverflowError):
        return None


def _pair(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    """Two answers as a pair, such as ("N", 6): right when both are; a named mistake first."""
    f, value = exercise.fields, plain(answer)
    if is_unanswered(value):
        return unanswered()
    what = str(f.get("what", "(first, second)"))
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return Verdict("format", f"Give a pair, {what}, in round brackets.", key="format:pair")
    mistake = _mistake(exercise, value, params)
    if mistake is not None:
        return mistake
    names = names_of(exercise, params)
    good = []
    for part, given in zip(("first", "second"), value, strict=True):
        spec = f[part]
        # Compared as digests in both editions (a student copy keeps a literal part's answer only so), so both
        # judge alike: 3.0 is 3, a text ignores case and outer spaces, True is no number.
        if "answer_digest" in spec:
            want = spec["answer_digest"]
        else:
            want = _part_digest(evaluate(spec["value"], names) if "value" in spec else spec["answer"], f"{salt}:{part}")
        good.append(want is not None and _part_digest(given, f"{salt}:{part}") == want)
    texts = _texts(exercise, params)
    if all(good):
        return right()
    if any(good):
        which = "first" if good[0] else "second"
        other = "second" if good[0] else "first"
        message = f"The {which} part is right; look again at the {other} ({f[other].get('what', other)})."
        return Verdict("partial", message, texts["hint"], texts["stronger"] or texts["hint"], f"pair:{other}")
    return Verdict("miss", f"Your answer was {show(value)}.", texts["hint"], texts["stronger"] or texts["hint"], "pair")


_CHECKS: dict[str, Callable[[Exercise, object, Mapping[str, Any], str], Verdict]] = {
    "number": _number,
    "numbers": _numbers,
    "label": _label,
    "winning-move": lambda e, a, p, s: expect_member(a, _winning(e, p), what="move", **_texts(e, p)),
    "winning-moves": lambda e, a, p, s: expect_list(a, _winning(e, p), what="winning moves", **_texts(e, p)),
    "order": _order,
    "expression": _expression,
    "counterexample": _counterexample,
    "step": _step,
    "explanation": _explanation,
    "table": _table,
    "pair": _pair,
}


def check(exercise: Exercise, answer: object, params: Mapping[str, Any], salt: str) -> Verdict:
    """The verdict on ``answer`` (``salt`` names the lesson and exercise, for a student copy's digests)."""
    try:
        return _CHECKS[exercise.kind](exercise, plain(answer), params, salt)
    except FormulaError as error:
        raise DeclarationError(f"[exercise.{exercise.name}]: {error}") from None


def model(exercise: Exercise, params: Mapping[str, Any]) -> object:
    """The model answer (the teacher edition's fields)."""
    f, kind = exercise.fields, exercise.kind
    if kind in ("number", "numbers", "label"):
        return _computed(exercise, params) if "value" in f else f["answer"]
    if kind in ("winning-move", "winning-moves"):
        moves = _winning(exercise, params)
        return moves if kind == "winning-moves" else (min(moves) if moves else None)
    if kind == "order":
        return list(f.get("model") or topological(f["lines"]))
    if kind == "step":
        return f.get("model", [f["answer"], "a number that shows it"])
    if kind == "table":
        return _table_of(exercise, params)
    if kind == "pair":
        names = names_of(exercise, params)
        return tuple(evaluate(f[p]["value"], names) if "value" in f[p] else f[p]["answer"] for p in ("first", "second"))
    if kind == "counterexample" and "value" in f:
        return _computed(exercise, params)
    return f.get("model", f.get("answer", ""))
