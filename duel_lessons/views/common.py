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
import math
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import WAIT, GameState
from duel_lessons.engine.numbers import MAX_NUMBER, read_number
from duel_lessons.engine.rules import DIVISOR_DUEL, RULEBOOKS, Rules
from duel_lessons.solving.tables import Table, tabulate

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "DIVISOR_DUEL",
    "NEEDS_WIDGETS",
    "PROGRESS_FROM",
    "TextFallback",
    "count_bar",
    "count_progress",
    "figure_output",
    "grouped",
    "html_message",
    "move_words",
    "output_text",
    "position_html",
    "position_text",
    "progress_bar",
    "prose",
    "read_box",
    "rules_options",
    "show_with_fallback",
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


def read_box(text: str, what: str, example: bool = True) -> int:
    """A number typed in a box (engine.numbers.read_number), refusing numbers above 10**18.

    ``example=False``: the message gives no example number (on a board, an example could be a move to play).

    >>> read_box("x", "a divisor of 30", example=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    duel_lessons.engine.errors.NumberInputError: 'x' is not a whole number: type a divisor of 30 with ... 0-9 only.
    """
    try:
        n = read_number(text, what)
    except DuelError as error:
        if example or not str(error).endswith(", such as 60."):
            raise
        raise type(error)(str(error).removesuffix(", such as 60.") + ".") from None
    if n > MAX_NUMBER:
        raise DuelError(f"{grouped(n)} is too big: the largest number is 10**18.")
    return n


def html_message(text: str, error: bool = False, label: str = "Problem:", live: bool = True) -> str:
    """A message line; errors are marked by a word and a border, not by colour only.

    ``live=False`` for a view whose Guard already reads its messages out (one live region per board).

    >>> html_message("Hello", live=False)
    '<div class="duel-info">Hello</div>'
    """
    if not text:
        return ""
    alert, status = (' role="alert"', ' role="status"') if live else ("", "")
    if error:  # colours from the theme (views.board_view.BOARD_CSS: .duel-error)
        return f'<div class="duel-error"{alert}><b>{escape(label)}</b> {escape(prose(text))}</div>'
    return f'<div class="duel-info"{status}>{escape(prose(text))}</div>'


#: The smallest text a plot may show, in screen px: a figure is shrunk only as far as keeps its text this size.
MIN_TEXT_PX = 10.0


