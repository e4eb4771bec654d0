"""The rule books for the tests: their text in docs/rulebooks (the specification), and every rule set
the tests run on, found from the registries (shipped books, closed forms) plus a few generated variants.

No test keeps its own list of variants: they all come from here.
"""

from __future__ import annotations

from pathlib import Path

from duel_lessons.engine.errors import RulesError
from duel_lessons.engine.rules import RULEBOOKS, Rules
from duel_lessons.solving.closed_forms import all_closed_forms, closed_form

BOOKS = Path(__file__).resolve().parents[1] / "docs" / "rulebooks"


def book_text(book: str) -> str:
    """The text of rule book ``book`` ("000" to "004"), with its mis-encodings repaired."""
    (path,) = BOOKS.glob(f"{book}_*.txt")
    return path.read_text(encoding="utf-8").replace("รท", "÷").replace("â€”", "—")


def transcript_block(book: str) -> str:
    """The book's command-line transcript: its first unindented code block."""
    lines = book_text(book).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("```"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
    return "\n".join(lines[start + 1 : end]).strip("\n") + "\n"


# -- every rule set the tests run on, from the registries -------------------------------------------

#: One- and two-field changes that make variants without a closed form (each applied to every shipped book).
CHANGES: tuple[dict[str, object], ...] = (
    {"last_mover_wins": None},  # None: the opposite of the book's value (its misère twin, or back)
    {"allow_one": None},
    {"divisors": "odd"},
    {"divisors": "even", "last_mover_wins": None},
    {"when_stuck": "pass", "on_invalid": "lose-turn"},
    {"win_on_reaching": "prime", "lose_on_reaching": "none"},
)


def shipped_books() -> list[Rules]:
    """Every shipped rule book, from the registry."""
    return list(RULEBOOKS.values())


def closed_form_rules() -> list[Rules]:
    """The rules of every registered closed form (the books' and their variants')."""
    return [form.rules for form in all_closed_forms()]


def generated_variants() -> list[Rules]:
    """Variants made from every shipped book by the CHANGES, one per game, each without a closed form.

    Their names say what changed, e.g. ``divisor-duel/last_mover_wins=false``.
    """
    seen = {rules.game for rules in shipped_books() + closed_form_rules()}
    found = []
    for book in shipped_books():
        for change in CHANGES:
            values = {k: (not getattr(book, k) if v is None else v) for k, v in change.items()}
            try:
                rules = book.variant(**values)
            except RulesError:  # e.g. allow_one with division
                continue
            plays_differently = (rules.when_stuck, rules.on_invalid) != (book.when_stuck, book.on_invalid)
            if plays_differently or (rules.game not in seen and closed_form(rules) is None):
                found.append(rules)  # a new game to solve, or the same game played with passes
            seen.add(rules.game)
    return found


def all_rules() -> list[Rules]:
    """Shipped books, closed-form rule sets, then generated variants (no two with the same name)."""
    everything = {r.name: r for r in shipped_books() + closed_form_rules() + generated_variants()}
    return list(everything.values())


def rules_id(rules: Rules) -> str:
    """A short test id for a rule set."""
    return rules.name
