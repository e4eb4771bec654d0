"""Pictures of P- and N-positions for the lessons.

Every function takes the rules (a :class:`~duel_lessons.engine.rules.Rules` value or a
book name such as ``"divisor-duel"``) and a range, draws into ``ax`` if one is
given (else into a new figure) and returns the matplotlib
:class:`~matplotlib.figure.Figure`, so that a lesson can change titles, save it
or add to it.  In a notebook a returned Figure displays itself.

One palette everywhere (Okabe-Ito, safe for colour-blind readers and in
greyscale): P-positions are dark blue squares with a hatch, N-positions light
orange circles.  The legend says the same in words.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrowPatch, Patch, Rectangle
from matplotlib.ticker import MaxNLocator

from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import DuelError, Rules, get_rules, whole_number
from duel_lessons.solving.tables import Table, tabulate

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

#: Largest range for the number line, Grundy and remoteness plots.
MAX_POINTS = 10**6
#: Largest number of rows of the hundred square (1000 cells).
MAX_ROWS = 100
#: Largest start for the game graph.
MAX_GRAPH_START = 200
#: Largest number of columns for the variant heatmap.
MAX_HEATMAP = 10**4


class PlotError(DuelError):
    """A plot asked for with a bad or too-large range."""


def _png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    return buffer.getvalue()


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
        shell.display_formatter.formatters["image/png"].for_type(Figure, _png)


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


def _axes(ax: Axes | None, figsize: tuple[float, float]) -> tuple[Figure, Axes]:
    """The figure and axes to draw in: ``ax`` and its figure, or a new figure."""
    if ax is None:
        fig = Figure(figsize=figsize, layout="constrained")
        return fig, fig.add_subplot()
    root = ax.get_figure(root=True)
    if not isinstance(root, Figure):  # pragma: no cover - an Axes always has a figure
        raise PlotError("The axes given are not in a figure.")
    return root, ax


def _marker_size(count: int) -> float:
    """Marker area (points^2) that keeps ``count`` marks apart on a 10-inch axis."""
    if count <= 100:
        return 60.0
    if count <= 1000:
        return 14.0
    return 2.0


def _legend_outside(ax: Axes, count: int) -> None:
    """The P/N legend (P first) to the right of the axes, never on top of the data."""
    handles, labels = ax.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: labels[i] != P_LABEL)
    ax.legend(
        [handles[i] for i in order],
        [labels[i] for i in order],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0.0,
        markerscale=max(1.0, float(np.sqrt(40 / _marker_size(count)))),
    )


def _pn_scatter(ax: Axes, x: np.ndarray, y: np.ndarray, is_p: np.ndarray) -> None:
    """One scatter per class (fast for 10^5 points): P squares, N circles."""
    size = _marker_size(len(x))
    large = len(x) > 1000
    common: dict[str, object] = {"s": size, "rasterized": large}
    if large:
        common["linewidths"] = 0
    else:
        common.update(edgecolors="black", linewidths=0.5)
    ax.scatter(x[~is_p], y[~is_p], marker=N_MARKER, c=N_COLOUR, label=N_LABEL, zorder=2, **common)  # type: ignore[arg-type]
    ax.scatter(x[is_p], y[is_p], marker=P_MARKER, c=P_COLOUR, label=P_LABEL, zorder=3, **common)  # type: ignore[arg-type]


def _p_n_patches() -> list[Patch]:
    return [
        Patch(facecolor=P_COLOUR, hatch=P_HATCH, edgecolor="white", label=P_LABEL),
        Patch(facecolor=N_COLOUR, edgecolor="white", label=N_LABEL),
    ]


def _table(rules: Rules | str, upto: int) -> Table:
    return tabulate(get_rules(rules), upto)


# -- number line, Grundy, remoteness ---------------------------------------------


def number_line(rules: Rules | str, upto: int = 60, start: int = 1, ax: Axes | None = None) -> Figure:
    """P and N for each n from ``start`` to ``upto`` on a number line (P row above, N row below).

    Returns the Figure (``ax``'s figure if an Axes is given).
    """
    book = get_rules(rules)
    first, last = _range(start, upto)
    outcome = _table(book, last).outcome[first : last + 1]
    n = np.arange(first, last + 1)
    is_p = outcome == 0
    lane = np.where(is_p, 1, 0)
    fig, ax = _axes(ax, (12, 3))
    for y in (0, 1):
        ax.axhline(y, color="0.85", linewidth=1, zorder=1)
    _pn_scatter(ax, n, lane, is_p)
    if len(n) <= 60:
        for k, row in zip(n.tolist(), lane.tolist(), strict=True):
            ax.text(k, row + 0.3, str(k), ha="center", va="bottom", fontsize=6 if k >= 100 else 7)
    ax.set_yticks([0, 1], ["N", "P"])
    ax.set_ylim(-0.6, 1.9)
    ax.set_xlim(first - 0.02 * (last - first) - 0.6, last + 0.02 * (last - first) + 0.6)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=12, integer=True))
    ax.set_xlabel("n, the number on the board")
    ax.set_ylabel("outcome")
    p_count = int(is_p.sum())
    ax.set_title(
        f"{book.title}: P- and N-positions, n = {first} to {last} "
        f"({p_count:,} P-position{'s' if p_count != 1 else ''}, {len(n) - p_count:,} N)"
    )
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    _legend_outside(ax, len(n))
    return fig


def grundy_plot(rules: Rules | str, upto: int = 60, start: int = 1, ax: Axes | None = None) -> Figure:
    """Grundy value against n (P-positions, Grundy value 0, as squares).

    Positions without a Grundy value (e.g. misère play) are left out; a variant
    with none raises PlotError.  Returns the Figure.
    """
    book = get_rules(rules)
    first, last = _range(start, upto)
    table = _table(book, last)
    n = np.arange(first, last + 1)
    grundy = table.grundy[first : last + 1]
    defined = grundy >= 0
    if not defined.any():
        raise PlotError(
            f"{book.title} has no Grundy values for n = {first} to {last} (Grundy values need "
            "normal play: the last player to move wins). Use remoteness_plot or number_line instead."
        )
    is_p = table.outcome[first : last + 1] == 0
    fig, ax = _axes(ax, (10, 4))
    _pn_scatter(ax, n[defined], grundy[defined], is_p[defined])
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_locator(MaxNLocator(nbins=12, integer=True))
    ax.set_xlabel("n, the number on the board")
    ax.set_ylabel("Grundy value (nimber)")
    title = f"{book.title}: Grundy values, n = {first} to {last}"
    missing = int((~defined).sum())
    if missing:
        title += f" ({missing} without a Grundy value not shown)"
    ax.set_title(title)
    ax.grid(axis="y", color="0.9")
    _legend_outside(ax, len(n))
    return fig


def remoteness_plot(rules: Rules | str, upto: int = 60, start: int = 1, ax: Axes | None = None) -> Figure:
    """Remoteness against n: how many moves the game lasts with best play.

    Returns the Figure.
    """
    book = get_rules(rules)
    first, last = _range(start, upto)
    table = _table(book, last)
    n = np.arange(first, last + 1)
    remoteness = table.remoteness[first : last + 1]
    is_p = table.outcome[first : last + 1] == 0
    fig, ax = _axes(ax, (10, 4))
    _pn_scatter(ax, n, remoteness, is_p)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_locator(MaxNLocator(nbins=12, integer=True))
    ax.set_xlabel("n, the number on the board")
    ax.set_ylabel("remoteness (moves left with best play)")
    ax.set_title(f"{book.title}: remoteness, n = {first} to {last}")
    ax.grid(axis="y", color="0.9")
    _legend_outside(ax, len(n))
    return fig


# -- hundred square -------------------------------------------------------------


def hundred_square(rules: Rules | str, start: int = 1, rows: int = 10, ax: Axes | None = None) -> Figure:
    """A 10-column grid of n = start, start+1, ... (1 to 100 by default), coloured P/N.

    Each cell shows its number; P cells are hatched so that the square reads in
    greyscale.  Returns the Figure.
    """
    book = get_rules(rules)
    first = _whole("start", start, 1)
    count = _whole("rows", rows, 1)
    if count > MAX_ROWS:
        raise PlotError(
            f"rows={count} is too many for a hundred square (the limit is {MAX_ROWS}, "
            f"i.e. {10 * MAX_ROWS} numbers). Use number_line for long ranges."
        )
    last = first + 10 * count - 1
    outcome = _table(book, last).outcome
    fig, ax = _axes(ax, (6.4, 0.55 * count + 1.6))
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
            fontsize=10 if k < 1000 else 8,
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
    ax.tick_params(length=0)
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel("add this to the row's first number")
    ax.set_ylabel("row starts at")
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_title(f"{book.title}: n = {first} to {last}")
    ax.legend(handles=_p_n_patches(), loc="upper center", bbox_to_anchor=(0.5, -0.02), ncols=2, frameon=False)
    return fig


# -- game graph -----------------------------------------------------------------


def reachable(rules: Rules | str, start: int) -> tuple[list[int], list[tuple[int, int, int]]]:
    """Positions reachable from ``start`` (largest first) and moves (n, d, result)."""
    book = get_rules(rules)
    seen = {start}
    todo = [start]
    moves: list[tuple[int, int, int]] = []
    while todo:
        n = todo.pop()
        for d in GameState(book, n).legal_moves:
            m = book.result(n, d)
            moves.append((n, d, m))
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return sorted(seen, reverse=True), sorted(moves, reverse=True)


def _label_spot(
    placed: list[tuple[float, float, float]], a: float, b: float, h: float, half_width: float
) -> tuple[float, float]:
    """A point on the arc from a to b (top h) for a label, away from labels already placed.

    Tries the top of the arc first, then points nearer its ends; ``placed``
    collects (x, y, half width) of the labels so far.
    """
    best = ((a + b) / 2, h)
    for t in (0.5, 0.38, 0.62, 0.28, 0.72, 0.2, 0.8):
        # The arc is a quadratic Bezier curve with control point ((a + b) / 2, 2h).
        x = (1 - t) ** 2 * a + 2 * t * (1 - t) * (a + b) / 2 + t**2 * b
        y = 4 * t * (1 - t) * h
        if abs(y) < 0.7:
            continue
        if all(abs(x - px) > hw + half_width or abs(y - py) > 0.45 for px, py, hw in placed):
            best = (x, y)
            break
    placed.append((best[0], best[1], half_width))
    return best


def game_graph(
    rules: Rules | str, start: int | None = None, ax: Axes | None = None, labels: bool | None = None
) -> Figure:
    """Every position reachable from ``start``, in order along a line, with each move as an arrow.

    Positions are equally spaced in order of size (each mark shows its number).
    Winning moves (to a P-position) arc below the line in black, other moves
    above in grey.  Arrows carry the divisor played when ``labels`` is True
    (default: only when there are at most 40 moves).  ``start`` defaults to the
    book's default start; a start the book forbids raises BadStartError.
    Returns the Figure.
    """
    book = get_rules(rules)
    first = book.default_start if start is None else _whole("start", start, 1)
    if first > MAX_GRAPH_START:
        raise PlotError(
            f"start={first} is too big for a readable game graph (the limit is {MAX_GRAPH_START}). "
            "Use number_line or remoteness_plot for large numbers."
        )
    book.check_start(first)
    nodes, moves = reachable(book, first)
    table = _table(book, first)
    is_p = {n: bool(table.outcome[n] == 0) for n in nodes}
    if labels is None:
        labels = len(moves) <= 40
    place = {n: i for i, n in enumerate(sorted(nodes))}  # x position: rank, so 60 -> 30 -> 15 stays compact

    def height(n: int, m: int) -> float:
        # Grows with the jump, and at least 0.8 so no arc runs through the numbers it jumps over.
        return 0.55 + 0.3 * (place[n] - place[m])

    up = max([height(n, m) for n, _, m in moves if not is_p[m]], default=0.0)
    down = max([height(n, m) for n, _, m in moves if is_p[m]], default=0.0)
    x0, x1 = -0.8, len(nodes) - 0.2
    y0, y1 = -down - 0.7, up + 0.7
    width = float(np.clip(0.3 * (x1 - x0), 5.0, 16.0))
    if ax is None:
        # Lay the figure out by hand (in inches) so the axes box has exactly the data's shape:
        # arcs are drawn in screen space and their labels in data space, so the scales must agree.
        height_in = width * (y1 - y0) / (x1 - x0)
        left, right, bottom, top = 0.45, 3.3, 0.45, 0.75
        fig = Figure(figsize=(left + width + right, bottom + height_in + top))
        fig_w, fig_h = fig.get_size_inches()
        ax = fig.add_axes((left / fig_w, bottom / fig_h, width / fig_w, height_in / fig_h))
    else:
        fig, ax = _axes(ax, (0, 0))
    unit = width * 72 / (x1 - x0)  # points per step along the line, roughly
    diameter = float(min(0.85 * unit, 22.0))
    fontsize = float(np.clip(0.42 * diameter, 4.0, 9.0))

    ax.axhline(0, color="0.85", linewidth=1, zorder=0)
    placed: list[tuple[float, float, float]] = []
    for n, d, m in moves:
        wins = is_p[m]
        h = height(n, m) * (-1 if wins else 1)
        # arc3: the control point sits rad * distance from the middle; the arc's top is half that.
        rad = 2 * h / (place[n] - place[m])  # n -> m goes left, and positive rad bends up
        ax.add_patch(
            FancyArrowPatch(
                (place[n], 0),
                (place[m], 0),
                connectionstyle=f"arc3,rad={rad}",
                arrowstyle="-|>",
                mutation_scale=8,
                shrinkA=diameter / 2,
                shrinkB=diameter / 2 + 1,
                zorder=2 if wins else 1,
                color=WIN_MOVE_COLOUR if wins else OTHER_MOVE_COLOUR,
                linewidth=1.3 if wins else 0.8,
            )
        )
        if labels:
            lx, ly = _label_spot(placed, place[n], place[m], h, 0.35 * fontsize / unit * max(len(str(d)), 1.5))
            ax.text(
                lx,
                ly,
                str(d),
                ha="center",
                va="center",
                fontsize=fontsize,
                color=WIN_MOVE_COLOUR if wins else "0.3",
                zorder=4,
                bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none"},
            )
    x = np.array([place[n] for n in nodes], dtype=float)
    p_mask = np.array([is_p[n] for n in nodes])
    style = {"s": diameter**2, "edgecolors": "black", "linewidths": 0.6, "zorder": 3}
    ax.scatter(x[p_mask], np.zeros(p_mask.sum()), marker=P_MARKER, c=P_COLOUR, label=P_LABEL, **style)  # type: ignore[arg-type]
    ax.scatter(x[~p_mask], np.zeros((~p_mask).sum()), marker=N_MARKER, c=N_COLOUR, label=N_LABEL, **style)  # type: ignore[arg-type]
    for n in nodes:
        ax.text(
            place[n],
            0,
            str(n),
            ha="center",
            va="center",
            fontsize=fontsize,
            zorder=5,
            color="white" if is_p[n] else "black",
            fontweight="bold",
        )
    ring = Circle(
        (place[first], 0), 0.5 * (diameter + 8) / unit, facecolor="none", edgecolor="black", linewidth=1.4, zorder=3
    )
    ax.add_patch(ring)
    handles = [
        *(
            Line2D([], [], linestyle="none", marker=marker, markersize=9, markerfacecolor=colour,
                   markeredgecolor="black", label=label)
            for marker, colour, label in ((P_MARKER, P_COLOUR, P_LABEL), (N_MARKER, N_COLOUR, N_LABEL))
        ),
        Line2D(
            [],
            [],
            linestyle="none",
            marker="o",
            markersize=12,
            markerfacecolor="none",
            markeredgecolor="black",
            markeredgewidth=1.4,
            label=f"start: {first}",
        ),
        Line2D([], [], color=WIN_MOVE_COLOUR, linewidth=1.3, label="winning move (to a P-position), below"),
        Line2D([], [], color=OTHER_MOVE_COLOUR, linewidth=0.8, label="other move, above"),
    ]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=8)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_xlabel(
        "positions in order of size; each arrow is a move" + (", labelled with its divisor" if labels else "")
    )
    ax.set_ylabel("winning moves below, others above", fontsize=8)
    for spine in ax.spines.values():
        spine.set_visible(False)
    outcome = "P: the first player loses" if is_p[first] else "N: the first player wins"
    ax.set_title(f"{book.title} from {first}: {len(nodes)} positions, {len(moves)} moves\n({first} is {outcome})")
    return fig


# -- variants side by side -------------------------------------------------------------


def _row_labels(books: Sequence[Rules]) -> list[str]:
    titles = [b.title for b in books]
    return [b.title if titles.count(b.title) == 1 else b.name for b in books]


def variant_heatmap(variants: Sequence[Rules | str], upto: int = 60, ax: Axes | None = None) -> Figure:
    """One row per variant, one column per n = 1..upto, cells coloured P/N (P hatched).

    Returns the Figure.
    """
    if isinstance(variants, (str, Rules)) or not len(variants):
        raise PlotError(f"variants must be a non-empty list of rules or book names, not {variants!r}.")
    books = [get_rules(v) for v in variants]
    last = _whole("upto", upto, 1)
    if last > MAX_HEATMAP:
        raise PlotError(f"upto={last} is too many columns (the limit is {MAX_HEATMAP:,}). Use number_line instead.")
    data = np.array([_table(b, last).outcome[1 : last + 1] for b in books], dtype=np.int8)
    rows = len(books)
    fig, ax = _axes(ax, (min(4.0 + 0.16 * last, 16.0), 0.45 * rows + 1.6))
    ax.imshow(
        data,
        cmap=ListedColormap([P_COLOUR, N_COLOUR]),
        vmin=0,
        vmax=1,
        aspect="auto",
        interpolation="nearest",
        extent=(0.5, last + 0.5, rows - 0.5, -0.5),
    )
    if last <= 400:  # hatches are invisible in narrower cells
        p_cells = [Rectangle((k + 0.5, r - 0.5), 1, 1) for r in range(rows) for k in np.flatnonzero(data[r] == 0)]
        ax.add_collection(
            PatchCollection(p_cells, facecolor="none", edgecolor="white", linewidth=0, hatch=P_HATCH, gid="P")
        )
    if last <= 120:  # thin separators between cells
        ax.set_xticks(np.arange(0.5, last + 1), minor=True)
        ax.grid(which="minor", axis="x", color="white", linewidth=0.5)
    ax.set_yticks(range(rows), _row_labels(books))
    ax.set_yticks(np.arange(-0.5, rows), minor=True)
    ax.grid(which="minor", axis="y", color="white", linewidth=2)
    ax.tick_params(which="minor", length=0)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=15, integer=True))
    ax.set_xlabel("n, the number on the board")
    ax.set_ylabel("variant")
    ax.set_title(f"P- and N-positions of {rows} variant{'s' if rows > 1 else ''}, n = 1 to {last}")
    ax.legend(
        handles=_p_n_patches(),
        loc="upper center",
        bbox_to_anchor=(0.5, -0.25 if rows < 4 else -0.12),
        ncols=2,
        frameon=False,
    )
    return fig


__all__ = [
    "MAX_GRAPH_START",
    "MAX_POINTS",
    "MAX_ROWS",
    "N_COLOUR",
    "N_LABEL",
    "N_MARKER",
    "P_COLOUR",
    "P_HATCH",
    "P_LABEL",
    "P_MARKER",
    "PlotError",
    "game_graph",
    "grundy_plot",
    "hundred_square",
    "number_line",
    "reachable",
    "remoteness_plot",
    "variant_heatmap",
]
