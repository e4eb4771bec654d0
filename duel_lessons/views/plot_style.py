"""Colours, type sizes and figure sizes shared by every plot, and how big their text looks on screen.

Text on a plot is readable when projected if it is at least 10 screen pixels
high where it is shown.  A notebook shows a PNG at its own size, or shrunk to
the width of the output area if it is wider, so a font of ``pt`` points on a
figure saved at ``dpi`` looks ``pt * dpi / 72 * min(1, shown_width / png_width)``
pixels high.  JupyterLab 4 in a 1280 px wide window (file browser open) gives
the output area :data:`LAB_WIDTH_AT_1280` = 848 px (measured in Chromium); the
figures here are at most :data:`FIGURE_WIDTH` inches x :data:`DPI` = 820 px
wide, so they are shown unshrunk, and no font is under 8 pt (11 px).  Large type
(``large=True``, for projecting) uses bigger fonts on narrower figures
(:data:`LARGE_FIGURE_WIDTH`, 560 px), so that its text stays about 11 px or more
even in Lab's 368 px output area at 800 px.

>>> rendered_px(10, dpi=100, png_width=1640, shown_width=820)
6.9...
"""

from __future__ import annotations

import io
import textwrap
from dataclasses import dataclass

from matplotlib.figure import Figure
from matplotlib.text import Text

from duel_lessons.engine.errors import DuelError

#: Okabe-Ito blue: P-positions (the player to move loses).  Dark, so P reads as dark grey in greyscale.
P_COLOUR = "#0072B2"
#: Okabe-Ito orange: N-positions (the player to move wins).  Light, so N reads as light grey.
N_COLOUR = "#E69F00"
#: Marker shapes: P square, N circle (shape says P/N even without colour).
P_MARKER = "s"
N_MARKER = "o"
#: Hatch on P cells (hundred square, variant heatmap), so cells read in greyscale too.
P_HATCH = "///"
#: Legend words, the same as the colours say.
P_LABEL = "P: player to move loses"
N_LABEL = "N: player to move wins"
#: Winning moves (to a P-position) and other moves in the game graph.
WIN_MOVE_COLOUR = "#000000"
OTHER_MOVE_COLOUR = "#999999"

#: Dots per inch of every figure (and of the PNG a notebook shows).
DPI = 100
#: Widest figure, in inches: 820 px, inside Lab's output area at 1280 px (848 px).
FIGURE_WIDTH = 8.2
#: Width of large-type figures, in inches: 560 px, shrunk by only 0.66 at 800 px.
LARGE_FIGURE_WIDTH = 5.6
#: Width in px of JupyterLab 4.6's output area in a 1280 px wide window, file browser open (measured).
LAB_WIDTH_AT_1280 = 848
#: The same in an 800 px wide window (measured): wide figures are shrunk by about 0.45 there.
LAB_WIDTH_AT_800 = 368
#: The smallest text, in screen px, allowed on any plot shown at 1280 px.
MIN_TEXT_PX = 10.0


class PlotError(DuelError):
    """A plot asked for with a bad or too-large range."""


@dataclass(frozen=True)
class TypeSizes:
    """Font sizes in points: ``text`` (labels, ticks, legend), ``small`` (numbers on marks), ``title``.

    ``width`` is the figure's width in inches and ``legend_columns`` how many
    legend entries stand side by side.
    """

    text: float
    small: float
    title: float
    #: Characters per title line before it wraps.
    title_chars: int
    width: float
    legend_columns: int


#: Normal type: 10 pt is 13.9 px at 100 dpi, 9 pt is 12.5 px.
NORMAL = TypeSizes(text=10.0, small=9.0, title=12.0, title_chars=78, width=FIGURE_WIDTH, legend_columns=2)
#: Large type for projecting (``large=True``): about 1.4 times bigger, on a narrower figure.
LARGE = TypeSizes(text=14.0, small=12.5, title=16.0, title_chars=44, width=LARGE_FIGURE_WIDTH, legend_columns=1)


def type_sizes(large: bool) -> TypeSizes:
    """:data:`LARGE` if ``large`` else :data:`NORMAL`."""
    return LARGE if large else NORMAL


def wrap_title(title: str, sizes: TypeSizes) -> str:
    """The title broken at spaces into lines that fit the figure's width.

    Never between "n =" and its range, nor at the hyphen of "P-".

    >>> wrap_title("a " * 50, NORMAL).count("\\n")
    1
    >>> print(wrap_title("Divisor Duel: P- and N-positions for n = 1..60", LARGE))
    Divisor Duel: P- and N-positions for
    n = 1..60
    """
    glued = title.replace(" = ", "\u00a0=\u00a0")  # textwrap does not break at no-break spaces
    lines = textwrap.wrap(glued, sizes.title_chars, break_on_hyphens=False)
    return "\n".join(lines).replace("\u00a0", " ") or title


def new_figure(height: float, width: float = FIGURE_WIDTH) -> Figure:
    """A constrained-layout figure at :data:`DPI` (the same whatever the notebook's rc settings)."""
    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def png(fig: Figure) -> bytes:
    """The PNG a notebook shows for ``fig`` (tight bounding box, at the figure's dpi)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight", dpi=fig.dpi)
    return buffer.getvalue()


def rendered_px(points: float, *, dpi: float, png_width: float, shown_width: float) -> float:
    """Screen height in px of a ``points`` font on a ``png_width`` px PNG shown at most ``shown_width`` wide."""
    return points * dpi / 72 * min(1.0, shown_width / png_width)


def png_width(fig: Figure) -> int:
    """Width in px of the PNG that :func:`png` makes."""
    data = png(fig)
    return int.from_bytes(data[16:20], "big")  # IHDR: width is the first field


def text_sizes(fig: Figure, shown_width: float = LAB_WIDTH_AT_1280) -> list[tuple[str, float]]:
    """(text, screen px) for every visible non-empty text on ``fig`` shown at most ``shown_width`` px wide.

    >>> fig = new_figure(2)
    >>> _ = fig.add_subplot().set_title("hello", fontsize=10)
    >>> [(t, round(px, 1)) for t, px in text_sizes(fig) if t == "hello"]
    [('hello', 13.9)]
    """
    width = png_width(fig)  # also draws the figure, so tick labels exist
    found: list[tuple[str, float]] = []
    for text in fig.findobj(Text):
        if not isinstance(text, Text) or not text.get_visible() or not text.get_text().strip():
            continue
        if not _drawn(fig, text):
            continue
        px = rendered_px(float(text.get_fontsize()), dpi=fig.dpi, png_width=width, shown_width=shown_width)
        found.append((text.get_text(), px))
    return found


def _drawn(fig: Figure, text: Text) -> bool:
    """Whether a text lies inside the drawn picture (tick labels outside the axes' limits are not drawn)."""
    axes = text.axes
    if axes is None or text not in axes.xaxis.get_ticklabels() + axes.yaxis.get_ticklabels():
        return True
    x, y = text.get_position()
    if text in axes.xaxis.get_ticklabels():
        lo, hi = sorted(axes.get_xlim())
        return bool(lo <= x <= hi)
    lo, hi = sorted(axes.get_ylim())
    return bool(lo <= y <= hi)
