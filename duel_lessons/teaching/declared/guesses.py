"""Guesses, conjecture tests and reveals as data: ``[guess.NAME]``, ``[truth.NAME]`` and ``[reveal.NAME]``.

A guess is committed with ``lesson.guess(NAME, value)``; its ``form`` says what a guess looks like
(``subset`` of the numbers ``among``, a ``number`` from ``least`` to ``most``, a ``label`` from
``options``, or ``letters``: some of ``options``).  Its ``answer`` (a formula, or a literal) is what
the reveal compares the guess with, and its ``reveal`` is markdown shown once the guess is made::

    [guess.big]
    form = "subset"
    among = "big"                      # a list, or the name of a lesson parameter
    answer = "p_among(rules, among)"
    reveal = "The losing numbers among {among} are **{answer}**. {comparison}"

A truth is what ``lesson.test(rule)`` tests a conjecture against: ``value``, a formula in ``n``
(``is_p(rules, n)``), ``yes``/``no`` in words, and ``reach`` (how far it answers quickly: a test also
tries numbers beyond the data up to there).  Its ``reveal`` opens after a test, with ``{comparison}``
saying where the student's last rule first differs (up to ``compare_upto``, 10,000 by default).
``[reveal.NAME]`` is a further reveal: ``after`` (a guess or truth), ``text``.  Reveal texts may use
``{values.NAME}`` from a ``values`` table of formulas, the lesson's parameters, ``{answer}``,
``{guess}`` and ``{comparison}``; lists read "15, 21 and 32".

>>> g = Guess("big", {"form": "subset", "among": [15, 16, 21, 32], "answer": "p_among(rules, among)",
...                   "reveal": "Losing: **{answer}**. {comparison}"})
>>> g.form([15, 99], {}) is None, g.form([15, 21], {}) is None
(False, True)
>>> print(g.reveal([15, 16], {"rules": "divisor-duel"}))
Losing: **15, 21 and 32**. You were right about 15; you chose 16, which is not one of them; you left out 21 and 32.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from duel_lessons.teaching.declared.formulas import FormulaError, evaluate, parse, predicate
from duel_lessons.teaching.declared.orders import DeclarationError
from duel_lessons.teaching.feedback import first_difference, plain, show

FORMS = ("subset", "number", "label", "letters")
GUESS_FIELDS = ("form", "among", "options", "least", "most", "picks", "answer", "reveal", "values")
TRUTH_FIELDS = ("value", "yes", "no", "reach", "reveal", "values", "compare_upto")
REVEAL_FIELDS = ("after", "text", "values")
_BRACED = re.compile(r"\{(values\.)?([A-Za-z_][A-Za-z0-9_]*)\}")


def listing(items: Any) -> str:
    """A value in words: a list reads "15, 21 and 32" (or "none"), anything else as it is shown.

    >>> listing([15, 21, 32]), listing([]), listing([8]), listing(0.25)
    ('15, 21 and 32', 'none', '8', '0.25')
    """
    if isinstance(items, str):
        return items
    if isinstance(items, Mapping) or not isinstance(items, Iterable):
        return show(items)
    items = list(items)  # a list, a tuple, a range or a generator of numbers
    words = [x if isinstance(x, str) else show(x) for x in items]
    if not words:
        return "none"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def compare_sets(guess: Any, truth: Any, within: Any) -> str:
    """How a guessed set compares with the true one, among the numbers ``within``, in words.

    >>> compare_sets([15, 16], [15, 21], [15, 16, 21, 32])
    'You were right about 15 and 32; you chose 16, which is not one of them; you left out 21.'
    """
    guess_set, truth_set, pool = set(guess), set(truth), list(within)
    if len(pool) > 12:  # a long pool (1 to 30): speak only of the numbers named, by the guess or the answer
        pool = [n for n in pool if n in guess_set or n in truth_set]
    agree = [n for n in pool if (n in guess_set) == (n in truth_set)]
    extra = [n for n in pool if n in guess_set and n not in truth_set]
    missed = [n for n in pool if n in truth_set and n not in guess_set]
    if not extra and not missed:
        return f"Your guess was right for every one of {listing(pool)}."
    parts = [f"You were right about {listing(agree)}"] if agree else ["You were right about none of them"]
    if extra:
        parts.append(f"you chose {listing(extra)}, which {'is' if len(extra) == 1 else 'are'} not one of them")
    if missed:
        parts.append(f"you left out {listing(missed)}")
    return "; ".join(parts) + "."


def _check_fields(fields: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in fields:
        if key not in allowed:
            raise DeclarationError(f"{where} {key}: not a field here (its fields: {', '.join(allowed)}).")
    for key in ("reveal", "text", "yes", "no", "after"):
        if key in fields and not isinstance(fields[key], str):
            raise DeclarationError(f"{where} {key}: write it as text in quotes.")
    values = fields.get("values", {})
    if not isinstance(values, dict):
        raise DeclarationError(f"{where} values: give a table of NAME = formula.")
    for name, text in values.items():
        try:
            parse(text)
        except FormulaError as error:
            raise DeclarationError(f"{where} values.{name}: {error}") from None


def _names(params: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    return {"rules": "divisor-duel", **params, **extra}


def _render(text: str, fields: Mapping[str, Any], names: Mapping[str, Any], where: str) -> str:
    values = {}
    for name, formula in fields.get("values", {}).items():
        try:
            values[name] = evaluate(formula, names)
        except FormulaError as error:
            raise DeclarationError(f"{where} values.{name}: {error}") from None

    def one(match: re.Match[str]) -> str:
        table = values if match.group(1) else names
        return listing(table[match.group(2)]) if match.group(2) in table else match.group(0)

    return _BRACED.sub(one, text)


@dataclass(frozen=True)
class Guess:
    """A declared guess: its form, the answer it is compared with, its reveal."""

    name: str
    fields: Mapping[str, Any]

    def validate(self, where: str) -> None:
        f = self.fields
        _check_fields(f, GUESS_FIELDS, where)
        if f.get("form") not in FORMS:
            raise DeclarationError(f"{where} form: {f.get('form')!r} is not a form; use one of {', '.join(FORMS)}.")
        if f["form"] == "subset" and not (isinstance(f.get("among"), (list, str))):
            raise DeclarationError(f"{where} among: give the numbers offered, or the name of a lesson parameter.")
        if f["form"] in ("label", "letters") and not (
            isinstance(f.get("options"), list) and all(isinstance(x, str) for x in f["options"])
        ):
            raise DeclarationError(f'{where} options: give the options as texts, such as ["a", "b"].')
        if isinstance(f.get("answer"), str) and f["form"] not in ("label",):
            try:
                parse(f["answer"])
            except FormulaError as error:
                raise DeclarationError(f"{where} answer: {error}") from None

    def among(self, params: Mapping[str, Any]) -> list[Any]:
        """The numbers offered: a list, a parameter's name, or a formula (``range(1, upto + 1)``)."""
        among = self.fields.get("among", [])
        if isinstance(among, str):
            value = params[among] if among in params else evaluate(among, _names(params, {}))
        else:
            value = among
        return [plain(x) for x in value]

    def form(self, value: object, params: Mapping[str, Any]) -> str | None:
        """None when ``value`` has the guess's form, else what to write."""
        f, value = self.fields, plain(value)
        if f["form"] == "subset":
            pool, least = self.among(params), int(f.get("picks", 0))
            listed = isinstance(value, (list, tuple, set, frozenset))
            if listed and least <= len(value) and all(type(n) is int and n in pool for n in value):  # type: ignore[arg-type, attr-defined]
                return None
            shown = str(pool) if len(pool) <= 12 else f"{pool[0]} to {pool[-1]}"
            some = f"at least {least}" if least else "some"
            return f"Guess a list of {some} of the numbers from {shown}, such as [{pool[0]}]" + (
                "." if least else " (or [] for none)."
            )
        if f["form"] == "number":
            least, most = f.get("least", 0), f.get("most", 10**12)
            if type(value) in (int, float) and least <= value <= most:
                return None
            return f"Guess a number from {show(least)} to {show(most)} (no quotes)."
        options = [str(x).strip().lower() for x in f["options"]]
        if f["form"] == "label":
            found = isinstance(value, str) and value.strip().lower() in options
            return None if found else f"Choose one of {', '.join(repr(x) for x in f['options'])}."
        if isinstance(value, (list, tuple, set)) and all(
            isinstance(x, str) and x.strip().lower() in options for x in value
        ):
            return None
        return f"Give a list of some of {f['options']} (or [] for none)."

    def answer(self, params: Mapping[str, Any]) -> Any:
        answer = self.fields.get("answer")
        if isinstance(answer, str) and self.fields["form"] != "label":
            return evaluate(answer, _names(params, {"among": self.among(params)}))
        return answer

    def reveal(self, guess: object, params: Mapping[str, Any]) -> str:
        f, guess = self.fields, plain(guess)
        pool, answer = self.among(params), self.answer(params)
        if f["form"] == "subset":
            comparison = compare_sets(guess, answer, pool)
        elif f["form"] == "letters":
            given = guess if isinstance(guess, (list, tuple, set)) else []
            chosen = sorted({str(x).strip().lower() for x in given})
            right = sorted(str(x).strip().lower() for x in answer) if isinstance(answer, list) else []
            agree = sum((x in chosen) == (x in right) for x in (str(o).lower() for o in f["options"]))
            comparison = f"You chose {listing([x.upper() if len(x) == 1 else x for x in chosen])}" + (
                ": right." if chosen == right else f"; you were right about {agree} of the {len(f['options'])}."
            )
        else:
            same = guess == answer or (
                isinstance(guess, str) and isinstance(answer, str) and guess.strip().lower() == answer.strip().lower()
            )
            comparison = "Your guess was right." if same else f"You guessed {show(guess)}."
        names = _names(params, {"among": pool, "answer": answer, "guess": guess, "comparison": comparison})
        return _render(str(f.get("reveal", "{comparison}")), f, names, f"[guess.{self.name}]")