def figure_output(fig: Figure, alt: str) -> dict[str, Any]:
    """A display_data output holding the figure as PNG, shown at its natural size, with ``alt`` as its text.

    The PNG is saved at the figure's own dpi (the plots are made at most about 820 px wide, with
    text of at least 12 px at that size).  The HTML shows it at that width where there is room;
    in a narrower window it shrinks only as far as keeps its smallest text at MIN_TEXT_PX, and
    beyond that the explorer scrolls sideways (CSS ``.duel-plot``).
    """
    from matplotlib.text import Text

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=fig.dpi, bbox_inches="tight")
    data = buffer.getvalue()
    width, height = struct.unpack(">II", data[16:24])  # the PNG's IHDR chunk
    sizes = [float(t.get_fontsize()) for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    smallest = min(sizes, default=10.0) * fig.dpi / 72
    min_width = min(width, math.ceil(width * MIN_TEXT_PX / smallest))
    png = base64.b64encode(data).decode("ascii")
    html = (
        f'<img class="duel-figure" src="data:image/png;base64,{png}" alt="{escape(alt, quote=True)}" '
        f'width="{width}" style="width:100%;max-width:{width}px;min-width:{min_width}px;height:auto">'
    )
    return {
        "output_type": "display_data",
        "data": {"text/html": html, "image/png": png, "text/plain": alt},
        "metadata": {"image/png": {"width": width, "height": height}},
    }


#: The last line of a board's text fallback.
NEEDS_WIDGETS = "(The board is a widget: open the notebook in JupyterLab or Voilà to play.)"


def position_text(title: str, number: int, status: str, moves: list[str]) -> str:
    """A board's position as plain text, for pages where widgets do not run."""
    lines = [f"{title}: current number {number}. {status}"]
    if moves:
        lines.append(f"Moves: {', '.join(moves)}.")
    return "\n".join([*lines, NEEDS_WIDGETS])


def position_html(title: str, number: int, status: str, moves: list[str]) -> str:
    """A board's position as HTML (the number large, the moves on one wrapping line)."""
    cards = " &nbsp;·&nbsp; ".join(f"<span style='white-space:nowrap'>{escape(m)}</span>" for m in moves)
    return (
        f'<div class="duel-board-text"><b>{escape(title)}</b>: current number '
        f"<b style='font-size:1.6em'>{grouped(number)}</b><br>{escape(status)}"
        + (f"<br>Moves: {cards}" if cards else "")
        + f"<p><i>{escape(NEEDS_WIDGETS)}</i></p></div>"
    )


def show_with_fallback(widget: w.Widget, text: str, html: str) -> None:
    """Display ``widget``, then the same content as text and HTML for pages that cannot run widgets.

    nbconvert's HTML and GitHub show a widget as an empty box (its code comes from a CDN, if
    at all), so a second output carries ``text`` and ``html``.  Where the widget renders, the
    boards' CSS (views.board_view.BOARD_CSS) hides that second output.
    """
    from IPython.display import display

    display(widget)
    display({"text/plain": text, "text/html": f'<div class="duel-fallback">{html}</div>'}, raw=True)


class TextFallback:
    """A widget that shows itself with a text and HTML fallback (see :func:`show_with_fallback`).

    >>> shown = TextFallback(w.Label("hello"), "Plain hello", "<b>hello</b>")
    >>> sorted(shown._repr_mimebundle_()[0])
    ['application/vnd.jupyter.widget-view+json', 'text/html', 'text/plain']
    """

    def __init__(self, widget: w.Widget, text: str, html: str | None = None) -> None:
        self.widget, self.text, self.html = widget, text, html if html is not None else f"<p>{escape(text)}</p>"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        if not isinstance(bundle, tuple):
            bundle = (bundle, {})
        bundle[0]["text/plain"] = self.text
        bundle[0]["text/html"] = self.html
        return bundle

    def _ipython_display_(self) -> None:
        show_with_fallback(self.widget, self.text, self.html)


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


def count_progress(bar: w.IntProgress, label: w.Label) -> Callable[[int, int, str], None]:
    """A callback ``(done, total, name)`` that moves ``bar`` and says "12 of 30: ana.ipynb" in ``label``.

    >>> bar, label = w.IntProgress(), w.Label()
    >>> count_progress(bar, label)(12, 30, "ana.ipynb")
    >>> bar.value, bar.max, label.value
    (12, 30, '12 of 30: ana.ipynb')
    """

    def show(done: int, total: int, name: str) -> None:
        bar.max = max(total, 1)
        bar.value = done
        label.value = f"{done} of {total}: {name}"

    return show


def count_bar(description: str) -> Callable[[int, int, str], None]:
    """Show a progress bar with a line of text under the running cell; return its :func:`count_progress`."""
    from IPython.display import display

    bar = w.IntProgress(value=0, min=0, max=1, description=description, style=WIDE)
    label = w.Label("")
    display(w.HBox([bar, label]))
    return count_progress(bar, label)


def button(label: str, tooltip: str, css: str) -> w.Button:
    """A text button (no icon: icons would come from a CDN) with a CSS class for tests.

    It is marked ``dg-guarded``: its handler must be wrapped by the view's
    :meth:`~duel_lessons.views.board_view.Guard.guarded`, so a double-click acts once.
    """
    layout = w.Layout(width="auto")
    return w.Button(description=label, tooltip=tooltip, layout=layout).add_class(css).add_class("dg-guarded")


def rules_options(extra: dict[str, Rules]) -> list[tuple[str, str]]:
    """Dropdown entries (label, key) for every shipped book, then the variants in ``extra``."""
    shipped = [(f"{r.title} ({name})", name) for name, r in RULEBOOKS.items() if name not in extra]
    return shipped + [(r.title, key) for key, r in extra.items()]


def rules_for(key: str, extra: dict[str, Rules]) -> Rules:
    """The Rules value behind a dropdown key: a variant from ``extra``, else a registered book."""
    from duel_lessons.engine.rules import get_rules

    return extra[key] if key in extra else get_rules(key)


class Hand:
    """A person at the board as a strategy: the move chosen by a click, else WAIT."""

    passes_by_hand = True

    def __init__(self) -> None:
        self.pending: object = None

    def __call__(self, state: object) -> object:
        move, self.pending = self.pending, None
        return WAIT if move is None else move


def rules_key(rules: Rules) -> str:
    """The key of a Rules value in a board's Rules list: its name if it is the shipped book, else 'variant:…'."""
    return rules.name if RULEBOOKS.get(rules.name) == rules else f"variant:{rules.name}"


@dataclass
class Turn:
    """What happened in one call to play_out: the states after each event, and their words."""

    states: list[GameState] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # one per state: what happened
    notes: list[str] = field(default_factory=list)  # anything else worth saying

    def words_until(self, state: GameState) -> str:
        """What happened up to ``state`` (for the frames shown on the way)."""
        upto = self.states.index(state) + 1 if state in self.states else 0
        return " ".join(self.lines[:upto])
