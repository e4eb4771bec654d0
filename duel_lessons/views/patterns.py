"""PatternExplorer: a thin widget over :mod:`duel_lessons.solving.patterns`.

Choose the rules, type N, tick the structures to check, press "Check patterns";
the report appears below.  Give a guess function (``conjecture=``) and the
"Test my guess" button tests it on n = 1..N.  Every control has a label and
works from the keyboard (Tab, Space, Enter); problems are shown in the message
line, never lost in the kernel log.

>>> explorer = PatternExplorer("factor-duel", upto=200, structures=["period"])
>>> explorer.check()
>>> "period 2" in explorer.report_html.value
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html import escape
from typing import Any

import ipywidgets as w

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.numbers import read_number
from duel_lessons.engine.rules import RULEBOOKS, Rules, get_rules
from duel_lessons.solving.patterns import STRUCTURES, ConjectureReport, PatternReport, check_conjecture, check_patterns

_LABEL = {"description_width": "initial"}
#: Short checkbox labels for the structures.
_TICKS = {
    "period": "repeats (eventually periodic)",
    "parity": "parity (odd/even)",
    "v2": "v2(n): times 2 divides n",
    "odd_part": "odd part of n",
    "omega": "Ω(n): prime factors",
    "mod": "n mod k, k = 3..12",
}


def _message(text: str, error: bool = False) -> str:
    if not text:
        return ""
    if error:  # marked by a word and a border, not by colour only
        return (
            '<div class="duel-error" role="alert" style="border-left:4px solid #b00020;padding:2px 8px;'
            f'color:#b00020"><b>Problem:</b> {escape(text)}</div>'
        )
    return f'<div role="status">{escape(text)}</div>'


class PatternExplorer:
    """Rules, N, which structures to check; the report of what holds up to N and what fails first."""

    def __init__(
        self,
        rules: Rules | str = "divisor-duel",
        upto: int = 1000,
        *,
        structures: Iterable[str] = tuple(STRUCTURES),
        conjecture: Callable[[int], object] | None = None,
    ) -> None:
        book = get_rules(rules)
        self._books: dict[str, Rules] = {**RULEBOOKS, book.name: book}
        self.conjecture = conjecture
        self.report: PatternReport | ConjectureReport | None = None
        chosen = set(structures)
        options = [(r.title if name in RULEBOOKS else f"{r.title} ({name})", name) for name, r in self._books.items()]
        self.rules_box = w.Dropdown(
            options=options,
            value=book.name, description="Rules", style=_LABEL, tooltip="Which rule book to check",
        )  # fmt: skip
        self.upto_box = w.Text(
            value=str(upto), description="Check n = 1 up to N =", style=_LABEL, continuous_update=False,
            tooltip="How far to check (type a whole number, then press Enter)", layout=w.Layout(width="22em"),
        )  # fmt: skip
        self.ticks = {
            key: w.Checkbox(
                value=key in chosen,
                description=label,
                indent=False,
                layout=w.Layout(width="auto", margin="2px 1.5em 2px 0"),
            )
            for key, label in _TICKS.items()
        }
        self.check_button = w.Button(description="Check patterns", button_style="primary", tooltip="Run the checks")
        self.guess_button = w.Button(
            description="Test my guess", disabled=conjecture is None,
            tooltip="Test the guess function given as PatternExplorer(..., conjecture=my_guess)",
        )  # fmt: skip
        self.message = w.HTML()
        self.report_html = w.HTML().add_class("duel-pattern-report")
        self.check_button.on_click(lambda _: self.check())
        self.guess_button.on_click(lambda _: self.test_guess())
        self.upto_box.observe(lambda _: self.check(), names="value")  # Enter (or leaving the box) checks
        structures_box = w.VBox(
            [w.HTML("<b>Structures to check</b> (for P/N and for the Grundy values):"),
             w.HBox(list(self.ticks.values()), layout=w.Layout(flex_flow="row wrap"))]
        )  # fmt: skip
        self.widget = w.VBox(
            [
                w.HBox([self.rules_box, self.upto_box], layout=w.Layout(flex_flow="row wrap")),
                structures_box,
                w.HBox([self.check_button, self.guess_button]),
                self.message,
                self.report_html,
            ]
        ).add_class("duel-pattern-explorer")

    # -- actions (pure functions underneath) -------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._books[str(self.rules_box.value)]

    def _upto(self) -> int:
        return read_number(str(self.upto_box.value), "N, how far to check")

    def check(self) -> None:
        """Run the ticked checks and show the report (or the problem)."""
        try:
            chosen = [key for key, box in self.ticks.items() if box.value]
            if not chosen:
                raise DuelError("Tick at least one structure to check.")
            self.report = check_patterns(self.rules, self._upto(), structures=chosen)
        except DuelError as error:
            self.message.value = _message(str(error), error=True)
            return
        self.message.value = _message(f"Checked n = 1..{self.report.upto:,} in {self.report.seconds:.2f} s.")
        self.report_html.value = self.report._repr_html_()

    def test_guess(self) -> None:
        """Test the guess function on n = 1..N and show the verdict."""
        try:
            if self.conjecture is None:
                raise DuelError("No guess to test: make the explorer with conjecture=your_function.")
            self.report = check_conjecture(self.rules, self.conjecture, self._upto())
        except DuelError as error:
            self.message.value = _message(str(error), error=True)
            return
        self.message.value = ""
        self.report_html.value = self.report._repr_html_()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle: dict[str, Any] | None = self.widget._repr_mimebundle_(**kwargs)
        if bundle is not None:
            bundle["text/plain"] = (
                f"PatternExplorer for {self.rules.title}: choose N and the structures, then press Check patterns."
            )
        return bundle


__all__ = ["PatternExplorer"]
