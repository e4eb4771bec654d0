"""Pictures of P- and N-positions for the lessons, and the registry :data:`PLOTS` of them.

Every plot function is called the same way, rules first, then the range::

    fn(rules, upto, *, start=..., large=False, ax=None, ...) -> Figure

``rules`` is a :class:`~duel_lessons.engine.rules.Rules` value or a book name
such as ``"divisor-duel"`` (a list of them for :func:`variant_heatmap`);
``upto`` is the largest n drawn and ``start`` the smallest.  ``large=True``
uses bigger type, for projecting.  The function draws into ``ax`` if one is
given (else into a new figure) and returns the matplotlib
:class:`~matplotlib.figure.Figure`, so that a lesson can change titles, save it
or add to it.  In a notebook a returned Figure displays itself.

Figures are at most 820 px wide, so JupyterLab shows them unshrunk at 1280 px,
and no text is under 8 pt (11 px); see :mod:`duel_lessons.views.plot_style`.
Long number lines wrap onto several rows.

One palette everywhere (Okabe-Ito, safe for colour-blind readers and in
greyscale): P-positions are dark blue squares with a hatch, N-positions light
orange circles.  The legend says the same in words.

>>> sorted(PLOTS)
['Grundy values', 'game graph', 'hundred square', 'number line', 'remoteness', 'variants side by side']
>>> fig = PLOTS["number line"]("divisor-duel", 30)
>>> fig.get_suptitle()
'Divisor Duel: P- and N-positions for n = 1..30'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MaxNLocator

from duel_lessons.engine.numbers import whole_number
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.solving.tables import Table, tabulate
from duel_lessons.views.game_graph import MAX_GRAPH_START, game_graph, reachable
from duel_lessons.views.plot_style import (
    N_COLOUR,
    N_LABEL,
    N_MARKER,
    P_COLOUR,
    P_HATCH,
    P_LABEL,
    P_MARKER,
    PlotError,
    TypeSizes,
    new_figure,
    png,
    type_sizes,
    wrap_title,
)

#: Largest range for the number line, Grundy and remoteness plots.
MAX_POINTS = 10**6
#: Largest number of rows of the hundred square (1000 cells).
MAX_ROWS = 100
#: Largest number of columns for the variant heatmap.
MAX_HEATMAP = 10**4
#: Most rows a number line wraps onto; longer ranges are drawn as one row of marks without numbers.
MAX_LINE_ROWS = 12


def _show_figures_in_notebooks() -> None:
    """Let a returned Figure display itself as a PNG in IPython/Jupyter.

    The plots are plain :class:`Figure` objects (no pyplot), so IPython has no
    image formatter for them until pyplot is imported; register one here.
    """
    try:
        from IPython.core.getipython import get_ipython
    except ImportError:  # pragma: no cover - IPython is installed with jupyter
        return
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["image/png"].for_type(Figure, png)


_show_figures_in_notebooks()


# -- helpers ------------------------------------------------------------------


def _whole(name: str, value: object, minimum: int) -> int:
    """``value`` as an int of at least ``minimum``, else PlotError naming it."""
    number = whole_number(value, name, PlotError)
    if number < minimum:
        raise PlotError(f"{name} must be at least {minimum}, not {number}.")
    return number


def _range(start: object, upto: object) -> tuple[int, int]:
    first = _whole("start", start, 1)
    last = _whole("upto", upto, 1)
    if last < first:
        raise PlotError(f"upto={last} is less than start={first}: there is nothing to plot.")
    if last - first + 1 > MAX_POINTS:
        raise PlotError(
            f"upto={last} would plot {last - first + 1:,} numbers; the limit is {MAX_POINTS:,}. "
            "Plot a smaller range, or work with tabulate(...) arrays directly."
        )
    return first, last


def _root(ax: Axes) -> Figure:
    root = ax.get_figure(root=True)
    if not isinstance(root, Figure):  # pragma: no cover - an Axes always has a figure
        raise PlotError("The axes given are not in a figure.")
    return root


def _marker_size(count: int, large: bool = False) -> float:
    """Marker area (points^2) that keeps ``count`` marks apart on an 8-inch axis."""
    if count <= 100:
        return 90.0 if large else 60.0
    if count <= 1000:
        return 14.0
    return 2.0


def _legend(fig: Figure, ax: Axes, handles: Sequence[object], sizes: TypeSizes, own: bool, scale: float = 1) -> None:
    """The legend: below the picture across the figure (our own figure), else right of the given axes."""
    options: dict[str, object] = {"fontsize": sizes.text, "markerscale": scale}
    if own:
        fig.legend(handles=handles, loc="outside lower center", ncols=sizes.legend_columns, frameon=False, **options)
    else:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, **options)


def _pn_scatter(ax: Axes, x: np.ndarray, y: np.ndarray, is_p: np.ndarray, size: float) -> list[object]:
    """One scatter per class (fast for 10^5 points): P squares, N circles; returns the legend handles, P first."""
    large = len(x) > 1000
    common: dict[str, object] = {"s": size, "rasterized": large}
    if large:
        common["linewidths"] = 0
    else:
        common.update(edgecolors="black", linewidths=0.5)
    n_marks = ax.scatter(x[~is_p], y[~is_p], marker=N_MARKER, c=N_COLOUR, label=N_LABEL, zorder=2, **common)  # type: ignore[arg-type]
    p_marks = ax.scatter(x[is_p], y[is_p], marker=P_MARKER, c=P_COLOUR, label=P_LABEL, zorder=3, **common)  # type: ignore[arg-type]
    return [p_marks, n_marks]


def _p_n_patches() -> list[Patch]:
    return [
        Patch(facecolor=P_COLOUR, hatch=P_HATCH, edgecolor="white", label=P_LABEL),
        Patch(facecolor=N_COLOUR, edgecolor="white", label=N_LABEL),
    ]


def _table(rules: Rules | str, upto: int) -> Table:
    return tabulate(get_rules(rules), upto)


def _style_axes(ax: Axes, sizes: TypeSizes, xlabel: str, ylabel: str) -> None:
    ax.set_xlabel(xlabel, fontsize=sizes.text)
    ax.set_ylabel(ylabel, fontsize=sizes.text)
    ax.tick_params(labelsize=sizes.text)


def _range_words(first: int, last: int) -> str:
    return f"n = {first}..{last}"


# -- number line, Grundy, remoteness ---------------------------------------------


def _per_row(last: int, sizes: TypeSizes) -> int:
    """How many labelled numbers fit on one row of the number line (20, 10 or 5)."""
    room = (sizes.width - 1.1) * 72  # points of axis width
    need = 0.62 * sizes.small * len(str(last)) + 6
    return next((k for k in (20, 10) if room / k >= need), 5)


def number_line(
    rules: Rules | str, upto: int = 60, *, start: int = 1, large: bool = False, ax: Axes | None = None
) -> Figure:
    """P and N for each n from ``start`` to ``upto`` (P lane above, N lane below), each mark with its number.

    Up to 12 rows of 20 (or 10) numbers wrap like lines of text; longer ranges
    are one row of marks with a numbered axis.  Into a given ``ax``: one row.
    """
    book = get_rules(rules)
    first, last = _range(start, upto)
    sizes = type_sizes(large)
    outcome = _table(book, last).outcome[first : last + 1]
    n = np.arange(first, last + 1)
    is_p = outcome == 0
    count = len(n)
    per_row = _per_row(last, sizes)
    own = ax is None
    if ax is not None:
        fig, axes, width = _root(ax), [ax], count
        labelled = count <= per_row
    elif count <= per_row * MAX_LINE_ROWS:
        rows = -(-count // per_row)
        fig = new_figure((0.95 if large else 0.75) * rows + (2.0 if large else 1.3), sizes.width)
        axes, width, labelled = list(fig.subplots(rows, 1, squeeze=False)[:, 0]), per_row, True
    else:
        fig = new_figure(3.6 if large else 2.8, sizes.width)
        axes, width, labelled = [fig.add_subplot()], count, False
    size = _marker_size(width, large)
    handles: list[object] = []
    for i, row_ax in enumerate(axes):
        lo = first + i * width
        part = slice(lo - first, min(lo + width, last + 1) - first)
        xs, ps = n[part], is_p[part]
        lane = np.where(ps, 1, 0)
        for y in (0, 1):
            row_ax.axhline(y, color="0.85", linewidth=1, zorder=1)
        handles = _pn_scatter(row_ax, xs, lane, ps, size)
        if labelled:
            for k, y in zip(xs.tolist(), lane.tolist(), strict=True):
                row_ax.text(k, y + 0.32, str(k), ha="center", va="bottom", fontsize=sizes.small)
            row_ax.set_xticks([])
            row_ax.set_xlim(lo - 0.6, lo + width - 0.4)
        else:
            pad = 0.02 * (last - first) + 0.6
            row_ax.set_xlim(first - pad, last + pad)
            row_ax.xaxis.set_major_locator(MaxNLocator(nbins=7, integer=True, steps=[1, 2, 5, 10]))
        row_ax.set_yticks([0, 1], ["N", "P"])
        row_ax.tick_params(labelsize=sizes.text, length=0)
        row_ax.set_ylim(-0.5, 1.95)
        for side in ("top", "right", "left", "bottom"):
            row_ax.spines[side].set_visible(side == "bottom" and not labelled)
    axes[-1].set_xlabel("n, the number on the board", fontsize=sizes.text)
    title = wrap_title(f"{book.title}: P- and N-positions for {_range_words(first, last)}", sizes)
    if own:
        fig.suptitle(title, fontsize=sizes.title)
        fig.supylabel("outcome", fontsize=sizes.text)
    else:
        axes[0].set_title(title, fontsize=sizes.title)
        axes[0].set_ylabel("outcome", fontsize=sizes.text)
    _legend(fig, axes[0], handles, sizes, own, max(1.0, float(np.sqrt(50 / size))))
    return fig


def _value_plot(
    book: Rules, first: int, last: int, values: np.ndarray, large: bool, ax: Axes | None
) -> tuple[Figure, Axes, bool, list[object]]:
    """The scatter of ``values`` (indexed by n) with P/N marks, shared by the Grundy and remoteness plots."""
    own = ax is None
    if ax is None:
        fig = new_figure(4.6 if large else 4.0, type_sizes(large).width)
        ax = fig.add_subplot()
    else:
        fig = _root(ax)
    n = np.arange(first, last + 1)
    shown = values[first : last + 1]
    defined = shown >= 0
    is_p = _table(book, last).outcome[first : last + 1] == 0
    handles = _pn_scatter(ax, n[defined], shown[defined], is_p[defined], _marker_size(len(n), large))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_locator(MaxNLocator(nbins=8, integer=True, steps=[1, 2, 5, 10]))
    ax.grid(axis="y", color="0.9")
    return fig, ax, own, handles


def grundy_plot(
    rules: Rules | str, upto: int = 60, *, start: int = 1, large: bool = False, ax: Axes | None = None
) -> Figure:
    """Grundy value against n (P-positions, Grundy value 0, as squares).

    Positions without a Grundy value (e.g. misère play) are left out; a variant
    with none raises PlotError.
    """
    book = get_rules(rules)
    first, last = _range(start, upto)
    sizes = type_sizes(large)
    grundy = _table(book, last).grundy
    missing = int((grundy[first : last + 1] < 0).sum())
    if missing == last - first + 1:
        raise PlotError(
            f"The package gives no Grundy values for {book.title} (n = {first} to {last}): in misère play they "
            "exist but do not decide sums, so they are not computed. Use remoteness_plot or number_line instead."
        )
    fig, ax, own, handles = _value_plot(book, first, last, grundy, large, ax)
    _style_axes(ax, sizes, "n, the number on the board", "Grundy value (nimber)")
    title = f"{book.title}: Grundy values for {_range_words(first, last)}"
    if missing:
        title += f" ({missing} without a Grundy value not shown)"
    ax.set_title(wrap_title(title, sizes), fontsize=sizes.title)
    _legend(fig, ax, handles, sizes, own, max(1.0, float(np.sqrt(50 / _marker_size(last - first + 1, large)))))
    return fig


def remoteness_plot(
    rules: Rules | str, upto: int = 60, *, start: int = 1, large: bool = False, ax: Axes | None = None
) -> Figure:
    """Remoteness against n: how many moves the game lasts with best play."""
    book = get_rules(rules)
    first, last = _range(start, upto)
    sizes = type_sizes(large)
    fig, ax, own, handles = _value_plot(book, first, last, _table(book, last).remoteness, large, ax)
    _style_axes(ax, sizes, "n, the number on the board", "moves left with best play")
    ax.set_title(wrap_title(f"{book.title}: remoteness for {_range_words(first, last)}", sizes), fontsize=sizes.title)
    _legend(fig, ax, handles, sizes, own, max(1.0, float(np.sqrt(50 / _marker_size(last - first + 1, large)))))
    return fig


# -- hundred square -------------------------------------------------------------


def hundred_square(
    rules: Rules | str,
    upto: int | None = None,
    *,
    start: int = 1,
    rows: int | None = None,
    large: bool = False,
    ax: Axes | None = None,
) -> Figure:
    """A 10-column grid of n = start .. upto (1 to 100 by default), coloured P/N.

    ``rows=r`` instead of ``upto`` draws r full rows.  Each cell shows its
    number; P cells are hatched so that the square reads in greyscale.
    """
    book = get_rules(rules)
    first = _whole("start", start, 1)
    if upto is not None and rows is not None:
        raise PlotError(f"Give upto={upto} or rows={rows}, not both.")
    if rows is not None:
        count = _whole("rows", rows, 1)
        last = first + 10 * min(count, MAX_ROWS + 1) - 1
    else:
        last = _whole("upto", first + 99 if upto is None else upto, first)
        count = -(-(last - first + 1) // 10)
    if count > MAX_ROWS:
        raise PlotError(
            f"{'rows=' + str(count) if rows is not None else f'upto={last}'} is too many for a hundred square "
            f"(the limit is {MAX_ROWS} rows, i.e. {10 * MAX_ROWS} numbers). Use number_line for long ranges."
        )
    sizes = type_sizes(large)
    outcome = _table(book, last).outcome
    own = ax is None
    width = sizes.width if large else 6.4
    if ax is None:
        fig = new_figure((width - 1.0) / 10 * count + (2.0 if large else 1.6), width)
        ax = fig.add_subplot()
    else:
        fig = _root(ax)
    cell_pt = (width - 1.4) * 72 / 10
    digits = len(str(last))
    fontsize = max(8.0, min(sizes.text + (2 if large else 0), (cell_pt - 6) / (0.62 * digits)))
    cells: dict[bool, list[Rectangle]] = {True: [], False: []}
    for k in range(first, last + 1):
        row, col = divmod(k - first, 10)
        is_p = bool(outcome[k] == 0)
        cells[is_p].append(Rectangle((col - 0.5, row - 0.5), 1, 1))
        ax.text(
            col,
            row,
            str(k),
            ha="center",
            va="center",
            fontsize=fontsize,
            color="white" if is_p else "black",
            fontweight="bold" if is_p else "normal",
            bbox={"boxstyle": "round,pad=0.15", "facecolor": P_COLOUR, "edgecolor": "none"} if is_p else None,
        )
    for is_p, patches in cells.items():
        ax.add_collection(
            PatchCollection(
                patches,
                facecolor=P_COLOUR if is_p else N_COLOUR,
                edgecolor="white",
                linewidth=1.5,
                hatch=P_HATCH if is_p else None,
                label=P_LABEL if is_p else N_LABEL,
                gid="P" if is_p else "N",
            )
        )
    ax.set_xlim(-0.5, 9.5)
    ax.set_ylim(count - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks(range(10), [f"+{c}" for c in range(10)])
    ax.set_yticks(range(count), [str(first + 10 * r) for r in range(count)])
    ax.tick_params(length=0, labelsize=sizes.text)
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    _style_axes(ax, sizes, "add this to the row's first number", "row starts at")
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title(wrap_title(f"{book.title}: P- and N-positions for {_range_words(first, last)}", sizes),
                 fontsize=sizes.title)  # fmt: skip
    _legend(fig, ax, _p_n_patches(), sizes, own)
    return fig


# -- variants side by side -------------------------------------------------------------


def _row_labels(books: Sequence[Rules]) -> list[str]:
    titles = [b.title for b in books]
    return [b.title if titles.count(b.title) == 1 else b.name for b in books]


def variant_heatmap(
    variants: Sequence[Rules | str],
    upto: int = 60,
    *,
    start: int = 1,
    large: bool = False,
    ax: Axes | None = None,
) -> Figure:
    """One row per variant, one column per n = start..upto, cells coloured P/N (P hatched)."""
    if isinstance(variants, (str, Rules)) or not len(variants):
        raise PlotError(f"variants must be a non-empty list of rules or book names, not {variants!r}.")
    books = [get_rules(v) for v in variants]
    first = _whole("start", start, 1)
    last = _whole("upto", upto, first)
    columns = last - first + 1
    if columns > MAX_HEATMAP:
        raise PlotError(f"upto={last} is too many columns (the limit is {MAX_HEATMAP:,}). Use number_line instead.")
    sizes = type_sizes(large)
    data = np.array([_table(b, last).outcome[first : last + 1] for b in books], dtype=np.int8)
    rows = len(books)
    own = ax is None
    if ax is None:
        fig = new_figure((0.6 if large else 0.45) * rows + (2.8 if large else 2.1), sizes.width)
        ax = fig.add_subplot()
    else:
        fig = _root(ax)
    ax.imshow(
        data,
        cmap=ListedColormap([P_COLOUR, N_COLOUR]),
        vmin=0,
        vmax=1,
        aspect="auto",
        interpolation="nearest",
        extent=(first - 0.5, last + 0.5, rows - 0.5, -0.5),
    )
    if columns <= 400:  # hatches are invisible in narrower cells
        p_cells = [
            Rectangle((first + k - 0.5, r - 0.5), 1, 1) for r in range(rows) for k in np.flatnonzero(data[r] == 0)
        ]
        ax.add_collection(
            PatchCollection(p_cells, facecolor="none", edgecolor="white", linewidth=0, hatch=P_HATCH, gid="P")
        )
    if columns <= 120:  # thin separators between cells
        ax.set_xticks(np.arange(first - 0.5, last + 1), minor=True)
        ax.grid(which="minor", axis="x", color="white", linewidth=0.5)
    ax.set_yticks(range(rows), _row_labels(books))
    ax.set_yticks(np.arange(-0.5, rows), minor=True)
    ax.grid(which="minor", axis="y", color="white", linewidth=2)
    ax.tick_params(which="minor", length=0)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=True, steps=[1, 2, 5, 10]))
    _style_axes(ax, sizes, "n, the number on the board", "variant")
    title = f"P- and N-positions of {rows} variant{'s' if rows > 1 else ''} for {_range_words(first, last)}"
    ax.set_title(wrap_title(title, sizes), fontsize=sizes.title)
    _legend(fig, ax, _p_n_patches(), sizes, own)
    return fig


# -- the registry ------------------------------------------------------------------------

#: A plot function: ``fn(rules, upto, *, start=..., large=False, ax=None) -> Figure``.
PlotFunction = Callable[..., Figure]


@dataclass(frozen=True)
class PlotSpec:
    """One registered plot: its name, function, what it shows and what range it takes.

    ``has_start`` is False for the game graph (it draws the game from ``upto``
    down, so a low end means nothing); ``many_rules`` is True when the first
    argument is a list of variants; ``max_upto`` is the largest ``upto`` it draws.
    Calling a spec calls its function.
    """

    name: str
    function: PlotFunction
    description: str
    has_start: bool = True
    many_rules: bool = False
    max_upto: int = MAX_POINTS

    def __call__(self, rules: object, upto: int | None = None, **options: object) -> Figure:
        return self.function(rules, upto, **options) if upto is not None else self.function(rules, **options)

    def draw(self, rules: object, lo: int, hi: int, *, large: bool = False) -> Figure:
        """The plot for n = lo..hi, as an explorer with a range slider wants it (the game graph: from hi)."""
        if self.has_start:
            return self.function(rules, hi, start=lo, large=large)
        return self.function(rules, hi, large=large)


#: Every plot, by the name an explorer shows.
PLOTS: dict[str, PlotSpec] = {
    spec.name: spec
    for spec in (
        PlotSpec("number line", number_line, "P and N for each n, wrapped in rows like text"),
        PlotSpec("hundred square", hundred_square, "a 10-column grid of n, coloured P/N", max_upto=10 * MAX_ROWS),
        PlotSpec("Grundy values", grundy_plot, "the Grundy value (nimber) of each n"),
        PlotSpec("remoteness", remoteness_plot, "how many moves the game lasts with best play"),
        PlotSpec(
            "game graph", game_graph, "every position reachable from upto, each move an arrow",
            has_start=False, max_upto=MAX_GRAPH_START,
        ),
        PlotSpec(
            "variants side by side", variant_heatmap, "one row of P/N cells per variant",
            many_rules=True, max_upto=MAX_HEATMAP,
        ),
    )
}  # fmt: skip


__all__ = [
    "MAX_GRAPH_START",
    "MAX_POINTS",
    "MAX_ROWS",
    "N_COLOUR",
    "N_LABEL",
    "N_MARKER",
    "PLOTS",
    "P_COLOUR",
    "P_HATCH",
    "P_LABEL",
    "P_MARKER",
    "PlotError",
    "PlotSpec",
    "game_graph",
    "grundy_plot",
    "hundred_square",
    "number_line",
    "reachable",
    "remoteness_plot",
    "variant_heatmap",
]
