"""Small helpers shared by the notebook views: move words, messages as prose, figures, progress.

>>> move_words(DIVISOR_DUEL, 60, 15)
'60 − 15 = 45'
>>> prose("2^2 * 3 - 1 = 11")
'2² × 3 − 1 = 11'
>>> read_box("１２", "a divisor")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
duel_lessons.engine.errors.NumberInputError: '１２' is not a whole number: type a divisor with the digits 0-9 only...
"""

from __future__ import annotations

import base64
import io
import re
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.numbers import MAX_NUMBER, read_number
from duel_lessons.engine.rules import DIVISOR_DUEL, RULEBOOKS, Rules
from duel_lessons.solving.tables import Table, tabulate

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "DIVISOR_DUEL",
    "PROGRESS_FROM",
    "figure_output",
    "grouped",
    "html_message",
    "move_words",
    "output_text",
    "progress_bar",
    "prose",
    "read_box",
    "rules_options",
    "tabulate_with_progress",
]

#: Tables larger than this show a progress bar while they are computed.
PROGRESS_FROM = 200_000
WIDE = {"description_width": "initial"}
TICK: dict[str, Any] = {"indent": False, "layout": {"width": "auto", "margin": "2px 1.5em 2px 0"}}

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def op_symbol(rules: Rules) -> str:
    """'−' for subtraction games, '÷' for division games."""
    return "−" if rules.move == "subtract" else "÷"


def move_words(rules: Rules, n: int, d: int) -> str:
    """The move in symbols: '60 − 15 = 45' or '30 ÷ 5 = 6'."""
    return f"{grouped(n)} {op_symbol(rules)} {grouped(d)} = {grouped(rules.result(n, d))}"


def grouped(n: int) -> str:
    """Large numbers in groups of three digits, e.g. 1 000 000 (thin spaces).

    >>> grouped(60), grouped(1_000_000)
    ('60', '1\u2009000\u2009000')
    """
    return str(n) if n < 10_000 else f"{n:,}".replace(",", "\u2009")


def prose(text: str) -> str:
    """Mathematical text as a reader writes it: 2^2 → 2², * → ×, a spaced - → −, ** → superscript."""
    text = re.sub(r"\*\*(\d+)", lambda m: m.group(1).translate(_SUPERSCRIPT), text)
    text = re.sub(r"\^(\d+)", lambda m: m.group(1).translate(_SUPERSCRIPT), text)
    text = re.sub(r"(?<=[\w)]) \* (?=[\w(])", " × ", text)
    return re.sub(r"(?<=[\w)]) - (?=[\w(])", " − ", text)


def prose_html(text: str) -> str:
    """Prose as HTML paragraphs (escaped; lines starting with '- ' become a list)."""
    parts: list[str] = []
    items: list[str] = []
    for line in prose(text).splitlines():
        if line.startswith("- "):
            items.append(f"<li>{escape(line[2:])}</li>")
            continue
        if items:
            parts.append("<ul>" + "".join(items) + "</ul>")
            items = []
        if line.strip():
            parts.append(f"<p>{escape(line)}</p>")
    if items:
        parts.append("<ul>" + "".join(items) + "</ul>")
    return "".join(parts)


def read_box(text: str, what: str) -> int:
    """A number typed in a box (engine.numbers.read_number), refusing numbers above 10**18."""
    n = read_number(text, what)
    if n > MAX_NUMBER:
        raise DuelError(f"{grouped(n)} is too big: the largest number is 10**18.")
    return n


def html_message(text: str, error: bool = False, label: str = "Problem:") -> str:
    """A message line; errors are marked by a word and a border, not by colour only."""
    if not text:
        return ""
    if error:
        return (
            '<div class="duel-error" role="alert" style="border-left:5px solid #b00020;padding:4px 10px;'
            f'color:#8a0018;white-space:normal"><b>{escape(label)}</b> {escape(prose(text))}</div>'
        )
    return f'<div class="duel-info" role="status" style="padding:4px 10px">{escape(prose(text))}</div>'


def figure_output(fig: Figure, alt: str) -> dict[str, Any]:
    """A display_data output holding the figure as PNG, with ``alt`` as its text."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    png = base64.b64encode(buffer.getvalue()).decode("ascii")
    return {"output_type": "display_data", "data": {"image/png": png, "text/plain": alt}, "metadata": {}}


def say(out: w.Output, text: str) -> None:
    """Append a paragraph of text to an Output (stored the same way under nbval and Lab)."""
    out.append_stdout(text.rstrip("\n") + "\n\n")


def output_text(out: w.Output) -> str:
    """All the text in an Output (for tests and for reading back what was shown)."""
    parts = []
    for item in out.outputs:
        if "text" in item:
            parts.append(str(item["text"]))
        elif "data" in item:
            parts.append(str(item["data"].get("text/plain", "")))
    return "".join(parts)


def tabulate_with_progress(rules: Rules, upto: int, bar: w.IntProgress) -> Table:
    """``tabulate(rules, upto)``, showing ``bar`` while a large table is computed."""
    if upto <= PROGRESS_FROM:
        return tabulate(rules, upto)
    bar.value = 0
    bar.description = f"Table to {upto:,}"
    bar.layout.display = ""

    def report(fraction: float) -> None:
        bar.value = round(100 * fraction)

    try:
        return tabulate(rules, upto, progress=report)
    finally:
        bar.layout.display = "none"


def progress_bar() -> w.IntProgress:
    """A progress bar that takes no room until a long computation starts."""
    bar = w.IntProgress(value=0, min=0, max=100, description="Computing", style=WIDE)
    bar.layout.display = "none"
    return bar


def button(label: str, tooltip: str, css: str) -> w.Button:
    """A text button (no icon: icons would come from a CDN) with a CSS class for tests."""
    return w.Button(description=label, tooltip=tooltip, layout=w.Layout(width="auto")).add_class(css)


def rules_options(extra: dict[str, Rules]) -> list[tuple[str, str]]:
    """Dropdown entries (label, key) for every shipped book, then the variants in ``extra``."""
    shipped = [(f"{r.title} ({name})", name) for name, r in RULEBOOKS.items() if name not in extra]
    return shipped + [(r.title, key) for key, r in extra.items()]


def rules_for(key: str, extra: dict[str, Rules]) -> Rules:
    """The Rules value behind a dropdown key: a variant from ``extra``, else a registered book."""
    from duel_lessons.engine.rules import get_rules

    return extra[key] if key in extra else get_rules(key)