@dataclass(frozen=True)
class Truth:
    """A declared truth: what a conjecture is tested against, and the reveal a test opens."""

    name: str
    fields: Mapping[str, Any]

    def validate(self, where: str) -> None:
        f = self.fields
        _check_fields(f, TRUTH_FIELDS, where)
        if not all(isinstance(f.get(k), str) for k in ("value", "yes", "no")):
            raise DeclarationError(f'{where} value: give value (a formula in n), yes and no, such as yes = "loses".')
        try:
            parse(f["value"])
        except FormulaError as error:
            raise DeclarationError(f"{where} value: {error}") from None
        reach = f.get("reach", 0)
        if not (type(reach) is int and reach >= 0) and not (isinstance(reach, str) and reach.isidentifier()):
            raise DeclarationError(f"{where} reach: give a whole number, or the name of a lesson parameter.")

    def function(self, params: Mapping[str, Any]) -> Callable[[int], bool]:
        return predicate(self.fields["value"], _names(params, {}))

    def reveal(self, rule: object, params: Mapping[str, Any]) -> str:
        upto = int(self.fields.get("compare_upto", 10_000))
        if not callable(rule):
            comparison = "Test a rule first to compare it."
        elif (found := first_difference(rule, self.function(params), upto)) is None:
            comparison = f"Your last rule agrees with it for every n from 1 to {upto:,}. Well found!"
        else:
            comparison = f"Your last rule differs from it first at n = {found[0]}."
        names = _names(params, {"comparison": comparison})
        return _render(str(self.fields.get("reveal", "{comparison}")), self.fields, names, f"[truth.{self.name}]")


@dataclass(frozen=True)
class Reveal:
    """A further reveal: text that opens after a guess or a test."""

    name: str
    fields: Mapping[str, Any]

    def validate(self, where: str) -> None:
        _check_fields(self.fields, REVEAL_FIELDS, where)
        if not isinstance(self.fields.get("after"), str) or not isinstance(self.fields.get("text"), str):
            raise DeclarationError(f"{where} after: give after (the guess or truth that opens it) and text.")

    def reveal(self, made: object, params: Mapping[str, Any]) -> str:
        names = _names(params, {"guess": plain(made)})
        return _render(str(self.fields["text"]), self.fields, names, f"[reveal.{self.name}]")
